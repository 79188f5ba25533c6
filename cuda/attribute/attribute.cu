/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CUDA plans of the area opening and closing (attribute.h), the device
 * twins of attribute-ref.c. After Blin, Carlinet, Lemaitre, Lacassagne &
 * Geraud, "Max-Tree Computation on GPUs" (IEEE TPDS 2022): the max-tree is
 * built by concurrent merges of neighbours, first inside tiles in shared
 * memory (rows by a stack, then walks joining pairs of rows), then
 * across the tiles' seams in global memory (walks along them), a walk
 * being one thread that merges a border's edges in turn
 * (attribute-tree.cuh); then
 *
 * - nodes: every pixel links straight to its level root, every level root
 *   to its parent's level root; a level root counts its own pixels (one
 *   atomic per run of equal roots in a warp) and its children;
 * - area: from every leaf a thread adds the subtree's area to the parent
 *   and goes on with the parent only when it was the last of the parent's
 *   children to arrive (so each node is added once, without a pass per
 *   level: the chain of last arrivals is as long as the tree is deep).
 *   A node's area and its arrivals share a 64-bit word, so that one
 *   atomic both adds and says who came last, with the sum so far;
 * - output: each pixel walks from its level root to the first node of
 *   area >= min_area (area grows towards the root) and takes its level,
 *   0 when there is none; the links between small nodes are halved on
 *   the way.
 *
 * The closing is the opening of the inverted levels. Everything lives in
 * the plan; a run is five launches on the caller's stream (six with
 * every edge its own merge, the default; the tuning border_walks
 * walks instead). */
#include <stdint.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "attribute.h"
#include "cm-cuda.h"
#include "attribute-tree.cuh"

#define TILE_COLS_DEFAULT 32
#define TILE_ROWS_DEFAULT 32
#define TILE_MAX_PIXELS 8192    /* 48 KiB of shared memory                */
#define TILE_WALK 16            /* columns a walk joins in a tile         */
#define SEAM_WALK_DEFAULT 8     /* pixels a walk joins on a seam          */
#define WALK_BLOCK 64
#define TILE_BLOCK 64           /* threads of a tile's block (walks)      */
#define BLOCK 256

struct cm_attr_plan
{
  cm_attr_desc desc;
  int width, height;
  cm_depth depth;
  int tile_cols;
  int tile_rows;                /* 0: no tiles, every edge in global      */
  int edge_merges;              /* not the tuning border_walks           */
  int seam_walk;
  int stop_after;
  int *par;                     /* the tree (raster indices)              */
  uint16_t *lev;                /* levels, inverted for the closing       */
  unsigned long long *acc;      /* of level roots: ACC_AREA, ACC_CHILD    */
};

/* ---- building the tree ------------------------------------------------- */

template <typename T>
static __device__ __forceinline__ unsigned
load_level (const uint8_t * src, size_t pitch, int x, int y, unsigned inv)
{
  return ((const T *) (src + (size_t) y * pitch))[x] ^ inv;
}

/* The forward edges of (x, y) to (x + dx, y + dy): right, down, and for 8
 * neighbours down-right and down-left */
#define N_FORWARD 4
__constant__ int fwd_dx[N_FORWARD] = { 1, 0, 1, -1 };
__constant__ int fwd_dy[N_FORWARD] = { 0, 1, 1, 1 };

/* One tile of tile_cols x tile_rows (powers of two): levels in, the
 * tile's tree built in shared memory, written out with every link
 * pointing at a level root; the accumulators of the later passes zeroed.
 * The tree: each row's by a stack (one thread a row), then the rows
 * joined pairwise by walks of TILE_WALK columns (attr_tile_walk); or,
 * with @edge_merges, every edge merged by its own thread, rows first */
template <typename T>
static __global__ void
tiles_kernel (const uint8_t * src, size_t pitch, int w, int h,
    unsigned inv, int tile_cols, int tile_rows, int forward, int edge_merges,
    int *par, uint16_t *lev, unsigned long long *acc)
{
  extern __shared__ int smem[];
  int size = tile_cols * tile_rows, cshift = __ffs (tile_cols) - 1;
  int *s_par = smem;
  uint16_t *s_lev = (uint16_t *) (smem + size);
  attr_shared_tree t = { s_par, s_lev };
  int x0 = blockIdx.x * tile_cols, y0 = blockIdx.y * tile_rows;

  for (int l = threadIdx.x; l < size; l += blockDim.x) {
    int x = x0 + (l & (tile_cols - 1)), y = y0 + (l >> cshift);

    s_par[l] = l;
    s_lev[l] = 0;
    if (x < w && y < h) {
      unsigned v = load_level<T> (src, pitch, x, y, inv);
      size_t g = (size_t) y * w + x;

      s_lev[l] = (uint16_t) v;
      lev[g] = (uint16_t) v;
      acc[g] = 0;
    }
  }
  __syncthreads ();
  if (!edge_merges) {
    int cols = min (tile_cols, w - x0), rows = min (tile_rows, h - y0);
    int walks = (rows - 1) * ((cols + TILE_WALK - 1) / TILE_WALK);

    for (int r = threadIdx.x; r < rows; r += blockDim.x)
      attr_row_tree (s_par, s_lev, r * tile_cols, cols);
    __syncthreads ();
    for (int j = threadIdx.x; j < walks; j += blockDim.x)
      attr_tile_walk (t, j, tile_cols, cols, TILE_WALK, forward > 2);
    __syncthreads ();
  }
  for (int e = 0; edge_merges && e < forward; e++) {
    int dx = fwd_dx[e], dy = fwd_dy[e];

    for (int l = threadIdx.x; l < size; l += blockDim.x) {
      int lx = l & (tile_cols - 1), ly = l >> cshift;
      int nlx = lx + dx, nly = ly + dy;

      if (x0 + lx < w && y0 + ly < h && nlx >= 0 && nlx < tile_cols &&
          nly < tile_rows && x0 + nlx < w && y0 + nly < h)
        attr_merge (t, l, (nly << cshift) + nlx);
    }
    __syncthreads ();
  }
  for (int l = threadIdx.x; l < size; l += blockDim.x) {
    int x = x0 + (l & (tile_cols - 1)), y = y0 + (l >> cshift), r, to;

    if (x >= w || y >= h)
      continue;
    r = attr_level_root (t, l);
    if (r == l) {
      int p = t.link (l);

      to = p == l ? l : attr_level_root (t, p);
    } else {
      to = r;
    }
    par[(size_t) y * w + x] = (y0 + (to >> cshift)) * w + x0 +
        (to & (tile_cols - 1));
  }
}

/* Without tiles: levels in, every pixel its own tree */
template <typename T>
static __global__ void
init_kernel (const uint8_t * src, size_t pitch, int w, int h, unsigned inv,
    int *par, uint16_t *lev, unsigned long long *acc)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  size_t g = (size_t) y * w + x;

  if (x >= w)
    return;
  lev[g] = (uint16_t) load_level<T> (src, pitch, x, y, inv);
  par[g] = (int) g;
  acc[g] = 0;
}

/* The edges from (x, y) that leave its tile (all of them when
 * @tile_rows is 0), merged in global memory */
static __global__ void
seams_kernel (int w, int h, int tile_cols, int tile_rows, int forward,
    int *par, const uint16_t *lev)
{
  attr_global_tree t = { par, lev };
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;

  if (x >= w)
    return;
  for (int e = 0; e < forward; e++) {
    int nx = x + fwd_dx[e], ny = y + fwd_dy[e];

    if (nx < 0 || nx >= w || ny >= h)
      continue;
    if (tile_rows > 0 && nx / tile_cols == x / tile_cols &&
        ny / tile_rows == y / tile_rows)
      continue;
    attr_merge (t, y * w + x, ny * w + nx);
  }
}

/* The rows of a seam: the last row of each tile (the first row of the
 * next is reached by its down edges) */
static __global__ void
row_seams_kernel (int w, int h, int tile_rows, int forward, int *par,
    const uint16_t *lev)
{
  attr_global_tree t = { par, lev };
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = (blockIdx.y + 1) * tile_rows - 1;

  if (x >= w || y + 1 >= h)
    return;
  for (int e = 1; e < forward; e++) {
    int nx = x + fwd_dx[e];

    if (nx >= 0 && nx < w)
      attr_merge (t, y * w + x, (y + 1) * w + nx);
  }
}

/* The columns of a seam: pixel columns k tile_cols - 1 (right and
 * down-right edges) and k tile_cols (down-left edges), every row */
static __global__ void
column_seams_kernel (int w, int h, int tile_cols, int forward, int *par,
    const uint16_t *lev)
{
  attr_global_tree t = { par, lev };
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  int x = (blockIdx.y + 1) * tile_cols - 1;

  if (y >= h || x + 1 >= w)
    return;
  attr_merge (t, y * w + x, y * w + x + 1);
  if (forward > 2 && y + 1 < h) {
    attr_merge (t, y * w + x, (y + 1) * w + x + 1);
    attr_merge (t, y * w + x + 1, (y + 1) * w + x);
  }
}

/* The seams by walks of @seg pixels (attribute-tree.cuh), a thread a
 * walk, all in one launch so that the walks along rows and along columns
 * wait on L2 side by side: grid rows [0, @row_seams) are the seams below
 * every tile row but the last, the others those right of every tile
 * column but the last */
static __global__ void
seam_walks_kernel (int w, int h, int tile_cols, int tile_rows,
    int row_seams, int seg, int forward, int *par, const uint16_t *lev)
{
  attr_global_tree t = { par, lev };
  int s = blockIdx.x * blockDim.x + threadIdx.x;

  if ((int) blockIdx.y < row_seams)
    attr_row_seam_walk (t, s, (blockIdx.y + 1) * tile_rows - 1, w, seg,
        forward > 2);
  else
    attr_column_seam_walk (t, s, (blockIdx.y - row_seams + 1) * tile_cols -
        1, w, h, seg, forward > 2);
}

/* ---- nodes, area, output ----------------------------------------------- */

/* A level root's accumulator: its area in bits 0-30; bit 31 set once it
 * has a child (leaves must be told apart from nodes whose children have
 * all arrived); in the high word minus the children whose area has not
 * been added yet */
#define ACC_AREA 0x7fffffffull
#define ACC_HAS_CHILD 0x80000000ull
#define ACC_CHILD (1ull << 32)

/* Links made canonical (a pixel to its level root, a level root to its
 * parent's), own pixels and children counted */
static __global__ void
nodes_kernel (int n, int *par, const uint16_t *lev, unsigned long long *acc)
{
  attr_global_tree t = { par, lev };
  int p = blockIdx.x * blockDim.x + threadIdx.x, r = -1;
  unsigned same;

  if (p < n) {
    r = attr_level_root (t, p);
    if (r != p) {
      /* most pixels link to their level root already */
      if (t.link (p) != r)
        t.set_link (p, r);
    } else {
      int q = t.link (p);

      if (q != p) {
        int pr = attr_level_root (t, q);

        t.set_link (p, pr);
        /* only the first child sees 0 in the high word */
        if ((atomicAdd (acc + pr, 0ull - ACC_CHILD) >> 32) == 0)
          atomicOr (acc + pr, ACC_HAS_CHILD);
      }
    }
  }
  /* one atomic per group of lanes with the same root */
  same = __match_any_sync (0xffffffffu, r);
  if (r >= 0 && (threadIdx.x & 31) == __ffs (same) - 1)
    atomicAdd (acc + r, (unsigned long long) __popc (same));
}

static __device__ __forceinline__ bool
is_level_root (const int *par, const uint16_t *lev, int p, int q)
{
  return q == p || lev[q] != lev[p];
}

/* From each leaf, areas added into parents; the last child to arrive at a
 * parent (the one whose add brings the high word to 0) carries on with
 * it. The parent's link is loaded before the add, not after. */
static __global__ void
area_kernel (int n, const int *par, const uint16_t *lev,
    unsigned long long *acc)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x, up;
  unsigned long long a;

  if (r >= n)
    return;
  up = par[r];
  a = acc[r];
  if (!is_level_root (par, lev, r, up) || (a & ACC_HAS_CHILD))
    return;
  for (;;) {
    unsigned long long old;
    int next;

    if (up == r)
      return;
    next = __ldg (par + up);
    old = atomicAdd (acc + up, ACC_CHILD | a);
    if ((old >> 32) != 0xffffffffull)
      return;
    /* the last child: the parent's area is now complete */
    a = (old & ACC_AREA) + a;
    r = up;
    up = next;
  }
}

template <typename T>
static __global__ void
output_kernel (int w, int h, int *par, const uint16_t *lev,
    const unsigned long long *acc, unsigned min_area, unsigned inv,
    uint8_t * dst, size_t pitch)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  int p = y * w + x, t, q;
  unsigned v;

  if (x >= w)
    return;
  q = par[p];
  t = is_level_root (par, lev, p, q) ? p : q;
  for (;;) {
    int u, uu;

    if ((acc[t] & ACC_AREA) >= min_area) {
      v = lev[t];
      break;
    }
    u = *(volatile int *) (par + t);
    if (u == t) {
      v = 0;
      break;
    }
    /* halving: both small, the next large node is the same from either */
    uu = *(volatile int *) (par + u);
    if (uu != u && (acc[u] & ACC_AREA) < min_area)
      *(volatile int *) (par + t) = uu;
    t = u;
  }
  ((T *) (dst + (size_t) y * pitch))[x] = (T) (v ^ inv);
}

/* ---- the plan ---------------------------------------------------------- */

static cm_status
launch_status (void)
{
  return cm_cuda_status (cudaGetLastError ());
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
  if (tuning != NULL && (tuning->tile_rows < 0 || tuning->tile_cols < 0 ||
          (tuning->tile_rows & (tuning->tile_rows - 1)) != 0 ||
          (tuning->tile_cols & (tuning->tile_cols - 1)) != 0 ||
          (tuning->tile_cols > 0 && tuning->tile_cols < 32) ||
          (size_t) (tuning->tile_rows ? tuning->tile_rows : TILE_ROWS_DEFAULT)
          * (tuning->tile_cols ? tuning->tile_cols : TILE_COLS_DEFAULT) >
          TILE_MAX_PIXELS))
    return CM_ERR_INVALID_ARG;
  p = cm_plan_alloc<cm_attr_plan> (desc, width, height, depth);
  if (p == NULL)
    return CM_ERR_NO_MEMORY;
  p->tile_rows = tuning != NULL && tuning->tile_rows > 0 ?
      tuning->tile_rows : TILE_ROWS_DEFAULT;
  p->tile_cols = tuning != NULL && tuning->tile_cols > 0 ?
      tuning->tile_cols : TILE_COLS_DEFAULT;
  if (tuning != NULL && tuning->no_tiles)
    p->tile_rows = 0;
  /* a grid row per seam */
  if (p->tile_rows > 0 && (height - 1) / p->tile_rows +
      (width - 1) / p->tile_cols > 65535) {
    free (p);
    return CM_ERR_UNSUPPORTED;
  }
  p->stop_after = tuning != NULL ? tuning->stop_after : 0;
  /* walks along the borders measured slower than an edge a thread on
   * every photograph (docs/design.md): a tuning only */
  p->edge_merges = tuning != NULL ? !tuning->border_walks : 1;
  p->seam_walk = tuning != NULL && tuning->seam_walk > 0 ?
      tuning->seam_walk : SEAM_WALK_DEFAULT;
  n = (size_t) width * height;
  e = cudaMalloc ((void **) &p->par, n * sizeof (int));
  if (e == cudaSuccess)
    e = cudaMalloc ((void **) &p->lev, n * sizeof (uint16_t));
  if (e == cudaSuccess)
    e = cudaMalloc ((void **) &p->acc, n * sizeof (unsigned long long));
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
  const uint8_t *in = (const uint8_t *) src->data;
  dim3 rows ((w + BLOCK - 1) / BLOCK, h);
  cm_status st;

  if (p->tile_rows > 0) {
    int tr = p->tile_rows, tc = p->tile_cols;
    /* walks keep a thread a row busy, so small blocks: more tiles an SM */
    int threads = min (tr * tc, p->edge_merges ? BLOCK : TILE_BLOCK);
    dim3 grid ((w + tc - 1) / tc, (h + tr - 1) / tr);
    size_t smem = (size_t) tc * tr * (sizeof (int) + sizeof (uint16_t));

    int sw = p->seam_walk;

    tiles_kernel<T> <<<grid, threads, smem, s>>> (in, src->pitch, w, h,
        inv, tc, tr, forward, p->edge_merges, p->par, p->lev, p->acc);
    if ((st = launch_status ()) != CM_OK || p->stop_after == 1)
      return st;
    int row_seams = (h - 1) / tr, column_seams = (w - 1) / tc;

    if (p->edge_merges) {
      if (row_seams > 0)
        row_seams_kernel <<<dim3 ((w + BLOCK - 1) / BLOCK, row_seams),
            BLOCK, 0, s>>> (w, h, tr, forward, p->par, p->lev);
      if (column_seams > 0)
        column_seams_kernel <<<dim3 ((h + BLOCK - 1) / BLOCK, column_seams),
            BLOCK, 0, s>>> (w, h, tc, forward, p->par, p->lev);
    } else if (row_seams + column_seams > 0) {
      int walks = (max (w, h) + sw - 1) / sw;

      seam_walks_kernel <<<dim3 ((walks + WALK_BLOCK - 1) / WALK_BLOCK,
              row_seams + column_seams), WALK_BLOCK, 0, s>>> (w, h, tc, tr,
          row_seams, sw, forward, p->par, p->lev);
    }
  } else {
    init_kernel<T> <<<rows, BLOCK, 0, s>>> (in, src->pitch, w, h, inv,
        p->par, p->lev, p->acc);
    seams_kernel <<<rows, BLOCK, 0, s>>> (w, h, 0, 0, forward, p->par,
        p->lev);
  }
  if (p->stop_after == 2)
    return launch_status ();
  nodes_kernel <<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, s>>> (n, p->par,
      p->lev, p->acc);
  if (p->stop_after == 3)
    return launch_status ();
  area_kernel <<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, s>>> (n, p->par,
      p->lev, p->acc);
  if (p->stop_after == 4)
    return launch_status ();
  output_kernel<T> <<<rows, BLOCK, 0, s>>> (w, h, p->par, p->lev, p->acc,
      p->desc.min_area, inv, (uint8_t *) dst->data, dst->pitch);
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
  free (p);
}
