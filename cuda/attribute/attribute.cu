/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CUDA plans of the area opening and closing (attribute.h), the device
 * twins of attribute-ref.c. After Blin, Carlinet, Lemaitre, Lacassagne &
 * Geraud, "Max-Tree Computation on GPUs" (IEEE TPDS 2022): the max-tree is
 * built by concurrent merges of neighbours (attribute-tree.cuh), first
 * inside tiles of 32 columns in shared memory, then across the tiles'
 * seams in global memory; then
 *
 * - tiles: a warp builds each row's tree (its Cartesian tree), the
 *   vertical and diagonal edges that are needed are queued and their
 *   merges dealt out to the block's threads, and the
 *   tile's own tree measures its components: each pixel keeps its
 *   component's count in the tile, and is marked large when that count
 *   reaches min_area;
 * - seams: the edges between tiles; a merge stops once both sides are
 *   large by their counts, or its two sides' counts add up to min_area
 *   (it marks what it stops at): what it would still join changes no
 *   answer;
 * - nodes: every pixel links straight to its level root, every level root
 *   to its parent's level root; a level root counts its own pixels (one
 *   atomic per run of equal roots in a warp) and its children, and is
 *   marked large when one of its pixels is;
 * - area: from every leaf a thread adds the subtree's area to the parent
 *   and goes on with the parent only when it was the last of the parent's
 *   children to arrive (so each node is added once, without a pass per
 *   level: the chain of last arrivals is as long as the tree is deep).
 *   A node's area and its arrivals share a 64-bit word, so that one
 *   atomic both adds and says who came last, with the sum so far; a
 *   marked node passes on at least min_area;
 * - output: each pixel walks from its level root to the first large node
 *   (area >= min_area, or marked; largeness grows towards the root) and
 *   takes its level, 0 when there is none; the links between small nodes
 *   are halved on the way.
 *
 * What the seams leave apart is a forest, not one tree: its roots are
 * large, so no walk of the output goes past them. The closing is the
 * opening of the inverted levels. Everything lives in the plan; a run is
 * five launches on the caller's stream. */
#include <stdint.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "attribute.h"
#include "cm-cuda.h"
#include "attribute-tree.cuh"

#define TILE_COLS CM_ATTR_TILE_COLS     /* a warp a row                   */
static_assert (TILE_COLS == 32, "attribute-tree.cuh's tile passes take "
    "rows of 32 pixels, a warp");
#define TILE_WARPS 8
#define BLOCK 256

struct cm_attr_plan
{
  cm_attr_desc desc;
  int width, height;
  cm_depth depth;
  int tile_rows;                /* 0: no tiles, every edge in global      */
  int stop_after;
  int *par;                     /* the tree (raster indices)              */
  uint16_t *lev;                /* levels, inverted for the closing       */
  unsigned long long *acc;      /* of level roots: ACC_AREA, ACC_CHILD    */
  uint16_t *count;              /* the pixel's component's count in its
                                 * tile, and the tile's hash             */
  uint8_t *large;               /* the pixel's component is large         */
};

/* ---- building the tree ------------------------------------------------- */

template <typename T>
static __device__ __forceinline__ unsigned
load_level (const uint8_t * src, size_t pitch, int x, int y, unsigned inv)
{
  return ((const T *) (src + (size_t) y * pitch))[x] ^ inv;
}

/* The levels of a tile (TILE_COLS a row) and of the frame, by (x, y) */
struct tile_levels
{
  const uint16_t *lev;

  __device__ unsigned operator () (int x, int y) const
  {
    return lev[y * TILE_COLS + x];
  }
};

struct frame_levels
{
  const uint16_t *lev;
  int w;

  __device__ unsigned operator () (int x, int y) const
  {
    return __ldg (lev + (size_t) y * w + x);
  }
};

/* One tile of TILE_COLS x @tile_rows: levels in, each row's tree by a
 * warp, the needed vertical and diagonal edges merged in shared memory,
 * the links made canonical, the tile's areas from its leaves; out go the
 * links (raster indices), the levels, each pixel's component's count
 * in the tile and whether it is large in the tile alone, and the
 * accumulators of the later passes zeroed */
template <typename T>
static __global__ void
tiles_kernel (const uint8_t * src, size_t pitch, int w, int h,
    unsigned inv, int tile_rows, int forward, unsigned min_area, int *par,
    uint16_t *lev, unsigned long long *acc, uint16_t *count,
    uint8_t * large)
{
  extern __shared__ int smem[];
  int size = TILE_COLS * tile_rows;
  int *s_par = smem;
  unsigned *s_acc = (unsigned *) (smem + size);
  uint16_t *s_lev = (uint16_t *) (s_acc + size);
  /* the merges' queue (attr_tile_needed_down) in the accumulators,
   * which the counts use only after the merges */
  uint16_t *s_queue = (uint16_t *) s_acc;
  __shared__ int s_queued;
  attr_shared_tree t = { s_par, s_lev, NULL, NULL, 0 };
  tile_levels L = { s_lev };
  int x0 = blockIdx.x * TILE_COLS, y0 = blockIdx.y * tile_rows;
  int cols = min (TILE_COLS, w - x0), rows = min (tile_rows, h - y0);
  int lane = threadIdx.x & 31, queued;
  unsigned hash = attr_tile_hash (blockIdx.x, blockIdx.y);

  for (int r = threadIdx.x >> 5; r < tile_rows; r += blockDim.x >> 5) {
    int l = r * TILE_COLS + lane, x = x0 + lane, y = y0 + r;
    unsigned v = 0;

    if (x < w && y < h) {
      size_t g = (size_t) y * w + x;

      v = load_level<T> (src, pitch, x, y, inv);
      lev[g] = (uint16_t) v;
      acc[g] = 0;
    }
    s_lev[l] = (uint16_t) v;
    s_par[l] = r * TILE_COLS + attr_row_parent (v, r < rows ? cols : 0);
  }
  if (threadIdx.x == 0)
    s_queued = 0;
  __syncthreads ();
  /* the pixels with needed down edges queued, a warp's compacted by a
   * ballot (the loop's trip count is the same for a warp's lanes) */
  for (int l = threadIdx.x; l < size; l += blockDim.x) {
    unsigned entry = (l & (TILE_COLS - 1)) < cols &&
        l / TILE_COLS + 1 < rows ? attr_tile_needed_down (L, l,
        forward - 1, cols) : 0;
    unsigned ballot = __ballot_sync (0xffffffffu, entry != 0);
    int base = 0;

    if (lane == 0 && ballot != 0)
      base = atomicAdd (&s_queued, __popc (ballot));
    base = __shfl_sync (0xffffffffu, base, 0);
    if (entry != 0)
      s_queue[base + __popc (ballot & ((1u << lane) - 1))] =
          (uint16_t) entry;
  }
  __syncthreads ();
  queued = s_queued;
  for (int q = threadIdx.x; q < queued; q += blockDim.x)
    attr_tile_merge_entry (t, s_queue[q]);
  __syncthreads ();
  for (int l = threadIdx.x; l < size; l += blockDim.x) {
    s_acc[l] = 0;
    if ((l & (TILE_COLS - 1)) < cols && l / TILE_COLS < rows)
      attr_make_canonical (t, l);
  }
  __syncthreads ();
  /* own pixels and children counted, as nodes_kernel below */
  for (int l = threadIdx.x; l < size; l += blockDim.x)
    if ((l & (TILE_COLS - 1)) < cols && l / TILE_COLS < rows)
      attr_tile_count (s_par, s_lev, s_acc, l);
  __syncthreads ();
  /* areas from the leaves, as area_kernel below */
  for (int l = threadIdx.x; l < size; l += blockDim.x)
    if ((l & (TILE_COLS - 1)) < cols && l / TILE_COLS < rows)
      attr_tile_climb (s_par, s_lev, s_acc, l);
  __syncthreads ();
  for (int l = threadIdx.x; l < size; l += blockDim.x) {
    int lx = l & (TILE_COLS - 1), ly = l / TILE_COLS, p = s_par[l];
    int root = p != l && s_lev[p] == s_lev[l] ? p : l;
    size_t g = (size_t) (y0 + ly) * w + x0 + lx;
    unsigned area = s_acc[root] & TILE_AREA;

    if (lx >= cols || ly >= rows)
      continue;
    par[g] = (y0 + p / TILE_COLS) * w + x0 + (p & (TILE_COLS - 1));
    count[g] = (uint16_t) (area | hash);
    large[g] = area >= min_area;
  }
}

/* Without tiles: levels in, every pixel its own tree of one pixel (all
 * of one tile hash: their counts never add up), large when one pixel
 * is */
template <typename T>
static __global__ void
init_kernel (const uint8_t * src, size_t pitch, int w, int h, unsigned inv,
    unsigned min_area, int *par, uint16_t *lev, unsigned long long *acc,
    uint16_t *count, uint8_t * large)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  size_t g = (size_t) y * w + x;

  if (x >= w)
    return;
  lev[g] = (uint16_t) load_level<T> (src, pitch, x, y, inv);
  par[g] = (int) g;
  acc[g] = 0;
  count[g] = 1;
  large[g] = min_area <= 1;
}

/* The needed forward edges of (x, y) from @e0 on (attr_forward_step),
 * merged in global memory */
static __device__ void
merge_forward (const attr_global_tree & t, int w, int h, int x, int y,
    int e0, int forward)
{
  frame_levels L = { t.lev, w };

  for (int e = e0; e < forward; e++) {
    int dx, dy;

    attr_forward_step (e, &dx, &dy);
    const int nx = x + dx, ny = y + dy;

    if (nx < 0 || nx >= w || ny >= h)
      continue;
    if (e == 0 || attr_edge_needed (L, x, y, dx, 0, w - 1))
      attr_merge (t, y * w + x, ny * w + nx);
  }
}

/* Without tiles: every edge */
static __global__ void
edges_kernel (int w, int h, int forward, unsigned min_area, int *par,
    const uint16_t *lev, const uint16_t *count, uint8_t * large)
{
  attr_global_tree t = { par, lev, count, large, min_area };
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;

  if (x < w)
    merge_forward (t, w, h, x, y, 0, forward);
}

/* The seams, in one launch so that their walks wait on L2 side by side:
 * grid rows [0, @row_seams) are the last rows of every tile row but the
 * frame's last (down and diagonal edges), the others the pixel columns
 * k TILE_COLS - 1 of every row (right edge, down-right diagonal) with the
 * down-left diagonal of the pixel beside them */
static __global__ void
seams_kernel (int w, int h, int tile_rows, int row_seams, int forward,
    unsigned min_area, int *par, const uint16_t *lev, const uint16_t *count,
    uint8_t * large)
{
  attr_global_tree t = { par, lev, count, large, min_area };
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if ((int) blockIdx.y < row_seams) {
    int y = (blockIdx.y + 1) * tile_rows - 1;

    if (i < w)
      merge_forward (t, w, h, i, y, 1, forward);
  } else {
    int x = (blockIdx.y - row_seams + 1) * TILE_COLS - 1;

    if (i >= h)
      return;
    merge_forward (t, w, h, x, i, 0, 1);
    if (forward > 2) {
      merge_forward (t, w, h, x, i, 2, 3);
      merge_forward (t, w, h, x + 1, i, 3, 4);
    }
  }
}

/* ---- nodes, area, output ----------------------------------------------- */

/* Links made canonical, own pixels and children counted, marks handed to
 * the level roots (attr_node) */
static __global__ void
nodes_kernel (int n, int *par, const uint16_t *lev, unsigned long long *acc,
    uint8_t * large)
{
  attr_global_tree t = { par, lev, NULL, large, 0 };
  int p = blockIdx.x * blockDim.x + threadIdx.x, r = -1;
  unsigned same;

  if (p < n)
    r = attr_node (t, acc, p);
  /* one atomic per group of lanes with the same root */
  same = __match_any_sync (0xffffffffu, r);
  if (r >= 0 && (threadIdx.x & 31) == __ffs (same) - 1)
    atomicAdd (acc + r, (unsigned long long) __popc (same));
}

/* From each leaf, areas added into parents (attr_area_climb) */
static __global__ void
area_kernel (int n, const int *par, const uint16_t *lev,
    const uint8_t * large, unsigned long long *acc, unsigned min_area)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;

  if (r < n)
    attr_area_climb (par, lev, large, acc, min_area, r);
}

template <typename T>
static __global__ void
output_kernel (int w, int h, int *par, const uint16_t *lev,
    const unsigned long long *acc, uint8_t * large, unsigned min_area,
    unsigned inv, uint8_t * dst, size_t pitch)
{
  attr_global_tree t = { par, lev, NULL, large, min_area };
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;

  if (x < w)
    ((T *) (dst + (size_t) y * pitch))[x] =
        (T) (attr_output_level (t, acc, min_area, y * w + x) ^ inv);
}

/* ---- the plan ---------------------------------------------------------- */

/* a tile's block: a warp a row, at most TILE_WARPS */
static int
tile_threads (int rows)
{
  return 32 * min (rows, TILE_WARPS);
}

/* a tile's links, accumulators and levels */
static size_t
tile_smem (int rows)
{
  return (size_t) TILE_COLS * rows * (2 * sizeof (int) + sizeof (uint16_t));
}

static cm_status
launch_status (void)
{
  return cm_cuda_status (cudaGetLastError ());
}

/* Rows of the default tile (attribute-tiles.c): the blocks of the base
 * height the device holds at once, from the occupancy API */
static int
default_tile_rows (uint32_t min_area, int width, int height)
{
  int rows = cm_attr_tile_rows_base (min_area), dev, sms = 0, per_sm = 0;

  if (cudaGetDevice (&dev) != cudaSuccess ||
      cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount,
          dev) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm,
          tiles_kernel<uint8_t>, tile_threads (rows),
          tile_smem (rows))
      != cudaSuccess) {
    cudaGetLastError ();
    return rows;
  }
  return cm_attr_tile_rows (min_area, width, height, sms * per_sm);
}

cm_status
cm_attr_plan_new_tuned (cm_attr_plan ** out, const cm_attr_desc * desc,
    int width, int height, cm_depth depth, const cm_attr_tuning * tuning)
{
  cm_attr_plan *p;
  size_t n;
  cudaError_t e;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!cm_attr_desc_ok (desc) || !cm_frame_ok (width, height, depth) ||
      (double) width * height >= 2147483647.0)
    return CM_ERR_INVALID_ARG;
  /* a grid row per frame row */
  if (height > 65535)
    return CM_ERR_UNSUPPORTED;
  if (tuning != NULL && (tuning->tile_rows < 0 ||
          tuning->tile_rows > CM_ATTR_TILE_MAX_ROWS ||
          (tuning->tile_rows & (tuning->tile_rows - 1)) != 0))
    return CM_ERR_INVALID_ARG;
  p = cm_plan_alloc<cm_attr_plan> (desc, width, height, depth);
  if (p == NULL)
    return CM_ERR_NO_MEMORY;
  p->tile_rows = tuning != NULL && tuning->tile_rows > 0 ?
      tuning->tile_rows : default_tile_rows (desc->min_area, width,
      height);
  if (tuning != NULL && tuning->no_tiles)
    p->tile_rows = 0;
  /* a grid row per seam */
  if (p->tile_rows > 0 && (height - 1) / p->tile_rows +
      (width - 1) / TILE_COLS > 65535) {
    free (p);
    return CM_ERR_UNSUPPORTED;
  }
  p->stop_after = tuning != NULL ? tuning->stop_after : 0;
  n = (size_t) width * height;
  e = cudaMalloc ((void **) &p->par, n * sizeof (int));
  if (e == cudaSuccess)
    e = cudaMalloc ((void **) &p->lev, n * sizeof (uint16_t));
  if (e == cudaSuccess)
    e = cudaMalloc ((void **) &p->acc, n * sizeof (unsigned long long));
  if (e == cudaSuccess)
    e = cudaMalloc ((void **) &p->count, n * sizeof (uint16_t));
  if (e == cudaSuccess)
    e = cudaMalloc ((void **) &p->large, n);
  if (e != cudaSuccess) {
    cm_attr_plan_free (p);
    return cm_cuda_status (e);
  }
  *out = p;
  return CM_OK;
}

cm_status
cm_attr_plan_new (cm_attr_plan ** out, const cm_attr_desc * desc,
    int width, int height, cm_depth depth)
{
  return cm_attr_plan_new_tuned (out, desc, width, height, depth, NULL);
}

template <typename T>
static cm_status
run_typed (cm_attr_plan * p, const cm_image * src, const cm_image * dst,
    cudaStream_t s)
{
  int w = p->width, h = p->height, n = w * h;
  int forward = p->desc.connectivity == 8 ? 4 : 2;
  unsigned inv = p->desc.op == CM_ATTR_CLOSE ? cm_depth_max (p->depth) : 0;
  unsigned min_area = p->desc.min_area;
  const uint8_t *in = (const uint8_t *) src->data;
  dim3 rows ((w + BLOCK - 1) / BLOCK, h);
  cm_status st;

  if (p->tile_rows > 0) {
    int tr = p->tile_rows;
    int row_seams = (h - 1) / tr, column_seams = (w - 1) / TILE_COLS;
    dim3 grid ((w + TILE_COLS - 1) / TILE_COLS, (h + tr - 1) / tr);
    size_t smem = tile_smem (tr);

    tiles_kernel<T> <<<grid, tile_threads (tr), smem, s>>> (in,
        src->pitch, w, h, inv, tr, forward, min_area, p->par, p->lev,
        p->acc, p->count, p->large);
    if ((st = launch_status ()) != CM_OK || p->stop_after == 1)
      return st;
    if (row_seams + column_seams > 0)
      seams_kernel <<<dim3 ((max (w, h) + BLOCK - 1) / BLOCK,
              row_seams + column_seams), BLOCK, 0, s>>> (w, h, tr,
          row_seams, forward, min_area, p->par, p->lev, p->count,
          p->large);
  } else {
    init_kernel<T> <<<rows, BLOCK, 0, s>>> (in, src->pitch, w, h, inv,
        min_area, p->par, p->lev, p->acc, p->count, p->large);
    edges_kernel <<<rows, BLOCK, 0, s>>> (w, h, forward, min_area, p->par,
        p->lev, p->count, p->large);
  }
  if (p->stop_after == 2)
    return launch_status ();
  nodes_kernel <<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, s>>> (n, p->par,
      p->lev, p->acc, p->large);
  if (p->stop_after == 3)
    return launch_status ();
  area_kernel <<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, s>>> (n, p->par,
      p->lev, p->large, p->acc, min_area);
  if (p->stop_after == 4)
    return launch_status ();
  output_kernel<T> <<<rows, BLOCK, 0, s>>> (w, h, p->par, p->lev, p->acc,
      p->large, min_area, inv, (uint8_t *) dst->data, dst->pitch);
  return launch_status ();
}

cm_status
cm_attr_plan_run (cm_attr_plan * p, const cm_image * src,
    const cm_image * dst, void *stream)
{
  if (p == NULL || !cm_image_pair_ok (src, dst) ||
      !cm_image_aligned_ok (src) || !cm_image_aligned_ok (dst) ||
      src->width != p->width || src->height != p->height ||
      src->depth != p->depth)
    return CM_ERR_INVALID_ARG;
  if (p->depth == CM_DEPTH_16)
    return run_typed<uint16_t> (p, src, dst, (cudaStream_t) stream);
  return run_typed<uint8_t> (p, src, dst, (cudaStream_t) stream);
}

void
cm_attr_plan_free (cm_attr_plan * p)
{
  if (p == NULL)
    return;
  cudaFree (p->par);
  cudaFree (p->lev);
  cudaFree (p->acc);
  cudaFree (p->count);
  cudaFree (p->large);
  free (p);
}
