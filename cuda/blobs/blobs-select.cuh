/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The selection of blobs.cu, its step 6, one kernel: the filters, the
 * cut of max_blobs, the reported blobs' places, the results written to
 * mapped pinned host memory and each passing blob's number.
 *
 * The frame's blob count n is known on the device only (ctl->roots), so
 * the kernel takes one of two ways by it, every block alike:
 *  - up to SMALL_BLOBS blobs, its first block does it all (select_small):
 *    each thread holds SMALL_PER consecutive blobs in registers, the
 *    scans are over the threads' counts, and the other blocks leave at
 *    once. A photograph's few thousand blobs then cost one short kernel
 *    instead of five launches one after another.
 *  - more, the work is five phases: the filters and the area histogram
 *    (a blob block of BLOB_THREADS blobs an item); the passing blobs
 *    counted and the cut (one item); the blobs above and at the cut
 *    counted (an item a blob block); the reported blobs' places (one
 *    item); the results (an item a blob block). The blocks take the items
 *    in order from a ticket counter, and an item waits until the phase
 *    before it is done (select_grid).
 * Both give the results of blobs.h. The cut: the max_blobs-th largest
 * passing area, from a histogram of areas below AREA_BINS - 1 and, for
 * the top bin, the exact areas of its (few: at most pixels /
 * (AREA_BINS - 1)) blobs; blobs above the cut are reported, and of those
 * at the cut the first ones in the order, as many as are missing. */
#pragma once

#include <stdint.h>
#include <cuda_runtime.h>

#include "blobs.h"
#include "blobs-label.cuh"

#define BLOB_THREADS 1024       /* threads of a selection block            */
#define AREA_BINS 4096          /* selection histogram: areas 0 ... 4094,
                                 * and 4095 or more                        */
#define TOP_BIN (AREA_BINS - 1)
#define CAND_SHARED 4096        /* top-bin areas ranked in shared memory  */
#define SMALL_PER 16            /* blobs a thread of select_small holds   */
#define SMALL_BLOBS (BLOB_THREADS * SMALL_PER)

/* per blob block: passing, above the cut, at the cut, and the offsets */
enum
{
  BLK_PASS, BLK_PASS_OFF, BLK_GT, BLK_EQ, BLK_EQ_OFF, BLK_SEL_OFF, BLK_ARRAYS
};

/* The selection's arguments: all fixed when the plan is made */
struct select_args
{
  blobs_stats st;               /* the blobs, by rank                     */
  blobs_ctl *ctl;
  uint32_t *blk;                /* BLK_ARRAYS x nblk                      */
  uint32_t nblk;
  uint32_t *hist;               /* AREA_BINS, zeroed before the frame     */
  uint32_t *cand;               /* top-bin areas, cand_cap               */
  uint32_t cand_cap;
  uint64_t min_area, max_area;
  int exclude_border;
  int width, height;
  uint32_t max_blobs;           /* 0: all                                 */
  int labels_output;
  cm_blobs_results *res;        /* device address of the mapped results  */
  cm_blobs_results out;         /* their arrays' device addresses        */
  uint32_t *number;             /* NULL without an output image           */
};

struct select_shared
{
  uint32_t scratch[32];
  uint32_t cut_bin, greater;
  uint32_t item;                /* select_grid's ticket                   */
  union
  {
    struct
    {
      uint32_t top[CAND_SHARED];
      uint32_t hist[AREA_BINS]; /* select_small's histogram               */
    };
    uint16_t place[SMALL_BLOBS];        /* select_small's, after the cut   */
  };
};

static __device__ __forceinline__ bool
passes (const select_args &a, uint32_t i, uint32_t area)
{
  return area >= a.min_area && (a.max_area == 0 || area <= a.max_area) &&
      !(a.exclude_border && (a.st.x0[i] == 0 || a.st.y0[i] == 0 ||
          a.st.x1[i] == (uint32_t) a.width - 1 ||
          a.st.y1[i] == (uint32_t) a.height - 1));
}

/* Wait until @count items of the phase before are done, by every
 * thread of the block: their writes are seen after it */
static __device__ __forceinline__ void
wait_done (const uint32_t *done, uint32_t count)
{
  if (threadIdx.x == 0) {
    while (*(const volatile uint32_t *) done < count)
      ;
    __threadfence ();
  }
  __syncthreads ();
}

/* The block's item of a phase done, its writes before the count */
static __device__ __forceinline__ void
mark_done (uint32_t *done)
{
  __syncthreads ();
  if (threadIdx.x == 0) {
    __threadfence ();
    atomicAdd (done, 1u);
  }
}

/* @in[0..m) scanned (exclusive) into @out (may be @in) by one block; the
 * sum */
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

/* A passing blob's area into the histogram (@hist: shared or global),
 * and into the top bin's list when it is there */
static __device__ __forceinline__ void
count_area (uint32_t area, uint32_t *hist, const select_args &a)
{
  const uint32_t bin = area < TOP_BIN ? area : TOP_BIN;

  atomicAdd (&hist[bin], 1u);
  if (bin == TOP_BIN) {
    const uint32_t c = atomicAdd (&a.ctl->candidates, 1u);

    if (c < a.cand_cap)
      a.cand[c] = area;
  }
}

/* The cut of the @total passing blobs (ctl->cut, ctl->ties) from the
 * histogram of their areas @hist and the top bin's list: one block, every
 * thread of it */
static __device__ void
cut_of (const select_args &a, uint32_t total, const uint32_t *hist,
    select_shared &sh)
{
  const int per = AREA_BINS / BLOB_THREADS;
  uint32_t c[AREA_BINS / BLOB_THREADS], sum = 0, before, all;
  blobs_ctl *ctl = a.ctl;

  if (threadIdx.x == 0) {
    ctl->cut = 0;
    ctl->ties = 0;
  }
  if (a.max_blobs == 0 || total <= a.max_blobs)
    return;
  if (threadIdx.x == 0)
    sh.cut_bin = TOP_BIN;
  /* bins from the top down: thread t has descending places per t ...
   * per t + per - 1; the cut's bin is where the count from the top
   * reaches max_blobs */
  for (int j = 0; j < per; j++) {
    c[j] = hist[TOP_BIN - (per * threadIdx.x + j)];
    sum += c[j];
  }
  before = block_exclusive_scan (sum, &all, sh.scratch);
  for (int j = 0; j < per; j++) {
    if (before < a.max_blobs && before + c[j] >= a.max_blobs) {
      sh.cut_bin = TOP_BIN - (per * threadIdx.x + j);
      sh.greater = before;
    }
    before += c[j];
  }
  __syncthreads ();
  if (sh.cut_bin < TOP_BIN) {
    if (threadIdx.x == 0) {
      ctl->cut = sh.cut_bin;
      ctl->ties = a.max_blobs - sh.greater;
    }
    return;
  }
  /* in the top bin: the max_blobs-th largest of its exact areas (there
   * are at most pixels / TOP_BIN of them), by counting */
  const uint32_t m = ctl->candidates < a.cand_cap ? ctl->candidates :
      a.cand_cap;
  const uint32_t *v = a.cand;

  if (m <= CAND_SHARED) {
    for (uint32_t i = threadIdx.x; i < m; i += blockDim.x)
      sh.top[i] = a.cand[i];
    __syncthreads ();
    v = sh.top;
  }
  for (uint32_t i = threadIdx.x; i < m; i += blockDim.x) {
    const uint32_t vi = v[i];
    uint32_t gt = 0, ge = 0;

    for (uint32_t j = 0; j < m; j++) {
      gt += v[j] > vi;
      ge += v[j] >= vi;
    }
    if (gt < a.max_blobs && ge >= a.max_blobs) {
      ctl->cut = vi;
      ctl->ties = a.max_blobs - gt;
    }
  }
}

/* Blob @i's results at place @k */
static __device__ __forceinline__ void
write_result (const select_args &a, uint32_t i, uint32_t k, uint32_t area)
{
  const uint32_t x0 = a.st.x0[i], y0 = a.st.y0[i];

  a.out.x[k] = x0;
  a.out.y[k] = y0;
  a.out.width[k] = a.st.x1[i] - x0 + 1;
  a.out.height[k] = a.st.y1[i] - y0 + 1;
  a.out.area[k] = area;
  a.out.cx[k] = __ddiv_rn (__ull2double_rn (a.st.sum_x[i]), (double) area);
  a.out.cy[k] = __ddiv_rn (__ull2double_rn (a.st.sum_y[i]), (double) area);
  a.out.min[k] = a.st.vmin[i];
  a.out.max[k] = a.st.vmax[i];
  a.out.mean[k] = __ddiv_rn (__ull2double_rn (a.st.sum_v[i]), (double) area);
}

/* The frame's counts into the results (thread 0 of the block that ends
 * the selection) */
static __device__ __forceinline__ void
write_counts (const select_args &a, uint32_t total, uint32_t count)
{
  a.ctl->total = total;
  a.ctl->count = count;
  a.res->total = total;
  a.res->count = count;
  a.res->foreground = a.ctl->foreground;
  a.res->labels_saturated = a.labels_output && total > 65535u;
}

/* ---- up to SMALL_BLOBS blobs: one block ---------------------------------- */

static __device__ void
select_small (const select_args &a, uint32_t n, select_shared &sh)
{
  const uint32_t i0 = threadIdx.x * SMALL_PER;
  const bool select = a.max_blobs != 0;
  uint32_t area[SMALL_PER], ok = 0, total, eq = 0, count, sel = 0;

  if (select)
    for (int b = threadIdx.x; b < AREA_BINS; b += blockDim.x)
      sh.hist[b] = 0;
#pragma unroll
  for (int j = 0; j < SMALL_PER; j++) {
    const uint32_t i = i0 + j;

    area[j] = i < n ? a.st.area[i] : 0;
    if (i < n && passes (a, i, area[j]))
      ok |= 1u << j;
  }
  __syncthreads ();
  if (select)
#pragma unroll
    for (int j = 0; j < SMALL_PER; j++)
      if ((ok >> j) & 1u)
        count_area (area[j], sh.hist, a);
  const uint32_t pass_before = block_exclusive_scan (__popc (ok), &total,
      sh.scratch);

  cut_of (a, total, sh.hist, sh);
  __syncthreads ();
  const uint32_t cut = a.ctl->cut, ties = a.ctl->ties;

#pragma unroll
  for (int j = 0; j < SMALL_PER; j++)
    eq += ((ok >> j) & 1u) && area[j] == cut;
  uint32_t eq_k = block_exclusive_scan (eq, &count, sh.scratch);

#pragma unroll
  for (int j = 0; j < SMALL_PER; j++) {
    if (!((ok >> j) & 1u))
      continue;
    if (area[j] > cut || (area[j] == cut && eq_k < ties))
      sel |= 1u << j;
    eq_k += area[j] == cut;
  }
  uint32_t k = block_exclusive_scan (__popc (sel), &count, sh.scratch);
  uint32_t pass_k = pass_before;

  /* the places through shared memory (the histogram's, done with), so
   * that the results, in mapped host memory, are written by consecutive
   * threads for consecutive blobs: a thread writing its own blobs' made
   * each warp's stores 32 separate writes over the bus */
#pragma unroll
  for (int j = 0; j < SMALL_PER; j++) {
    const uint32_t i = i0 + j;

    if (i >= n)
      break;
    if (a.number != NULL)
      a.number[i] = (ok >> j) & 1u ? ++pass_k : 0;
    sh.place[i] = (sel >> j) & 1u ? (uint16_t) k++ : UINT16_MAX;
  }
  __syncthreads ();
  for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
    if (sh.place[i] != UINT16_MAX)
      write_result (a, i, sh.place[i], a.st.area[i]);
  if (threadIdx.x == 0)
    write_counts (a, total, count);
}

/* ---- more: the grid, phase by phase -------------------------------------- */

/* phase 1 */
static __device__ __forceinline__ void
filter_block (const select_args &a, uint32_t b, uint32_t n, uint32_t *scratch)
{
  const uint32_t i = b * BLOB_THREADS + threadIdx.x;
  const uint32_t area = i < n ? a.st.area[i] : 0;
  const bool ok = i < n && passes (a, i, area);
  const bool select = a.max_blobs != 0;
  uint32_t total;

  block_exclusive_scan (ok, &total, scratch);
  if (threadIdx.x == 0)
    a.blk[BLK_PASS * a.nblk + b] = total;
  const unsigned counted = __ballot_sync (0xffffffffu, select && ok);

  if (!select || !ok)
    return;
  const uint32_t bin = area < TOP_BIN ? area : TOP_BIN;
  const unsigned peers = __match_any_sync (counted, bin);

  /* small areas are the common ones: one atomic per bin and warp */
  if ((threadIdx.x & 31) == __ffs (peers) - 1)
    atomicAdd (&a.hist[bin], __popc (peers));
  if (bin == TOP_BIN) {
    const uint32_t c = atomicAdd (&a.ctl->candidates, 1u);

    if (c < a.cand_cap)
      a.cand[c] = area;
  }
}

/* phase 3 */
static __device__ __forceinline__ void
count_cut_block (const select_args &a, uint32_t b, uint32_t n, uint32_t cut,
    uint32_t *scratch)
{
  const uint32_t i = b * BLOB_THREADS + threadIdx.x;
  const uint32_t area = i < n ? a.st.area[i] : 0;
  const bool ok = i < n && passes (a, i, area);
  uint32_t gt, eq;

  block_exclusive_scan (ok && area > cut, &gt, scratch);
  block_exclusive_scan (ok && area == cut, &eq, scratch);
  if (threadIdx.x == 0) {
    a.blk[BLK_GT * a.nblk + b] = gt;
    a.blk[BLK_EQ * a.nblk + b] = eq;
  }
}

/* phase 4, one block: a blob block reports its blobs above the cut and
 * those of its blobs at the cut that are among the first @ties */
static __device__ void
place_reported (const select_args &a, uint32_t nb, uint32_t ties,
    uint32_t total, uint32_t *scratch)
{
  uint32_t *eq = a.blk + BLK_EQ * a.nblk, *eq_off = a.blk + BLK_EQ_OFF *
      a.nblk, *sel_off = a.blk + BLK_SEL_OFF * a.nblk;
  uint32_t carry = 0;

  scan_array (eq, eq_off, nb, scratch);
  __syncthreads ();
  for (uint32_t b = 0; b < nb; b += blockDim.x) {
    const uint32_t i = b + threadIdx.x;
    uint32_t v = 0, sum;

    if (i < nb) {
      const uint32_t left = ties > eq_off[i] ? ties - eq_off[i] : 0;

      v = a.blk[BLK_GT * a.nblk + i] + (left < eq[i] ? left : eq[i]);
    }
    const uint32_t ex = block_exclusive_scan (v, &sum, scratch);

    if (i < nb)
      sel_off[i] = carry + ex;
    carry += sum;
  }
  if (threadIdx.x == 0)
    write_counts (a, total, carry);
}

/* phase 5 */
static __device__ __forceinline__ void
write_block (const select_args &a, uint32_t b, uint32_t n, uint32_t cut,
    uint32_t ties, uint32_t *scratch)
{
  const uint32_t i = b * BLOB_THREADS + threadIdx.x;
  const uint32_t area = i < n ? a.st.area[i] : 0;
  const bool ok = i < n && passes (a, i, area);
  uint32_t total;
  const uint32_t pass_k = a.blk[BLK_PASS_OFF * a.nblk + b] +
      block_exclusive_scan (ok, &total, scratch);
  const uint32_t eq_k = a.blk[BLK_EQ_OFF * a.nblk + b] +
      block_exclusive_scan (ok && area == cut, &total, scratch);
  const bool sel = ok && (area > cut || (area == cut && eq_k < ties));
  const uint32_t k = a.blk[BLK_SEL_OFF * a.nblk + b] +
      block_exclusive_scan (sel, &total, scratch);

  if (a.number != NULL && i < n)
    a.number[i] = ok ? pass_k + 1 : 0;
  if (sel)
    write_result (a, i, k, area);
}

/* The phases as items taken in order: a block waits only for items of
 * tickets before its own, taken by blocks already running, so the grid
 * needs no block resident beside another (no cooperative launch: a grid
 * of another stream may hold the SMs) and none waits for ever */
enum
{
  PH_FILTER, PH_CUT, PH_COUNT, PH_PLACE, PH_WRITE, PHASES
};

static __device__ void
select_grid (const select_args &a, uint32_t n, select_shared &sh)
{
  const uint32_t nb = (n + BLOB_THREADS - 1) / BLOB_THREADS;

  for (;;) {
    if (threadIdx.x == 0)
      sh.item = atomicAdd (&a.ctl->ticket, 1u);
    __syncthreads ();
    /* items: nb filters, the cut, nb counts, the places, nb writes */
    uint32_t b = sh.item;
    int ph = PH_FILTER;

    if (b >= 3 * nb + 2)
      return;
    for (; ph < PH_WRITE; ph++) {
      const uint32_t items = ph % 2 == 0 ? nb : 1;

      if (b < items)
        break;
      b -= items;
    }
    /* the phase before: nb items (filters, counts) or one */
    if (ph > PH_FILTER)
      wait_done (&a.ctl->done[ph - 1], (ph - 1) % 2 == 0 ? nb : 1);
    switch (ph) {
      case PH_FILTER:
        filter_block (a, b, n, sh.scratch);
        break;
      case PH_CUT:{
        const uint32_t total = scan_array (a.blk + BLK_PASS * a.nblk,
            a.blk + BLK_PASS_OFF * a.nblk, nb, sh.scratch);

        if (threadIdx.x == 0)
          a.ctl->total = total;
        cut_of (a, total, a.hist, sh);
        break;
      }
      case PH_COUNT:
        count_cut_block (a, b, n, a.ctl->cut, sh.scratch);
        break;
      case PH_PLACE:
        place_reported (a, nb, a.ctl->ties, a.ctl->total, sh.scratch);
        break;
      default:
        write_block (a, b, n, a.ctl->cut, a.ctl->ties, sh.scratch);
        break;
    }
    if (ph < PH_WRITE)
      mark_done (&a.ctl->done[ph]);
    __syncthreads ();           /* sh.item read by all before the next */
  }
}

static __global__ void
__launch_bounds__ (BLOB_THREADS)
select_blobs (const select_args a)
{
  __shared__ select_shared sh;
  pdl_wait ();                  /* launched early: cm-pdl.cuh */
  const uint32_t n = a.ctl->roots;

  if (n > SMALL_BLOBS)
    select_grid (a, n, sh);
  else if (blockIdx.x == 0)
    select_small (a, n, sh);
}
