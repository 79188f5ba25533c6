/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The labelling kernels of blobs.cu: block-based union-find over pixels
 * (Playne & Hawick, "A New Algorithm for Parallel Connected-Component
 * Labelling on GPUs", IEEE TPDS 29(6), 2018; Allegretti, Bolelli & Grana,
 * "Optimized Block-Based Algorithms to Label Connected Components on
 * GPUs", IEEE TPDS 31(2), 2020), its unions by atomic minimum as in
 * Komura's label equivalence.
 *
 * A pixel's label is its raster index p = y * width + x; a union links
 * the larger root under the smaller, so the root of a blob is its smallest
 * index: its first pixel in raster order. The labels array is packed
 * (width * height entries); background is BLOBS_BG. Once ranked, a
 * root's entry is BLOBS_RANK | its rank among the roots (the blob's
 * number in the order, from 0), a tile root's the root's index, and every
 * other pixel's still its tile root's index. */
#pragma once

#include <stdint.h>
#include <cuda_runtime.h>

#define BLOBS_BG 0xffffffffu
#define BLOBS_RANK 0x80000000u

#define TILE_W 32               /* a labelling tile's width: one warp     */
#define SEG_THREADS 256         /* words of the tile roots' bitmap a
                                 * segment takes, one a thread            */
#define ACC_ROWS 8              /* warps of a row block (statistics, output) */

/* The statistics of the blobs, indexed by rank (struct of arrays) */
struct blobs_stats
{
  uint32_t *area, *x0, *x1, *y0, *y1, *vmin, *vmax;
  unsigned long long *sum_x, *sum_y, *sum_v;
};

/* Counters of a frame, zeroed before it */
struct blobs_ctl
{
  unsigned long long foreground;
  uint32_t roots;               /* blobs before the filters               */
  uint32_t total;               /* passing                                */
  uint32_t count;               /* reported                               */
  uint32_t cut, ties;           /* reported: area > cut, or the first
                                 * @ties of area == cut                   */
  uint32_t candidates;          /* passing areas of the top bin           */
};

template <typename T>
static __device__ __forceinline__ T
blobs_load (const void *base, size_t pitch, int x, int y)
{
  return ((const T *) ((const char *) base + (size_t) y * pitch))[x];
}

static __device__ __forceinline__ bool
blobs_is_fg (uint32_t v, uint32_t threshold, bool invert)
{
  return invert ? v < threshold : v >= threshold;
}

/* ---- union-find: shared memory (a tile) and global (the frame) ----------- */

static __device__ __forceinline__ int
find_shared (volatile int *s, int i)
{
  int n;

  while ((n = s[i]) != i)
    i = n;
  return i;
}

/* a and b in one set, the smaller root on top. A link that lost a race
 * (atomicMin found another parent) goes on with what it found: nothing
 * is lost, every overwritten parent is united again (Komura 2015). */
static __device__ __forceinline__ void
unite_shared (int *s, int a, int b)
{
  for (;;) {
    a = find_shared (s, a);
    b = find_shared (s, b);
    if (a == b)
      return;
    if (a > b) {
      const int t = a;

      a = b;
      b = t;
    }
    const int old = atomicMin (&s[b], a);

    if (old == b)
      return;
    b = old;
  }
}

static __device__ __forceinline__ uint32_t
find_global (const volatile uint32_t *l, uint32_t i)
{
  uint32_t n;

  while ((n = l[i]) != i)
    i = n;
  return i;
}

static __device__ __forceinline__ void
unite_global (uint32_t *l, uint32_t a, uint32_t b)
{
  for (;;) {
    a = find_global (l, a);
    b = find_global (l, b);
    if (a == b)
      return;
    if (a > b) {
      const uint32_t t = a;

      a = b;
      b = t;
    }
    const uint32_t old = atomicMin (&l[b], a);

    if (old == b)
      return;
    b = old;
  }
}

/* ---- pass 1: each tile labelled in shared memory ------------------------ */

/* A block of 32 x blockDim.y threads, a pixel each, a warp a row of the
 * tile. Each row's runs of foreground come from the warp's ballot: a
 * pixel's first label is its run's first pixel (the horizontal unions,
 * free). Then one union per segment where a run touches a run of the row
 * above (the first pixel of each overlap), and for 8-connectivity the
 * diagonal contacts that no overlap or run already joins (the pixel above
 * and the one beside both in the background); every other contact is in
 * one of those sets already. A union per pixel instead made chains of a
 * thousand links in a full tile, walked by every pixel. Last, one find
 * per run, shared by its pixels: each pixel's label is its tile root's
 * raster index. The tile roots are marked in @bm (a word per warp row,
 * @wpr words a frame row). Counts the foreground. */
template <typename T, bool CONN8>
static __global__ void
label_tiles (const void *src, size_t pitch, int width, int height,
    uint32_t threshold, bool invert, uint32_t *labels, uint32_t *bm, int wpr,
    blobs_ctl *ctl)
{
  extern __shared__ int tile[];
  __shared__ unsigned row_mask[32];
  const int tx = threadIdx.x, ty = threadIdx.y, i = ty * TILE_W + tx;
  const int x = blockIdx.x * TILE_W + tx, y = blockIdx.y * blockDim.y + ty;
  const bool in = x < width && y < height;
  const bool fg = in && blobs_is_fg (blobs_load<T> (src, pitch, x, y),
      threshold, invert);
  const unsigned m = __ballot_sync (0xffffffffu, fg);
  /* the run's first lane: above the last background lane before this */
  const unsigned gaps = ~m & ((1u << tx) - 1u);
  const int start = gaps ? 32 - __clz (gaps) : 0;
  int n;

  tile[i] = fg ? ty * TILE_W + start : -1;
  if (tx == 0)
    row_mask[ty] = m;
  n = __syncthreads_count (fg);
  if (n > 0) {                  /* the same in every thread of the block */
    if (ty > 0 && m != 0) {     /* the same in every lane of the warp */
      const unsigned up = row_mask[ty - 1];
      const unsigned both = m & up;
      const unsigned seg = both & ~(both << 1);

      if ((seg >> tx) & 1u)
        unite_shared (tile, i, i - TILE_W);
      if (CONN8) {
        /* up-left (right) in the foreground, up and left (right) not */
        const unsigned dl = m & (up << 1) & ~up & ~(m << 1);
        const unsigned dr = m & (up >> 1) & ~up & ~(m >> 1);

        if ((dl >> tx) & 1u)
          unite_shared (tile, i, i - TILE_W - 1);
        if ((dr >> tx) & 1u)
          unite_shared (tile, i, i - TILE_W + 1);
      }
    }
    __syncthreads ();
  }
  /* the run's first lane finds the root for the run */
  int r = fg && tx == start ? find_shared (tile, i) : 0;

  r = __shfl_sync (0xffffffffu, r, start);
  const unsigned tile_roots = __ballot_sync (0xffffffffu, fg && r == i);

  if (tx == 0 && y < height)
    bm[(size_t) y * wpr + blockIdx.x] = tile_roots;
  if (in)
    labels[(size_t) y * width + x] = fg ? (uint32_t) (blockIdx.y *
        blockDim.y + r / TILE_W) * (uint32_t) width + blockIdx.x * TILE_W +
        r % TILE_W : BLOBS_BG;
  if (i == 0 && n > 0)
    atomicAdd (&ctl->foreground, (unsigned long long) n);
}

/* ---- pass 2: unions across the tiles' edges ------------------------------ */

/* A block of 32 + tile_rows threads per tile: the first 32 take the top
 * row's pixels and their neighbours above, the others the left column's
 * and their neighbours to the left. As inside the tiles, a contact is
 * skipped when other unions join it: along the top row, a vertical
 * contact whose left neighbours (in the same tile) touch too; down the
 * left column, a horizontal contact whose upper neighbours (in the same
 * tile) touch too; a diagonal contact when the straight neighbour or the
 * one beside is foreground. A contact relies only on contacts before it
 * in the same tile, so none is skipped for good. */
template <bool CONN8>
static __global__ void
merge_tiles (uint32_t *labels, int width, int height, int tile_rows)
{
  const int t = threadIdx.x;
  const int x0 = blockIdx.x * TILE_W, y0 = blockIdx.y * tile_rows;

  if (t < TILE_W) {
    const int x = x0 + t, y = y0;

    if (y == 0 || x >= width)
      return;
    const uint32_t p = (uint32_t) y * width + x;

    if (labels[p] == BLOBS_BG)
      return;
    const bool up = labels[p - width] != BLOBS_BG;
    const bool left = x > 0 && labels[p - 1] != BLOBS_BG;
    const bool up_left = x > 0 && labels[p - width - 1] != BLOBS_BG;

    if (up && !(t > 0 && left && up_left))
      unite_global (labels, p, p - width);
    if (CONN8 && !up) {
      const bool right = x + 1 < width && labels[p + 1] != BLOBS_BG;
      const bool up_right = x + 1 < width &&
          labels[p - width + 1] != BLOBS_BG;

      if (up_left && !left)
        unite_global (labels, p, p - width - 1);
      if (up_right && !right)
        unite_global (labels, p, p - width + 1);
    }
  } else {
    const int x = x0, y = y0 + t - TILE_W;

    if (x == 0 || y >= height || t - TILE_W >= tile_rows)
      return;
    const uint32_t p = (uint32_t) y * width + x;

    if (labels[p] == BLOBS_BG)
      return;
    const bool left = labels[p - 1] != BLOBS_BG;
    const bool up = y > 0 && labels[p - width] != BLOBS_BG;
    const bool up_left = y > 0 && labels[p - width - 1] != BLOBS_BG;

    if (left && !(y > y0 && up && up_left))
      unite_global (labels, p, p - 1);
    if (CONN8 && !left) {
      const bool down = y + 1 < height && labels[p + width] != BLOBS_BG;
      const bool down_left = y + 1 < height &&
          labels[p + width - 1] != BLOBS_BG;

      if (up_left && !up)
        unite_global (labels, p, p - width - 1);
      if (down_left && !down)
        unite_global (labels, p, p + width - 1);
    }
  }
}

/* ---- block scans --------------------------------------------------------- */

/* The exclusive prefix of @v over the block (in thread order) and the
 * block's sum in *total; @scratch: 32 words of shared memory. Every
 * thread of the block calls it. */
static __device__ __forceinline__ uint32_t
block_exclusive_scan (uint32_t v, uint32_t *total, uint32_t *scratch)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int nwarps = (blockDim.x + 31) >> 5;
  uint32_t x = v;

  for (int o = 1; o < 32; o <<= 1) {
    const uint32_t y = __shfl_up_sync (0xffffffffu, x, o);

    if (lane >= o)
      x += y;
  }
  if (lane == 31)
    scratch[warp] = x;
  __syncthreads ();
  if (warp == 0) {
    uint32_t s = lane < nwarps ? scratch[lane] : 0;

    for (int o = 1; o < 32; o <<= 1) {
      const uint32_t y = __shfl_up_sync (0xffffffffu, s, o);

      if (lane >= o)
        s += y;
    }
    scratch[lane] = s;
  }
  __syncthreads ();
  const uint32_t before = warp > 0 ? scratch[warp - 1] : 0;

  *total = scratch[nwarps - 1];
  __syncthreads ();
  return before + x - v;
}

/* ---- pass 3: the tile roots compressed, the blobs' roots counted -------- */

/* The tile roots are marked in a bitmap by label_tiles (@bm: a word per
 * warp row of a tile, ceil (width / 32) words a row, so that the words
 * come in raster order), and only they can have parents that are not
 * their own tile root: the merges link tile roots and nothing else. So
 * the compression walks from the tile roots alone, not from every pixel:
 * each points at its blob's root afterwards (and so does every entry on
 * its way: the first walker shortens a chain for the others). A tile root
 * that is its own root is a blob's root: its word keeps it, the others'
 * bits are cleared, and a segment of SEG_THREADS words counts them. A
 * pixel then finds its blob's root in at most two reads: its tile root,
 * and that root's parent. */
static __global__ void
__launch_bounds__ (SEG_THREADS)
compress_roots (uint32_t *labels, uint32_t *bm, uint32_t nwords, int width,
    int wpr, uint32_t *seg_roots)
{
  __shared__ uint32_t scratch[32];
  const uint32_t w = blockIdx.x * SEG_THREADS + threadIdx.x;
  const uint32_t word = w < nwords ? bm[w] : 0;
  uint32_t roots = 0, total;

  if (word != 0) {
    const uint32_t y = w / (uint32_t) wpr;
    const uint32_t base = y * (uint32_t) width + (w - y * wpr) * 32u;

    for (uint32_t m = word; m != 0; m &= m - 1) {
      const uint32_t b = __ffs (m) - 1, t = base + b;
      const uint32_t r = find_global (labels, t);

      if (r == t) {
        roots |= 1u << b;
        continue;
      }
      for (uint32_t c = t, next; c != r; c = next) {
        next = labels[c];
        labels[c] = r;
      }
    }
    bm[w] = roots;
  }
  block_exclusive_scan (__popc (roots), &total, scratch);
  if (threadIdx.x == 0)
    seg_roots[blockIdx.x] = total;
}

/* ---- pass 5: ranks of the roots, statistics initialised ------------------ */

/* @seg_offset: the roots before each segment (scanned). A root's entry
 * becomes BLOBS_RANK | its rank (its blob's place in the order); its
 * statistics start from its own pixel, the top-left of its bounding
 * box's first row. */
static __global__ void
__launch_bounds__ (SEG_THREADS)
rank_roots (uint32_t *labels, const uint32_t *bm, uint32_t nwords,
    int width, int wpr, const uint32_t *seg_offset, blobs_stats st)
{
  __shared__ uint32_t scratch[32];
  const uint32_t w = blockIdx.x * SEG_THREADS + threadIdx.x;
  const uint32_t word = w < nwords ? bm[w] : 0;
  uint32_t total;
  const uint32_t before = seg_offset[blockIdx.x] +
      block_exclusive_scan (__popc (word), &total, scratch);

  if (word == 0)
    return;
  const uint32_t y = w / (uint32_t) wpr, x0 = (w - y * wpr) * 32u;

  for (uint32_t m = word; m != 0; m &= m - 1) {
    const uint32_t b = __ffs (m) - 1;
    const uint32_t k = before + __popc (word & ((1u << b) - 1u));
    const uint32_t x = x0 + b;

    labels[y * (uint32_t) width + x] = BLOBS_RANK | k;
    st.area[k] = 0;
    st.sum_x[k] = 0;
    st.sum_y[k] = 0;
    st.sum_v[k] = 0;
    st.x0[k] = x;
    st.x1[k] = x;
    st.y0[k] = y;
    st.y1[k] = y;
    st.vmin[k] = 0xffffffffu;
    st.vmax[k] = 0;
  }
}

/* a foreground pixel's rank, from its label entry @l: the entry of a
 * blob's root, or a tile root, which is one or points at one */
static __device__ __forceinline__ uint32_t
rank_of (const uint32_t *labels, uint32_t l)
{
  while (!(l & BLOBS_RANK))
    l = labels[l];
  return l & ~BLOBS_RANK;
}

/* ---- the output image ---------------------------------------------------- */

/* @number: each blob's number among the passing ones (0: dropped). A
 * mask is @maxv where a passing blob is, labels its number (at most
 * 65535). */
template <typename TO, bool MASK>
static __global__ void
write_output (void *dst, size_t pitch, int width, int height,
    const uint32_t *labels, const uint32_t *number, uint32_t maxv)
{
  const int x = blockIdx.x * TILE_W + threadIdx.x;
  const int y = blockIdx.y * ACC_ROWS + threadIdx.y;
  uint32_t out = 0;

  if (x >= width || y >= height)
    return;
  const uint32_t l = labels[(size_t) y * width + x];

  if (l != BLOBS_BG) {
    const uint32_t nb = number[rank_of (labels, l)];

    out = MASK ? (nb ? maxv : 0) : (nb > 65535u ? 65535u : nb);
  }
  ((TO *) ((char *) dst + (size_t) y * pitch))[x] = (TO) out;
}
