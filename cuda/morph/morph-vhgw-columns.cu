/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The van Herk / Gil-Werman passes along columns (M. van Herk 1992, J. Gil
 * and M. Werman 1993; GPU layout after Thurley and Danell, paper 004):
 * the vertical kernel on a staged strip of columns and the same kernel on
 * the sheared image for the diagonals. The algorithm and the choice of a
 * kernel: morph-vhgw.cu. */
#include <stdint.h>
#include <cuda_runtime.h>

#include "morph-vhgw-kernels.cuh"

/* ---- vertical kernel ------------------------------------------------------
 * grid.x: strips of 2 * LANES columns, grid.y: a.tile output rows.
 * Shared: (rows rounded up to C + len - 1) x LANES words. */

template <typename Pix, bool FULL>
struct v_emitter
{
  uint8_t *dst;
  size_t pitch;
  int x, y, width, height;
  __device__ __forceinline__ void operator () (int i, uint32_t v)
  {
    if (y + i < height)
      store_pair<Pix, FULL> (dst + (size_t) (y + i) * pitch, x, width, v);
  }
};

/* rows t = lo + warp, lo + warp + WARPS, ... < hi of the vertical tile */
template <typename Pix, bool FULL>
static __device__ __forceinline__ void
v_load_rows (uint32_t * tile, const pass_args & a, int ys, int lo, int hi,
    int x)
{
#pragma unroll 4
  for (int t = lo + (int) threadIdx.y; t < hi; t += WARPS)
    tile[t * LANES + threadIdx.x] =
        load_pair<Pix, FULL> (a.src + (size_t) (ys + t) * a.spitch, x,
        a.width);
}

/* The same rows when the block's strip of 2 * LANES columns lies inside
 * the image and rows allow 16-byte accesses: 16-byte loads, each spread
 * into the strip's pair words (8-bit: 16 samples into 8 words). A warp
 * instruction then loads 512 bytes (8 rows of the strip at 8 bit) instead
 * of 64: with few blocks per SM (long windows: 25 % occupancy on an H100)
 * the pair loads kept too few bytes in flight. */
template <typename Pix>
static __device__ __forceinline__ void
v_load_rows_vec (uint32_t * tile, const pass_args & a, int ys, int lo,
    int hi, int xb)
{
  constexpr int LPR = 2 * LANES * (int) sizeof (Pix) / 16;     /* lanes/row */
  constexpr int STEP = WARPS * LANES / LPR;     /* rows per block step */
  const int tid = (int) threadIdx.y * LANES + (int) threadIdx.x;
  const int v = tid % LPR;
  const uint4 *col = (const uint4 *) (a.src + (size_t) xb * sizeof (Pix)) + v;

#pragma unroll 4
  for (int t = lo + tid / LPR; t < hi; t += STEP) {
    const uint4 q = __ldg ((const uint4 *) ((const uint8_t *) col +
            (size_t) (ys + t) * a.spitch));
    /* words per vector: 8 pairs (8-bit) or 4 (16-bit) */
    uint4 *w = (uint4 *) (tile + t * LANES + v * 8 / (int) sizeof (Pix));
    if (sizeof (Pix) == 1) {
      w[0] = make_uint4 (__byte_perm (q.x, 0, 0x4140),
          __byte_perm (q.x, 0, 0x4342), __byte_perm (q.y, 0, 0x4140),
          __byte_perm (q.y, 0, 0x4342));
      w[1] = make_uint4 (__byte_perm (q.z, 0, 0x4140),
          __byte_perm (q.z, 0, 0x4342), __byte_perm (q.w, 0, 0x4140),
          __byte_perm (q.w, 0, 0x4342));
    } else {
      w[0] = q;
    }
  }
}

/* The chunks of a staged tile (vertical or sheared) owned by this warp:
 * chunk q reads the tile from row q C and emits through em with its
 * first output row y = y0 + q C. */
template <int C, class Op, class Em>
static __device__ __forceinline__ void
tile_chunks (const uint32_t * tile, int len, int chunks, int y0, Em em)
{
  for (int q = threadIdx.y; q < chunks; q += WARPS) {
    tile_reader<LANES> rd = { tile + q * C * LANES + threadIdx.x };
    em.y = y0 + q * C;
    vhgw_chunk<C, Op> (rd, len, em);
  }
}

template <typename Pix, int C, class Op>
static __global__ void __launch_bounds__ (LANES * WARPS)
vhgw_v_kernel (const __grid_constant__ pass_args a)
{
  pdl_wait ();                  /* may be launched early: pdl_launch */
  extern __shared__ uint32_t tile[];
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int x = 2 * ((int) blockIdx.x * LANES + lane);
  const int y0 = (int) blockIdx.y * a.tile;
  const int rows = min (a.tile, a.height - y0);
  const int chunks = (rows + C - 1) / C;
  const int n = chunks * C + a.len - 1;
  const uint32_t cword = a.cval | a.cval << 16;

  /* rows inside the image: plain loads, unrolled so that each thread has
   * several in flight; rows outside: the border rule */
  const int ys = y0 + a.first;
  const int t0 = min (max (-ys, 0), n);
  const int t1 = max (min (a.height - ys, n), t0);
  const int xb = 2 * (int) blockIdx.x * LANES;
  if (a.src_vec && xb + 2 * LANES <= a.width)   /* the whole block */
    v_load_rows_vec<Pix> (tile, a, ys, t0, t1, xb);
  else if (x < a.width) {
    if (a.src_aligned && x + 1 < a.width)
      v_load_rows<Pix, true> (tile, a, ys, t0, t1, x);
    else
      v_load_rows<Pix, false> (tile, a, ys, t0, t1, x);
  }
  for (int part = 0; part < 2; part++) {
    const int lo = part ? t1 : 0, hi = part ? n : t0;
    for (int t = lo + warp; t < hi; t += WARPS) {
      uint32_t w = cword;
      if (x < a.width && a.border != CM_BORDER_CONSTANT)
        w = load_pair<Pix, false> (a.src + (size_t) border_map (a.border,
                ys + t, a.height) * a.spitch, x, a.width);
      tile[t * LANES + lane] = w;
    }
  }
  __syncthreads ();
  if (x >= a.width)
    return;                     /* no barrier below */
  if (a.dst_aligned && x + 1 < a.width) {
    v_emitter<Pix, true> em = { a.dst, a.dpitch, x, 0, a.width, a.height };
    tile_chunks<C, Op> (tile, a.len, chunks, y0, em);
  } else {
    v_emitter<Pix, false> em = { a.dst, a.dpitch, x, 0, a.width, a.height };
    tile_chunks<C, Op> (tile, a.len, chunks, y0, em);
  }
}

/* ---- sheared vertical kernel (diagonals) ---------------------------------
 * The diagonal (1, sigma) through pixel (x, y) is the column e = x - sigma
 * y of the sheared image g (e, Y) = f (e + sigma Y, Y), and the diagonal
 * segment a vertical one (a.first already in rows): the vertical kernel
 * runs on g. Lanes own pairs of neighbouring e, so that every staged row
 * and every stored row is a run of neighbouring pixels of one image row:
 * coalesced, unlike the line kernel's per-lane walks. The tile holds
 * g (e, ys + t); a sample outside the image takes the border rule on x and
 * y independently, as the line kernel does. grid.x: strips of 2 * LANES
 * columns e from a.e_min; grid.y: a.tile rows. Blocks whose pixels all
 * lie outside the image (the sheared frame is a parallelogram) leave at
 * once. */

template <typename Pix>
static __device__ __forceinline__ uint32_t
sheared_sample (const pass_args & a, const uint8_t * row, int x)
{
  if (x < 0 || x >= a.width) {
    if (a.border == CM_BORDER_CONSTANT)
      return a.cval;
    x = border_map (a.border, x, a.width);
  }
  return ((const Pix *) row)[x];
}

/* Output i of a lane's chunk: samples x = e + sigma yy and x + 1 of row
 * yy. INSIDE: the block's whole output lies in the image (no checks). */
template <typename Pix, bool INSIDE>
struct vs_emitter
{
  uint8_t *dst;
  size_t pitch;
  int e, y, sigma, width, height;
  __device__ __forceinline__ void operator () (int i, uint32_t v)
  {
    const int yy = y + i, x = e + sigma * yy;
    if (!INSIDE && yy >= height)
      return;
    Pix *r = (Pix *) (dst + (size_t) yy * pitch);
    if (INSIDE || (x >= 0 && x < width))
      r[x] = (Pix) v;
    if (INSIDE || (x + 1 >= 0 && x + 1 < width))
      r[x + 1] = (Pix) (v >> 16);
  }
};

template <typename Pix, int C, class Op>
static __global__ void __launch_bounds__ (LANES * WARPS)
vhgw_vs_kernel (const __grid_constant__ pass_args a)
{
  pdl_wait ();                  /* may be launched early: pdl_launch */
  extern __shared__ uint32_t tile[];
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int sx = a.reverse ? (int) (gridDim.x - 1 - blockIdx.x) :
      (int) blockIdx.x;
  const int eb = a.e_min + 2 * sx * LANES;
  const int e = eb + 2 * lane;
  /* the rows [ya, yb] where some column of the strip is in the image
   * (x = e + sigma y in [0, width)); tiles start at ya, so that only the
   * strip's last tile is partial (the grid from row 0 computed the rows
   * above ya of the tile that meets it: ~7 % of the work at 4K, 45 deg) */
  int ya = 0, yb = a.height - 1;
  if (!a.grid_tiles) {
    if (a.sigma > 0) {
      ya = max (ya, -(eb + 2 * LANES - 1));
      yb = min (yb, a.width - 1 - eb);
    } else {
      ya = max (ya, eb - (a.width - 1));
      yb = min (yb, eb + 2 * LANES - 1);
    }
  }
  const int y0 = ya + (int) blockIdx.y * a.tile;
  if (y0 > yb)
    return;                     /* the whole block, before any barrier */
  const int rows = min (a.tile, yb - y0 + 1);
  const int chunks = (rows + C - 1) / C;
  const int n = chunks * C + a.len - 1;
  const int ys = y0 + a.first;

  /* pixels of this block: x from e + sigma y over the strip and the rows */
  {
    const int ya = a.sigma > 0 ? y0 : y0 + rows - 1;
    const int yb = a.sigma > 0 ? y0 + rows - 1 : y0;
    if (eb + a.sigma * ya >= a.width ||
        eb + 2 * LANES - 1 + a.sigma * yb < 0)
      return;                   /* the whole block, before any barrier */
  }
  /* rows inside the image [t0, t1); of those, [ta, tb) where this
   * lane's samples x and x + 1 lie inside the row too: plain loads in a
   * loop without branches, unrolled, so that each thread issues the
   * loads of several rows before it uses the first (a test inside the
   * loop made every row's loads wait for the row before: most of the
   * stall samples of the long diagonals: docs/bench/history.md, session
   * 7's "What changed, predicted against measured"); the other
   * rows: the border rule on x. Row t belongs to warp t % WARPS. */
  const int t0 = min (max (-ys, 0), n);
  const int t1 = max (min (a.height - ys, n), t0);
  const int ylo = a.sigma > 0 ? -e : e - (a.width - 2);
  const int yhi = a.sigma > 0 ? a.width - 2 - e : e;    /* inclusive */
  const int ta = min (max (ylo - ys, t0), t1);
  const int tb = min (max (yhi - ys + 1, ta), t1);
  {
    int t = ta + ((warp - ta) & (WARPS - 1));
    const ptrdiff_t step = WARPS * ((ptrdiff_t) a.spitch +
        a.sigma * (ptrdiff_t) sizeof (Pix));
    const uint8_t *p = a.src + (size_t) (ys + t) * a.spitch +
        (ptrdiff_t) (e + a.sigma * (ys + t)) * (ptrdiff_t) sizeof (Pix);
#pragma unroll 8
    for (; t < tb; t += WARPS, p += step)
      tile[t * LANES + lane] = (uint32_t) __ldg ((const Pix *) p) |
          (uint32_t) __ldg ((const Pix *) p + 1) << 16;
    for (int part = 0; part < 2; part++) {
      const int lo = part ? tb : t0, hi = part ? t1 : ta;
      for (t = lo + ((warp - lo) & (WARPS - 1)); t < hi; t += WARPS) {
        const int y = ys + t, x = e + a.sigma * y;
        const uint8_t *row = a.src + (size_t) y * a.spitch;
        tile[t * LANES + lane] = sheared_sample<Pix> (a, row, x) |
            sheared_sample<Pix> (a, row, x + 1) << 16;
      }
    }
  }
  for (int part = 0; part < 2; part++) {
    const int lo = part ? t1 : 0, hi = part ? n : t0;

    for (int t = lo + warp; t < hi; t += WARPS) {
      int y = ys + t;
      uint32_t w = a.cval | a.cval << 16;

      if (a.border != CM_BORDER_CONSTANT) {
        const int x = e + a.sigma * y;
        const uint8_t *row;

        y = border_map (a.border, y, a.height);
        row = a.src + (size_t) y * a.spitch;
        w = sheared_sample<Pix> (a, row, x) |
            sheared_sample<Pix> (a, row, x + 1) << 16;
      }
      tile[t * LANES + lane] = w;
    }
  }
  __syncthreads ();
  /* every output of the block in the image: rows y0 .. ylast (whole
   * chunks), x over the strip's 2 * LANES columns */
  const int ylast = y0 + chunks * C - 1;
  const bool inside = ylast < a.height &&
      eb + min (a.sigma * y0, a.sigma * ylast) >= 0 &&
      eb + 2 * LANES - 1 + max (a.sigma * y0, a.sigma * ylast) < a.width;
  if (inside && !a.diag_checked) {
    vs_emitter<Pix, true> em = { a.dst, a.dpitch, e, 0, a.sigma, a.width,
      a.height
    };
    tile_chunks<C, Op> (tile, a.len, chunks, y0, em);
  } else {
    vs_emitter<Pix, false> em = { a.dst, a.dpitch, e, 0, a.sigma, a.width,
      a.height
    };
    tile_chunks<C, Op> (tile, a.len, chunks, y0, em);
  }
}

struct columns_family
{
  template <typename Pix, int C, class Op2, class Op1>
  static pass_kernel get (cm_pass_variant v)
  {
    if (v == CM_PASS_SHEARED)
      return vhgw_vs_kernel<Pix, C, Op2>;
    return vhgw_v_kernel<Pix, C, Op2>;
  }
};

pass_kernel
vhgw_columns_kernel (cm_pass_variant v, cm_depth depth, int is_min, int c)
{
  return vhgw_kernel_for<columns_family> (v, depth, is_min, c);
}
