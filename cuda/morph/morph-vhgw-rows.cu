/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The van Herk / Gil-Werman passes along rows (M. van Herk 1992, J. Gil
 * and M. Werman 1993; GPU layout after Thurley and Danell, paper 004):
 * the horizontal kernel on a transposed shared tile, and the lines kernel,
 * a lane per line of any direction, the fall-back when no tile fits. The
 * algorithm and the choice of a kernel: morph-vhgw.cu. */
#include <stdint.h>
#include <cuda_runtime.h>

#include "morph-vhgw-kernels.cuh"

/* ---- horizontal kernel ----------------------------------------------------
 * grid.x: a.tile output columns, grid.y: HT_ROWS rows. Shared: the input
 * tile (columns rounded up to C + len - 1) x HT_STRIDE words, then the
 * output tile a.tile x HT_STRIDE words. Word (t, g) holds rows 2g and
 * 2g+1 of column t; a warp loads and stores along rows (consecutive lanes,
 * consecutive columns), the stride of HT_STRIDE words keeping its shared
 * accesses on distinct banks. */

struct h_emitter
{
  uint32_t *p;
  __device__ __forceinline__ void operator () (int i, uint32_t v)
  {
    p[i * HT_STRIDE] = v;
  }
};

/* Vector paths of the horizontal kernel: lane g of a warp moves one
 * 32-byte run (H_RUN samples) of rows 2g and 2g+1 as two 16-byte accesses
 * per row, so that a load or store instruction carries 16 bytes instead of
 * one sample, and writes or reads the run's H_RUN tile words; the tile's
 * stride of HT_STRIDE words keeps those shared accesses on distinct banks
 * (word (t + j, g) is on bank t + j + g). Rows must allow 16-byte accesses
 * (a.src_vec / a.dst_vec); the border columns and the ends of a row that
 * are not whole runs take the sample-by-sample path. */
template <typename Pix>
struct h_run
{
  static constexpr int N = 32 / (int) sizeof (Pix);     /* samples per run */
};

/* word j of the run: sample j of row a in the low half, of row b in the
 * high half */
template <typename Pix>
static __device__ __forceinline__ void
h_unpack (uint32_t * tile_col, const uint4 * ra, const uint4 * rb)
{
  const uint32_t *a = (const uint32_t *) ra, *b = (const uint32_t *) rb;

#pragma unroll
  for (int k = 0; k < 8; k++) {
    if (sizeof (Pix) == 1) {
#pragma unroll
      for (int j = 0; j < 4; j++)
        tile_col[(4 * k + j) * HT_STRIDE] =
            __byte_perm (a[k], b[k], j | (4 + j) << 8) & 0x00ff00ffu;
    } else {
      tile_col[(2 * k) * HT_STRIDE] = __byte_perm (a[k], b[k], 0x5410);
      tile_col[(2 * k + 1) * HT_STRIDE] = __byte_perm (a[k], b[k], 0x7632);
    }
  }
}

/* the inverse: rows a and b of the run from its H_RUN tile words */
template <typename Pix>
static __device__ __forceinline__ void
h_pack (const uint32_t * tile_col, uint4 * ra, uint4 * rb)
{
  uint32_t *a = (uint32_t *) ra, *b = (uint32_t *) rb;

#pragma unroll
  for (int k = 0; k < 8; k++) {
    if (sizeof (Pix) == 1) {
      const uint32_t w0 = tile_col[(4 * k) * HT_STRIDE];
      const uint32_t w1 = tile_col[(4 * k + 1) * HT_STRIDE];
      const uint32_t w2 = tile_col[(4 * k + 2) * HT_STRIDE];
      const uint32_t w3 = tile_col[(4 * k + 3) * HT_STRIDE];
      const uint32_t p01 = __byte_perm (w0, w1, 0x6240);
      const uint32_t p23 = __byte_perm (w2, w3, 0x6240);
      a[k] = __byte_perm (p01, p23, 0x5410);
      b[k] = __byte_perm (p01, p23, 0x7632);
    } else {
      const uint32_t w0 = tile_col[(2 * k) * HT_STRIDE];
      const uint32_t w1 = tile_col[(2 * k + 1) * HT_STRIDE];
      a[k] = __byte_perm (w0, w1, 0x5410);
      b[k] = __byte_perm (w0, w1, 0x7632);
    }
  }
}

template <typename Pix, int C, class Op>
static __global__ void __launch_bounds__ (LANES * WARPS)
vhgw_h_kernel (const __grid_constant__ pass_args a)
{
  extern __shared__ uint32_t smem[];
  constexpr int RUN = h_run<Pix>::N;
  /* long windows only: below C = 32 the kernel is bound by occupancy and
   * the tail of its last wave, and the vector paths' registers cost more
   * than the load and store instructions they save (the figures of lines
   * 31 and 127 at 0 deg are in docs/bench/history.md, "Figures moved from
   * code comments") */
  constexpr bool VEC = C >= 32;
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int x0 = (int) blockIdx.x * a.tile;
  const int y0 = (int) blockIdx.y * HT_ROWS;
  const int cols = min (a.tile, a.width - x0);
  const int rows = min (HT_ROWS, a.height - y0);
  const int chunks = (cols + C - 1) / C;
  const int groups = (rows + 1) / 2;
  const int n = chunks * C + a.len - 1;
  const int sx0 = x0 + a.first;
  const uint32_t cword = a.cval | a.cval << 16;
  uint32_t *tile = smem;
  uint32_t *out = smem + (size_t) (a.tile + a.len - 1) * HT_STRIDE;
  /* image columns [vlo, vhi) of the tile: whole runs, by vectors */
  int vlo = 0, vhi = 0;

  if (VEC && a.src_vec) {
    vlo = (max (sx0, 0) + RUN - 1) / RUN * RUN;
    vhi = max (min (sx0 + n, a.width) / RUN * RUN, vlo);
  }

  /* word (t, g): rows 2g and 2g+1 (the same row again past the last row)
   * of column sx0 + t; sample by sample outside [vlo, vhi): the border
   * rule once per column, then the (up to 4) row pairs of this warp */
  for (int t = lane; t < n; t += LANES) {
    int sx = sx0 + t;
    if (sx >= vlo && sx < vhi)
      continue;
    const bool cst = a.border == CM_BORDER_CONSTANT &&
        (sx < 0 || sx >= a.width);
    sx = cst ? 0 : border_map (a.border, sx, a.width);
#pragma unroll 4
    for (int g = warp; g < groups; g += WARPS) {
      const uint8_t *r0 = a.src + (size_t) (y0 + 2 * g) * a.spitch;
      const uint8_t *r1 = 2 * g + 1 < rows ? r0 + a.spitch : r0;
      uint32_t w = (uint32_t) ((const Pix *) r0)[sx] |
          (uint32_t) ((const Pix *) r1)[sx] << 16;
      tile[t * HT_STRIDE + g] = cst ? cword : w;
    }
  }
  if (VEC && lane < groups) {
    const int g = lane;
    const uint8_t *r0 = a.src + (size_t) (y0 + 2 * g) * a.spitch;
    const uint8_t *r1 = 2 * g + 1 < rows ? r0 + a.spitch : r0;
#pragma unroll 2
    for (int v = vlo + warp * RUN; v < vhi; v += WARPS * RUN) {
      const uint4 *p0 = (const uint4 *) ((const Pix *) r0 + v);
      const uint4 *p1 = (const uint4 *) ((const Pix *) r1 + v);
      uint4 ra[2] = { p0[0], p0[1] }, rb[2] = { p1[0], p1[1] };
      h_unpack<Pix> (tile + (v - sx0) * HT_STRIDE + g, ra, rb);
    }
  }
  __syncthreads ();
  for (int q = warp; q < chunks; q += WARPS) {
    tile_reader<HT_STRIDE> rd = { tile + q * C * HT_STRIDE + lane };
    h_emitter em = { out + q * C * HT_STRIDE + lane };
    vhgw_chunk<C, Op> (rd, a.len, em);
  }
  __syncthreads ();
  /* output columns [0, ovec) by runs when the block's first column starts
   * a run, the rest sample by sample */
  const int ovec = VEC && a.dst_vec && x0 % RUN == 0 ? cols / RUN * RUN : 0;
  if (VEC && lane < groups) {
    const int g = lane;
    uint8_t *r0 = a.dst + (size_t) (y0 + 2 * g) * a.dpitch;
    const bool both = 2 * g + 1 < rows;
    for (int o = warp * RUN; o < ovec; o += WARPS * RUN) {
      uint4 ra[2], rb[2];
      uint4 *p0 = (uint4 *) ((Pix *) r0 + x0 + o);
      uint4 *p1 = (uint4 *) ((Pix *) (r0 + a.dpitch) + x0 + o);
      h_pack<Pix> (out + o * HT_STRIDE + g, ra, rb);
      p0[0] = ra[0];
      p0[1] = ra[1];
      if (both) {
        p1[0] = rb[0];
        p1[1] = rb[1];
      }
    }
  }
  for (int g = warp; g < groups; g += WARPS) {
    Pix *r0 = (Pix *) (a.dst + (size_t) (y0 + 2 * g) * a.dpitch) + x0;
    Pix *r1 = (Pix *) ((uint8_t *) r0 + a.dpitch);
    const bool both = 2 * g + 1 < rows;
    for (int o = ovec + lane; o < cols; o += LANES) {
      uint32_t w = out[o * HT_STRIDE + g];
      r0[o] = (Pix) w;
      if (both)
        r1[o] = (Pix) (w >> 16);
    }
  }
}

/* ---- lines kernel ---------------------------------------------------------
 * Line e, walk coordinate b: pixel (e + sigma b, b), or (b, e) when trans.
 * Output b reads b + first .. b + first + len - 1. grid.x: LANES lines,
 * grid.y: WARPS chunks of C outputs. */

template <typename Pix>
struct line_reader_fast
{
  const uint8_t *p;
  ptrdiff_t step;
  __device__ __forceinline__ uint32_t operator () (int t) const
  {
    return *(const Pix *) (p + t * step);
  }
};

/* sample (x, y) outside the image: kept out of line, the unrolled chunk
 * would otherwise inline the border rule at every one of its reads */
template <typename Pix>
static __device__ __noinline__ uint32_t
line_sample_outside (const pass_args * a, int x, int y)
{
  if (a->border == CM_BORDER_CONSTANT)
    return a->cval;
  x = border_map (a->border, x, a->width);
  y = border_map (a->border, y, a->height);
  return ((const Pix *) (a->src + (size_t) y * a->spitch))[x];
}

template <typename Pix>
struct line_reader
{
  const pass_args *a;
  int e, b;
  __device__ __forceinline__ uint32_t operator () (int t) const
  {
    int bb = b + t;
    int x = a->trans ? bb : e + a->sigma * bb;
    int y = a->trans ? e : bb;
    if (x < 0 || x >= a->width || y < 0 || y >= a->height)
      return line_sample_outside<Pix> (a, x, y);
    return ((const Pix *) (a->src + (size_t) y * a->spitch))[x];
  }
};

template <typename Pix>
struct line_emitter
{
  const pass_args *a;
  int e, b, lo, hi;
  __device__ __forceinline__ void operator () (int i, uint32_t v)
  {
    int bb = b + i;
    if (bb < lo || bb > hi)
      return;
    int x = a->trans ? bb : e + a->sigma * bb;
    int y = a->trans ? e : bb;
    ((Pix *) (a->dst + (size_t) y * a->dpitch))[x] = (Pix) v;
  }
};

template <typename Pix, int C, class Op>
static __global__ void __launch_bounds__ (LANES * WARPS)
vhgw_line_kernel (const __grid_constant__ pass_args a)
{
  const int li = (int) blockIdx.x * LANES + (int) threadIdx.x;
  const int b0 = ((int) blockIdx.y * WARPS + (int) threadIdx.y) * C;
  const int e = a.e_min + li;
  int lo, hi;                   /* outputs of line e: b in [lo, hi] */

  if (li >= a.e_count)
    return;
  if (a.trans) {
    lo = 0;
    hi = a.width - 1;
  } else if (a.sigma > 0) {
    lo = max (0, -e);
    hi = min (a.height - 1, a.width - 1 - e);
  } else if (a.sigma < 0) {
    lo = max (0, e - a.width + 1);
    hi = min (a.height - 1, e);
  } else {
    lo = 0;
    hi = a.height - 1;
  }
  lo = max (lo, b0);
  hi = min (hi, b0 + C - 1);
  if (lo > hi)
    return;

  line_emitter<Pix> em = { &a, e, b0, lo, hi };
  /* samples b0 + first .. b1: all inside the image? */
  const int bs = b0 + a.first, b1 = bs + C + a.len - 2;
  bool inside;
  if (a.trans)
    inside = bs >= 0 && b1 < a.width;
  else {
    int xs = e + a.sigma * bs, x1 = e + a.sigma * b1;
    inside = bs >= 0 && b1 < a.height && min (xs, x1) >= 0 &&
        max (xs, x1) < a.width;
  }
  if (inside) {
    line_reader_fast<Pix> rd;
    if (a.trans) {
      rd.p = a.src + (size_t) e * a.spitch + (size_t) bs * sizeof (Pix);
      rd.step = (ptrdiff_t) sizeof (Pix);
    } else {
      rd.p = a.src + (size_t) bs * a.spitch +
          (ptrdiff_t) (e + a.sigma * bs) * (ptrdiff_t) sizeof (Pix);
      rd.step = (ptrdiff_t) a.spitch + a.sigma * (ptrdiff_t) sizeof (Pix);
    }
    vhgw_chunk<C, Op> (rd, a.len, em);
  } else {
    line_reader<Pix> rd = { &a, e, bs };
    vhgw_chunk<C, Op> (rd, a.len, em);
  }
}

struct rows_family
{
  template <typename Pix, int C, class Op2, class Op1>
  static pass_kernel get (cm_pass_variant v)
  {
    if (v == CM_PASS_HORIZONTAL)
      return vhgw_h_kernel<Pix, C, Op2>;
    /* the line kernel runs with C <= 32 (registers) */
    return vhgw_line_kernel<Pix, (C < 32 ? C : 32), Op1>;
  }
};

pass_kernel
vhgw_rows_kernel (cm_pass_variant v, cm_depth depth, int is_min, int c)
{
  return vhgw_kernel_for<rows_family> (v, depth, is_min, c);
}
