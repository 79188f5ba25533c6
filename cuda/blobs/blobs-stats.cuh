/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The statistics kernel of blobs.cu (step 6): every foreground pixel adds
 * itself to its blob's sums, minima and maxima (struct blobs_stats,
 * indexed by the blob's rank). The atomics are what costs: a blob that
 * covers half a 4K frame would take four million of them on the same
 * nine words, which the L2 serialises. So they are aggregated first:
 *
 * - per warp (ACC_WARP): the lanes of one blob among a row's 32 pixels
 *   (__match_any_sync on the rank) reduce in registers and one lane
 *   makes the blob's atomics: one set per blob and row run;
 * - per block (ACC_BLOCK, the default): those warp sums go into a small
 *   hash table in shared memory (open addressing on the rank, a few
 *   probes, shared-memory atomics), flushed to global memory once at the
 *   block's end; a blob that finds no slot goes to global memory at once.
 *   A large blob then costs one set of global atomics per block tile;
 * - none (ACC_PIXEL): one set per pixel, for comparison.
 *
 * A warp's pixels are on one row, so the sum of y is y times the count. */
#pragma once

#include "blobs-label.cuh"

enum
{
  ACC_BLOCK = 0,
  ACC_WARP = 1,
  ACC_PIXEL = 2
};

#define HASH_SLOTS 256          /* a block's table (power of two)          */
#define HASH_PROBES 8
#define ACC_TILE_ROWS 64        /* rows of a block tile: 8 per warp        */
#define HASH_EMPTY 0xffffffffu

/* Sum, minimum and maximum over the lanes of @peers (each lane of it
 * calls them with the same @peers): the sm_80 reductions, or a walk over
 * the lanes before them */
#if __CUDA_ARCH__ >= 800
#define WARP_REDUCE(name, intrinsic, op) \
  static __device__ __forceinline__ uint32_t \
  name (unsigned peers, uint32_t v) \
  { \
    return intrinsic (peers, v); \
  }
#else
#define WARP_REDUCE(name, intrinsic, op) \
  static __device__ __forceinline__ uint32_t \
  name (unsigned peers, uint32_t v) \
  { \
    uint32_t r = v; \
    for (unsigned m = peers; m != 0; m &= m - 1) { \
      const uint32_t o = __shfl_sync (peers, v, __ffs (m) - 1); \
      r = op; \
    } \
    return r; \
  }
#endif
WARP_REDUCE (warp_min, __reduce_min_sync, o < r ? o : r)
WARP_REDUCE (warp_max, __reduce_max_sync, o > r ? o : r)
#if __CUDA_ARCH__ >= 800
WARP_REDUCE (warp_sum, __reduce_add_sync, 0)
#else
static __device__ __forceinline__ uint32_t
warp_sum (unsigned peers, uint32_t v)
{
  uint32_t r = 0;

  for (unsigned m = peers; m != 0; m &= m - 1)
    r += __shfl_sync (peers, v, __ffs (m) - 1);
  return r;
}
#endif
#undef WARP_REDUCE

/* One blob's part of a row (or a pixel) */
struct blob_part
{
  uint32_t n, x0, x1, y, vmin, vmax;
  unsigned long long sx, sy, sv;
};

/* The part into the global statistics of blob @k */
static __device__ __forceinline__ void
add_global (const blobs_stats &st, uint32_t k, const blob_part &p)
{
  atomicAdd (&st.area[k], p.n);
  atomicAdd (&st.sum_x[k], p.sx);
  atomicAdd (&st.sum_y[k], p.sy);
  atomicAdd (&st.sum_v[k], p.sv);
  atomicMin (&st.x0[k], p.x0);
  atomicMax (&st.x1[k], p.x1);
  atomicMax (&st.y1[k], p.y);
  atomicMin (&st.vmin[k], p.vmin);
  atomicMax (&st.vmax[k], p.vmax);
}

/* A block's table in shared memory (struct of arrays) */
struct blob_table
{
  uint32_t key[HASH_SLOTS];
  uint32_t n[HASH_SLOTS], x0[HASH_SLOTS], x1[HASH_SLOTS], y[HASH_SLOTS];
  uint32_t vmin[HASH_SLOTS], vmax[HASH_SLOTS];
  unsigned long long sx[HASH_SLOTS], sy[HASH_SLOTS], sv[HASH_SLOTS];
};

/* The slot of blob @k (taken if free), -1 when the probes find none */
static __device__ __forceinline__ int
table_slot (blob_table &t, uint32_t k)
{
  const uint32_t h = (k * 2654435761u) >> 24;

  for (int i = 0; i < HASH_PROBES; i++) {
    const int s = (int) ((h + i) & (HASH_SLOTS - 1));
    const uint32_t old = atomicCAS (&t.key[s], HASH_EMPTY, k);

    if (old == HASH_EMPTY || old == k)
      return s;
  }
  return -1;
}

static __device__ __forceinline__ void
add_table (blob_table &t, int s, const blob_part &p)
{
  atomicAdd (&t.n[s], p.n);
  atomicAdd (&t.sx[s], p.sx);
  atomicAdd (&t.sy[s], p.sy);
  atomicAdd (&t.sv[s], p.sv);
  atomicMin (&t.x0[s], p.x0);
  atomicMax (&t.x1[s], p.x1);
  atomicMax (&t.y[s], p.y);
  atomicMin (&t.vmin[s], p.vmin);
  atomicMax (&t.vmax[s], p.vmax);
}

/* Pixel (x, y) of a warp's row: the lane that leads its blob's lanes gets
 * their part in *p and its blob in *k, and returns true. Every lane of
 * the warp calls it. */
template <typename T>
static __device__ __forceinline__ bool
row_part (const void *src, size_t pitch, int width, const uint32_t *labels,
    int x, int y, int lane, uint32_t *k, blob_part *p)
{
  const uint32_t l = x < width ? labels[(size_t) y * width + x] : BLOBS_BG;
  const bool fg = l != BLOBS_BG;
  const unsigned active = __ballot_sync (0xffffffffu, fg);

  if (active == 0)
    return false;
  *k = fg ? rank_of (labels, l) : 0;
  /* one blob on the whole row part (most rows of a photograph): no
   * __match_any_sync */
  const uint32_t k0 = __shfl_sync (0xffffffffu, *k, __ffs (active) - 1);
  const bool one = __all_sync (0xffffffffu, !fg || *k == k0);

  if (!fg)
    return false;
  const uint32_t v = blobs_load<T> (src, pitch, x, y);
  const unsigned peers = one ? active : __match_any_sync (active, *k);
  const int first = __ffs (peers) - 1, last = 31 - __clz (peers);

  p->n = __popc (peers);
  p->sx = warp_sum (peers, (uint32_t) x);
  p->sv = warp_sum (peers, v);
  p->vmin = warp_min (peers, v);
  p->vmax = warp_max (peers, v);
  p->x0 = (uint32_t) (x - lane + first);
  p->x1 = (uint32_t) (x - lane + last);
  p->y = (uint32_t) y;
  p->sy = (unsigned long long) y * p->n;
  return lane == first;
}

/* ACC_WARP and ACC_PIXEL: a block of ACC_ROWS rows of 32 pixels */
template <typename T, bool WARP>
static __global__ void
__launch_bounds__ (TILE_W * ACC_ROWS)
accumulate_rows (const void *src, size_t pitch, int width, int height,
    const uint32_t *labels, blobs_stats st)
{
  const int lane = threadIdx.x;
  const int x = blockIdx.x * TILE_W + lane;
  const int y = blockIdx.y * ACC_ROWS + threadIdx.y;
  blob_part p;
  uint32_t k;

  if (y >= height)
    return;
  if (WARP) {
    if (row_part<T> (src, pitch, width, labels, x, y, lane, &k, &p))
      add_global (st, k, p);
    return;
  }
  const uint32_t l = x < width ? labels[(size_t) y * width + x] : BLOBS_BG;

  if (l == BLOBS_BG)
    return;
  k = rank_of (labels, l);
  p.n = 1;
  p.x0 = p.x1 = (uint32_t) x;
  p.y = (uint32_t) y;
  p.vmin = p.vmax = blobs_load<T> (src, pitch, x, y);
  p.sx = (unsigned long long) x;
  p.sy = (unsigned long long) y;
  p.sv = p.vmin;
  add_global (st, k, p);
}

/* ACC_BLOCK: a block of ACC_ROWS warps over a tile of 32 x ACC_TILE_ROWS
 * pixels, each warp every ACC_ROWS-th row of it */
template <typename T>
static __global__ void
__launch_bounds__ (TILE_W * ACC_ROWS)
accumulate_tiles (const void *src, size_t pitch, int width, int height,
    const uint32_t *labels, blobs_stats st)
{
  __shared__ blob_table t;
  const int lane = threadIdx.x;
  const int tid = threadIdx.y * TILE_W + lane;
  const int x = blockIdx.x * TILE_W + lane;
  const int y0 = blockIdx.y * ACC_TILE_ROWS;

  for (int s = tid; s < HASH_SLOTS; s += TILE_W * ACC_ROWS) {
    t.key[s] = HASH_EMPTY;
    t.n[s] = 0;
    t.x0[s] = 0xffffffffu;
    t.x1[s] = 0;
    t.y[s] = 0;
    t.vmin[s] = 0xffffffffu;
    t.vmax[s] = 0;
    t.sx[s] = 0;
    t.sy[s] = 0;
    t.sv[s] = 0;
  }
  __syncthreads ();
  for (int r = threadIdx.y; r < ACC_TILE_ROWS && y0 + r < height;
      r += ACC_ROWS) {
    blob_part p;
    uint32_t k;

    if (row_part<T> (src, pitch, width, labels, x, y0 + r, lane, &k, &p)) {
      const int s = table_slot (t, k);

      if (s >= 0)
        add_table (t, s, p);
      else
        add_global (st, k, p);
    }
  }
  __syncthreads ();
  for (int s = tid; s < HASH_SLOTS; s += TILE_W * ACC_ROWS) {
    blob_part p;

    if (t.key[s] == HASH_EMPTY)
      continue;
    p.n = t.n[s];
    p.x0 = t.x0[s];
    p.x1 = t.x1[s];
    p.y = t.y[s];
    p.vmin = t.vmin[s];
    p.vmax = t.vmax[s];
    p.sx = t.sx[s];
    p.sy = t.sy[s];
    p.sv = t.sv[s];
    add_global (st, t.key[s], p);
  }
}
