/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CUDA plans of reconstruction and the operations built on it
 * (reconstruct.h), the device twins of reconstruct-ref.c.
 *
 * Reconstruction by dilation of g under f runs as a chaotic relaxation:
 * any pixel may at any time be replaced by min (f, max of itself and its
 * neighbours' current values). Every such update is monotone and never
 * exceeds the reconstruction R (if g <= R then min (f, dilation of g) <= R,
 * R being a fixpoint), and R is the least fixpoint above the marker, so
 * the updates may run in any order, on stale or fresh neighbour values,
 * and stop at R as soon as a whole pass changed nothing: in that pass
 * nothing was written, so every read was current and every pixel met the
 * fixpoint condition with all its neighbours. Termination: every pass but
 * the last raises at least one sample, and samples are bounded.
 *
 * A pass is two sweeps followed by a grid barrier, in one cooperative
 * kernel that loops over passes on the device (no host round trip):
 *
 * - a row sweep: a warp per row propagates left to right and right to
 *   left along the whole row at once. Along a row the update
 *   g[x] = min (max (g[x], g[x-1]), f[x]) is a clamp of g[x-1] to
 *   [g[x], f[x]], and clamps compose into clamps (clamp (clamp (v, a, b),
 *   c, d) = clamp (v, clamp (a, c, d), clamp (b, c, d))), associatively, so
 *   the sweep is a parallel scan over the warp (Karas; the issue's note);
 * - a column sweep: a warp per 32 columns of a band of rows walks down,
 *   another up, each lane one column, taking the previous row's value of
 *   its column and, for 8-connectivity, of its two neighbours (shuffles
 *   inside the warp, memory at its edges); a walk still writing at the
 *   band's end goes on into the next band.
 *
 * Together the sweeps look at all 4 or 8 neighbours of every pixel.
 * Reconstruction by erosion is the same on complemented samples (~v).
 * Samples of g are read through L2 (__ldcg): they are written by other
 * SMs within the kernel, and L1 is not coherent between SMs. */
#include <stdint.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "reconstruct.h"
#include "cm-cuda.h"

/* the most threads of a cooperative block, by bytes a sample: 16 warps
 * for 8-bit samples (a block's warps share its items, and more of them
 * even out the blocks' work in a pass), 8 for 16-bit (three 4K rows a
 * warp of 16 warps would not fit in shared memory); either way 128
 * registers. choose_grid takes 8 where 16 do not fit. */
#define RECON_THREADS(bytes) ((bytes) == 1 ? 512 : 256)
#define RECON_THREADS_MIN 256
#define ROW_PER_LANE 16         /* consecutive samples a lane scans alone  */
#define COL_PREFETCH 16         /* rows a column sweep loads ahead         */

/* flags[0..5]: the barrier words of passes p % 3 (64 bits each, see
 * end_pass); flags[6]: passes */
#define FLAG_PASSES 6
#define FLAG_COUNT 8

struct cm_recon_plan
{
  cm_recon_desc desc;
  int width, height;
  cm_depth depth;
  cm_morph_plan *marker_plan;   /* open, close: the erosion / dilation   */
  int *d_flags;                 /* FLAG_COUNT, then the dirty flags      */
  int *h_passes;                /* pinned: the last run's pass count      */
  int blocks;                   /* cooperative grid                       */
  int threads;                  /* of a block                             */
  int band_rows;
  int walk_extend;              /* rows a walk may go on past its band    */
  bool whole_rows;              /* rows swept in shared memory            */
  int row_padded;               /* their samples, a multiple of ROW_CHUNK */
  size_t smem;                  /* dynamic shared memory of a block       */
};

#include "reconstruct-sweeps.cuh"

/* The end of a pass for the whole grid, @changed: whether the block's
 * warps changed a sample. Every block adds 1, plus 2^32 if it changed
 * one, to the pass's word and waits until every block did: the barrier
 * and whether any block changed a sample are then one word (a separate
 * flag cost a store by every warp that wrote and a load after the
 * barrier). Writes before it are seen after it by every block (a fence
 * on each side of the arrival, as cooperative groups' barrier does).
 * Returns that in every thread of the block. */
static __device__ __forceinline__ bool
end_pass (unsigned long long *word, bool changed, int *result)
{
  changed = __syncthreads_or (changed);
  if (threadIdx.x == 0) {
    const unsigned long long add = 1ull + (changed ? 1ull << 32 : 0ull);
    unsigned long long v;

    __threadfence ();
    v = atomicAdd (word, add) + add;
    while ((unsigned) v < gridDim.x)
      v = *(volatile unsigned long long *) word;
    __threadfence ();
    *result = (v >> 32) != 0;
  }
  __syncthreads ();
  return *result;
}

/* WHOLE: rows swept in shared memory (a.row_padded samples a warp), or
 * through the chunk staging (frames too wide for that) */
template <typename T, bool EROSION, bool CONN8, bool WHOLE>
static __global__ void
__launch_bounds__ (RECON_THREADS (sizeof (T)), 512 / RECON_THREADS (sizeof (T)))
recon_kernel (recon_args a)
{
  const int lane = threadIdx.x & 31;
  const int col_items = a.ncols * a.nbands;
  const int items = 2 * col_items + a.height;
  extern __shared__ uint4 dyn_smem[];
  /* a warp's part: 3 rows of T (WHOLE) or 2 chunk stagings of unsigned */
  unsigned char *mine = (unsigned char *) dyn_smem + (threadIdx.x >> 5) *
      (WHOLE ? 3 * a.row_padded * sizeof (T) : 2 * ROW_STAGE *
      sizeof (unsigned));
  /* the block's next item of passes p % 3 (see below) */
  __shared__ int next_item[3];
  __shared__ int any_changed;        /* end_pass's result */
  unsigned long long *bar = (unsigned long long *) a.flags;

  if (threadIdx.x == 0)
    next_item[0] = 0;
  __syncthreads ();

  /* One barrier per pass, at its end: rows and column bands may be swept
   * at the same time (any order of updates is valid), and a pass that
   * wrote nothing read only the values the previous barrier left. */
  for (int pass = 0;; pass++) {
    const int slot = pass % 3;
    bool changed = false;

    /* the next pass's slots were last used in pass - 2, which every
     * block has left: it reached the end of pass - 1 */
    if (blockIdx.x == 0 && threadIdx.x == 0)
      bar[(pass + 1) % 3] = 0;
    if (threadIdx.x == 0)
      next_item[(pass + 1) % 3] = 0;

    /* The pass's items, the bands' down walks and their up walks (the
     * longer items) first, then rows: item blockIdx.x + k * gridDim.x is
     * the block's k-th, and its warps take them one at a time from the
     * block's counter (warp w its w-th first), so that a warp through
     * with its item takes the next rather than waiting at the barrier
     * while another works through several long walks. */
    for (int k = threadIdx.x >> 5; blockIdx.x + k * gridDim.x < items;) {
      const int it = blockIdx.x + k * gridDim.x;
      int got = 0;

      if (it < col_items)
        changed |= sweep_band<T, EROSION, CONN8, true> (a, it, lane);
      else if (it < 2 * col_items)
        changed |= sweep_band<T, EROSION, CONN8, false> (a, it - col_items,
            lane);
      else
        changed |= sweep_row<T, EROSION, WHOLE> (a, it - 2 * col_items, lane,
            mine);
      if (lane == 0)
        got = atomicAdd (&next_item[slot], 1);
      k = __shfl_sync (0xffffffffu, got, 0) + (int) (blockDim.x >> 5);
    }
    if (!end_pass (bar + slot, changed, &any_changed)) {
      if (blockIdx.x == 0 && threadIdx.x == 0)
        a.flags[FLAG_PASSES] = pass + 1;
      return;
    }
  }
}

typedef void (*recon_kernel_fn) (recon_args);

static recon_kernel_fn
recon_kernel_for (cm_depth depth, bool erosion, bool conn8, bool whole)
{
#define PICK2(T, E, C) \
  (whole ? recon_kernel<T, E, C, true> : recon_kernel<T, E, C, false>)
#define PICK(T) \
  (erosion ? (conn8 ? PICK2 (T, true, true) : PICK2 (T, true, false)) \
      : (conn8 ? PICK2 (T, false, true) : PICK2 (T, false, false)))
  return depth == CM_DEPTH_16 ? PICK (uint16_t) : PICK (uint8_t);
#undef PICK
#undef PICK2
}

/* ---- markers and differences ------------------------------------------- */

enum
{
  MARK_BORDER_ELSE_MAX,         /* fill holes   */
  MARK_BORDER_ELSE_ZERO,        /* clear border */
  MARK_MINUS_H,                 /* hmax         */
  MARK_PLUS_H                   /* hmin         */
};

#define EW_BX 32
#define EW_BY 8

template <typename T>
static __global__ void
marker_kernel (const uint8_t * f, size_t fpitch, uint8_t * g, size_t gpitch,
    int w, int h, int kind, unsigned hgt)
{
  const int x = (int) (blockIdx.x * EW_BX + threadIdx.x);
  const int y = (int) (blockIdx.y * EW_BY + threadIdx.y);
  const unsigned maxv = (T) ~0u;

  if (x >= w || y >= h)
    return;
  const unsigned v = row_of<T> (f, fpitch, y)[x];
  const bool border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
  unsigned m;

  switch (kind) {
    case MARK_BORDER_ELSE_MAX:
      m = border ? v : maxv;
      break;
    case MARK_BORDER_ELSE_ZERO:
      m = border ? v : 0;
      break;
    case MARK_MINUS_H:
      m = v > hgt ? v - hgt : 0;
      break;
    default:
      m = min (v + hgt, maxv);
      break;
  }
  ((T *) (g + (size_t) y * gpitch))[x] = (T) m;
}

/* g = op (f, g) on the pixel of this thread (one a pixel, EW_BX x EW_BY
 * blocks), the body of the kernels that combine f into g */
template <typename T, class Op>
static __device__ __forceinline__ void
combine_pixel (const uint8_t * f, size_t fpitch, uint8_t * g, size_t gpitch,
    int w, int h, Op op)
{
  const int x = (int) (blockIdx.x * EW_BX + threadIdx.x);
  const int y = (int) (blockIdx.y * EW_BY + threadIdx.y);

  if (x >= w || y >= h)
    return;
  const T fv = row_of<T> (f, fpitch, y)[x];
  T *gp = (T *) (g + (size_t) y * gpitch) + x;

  *gp = op (fv, *gp);
}

/* g = f - g (F_MINUS_G) or g - f */
template <typename T, bool F_MINUS_G>
static __global__ void
difference_kernel (const uint8_t * f, size_t fpitch, uint8_t * g,
    size_t gpitch, int w, int h)
{
  combine_pixel<T> (f, fpitch, g, gpitch, w, h, [] (T fv, T gv) {
    return F_MINUS_G ? (T) (fv - gv) : (T) (gv - fv);
  });
}

/* g = min (g, f) (by dilation) or max (g, f) (by erosion): a marker made
 * by a structuring element without its origin, or with a constant border,
 * may cross the mask, and the relaxation needs every value on the mask's
 * side before any neighbour reads it */
template <typename T, bool EROSION>
static __global__ void
clamp_kernel (const uint8_t * f, size_t fpitch, uint8_t * g, size_t gpitch,
    int w, int h)
{
  combine_pixel<T> (f, fpitch, g, gpitch, w, h, [] (T fv, T gv) {
    return (T) (EROSION ? max (gv, fv) : min (gv, fv));
  });
}

/* ---- the plan ---------------------------------------------------------- */

static cm_status
launch_status (void)
{
  return cm_status_from_cuda (cudaGetLastError ());
}

/* the grid of the element-wise kernels (EW_BX x EW_BY blocks) */
static dim3
ew_grid (const cm_recon_plan * p)
{
  return dim3 ((p->width + EW_BX - 1) / EW_BX,
      (p->height + EW_BY - 1) / EW_BY);
}

static cm_status
run_marker (const cm_recon_plan * p, const cm_image * src,
    const cm_image * dst, int kind, cudaStream_t s)
{
  const dim3 block (EW_BX, EW_BY);
  const dim3 grid = ew_grid (p);
  const unsigned hgt = p->desc.height < cm_depth_max (p->depth) ?
      p->desc.height : cm_depth_max (p->depth);

  if (p->depth == CM_DEPTH_16)
    marker_kernel<uint16_t> <<<grid, block, 0, s>>> ((const uint8_t *)
        src->data, src->pitch, (uint8_t *) dst->data, dst->pitch, p->width,
        p->height, kind, hgt);
  else
    marker_kernel<uint8_t> <<<grid, block, 0, s>>> ((const uint8_t *)
        src->data, src->pitch, (uint8_t *) dst->data, dst->pitch, p->width,
        p->height, kind, hgt);
  return launch_status ();
}

/* The element-wise kernels g = op (f, g) with a flag (difference_kernel's
 * F_MINUS_G, clamp_kernel's EROSION), by [op][16-bit][flag] */
typedef void (*ew_kernel_fn) (const uint8_t *, size_t, uint8_t *, size_t,
    int, int);

enum
{
  EW_DIFFERENCE,
  EW_CLAMP
};

static const ew_kernel_fn ew_kernels[2][2][2] = {
  {{difference_kernel<uint8_t, false>, difference_kernel<uint8_t, true>},
      {difference_kernel<uint16_t, false>, difference_kernel<uint16_t, true>}},
  {{clamp_kernel<uint8_t, false>, clamp_kernel<uint8_t, true>},
      {clamp_kernel<uint16_t, false>, clamp_kernel<uint16_t, true>}},
};

/* dst := op (src, dst), @op an EW_ value */
static cm_status
run_ew (const cm_recon_plan * p, int op, bool flag, const cm_image * src,
    const cm_image * dst, cudaStream_t s)
{
  const ew_kernel_fn k = ew_kernels[op][p->depth == CM_DEPTH_16][flag];

  k <<<ew_grid (p), dim3 (EW_BX, EW_BY), 0, s>>> ((const uint8_t *)
      src->data, src->pitch, (uint8_t *) dst->data, dst->pitch, p->width,
      p->height);
  return launch_status ();
}

/* dst := reconstruction of dst (the marker) under / over src; the marker
 * must already be on the mask's side (the relaxation's invariant) */
static cm_status
run_reconstruction (cm_recon_plan * p, const cm_image * src,
    const cm_image * dst, bool erosion, cudaStream_t s)
{
  recon_args a;
  void *args[] = { &a };
  cudaError_t e;

  a.f = (const uint8_t *) src->data;
  a.fpitch = src->pitch;
  a.g = (uint8_t *) dst->data;
  a.gpitch = dst->pitch;
  a.width = p->width;
  a.height = p->height;
  a.band_rows = p->band_rows;
  a.walk_extend = p->walk_extend;
  a.nbands = (p->height + p->band_rows - 1) / p->band_rows;
  a.ncols = (p->width + 31) / 32;
  a.row_padded = p->row_padded;
  a.flags = p->d_flags;
  a.row_dirty = p->d_flags + FLAG_COUNT;
  a.band_dirty = a.row_dirty + a.height;

  /* everything dirty: every chunk of every row, every band */
  e = cudaMemsetAsync (p->d_flags, 0, FLAG_COUNT * sizeof (int), s);
  if (e == cudaSuccess)
    e = cudaMemsetAsync (a.row_dirty, 0xff, (size_t) (a.height + 2 * a.nbands *
            a.ncols) * sizeof (int), s);
  if (e == cudaSuccess)
    e = cudaLaunchCooperativeKernel ((const void *) recon_kernel_for (p->depth,
            erosion, p->desc.connectivity == 8, p->whole_rows),
        dim3 (p->blocks), dim3 (p->threads), args, p->smem, s);
  if (e == cudaSuccess)
    e = cudaMemcpyAsync (p->h_passes, p->d_flags + FLAG_PASSES, sizeof (int),
        cudaMemcpyDeviceToHost, s);
  return cm_status_from_cuda (e);
}

/* hmax (the reconstruction by dilation of f - h under f) and hdome
 * (f - hmax), or hmin (by erosion of f + h over f) and hbasin (hmin - f) */
static cm_status
run_h (cm_recon_plan * p, const cm_image * src, const cm_image * dst,
    cudaStream_t s)
{
  const bool minima = p->desc.op == CM_RECON_HMIN ||
      p->desc.op == CM_RECON_HBASIN;
  cm_status st;

  st = run_marker (p, src, dst, minima ? MARK_PLUS_H : MARK_MINUS_H, s);
  if (st == CM_OK)
    st = run_reconstruction (p, src, dst, minima, s);
  if (st != CM_OK || p->desc.op == CM_RECON_HMAX ||
      p->desc.op == CM_RECON_HMIN)
    return st;
  return run_ew (p, EW_DIFFERENCE, !minima, src, dst, s);
}

static bool
same_frame (const cm_recon_plan * p, const cm_image * img)
{
  return img && img->data && img->width == p->width &&
      img->height == p->height && img->depth == p->depth &&
      img->pitch >= (size_t) p->width * cm_depth_bytes (p->depth);
}

cm_status
cm_recon_plan_run (cm_recon_plan * p, const cm_image * src,
    const cm_image * dst, void *stream)
{
  cudaStream_t s = (cudaStream_t) stream;
  cm_status st;

  if (!p || !same_frame (p, src) || !same_frame (p, dst) ||
      src->data == dst->data)
    return CM_ERR_INVALID_ARG;

  switch (p->desc.op) {
    case CM_RECON_FILL_HOLES:
      st = run_marker (p, src, dst, MARK_BORDER_ELSE_MAX, s);
      return st != CM_OK ? st : run_reconstruction (p, src, dst, true, s);
    case CM_RECON_CLEAR_BORDER:
      st = run_marker (p, src, dst, MARK_BORDER_ELSE_ZERO, s);
      if (st == CM_OK)
        st = run_reconstruction (p, src, dst, false, s);
      return st != CM_OK ? st : run_ew (p, EW_DIFFERENCE, true, src, dst, s);
    case CM_RECON_OPEN:
    case CM_RECON_CLOSE:
      st = cm_morph_plan_run (p->marker_plan, src, dst, stream);
      if (st == CM_OK)
        st = run_ew (p, EW_CLAMP, p->desc.op == CM_RECON_CLOSE, src, dst, s);
      return st != CM_OK ? st : run_reconstruction (p, src, dst,
          p->desc.op == CM_RECON_CLOSE, s);
    case CM_RECON_HMAX:
    case CM_RECON_HDOME:
    case CM_RECON_HMIN:
    case CM_RECON_HBASIN:
      return run_h (p, src, dst, s);
  }
  return CM_ERR_INVALID_ARG;
}

/* The shared memory of a block of @threads: three whole rows a warp
 * (WHOLE) or two chunk stagings */
static size_t
block_smem (const cm_recon_plan * p, int threads, bool whole)
{
  return (size_t) (threads / 32) * (whole ? 3 * (size_t) p->row_padded *
      cm_depth_bytes (p->depth) : 2 * ROW_STAGE * sizeof (unsigned));
}

/* The most threads of a block, RECON_THREADS down to RECON_THREADS_MIN,
 * whose shared memory fits @optin bytes; 0 if none */
static int
fitting_threads (const cm_recon_plan * p, bool whole, int optin)
{
  for (int t = RECON_THREADS (cm_depth_bytes (p->depth));
      t >= RECON_THREADS_MIN; t /= 2)
    if (block_smem (p, t, whole) <= (size_t) optin)
      return t;
  return 0;
}

/* The cooperative grid: as many blocks as can be resident at once (the
 * condition of a grid barrier), fewer when the frame has less work. */
static cm_status
choose_grid (cm_recon_plan * p, const cm_recon_tuning * tuning)
{
  int threads, sms = 0, coop = 0, per_sm = 0, per_sm_max = 0, need, optin = 0;
  cudaError_t e;

  e = cm_device_attribute (cudaDevAttrCooperativeLaunch, &coop);
  if (e == cudaSuccess)
    e = cm_device_attribute (cudaDevAttrMultiProcessorCount, &sms);
  if (e != cudaSuccess)
    return cm_status_from_cuda (e);
  if (!coop)
    return CM_ERR_UNSUPPORTED;

  /* whole rows in shared memory when three of them per warp fit, in the
   * largest block for which they do (16-warp blocks of 8-bit samples up
   * to 4,608 a row on sm_90, 8-warp ones beyond); otherwise the chunk
   * staging, in the largest block it fits (devices with 64 KB) */
  e = cm_device_attribute (cudaDevAttrMaxSharedMemoryPerBlockOptin, &optin);
  if (e != cudaSuccess)
    return cm_status_from_cuda (e);
  p->row_padded = (p->width + ROW_CHUNK - 1) / ROW_CHUNK * ROW_CHUNK;
  threads = tuning && tuning->chunked_rows ? 0 :
      fitting_threads (p, true, optin);
  p->whole_rows = threads > 0;
  if (!p->whole_rows)
    threads = fitting_threads (p, false, optin);
  if (threads == 0)
    return CM_ERR_UNSUPPORTED;
  p->threads = threads;
  p->smem = block_smem (p, threads, p->whole_rows);

  /* the variants this plan launches (by erosion and by dilation) */
  for (int v = 0; v < 2; v++) {
    const void *fn = (const void *) recon_kernel_for (p->depth, v == 1,
        p->desc.connectivity == 8, p->whole_rows);

    e = cudaFuncSetAttribute (fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
        (int) p->smem);
    if (e == cudaSuccess)
      e = cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, fn,
          threads, p->smem);
    if (e != cudaSuccess)
      return cm_status_from_cuda (e);
    if (v == 0 || per_sm < per_sm_max)
      per_sm_max = per_sm;
  }
  if (per_sm_max < 1)
    return CM_ERR_UNSUPPORTED;
  if (tuning && tuning->blocks_per_sm > 0 &&
      tuning->blocks_per_sm < per_sm_max)
    per_sm_max = tuning->blocks_per_sm;

  /* warps needed: a row each, and a band of 32 columns each */
  need = ((p->width + 31) / 32) *
      ((p->height + p->band_rows - 1) / p->band_rows);
  if (need < p->height)
    need = p->height;
  need = (need + threads / 32 - 1) / (threads / 32);
  p->blocks = need < per_sm_max * sms ? need : per_sm_max * sms;
  return CM_OK;
}

cm_status
cm_recon_plan_new_tuned (cm_recon_plan ** out, const cm_recon_desc * desc,
    int width, int height, cm_depth depth, const cm_recon_tuning * tuning)
{
  cm_recon_plan *p;
  cm_status st;
  cudaError_t e;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!cm_recon_desc_ok (desc) || !cm_frame_ok (width, height, depth))
    return CM_ERR_INVALID_ARG;
  if (tuning && (tuning->band_rows < 0 || tuning->blocks_per_sm < 0))
    return CM_ERR_INVALID_ARG;

  p = cm_plan_alloc<cm_recon_plan> (desc, width, height, depth);
  if (!p)
    return CM_ERR_NO_MEMORY;
  p->desc.marker.se = NULL;     /* borrowed: the marker plan copies it */
  /* a column band's walk is the longest chain of a pass: short bands for
   * small frames, taller ones where more bands than warps would wait
   * (docs/bench/history.md, reconstruction; the latest band heights are
   * under "A walk fences once") */
  p->band_rows = tuning && tuning->band_rows > 0 ? tuning->band_rows :
      height > 1440 ? 64 : 32;
  /* how far a walk still writing at its band's end goes on: a band (64
   * rows) in tall frames, three (96 rows) in the others; further made
   * the passes longer than it saved them (docs/bench/history.md, "Walks
   * go on past their band while they write") */
  p->walk_extend = (height > 1440 ? 1 : 3) * min (p->band_rows, height);

  st = choose_grid (p, tuning);
  if (st == CM_OK && cm_recon_se_marker (desc)) {
    const cm_morph_desc md = cm_recon_marker_desc (desc);

    st = cm_morph_plan_new (&p->marker_plan, &md, width, height, depth);
  }
  if (st == CM_OK) {
    const size_t bands = (size_t) ((width + 31) / 32) *
        ((height + p->band_rows - 1) / p->band_rows);

    e = cudaMalloc ((void **) &p->d_flags, (FLAG_COUNT + height +
            2 * bands) * sizeof (int));
    if (e == cudaSuccess)
      e = cudaHostAlloc ((void **) &p->h_passes, sizeof (int),
          cudaHostAllocDefault);
    st = cm_status_from_cuda (e);
  }
  if (st != CM_OK) {
    cm_recon_plan_free (p);
    return st;
  }
  *p->h_passes = 0;
  *out = p;
  return CM_OK;
}

cm_status
cm_recon_plan_new (cm_recon_plan ** out, const cm_recon_desc * desc,
    int width, int height, cm_depth depth)
{
  return cm_recon_plan_new_tuned (out, desc, width, height, depth, NULL);
}

int
cm_recon_plan_passes (const cm_recon_plan * p)
{
  return p && p->h_passes ? *(volatile int *) p->h_passes : 0;
}

void
cm_recon_plan_free (cm_recon_plan * p)
{
  if (!p)
    return;
  /* each takes NULL */
  cm_morph_plan_free (p->marker_plan);
  cudaFree (p->d_flags);
  cudaFreeHost (p->h_passes);
  free (p);
}
