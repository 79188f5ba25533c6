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
 * 16-bit (med_hist16_kernel): per-thread histograms of 16-bit data cost too
 * much shared memory, so one warp owns one output column and shares one
 * histogram: 256 bins of the high byte, and the 256 bins of the low byte
 * for a band of MED_BAND consecutive high bytes around the last answer.
 * The lanes split the 2 * window_w updates (shared-memory atomics) and
 * search 256 bins together (each lane 8 bins, a warp prefix sum, the lane
 * holding rank k finishes). When the answer's high byte leaves the band,
 * the band is re-centred and its fine bins rebuilt from the window
 * (window_w * window_h / 32 samples a lane): rare on natural images and on
 * large windows of noise, whose median moves slowly.
 *
 * Where the 16-bit time goes (H100, 3840x2160 random, first version: 6.5
 * ms at 21x21, 31x31 and 63x63 alike): on noise the answer's high byte
 * leaves the band at a large fraction of the outputs (the median of 961
 * uniform samples has a standard deviation of about 4 high bytes), and a
 * band rebuild read the window one row at a time, each row's loads waited
 * for before the next were issued: window_h global-load latencies per
 * rebuild, roughly proportional to N times the rebuild rate, which falls
 * as the window grows, hence the flat time. The second version
 * (med_hist16_kernel<true>) reads a rebuild's rows MED_ROWS16 at a time
 * (one latency a chunk instead of one a row), builds the initial window
 * the same way, and issues the loads of the next slide before the
 * searches of the current output, so that their latency hides behind the
 * searches' shuffle chains. It measured 10-25% slower than the first
 * (2026-11-22), which was the default until the third version
 * (median-hist16.cu: the coarse level tracked instead of searched, a
 * cheaper fine search); both stay selectable (median.cu,
 * CM_MEDIAN_KERNELS=old or hist16-v1, hist16-v2) for side-by-side timing.
 *
 * Samples are read from global memory through the read-only path in
 * unrolled chunks, so that a thread has a chunk of loads in flight (the
 * first version, one dependent load at a time, was load-latency bound on
 * an H100); the border rule comes from the border helper, and windows
 * wholly inside the image skip the column mapping. */
#include <limits.h>

#include "median-impl.cuh"

/* 8-bit counter updates: 1 = shared-memory atomics whose result is unused
 * (no load-to-use dependency between the updates of a thread), 0 = plain
 * read-modify-write. Both are exact (each word has one owner). */
#ifndef MED_HIST_ATOMIC
#define MED_HIST_ATOMIC 1
#endif

#define MED_CHUNK 8             /* loads in flight a thread and row    */
#define MED_HIST8_WORDS (8 + 128)       /* a thread's words, 8-bit     */
#define MED_BAND 8              /* 16-bit: high bytes with fine bins  */
#define MED_HIST16_WARPS 4      /* 16-bit: warps (columns) a block    */
#define MED_HIST16_WORDS (128 + MED_BAND * 128) /* a warp's words     */
#define MED_ROWS16 8            /* 16-bit: window rows loaded at once  */
/* 16-bit blocks an SM: the 11 that shared memory allows on sm_80 / sm_90
 * (at most 46 registers); sm_75 holds 1024 threads, 8 blocks */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define MED_HIST16_MINB 8
#else
#define MED_HIST16_MINB 11
#endif
#define MED_NONE 0xffffffffu    /* no sample                           */

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
/* 16-bit: a warp per output column                                         */
/* ======================================================================== */

#define MED_FULL 0xffffffffu

struct med_hist16
{
  uint32_t *l1;                 /* 256 bins of the high byte (128 words)  */
  uint32_t *f;                  /* MED_BAND x 256 bins of the low byte of
                                   high bytes t0 .. t0 + MED_BAND - 1     */
  uint32_t t0;                  /* warp-uniform; huge: no band yet        */
};

/* bin += c in a histogram of 16-bit counters, two a word (atomics: the
 * lanes of a warp share the histogram) */
static __device__ __forceinline__ void
med_add16 (uint32_t *h, uint32_t bin, int c)
{
  atomicAdd (h + (bin >> 1), (uint32_t) c << ((bin & 1) * 16));
}

static __device__ __forceinline__ void
med_count16 (med_hist16 &h, uint32_t v, int c)
{
  const uint32_t hb = v >> 8, b = hb - h.t0;

  med_add16 (h.l1, hb, c);
  if (b < MED_BAND)
    med_add16 (h.f + b * 128, v & 255u, c);
}

/* The warp's lanes take window columns lane, lane + 32, ...: uncount row
 * vy_out, count row vy_in (either may be INT_MIN). Warp-uniform
 * arguments; the caller synchronises the warp before reading counts. */
static __device__ void
med_rows16 (med_hist16 &h, const med_args &a, int vy_out, int vy_in, int x)
{
  const int lane = threadIdx.x & 31;
  const int rx = a.ww / 2, x0 = x - rx;
  const bool inside = x0 >= 0 && x + rx < a.width;
  const bool has_out = vy_out != INT_MIN, has_in = vy_in != INT_MIN;
  const uint8_t *ro = has_out ? med_row_ptr (a, vy_out) : NULL;
  const uint8_t *ri = has_in ? med_row_ptr (a, vy_in) : NULL;

  if (lane == 0) {              /* whole CONSTANT rows at once */
    if (has_out && !ro)
      med_count16 (h, a.cval, -a.ww);
    if (has_in && !ri)
      med_count16 (h, a.cval, a.ww);
  }
  for (int j0 = 0; j0 < a.ww; j0 += 64) {
    uint32_t vo[2], vi[2];
#pragma unroll
    for (int i = 0; i < 2; i++) {
      const int j = j0 + lane + 32 * i;
      vo[i] = ro && j < a.ww ? med_row_sample<16> (a, ro, x0, j, inside) : 0;
      vi[i] = ri && j < a.ww ? med_row_sample<16> (a, ri, x0, j, inside) : 0;
    }
#pragma unroll
    for (int i = 0; i < 2; i++) {
      if (j0 + lane + 32 * i < a.ww) {
        if (ro)
          med_count16 (h, vo[i], -1);
        if (ri)
          med_count16 (h, vi[i], 1);
      }
    }
  }
}

/* The bin (0..255) holding rank k of the 256 bins at p (128 words, 16-byte
 * aligned), given acc samples below bin 0; acc becomes the count below the
 * returned bin. Whole warp, warp-uniform result. The bins hold more than
 * k - acc samples. */
static __device__ __forceinline__ uint32_t
med_search256 (const uint32_t *p, int k, int &acc)
{
  const int lane = threadIdx.x & 31;
  const uint4 w = ((const uint4 *) p)[lane];
  const uint32_t ws[4] = { w.x, w.y, w.z, w.w };
  int c[8], s = 0;

#pragma unroll
  for (int i = 0; i < 4; i++) {
    c[2 * i] = (int) (ws[i] & 0xffffu);
    c[2 * i + 1] = (int) (ws[i] >> 16);
  }
#pragma unroll
  for (int i = 0; i < 8; i++)
    s += c[i];
  int incl = s;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    int n = __shfl_up_sync (MED_FULL, incl, off);
    if (lane >= off)
      incl += n;
  }
  /* the first lane whose bins reach past rank k */
  const unsigned m = __ballot_sync (MED_FULL, acc + incl > k);
  const int owner = m ? __ffs (m) - 1 : 31;
  int cum = acc + incl - s, bin = 7, below = cum;
  bool found = false;
#pragma unroll
  for (int i = 0; i < 8; i++) {
    if (!found && cum + c[i] > k) {
      found = true;
      bin = i;
      below = cum;
    }
    cum += c[i];
  }
  bin = __shfl_sync (MED_FULL, 8 * lane + bin, owner);
  acc = __shfl_sync (MED_FULL, below, owner);
  return (uint32_t) bin;
}

/* Re-centre the band on high byte hb and count the window of (x, y)
 * into it. Whole warp. */
static __device__ void
med_band16 (med_hist16 &h, const med_args &a, int x, int y, uint32_t hb)
{
  const int lane = threadIdx.x & 31;
  const int rx = a.ww / 2, ry = a.wh / 2, x0 = x - rx;
  const bool inside = x0 >= 0 && x + rx < a.width;
  int t0 = (int) hb - MED_BAND / 2;

  if (t0 < 0)
    t0 = 0;
  if (t0 > 256 - MED_BAND)
    t0 = 256 - MED_BAND;
  h.t0 = (uint32_t) t0;
  __syncwarp ();                /* earlier reads of the band are done */
  for (int i = lane; i < MED_BAND * 128 / 4; i += 32)
    ((uint4 *) h.f)[i] = make_uint4 (0, 0, 0, 0);
  __syncwarp ();
  for (int dy = -ry; dy <= ry; dy++) {
    const uint8_t *row = med_row_ptr (a, y + dy);
    if (!row) {
      if (lane == 0 && (a.cval >> 8) - h.t0 < MED_BAND)
        med_add16 (h.f + ((a.cval >> 8) - h.t0) * 128, a.cval & 255u, a.ww);
      continue;
    }
    for (int j0 = 0; j0 < a.ww; j0 += 64) {
      uint32_t v[2];
#pragma unroll
      for (int i = 0; i < 2; i++) {
        const int j = j0 + lane + 32 * i;
        v[i] = j < a.ww ? med_row_sample<16> (a, row, x0, j, inside) :
            0xffffffffu;
      }
#pragma unroll
      for (int i = 0; i < 2; i++) {
        const uint32_t b = (v[i] >> 8) - h.t0;
        if (v[i] != 0xffffffffu && b < MED_BAND)
          med_add16 (h.f + b * 128, v[i] & 255u, 1);
      }
    }
  }
  __syncwarp ();
}

/* ---- second version: batched loads ------------------------------------- */

/* Count the window rows vy0 .. vy0 + n - 1 of column x (samples x - rx ..
 * x + rx, lanes taking columns lane, lane + 32, ...), MED_ROWS16 rows'
 * loads in flight at once: into both levels (L1: the initial window; the
 * band is empty then) or into the band only (a rebuild). Whole warp. */
template <bool L1>
static __device__ void
med_window16 (med_hist16 &h, const med_args &a, int x, int vy0, int n)
{
  const int lane = threadIdx.x & 31;
  const int rx = a.ww / 2, x0 = x - rx;
  const bool inside = x0 >= 0 && x + rx < a.width;

  for (int j0 = 0; j0 < a.ww; j0 += 64) {
    for (int r0 = 0; r0 < n; r0 += MED_ROWS16) {
      uint32_t v[MED_ROWS16][2];
      bool crow[MED_ROWS16];
#pragma unroll
      for (int r = 0; r < MED_ROWS16; r++) {
        const uint8_t *row = r0 + r < n ? med_row_ptr (a, vy0 + r0 + r) :
            NULL;
        crow[r] = r0 + r < n && !row;
#pragma unroll
        for (int i = 0; i < 2; i++) {
          const int j = j0 + lane + 32 * i;
          v[r][i] = row && j < a.ww ? med_row_sample<16> (a, row, x0, j,
              inside) : MED_NONE;
        }
      }
#pragma unroll
      for (int r = 0; r < MED_ROWS16; r++) {
        /* a whole CONSTANT row: its window_w samples at once */
        const uint32_t cv = crow[r] && lane == 0 && j0 == 0 ? a.cval :
            MED_NONE;
#pragma unroll
        for (int i = 0; i < 3; i++) {
          const uint32_t s = i < 2 ? v[r][i] : cv;
          const int c = i < 2 ? 1 : a.ww;
          if (s == MED_NONE)
            continue;
          if (L1)
            med_count16 (h, s, c);
          else if ((s >> 8) - h.t0 < MED_BAND)
            med_add16 (h.f + ((s >> 8) - h.t0) * 128, s & 255u, c);
        }
      }
    }
  }
}

/* Re-centre the band on high byte hb and count the window of (x, y)
 * into it (med_band16 with batched loads). Whole warp. */
static __device__ void
med_band16_v2 (med_hist16 &h, const med_args &a, int x, int y, uint32_t hb)
{
  const int lane = threadIdx.x & 31;
  int t0 = (int) hb - MED_BAND / 2;

  if (t0 < 0)
    t0 = 0;
  if (t0 > 256 - MED_BAND)
    t0 = 256 - MED_BAND;
  h.t0 = (uint32_t) t0;
  __syncwarp ();                /* earlier reads of the band are done */
  for (int i = lane; i < MED_BAND * 128 / 4; i += 32)
    ((uint4 *) h.f)[i] = make_uint4 (0, 0, 0, 0);
  __syncwarp ();
  med_window16<false> (h, a, x, y - a.wh / 2, a.wh);
  __syncwarp ();
}

/* The samples of one slide (row vy_out leaves, vy_in enters), loaded
 * ahead of their use: the first 64 window columns (lanes' columns lane,
 * lane + 32); wider windows read the rest when the slide is applied. */
struct med_slide16
{
  uint32_t vo[2], vi[2];        /* MED_NONE: no sample                   */
  bool co, ci;                  /* the row is a whole CONSTANT row       */
};

static __device__ __forceinline__ void
med_slide16_load (med_slide16 &s, const med_args &a, int vy_out, int vy_in,
    int x)
{
  const int lane = threadIdx.x & 31;
  const int rx = a.ww / 2, x0 = x - rx;
  const bool inside = x0 >= 0 && x + rx < a.width;
  const uint8_t *ro = med_row_ptr (a, vy_out);
  const uint8_t *ri = med_row_ptr (a, vy_in);

  s.co = !ro;
  s.ci = !ri;
#pragma unroll
  for (int i = 0; i < 2; i++) {
    const int j = lane + 32 * i;
    s.vo[i] = ro && j < a.ww ? med_row_sample<16> (a, ro, x0, j, inside) :
        MED_NONE;
    s.vi[i] = ri && j < a.ww ? med_row_sample<16> (a, ri, x0, j, inside) :
        MED_NONE;
  }
}

static __device__ __forceinline__ void
med_slide16_apply (med_hist16 &h, const med_args &a, const med_slide16 &s,
    int vy_out, int vy_in, int x)
{
  const int lane = threadIdx.x & 31;
  const int rx = a.ww / 2, x0 = x - rx;
  const bool inside = x0 >= 0 && x + rx < a.width;

  if (lane == 0) {
    if (s.co)
      med_count16 (h, a.cval, -a.ww);
    if (s.ci)
      med_count16 (h, a.cval, a.ww);
  }
#pragma unroll
  for (int i = 0; i < 2; i++) {
    if (s.vo[i] != MED_NONE)
      med_count16 (h, s.vo[i], -1);
    if (s.vi[i] != MED_NONE)
      med_count16 (h, s.vi[i], 1);
  }
  if (a.ww > 64) {
    const uint8_t *ro = s.co ? NULL : med_row_ptr (a, vy_out);
    const uint8_t *ri = s.ci ? NULL : med_row_ptr (a, vy_in);
    for (int j0 = 64; j0 < a.ww; j0 += 64) {
      uint32_t vo[2], vi[2];
#pragma unroll
      for (int i = 0; i < 2; i++) {
        const int j = j0 + lane + 32 * i;
        vo[i] = ro && j < a.ww ? med_row_sample<16> (a, ro, x0, j, inside) :
            MED_NONE;
        vi[i] = ri && j < a.ww ? med_row_sample<16> (a, ri, x0, j, inside) :
            MED_NONE;
      }
#pragma unroll
      for (int i = 0; i < 2; i++) {
        if (vo[i] != MED_NONE)
          med_count16 (h, vo[i], -1);
        if (vi[i] != MED_NONE)
          med_count16 (h, vi[i], 1);
      }
    }
  }
}

/* Block: MED_HIST16_WARPS warps, warp w the output column
 * blockIdx.x * MED_HIST16_WARPS + w; blockIdx.y: a segment of seg_rows
 * rows. No block-wide synchronisation. */
template <bool V2>
__global__ void __launch_bounds__ (32 * MED_HIST16_WARPS, MED_HIST16_MINB)
med_hist16_kernel (med_args a, int seg_rows)
{
  extern __shared__ uint32_t med_hsmem[];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int x = blockIdx.x * MED_HIST16_WARPS + warp;
  const int ys = blockIdx.y * seg_rows;
  const int ye = min (ys + seg_rows, a.height);
  const int ry = a.wh / 2;
  med_hist16 h;

  if (x >= a.width)             /* warp-uniform */
    return;
  h.l1 = med_hsmem + warp * MED_HIST16_WORDS;
  h.f = h.l1 + 128;
  h.t0 = 0x80000000u;           /* no band: nothing counted into f */
  for (int i = lane; i < MED_HIST16_WORDS / 4; i += 32)
    ((uint4 *) h.l1)[i] = make_uint4 (0, 0, 0, 0);
  __syncwarp ();

  if (V2)
    med_window16<true> (h, a, x, ys - ry, a.wh);
  else
    for (int dy = -ry; dy <= ry; dy++)
      med_rows16 (h, a, INT_MIN, ys + dy, x);
  __syncwarp ();

  for (int y = ys; y < ye; y++) {
    int acc = 0;
    med_slide16 nx;
    if (V2 && y + 1 < ye)       /* next slide's loads, ahead */
      med_slide16_load (nx, a, y - ry, y + ry + 1, x);
    const uint32_t hb = med_search256 (h.l1, a.k, acc);
    if (hb - h.t0 >= MED_BAND) {
      if (V2)
        med_band16_v2 (h, a, x, y, hb);
      else
        med_band16 (h, a, x, y, hb);
    }
    const uint32_t lb = med_search256 (h.f + (hb - h.t0) * 128, a.k, acc);
    if (lane == 0)
      ((uint16_t *) (a.dst + (size_t) y * a.dst_pitch))[x] =
          (uint16_t) (hb << 8 | lb);
    if (y + 1 < ye) {
      __syncwarp ();            /* searches done before the counts move */
      if (V2)
        med_slide16_apply (h, a, nx, y - ry, y + ry + 1, x);
      else
        med_rows16 (h, a, y - ry, y + ry + 1, x);
      __syncwarp ();
    }
  }
}

/* ======================================================================== */
/* Configuration and launch                                                 */
/* ======================================================================== */

cudaError_t
med_hist_configure (const med_args *a, struct med_hist_config *cfg)
{
  int dev = 0, sms = 0, optin = 0, per_sm = 0;
  int columns_per_block, blocks_per_sm, resident, segs, rows;
  cudaError_t e;

  e = cudaGetDevice (&dev);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&optin,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&per_sm,
        cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
  if (e != cudaSuccess)
    return e;

  if (a->bpp == 2 && cfg->kernel16 == MED_H16_WALK)
    return med_h16w_configure (a, cfg);
  if (a->bpp == 1) {
    cfg->threads = 64;
    cfg->smem = (size_t) MED_HIST8_WORDS * 4 * cfg->threads;
    columns_per_block = cfg->threads;
  } else {
    cfg->threads = 32 * MED_HIST16_WARPS;
    cfg->smem = (size_t) MED_HIST16_WORDS * 4 * MED_HIST16_WARPS;
    columns_per_block = MED_HIST16_WARPS;
  }
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
  if (segs < 1)
    segs = 1;
  rows = (a->height + segs - 1) / segs;
  if (rows < a->wh / 2)
    rows = a->wh / 2;
  if (rows < 8)
    rows = 8;
  if (rows > a->height)
    rows = a->height;
  cfg->seg_rows = rows;

  if (cfg->smem > 48 * 1024) {
    if (a->bpp == 1)
      e = cudaFuncSetAttribute (med_hist8_kernel,
          cudaFuncAttributeMaxDynamicSharedMemorySize, (int) cfg->smem);
    else
      e = cudaFuncSetAttribute (cfg->kernel16 == MED_H16_V1 ?
          med_hist16_kernel<false> : med_hist16_kernel<true>,
          cudaFuncAttributeMaxDynamicSharedMemorySize, (int) cfg->smem);
  }
  return e;
}

cudaError_t
med_hist_launch (const med_args *a, const struct med_hist_config *cfg,
    cudaStream_t stream)
{
  if (a->bpp == 2 && cfg->kernel16 == MED_H16_WALK)
    return med_h16w_launch (a, cfg, stream);

  const int cpb = a->bpp == 1 ? cfg->threads : MED_HIST16_WARPS;
  dim3 grid ((unsigned) ((a->width + cpb - 1) / cpb),
      (unsigned) ((a->height + cfg->seg_rows - 1) / cfg->seg_rows));
  dim3 block ((unsigned) cfg->threads);

  if (a->bpp == 1)
    med_hist8_kernel<<<grid, block, cfg->smem, stream>>> (*a,
        cfg->seg_rows);
  else if (cfg->kernel16 == MED_H16_V1)
    med_hist16_kernel<false><<<grid, block, cfg->smem, stream>>> (*a,
        cfg->seg_rows);
  else
    med_hist16_kernel<true><<<grid, block, cfg->smem, stream>>> (*a,
        cfg->seg_rows);
  return cudaGetLastError ();
}
