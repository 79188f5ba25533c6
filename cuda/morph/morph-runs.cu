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
 * synchronisation.
 *
 * This file: the kernels and the API. The planner (axis, levels, tiling,
 * lookups): morph-runs-plan.cu; what both share: morph-runs.cuh. */

#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cm-cuda.h"
#include "morph-runs.cuh"

using namespace cm_runs;

namespace {

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

/* the host's min/max of the samples of BITS bits in two words, one at a
 * time (the emulation of the SIMD instructions below) */
template <bool MIN, int BITS>
RUNS_HD uint32_t
runs_op_lanes (uint32_t a, uint32_t b)
{
  const uint32_t mask = (1u << BITS) - 1u;
  uint32_t r = 0;

  for (int h = 0; h < 32; h += BITS) {
    uint32_t x = (a >> h) & mask, y = (b >> h) & mask;
    r |= (MIN ? (x < y ? x : y) : (x > y ? x : y)) << h;
  }
  return r;
}

template <bool MIN>
RUNS_HD uint32_t
runs_op16x2 (uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
  return MIN ? __vminu2 (a, b) : __vmaxu2 (a, b);
#else
  return runs_op_lanes<MIN, 16> (a, b);
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
  return runs_op_lanes<MIN, 8> (a, b);
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
 * starting at byte bs of {w1:w0}; s0 = 0x1111 * bs. One operation on
 * the word (runs_op_word), and for bytes, where RUNS_PAIRED8, the
 * specialisation below. */
template <typename T, bool MIN> struct runs_acc
{
  uint32_t a;
  RUNS_HD void init ()
  {
    a = MIN ? 0xffffffffu : 0u;
  }
  RUNS_HD void add (uint32_t w0, uint32_t w1, uint32_t s0)
  {
    a = runs_op_word<T, MIN> (a, runs_prmt (w0, w1, s0 + 0x3210u));
  }
  RUNS_HD uint32_t result () const
  {
    return a;
  }
};

#if RUNS_PAIRED8
template <bool MIN> struct runs_acc<uint8_t, MIN>
{
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
};
#endif

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

/* The words a lane holds, v[m] = word lane + 32 m, into row, those
 * below n */
RUNS_HD void
runs_store_words (uint32_t * row, int lane, int n,
    const uint32_t v[RUNS_MMAX])
{
RUNS_UNROLL
  for (int m = 0; m < RUNS_MMAX; m++) {
    int w = lane + 32 * m;
    if (w < n)
      row[w] = v[m];
  }
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
  runs_store_words (out, lane, g.nwr, v);
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
  runs_store_words (d + r * pitch_w, lane, lv.words, res);
}

/* Gather of one thread of the shared path: RUNS_NG words x V rows (the
 * geometry's v) of the tile at (x0, y0), stored clipped to the image. */
template <typename T, bool MIN, int V>
RUNS_HD void
runs_gather_tile (const uint32_t * sm, const int2 * lut, const runs_geom & g,
    int warp, int lane, int x0, int y0, uint8_t * dst, size_t dpitch,
    bool aligned)
{
  const int P = 4 / (int) sizeof (T);
  int cx = lane & ((1 << g.lx_shift) - 1);
  int rg = warp * (32 >> g.lx_shift) + (lane >> g.lx_shift);
  int wb = cx * RUNS_NG, ly = rg * V;
  runs_acc<T, MIN> acc[V][RUNS_NG];
  int rb[V];
RUNS_UNROLL
  for (int i = 0; i < V; i++) {
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
    for (int i = 0; i < V; i++) {
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
  for (int i = 0; i < V; i++) {
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

/* Shared path: one block per tile; blockDim.x = 32 * warps; V: g.v. */
template <typename T, bool MIN, int V>
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

  runs_gather_tile<T, MIN, V> (runs_smem, slut, g, warp, lane, x0, y0, dst,
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
    if (g.v == 1)
      runs_shared_kernel<T, MIN, 1> <<< grid, 32 * pass->nwarps, pass->smem,
          stream >>> (s, src->pitch, d, dst->pitch, g, pass->d_lut, border,
          bval, src_aligned, dst_aligned);
    else
      runs_shared_kernel<T, MIN, RUNS_V> <<< grid, 32 * pass->nwarps,
          pass->smem, stream >>> (s, src->pitch, d, dst->pitch, g,
          pass->d_lut, border, bval, src_aligned, dst_aligned);
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

/* The limit on both shared kernels (erosion, dilation) of samples T
 * whose gather takes @v rows per thread */
template <typename T>
cudaError_t
runs_set_smem_attrs (int v, int bytes)
{
  cudaError_t e = runs_set_smem_attr ((const void *) (v == 1 ?
          runs_shared_kernel<T, true, 1> : runs_shared_kernel<T, true,
          RUNS_V>), bytes);
  if (e == cudaSuccess)
    e = runs_set_smem_attr ((const void *) (v == 1 ?
            runs_shared_kernel<T, false, 1> : runs_shared_kernel<T, false,
            RUNS_V>), bytes);
  return e;
}

cudaError_t
runs_query_device (runs_devinfo * dev)
{
  int optin = 0, smsm = 0, major = 0;
  cudaError_t e = cm_device_attribute (cudaDevAttrMultiProcessorCount,
      &dev->sms);
  if (e == cudaSuccess)
    e = cm_device_attribute (cudaDevAttrMaxSharedMemoryPerBlockOptin, &optin);
  if (e == cudaSuccess)
    e = cm_device_attribute (cudaDevAttrMaxSharedMemoryPerMultiprocessor,
        &smsm);
  if (e == cudaSuccess)
    e = cm_device_attribute (cudaDevAttrMaxThreadsPerMultiProcessor,
        &dev->threads_sm);
  if (e == cudaSuccess)
    e = cm_device_attribute (cudaDevAttrComputeCapabilityMajor, &major);
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
    int height, cm_depth depth, int rows_per_thread)
{
  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!se || !se->mask || se->count < 1 || !cm_frame_ok (width, height, depth)
      || (rows_per_thread != 0 && rows_per_thread != 1
          && rows_per_thread != RUNS_V))
    return CM_ERR_INVALID_ARG;

  runs_devinfo dev;
  memset (&dev, 0, sizeof (dev));
  cudaError_t e = runs_query_device (&dev);
  if (e != cudaSuccess)
    return cm_status_from_cuda (e);

  runs_plan_host ph;
  cm_status st = runs_plan_host_build (&ph, se, width, height, depth, &dev,
      rows_per_thread);
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
    if (depth == CM_DEPTH_8)
      e = runs_set_smem_attrs<uint8_t> (p->g.v, lim);
    else
      e = runs_set_smem_attrs<uint16_t> (p->g.v, lim);
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
  cudaFree (pass->d_lut);       /* NULL: nothing */
  cudaFree (pass->d_tab);
  free (pass);
}

const char *
cm_runs_pass_describe (const cm_runs_pass * pass)
{
  if (!pass)
    return "runs";
  if (pass->shared && pass->g.v == 1)
    return pass->axis == 0 ? "runs-rows-shared-1" : "runs-cols-shared-1";
  if (pass->shared)
    return pass->axis == 0 ? "runs-rows-shared" : "runs-cols-shared";
  return pass->axis == 0 ? "runs-rows-global" : "runs-cols-global";
}
