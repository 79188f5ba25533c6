/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Median / rank filter of any window by sliding histograms: the
 * hierarchical histogram of Szántó & Fehér (paper 001, section 3.6: a
 * coarse histogram of the high bits, the rank searched over the coarse
 * level then over the fine bins of one coarse bin; histograms in shared
 * memory laid out so that the lanes of a warp hit different banks)
 * combined with the sliding window of Huang and of Perreault & Hébert
 * ("Median filtering in constant time", IEEE TIP 16(9), 2007): the window
 * of an output column slides down, losing the row that leaves and gaining
 * the row that enters, so an output costs 2 * window_w histogram updates
 * plus a search, whatever the window height.
 *
 * 8-bit (med_hist8_kernel): one thread per output column over a segment
 * of rows, with its own coarse (16 bins, value >> 4) and fine (256 bins)
 * histograms; 16-bit counters, two bins a word, thread t of a block of T
 * owning words t, t + T, ... (the 32 lanes of a warp always touch 32
 * different banks, whatever their data, and no word is shared).
 *
 * 16-bit: the walk kernel of median-hist16.cu (a warp per output column,
 * the coarse level tracked), configured and launched through this file's
 * med_hist_configure / med_hist_launch. Earlier 16-bit kernels (a full
 * search of both levels per output, then the same with batched row loads)
 * were slower and are gone; docs/bench/history.md (Median; "Deleted: the
 * first two 16-bit sliding-histogram kernels") has the figures.
 *
 * Samples are read from global memory through the read-only path in
 * unrolled chunks, so that a thread has a chunk of loads in flight (the
 * first version, one dependent load at a time, was load-latency bound on
 * an H100); the border rule comes from the border helper, and windows
 * wholly inside the image skip the column mapping. */
#include <limits.h>

#include "cm-cuda.h"
#include "median-impl.cuh"

/* 8-bit counter updates: 1 = shared-memory atomics whose result is unused
 * (no load-to-use dependency between the updates of a thread), 0 = plain
 * read-modify-write. Both are exact (each word has one owner). */
#ifndef MED_HIST_ATOMIC
#define MED_HIST_ATOMIC 1
#endif

#define MED_CHUNK 8             /* loads in flight a thread and row    */
#define MED_HIST8_WORDS (8 + 128)       /* a thread's words, 8-bit     */

/* ---- samples ------------------------------------------------------------ */

template <int BITS>
static __device__ __forceinline__ uint32_t
med_ldg (const uint8_t *row, int x)
{
  if (BITS == 8)
    return __ldg (row + x);
  return __ldg ((const unsigned short *) row + x);
}

/* Sample j (0 .. ww-1: column x0 + j) of the mapped row `row` */
template <int BITS>
static __device__ __forceinline__ uint32_t
med_row_sample (const med_args &a, const uint8_t *row, int x0, int j,
    bool inside)
{
  if (inside)
    return med_ldg<BITS> (row, x0 + j);
  const int mx = med_border_index (a.border, x0 + j, a.width);
  return mx < 0 ? a.cval : med_ldg<BITS> (row, mx);
}

/* The window row at virtual row vy, or NULL for a CONSTANT row outside
 * the image */
static __device__ __forceinline__ const uint8_t *
med_row_ptr (const med_args &a, int vy)
{
  const int my = med_border_index (a.border, vy, a.height);
  return my < 0 ? NULL : a.src + (size_t) my * a.src_pitch;
}

/* ======================================================================== */
/* 8-bit: a thread per output column                                        */
/* ======================================================================== */

/* bin += c (c may be negative; a counter never goes below 0, so the
 * two's complement addition never borrows from the other half) */
static __device__ __forceinline__ void
med_bump (uint32_t *h, int T, uint32_t bin, int c)
{
  uint32_t *p = h + (bin >> 1) * T;
  uint32_t inc = (uint32_t) c << ((bin & 1) * 16);
#if MED_HIST_ATOMIC
  atomicAdd (p, inc);
#else
  *p += inc;
#endif
}

struct med_hist8
{
  uint32_t *l0;                 /* 16 coarse bins (8 words, stride T) */
  uint32_t *l1;                 /* 256 bins (128 words, stride T)     */
  int T;
};

static __device__ __forceinline__ void
med_count8 (med_hist8 &h, uint32_t v, int c)
{
  med_bump (h.l0, h.T, v >> 4, c);
  med_bump (h.l1, h.T, v, c);
}

/* Chunk j0 .. j0 + MED_CHUNK - 1 of a window row (0 past the window) */
static __device__ __forceinline__ void
med_chunk8 (uint32_t *v, const med_args &a, const uint8_t *row, int x0,
    int j0, bool inside)
{
  if (inside) {
#pragma unroll
    for (int j = 0; j < MED_CHUNK; j++)
      v[j] = j0 + j < a.ww ? med_ldg<8> (row, x0 + j0 + j) : 0;
  } else {
#pragma unroll
    for (int j = 0; j < MED_CHUNK; j++)
      v[j] = j0 + j < a.ww ? med_row_sample<8> (a, row, x0, j0 + j, false) :
          0;
  }
}

/* Uncount the window samples of virtual row vy_out and count those of
 * vy_in (either may be INT_MIN: no row), columns x - rx .. x + rx. */
static __device__ __forceinline__ void
med_rows8 (med_hist8 &h, const med_args &a, int vy_out, int vy_in, int x)
{
  const int rx = a.ww / 2, x0 = x - rx;
  const bool inside = x0 >= 0 && x + rx < a.width;
  const bool has_out = vy_out != INT_MIN, has_in = vy_in != INT_MIN;
  const uint8_t *ro = has_out ? med_row_ptr (a, vy_out) : NULL;
  const uint8_t *ri = has_in ? med_row_ptr (a, vy_in) : NULL;

  if (has_out && !ro)           /* whole CONSTANT rows at once */
    med_count8 (h, a.cval, -a.ww);
  if (has_in && !ri)
    med_count8 (h, a.cval, a.ww);
  if (!ro && !ri)
    return;
  for (int j0 = 0; j0 < a.ww; j0 += MED_CHUNK) {
    uint32_t vo[MED_CHUNK], vi[MED_CHUNK];
    if (ro)
      med_chunk8 (vo, a, ro, x0, j0, inside);
    if (ri)
      med_chunk8 (vi, a, ri, x0, j0, inside);
#pragma unroll
    for (int j = 0; j < MED_CHUNK; j++) {
      if (j0 + j < a.ww) {
        if (ro)
          med_count8 (h, vo[j], -1);
        if (ri)
          med_count8 (h, vi[j], 1);
      }
    }
  }
}

/* The bin (0..15) of 16 bins (8 words at stride T) holding rank k, given
 * acc samples below the first bin; acc += the counts of the bins before
 * it. The bins hold more than k - acc samples. */
static __device__ __forceinline__ uint32_t
med_search16 (const uint32_t *h, int T, int k, int &acc)
{
  for (int p = 0; p < 8; p++) {
    uint32_t w = h[p * T];
    int lo = (int) (w & 0xffffu), hi = (int) (w >> 16);
    if (acc + lo > k)
      return 2 * p;
    acc += lo;
    if (acc + hi > k)
      return 2 * p + 1;
    acc += hi;
  }
  return 15;                    /* not reached with consistent counts */
}

/* Block: T threads = T consecutive columns; blockIdx.y: a segment of
 * seg_rows rows. No block-wide synchronisation. */
__global__ void
med_hist8_kernel (med_args a, int seg_rows)
{
  extern __shared__ uint32_t med_hsmem[];
  const int T = blockDim.x;
  const int x = blockIdx.x * T + threadIdx.x;
  const int ys = blockIdx.y * seg_rows;
  const int ye = min (ys + seg_rows, a.height);
  const int ry = a.wh / 2;
  med_hist8 h;

  if (x >= a.width)
    return;
  h.T = T;
  h.l0 = med_hsmem + threadIdx.x;
  h.l1 = h.l0 + 8 * T;
#pragma unroll 4
  for (int i = 0; i < MED_HIST8_WORDS; i++)
    h.l0[i * T] = 0;

  for (int dy = -ry; dy <= ry; dy++)
    med_rows8 (h, a, INT_MIN, ys + dy, x);

  for (int y = ys; y < ye; y++) {
    int acc = 0;
    uint32_t c0 = med_search16 (h.l0, T, a.k, acc);
    uint32_t c1 = med_search16 (h.l1 + c0 * 8 * T, T, a.k, acc);
    a.dst[(size_t) y * a.dst_pitch + x] = (uint8_t) (c0 * 16 + c1);
    if (y + 1 < ye)
      med_rows8 (h, a, y - ry, y + ry + 1, x);
  }
}

/* ======================================================================== */
/* Configuration and launch                                                 */
/* ======================================================================== */

cudaError_t
med_hist_configure (const med_args *a, struct med_hist_config *cfg)
{
  int sms = 0, optin = 0, per_sm = 0;
  int columns_per_block, blocks_per_sm, resident, segs;
  cudaError_t e;

  if (a->bpp == 2)
    return med_h16w_configure (a, cfg);
  e = cm_device_attribute (cudaDevAttrMultiProcessorCount, &sms);
  if (e == cudaSuccess)
    e = cm_device_attribute (cudaDevAttrMaxSharedMemoryPerBlockOptin, &optin);
  if (e == cudaSuccess)
    e = cm_device_attribute (cudaDevAttrMaxSharedMemoryPerMultiprocessor,
        &per_sm);
  if (e != cudaSuccess)
    return e;

  cfg->threads = 64;
  cfg->smem = (size_t) MED_HIST8_WORDS * 4 * cfg->threads;
  columns_per_block = cfg->threads;
  if (cfg->smem > (size_t) optin)
    return cudaErrorInvalidConfiguration;

  /* Enough segments for about two waves of resident blocks; a segment
   * costs an initial window besides its slides, so keep it at least half
   * a window high. */
  blocks_per_sm = (int) ((size_t) per_sm / (cfg->smem + 1024));
  if (blocks_per_sm > 2048 / cfg->threads)
    blocks_per_sm = 2048 / cfg->threads;
  if (blocks_per_sm < 1)
    blocks_per_sm = 1;
  resident = blocks_per_sm * sms;
  segs = (2 * resident * columns_per_block + a->width - 1) /
      ((a->width + columns_per_block - 1) / columns_per_block *
      columns_per_block);
  cfg->seg_rows = med_hist_seg_rows (a, segs);

  if (cfg->smem > 48 * 1024)
    e = cudaFuncSetAttribute (med_hist8_kernel,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) cfg->smem);
  return e;
}

cudaError_t
med_hist_launch (const med_args *a, const struct med_hist_config *cfg,
    cudaStream_t stream)
{
  if (a->bpp == 2)
    return med_h16w_launch (a, cfg, stream);

  dim3 grid ((unsigned) ((a->width + cfg->threads - 1) / cfg->threads),
      (unsigned) ((a->height + cfg->seg_rows - 1) / cfg->seg_rows));
  dim3 block ((unsigned) cfg->threads);

  med_hist8_kernel<<<grid, block, cfg->smem, stream>>> (*a, cfg->seg_rows);
  return cudaGetLastError ();
}
