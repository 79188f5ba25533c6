/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Median / rank filter of any window by sliding histograms: the
 * hierarchical histogram of Szántó & Fehér (paper 001, section 3.6: a
 * coarse histogram of the high bits, the rank searched over the coarse
 * level then over the fine bins of one coarse bin; per-thread histograms
 * in shared memory laid out so that every thread's bins sit in one bank)
 * combined with the sliding window of Huang and of Perreault & Hébert
 * ("Median filtering in constant time", IEEE TIP 16(9), 2007): a thread
 * owns one output column over a segment of rows and slides its window
 * down, removing the row that leaves and adding the row that enters, so
 * an output costs 2 * window_w histogram updates plus a search of at most
 * 16 + 16 bins, whatever the window height.
 *
 *  - 8-bit: coarse level 16 bins (value >> 4), fine level 256 bins.
 *  - 16-bit: coarse 16 bins (value >> 12) and 256 bins (value >> 8), both
 *    sliding, which give the high byte h of the answer and the rank left
 *    inside it; the low byte comes from a fine histogram (256 + 16 bins)
 *    of the window samples whose high byte is a tracked value t. The
 *    slides keep it up to date for t; when the answer's high byte changes
 *    (h != t) it is rebuilt from the window (O(N), rare on natural images:
 *    neighbouring medians are close). The worst case, a rebuild at every
 *    output, stays exact.
 *
 * Counters are 16 bits (N <= 255 x 255 < 65536), two bins a 32-bit word;
 * thread t of a block of T threads owns words t, t + T, t + 2T, ... so the
 * 32 lanes of a warp always touch 32 different banks whatever their data,
 * and no word is shared between threads. Samples are read from global
 * memory (L1-cached, consecutive lanes read consecutive columns) through
 * the border helper; interior columns skip the index mapping. */
#include "median-impl.cuh"

/* 1: update counters with shared-memory atomics whose result is unused
 * (no load-to-use dependency between the updates of a thread);
 * 0: plain read-modify-write. Both are exact (each word has one owner). */
#ifndef MED_HIST_ATOMIC
#define MED_HIST_ATOMIC 1
#endif

/* words of one thread's histograms */
#define MED_HIST_WORDS_8 (8 + 128)
#define MED_HIST_WORDS_16 (8 + 128 + 128 + 8)

/* Per-thread view of the histograms: h[w * T] is word w of the thread. */
struct med_hist_view
{
  uint32_t *l0;                 /* 16 coarse bins                      */
  uint32_t *l1;                 /* 256 bins                            */
  uint32_t *f;                  /* 16-bit: 256 fine bins of byte t     */
  uint32_t *fc;                 /* 16-bit: 16 bins of the fine nibble  */
  int T;
  uint32_t track;               /* 16-bit: tracked high byte, or ~0    */
};

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

template <int BITS>
static __device__ __forceinline__ void
med_count (med_hist_view &h, uint32_t v, int c)
{
  if (BITS == 8) {
    med_bump (h.l0, h.T, v >> 4, c);
    med_bump (h.l1, h.T, v, c);
  } else {
    med_bump (h.l0, h.T, v >> 12, c);
    med_bump (h.l1, h.T, v >> 8, c);
    if ((v >> 8) == h.track) {
      med_bump (h.f, h.T, v & 255u, c);
      med_bump (h.fc, h.T, (v >> 4) & 15u, c);
    }
  }
}

/* Count (c = 1) or uncount (c = -1) the window samples of virtual row vy
 * at columns x - rx .. x + rx. */
template <int BITS>
static __device__ __forceinline__ void
med_row (med_hist_view &h, const med_args &a, int vy, int x, int c)
{
  const int rx = a.ww / 2;
  const int my = med_border_index (a.border, vy, a.height);

  if (my < 0) {                 /* CONSTANT row outside */
    med_count<BITS> (h, a.cval, c * a.ww);
    return;
  }
  const uint8_t *row = a.src + (size_t) my * a.src_pitch;
  if (x - rx >= 0 && x + rx < a.width) {
    for (int dx = -rx; dx <= rx; dx++)
      med_count<BITS> (h, med_load (row, x + dx, a.bpp), c);
  } else {
    for (int dx = -rx; dx <= rx; dx++) {
      int mx = med_border_index (a.border, x + dx, a.width);
      med_count<BITS> (h, mx < 0 ? a.cval : med_load (row, mx, a.bpp), c);
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

/* 16-bit: rebuild the fine histograms for high byte hb from the window of
 * (x, y) */
static __device__ void
med_rebuild (med_hist_view &h, const med_args &a, int x, int y, uint32_t hb)
{
  const int rx = a.ww / 2, ry = a.wh / 2;

#pragma unroll 4
  for (int i = 0; i < 128; i++)
    h.f[i * h.T] = 0;
#pragma unroll 1
  for (int i = 0; i < 8; i++)
    h.fc[i * h.T] = 0;
  h.track = hb;
  for (int dy = -ry; dy <= ry; dy++) {
    const int my = med_border_index (a.border, y + dy, a.height);
    if (my < 0) {
      if ((a.cval >> 8) == hb) {
        med_bump (h.f, h.T, a.cval & 255u, a.ww);
        med_bump (h.fc, h.T, (a.cval >> 4) & 15u, a.ww);
      }
      continue;
    }
    const uint8_t *row = a.src + (size_t) my * a.src_pitch;
    for (int dx = -rx; dx <= rx; dx++) {
      int mx = med_border_index (a.border, x + dx, a.width);
      uint32_t v = mx < 0 ? a.cval : med_load (row, mx, a.bpp);
      if ((v >> 8) == hb) {
        med_bump (h.f, h.T, v & 255u, 1);
        med_bump (h.fc, h.T, (v >> 4) & 15u, 1);
      }
    }
  }
}

/* Block: T threads = T consecutive columns; blockIdx.y: a segment of
 * seg_rows rows. No block-wide synchronisation. */
template <int BITS>
__global__ void
med_hist_kernel (med_args a, int seg_rows)
{
  extern __shared__ uint32_t med_hsmem[];
  const int T = blockDim.x;
  const int x = blockIdx.x * T + threadIdx.x;
  const int ys = blockIdx.y * seg_rows;
  const int ye = min (ys + seg_rows, a.height);
  const int ry = a.wh / 2;
  const int words = BITS == 8 ? MED_HIST_WORDS_8 : MED_HIST_WORDS_16;
  med_hist_view h;

  if (x >= a.width)
    return;
  h.T = T;
  h.l0 = med_hsmem + threadIdx.x;
  h.l1 = h.l0 + 8 * T;
  h.f = h.l1 + 128 * T;
  h.fc = h.f + 128 * T;
  h.track = 0xffffffffu;
#pragma unroll 4
  for (int i = 0; i < words; i++)
    h.l0[i * T] = 0;

  for (int dy = -ry; dy <= ry; dy++)
    med_row<BITS> (h, a, ys + dy, x, 1);

  for (int y = ys; y < ye; y++) {
    int acc = 0;
    uint32_t v;
    uint32_t c0 = med_search16 (h.l0, T, a.k, acc);
    uint32_t c1 = med_search16 (h.l1 + c0 * 8 * T, T, a.k, acc);
    if (BITS == 8)
      v = c0 * 16 + c1;
    else {
      uint32_t hb = c0 * 16 + c1;
      if (hb != h.track)
        med_rebuild (h, a, x, y, hb);
      uint32_t f0 = med_search16 (h.fc, T, a.k, acc);
      uint32_t f1 = med_search16 (h.f + f0 * 8 * T, T, a.k, acc);
      v = hb << 8 | f0 << 4 | f1;
    }
    med_store (a.dst + (size_t) y * a.dst_pitch, x, a.bpp, v);
    if (y + 1 < ye) {
      med_row<BITS> (h, a, y - ry, x, -1);
      med_row<BITS> (h, a, y + ry + 1, x, 1);
    }
  }
}

static int
med_hist_words (int bpp)
{
  return bpp == 1 ? MED_HIST_WORDS_8 : MED_HIST_WORDS_16;
}

cudaError_t
med_hist_configure (const med_args *a, struct med_hist_config *cfg)
{
  int dev = 0, sms = 0, optin = 0, per_sm = 0;
  cudaError_t e;
  size_t per_thread = (size_t) med_hist_words (a->bpp) * 4;
  int T, resident, segs, width_threads, rows;

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

  T = 64;
  if (per_thread * T > (size_t) optin)
    T = 32;
  if (per_thread * T > (size_t) optin)
    return cudaErrorInvalidConfiguration;
  cfg->threads = T;
  cfg->smem = per_thread * T;

  /* Enough segments for about two waves of resident threads; a segment
   * costs an initial window (window_h rows) besides its slides, so keep it
   * at least half a window high. */
  resident = (int) ((size_t) per_sm / (cfg->smem + 1024)) * T;
  if (resident > 2048)
    resident = 2048;
  if (resident < T)
    resident = T;
  width_threads = (a->width + T - 1) / T * T;
  segs = (2 * resident * sms + width_threads - 1) / width_threads;
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
      e = cudaFuncSetAttribute (med_hist_kernel<8>,
          cudaFuncAttributeMaxDynamicSharedMemorySize, (int) cfg->smem);
    else
      e = cudaFuncSetAttribute (med_hist_kernel<16>,
          cudaFuncAttributeMaxDynamicSharedMemorySize, (int) cfg->smem);
  }
  return e;
}

cudaError_t
med_hist_launch (const med_args *a, const struct med_hist_config *cfg,
    cudaStream_t stream)
{
  dim3 grid ((unsigned) ((a->width + cfg->threads - 1) / cfg->threads),
      (unsigned) ((a->height + cfg->seg_rows - 1) / cfg->seg_rows));
  dim3 block ((unsigned) cfg->threads);

  if (a->bpp == 1)
    med_hist_kernel<8><<<grid, block, cfg->smem, stream>>> (*a,
        cfg->seg_rows);
  else
    med_hist_kernel<16><<<grid, block, cfg->smem, stream>>> (*a,
        cfg->seg_rows);
  return cudaGetLastError ();
}
