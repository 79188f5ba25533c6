/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Erosion / dilation pass by an arbitrary flat structuring element, exact
 * for any mask, by runs and sparse tables:
 *
 *   E. R. Urbach, M. H. F. Wilkinson, "Efficient 2-D grayscale
 *   morphological transformations with arbitrary flat structuring
 *   elements", IEEE Trans. Image Processing 17(1):1-8, 2008.
 *
 * The SE is split into its runs ("chords") along rows or along columns.
 * With the sparse table T_0 = f, T_{k+1}(i) = min(T_k(i), T_k(i + 2^k))
 * along the run axis, the extreme over a run of length len starting at s
 * is min(T_p(s), T_p(s + len - 2^p)), p = floor(log2 len). Only a subset S
 * of the levels is kept (always level 0); a run then takes
 * ceil(len / 2^q) overlapping windows of the highest kept level q with
 * 2^q <= len. The planner picks the axis, S and the tiling by a cost
 * estimate.
 *
 * Shared path (the SE's box fits): one block per output tile of
 * tw x th samples. It loads the tile plus the SE's halo ("region") into
 * shared memory with the border rule applied (32-bit coalesced loads),
 * builds the table levels in place along the run axis, then every thread
 * takes the extreme over the lookup list (one entry per window: word
 * offset into the table, byte shift) for 3 words x 4 rows of outputs.
 * Samples are handled 4 (8-bit) or 2 (16-bit) to a 32-bit word: a window
 * at any column is two aligned shared loads and byte permutes, and the
 * extreme is one packed 16x2 min/max (VIMNMX on sm_90). 8-bit samples
 * ride in the high byte of a 16-bit lane: min over (v << 8 | junk) has
 * the minimum of v in its high byte whatever the junk.
 *
 * Global path (the box is too large for shared memory): the table is
 * built once per run in device scratch over the border-padded image
 * (border mapping happens once, in the fill kernel) and a gather kernel
 * reads the windows with __ldg.
 *
 * Lookups are uploaded (and the global table zeroed) once per plan, and
 * waited for before cm_runs_pass_new returns; a run launches 1 kernel
 * (shared) or kmax + 2 kernels (global), with no allocation and no
 * synchronisation. */

#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "morph-passes.h"

/* Outputs per thread: RUNS_NG consecutive 32-bit words along x (odd, so
 * that the words of a warp's lanes fall in distinct banks) times RUNS_V
 * rows. */
#define RUNS_NG 3
#define RUNS_V 4
/* Words per lane per row in the load and build phases: a region row holds
 * at most 32 * RUNS_MMAX words. */
#define RUNS_MMAX 8
#define RUNS_MAX_THREADS 512
#define RUNS_MAX_LEVELS 12
#define RUNS_SMEM_CAP (96 * 1024)
#define RUNS_GLOBAL_MAX_SLOTS 12
#define RUNS_GLOBAL_MAX_BYTES ((size_t) 2 << 30)
/* gather block of the global path: 32 x RUNS_GY threads */
#define RUNS_GY 8

/* sm_90 has packed 16x2 min/max in hardware; older devices emulate it, so
 * there 8-bit samples use __vminu4 on whole words instead. The emulation
 * test (host) may set CM_RUNS_EMU_PAIRED8 to check either layout. */
#if defined(__CUDA_ARCH__)
#if __CUDA_ARCH__ >= 900
#define RUNS_PAIRED8 1
#else
#define RUNS_PAIRED8 0
#endif
#elif defined(CM_RUNS_EMU_PAIRED8)
#define RUNS_PAIRED8 CM_RUNS_EMU_PAIRED8
#else
#define RUNS_PAIRED8 0
#endif

#define RUNS_HD __host__ __device__ __forceinline__

/* loop unrolling in functions compiled for both sides (the host compiler
 * does not know the pragma) */
#ifdef __CUDA_ARCH__
#define RUNS_UNROLL _Pragma ("unroll")
#define RUNS_UNROLL2 _Pragma ("unroll 2")
#else
#define RUNS_UNROLL
#define RUNS_UNROLL2
#endif

namespace {

/* Geometry of a table: region of rh rows x rw samples whose sample (0, 0)
 * is image (x0 + mdxp, y0 + min_dy) for a tile at (x0, y0) (shared path)
 * or (0, 0) (global path: the padded image). Passed by value to kernels. */
struct runs_geom
{
  int width, height;            /* image */
  int axis;                     /* 0: runs along rows, 1: along columns */
  int min_dy;                   /* lowest dy of the offsets              */
  int mdxp;                     /* lowest dx rounded down to a word      */
  int rw, rh;                   /* region samples per row, rows          */
  int nwr;                      /* words holding a region row            */
  int pitch_w;                  /* words between table rows              */
  int slot_w;                   /* words per table slot                  */
  int tw, th;                   /* output tile (shared path)             */
  int lx_shift;                 /* log2 of the lanes of a warp along x   */
  int kmax;                     /* highest table level built             */
  int nlut;                     /* lookups                               */
  int nslots;                   /* table slots                           */
  int lut_off;                  /* word offset of the lookups in smem    */
  /* slot of level k in bits 4k .. 4k + 3 (a packed field: a by-value
   * kernel parameter indexed at run time would be copied to the stack) */
  unsigned long long slots;
};

RUNS_HD int
runs_slot (const runs_geom & g, int k)
{
  return (int) ((g.slots >> (4 * k)) & 15u);
}

/* One level step of the table build: T_{k+1} rows [0, rows) words
 * [0, words) from T_k at word offset off_w and byte shift bs. */
struct runs_level
{
  int rows, words, off_w, bs;
};

/* ---- device helpers --------------------------------------------------- */

/* cm_border_map (cm-border.h) is host and device code: one definition for
 * the reference and the kernels, repeated reflection on tiny images included.
 * Only the index-map rules reach it. */
RUNS_HD int
runs_border_map (int mode, int i, int n)
{
  return cm_border_map ((cm_border_mode) mode, i, n);
}

template <typename T>
RUNS_HD T
runs_ld (const T * p)
{
#ifdef __CUDA_ARCH__
  return __ldg (p);
#else
  return *p;
#endif
}

RUNS_HD uint32_t
runs_prmt (uint32_t a, uint32_t b, uint32_t s)
{
#ifdef __CUDA_ARCH__
  return __byte_perm (a, b, s);
#else
  uint64_t v = ((uint64_t) b << 32) | a;
  uint32_t r = 0;
  for (int n = 0; n < 4; n++) {
    unsigned sel = (s >> (4 * n)) & 7;
    r |= (uint32_t) ((v >> (8 * sel)) & 0xff) << (8 * n);
  }
  return r;
#endif
}

template <bool MIN>
RUNS_HD uint32_t
runs_op16x2 (uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
  return MIN ? __vminu2 (a, b) : __vmaxu2 (a, b);
#else
  uint32_t r = 0;
  for (int h = 0; h < 32; h += 16) {
    uint32_t x = (a >> h) & 0xffff, y = (b >> h) & 0xffff;
    r |= (MIN ? (x < y ? x : y) : (x > y ? x : y)) << h;
  }
  return r;
#endif
}

/* exact byte-wise min/max of two words of 4 samples */
template <bool MIN>
RUNS_HD uint32_t
runs_op8x4 (uint32_t a, uint32_t b)
{
#if RUNS_PAIRED8
  uint32_t hi = runs_op16x2<MIN> (a, b);        /* bytes 1, 3 */
  uint32_t lo = runs_op16x2<MIN> (a << 8, b << 8);      /* bytes 0, 2 */
  return runs_prmt (lo, hi, 0x7351u);
#elif defined(__CUDA_ARCH__)
  return MIN ? __vminu4 (a, b) : __vmaxu4 (a, b);
#else
  uint32_t r = 0;
  for (int h = 0; h < 32; h += 8) {
    uint32_t x = (a >> h) & 0xff, y = (b >> h) & 0xff;
    r |= (MIN ? (x < y ? x : y) : (x > y ? x : y)) << h;
  }
  return r;
#endif
}

template <typename T, bool MIN>
RUNS_HD uint32_t
runs_op_word (uint32_t a, uint32_t b)
{
  if (sizeof (T) == 1)
    return runs_op8x4<MIN> (a, b);
  return runs_op16x2<MIN> (a, b);
}

template <typename T>
RUNS_HD uint32_t
runs_splat (uint32_t v)
{
  return sizeof (T) == 1 ? v * 0x01010101u : v * 0x00010001u;
}

/* Running extreme of one output word. add() takes the word of samples
 * starting at byte bs of {w1:w0}; s0 = 0x1111 * bs. */
template <typename T, bool MIN> struct runs_acc;

template <bool MIN> struct runs_acc<uint8_t, MIN>
{
#if RUNS_PAIRED8
  uint32_t lo, hi;              /* samples 0, 2 / 1, 3 in the high bytes */
  RUNS_HD void init ()
  {
    lo = hi = MIN ? 0xffffffffu : 0u;
  }
  RUNS_HD void add (uint32_t w0, uint32_t w1, uint32_t s0)
  {
    lo = runs_op16x2<MIN> (lo, runs_prmt (w0, w1, s0 + 0x2200u));
    hi = runs_op16x2<MIN> (hi, runs_prmt (w0, w1, s0 + 0x3311u));
  }
  RUNS_HD uint32_t result () const
  {
    return runs_prmt (lo, hi, 0x7351u);
  }
#else
  uint32_t a;
  RUNS_HD void init ()
  {
    a = MIN ? 0xffffffffu : 0u;
  }
  RUNS_HD void add (uint32_t w0, uint32_t w1, uint32_t s0)
  {
    a = runs_op8x4<MIN> (a, runs_prmt (w0, w1, s0 + 0x3210u));
  }
  RUNS_HD uint32_t result () const
  {
    return a;
  }
#endif
};

template <bool MIN> struct runs_acc<uint16_t, MIN>
{
  uint32_t a;
  RUNS_HD void init ()
  {
    a = MIN ? 0xffffffffu : 0u;
  }
  RUNS_HD void add (uint32_t w0, uint32_t w1, uint32_t s0)
  {
    a = runs_op16x2<MIN> (a, runs_prmt (w0, w1, s0 + 0x3210u));
  }
  RUNS_HD uint32_t result () const
  {
    return a;
  }
};

/* Row gy of the image under the border rule; NULL for a row outside the
 * image under CONSTANT (every sample is the border value). */
template <typename T>
RUNS_HD const T *
runs_src_row (const uint8_t * src, size_t spitch, int gy, int height,
    int border)
{
  if (gy < 0 || gy >= height) {
    if (border == CM_BORDER_CONSTANT)
      return NULL;
    gy = runs_border_map (border, gy, height);
  }
  return (const T *) (src + (size_t) gy * spitch);
}

/* The border rule in one place: word of samples at image columns
 * gx .. gx + P - 1 of `row` (from runs_src_row). */
template <typename T>
RUNS_HD uint32_t
runs_fetch_word (const T * row, int gx, int width, int border,
    uint32_t bval, bool aligned)
{
  const int P = 4 / (int) sizeof (T);
  if (row == NULL)
    return runs_splat<T> (bval);
  if (aligned && gx >= 0 && gx + P <= width)
    return runs_ld ((const uint32_t *) (row + gx));
  uint32_t v = 0;
  for (int j = 0; j < P; j++) {
    int x = gx + j;
    uint32_t s;
    if (x >= 0 && x < width)
      s = runs_ld (row + x);
    else if (border == CM_BORDER_CONSTANT)
      s = bval;
    else
      s = runs_ld (row + runs_border_map (border, x, width));
    v |= s << (8 * (int) sizeof (T) * j);
  }
  return v;
}

/* Store the word of samples at image (x, y), x < width, clipped. */
template <typename T>
RUNS_HD void
runs_store_word (uint8_t * dst, size_t dpitch, int width, int x, int y,
    uint32_t v, bool aligned)
{
  const int P = 4 / (int) sizeof (T);
  T *row = (T *) (dst + (size_t) y * dpitch);
  if (aligned && x + P <= width) {
    *(uint32_t *) (row + x) = v;
    return;
  }
  for (int q = 0; q < P && x + q < width; q++)
    row[x + q] = (T) (v >> (8 * (int) sizeof (T) * q));
}

/* Level k -> k + 1 of the table with geometry g: which rows and words are
 * needed (windows never reach past the region) and where the partner
 * sample 2^k further along the run axis is. */
template <typename T>
RUNS_HD runs_level
runs_level_of (const runs_geom & g, int k)
{
  const int P = 4 / (int) sizeof (T);
  int step = 1 << k;
  runs_level lv;
  if (g.axis == 0) {
    int cols = g.rw - 2 * step + 1;     /* samples needed at level k+1 */
    lv.rows = g.rh;
    lv.words = cols > 0 ? (cols - 1) / P + 1 : 0;
    lv.off_w = step / P;
    lv.bs = (step % P) * (int) sizeof (T);
  } else {
    lv.rows = g.rh - 2 * step + 1;
    lv.words = g.nwr;
    lv.off_w = step * g.pitch_w;
    lv.bs = 0;
  }
  if (lv.rows < 0 || lv.words <= 0)
    lv.rows = 0;
  return lv;
}

/* Load region row r (image row gy) into out; lane of a warp. */
template <typename T>
RUNS_HD void
runs_load_row (uint32_t * out, const uint8_t * src, size_t spitch,
    const runs_geom & g, int gx0, int gy, int lane, int border,
    uint32_t bval, bool aligned)
{
  const int P = 4 / (int) sizeof (T);
  const T *row = runs_src_row<T> (src, spitch, gy, g.height, border);
  uint32_t v[RUNS_MMAX];
RUNS_UNROLL
  for (int m = 0; m < RUNS_MMAX; m++) {
    int w = lane + 32 * m;
    if (w < g.nwr)
      v[m] = runs_fetch_word<T> (row, gx0 + w * P, g.width, border, bval,
          aligned);
  }
RUNS_UNROLL
  for (int m = 0; m < RUNS_MMAX; m++) {
    int w = lane + 32 * m;
    if (w < g.nwr)
      out[w] = v[m];
  }
}

/* Table build, read half: row r of T_{k+1} from T_k (slot s). */
template <typename T, bool MIN>
RUNS_HD void
runs_build_read (const uint32_t * s, const runs_level & lv, int pitch_w,
    int r, int lane, uint32_t res[RUNS_MMAX])
{
  const uint32_t *row = s + r * pitch_w;
  uint32_t sel = 0x3210u + 0x1111u * (uint32_t) lv.bs;
RUNS_UNROLL
  for (int m = 0; m < RUNS_MMAX; m++) {
    int w = lane + 32 * m;
    if (w < lv.words) {
      uint32_t a = row[w];
      uint32_t b = row[w + lv.off_w];
      if (lv.bs)
        b = runs_prmt (b, row[w + lv.off_w + 1], sel);
      res[m] = runs_op_word<T, MIN> (a, b);
    }
  }
}

/* Table build, write half. */
RUNS_HD void
runs_build_write (uint32_t * d, const runs_level & lv, int pitch_w, int r,
    int lane, const uint32_t res[RUNS_MMAX])
{
  uint32_t *row = d + r * pitch_w;
RUNS_UNROLL
  for (int m = 0; m < RUNS_MMAX; m++) {
    int w = lane + 32 * m;
    if (w < lv.words)
      row[w] = res[m];
  }
}

/* Gather of one thread of the shared path: RUNS_NG words x RUNS_V rows of
 * the tile at (x0, y0), stored clipped to the image. */
template <typename T, bool MIN>
RUNS_HD void
runs_gather_tile (const uint32_t * sm, const int2 * lut, const runs_geom & g,
    int warp, int lane, int x0, int y0, uint8_t * dst, size_t dpitch,
    bool aligned)
{
  const int P = 4 / (int) sizeof (T);
  int cx = lane & ((1 << g.lx_shift) - 1);
  int rg = warp * (32 >> g.lx_shift) + (lane >> g.lx_shift);
  int wb = cx * RUNS_NG, ly = rg * RUNS_V;
  runs_acc<T, MIN> acc[RUNS_V][RUNS_NG];
  int rb[RUNS_V];
RUNS_UNROLL
  for (int i = 0; i < RUNS_V; i++) {
    rb[i] = (ly + i) * g.pitch_w + wb;
RUNS_UNROLL
    for (int j = 0; j < RUNS_NG; j++)
      acc[i][j].init ();
  }
RUNS_UNROLL2
  for (int e = 0; e < g.nlut; e++) {
    int2 ent = lut[e];
    uint32_t s0 = 0x1111u * (uint32_t) ent.y;
RUNS_UNROLL
    for (int i = 0; i < RUNS_V; i++) {
      const uint32_t *p = sm + rb[i] + ent.x;
      uint32_t w[RUNS_NG + 1];
RUNS_UNROLL
      for (int j = 0; j <= RUNS_NG; j++)
        w[j] = p[j];
RUNS_UNROLL
      for (int j = 0; j < RUNS_NG; j++)
        acc[i][j].add (w[j], w[j + 1], s0);
    }
  }
RUNS_UNROLL
  for (int i = 0; i < RUNS_V; i++) {
    int y = y0 + ly + i;
    if (y >= g.height)
      break;
RUNS_UNROLL
    for (int j = 0; j < RUNS_NG; j++) {
      int x = x0 + (wb + j) * P;
      if (x < g.width)
        runs_store_word<T> (dst, dpitch, g.width, x, y, acc[i][j].result (),
            aligned);
    }
  }
}

/* Gather of one thread of the global path: one word x RUNS_V rows at
 * word column w, rows y0 .. y0 + RUNS_V - 1 (clipped). */
template <typename T, bool MIN>
RUNS_HD void
runs_gather_global (const uint32_t * tab, const int2 * lut,
    const runs_geom & g, int w, int y0, uint8_t * dst, size_t dpitch,
    bool aligned)
{
  const int P = 4 / (int) sizeof (T);
  runs_acc<T, MIN> acc[RUNS_V];
  int rb[RUNS_V];
RUNS_UNROLL
  for (int i = 0; i < RUNS_V; i++) {
    int y = y0 + i < g.height ? y0 + i : g.height - 1;
    rb[i] = y * g.pitch_w + w;
    acc[i].init ();
  }
  for (int e = 0; e < g.nlut; e++) {
    int2 ent = runs_ld (lut + e);
    uint32_t s0 = 0x1111u * (uint32_t) ent.y;
RUNS_UNROLL
    for (int i = 0; i < RUNS_V; i++) {
      const uint32_t *p = tab + rb[i] + ent.x;
      acc[i].add (runs_ld (p), runs_ld (p + 1), s0);
    }
  }
RUNS_UNROLL
  for (int i = 0; i < RUNS_V; i++) {
    if (y0 + i >= g.height)
      break;
    runs_store_word<T> (dst, dpitch, g.width, w * P, y0 + i,
        acc[i].result (), aligned);
  }
}

/* ---- kernels ---------------------------------------------------------- */

/* Shared path: one block per tile; blockDim.x = 32 * warps. */
template <typename T, bool MIN>
__global__ void __launch_bounds__ (RUNS_MAX_THREADS, 2)
runs_shared_kernel (const uint8_t * __restrict__ src, size_t spitch,
    uint8_t * __restrict__ dst, size_t dpitch, const runs_geom g,
    const int2 * __restrict__ lut, int border, uint32_t bval,
    int src_aligned, int dst_aligned)
{
  extern __shared__ uint32_t runs_smem[];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int nwarps = blockDim.x >> 5;
  const int x0 = blockIdx.x * g.tw, y0 = blockIdx.y * g.th;
  int2 *slut = (int2 *) (runs_smem + g.lut_off);

  for (int e = tid; e < g.nlut; e += blockDim.x)
    slut[e] = lut[e];

  uint32_t *t0 = runs_smem + runs_slot (g, 0) * g.slot_w;
  for (int r = warp; r < g.rh; r += nwarps)
    runs_load_row<T> (t0 + r * g.pitch_w, src, spitch, g, x0 + g.mdxp,
        y0 + g.min_dy + r, lane, border, bval, src_aligned != 0);
  __syncthreads ();

  for (int k = 0; k < g.kmax; k++) {
    runs_level lv = runs_level_of<T> (g, k);
    const uint32_t *s = runs_smem + runs_slot (g, k) * g.slot_w;
    uint32_t *d = runs_smem + runs_slot (g, k + 1) * g.slot_w;
    /* In place, every read is at a higher address than the write of the
     * same element and rows are taken in increasing chunks: one barrier
     * between the reads and the writes of a chunk suffices. */
    const bool inplace = runs_slot (g, k) == runs_slot (g, k + 1);
    for (int r0 = 0; r0 < lv.rows; r0 += nwarps) {
      int r = r0 + warp;
      uint32_t res[RUNS_MMAX];
      if (r < lv.rows)
        runs_build_read<T, MIN> (s, lv, g.pitch_w, r, lane, res);
      if (inplace)
        __syncthreads ();
      if (r < lv.rows)
        runs_build_write (d, lv, g.pitch_w, r, lane, res);
    }
    __syncthreads ();
  }

  runs_gather_tile<T, MIN> (runs_smem, slut, g, warp, lane, x0, y0, dst,
      dpitch, dst_aligned != 0);
}

/* Global path, level 0: word w of padded row r of the table (slot of
 * level 0) from the image with the border rule. */
template <typename T>
RUNS_HD void
runs_fill_one (const uint8_t * src, size_t spitch, uint32_t * tab,
    const runs_geom & g, int w, int r, int border, uint32_t bval,
    bool aligned)
{
  const int P = 4 / (int) sizeof (T);
  const T *row = runs_src_row<T> (src, spitch, g.min_dy + r, g.height,
      border);
  tab[(size_t) runs_slot (g, 0) * g.slot_w + (size_t) r * g.pitch_w + w] =
      runs_fetch_word<T> (row, g.mdxp + w * P, g.width, border, bval,
      aligned);
}

/* Global path, level k -> k + 1 (distinct slots s -> d), one word. */
template <typename T, bool MIN>
RUNS_HD void
runs_gbuild_one (const uint32_t * s, uint32_t * d, const runs_level & lv,
    int pitch_w, int w, int r)
{
  const uint32_t *row = s + (size_t) r * pitch_w;
  uint32_t a = runs_ld (row + w);
  uint32_t b = runs_ld (row + w + lv.off_w);
  if (lv.bs)
    b = runs_prmt (b, runs_ld (row + w + lv.off_w + 1),
        0x3210u + 0x1111u * (uint32_t) lv.bs);
  d[(size_t) r * pitch_w + w] = runs_op_word<T, MIN> (a, b);
}

template <typename T>
__global__ void
runs_fill_kernel (const uint8_t * __restrict__ src, size_t spitch,
    uint32_t * __restrict__ tab, const runs_geom g, int border,
    uint32_t bval, int src_aligned)
{
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (w < g.nwr && r < g.rh)
    runs_fill_one<T> (src, spitch, tab, g, w, r, border, bval,
        src_aligned != 0);
}

template <typename T, bool MIN>
__global__ void
runs_gbuild_kernel (const uint32_t * __restrict__ s,
    uint32_t * __restrict__ d, const runs_level lv, int pitch_w)
{
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (w < lv.words && r < lv.rows)
    runs_gbuild_one<T, MIN> (s, d, lv, pitch_w, w, r);
}

/* Global path, gather: block 32 x RUNS_GY threads. */
template <typename T, bool MIN>
__global__ void
runs_ggather_kernel (const uint32_t * __restrict__ tab,
    const int2 * __restrict__ lut, const runs_geom g,
    uint8_t * __restrict__ dst, size_t dpitch, int dst_aligned)
{
  const int P = 4 / (int) sizeof (T);
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * RUNS_V;
  if (w * P >= g.width || y0 >= g.height)
    return;
  runs_gather_global<T, MIN> (tab, lut, g, w, y0, dst, dpitch,
      dst_aligned != 0);
}

/* ---- planning (host) -------------------------------------------------- */

struct runs_devinfo
{
  int sms;                      /* multiprocessors                       */
  int smem_budget;              /* dynamic shared memory per block       */
  int smem_sm;                  /* shared memory per multiprocessor      */
  int threads_sm;               /* resident threads per multiprocessor   */
  int paired8;                  /* packed 16x2 min/max in hardware       */
};

/* Runs of one axis as a histogram of lengths. */
struct runs_axis
{
  cm_se_run *runs;
  int count;
  int maxlen;
  long *hist;                   /* [maxlen + 1] */
};

struct runs_choice
{
  int valid;
  int axis;
  int shared;
  unsigned smask;               /* kept levels */
  int lx_shift, nwarps;         /* shared path */
  double cost;
};

int
runs_floordiv (int a, int b)
{
  int q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int
runs_ilog2 (unsigned v)
{
  int r = -1;
  while (v) {
    v >>= 1;
    r++;
  }
  return r;
}

/* Highest kept level q with 2^q <= len. */
int
runs_level_for (unsigned smask, int len)
{
  int p = runs_ilog2 ((unsigned) len);
  unsigned m = smask & ((2u << p) - 1u);
  return runs_ilog2 (m);
}

long
runs_count_lookups (const runs_axis * ax, unsigned smask)
{
  long total = 0;
  for (int len = 1; len <= ax->maxlen; len++) {
    if (!ax->hist[len])
      continue;
    int q = runs_level_for (smask, len);
    total += ax->hist[len] * (long) ((len + (1 << q) - 1) >> q);
  }
  return total;
}

/* Slot of each level 0..kmax. In place (shared): a level not kept lives
 * in the slot of the next kept level above it. Otherwise (global): kept
 * levels have their own slots and the others alternate between two
 * temporaries. Returns the slot count. */
int
runs_assign_slots (unsigned smask, int kmax, int inplace,
    unsigned long long *slots)
{
  int slot_of[RUNS_MAX_LEVELS];
  int n = 0;
  for (int k = 0; k <= kmax; k++)
    if (smask & (1u << k))
      slot_of[k] = n++;
  if (inplace) {
    for (int k = kmax - 1; k >= 0; k--)
      if (!(smask & (1u << k)))
        slot_of[k] = slot_of[k + 1];
  } else {
    int tmp[2] = { -1, -1 }, t = 0;
    for (int k = 0; k <= kmax; k++) {
      if (smask & (1u << k))
        continue;
      if (tmp[t] < 0)
        tmp[t] = n++;
      slot_of[k] = tmp[t];
      t ^= 1;
    }
  }
  *slots = 0;
  for (int k = 0; k <= kmax; k++)
    *slots |= (unsigned long long) (slot_of[k] & 15) << (4 * k);
  return n;
}

/* Shared-path geometry for a tiling; false when it does not fit. */
bool
runs_shared_geom (runs_geom * g, int bps, int width, int height,
    const int bounds[4], int axis, unsigned smask, int lx_shift,
    int nwarps, long nlut, int budget, size_t *smem)
{
  const int P = 4 / bps;
  int lanes_x = 1 << lx_shift;
  memset (g, 0, sizeof (*g));
  g->width = width;
  g->height = height;
  g->axis = axis;
  g->min_dy = bounds[2];
  g->mdxp = runs_floordiv (bounds[0], P) * P;
  g->tw = lanes_x * RUNS_NG * P;
  g->th = (32 >> lx_shift) * nwarps * RUNS_V;
  g->rw = g->tw + bounds[1] - g->mdxp;
  g->rh = g->th + bounds[3] - bounds[2];
  g->nwr = (g->rw + P - 1) / P;
  g->lx_shift = lx_shift;
  if (g->nwr > 32 * RUNS_MMAX || (height + g->th - 1) / g->th > 65535)
    return false;
  /* Bank-conflict-free gather: with the warp spread over 32 / lanes_x
   * row groups, RUNS_V * pitch_w must equal lanes_x * RUNS_NG modulo 32
   * banks (then lane L reads bank RUNS_NG * L + const). */
  int pitch = g->nwr + 1;
  if (lanes_x < 32) {
    int mod = 32 / RUNS_V;
    int t = (lanes_x * RUNS_NG / RUNS_V) % mod;
    pitch += ((t - pitch) % mod + mod) % mod;
  }
  g->pitch_w = pitch;
  g->kmax = runs_ilog2 (smask);
  g->nslots = runs_assign_slots (smask, g->kmax, 1, &g->slots);
  long slot_w = (long) g->rh * pitch;
  long lut_off = ((long) g->nslots * slot_w + 1) & ~1L;
  long bytes = lut_off * 4 + nlut * 8;
  if (bytes > budget)
    return false;
  g->slot_w = (int) slot_w;
  g->lut_off = (int) lut_off;
  g->nlut = (int) nlut;
  *smem = (size_t) bytes;
  return true;
}

/* Estimated time of the shared path in SM cycles (rough issue counts). */
double
runs_shared_cost (const runs_geom * g, int bps, int nwarps, long nlut,
    size_t smem, const runs_devinfo * dev)
{
  const int threads = 32 * nwarps;
  double c_load = (double) g->rh * ((g->nwr + 31) / 32) * 32 * 12.0;
  double c_build = 0;
  for (int k = 0; k < g->kmax; k++) {
    runs_level lv = bps == 1 ? runs_level_of<uint8_t> (*g, k)
        : runs_level_of<uint16_t> (*g, k);
    double ops = bps == 1 && !dev->paired8 ? 11.0 : 9.0;
    c_build += (double) lv.rows * ((lv.words + 31) / 32) * 32 * ops;
    if (runs_slot (*g, k) == runs_slot (*g, k + 1))
      c_build += (double) ((lv.rows + nwarps - 1) / nwarps) * threads * 8;
  }
  /* per output word and lookup: (NG + 1) / NG loads + permutes + min */
  double alu = bps == 2 ? 2.0 : (dev->paired8 ? 4.0 : 7.0);
  double per_word = (RUNS_NG + 1.0) / RUNS_NG + alu + 1.0 / RUNS_NG;
  double c_gather = (double) threads * RUNS_V * RUNS_NG * nlut * per_word;
  double c_block = c_load + c_build + c_gather + threads * 60.0 + nlut;

  long bx = (g->width + g->tw - 1) / g->tw;
  long by = (g->height + g->th - 1) / g->th;
  long blocks = bx * by;
  int bps_sm = (int) (dev->smem_sm / (smem + 1024));
  int by_threads = dev->threads_sm / threads;
  int by_regs = 65536 / (64 * threads);
  if (by_threads < bps_sm)
    bps_sm = by_threads;
  if (by_regs < bps_sm)
    bps_sm = by_regs;
  if (bps_sm > 32)
    bps_sm = 32;
  if (bps_sm < 1)
    return HUGE_VAL;
  long per_sm = (blocks + dev->sms - 1) / dev->sms;
  int conc = per_sm < bps_sm ? (int) per_sm : bps_sm;
  double waves = (double) ((per_sm + bps_sm - 1) / bps_sm);
  double warps = (double) conc * nwarps;
  double eff = warps >= 16 ? 1.0 : 0.35 + 0.65 * warps / 16.0;
  return waves * conc * c_block / (128.0 * eff);
}

/* Global-path geometry: the padded image; false when too large. */
bool
runs_global_geom (runs_geom * g, int bps, int width, int height,
    const int bounds[4], int axis, unsigned smask, long nlut)
{
  const int P = 4 / bps;
  memset (g, 0, sizeof (*g));
  g->width = width;
  g->height = height;
  g->axis = axis;
  g->min_dy = bounds[2];
  g->mdxp = runs_floordiv (bounds[0], P) * P;
  long rw = (long) width + bounds[1] - g->mdxp;
  long rh = (long) height + bounds[3] - bounds[2];
  long nwr = (rw + P - 1) / P;
  long pitch = (nwr + 1 + 31) & ~31L;
  g->kmax = runs_ilog2 (smask);
  g->nslots = runs_assign_slots (smask, g->kmax, 0, &g->slots);
  if (g->nslots > RUNS_GLOBAL_MAX_SLOTS)
    return false;
  long slot_w = rh * pitch;
  if ((size_t) slot_w * g->nslots * 4 > RUNS_GLOBAL_MAX_BYTES
      || slot_w * g->nslots >= INT_MAX || nlut >= INT_MAX / 2
      || (rh + RUNS_GY - 1) / RUNS_GY > 65535
      || (height + RUNS_GY * RUNS_V - 1) / (RUNS_GY * RUNS_V) > 65535)
    return false;
  g->rw = (int) rw;
  g->rh = (int) rh;
  g->nwr = (int) nwr;
  g->pitch_w = (int) pitch;
  g->slot_w = (int) slot_w;
  g->nlut = (int) nlut;
  return true;
}

/* Estimated time of the global path in SM cycles (same units). */
double
runs_global_cost (const runs_geom * g, int bps, long nlut,
    const runs_devinfo * dev)
{
  const int P = 4 / bps;
  double tab_words = (double) g->rh * g->nwr;
  double out_words = (double) g->height * ((g->width + P - 1) / P);
  double alu = bps == 2 ? 2.0 : (dev->paired8 ? 4.0 : 7.0);
  double instr = tab_words * 14.0 + g->kmax * tab_words * 10.0
      + out_words * nlut * (4.0 + alu) + out_words * 20.0;
  double bytes = tab_words * 4 * (1.0 + 3.0 * g->kmax)
      + (double) g->width * g->height * bps * 2;
  double cycles = instr / (128.0 * dev->sms * 0.7) + bytes / 1600.0;
  return cycles + (g->kmax + 2) * 3000.0;
}

/* Offsets' bounding box from the runs: min_dx, max_dx, min_dy, max_dy. */
void
runs_bounds (const runs_axis * ax, int axis, int bounds[4])
{
  bounds[0] = bounds[2] = INT_MAX;
  bounds[1] = bounds[3] = INT_MIN;
  for (int i = 0; i < ax->count; i++) {
    const cm_se_run *r = &ax->runs[i];
    int a0 = r->start, a1 = r->start + r->len - 1;
    int lo_x = axis == 0 ? a0 : r->fixed, hi_x = axis == 0 ? a1 : r->fixed;
    int lo_y = axis == 0 ? r->fixed : a0, hi_y = axis == 0 ? r->fixed : a1;
    if (lo_x < bounds[0])
      bounds[0] = lo_x;
    if (hi_x > bounds[1])
      bounds[1] = hi_x;
    if (lo_y < bounds[2])
      bounds[2] = lo_y;
    if (hi_y > bounds[3])
      bounds[3] = hi_y;
  }
}

/* Best choice for one axis (updates *best when cheaper). */
void
runs_choose_axis (const runs_axis * ax, int axis, int bps, int width,
    int height, const int bounds[4], const runs_devinfo * dev,
    runs_choice * best)
{
  int ktop = runs_ilog2 ((unsigned) ax->maxlen);
  if (ktop >= RUNS_MAX_LEVELS - 1)
    ktop = RUNS_MAX_LEVELS - 2;
  for (unsigned rest = 0; rest < (1u << ktop); rest++) {
    unsigned smask = 1u | (rest << 1);
    long nlut = runs_count_lookups (ax, smask);
    runs_geom g;
    size_t smem;
    for (int lx_shift = 2; lx_shift <= 5; lx_shift++) {
      for (int nw = 2; nw <= RUNS_MAX_THREADS / 32; nw++) {
        if (!runs_shared_geom (&g, bps, width, height, bounds, axis, smask,
                lx_shift, nw, nlut, dev->smem_budget, &smem))
          continue;
        double c = runs_shared_cost (&g, bps, nw, nlut, smem, dev);
        if (!best->valid || c < best->cost) {
          best->valid = 1;
          best->axis = axis;
          best->shared = 1;
          best->smask = smask;
          best->lx_shift = lx_shift;
          best->nwarps = nw;
          best->cost = c;
        }
      }
    }
    if (runs_global_geom (&g, bps, width, height, bounds, axis, smask,
            nlut)) {
      double c = runs_global_cost (&g, bps, nlut, dev);
      if (!best->valid || c < best->cost) {
        best->valid = 1;
        best->axis = axis;
        best->shared = 0;
        best->smask = smask;
        best->cost = c;
      }
    }
  }
}

/* Lookup list for the chosen geometry: per window, the word offset of its
 * first sample relative to the output word (slot, row and column) and the
 * byte shift inside the word. */
void
runs_fill_lut (const runs_axis * ax, const runs_geom * g, int bps,
    unsigned smask, int2 * lut)
{
  const int P = 4 / bps;
  long n = 0;
  for (int i = 0; i < ax->count; i++) {
    const cm_se_run *r = &ax->runs[i];
    int q = runs_level_for (smask, r->len);
    int step = 1 << q;
    int full = r->len >> q;
    int tail = (r->len & (step - 1)) != 0;
    for (int m = 0; m < full + tail; m++) {
      int pos = m < full ? r->start + m * step : r->start + r->len - step;
      int ox = g->axis == 0 ? pos : r->fixed;
      int oy = g->axis == 0 ? r->fixed : pos;
      int cx = ox - g->mdxp;    /* >= 0 */
      lut[n].x = runs_slot (*g, q) * g->slot_w + (oy - g->min_dy) * g->pitch_w
          + cx / P;
      lut[n].y = (cx % P) * bps;
      n++;
    }
  }
}

void
runs_axis_clear (runs_axis * ax)
{
  free (ax->runs);
  free (ax->hist);
  memset (ax, 0, sizeof (*ax));
}

cm_status
runs_axis_load (runs_axis * ax, const cm_se * se, int axis)
{
  memset (ax, 0, sizeof (*ax));
  cm_status st = cm_se_runs (se, axis, &ax->runs, &ax->count);
  if (st != CM_OK)
    return st;
  if (ax->count <= 0 || ax->runs == NULL) {
    runs_axis_clear (ax);
    return CM_ERR_INVALID_ARG;
  }
  for (int i = 0; i < ax->count; i++) {
    if (ax->runs[i].len < 1 || ax->runs[i].len > CM_SE_MAX_EXTENT) {
      runs_axis_clear (ax);
      return CM_ERR_INVALID_ARG;
    }
    if (ax->runs[i].len > ax->maxlen)
      ax->maxlen = ax->runs[i].len;
  }
  ax->hist = (long *) calloc ((size_t) ax->maxlen + 1, sizeof (long));
  if (!ax->hist) {
    runs_axis_clear (ax);
    return CM_ERR_NO_MEMORY;
  }
  for (int i = 0; i < ax->count; i++)
    ax->hist[ax->runs[i].len]++;
  return CM_OK;
}

/* Everything the pass needs, computed on the host from the SE, the image
 * size and the device limits (no CUDA calls: the emulation test uses it). */
struct runs_plan_host
{
  runs_choice choice;
  runs_geom g;
  size_t smem;                  /* shared path: dynamic shared bytes   */
  int2 *lut;                    /* host copy, g.nlut entries (malloc)  */
};

cm_status
runs_plan_host_build (runs_plan_host * out, const cm_se * se, int width,
    int height, cm_depth depth, const runs_devinfo * dev)
{
  const int bps = cm_depth_bytes (depth);
  runs_axis ax[2];
  int bounds[4];
  cm_status st;

  memset (out, 0, sizeof (*out));
  st = runs_axis_load (&ax[0], se, 0);
  if (st != CM_OK)
    return st;
  st = runs_axis_load (&ax[1], se, 1);
  if (st != CM_OK) {
    runs_axis_clear (&ax[0]);
    return st;
  }
  runs_bounds (&ax[0], 0, bounds);

  runs_choice best;
  memset (&best, 0, sizeof (best));
  runs_choose_axis (&ax[0], 0, bps, width, height, bounds, dev, &best);
  runs_choose_axis (&ax[1], 1, bps, width, height, bounds, dev, &best);
  if (!best.valid) {
    /* level 0 only, one slot: always within the global limits unless the
     * image itself is huge */
    st = CM_ERR_UNSUPPORTED;
    goto done;
  }

  {
    const runs_axis *a = &ax[best.axis];
    long nlut = runs_count_lookups (a, best.smask);
    bool ok;
    if (best.shared)
      ok = runs_shared_geom (&out->g, bps, width, height, bounds, best.axis,
          best.smask, best.lx_shift, best.nwarps, nlut, dev->smem_budget,
          &out->smem);
    else
      ok = runs_global_geom (&out->g, bps, width, height, bounds, best.axis,
          best.smask, nlut);
    if (!ok) {
      st = CM_ERR_UNSUPPORTED;
      goto done;
    }
    out->lut = (int2 *) malloc ((size_t) nlut * sizeof (int2));
    if (!out->lut) {
      st = CM_ERR_NO_MEMORY;
      goto done;
    }
    runs_fill_lut (a, &out->g, bps, best.smask, out->lut);
    out->choice = best;
  }

done:
  runs_axis_clear (&ax[0]);
  runs_axis_clear (&ax[1]);
  return st;
}

}                               /* namespace */

/* ---- public API --------------------------------------------------------- */

struct cm_runs_pass
{
  int width, height;
  cm_depth depth;
  int shared;
  int axis;
  runs_geom g;
  size_t smem;
  int nwarps;
  int2 *d_lut;
  uint32_t *d_tab;              /* global path */
};

namespace {

template <typename T, bool MIN>
cudaError_t
runs_launch (const cm_runs_pass * pass, const cm_image * src,
    const cm_image * dst, int border, uint32_t bval, cudaStream_t stream)
{
  const int P = 4 / (int) sizeof (T);
  const runs_geom &g = pass->g;
  int src_aligned = (((uintptr_t) src->data | src->pitch) & 3) == 0;
  int dst_aligned = (((uintptr_t) dst->data | dst->pitch) & 3) == 0;
  const uint8_t *s = (const uint8_t *) src->data;
  uint8_t *d = (uint8_t *) dst->data;

  if (pass->shared) {
    dim3 grid ((g.width + g.tw - 1) / g.tw, (g.height + g.th - 1) / g.th);
    runs_shared_kernel<T, MIN> <<< grid, 32 * pass->nwarps, pass->smem,
        stream >>> (s, src->pitch, d, dst->pitch, g, pass->d_lut, border,
        bval, src_aligned, dst_aligned);
    return cudaGetLastError ();
  }

  dim3 blk (32, RUNS_GY);
  dim3 gfill ((g.nwr + 31) / 32, (g.rh + RUNS_GY - 1) / RUNS_GY);
  runs_fill_kernel<T> <<< gfill, blk, 0, stream >>> (s, src->pitch,
      pass->d_tab, g, border, bval, src_aligned);
  cudaError_t e = cudaGetLastError ();
  if (e != cudaSuccess)
    return e;
  for (int k = 0; k < g.kmax; k++) {
    runs_level lv = runs_level_of<T> (g, k);
    if (lv.rows <= 0)
      continue;                 /* never read: windows stay in the table */
    dim3 gb ((lv.words + 31) / 32, (lv.rows + RUNS_GY - 1) / RUNS_GY);
    runs_gbuild_kernel<T, MIN> <<< gb, blk, 0, stream >>> (pass->d_tab
        + (size_t) runs_slot (g, k) * g.slot_w,
        pass->d_tab + (size_t) runs_slot (g, k + 1) * g.slot_w, lv, g.pitch_w);
    e = cudaGetLastError ();
    if (e != cudaSuccess)
      return e;
  }
  int out_words = (g.width + P - 1) / P;
  dim3 gg ((out_words + 31) / 32,
      (g.height + RUNS_GY * RUNS_V - 1) / (RUNS_GY * RUNS_V));
  runs_ggather_kernel<T, MIN> <<< gg, blk, 0, stream >>> (pass->d_tab,
      pass->d_lut, g, d, dst->pitch, dst_aligned);
  return cudaGetLastError ();
}

cudaError_t
runs_set_smem_attr (const void *fn, int bytes)
{
  cudaError_t e = cudaFuncSetAttribute (fn,
      cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  if (e != cudaSuccess)
    return e;
  return cudaFuncSetAttribute (fn,
      cudaFuncAttributePreferredSharedMemoryCarveout,
      cudaSharedmemCarveoutMaxShared);
}

cudaError_t
runs_query_device (runs_devinfo * dev)
{
  int id, optin = 0, smsm = 0, major = 0;
  cudaError_t e = cudaGetDevice (&id);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&dev->sms, cudaDevAttrMultiProcessorCount,
        id);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&optin,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, id);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&smsm,
        cudaDevAttrMaxSharedMemoryPerMultiprocessor, id);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&dev->threads_sm,
        cudaDevAttrMaxThreadsPerMultiProcessor, id);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&major, cudaDevAttrComputeCapabilityMajor,
        id);
  if (e != cudaSuccess)
    return e;
  /* two blocks per multiprocessor (1 KB reserved each), at most 96 KB */
  int budget = smsm / 2 - 1024;
  if (budget > RUNS_SMEM_CAP)
    budget = RUNS_SMEM_CAP;
  if (budget > optin)
    budget = optin;
  if (budget < 16 * 1024)
    budget = optin < 48 * 1024 ? optin : 48 * 1024;
  dev->smem_budget = budget;
  dev->smem_sm = smsm;
  dev->paired8 = major >= 9;
  if (dev->sms < 1)
    dev->sms = 1;
  if (dev->threads_sm < 32)
    dev->threads_sm = 2048;
  return cudaSuccess;
}

}                               /* namespace */

cm_status
cm_runs_pass_new (cm_runs_pass ** out, const cm_se * se, int width,
    int height, cm_depth depth)
{
  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!se || !se->mask || se->count < 1 || width < 1 || height < 1
      || (depth != CM_DEPTH_8 && depth != CM_DEPTH_16))
    return CM_ERR_INVALID_ARG;

  runs_devinfo dev;
  memset (&dev, 0, sizeof (dev));
  cudaError_t e = runs_query_device (&dev);
  if (e != cudaSuccess)
    return cm_status_from_cuda (e);

  runs_plan_host ph;
  cm_status st = runs_plan_host_build (&ph, se, width, height, depth, &dev);
  if (st != CM_OK)
    return st;

  cm_runs_pass *p = (cm_runs_pass *) calloc (1, sizeof (*p));
  if (!p) {
    free (ph.lut);
    return CM_ERR_NO_MEMORY;
  }
  p->width = width;
  p->height = height;
  p->depth = depth;
  p->shared = ph.choice.shared;
  p->axis = ph.choice.axis;
  p->g = ph.g;
  p->smem = ph.smem;
  p->nwarps = ph.choice.nwarps;

  size_t lut_bytes = (size_t) ph.g.nlut * sizeof (int2);
  e = cudaMalloc ((void **) &p->d_lut, lut_bytes);
  if (e == cudaSuccess)
    e = cudaMemcpy (p->d_lut, ph.lut, lut_bytes, cudaMemcpyHostToDevice);
  free (ph.lut);

  if (e == cudaSuccess && p->shared) {
    /* All plans on a device set the same limit (the device's budget), so
     * a plan never lowers it under another plan's feet. */
    int lim = dev.smem_budget;
    if (depth == CM_DEPTH_8) {
      e = runs_set_smem_attr ((const void *) runs_shared_kernel<uint8_t,
          true>, lim);
      if (e == cudaSuccess)
        e = runs_set_smem_attr ((const void *) runs_shared_kernel<uint8_t,
            false>, lim);
    } else {
      e = runs_set_smem_attr ((const void *) runs_shared_kernel<uint16_t,
          true>, lim);
      if (e == cudaSuccess)
        e = runs_set_smem_attr ((const void *) runs_shared_kernel<uint16_t,
            false>, lim);
    }
  } else if (e == cudaSuccess) {
    size_t bytes = (size_t) p->g.nslots * p->g.slot_w * sizeof (uint32_t);
    e = cudaMalloc ((void **) &p->d_tab, bytes);
    /* zero once: words past the region are read (never used) by the
     * unaligned window loads */
    if (e == cudaSuccess)
      e = cudaMemsetAsync (p->d_tab, 0, bytes, 0);
  }
  /* The lookup upload and the table zeroing above go to the default
   * stream, which is not ordered with the caller's streams (non-blocking
   * ones, as cm_stream_new makes): cudaMemset returns before it has run,
   * and a pageable cudaMemcpy may return before its transfer has landed.
   * Left pending, the memset could land after the first run's fill kernel
   * and zero the table under the gather (results of 0). Wait for both
   * here, so that a run on any stream finds them done. */
  if (e == cudaSuccess)
    e = cudaStreamSynchronize (0);
  if (e != cudaSuccess) {
    cm_runs_pass_free (p);
    return cm_status_from_cuda (e);
  }
  *out = p;
  return CM_OK;
}

cudaError_t
cm_runs_pass_run (cm_runs_pass * pass, const cm_image * src,
    const cm_image * dst, int is_min, cm_border_mode border,
    uint32_t border_value, cudaStream_t stream)
{
  if (!pass || !src || !dst || !src->data || !dst->data)
    return cudaErrorInvalidValue;
  const size_t row_bytes = (size_t) pass->width * cm_depth_bytes (pass->depth);
  if (src->width != pass->width || src->height != pass->height
      || dst->width != pass->width || dst->height != pass->height
      || src->depth != pass->depth || dst->depth != pass->depth
      || src->pitch < row_bytes || dst->pitch < row_bytes)
    return cudaErrorInvalidValue;
  if ((int) border < CM_BORDER_NEUTRAL || (int) border > CM_BORDER_CONSTANT)
    return cudaErrorInvalidValue;
  uint32_t vmax = cm_depth_max (pass->depth);
  if (border == CM_BORDER_NEUTRAL) {
    /* never sent by the plan; handled as its definition anyway */
    border = CM_BORDER_CONSTANT;
    border_value = is_min ? vmax : 0;
  }
  if (border_value > vmax)
    border_value = vmax;

  if (pass->depth == CM_DEPTH_8)
    return is_min ? runs_launch<uint8_t, true> (pass, src, dst, border,
        border_value, stream) : runs_launch<uint8_t, false> (pass, src, dst,
        border, border_value, stream);
  return is_min ? runs_launch<uint16_t, true> (pass, src, dst, border,
      border_value, stream) : runs_launch<uint16_t, false> (pass, src, dst,
      border, border_value, stream);
}

void
cm_runs_pass_free (cm_runs_pass * pass)
{
  if (!pass)
    return;
  if (pass->d_lut)
    cudaFree (pass->d_lut);
  if (pass->d_tab)
    cudaFree (pass->d_tab);
  free (pass);
}

const char *
cm_runs_pass_describe (const cm_runs_pass * pass)
{
  if (!pass)
    return "runs";
  if (pass->shared)
    return pass->axis == 0 ? "runs-rows-shared" : "runs-cols-shared";
  return pass->axis == 0 ? "runs-rows-global" : "runs-cols-global";
}
