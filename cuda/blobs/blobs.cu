/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CUDA plan of the blobs (blobs.h), the device twin of blobs-ref.c.
 *
 * Per frame, all on the caller's stream, nothing allocated, in one graph
 * launch (the memset and the steps below captured once per result slot
 * when the plan is made; a frame sets its images' addresses into the
 * labelling's and the output's nodes):
 *  1. label_tiles: threshold, union-find inside 128 x tile_rows tiles in
 *     shared memory, the tile roots marked in a bitmap, each tile root's
 *     statistics (its record: blobs-stats.cuh), foreground counted
 *     (blobs-tiles.cuh);
 *  2. merge_tiles: unions across the tiles' edges in global memory;
 *  3. compress_roots: every tile root points at its blob's root and adds
 *     its record into the root's, the blobs' roots counted per segment
 *     of the bitmap (raster order);
 *  4. rank_roots: each root's rank (its blob's place in the order: the
 *     roots of the segments before its own, added up by each block), its
 *     area and the index of its record kept by rank; the blobs counted;
 *  5. per blob (steps 5 to 9: blobs-select.cuh): the filters, the area
 *     histogram of the selection;
 *  6. one block: the passing blobs counted, the cut of max_blobs;
 *  7. per blob: blobs above and at the cut counted per block;
 *  8. one block: the reported blobs' places;
 *  9. per blob: the results written to mapped pinned host memory (the
 *     reported entries only), each passing blob's number;
 * 10. write_output: the mask or the labels.
 *
 * Union by the minimum raster index makes each blob's root its first
 * pixel, so the ranks of step 4 are the order of blobs.h with no sort.
 * max_blobs: the cut is the max_blobs-th largest passing area, from a
 * histogram of areas below AREA_BINS - 1 and, for the top bin, the exact
 * areas of its (few: at most pixels / (AREA_BINS - 1)) blobs; blobs above
 * the cut are reported, and of those at the cut the first ones in the
 * order, as many as are missing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "blobs.h"
#include "blobs-arrays.h"
#include "cm-align.h"
#include "cm-cuda.h"
#include "blobs-label.cuh"
#include "blobs-tiles.cuh"
#include "blobs-select.cuh"

/* The kernels whose instance the plan chooses (depth, connectivity,
 * the merge's finds, the output) */
typedef void (*label_fn) (const void *, size_t, int, int, uint32_t, bool,
    uint32_t *, uint32_t *, uint32_t *, int, blobs_stats, blobs_ctl *);
typedef void (*merge_fn) (uint32_t *, int, int, int);
typedef void (*output_fn) (void *, size_t, int, int, const uint32_t *,
    const uint32_t *, uint32_t);

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
  uint32_t nblk;                /* per-blob blocks for @most              */
  uint32_t blob_grid;           /* blocks of a per-blob kernel            */
  uint32_t capacity;            /* reported entries the results hold      */
  uint32_t cand_cap;
  int tile_rows;
  int pdl;                      /* steps launched early (sm_90 on)        */
  label_fn label;               /* step 1's instance                      */
  merge_fn merge;               /* step 2's: its finds halve paths or not */
  output_fn output;             /* step 10's (NULL: no output image)      */
  uint32_t output_max;          /* the output's foreground value, or the
                                 * labels' largest                        */
  /* device */
  uint32_t *labels;
  uint32_t *bm;                 /* nwords: the tile roots                 */
  uint32_t *first;              /* nwords: a word's first record          */
  uint32_t *roots_bm;           /* nwords: the blobs' roots               */
  uint32_t *seg;                /* nseg: the blobs' roots of a segment    */
  void *zeroed;                 /* ctl and hist, in one piece zeroed
                                 * before each frame                      */
  size_t zeroed_bytes;
  uint32_t *blk;                /* BLK_ARRAYS x nblk                      */
  uint32_t *hist;               /* AREA_BINS                              */
  uint32_t *cand;               /* cand_cap                               */
  uint32_t *number;             /* most: passing number, 0 dropped        */
  uint32_t records;             /* tile roots' records: a tile's most,
                                 * a tile after another                   */
  uint32_t *rank_area;          /* most, by rank: the blob's area         */
  uint32_t *rank_record;        /* most, by rank: the blob's record       */
  blobs_stats st;               /* records and areas, by tile root        */
  void *stats_mem;
  blobs_ctl *ctl;
  /* mapped pinned host memory: the results and their arrays, one set
   * per result slot */
  int slots, slot;              /* slots made, the one in use             */
  void *host_mem[CM_BLOBS_MAX_RESULT_SLOTS];
  cm_blobs_results *res[CM_BLOBS_MAX_RESULT_SLOTS];     /* host address  */
  cm_blobs_results *res_dev[CM_BLOBS_MAX_RESULT_SLOTS]; /* device's      */
  cm_blobs_results arrays_dev[CM_BLOBS_MAX_RESULT_SLOTS];       /* the
                                 * arrays' device addresses               */
  /* a frame's memset and launches, captured once per result slot when
   * the plan is made: a frame is one graph launch. The labelling's and
   * the output's nodes take each frame's images (the others' arguments
   * are the plan's own); @at_src and @at_dst: the images they hold. */
  cudaGraph_t graph[CM_BLOBS_MAX_RESULT_SLOTS];
  cudaGraphExec_t exec[CM_BLOBS_MAX_RESULT_SLOTS];
  cudaGraphNode_t label_node[CM_BLOBS_MAX_RESULT_SLOTS];
  cudaGraphNode_t output_node[CM_BLOBS_MAX_RESULT_SLOTS];
  cm_image at_src[CM_BLOBS_MAX_RESULT_SLOTS], at_dst[CM_BLOBS_MAX_RESULT_SLOTS];
};

/* ---- the plan ------------------------------------------------------------ */

static void
plan_release (cm_blobs_plan *p)
{
  for (int i = 0; i < CM_BLOBS_MAX_RESULT_SLOTS; i++) {
    if (p->exec[i] != NULL)
      cudaGraphExecDestroy (p->exec[i]);
    if (p->graph[i] != NULL)
      cudaGraphDestroy (p->graph[i]);
  }
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
  for (int i = 0; i < CM_BLOBS_MAX_RESULT_SLOTS; i++)
    cudaFreeHost (p->host_mem[i]);
  free (p);
}

/* the tile roots' records and areas (@records each) and the blobs' areas
 * and records by rank (@most each), in one allocation */
static cudaError_t
stats_alloc (cm_blobs_plan *p)
{
  const size_t by_rank = cm_align64 ((size_t) p->most * sizeof (uint32_t));
  const size_t records = cm_align64 ((size_t) p->records *
      sizeof (blob_record));
  const size_t areas = cm_align64 ((size_t) p->records * sizeof (uint32_t));
  cudaError_t e = cudaMalloc (&p->stats_mem, records + areas + 2 * by_rank);

  if (e != cudaSuccess)
    return e;
  p->st.rec = (blob_record *) p->stats_mem;
  p->st.area = (uint32_t *) ((char *) p->stats_mem + records);
  p->rank_area = (uint32_t *) ((char *) p->st.area + areas);
  p->rank_record = (uint32_t *) ((char *) p->rank_area + by_rank);
  return cudaSuccess;
}

/* Result slot @i's results and arrays in mapped pinned memory: host
 * addresses in *p->res[i], device addresses in p->arrays_dev[i] */
static cudaError_t
results_alloc (cm_blobs_plan *p, int i)
{
  const size_t n = p->capacity ? p->capacity : 1;
  /* the struct, then the 8-byte arrays */
  const size_t head = cm_align64 (sizeof (cm_blobs_results));
  const size_t bytes = head + cm_blobs_arrays_bytes (n);
  char *h, *d;
  cudaError_t e = cudaHostAlloc (&p->host_mem[i], bytes,
      cudaHostAllocMapped);

  if (e != cudaSuccess)
    return e;
  memset (p->host_mem[i], 0, head);
  e = cudaHostGetDevicePointer ((void **) &d, p->host_mem[i], 0);
  if (e != cudaSuccess)
    return e;
  h = (char *) p->host_mem[i];
  p->res[i] = (cm_blobs_results *) h;
  p->res_dev[i] = (cm_blobs_results *) d;
  cm_blobs_arrays_place (p->res[i], h + head, n);
  cm_blobs_arrays_place (&p->arrays_dev[i], d + head, n);
  return cudaSuccess;
}

/* Each step's kernel instance, once for the plan */
static void
plan_choose_kernels (cm_blobs_plan *p, bool merge_halving)
{
  const bool conn8 = p->desc.connectivity == 8;
  const bool is16 = p->depth == CM_DEPTH_16;

  p->label = is16 ?
      (conn8 ? label_tiles<uint16_t, true> : label_tiles<uint16_t, false>) :
      (conn8 ? label_tiles<uint8_t, true> : label_tiles<uint8_t, false>);
  if (conn8)
    p->merge = merge_halving ? merge_tiles<true, true> :
        merge_tiles<true, false>;
  else
    p->merge = merge_halving ? merge_tiles<false, true> :
        merge_tiles<false, false>;
  switch (p->desc.output) {
    case CM_BLOBS_OUTPUT_LABELS:
      p->output = write_output<uint16_t, false>;
      p->output_max = 65535u;
      break;
    case CM_BLOBS_OUTPUT_MASK:
      p->output = is16 ? write_output<uint16_t, true> :
          write_output<uint8_t, true>;
      p->output_max = is16 ? 65535u : 255u;
      break;
    default:
      p->output = NULL;
      p->output_max = 0;
      break;
  }
}

/* The labelling's launch configuration, and its arguments for @src */
struct label_launch
{
  dim3 grid, block;
  size_t shared;
  const void *data;
  size_t pitch;
  int width, height;
  uint32_t threshold;
  bool invert;
  void *args[12];
};

static void
label_launch_init (label_launch *l, cm_blobs_plan *p, const cm_image *src)
{
  const int tr = p->tile_rows;

  l->grid = dim3 ((p->width + TILE_W - 1) / TILE_W, (p->height + tr - 1) /
      tr);
  l->block = dim3 (32, tr);
  l->shared = (size_t) TILE_SLOTS_WORDS * (TILE_W / 2) * tr *
      sizeof (uint32_t);
  l->data = src->data;
  l->pitch = src->pitch;
  l->width = p->width;
  l->height = p->height;
  l->threshold = p->threshold;
  l->invert = p->desc.invert != 0;
  /* label_tiles' parameters, in order */
  void *args[12] = { &l->data, &l->pitch, &l->width, &l->height,
    &l->threshold, &l->invert, &p->labels, &p->bm, &p->first, &p->wpr,
    &p->st, &p->ctl
  };
  memcpy (l->args, args, sizeof (args));
}

/* The output's, for @dst */
struct output_launch
{
  dim3 grid, block;
  void *data;
  size_t pitch;
  int width, height;
  const uint32_t *labels, *number;
  uint32_t max;
  void *args[7];
};

static void
output_launch_init (output_launch *l, cm_blobs_plan *p, const cm_image *dst)
{
  l->grid = dim3 ((p->width + OUT_W - 1) / OUT_W, (p->height + OUT_ROWS - 1) /
      OUT_ROWS);
  l->block = dim3 (OUT_W, OUT_ROWS);
  l->data = dst->data;
  l->pitch = dst->pitch;
  l->width = p->width;
  l->height = p->height;
  l->labels = p->labels;
  l->number = p->number;
  l->max = p->output_max;
  /* write_output's parameters, in order */
  void *args[7] = { &l->data, &l->pitch, &l->width, &l->height, &l->labels,
    &l->number, &l->max
  };
  memcpy (l->args, args, sizeof (args));
}

/* The stream's last captured node */
static cudaError_t
captured_node (cudaStream_t s, cudaGraphNode_t *node)
{
  cudaStreamCaptureStatus status;
  const cudaGraphNode_t *deps = NULL;
  const cudaGraphEdgeData *edges = NULL;        /* asked for: without it a
                                                 * programmatic edge fails
                                                 * the query */
  size_t n = 0;
  cudaError_t e = cudaStreamGetCaptureInfo (s, &status, NULL, NULL, &deps,
      &edges, &n);

  if (e == cudaSuccess && (status != cudaStreamCaptureStatusActive || n != 1))
    e = cudaErrorStreamCaptureInvalidated;
  if (e == cudaSuccess)
    *node = deps[0];
  return e;
}

/* A frame's memset and steps into result slot @k, queued on @s (which
 * is capturing: the labelling's and the output's nodes are kept) */
static cudaError_t
capture_steps (cm_blobs_plan *p, int k, const cm_image *src,
    const cm_image *dst, cudaStream_t s)
{
  const bool select = p->desc.max_blobs != 0;
  const int w = p->width, h = p->height, tr = p->tile_rows;
  label_launch lab;
  blob_args a;
  cudaError_t e;

  a.area = p->rank_area;
  a.record = p->rank_record;
  a.rec = p->st.rec;
  a.ctl = p->ctl;
  a.blk = p->blk;
  a.nblk = p->nblk;
  a.min_area = p->desc.min_area ? p->desc.min_area : 1;
  a.max_area = p->desc.max_area;
  a.exclude_border = p->desc.exclude_border;
  a.width = w;
  a.height = h;

  e = cudaMemsetAsync (p->zeroed, 0, p->zeroed_bytes, s);
  if (e != cudaSuccess)
    return e;
  /* steps as numbered above; @steps stops early (benchmarks) */
  const int steps = p->tuning.steps > 0 ? p->tuning.steps : 10;

  label_launch_init (&lab, p, src);
  e = cudaLaunchKernel ((const void *) p->label, lab.grid, lab.block,
      lab.args, lab.shared, s);
  if (e == cudaSuccess)
    e = captured_node (s, &p->label_node[k]);
  if (e != cudaSuccess)
    return e;
  /* every step after the labelling may be launched while the one before
   * it ends (cm-pdl.cuh): each waits for it before reading anything */
  const int pdl = p->pdl;
  cudaError_t first_error = cudaSuccess;
  auto keep = [&first_error] (cudaError_t err) {
    if (first_error == cudaSuccess)
      first_error = err;
  };

  if (steps >= 2)
    keep (pdl_launch_params (p->merge, lab.grid, dim3 (TILE_W + tr), 0, s,
            pdl, p->labels, w, h, tr));     /* a block a tile */
  if (steps >= 3)
    keep (pdl_launch_params (compress_roots, dim3 (p->nseg),
            dim3 (SEG_THREADS), 0, s, pdl, p->labels, p->bm, p->first,
            p->roots_bm, p->nwords, w, p->wpr, p->st, p->seg));
  if (steps >= 4)
    keep (pdl_launch_params (rank_roots, dim3 (p->nseg), dim3 (SEG_THREADS),
            0, s, pdl, p->labels, p->roots_bm, p->bm, p->first, p->nwords,
            w, p->wpr, (const uint32_t *) p->seg, p->ctl,
            (const uint32_t *) p->st.area, p->rank_area, p->rank_record));
  if (steps >= 5)
    keep (pdl_launch_params (filter_blobs, dim3 (p->blob_grid),
            dim3 (BLOB_THREADS), 0, s, pdl, a, select, p->hist, p->cand,
            p->cand_cap, p->ctl));
  if (steps >= 6)
    keep (pdl_launch_params (choose_cut, dim3 (1), dim3 (SCAN_THREADS), 0,
            s, pdl, a, p->desc.max_blobs, p->hist, p->cand, p->cand_cap,
            p->ctl));
  if (steps >= 7)
    keep (pdl_launch_params (count_cut, dim3 (p->blob_grid),
            dim3 (BLOB_THREADS), 0, s, pdl, a));
  if (steps >= 8)
    keep (pdl_launch_params (place_reported, dim3 (1), dim3 (SCAN_THREADS),
            0, s, pdl, a, p->ctl, p->res_dev[k],
            p->desc.output == CM_BLOBS_OUTPUT_LABELS ? 1 : 0));
  if (steps >= 9)
    keep (pdl_launch_params (write_results, dim3 (p->blob_grid),
            dim3 (BLOB_THREADS), 0, s, pdl, a, p->arrays_dev[k], p->number));
  if (steps >= 10 && p->output != NULL) {
    output_launch out;

    output_launch_init (&out, p, dst);
    keep (pdl_launch_params (p->output, out.grid, out.block, 0, s, pdl,
            out.data, out.pitch, out.width, out.height, out.labels,
            out.number, out.max));
    if (first_error == cudaSuccess)
      keep (captured_node (s, &p->output_node[k]));
  }
  return first_error;
}

/* Each result slot's graph, made once: its images are none (at_src and
 * at_dst zeroed with the plan) until the first run sets the frame's */
static cudaError_t
plan_capture (cm_blobs_plan *p)
{
  const cm_image none = { };
  cudaStream_t s = NULL;
  cudaError_t e = cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking);

  for (int k = 0; e == cudaSuccess && k < p->slots; k++) {
    /* thread-local: other threads' work goes on while this one captures */
    e = cudaStreamBeginCapture (s, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess)
      break;
    const cudaError_t queued = capture_steps (p, k, &none, &none, s);

    e = cudaStreamEndCapture (s, &p->graph[k]);
    if (queued != cudaSuccess)
      e = queued;
    if (e == cudaSuccess)
      e = cudaGraphInstantiate (&p->exec[k], p->graph[k], 0);
  }
  if (s != NULL)
    cudaStreamDestroy (s);
  return e;
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
  if (tr < 1 || tr > TILE_ROWS_MAX || (tuning && (tuning->steps < 0 ||
              tuning->merge_finds < 0 || tuning->merge_finds > 2)))
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
  p->wpr = (width + 31) / 32;
  p->nwords = (uint32_t) p->wpr * (uint32_t) height;
  p->nseg = (p->nwords + SEG_THREADS - 1) / SEG_THREADS;
  all = *desc;
  all.max_blobs = 0;
  p->most = cm_blobs_capacity (&all, width, height);
  p->nblk = (p->most + BLOB_THREADS - 1) / BLOB_THREADS;
  {
    int sms = 0;

    if (cm_device_attribute (cudaDevAttrMultiProcessorCount, &sms) !=
        cudaSuccess || sms < 1)
      sms = 1;
    p->blob_grid = p->nblk < 2u * sms ? p->nblk : 2u * sms;
  }
  {
    /* The merge's finds halve where the labels fit in a third of the
     * L2. Halving shortens the paths later finds walk but stores into
     * the lines it walks: on the H100 (50 MB of L2) the merge took
     * less with it at 1080p and 1440p (8 and 15 MB of labels) on
     * photographs, and longer at 3200x1800 (23 MB) on noise and at 4K
     * (33 MB) on every frame measured (docs/design.md) */
    int l2 = 0;

    if (cm_device_attribute (cudaDevAttrL2CacheSize, &l2) != cudaSuccess)
      l2 = 0;
    const bool halving = p->tuning.merge_finds ?
        p->tuning.merge_finds == 1 :
        (uint64_t) p->npix * sizeof (uint32_t) <= (uint64_t) l2 / 3;

    plan_choose_kernels (p, halving);
  }
  {
    int major = 0;

    p->pdl = !p->tuning.no_pdl && cm_device_attribute
        (cudaDevAttrComputeCapabilityMajor, &major) == cudaSuccess &&
        major >= 9;
  }
  p->capacity = cm_blobs_capacity (desc, width, height);
  p->records = (uint32_t) ((width + TILE_W - 1) / TILE_W) * (uint32_t)
      ((height + tr - 1) / tr) * tile_records (desc->connectivity == 8, tr);
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
  p->slots = desc->result_slots > 1 ? desc->result_slots : 1;
  for (int i = 0; e == cudaSuccess && i < p->slots; i++)
    e = results_alloc (p, i);
  if (e == cudaSuccess)
    e = plan_capture (p);
  if (e != cudaSuccess) {
    plan_release (p);
    return cm_cuda_status (e);
  }
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
  return p ? p->res[p->slot] : NULL;
}

extern "C" cm_status
cm_blobs_plan_use_slot (cm_blobs_plan *p, int slot)
{
  if (p == NULL || slot < 0 || slot >= p->slots)
    return CM_ERR_INVALID_ARG;
  p->slot = slot;
  return CM_OK;
}

/* A kernel node of @exec given new arguments (its kernel and launch
 * configuration as captured) */
static cudaError_t
node_set (cudaGraphExec_t exec, cudaGraphNode_t node, const void *func,
    dim3 grid, dim3 block, size_t shared, void **args)
{
  cudaKernelNodeParams kp = { };

  kp.func = (void *) func;
  kp.gridDim = grid;
  kp.blockDim = block;
  kp.sharedMemBytes = (unsigned) shared;
  kp.kernelParams = args;
  return cudaGraphExecKernelNodeSetParams (exec, node, &kp);
}

static bool
same_image (const cm_image *a, const cm_image *b)
{
  return a->data == b->data && a->pitch == b->pitch;
}

extern "C" cm_status
cm_blobs_plan_run (cm_blobs_plan *p, const cm_image *src,
    const cm_image *dst, void *stream)
{
  cudaError_t e = cudaSuccess;

  if (p == NULL || !cm_image_aligned_ok (src) || src->width != p->width ||
      src->height != p->height || src->depth != p->depth)
    return CM_ERR_INVALID_ARG;
  if (p->desc.output != CM_BLOBS_OUTPUT_NONE && (!cm_image_aligned_ok (dst)
          || dst->width != p->width || dst->height != p->height ||
          dst->depth != cm_blobs_output_depth (&p->desc, p->depth) ||
          cm_images_overlap (src, dst)))
    return CM_ERR_INVALID_ARG;

  /* the frame's images into the slot's graph, where they changed (a
   * graph launched before keeps the ones it was launched with) */
  const int k = p->slot;

  if (!same_image (src, &p->at_src[k])) {
    label_launch lab;

    label_launch_init (&lab, p, src);
    e = node_set (p->exec[k], p->label_node[k], (const void *) p->label,
        lab.grid, lab.block, lab.shared, lab.args);
    if (e == cudaSuccess)
      p->at_src[k] = *src;
  }
  if (e == cudaSuccess && p->output_node[k] != NULL &&
      !same_image (dst, &p->at_dst[k])) {
    output_launch out;

    output_launch_init (&out, p, dst);
    e = node_set (p->exec[k], p->output_node[k], (const void *) p->output,
        out.grid, out.block, 0, out.args);
    if (e == cudaSuccess)
      p->at_dst[k] = *dst;
  }
  if (e == cudaSuccess)
    e = cudaGraphLaunch (p->exec[k], (cudaStream_t) stream);
  return cm_cuda_status (e);
}
