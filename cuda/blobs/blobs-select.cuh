/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Steps 5 to 9 of blobs.cu, a thread per blob (by rank): the filters
 * and the area histogram, the cut of max_blobs, the blobs above and at
 * the cut counted per block, the reported blobs' places, the results. */
#pragma once

#include "blobs-label.cuh"

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
