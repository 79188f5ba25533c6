/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* 1-D min/max filters along a segment of a line by the van Herk /
 * Gil-Werman algorithm (M. van Herk, Pattern Recognition Letters 13(7),
 * 1992; J. Gil and M. Werman, IEEE PAMI 15(5), 1993), GPU layout after
 * Thurley and Danell, LTU-CUDA (paper 004): one thread runs the vHGW
 * recurrences sequentially along its own line, so no window needs
 * communication between threads, and threads of a warp own neighbouring
 * lines so that their memory accesses coalesce.
 *
 * Window of length L starting at t: the thread owns C consecutive windows
 * t0 .. t0+C-1 (C a power of two <= L, a template parameter). With the
 * split point P = t0 + C every window contains [t0+i, P) and [P, t0+i+L),
 * so out(t0+i) = op (R[i], A[i]) with R the suffix extremes of [t0, P)
 * (kept in registers) and A the running prefix extreme from P on. That is
 * C + L - 1 reads and about as many operations for C outputs, i.e.
 * 1 + (L - 1) / C per output with C = the largest power of two <= L up to
 * 64 (vertical) or 32 (horizontal, lines): at most 3 for L <= 64, 5 and 9
 * for L = 255; the reads of samples that belong to neighbouring threads
 * come from shared memory (or L1 for the line kernel).
 *
 * Three kernels:
 *  - vertical (0,1): a block stages a strip of 64 columns by
 *    tile + L - 1 rows in shared memory (coalesced row loads, 16 bytes per
 *    lane when the strip lies inside the image; border rule applied once
 *    per staged row); a lane owns a pair of columns packed as
 *    two 16-bit halves (8-bit samples widened) and uses __vminu2/__vmaxu2,
 *    one instruction on sm_90 (VIMNMX.U16x2), for two pixels;
 *  - horizontal (1,0): the same on a transposed tile: the block stages
 *    64 rows by tile + L - 1 columns, each shared word holding the samples
 *    of two rows at one column, computes like the vertical kernel and
 *    writes its result through a second shared tile so that both global
 *    reads and writes run along rows;
 *  - sheared vertical (diagonals (1,1) and (1,-1)): the vertical kernel on
 *    the image sheared so that each diagonal is a column; staged rows and
 *    stored rows stay runs of one image row;
 *  - lines (the fall-back of the three above when their tile does not fit
 *    in shared memory, and the diagonals' former path, kept for
 *    comparisons): a lane owns one line,
 *    lanes of a warp neighbouring lines, samples read from global memory
 *    (consecutive lanes read consecutive columns of one row), with a fast
 *    path when the thread's whole window range lies inside the image.
 *
 * Border samples follow cm_border_map (cm-border.h) through one device
 * helper; a diagonal sample maps x and y independently and is the constant
 * when either lies outside. */
#include <stdint.h>
#include <cuda_runtime.h>

#include "morph-passes.h"
#include "morph-vhgw.cuh"

#define LANES 32                /* threads along x of every block          */
#define WARPS 8                 /* threads along y of every block          */
#define HT_ROWS (2 * LANES)     /* rows of a horizontal tile               */
#define HT_STRIDE (LANES + 1)   /* words per column of a horizontal tile   */

/* ---- border rule ------------------------------------------------------ */

/* cm_border_map (cm-border.h) is host and device code: the kernels use the
 * reference's own definition. Index-map rules only. */
static __device__ __forceinline__ int
border_map (int mode, int i, int n)
{
  return cm_border_map ((cm_border_mode) mode, i, n);
}

/* shared tile column: sample t at p[t * S] */
template <int S>
struct tile_reader
{
  const uint32_t *p;
  __device__ __forceinline__ uint32_t operator () (int t) const
  {
    return p[t * S];
  }
};

/* ---- pairs of samples as two 16-bit halves ------------------------------ */

/* Samples x, x+1 (x even) of a row as the two halves of a word. FULL: both
 * exist and the row allows one 2-byte (8-bit) or 4-byte (16-bit) access
 * at even x; else sample by sample, a missing x+1 giving 0. */
template <typename Pix, bool FULL>
static __device__ __forceinline__ uint32_t
load_pair (const uint8_t * row, int x, int width)
{
  const Pix *r = (const Pix *) row;

  if (FULL) {
    if (sizeof (Pix) == 1)
      return __byte_perm (*(const uint16_t *) (row + x), 0, 0x4140);
    return *(const uint32_t *) (r + x);
  }
  return (uint32_t) r[x] | (x + 1 < width ? (uint32_t) r[x + 1] << 16 : 0u);
}

template <typename Pix, bool FULL>
static __device__ __forceinline__ void
store_pair (uint8_t * row, int x, int width, uint32_t v)
{
  Pix *r = (Pix *) row;

  if (FULL) {
    if (sizeof (Pix) == 1)
      *(uint16_t *) (row + x) = (uint16_t) __byte_perm (v, 0, 0x0020);
    else
      *(uint32_t *) (r + x) = v;
    return;
  }
  r[x] = (Pix) v;
  if (x + 1 < width)
    r[x + 1] = (Pix) (v >> 16);
}

/* Everything a kernel needs to know about the pass */
struct pass_args
{
  const uint8_t *src;
  uint8_t *dst;
  size_t spitch, dpitch;
  int width, height;
  int first, len;               /* window in the kernel's walk coordinate */
  int tile;                     /* outputs per block along the walk       */
  int border;                   /* REPLICATE, REFLECT, MIRROR, CONSTANT   */
  uint32_t cval;                /* constant sample                        */
  int src_aligned, dst_aligned; /* rows allow pair accesses (load_pair)  */
  int src_vec, dst_vec;         /* rows allow 16-byte accesses (h kernel) */
  /* lines kernel only */
  int sigma;                    /* x = e + sigma * b (0, 1, -1)           */
  int trans;                    /* walk along x, lines are rows           */
  int e_min, e_count;           /* lines; sheared: columns e              */
  int grid_tiles;               /* sheared: tiles from row 0, not ya      */
  int diag_checked;             /* sheared: cm_segment.diag_checked       */
  int reverse;                  /* sheared: strips from the last one      */
};

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
   * stall samples of the long diagonals, docs/PERFORMANCE.md); the other
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
   * 31 and 127 at 0 deg are in docs/PERFORMANCE.md) */
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

/* ---- host side ---------------------------------------------------------- */

/* largest power of two <= min (len, cmax) */
static int
chunk_for (int len, int cmax)
{
  int c = 1;
  while (c * 2 <= len && c * 2 <= cmax)
    c *= 2;
  return c;
}

/* the kernel's cap on C, lowered by the tuning's (cmax > 0) */
static int
cmax_for (int cmax, int kernel_max)
{
  return cmax > 0 && cmax < kernel_max ? cmax : kernel_max;
}

static int
round_up (int v, int m)
{
  return (v + m - 1) / m * m;
}

typedef void (*pass_kernel) (const pass_args);

/* Kernel for (variant, depth, C, min/max); VERTICAL, HORIZONTAL, SHEARED or
 * LINES. */
template <typename Pix, int C, class Op2, class Op1>
static pass_kernel
kernel_for_c (cm_pass_variant v)
{
  switch (v) {
    case CM_PASS_VERTICAL:
      return vhgw_v_kernel<Pix, C, Op2>;
    case CM_PASS_HORIZONTAL:
      return vhgw_h_kernel<Pix, C, Op2>;
    case CM_PASS_SHEARED:
      return vhgw_vs_kernel<Pix, C, Op2>;
    default:
      /* the line kernel runs with C <= 32 (registers) */
      return vhgw_line_kernel<Pix, (C < 32 ? C : 32), Op1>;
  }
}

template <typename Pix, class Op2, class Op1>
static pass_kernel
kernel_for_depth (cm_pass_variant v, int c)
{
  switch (c) {
    case 1:
      return kernel_for_c<Pix, 1, Op2, Op1> (v);
    case 2:
      return kernel_for_c<Pix, 2, Op2, Op1> (v);
    case 4:
      return kernel_for_c<Pix, 4, Op2, Op1> (v);
    case 8:
      return kernel_for_c<Pix, 8, Op2, Op1> (v);
    case 16:
      return kernel_for_c<Pix, 16, Op2, Op1> (v);
    case 32:
      return kernel_for_c<Pix, 32, Op2, Op1> (v);
    default:
      return kernel_for_c<Pix, 64, Op2, Op1> (v);
  }
}

static pass_kernel
kernel_for (cm_pass_variant v, cm_depth depth, int is_min, int c)
{
  if (depth == CM_DEPTH_16)
    return is_min ? kernel_for_depth<uint16_t, op_min2, op_min1> (v, c)
        : kernel_for_depth<uint16_t, op_max2, op_max1> (v, c);
  return is_min ? kernel_for_depth<uint8_t, op_min2, op_min1> (v, c)
      : kernel_for_depth<uint8_t, op_max2, op_max1> (v, c);
}

/* Tile kernels: kind 0 the vertical and sheared ones (a staged strip),
 * kind 1 the horizontal one (the input and output tiles) */
enum
{ TILE_STRIP = 0, TILE_ROWS = 1 };

/* Shared bytes of a tile kernel for `tile` outputs per block */
static size_t
tile_bytes (int kind, int tile, int len)
{
  if (kind == TILE_STRIP)
    return (size_t) (tile + len - 1) * LANES * 4;
  return (size_t) (2 * tile + len - 1) * HT_STRIDE * 4;
}

/* Tile kernels: outputs per block along the walk and shared bytes, or 0
 * when even the smallest tile does not fit. */
static int
tile_plan (int kind, int c, int len, int extent, int smem_max, size_t *bytes)
{
  /* the tiles of the sweep in docs/PERFORMANCE.md (H100, 3840 x 2160):
   * vertical 192 rows for C <= 16 (faster than 128), 8 C from 32 on;
   * horizontal 128 columns up to C = 16 */
  int tile = c >= 32 ? 8 * c : kind == TILE_STRIP ? 192 : 128;
  size_t b = 0;

  if (tile > round_up (extent, c))
    tile = round_up (extent, c);
  for (;;) {
    b = tile_bytes (kind, tile, len);
    if (b <= (size_t) smem_max)
      break;
    if (tile <= c)
      return 0;
    tile = tile / 2 / c * c;
    if (tile < c)
      tile = c;
  }
  *bytes = b;
  return tile;
}

/* Vertical tiles of 8 C rows (one chunk per warp) against one of 9 C
 * (one warp takes two): the taller one when it makes the grid fit in
 * fewer waves of blocks (an H100 at 4K, C = 64: 512 rows give 300 blocks
 * at 2 per SM, 1.14 waves, 576 rows 240 blocks, one wave; the gain is in
 * docs/PERFORMANCE.md). */
static int
v_tile_waves (int tile, int c, int len, int width, int height, int smem_max,
    size_t *bytes)
{
  const int strips = (width + 2 * LANES - 1) / (2 * LANES);
  const size_t alt_bytes = tile_bytes (TILE_STRIP, tile + c, len);
  long waves[2];

  if (tile != 8 * c || tile >= height || alt_bytes > (size_t) smem_max)
    return tile;
  const int sms = current_device_attr (cudaDevAttrMultiProcessorCount);
  const int smem_sm =
      current_device_attr (cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  if (sms < 1 || smem_sm < 1)
    return tile;
  for (int i = 0; i < 2; i++) {
    const int t = tile + i * c;
    /* 1 KiB per block reserved by the system */
    const long per_sm = smem_sm / (long) (tile_bytes (TILE_STRIP, t, len) +
        1024);
    const long blocks = (long) strips * ((height + t - 1) / t);
    if (per_sm < 1)
      return tile;
    waves[i] = (blocks + per_sm * sms - 1) / (per_sm * sms);
  }
  if (waves[1] < waves[0]) {
    *bytes = alt_bytes;
    return tile + c;
  }
  return tile;
}

/* The tile kernels' outputs per block from the tuning (want > 0) when it
 * fits, rounded up to C; else the default tile. */
static int
tile_override (int kind, int want, int c, int len, int extent, int smem_max,
    int tile, size_t *bytes)
{
  int t = round_up (want, c);
  size_t b;

  if (want <= 0)
    return tile;
  if (t > round_up (extent, c))
    t = round_up (extent, c);
  b = tile_bytes (kind, t, len);
  if (b > (size_t) smem_max)
    return tile;
  *bytes = b;
  return t;
}

/* Test hook for tests/gpu (not part of the API, not thread-safe): caps the
 * shared memory of the tile kernels of the plans built from now on, so
 * that the smaller tiles and the fall-backs of devices with less shared
 * memory run on any GPU. 0: the device's limit. */
static int tile_limit;

extern "C" void cm_vhgw_set_tile_limit (int bytes);

extern "C" void
cm_vhgw_set_tile_limit (int bytes)
{
  tile_limit = bytes > 0 ? bytes : 0;
}

/* A tile kernel's chunk, tile and shared bytes: the default tile for the
 * frame and device, then the tuning's (want); LINES with smem 0 when no
 * tile fits. */
static cm_pass_variant
tile_config (cm_segment * seg, cm_pass_variant variant, int kind, int c,
    int extent, int width, int height, int want, int smem_max)
{
  size_t smem = 0;
  int tile = tile_plan (kind, c, seg->len, extent, smem_max, &smem);

  if (tile > 0 && variant == CM_PASS_VERTICAL && c >= 32)
    tile = v_tile_waves (tile, c, seg->len, width, height, smem_max, &smem);
  if (tile > 0)
    tile = tile_override (kind, want, c, seg->len, extent, smem_max, tile,
        &smem);
  seg->c = c;
  seg->tile = tile;
  seg->smem = tile > 0 ? smem : 0;
  return tile > 0 ? variant : CM_PASS_LINES;
}

cm_status
cm_vhgw_segment_plan (cm_segment * seg, int width, int height,
    cm_depth depth, const cm_morph_tuning * tuning)
{
  static const cm_morph_tuning automatic = { };
  const cm_morph_tuning *t = tuning ? tuning : &automatic;
  int dev, smem_max;
  cudaError_t e;

  if (!seg || seg->len < 1 || seg->len > (1 << 20) || width < 1 ||
      height < 1)
    return CM_ERR_INVALID_ARG;
  e = cudaGetDevice (&dev);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&smem_max,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  if (e != cudaSuccess) {
    (void) cudaGetLastError ();
    return cm_status_from_cuda (e);
  }
  if (tile_limit > 0 && tile_limit < smem_max)
    smem_max = tile_limit;

  seg->grid_tiles = t->diag_grid;
  seg->diag_checked = t->diag_checked;
  seg->diag_flip = t->diag_flip;
  seg->pwin_parts = t->pwin_parts;
  seg->pdl = !t->no_pdl;
  /* the line kernel's chunk, when it is the choice */
  seg->c = chunk_for (seg->len, cmax_for (t->cmax, 32));
  seg->tile = 0;
  seg->smem = 0;

  if (seg->dir_x == 0 && seg->dir_y == 1) {
    seg->variant = tile_config (seg, CM_PASS_VERTICAL, TILE_STRIP,
        chunk_for (seg->len, cmax_for (t->cmax, 64)), height, width, height,
        t->vtile, smem_max);
    if (seg->variant == CM_PASS_LINES)
      seg->c = chunk_for (seg->len, cmax_for (t->cmax, 32));
  } else if (seg->dir_x == 1 && seg->dir_y == 0) {
    const int rows_tile = t->rows == CM_MORPH_ROWS_TILE;
    /* short centred windows: 16-byte accesses and doublings beat the
     * tile's staging (morph-row-doubling.cu) */
    const int pwin = !rows_tile && cm_row_pwin_takes (depth, seg->first,
        seg->len);

    seg->tile_variant = tile_config (seg, CM_PASS_HORIZONTAL, TILE_ROWS,
        chunk_for (seg->len, cmax_for (t->cmax, 32)), width, width, height,
        t->htile, smem_max);
    /* longer ones: two windows of P in registers, no staged tile
     * (morph-row-pwin.cu); it takes over from the doubling kernel where
     * that needs two neighbour vectors (the figures of the line 63 at 0
     * degrees are in docs/PERFORMANCE.md) */
    if (!rows_tile && !(pwin && (t->rows == CM_MORPH_ROWS_PWIN ||
                seg->len > 33)) &&
        cm_row_doubling_takes (depth, seg->first, seg->len))
      seg->variant = CM_PASS_ROW_DOUBLING;
    else if (pwin)
      seg->variant = CM_PASS_ROW_PWIN;
    else
      seg->variant = seg->tile_variant;
    return CM_OK;
  } else if (seg->dir_x == 1 && (seg->dir_y == 1 || seg->dir_y == -1)) {
    seg->variant = CM_PASS_LINES;
    if (t->paths != CM_MORPH_PATHS_LEGACY) {
      /* C <= 32 on tiles of 8 C rows (256) for every length: C = 64 on
       * 512-row tiles ran the longest diagonals faster or slower than C =
       * 32 depending on the order of the strips, the faster order being a
       * different one on different H100s; C = 32 is close to the better
       * of the two in either order (docs/PERFORMANCE.md) */
      seg->variant = tile_config (seg, CM_PASS_SHEARED, TILE_STRIP,
          chunk_for (seg->len, cmax_for (t->cmax, t->cmax > 32 ? 64 : 32)),
          height, width, height, t->vtile, smem_max);
    }
    if (seg->variant == CM_PASS_LINES)
      seg->c = chunk_for (seg->len, cmax_for (t->cmax, 32));
  } else
    return CM_ERR_INVALID_ARG;
  seg->tile_variant = seg->variant;
  return CM_OK;
}

static int
image_ok (const cm_image * img)
{
  return img && img->data && img->width >= 1 && img->height >= 1 &&
      (img->depth == CM_DEPTH_8 || img->depth == CM_DEPTH_16) &&
      img->pitch >= (size_t) img->width * cm_depth_bytes (img->depth) &&
      (img->depth == CM_DEPTH_8 ||
      (((uintptr_t) img->data | img->pitch) & 1) == 0);
}

static int
pair_aligned (const cm_image * img)
{
  uintptr_t a = (uintptr_t) img->data | (uintptr_t) img->pitch;
  return img->depth == CM_DEPTH_16 ? (a & 3) == 0 : (a & 1) == 0;
}

/* 16-byte accesses at every run of 32 bytes of every row */
static int
vec_aligned (const cm_image * img)
{
  return (((uintptr_t) img->data | (uintptr_t) img->pitch) & 15) == 0;
}

cudaError_t
cm_vhgw_pass (const cm_image * src, const cm_image * dst,
    const cm_segment * seg, int is_min, cm_border_mode border,
    uint32_t border_value, cudaStream_t stream)
{
  cm_pass_variant variant;
  pass_args a;
  pass_kernel k;
  dim3 block (LANES, WARPS), grid;
  uint32_t maxv;
  cudaError_t e;

  if (!image_ok (src) || !image_ok (dst) || !seg)
    return cudaErrorInvalidValue;
  if (src->width != dst->width || src->height != dst->height ||
      src->depth != dst->depth)
    return cudaErrorInvalidValue;
  if (seg->len < 1 || seg->len > (1 << 20))
    return cudaErrorInvalidValue;
  if ((int) border < 0 || (int) border >= CM_BORDER_MODE_COUNT)
    return cudaErrorInvalidValue;

  maxv = cm_depth_max (src->depth);
  if (border == CM_BORDER_NEUTRAL) {
    border = CM_BORDER_CONSTANT;
    border_value = is_min ? maxv : 0;
  }

  pass_set_views (a, src, dst);
  a.first = seg->first;
  a.len = seg->len;
  a.tile = seg->tile;
  a.border = (int) border;
  a.cval = border_value < maxv ? border_value : maxv;
  a.src_aligned = pair_aligned (src);
  a.dst_aligned = pair_aligned (dst);
  a.src_vec = vec_aligned (src);
  a.dst_vec = vec_aligned (dst);
  a.sigma = 0;
  a.trans = 0;
  a.e_min = 0;
  a.e_count = 0;
  a.grid_tiles = seg->grid_tiles;
  a.diag_checked = 0;
  a.reverse = 0;

  variant = seg->variant;
  if ((variant == CM_PASS_ROW_DOUBLING || variant == CM_PASS_ROW_PWIN) &&
      !cm_rows_vec_aligned (src, dst))
    variant = seg->tile_variant;
  if (seg->dir_x == 1 && seg->dir_y != 0) {
    /* diagonals: walk along y, line e */
    a.sigma = seg->dir_y;
    if (a.sigma > 0) {
      /* (x + k, y + k): e = x - y, b' = y + k */
      a.e_min = -(a.height - 1);
    } else {
      /* (x + k, y - k): e = x + y, b' = y - k */
      a.first = -(seg->first + seg->len - 1);
      a.e_min = 0;
    }
    a.e_count = a.width + a.height - 1;
  }

  switch (variant) {
    case CM_PASS_ROW_DOUBLING:
      return cm_row_doubling_pass (src, dst, seg->len, is_min, border,
          a.cval, seg->pdl, stream);
    case CM_PASS_ROW_PWIN:
      return cm_row_pwin_pass (src, dst, seg->first, seg->len, is_min,
          border, a.cval, seg->pwin_parts, seg->pdl, stream);
    case CM_PASS_VERTICAL:
      grid = dim3 ((unsigned) ((a.width + 2 * LANES - 1) / (2 * LANES)),
          (unsigned) ((a.height + a.tile - 1) / a.tile));
      break;
    case CM_PASS_HORIZONTAL:
      grid = dim3 ((unsigned) ((a.width + a.tile - 1) / a.tile),
          (unsigned) ((a.height + HT_ROWS - 1) / HT_ROWS));
      break;
    case CM_PASS_SHEARED:
      a.diag_checked = seg->diag_checked;
      a.reverse = seg->diag_flip;
      grid = dim3 ((unsigned) ((a.e_count + 2 * LANES - 1) / (2 * LANES)),
          (unsigned) ((a.height + a.tile - 1) / a.tile));
      break;
    default:                   /* CM_PASS_LINES */
      if (seg->dir_y == 0) {
        a.trans = 1;            /* lines along x: one per row */
        a.e_count = a.height;
      } else if (seg->dir_x == 0)
        a.e_count = a.width;    /* lines along y: one per column */
      {
        const int walk = a.trans ? a.width : a.height;
        grid = dim3 ((unsigned) ((a.e_count + LANES - 1) / LANES),
            (unsigned) (((walk + seg->c - 1) / seg->c + WARPS - 1) / WARPS));
      }
      break;
  }
  if (grid.y > 65535u)
    return cudaErrorInvalidValue;

  k = kernel_for (variant, src->depth, is_min, seg->c);
  if (seg->smem > 48 * 1024) {
    e = cudaFuncSetAttribute ((const void *) k,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) seg->smem);
    if (e != cudaSuccess)
      return e;
  }
  if (variant == CM_PASS_VERTICAL || variant == CM_PASS_SHEARED)
    /* passes of chains: see pdl_wait */
    e = pdl_launch (k, grid, block, seg->smem, stream, a, seg->pdl);
  else {
    k <<< grid, block, seg->smem, stream >>> (a);
    e = cudaGetLastError ();
  }
  return e;
}
