/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CUDA plan of the blobs (blobs.h), the device twin of blobs-ref.c.
 *
 * Per frame, all on the caller's stream, nothing allocated:
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
 *  5. per blob: the filters, the area histogram of the selection;
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

#define BLOB_THREADS 1024       /* blobs of a per-blob block, one each     */
#define SCAN_THREADS 1024       /* the one-block scans                     */
#define AREA_BINS 4096          /* selection histogram: areas 0 ... 4094,
                                 * and 4095 or more                        */
#define TOP_BIN (AREA_BINS - 1)
#define CAND_SHARED 4096        /* top-bin areas ranked in shared memory  */

/* per blob block: passing, above the cut, at the cut, and the offsets */
enum
{
  BLK_PASS, BLK_PASS_OFF, BLK_GT, BLK_EQ, BLK_EQ_OFF, BLK_SEL_OFF, BLK_ARRAYS
};

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
};

/* The arguments of the per-blob kernels: blob i (its rank) has area
 * area[i] and its statistics in record record[i] of @rec */
struct blob_args
{
  const uint32_t *area, *record;
  const blob_record *rec;
  const blobs_ctl *ctl;
  uint32_t *blk;
  uint32_t nblk;
  uint64_t min_area, max_area;
  int exclude_border;
  int width, height;
};

static __device__ __forceinline__ bool
passes (const blob_args &a, uint32_t i)
{
  const uint32_t area = a.area[i];

  if (area < a.min_area || (a.max_area != 0 && area > a.max_area))
    return false;
  if (!a.exclude_border)
    return true;
  const blob_record &r = a.rec[a.record[i]];

  return !(r.x0 == 0 || r.y0 == 0 || r.x1 == (uint32_t) a.width - 1 ||
      r.y1 == (uint32_t) a.height - 1);
}

/* ---- one-block scans ----------------------------------------------------- */

/* @in[0..m) scanned (exclusive) into @out (may be @in); the sum */
static __device__ uint32_t
scan_array (const uint32_t *in, uint32_t *out, uint32_t m, uint32_t *scratch)
{
  uint32_t carry = 0;

  for (uint32_t b = 0; b < m; b += blockDim.x) {
    const uint32_t i = b + threadIdx.x;
    const uint32_t v = i < m ? in[i] : 0;
    uint32_t total;
    const uint32_t ex = block_exclusive_scan (v, &total, scratch);

    if (i < m)
      out[i] = carry + ex;
    carry += total;
  }
  return carry;
}

/* ---- 5: filters and the area histogram ----------------------------------- */

/* The per-blob kernels: a grid of at most a few blocks per SM walks the
 * blob blocks b (BLOB_THREADS blobs each) of the frame's blobs */
#define FOR_BLOB_BLOCKS(b, n) \
  for (uint32_t b = blockIdx.x; b * BLOB_THREADS < (n); b += gridDim.x)

static __device__ __forceinline__ void
filter_block (const blob_args &a, uint32_t b, uint32_t n, bool select,
    uint32_t *hist, uint32_t *cand, uint32_t cand_cap, blobs_ctl *ctl,
    uint32_t *scratch)
{
  const uint32_t i = b * BLOB_THREADS + threadIdx.x;
  uint32_t total;
  const bool ok = i < n && passes (a, i);

  block_exclusive_scan (ok, &total, scratch);
  if (threadIdx.x == 0)
    a.blk[BLK_PASS * a.nblk + b] = total;
  const unsigned counted = __ballot_sync (0xffffffffu, select && ok);

  if (!select || !ok)
    return;
  const uint32_t area = a.area[i];
  const uint32_t bin = area < TOP_BIN ? area : TOP_BIN;
  const unsigned peers = __match_any_sync (counted, bin);

  /* small areas are the common ones: one atomic per bin and warp */
  if ((threadIdx.x & 31) == __ffs (peers) - 1)
    atomicAdd (&hist[bin], __popc (peers));
  if (bin == TOP_BIN) {
    const uint32_t c = atomicAdd (&ctl->candidates, 1u);

    if (c < cand_cap)
      cand[c] = area;
  }
}

/* The histogram is the block's own in shared memory, added into @hist
 * at the end: small blobs share a few bins, and where there are many
 * (4-connected noise) every warp's atomics on them in global memory
 * waited on each other. */
static __global__ void
__launch_bounds__ (BLOB_THREADS)
filter_blobs (blob_args a, bool select, uint32_t *hist, uint32_t *cand,
    uint32_t cand_cap, blobs_ctl *ctl)
{
  __shared__ uint32_t scratch[32];
  __shared__ uint32_t s_hist[AREA_BINS];
  pdl_wait ();                  /* launched early: cm-pdl.cuh */
  const uint32_t n = a.ctl->roots;

  if (blockIdx.x * BLOB_THREADS >= n)
    return;                     /* no blob block for this one */
  if (select) {
    for (uint32_t k = threadIdx.x; k < AREA_BINS; k += BLOB_THREADS)
      s_hist[k] = 0;
    __syncthreads ();
  }
  FOR_BLOB_BLOCKS (b, n)
      filter_block (a, b, n, select, s_hist, cand, cand_cap, ctl, scratch);
  if (!select)
    return;
  __syncthreads ();
  for (uint32_t k = threadIdx.x; k < AREA_BINS; k += BLOB_THREADS)
    if (s_hist[k] != 0)
      atomicAdd (&hist[k], s_hist[k]);
}

/* ---- 6: the passing blobs counted, the cut ------------------------------- */

static __global__ void
__launch_bounds__ (SCAN_THREADS)
choose_cut (blob_args a, uint32_t max_blobs, const uint32_t *hist,
    const uint32_t *cand, uint32_t cand_cap, blobs_ctl *ctl)
{
  __shared__ uint32_t scratch[32];
  __shared__ uint32_t cut_bin, greater;
  __shared__ uint32_t top[CAND_SHARED];
  pdl_wait ();                  /* launched early: cm-pdl.cuh */
  pdl_trigger ();               /* one block: the next may come early */
  const uint32_t n = ctl->roots;
  const uint32_t nb = (n + BLOB_THREADS - 1) / BLOB_THREADS;
  const uint32_t total = scan_array (a.blk + BLK_PASS * a.nblk,
      a.blk + BLK_PASS_OFF * a.nblk, nb, scratch);
  const int per = AREA_BINS / SCAN_THREADS;
  uint32_t c[AREA_BINS / SCAN_THREADS], sum = 0, before, all;

  if (threadIdx.x == 0) {
    ctl->total = total;
    ctl->cut = 0;
    ctl->ties = 0;
  }
  if (max_blobs == 0 || total <= max_blobs)
    return;
  if (threadIdx.x == 0)
    cut_bin = TOP_BIN;
  /* bins from the top down: thread t has descending places per t ...
   * per t + per - 1; the cut's bin is where the count from the top
   * reaches max_blobs */
  for (int j = 0; j < per; j++) {
    c[j] = hist[TOP_BIN - (per * threadIdx.x + j)];
    sum += c[j];
  }
  before = block_exclusive_scan (sum, &all, scratch);
  for (int j = 0; j < per; j++) {
    if (before < max_blobs && before + c[j] >= max_blobs) {
      cut_bin = TOP_BIN - (per * threadIdx.x + j);
      greater = before;
    }
    before += c[j];
  }
  __syncthreads ();
  if (cut_bin < TOP_BIN) {
    if (threadIdx.x == 0) {
      ctl->cut = cut_bin;
      ctl->ties = max_blobs - greater;
    }
    return;
  }
  /* in the top bin: the max_blobs-th largest of its exact areas (there
   * are at most pixels / TOP_BIN of them), by counting */
  const uint32_t m = ctl->candidates < cand_cap ? ctl->candidates :
      cand_cap;
  const uint32_t *v = cand;

  if (m <= CAND_SHARED) {
    for (uint32_t i = threadIdx.x; i < m; i += blockDim.x)
      top[i] = cand[i];
    __syncthreads ();
    v = top;
  }
  for (uint32_t i = threadIdx.x; i < m; i += blockDim.x) {
    const uint32_t vi = v[i];
    uint32_t gt = 0, ge = 0;

    for (uint32_t j = 0; j < m; j++) {
      gt += v[j] > vi;
      ge += v[j] >= vi;
    }
    if (gt < max_blobs && ge >= max_blobs) {
      ctl->cut = vi;
      ctl->ties = max_blobs - gt;
    }
  }
}

/* ---- 7: above and at the cut, per block ---------------------------------- */

static __global__ void
__launch_bounds__ (BLOB_THREADS)
count_cut (blob_args a)
{
  __shared__ uint32_t scratch[32];
  pdl_wait ();                  /* launched early: cm-pdl.cuh */
  const uint32_t n = a.ctl->roots, cut = a.ctl->cut;

  FOR_BLOB_BLOCKS (b, n) {
    const uint32_t i = b * BLOB_THREADS + threadIdx.x;
    const bool ok = i < n && passes (a, i);
    const uint32_t area = ok ? a.area[i] : 0;
    uint32_t gt, eq;

    block_exclusive_scan (ok && area > cut, &gt, scratch);
    block_exclusive_scan (ok && area == cut, &eq, scratch);
    if (threadIdx.x == 0) {
      a.blk[BLK_GT * a.nblk + b] = gt;
      a.blk[BLK_EQ * a.nblk + b] = eq;
    }
  }
}

/* ---- 8: the reported blobs' places --------------------------------------- */

static __global__ void
__launch_bounds__ (SCAN_THREADS)
place_reported (blob_args a, blobs_ctl *ctl, cm_blobs_results *res,
    int labels_output)
{
  __shared__ uint32_t scratch[32];
  pdl_wait ();                  /* launched early: cm-pdl.cuh */
  pdl_trigger ();               /* one block: the next may come early */
  const uint32_t n = ctl->roots, ties = ctl->ties;
  const uint32_t nb = (n + BLOB_THREADS - 1) / BLOB_THREADS;
  uint32_t *eq = a.blk + BLK_EQ * a.nblk, *eq_off = a.blk + BLK_EQ_OFF *
      a.nblk, *sel_off = a.blk + BLK_SEL_OFF * a.nblk;
  uint32_t carry = 0;

  scan_array (eq, eq_off, nb, scratch);
  __syncthreads ();
  /* a block reports its blobs above the cut and those of its blobs at
   * the cut that are among the first @ties */
  for (uint32_t b = 0; b < nb; b += blockDim.x) {
    const uint32_t i = b + threadIdx.x;
    uint32_t v = 0, total;

    if (i < nb) {
      const uint32_t left = ties > eq_off[i] ? ties - eq_off[i] : 0;

      v = a.blk[BLK_GT * a.nblk + i] + (left < eq[i] ? left : eq[i]);
    }
    const uint32_t ex = block_exclusive_scan (v, &total, scratch);

    if (i < nb)
      sel_off[i] = carry + ex;
    carry += total;
  }
  if (threadIdx.x == 0) {
    ctl->count = carry;
    res->total = ctl->total;
    res->count = carry;
    res->foreground = ctl->foreground;
    res->labels_saturated = labels_output && ctl->total > 65535u;
  }
}

/* ---- 9: the results, the passing blobs' numbers ------------------------- */

static __device__ __forceinline__ void
write_block (const blob_args &a, uint32_t b, uint32_t n, uint32_t cut,
    uint32_t ties, const cm_blobs_results &out, uint32_t *number,
    uint32_t *scratch)
{
  const uint32_t i = b * BLOB_THREADS + threadIdx.x;
  uint32_t total;
  const bool ok = i < n && passes (a, i);
  const uint32_t area = ok ? a.area[i] : 0;
  const uint32_t pass_k = a.blk[BLK_PASS_OFF * a.nblk + b] +
      block_exclusive_scan (ok, &total, scratch);
  const uint32_t eq_k = a.blk[BLK_EQ_OFF * a.nblk + b] +
      block_exclusive_scan (ok && area == cut, &total, scratch);
  const bool sel = ok && (area > cut || (area == cut && eq_k < ties));
  const uint32_t k = a.blk[BLK_SEL_OFF * a.nblk + b] +
      block_exclusive_scan (sel, &total, scratch);

  if (number != NULL && i < n)
    number[i] = ok ? pass_k + 1 : 0;
  if (!sel)
    return;
  const uint32_t c = a.record[i];
  const blob_record r = a.rec[c];

  out.x[k] = r.x0;
  out.y[k] = r.y0;
  out.width[k] = r.x1 - r.x0 + 1;
  out.height[k] = r.y1 - r.y0 + 1;
  out.area[k] = area;
  out.cx[k] = __ddiv_rn (__ull2double_rn (r.sum_x), (double) area);
  out.cy[k] = __ddiv_rn (__ull2double_rn (r.sum_y), (double) area);
  out.min[k] = r.vmin;
  out.max[k] = r.vmax;
  out.mean[k] = __ddiv_rn (__ull2double_rn (r.sum_v), (double) area);
}

static __global__ void
__launch_bounds__ (BLOB_THREADS)
write_results (blob_args a, cm_blobs_results out, uint32_t *number)
{
  __shared__ uint32_t scratch[32];
  pdl_wait ();                  /* launched early: cm-pdl.cuh */
  const uint32_t n = a.ctl->roots, cut = a.ctl->cut, ties = a.ctl->ties;
  const uint32_t nb = (n + BLOB_THREADS - 1) / BLOB_THREADS;
  const uint32_t *sel_off = a.blk + BLK_SEL_OFF * a.nblk;

  /* without numbers to write, a blob block reporting none has nothing
   * to do (with max_blobs, most of a frame of many blobs) */
  FOR_BLOB_BLOCKS (b, n) {
    const uint32_t end = b + 1 < nb ? sel_off[b + 1] : a.ctl->count;

    if (number != NULL || end > sel_off[b])
      write_block (a, b, n, cut, ties, out, number, scratch);
  }
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

    p->pdl = cm_device_attribute (cudaDevAttrComputeCapabilityMajor,
        &major) == cudaSuccess && major >= 9;
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

extern "C" cm_status
cm_blobs_plan_run (cm_blobs_plan *p, const cm_image *src,
    const cm_image *dst, void *stream)
{
  cudaStream_t s = (cudaStream_t) stream;
  const bool select = p != NULL && p->desc.max_blobs != 0;
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
  const dim3 rows ((w + OUT_W - 1) / OUT_W, (h + OUT_ROWS - 1) / OUT_ROWS);
  const size_t label_shared = (size_t) TILE_SLOTS_WORDS * (TILE_W / 2) * tr *
      sizeof (uint32_t);
  blob_args a;

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
    return cm_cuda_status (e);
  /* steps as numbered above; @steps stops early (benchmarks) */
  const int steps = p->tuning.steps > 0 ? p->tuning.steps : 10;

  p->label <<< tiles, dim3 (32, tr), label_shared, s >>> (src->data,
      src->pitch, w, h, p->threshold, p->desc.invert != 0, p->labels, p->bm,
      p->first, p->wpr, p->st, p->ctl);
  /* every step after the labelling may be launched while the one before
   * it ends (cm-pdl.cuh): each waits for it before reading anything */
  const int pdl = p->pdl;
  cudaError_t first_error = cudaGetLastError ();
  auto keep = [&first_error] (cudaError_t err) {
    if (first_error == cudaSuccess)
      first_error = err;
  };

  if (steps >= 2)
    keep (pdl_launch_params (p->merge, tiles, dim3 (TILE_W + tr), 0, s, pdl,
            p->labels, w, h, tr));
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
            0, s, pdl, a, p->ctl, p->res_dev[p->slot],
            p->desc.output == CM_BLOBS_OUTPUT_LABELS ? 1 : 0));
  if (steps >= 9)
    keep (pdl_launch_params (write_results, dim3 (p->blob_grid),
            dim3 (BLOB_THREADS), 0, s, pdl, a, p->arrays_dev[p->slot],
            p->number));
  if (steps >= 10 && p->output != NULL)
    keep (pdl_launch_params (p->output, rows, dim3 (OUT_W, OUT_ROWS), 0, s,
            pdl, dst->data, dst->pitch, w, h, (const uint32_t *) p->labels,
            (const uint32_t *) p->number, p->output_max));
  return cm_cuda_status (first_error);
}
