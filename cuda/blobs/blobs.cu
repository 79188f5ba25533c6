/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CUDA plan of the blobs (blobs.h), the device twin of blobs-ref.c.
 *
 * Per frame, all on the caller's stream, nothing allocated:
 *  1. label_tiles: threshold, union-find inside 32 x tile_rows tiles in
 *     shared memory, the tile roots marked in a bitmap, each tile root's
 *     statistics (its record: blobs-stats.cuh), foreground counted
 *     (blobs-label.cuh);
 *  2. merge_tiles: unions across the tiles' edges in global memory;
 *  3. compress_roots: every tile root points at its blob's root and adds
 *     its record into the root's, the blobs' roots counted per segment
 *     of the bitmap (raster order);
 *  4. scan of the segments' counts (one block): the roots' ranks start;
 *  5. rank_roots: each root's rank (its blob's place in the order), its
 *     record copied to the rank;
 *  6. select_blobs: the filters, the cut of max_blobs, the results
 *     written to mapped pinned host memory (the reported entries only),
 *     each passing blob's number (blobs-select.cuh);
 *  7. write_output: the mask or the labels.
 *
 * Union by the minimum raster index makes each blob's root its first
 * pixel, so the ranks of step 5 are the order of blobs.h with no sort. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "blobs.h"
#include "blobs-arrays.h"
#include "cm-align.h"
#include "cm-cuda.h"
#include "blobs-label.cuh"
#include "blobs-select.cuh"

#define SCAN_THREADS 1024       /* the one-block scan                      */

struct cm_blobs_plan
{
  cm_blobs_desc desc;
  int width, height;
  cm_depth depth;
  cm_blobs_tuning tuning;
  uint32_t threshold;
  uint32_t npix;
  int wpr;                      /* bitmap words a row                     */
  uint32_t nwords, nseg;        /* bitmap words, segments of them         */
  uint32_t most;                /* blobs a frame can hold                 */
  uint32_t nblk;                /* selection blob blocks for @most        */
  uint32_t select_grid;         /* blocks of select_blobs                 */
  uint32_t capacity;            /* reported entries the results hold      */
  uint32_t cand_cap;
  int tile_rows;
  int pdl;                      /* steps launched early (sm_90 on)        */
  /* device */
  uint32_t *labels;
  uint32_t *bm;                 /* nwords: the tile roots                 */
  uint32_t *first;              /* nwords: a word's first record          */
  uint32_t *roots_bm;           /* nwords: the blobs' roots               */
  uint32_t *seg;                /* nseg counts, scanned in place          */
  void *zeroed;                 /* ctl and hist, in one piece zeroed
                                 * before each frame                      */
  size_t zeroed_bytes;
  uint32_t *blk;                /* BLK_ARRAYS x nblk                      */
  uint32_t *hist;               /* AREA_BINS                              */
  uint32_t *cand;               /* cand_cap                               */
  uint32_t *number;             /* most: passing number, 0 dropped        */
  uint32_t records;             /* tile roots' records: a tile's most,
                                 * a tile after another                   */
  blobs_stats st;               /* most, by rank                          */
  blobs_stats rec;              /* records, by tile root                  */
  void *stats_mem;
  blobs_ctl *ctl;
  /* mapped pinned host memory: the results and their arrays */
  void *host_mem;
  cm_blobs_results *res;        /* host address                           */
  cm_blobs_results *res_dev;    /* its device address                     */
  cm_blobs_results arrays_dev;  /* the arrays' device addresses           */
  select_args sel;              /* step 6's arguments                     */
};

/* ---- 4: the segments' counts scanned ------------------------------------ */

static __global__ void
__launch_bounds__ (SCAN_THREADS)
scan_segments (uint32_t *seg, uint32_t nseg, blobs_ctl *ctl)
{
  __shared__ uint32_t scratch[32];
  pdl_wait ();                  /* launched early: cm-pdl.cuh */
  pdl_trigger ();               /* one block: the next may come early */
  const uint32_t roots = scan_array (seg, seg, nseg, scratch);

  if (threadIdx.x == 0)
    ctl->roots = roots;
}

/* ---- the plan ------------------------------------------------------------ */

static void
plan_release (cm_blobs_plan *p)
{
  cudaFree (p->labels);
  cudaFree (p->bm);
  cudaFree (p->first);
  cudaFree (p->roots_bm);
  cudaFree (p->seg);
  cudaFree (p->blk);
  cudaFree (p->cand);
  cudaFree (p->number);
  cudaFree (p->stats_mem);
  cudaFree (p->zeroed);
  cudaFreeHost (p->host_mem);
  free (p);
}

/* The bytes of statistics arrays for @n entries */
static size_t
stats_bytes (size_t n)
{
  return cm_align64 (n * (3 * sizeof (unsigned long long) +
          7 * sizeof (uint32_t)));
}

/* Statistics arrays for @n entries from @m */
static void
stats_place (blobs_stats *s, char *m, size_t n)
{
  s->sum_x = (unsigned long long *) m;
  s->sum_y = s->sum_x + n;
  s->sum_v = s->sum_y + n;
  s->area = (uint32_t *) (s->sum_v + n);
  s->x0 = s->area + n;
  s->x1 = s->x0 + n;
  s->y0 = s->x1 + n;
  s->y1 = s->y0 + n;
  s->vmin = s->y1 + n;
  s->vmax = s->vmin + n;
}

/* the blobs' statistics (@most) and the tile roots' records, in one
 * allocation */
static cudaError_t
stats_alloc (cm_blobs_plan *p)
{
  cudaError_t e = cudaMalloc (&p->stats_mem, stats_bytes (p->most) +
      stats_bytes (p->records));

  if (e != cudaSuccess)
    return e;
  stats_place (&p->st, (char *) p->stats_mem, p->most);
  stats_place (&p->rec, (char *) p->stats_mem + stats_bytes (p->most),
      p->records);
  return cudaSuccess;
}

/* the results and their arrays in mapped pinned memory: host addresses in
 * *p->res, device addresses in p->arrays_dev */
static cudaError_t
results_alloc (cm_blobs_plan *p)
{
  const size_t n = p->capacity ? p->capacity : 1;
  /* the struct, then the 8-byte arrays */
  const size_t head = cm_align64 (sizeof (cm_blobs_results));
  const size_t bytes = head + cm_blobs_arrays_bytes (n);
  char *h, *d;
  cudaError_t e = cudaHostAlloc (&p->host_mem, bytes, cudaHostAllocMapped);

  if (e != cudaSuccess)
    return e;
  memset (p->host_mem, 0, head);
  e = cudaHostGetDevicePointer ((void **) &d, p->host_mem, 0);
  if (e != cudaSuccess)
    return e;
  h = (char *) p->host_mem;
  p->res = (cm_blobs_results *) h;
  p->res_dev = (cm_blobs_results *) d;
  cm_blobs_arrays_place (p->res, h + head, n);
  cm_blobs_arrays_place (&p->arrays_dev, d + head, n);
  return cudaSuccess;
}

/* select_blobs' grid: as many blocks as the blob blocks of the most
 * blobs, at most as many as are resident at once (more would only take
 * their tickets late) */
static cudaError_t
select_grid_size (cm_blobs_plan *p)
{
  int sms = 0, per_sm = 0;
  cudaError_t e = cm_device_attribute (cudaDevAttrMultiProcessorCount, &sms);

  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm,
        select_blobs, BLOB_THREADS, 0);
  if (e != cudaSuccess)
    return e;
  if (per_sm < 1)
    per_sm = 1;
  p->select_grid = p->nblk < (uint32_t) (per_sm * sms) ? p->nblk :
      (uint32_t) (per_sm * sms);
  return cudaSuccess;
}

static void
select_args_fill (cm_blobs_plan *p)
{
  select_args &a = p->sel;

  a.st = p->st;
  a.ctl = p->ctl;
  a.blk = p->blk;
  a.nblk = p->nblk;
  a.hist = p->hist;
  a.cand = p->cand;
  a.cand_cap = p->cand_cap;
  a.min_area = p->desc.min_area ? p->desc.min_area : 1;
  a.max_area = p->desc.max_area;
  a.exclude_border = p->desc.exclude_border;
  a.width = p->width;
  a.height = p->height;
  a.max_blobs = p->desc.max_blobs;
  a.labels_output = p->desc.output == CM_BLOBS_OUTPUT_LABELS;
  a.res = p->res_dev;
  a.out = p->arrays_dev;
  a.number = p->number;
}

extern "C" cm_status
cm_blobs_plan_new_tuned (cm_blobs_plan **out, const cm_blobs_desc *desc,
    int width, int height, cm_depth depth, const cm_blobs_tuning *tuning)
{
  cm_blobs_plan *p;
  cm_blobs_desc all;
  cudaError_t e;
  int tr;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!cm_blobs_desc_ok (desc) || !cm_frame_ok (width, height, depth))
    return CM_ERR_INVALID_ARG;
  tr = tuning && tuning->tile_rows ? tuning->tile_rows : 8;
  if (tr < 1 || tr > 32 || (tuning && tuning->steps < 0))
    return CM_ERR_INVALID_ARG;
  /* raster indices and ranks below BLOBS_RANK */
  if ((uint64_t) width * (uint64_t) height >= BLOBS_RANK)
    return CM_ERR_UNSUPPORTED;
  p = cm_plan_alloc<cm_blobs_plan> (desc, width, height, depth);
  if (p == NULL)
    return CM_ERR_NO_MEMORY;
  if (tuning)
    p->tuning = *tuning;
  p->tile_rows = tr;
  p->threshold = desc->threshold > cm_depth_max (depth) ?
      cm_depth_max (depth) : desc->threshold;
  p->npix = (uint32_t) width * (uint32_t) height;
  p->wpr = (width + TILE_W - 1) / TILE_W;
  p->nwords = (uint32_t) p->wpr * (uint32_t) height;
  p->nseg = (p->nwords + SEG_THREADS - 1) / SEG_THREADS;
  all = *desc;
  all.max_blobs = 0;
  p->most = cm_blobs_capacity (&all, width, height);
  p->nblk = (p->most + BLOB_THREADS - 1) / BLOB_THREADS;
  {
    int major = 0;

    p->pdl = cm_device_attribute (cudaDevAttrComputeCapabilityMajor,
        &major) == cudaSuccess && major >= 9;
  }
  p->capacity = cm_blobs_capacity (desc, width, height);
  p->records = (uint32_t) ((width + TILE_W - 1) / TILE_W) * (uint32_t) ((height
          + tr - 1) / tr) * tile_records (desc->connectivity == 8, tr);
  p->cand_cap = p->npix / TOP_BIN + 1;

  e = cudaMalloc (&p->labels, (size_t) p->npix * sizeof (uint32_t));
  if (e == cudaSuccess)
    e = cudaMalloc (&p->bm, (size_t) p->nwords * sizeof (uint32_t));
  if (e == cudaSuccess)
    e = cudaMalloc (&p->first, (size_t) p->nwords * sizeof (uint32_t));
  if (e == cudaSuccess)
    e = cudaMalloc (&p->roots_bm, (size_t) p->nwords * sizeof (uint32_t));
  if (e == cudaSuccess)
    e = cudaMalloc (&p->seg, (size_t) p->nseg * sizeof (uint32_t));
  if (e == cudaSuccess)
    e = cudaMalloc (&p->blk, (size_t) BLK_ARRAYS * p->nblk *
        sizeof (uint32_t));
  if (e == cudaSuccess)
    e = cudaMalloc (&p->cand, (size_t) p->cand_cap * sizeof (uint32_t));
  if (e == cudaSuccess && desc->output != CM_BLOBS_OUTPUT_NONE)
    e = cudaMalloc (&p->number, (size_t) p->most * sizeof (uint32_t));
  /* one memset a frame: the counters and the histogram */
  p->zeroed_bytes = sizeof (blobs_ctl) + AREA_BINS * sizeof (uint32_t);
  if (e == cudaSuccess)
    e = cudaMalloc (&p->zeroed, p->zeroed_bytes);
  if (e == cudaSuccess) {
    p->ctl = (blobs_ctl *) p->zeroed;
    p->hist = (uint32_t *) (p->ctl + 1);
  }
  if (e == cudaSuccess)
    e = stats_alloc (p);
  if (e == cudaSuccess)
    e = results_alloc (p);
  if (e == cudaSuccess)
    e = select_grid_size (p);
  if (e != cudaSuccess) {
    plan_release (p);
    return cm_cuda_status (e);
  }
  select_args_fill (p);
  *out = p;
  return CM_OK;
}

extern "C" cm_status
cm_blobs_plan_new (cm_blobs_plan **out, const cm_blobs_desc *desc,
    int width, int height, cm_depth depth)
{
  return cm_blobs_plan_new_tuned (out, desc, width, height, depth, NULL);
}

extern "C" void
cm_blobs_plan_free (cm_blobs_plan *p)
{
  if (p != NULL)
    plan_release (p);
}

extern "C" const cm_blobs_results *
cm_blobs_plan_results (const cm_blobs_plan *p)
{
  return p ? p->res : NULL;
}

typedef void (*label_fn) (const void *, size_t, int, int, uint32_t, bool,
    uint32_t *, uint32_t *, uint32_t *, int, blobs_stats, blobs_ctl *);

extern "C" cm_status
cm_blobs_plan_run (cm_blobs_plan *p, const cm_image *src,
    const cm_image *dst, void *stream)
{
  cudaStream_t s = (cudaStream_t) stream;
  const bool conn8 = p != NULL && p->desc.connectivity == 8;
  const bool is16 = p != NULL && p->depth == CM_DEPTH_16;
  cudaError_t e;

  if (p == NULL || !cm_image_aligned_ok (src) || src->width != p->width ||
      src->height != p->height || src->depth != p->depth)
    return CM_ERR_INVALID_ARG;
  if (p->desc.output != CM_BLOBS_OUTPUT_NONE && (!cm_image_aligned_ok (dst)
          || dst->width != p->width || dst->height != p->height ||
          dst->depth != cm_blobs_output_depth (&p->desc, p->depth) ||
          cm_images_overlap (src, dst)))
    return CM_ERR_INVALID_ARG;

  const int w = p->width, h = p->height, tr = p->tile_rows;
  const dim3 tiles ((w + TILE_W - 1) / TILE_W, (h + tr - 1) / tr);
  const dim3 rows ((w + TILE_W - 1) / TILE_W, (h + OUT_ROWS - 1) / OUT_ROWS);
  const label_fn label = is16 ?
      (conn8 ? label_tiles<uint16_t, true> : label_tiles<uint16_t, false>) :
      (conn8 ? label_tiles<uint8_t, true> : label_tiles<uint8_t, false>);

  e = cudaMemsetAsync (p->zeroed, 0, p->zeroed_bytes, s);
  if (e != cudaSuccess)
    return cm_cuda_status (e);
  /* steps as numbered above; @steps stops early (benchmarks) */
  const int steps = p->tuning.steps > 0 ? p->tuning.steps : 7;

  label <<< tiles, dim3 (TILE_W, tr), TILE_W * tr * TILE_SLOTS_WORDS *
      sizeof (uint32_t), s >>> (src->data, src->pitch, w, h, p->threshold,
      p->desc.invert != 0, p->labels, p->bm, p->first, p->wpr, p->rec,
      p->ctl);
  /* every step after the labelling may be launched while the one before
   * it ends (cm-pdl.cuh): each waits for it before reading anything */
  const int pdl = p->pdl;
  cudaError_t first_error = cudaGetLastError ();
  auto keep = [&first_error] (cudaError_t err) {
    if (first_error == cudaSuccess)
      first_error = err;
  };

  if (steps >= 2)
    keep (pdl_launch_params (conn8 ? merge_tiles<true> : merge_tiles<false>,
            tiles, dim3 (TILE_W + tr), 0, s, pdl, p->labels, w, h, tr));
  if (steps >= 3)
    keep (pdl_launch_params (compress_roots, dim3 (p->nseg),
            dim3 (SEG_THREADS), 0, s, pdl, p->labels, p->bm, p->first,
            p->roots_bm, p->nwords, w, p->wpr, p->rec, p->seg));
  if (steps >= 4)
    keep (pdl_launch_params (scan_segments, dim3 (1), dim3 (SCAN_THREADS),
            0, s, pdl, p->seg, p->nseg, p->ctl));
  if (steps >= 5)
    keep (pdl_launch_params (rank_roots, dim3 (p->nseg), dim3 (SEG_THREADS),
            0, s, pdl, p->labels, p->roots_bm, p->bm, p->first, p->nwords,
            w, p->wpr, p->seg, p->rec, p->st));
  if (steps >= 6)
    keep (pdl_launch_params (select_blobs, dim3 (p->select_grid),
            dim3 (BLOB_THREADS), 0, s, pdl, p->sel));
  if (steps >= 7 && p->desc.output != CM_BLOBS_OUTPUT_NONE) {
    const bool labels = p->desc.output == CM_BLOBS_OUTPUT_LABELS;

    keep (pdl_launch_params (labels ? write_output<uint16_t, false> : is16 ?
            write_output<uint16_t, true> : write_output<uint8_t, true>,
            rows, dim3 (TILE_W, OUT_ROWS), 0, s, pdl, dst->data, dst->pitch,
            w, h, (const uint32_t *) p->labels,
            (const uint32_t *) p->number, is16 || labels ? 65535u : 255u));
  }
  return cm_cuda_status (first_error);
}
