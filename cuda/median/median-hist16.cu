/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* 16-bit median / rank filter by sliding histograms, third version
 * ("histogram-16-walk", med_h16w_kernel): the hierarchical histogram of
 * paper 001 section 3.6 (256 bins of the high byte, the 256 bins of the low
 * byte for a band of B high bytes around the answer) on the sliding window
 * of Perreault & Hébert, with a warp per output column, as the 16-bit
 * kernels before it; what changes is the work a warp does per output.
 *
 * Why: the earlier kernels took the same time for every window from 17x17
 * to 63x63. Their band rebuilds were not the cause (rare on uniform noise,
 * rarer as the window grows: simulated), and a variant that hid the load
 * latencies was slower: the time went into the instructions every output
 * issued, two full warp searches of 256 bins (each lane 8 bins unpacked
 * and searched one by one, a 5-step shuffle scan, a ballot, shuffles),
 * about 300 warp instructions an output. Figures: docs/bench/history.md
 * (Median; "Figures moved from code comments (median, linear spectrum)").
 *
 * What this kernel does per output (ww <= 32, one sample a lane):
 *  - coarse level (high byte) tracked, not searched: the warp keeps H, the
 *    answer's high byte, and `below`, the samples of the window whose high
 *    byte is below H. A slide moves `below` by two ballots (samples in and
 *    out below H), then H walks to the bin holding rank k, one bin a step
 *    (a broadcast shared read); on noise H moves 0.8 bins an output at 31x31
 *    (2 at 17x17, 0.3 at 63x63). After H_WALK steps a full search takes over
 *    (edges of natural images: the answer jumps far once).
 *  - fine level: one search of the 256 bins of high byte H, cheaper than
 *    the first version's: each lane sums its 8 bins with three packed adds
 *    (no count exceeds N < 65536, so the halves never carry), a 5-step scan
 *    finds the owning lane, then 8 lanes take the owner's 8 bins (one read,
 *    a 3-step scan, a ballot) instead of every lane walking its own 8.
 *  - the next slide's samples are loaded before the searches (their latency
 *    hides behind them); each lane's window column and its border mapping
 *    are computed once per warp, not per sample.
 *  - a band rebuild (the answer's high byte left the band) reads the window
 *    8 rows at a time (8 loads in flight a lane).
 *
 * Expected: about a third of the earlier kernels' warp instructions an
 * output at 31x31; 17x17 somewhat more (longer walks, more rebuilds),
 * 63x63 two samples a lane. Measured: docs/bench/history.md (Median).
 * Shared memory per warp is (1 + B) * 512 bytes: B = 8 (the default, 11
 * blocks of 4 warps an SM on sm_80/90) or 16 (cm_median_tuning.hist16_band:
 * rebuilds rarer, half the warps). */
#include <limits.h>

#include "median-impl.cuh"

#define H16W_WARPS 4            /* warps (columns) a block                */
#define H16W_FULL 0xffffffffu
#define H16W_NONE 0xffffffffu   /* no sample; NONE >> 8 exceeds any bin   */
#define H16W_WALK 4             /* coarse steps before a full search      */
#define H16W_ROWS 8             /* window rows loaded at once (rebuilds)  */

/* ---- samples ------------------------------------------------------------ */

/* A lane's window column: the mapped image column, -1 for a CONSTANT
 * column outside the image, -2 past the window (no sample). */
static __device__ __forceinline__ int
h16w_column (const med_args &a, int x, int j)
{
  if (j >= a.ww)
    return -2;
  return med_border_index (a.border, x - a.ww / 2 + j, a.width);
}

/* The window row at virtual row vy, or NULL for a CONSTANT row outside */
static __device__ __forceinline__ const uint8_t *
h16w_row (const med_args &a, int vy)
{
  const int my = med_border_index (a.border, vy, a.height);
  return my < 0 ? NULL : a.src + (size_t) my * a.src_pitch;
}

static __device__ __forceinline__ uint32_t
h16w_sample (const med_args &a, const uint8_t *row, int col)
{
  if (col < -1)
    return H16W_NONE;
  if (col < 0 || !row)
    return a.cval;
  return __ldg ((const unsigned short *) row + col);
}

/* ---- histograms: 16-bit counters, two a word ---------------------------- */

/* count of bin `bin` (a broadcast read when the warp agrees on bin) */
static __device__ __forceinline__ int
h16w_cnt (const uint32_t *h, uint32_t bin)
{
  return (int) ((h[bin >> 1] >> ((bin & 1) * 16)) & 0xffffu);
}

/* bin += inc, inc = 1 or 0xffffffff (-1): no borrow crosses the halves,
 * because a count never drops below the removals still to come */
static __device__ __forceinline__ void
h16w_add (uint32_t *h, uint32_t bin, uint32_t inc)
{
  atomicAdd (h + (bin >> 1), inc << ((bin & 1) * 16));
}

/* Sample v (or NONE) into the coarse level and, when its high byte is in
 * the band t0 .. t0 + B - 1, into the fine level. */
template <int B>
static __device__ __forceinline__ void
h16w_count (uint32_t *l1, uint32_t *band, uint32_t t0, uint32_t v,
    uint32_t inc)
{
  if (v == H16W_NONE)
    return;
  const uint32_t hb = v >> 8, b = hb - t0;
  h16w_add (l1, hb, inc);
  if (b < (uint32_t) B)
    h16w_add (band + b * 128, v & 255u, inc);
}

/* ---- the warp search ------------------------------------------------------
 * The bin (0..255) holding rank r of the 256 bins at p (128 words, 16-byte
 * aligned); with BELOW, *below = the samples in the bins before it. Whole
 * warp, warp-uniform result; the bins hold more than r samples. */
template <bool BELOW>
static __device__ __forceinline__ uint32_t
h16w_find (const uint32_t *p, int r, int *below)
{
  const int lane = threadIdx.x & 31;
  const uint4 w = ((const uint4 *) p)[lane];
  /* the lane's 8 bins, even ones in the low halves: a half never carries
   * (any sum of bins is at most N <= 65025) */
  const uint32_t pk = w.x + w.y + w.z + w.w;
  const int s = (int) (pk & 0xffffu) + (int) (pk >> 16);
  int incl = s;

#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const int n = __shfl_up_sync (H16W_FULL, incl, off);
    if (lane >= off)
      incl += n;
  }
  /* the first lane whose bins reach past rank r (never none with
   * consistent counts; the top bit keeps the index in range regardless) */
  const int owner = __ffs (__ballot_sync (H16W_FULL, incl > r) |
      0x80000000u) - 1;
  const int base = __shfl_sync (H16W_FULL, incl - s, owner);
  /* lanes 8g .. 8g + 7 take the owner's 8 bins, one each */
  const int i8 = lane & 7;
  const uint32_t bin0 = (uint32_t) owner * 8;
  const int c = h16w_cnt (p, bin0 + i8);
  int ci = c;
#pragma unroll
  for (int off = 1; off < 8; off <<= 1) {
    const int n = __shfl_up_sync (H16W_FULL, ci, off, 8);
    if (i8 >= off)
      ci += n;
  }
  const int i = __ffs ((__ballot_sync (H16W_FULL, base + ci > r) & 0xffu) |
      0x80u) - 1;
  if (BELOW)
    *below = base + __shfl_sync (H16W_FULL, ci - c, i);
  return bin0 + (uint32_t) i;
}

/* ---- whole windows --------------------------------------------------------
 * Count the window rows vy0 .. vy0 + n - 1 (lanes' columns col[]) into
 * both levels (L1: the initial window) or into the band only (a rebuild),
 * H16W_ROWS rows' loads in flight at once. Whole warp. */
template <int S, int B, bool L1>
static __device__ void
h16w_window (const med_args &a, uint32_t *l1, uint32_t *band, uint32_t t0,
    const int *col, int vy0, int n)
{
#pragma unroll
  for (int s = 0; s < S; s++) {
    if (32 * s >= a.ww)         /* warp-uniform */
      break;
    for (int r0 = 0; r0 < n; r0 += H16W_ROWS) {
      uint32_t v[H16W_ROWS];
#pragma unroll
      for (int r = 0; r < H16W_ROWS; r++)
        v[r] = r0 + r < n ? h16w_sample (a, h16w_row (a, vy0 + r0 + r),
            col[s]) : H16W_NONE;
#pragma unroll
      for (int r = 0; r < H16W_ROWS; r++) {
        if (L1)
          h16w_count<B> (l1, band, t0, v[r], 1u);
        else if (v[r] != H16W_NONE && (v[r] >> 8) - t0 < (uint32_t) B)
          h16w_add (band + ((v[r] >> 8) - t0) * 128, v[r] & 255u, 1u);
      }
    }
  }
}

/* ---- kernel ---------------------------------------------------------------
 * Block: H16W_WARPS warps, warp w the output column
 * blockIdx.x * H16W_WARPS + w; blockIdx.y: a segment of seg_rows rows.
 * S: samples a lane per window row (ww <= 32 * S); B: the band's high
 * bytes. No block-wide synchronisation. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define H16W_MINB(B) ((B) == 8 ? 3 : 1)
#else
#define H16W_MINB(B) ((B) == 8 ? 10 : 6)
#endif

template <int S, int B>
__global__ void __launch_bounds__ (32 * H16W_WARPS, H16W_MINB (B))
med_h16w_kernel (med_args a, int seg_rows)
{
  extern __shared__ uint32_t med_h16w_smem[];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int x = blockIdx.x * H16W_WARPS + warp;
  const int ys = blockIdx.y * seg_rows;
  const int ye = min (ys + seg_rows, a.height);
  const int ry = a.wh / 2, k = a.k;

  if (x >= a.width)             /* warp-uniform */
    return;
  uint32_t *l1 = med_h16w_smem + warp * (1 + B) * 128;
  uint32_t *band = l1 + 128;
  uint32_t t0 = 0x80000000u;    /* no band yet: nothing counted into it */
  int col[S];

#pragma unroll
  for (int s = 0; s < S; s++)
    col[s] = h16w_column (a, x, lane + 32 * s);
  for (int i = lane; i < (1 + B) * 128 / 4; i += 32)
    ((uint4 *) l1)[i] = make_uint4 (0, 0, 0, 0);
  __syncwarp ();
  h16w_window<S, B, true> (a, l1, band, t0, col, ys - ry, a.wh);
  __syncwarp ();

  int below;
  uint32_t H = h16w_find<true> (l1, k, &below);

  for (int y = ys; y < ye; y++) {
    const bool more = y + 1 < ye;
    uint32_t vin[S], vout[S];

    /* the next slide's samples, ahead of the searches */
    if (more) {
      const uint8_t *ro = h16w_row (a, y - ry);
      const uint8_t *ri = h16w_row (a, y + ry + 1);
#pragma unroll
      for (int s = 0; s < S; s++) {
        vout[s] = h16w_sample (a, ro, col[s]);
        vin[s] = h16w_sample (a, ri, col[s]);
      }
    }

    /* coarse: walk H to the bin holding rank k (below <= k < below +
     * count[H]), a full search after H16W_WALK steps */
    for (int steps = 0;; steps++) {
      if (steps == H16W_WALK) {
        H = h16w_find<true> (l1, k, &below);
        break;
      }
      if (below > k) {
        H--;
        below -= h16w_cnt (l1, H);
      } else {
        const int c = h16w_cnt (l1, H);
        if (below + c > k)
          break;
        below += c;
        H++;
      }
    }

    /* fine: the band holds high byte H, rebuilt around it if not */
    if (H - t0 >= (uint32_t) B) {
      int t = (int) H - B / 2;
      t = t < 0 ? 0 : t > 256 - B ? 256 - B : t;
      t0 = (uint32_t) t;
      __syncwarp ();            /* earlier reads of the band are done */
      for (int i = lane; i < B * 128 / 4; i += 32)
        ((uint4 *) band)[i] = make_uint4 (0, 0, 0, 0);
      __syncwarp ();
      h16w_window<S, B, false> (a, l1, band, t0, col, y - ry, a.wh);
      __syncwarp ();
    }
    const uint32_t lb = h16w_find<false> (band + (H - t0) * 128, k - below,
        NULL);
    if (lane == 0)
      ((uint16_t *) (a.dst + (size_t) y * a.dst_pitch))[x] =
          (uint16_t) (H << 8 | lb);
    if (!more)
      break;

    /* slide: row y - ry leaves, y + ry + 1 enters */
    __syncwarp ();              /* searches done before the counts move */
#pragma unroll
    for (int s = 0; s < S; s++) {
      h16w_count<B> (l1, band, t0, vout[s], 0xffffffffu);
      h16w_count<B> (l1, band, t0, vin[s], 1u);
      /* NONE >> 8 is never below H */
      below += __popc (__ballot_sync (H16W_FULL, (vin[s] >> 8) < H)) -
          __popc (__ballot_sync (H16W_FULL, (vout[s] >> 8) < H));
    }
    __syncwarp ();
  }
}

/* ======================================================================== */
/* Configuration and launch                                                 */
/* ======================================================================== */

template <int S, int B>
static const void *
h16w_fn (void)
{
  return (const void *) med_h16w_kernel<S, B>;
}

/* The kernel for a->ww and the band (8 or 16), NULL if none */
static const void *
h16w_pick (const med_args *a, int band)
{
  const int s = (a->ww + 31) / 32;

  if (band == 16)
    return s <= 1 ? h16w_fn<1, 16> () : s <= 2 ? h16w_fn<2, 16> () :
        s <= 4 ? h16w_fn<4, 16> () : s <= 8 ? h16w_fn<8, 16> () : NULL;
  return s <= 1 ? h16w_fn<1, 8> () : s <= 2 ? h16w_fn<2, 8> () :
      s <= 4 ? h16w_fn<4, 8> () : s <= 8 ? h16w_fn<8, 8> () : NULL;
}

cudaError_t
med_h16w_configure (const med_args *a, struct med_hist_config *cfg)
{
  const void *fn = h16w_pick (a, cfg->band16);
  int dev = 0, sms = 0, per_block = 0;
  cudaError_t e;

  if (!fn)
    return cudaErrorInvalidValue;
  cfg->threads = 32 * H16W_WARPS;
  cfg->smem = (size_t) (1 + cfg->band16) * 128 * 4 * H16W_WARPS;
  e = cudaGetDevice (&dev);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e == cudaSuccess && cfg->smem > 48 * 1024)
    e = cudaFuncSetAttribute (fn,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) cfg->smem);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_block, fn,
        cfg->threads, cfg->smem);
  if (e != cudaSuccess)
    return e;
  if (per_block < 1)
    return cudaErrorInvalidConfiguration;

  /* About two waves of resident blocks; a segment pays an initial window
   * besides its slides, so keep it at least half a window high. */
  {
    const int columns = (a->width + H16W_WARPS - 1) / H16W_WARPS;
    const int resident = per_block * sms;
    const int segs = (2 * resident + columns - 1) / columns;

    cfg->seg_rows = med_hist_seg_rows (a, segs);
  }
  return cudaSuccess;
}

cudaError_t
med_h16w_launch (const med_args *a, const struct med_hist_config *cfg,
    cudaStream_t stream)
{
  const void *fn = h16w_pick (a, cfg->band16);
  dim3 grid ((unsigned) ((a->width + H16W_WARPS - 1) / H16W_WARPS),
      (unsigned) ((a->height + cfg->seg_rows - 1) / cfg->seg_rows));
  dim3 block ((unsigned) cfg->threads);
  med_args args = *a;
  int seg_rows = cfg->seg_rows;
  void *params[] = { &args, &seg_rows };

  if (!fn)
    return cudaErrorInvalidValue;
  return cudaLaunchKernel (fn, grid, block, params, cfg->smem, stream);
}
