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

#include "blobs-stats.cuh"
#include "cm-pdl.cuh"

#define BLOBS_BG 0xffffffffu
#define BLOBS_RANK 0x80000000u

#define TILE_W 128              /* a labelling tile's width: a warp's
                                 * row, four pixels a lane               */
#define OUT_W 32                /* a block row of the output image       */
#define SEG_THREADS 256         /* words of the tile roots' bitmap a
                                 * segment takes, one a thread            */
#define OUT_ROWS 8              /* warps of an output block              */
#define NO_RECORD 0xffffffffu   /* no record to add into               */

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

/* The bitmaps (label_tiles) have a word per 32 pixels of a row, @wpr
 * words a frame row, so that the words come in raster order: the raster
 * index of bit @b of word @w */
static __device__ __forceinline__ uint32_t
word_pixel (uint32_t w, uint32_t b, int width, int wpr)
{
  const uint32_t y = w / (uint32_t) wpr;

  return y * (uint32_t) width + (w - y * (uint32_t) wpr) * 32u + b;
}

/* The record of the tile root at bit @b of a word of tile roots @roots
 * whose first one's record is @first: the tile roots before it in the
 * word come before it */
static __device__ __forceinline__ uint32_t
word_record (uint32_t first, uint32_t roots, uint32_t b)
{
  return first + __popc (roots & ((1u << b) - 1u));
}

static __device__ __forceinline__ bool
blobs_is_fg (uint32_t v, uint32_t threshold, bool invert)
{
  return invert ? v < threshold : v >= threshold;
}

/* ---- union-find: shared memory (a tile) and global (the frame) ----------- */

/* A find that halves the path as it goes (@HALVE): each entry on it gets
 * its grandparent, an ancestor with a smaller index, so walkers that
 * share a long chain (the runs of a tile, the tile roots of one spiral)
 * shorten it for each other. Safe once the unions are over (the runs'
 * finds in a tile, the compression), and while they go on (a tile's
 * unions, the merge): an entry on the path is no root, and a link a
 * union makes on it meanwhile, taking it for a root, is made again by
 * that union, which sees the parent it replaced (unite). Without @HALVE
 * the find only reads. */
template <typename T, bool HALVE = true, int SH = 0>
static __device__ __forceinline__ T
find_root (volatile T *l, T i)
{
  T n;

  while ((n = l[i >> SH]) != i) {
    if (!HALVE) {
      i = n;
      continue;
    }
    const T g = l[n >> SH];

    if (g != n)
      l[i >> SH] = g;
    i = g;
  }
  return i;
}

/* a and b in one set, the smaller root on top, in a tile's shared memory
 * or in the frame's labels (the merge, halving where the plan chooses
 * it; a tile's unions always halve: 8-connected noise builds chains in
 * a tile that every union meeting them walked whole). A link that lost
 * a race (atomicMin found another parent) goes on with what it found:
 * nothing is lost, every overwritten parent is united again (Komura
 * 2015). @SH: entry i of the set is at l[i >> SH] (the wide tiles keep
 * an entry for each run's first pixel only, two of which are never
 * closer than two pixels: blobs-tiles.cuh). */
template <typename T, bool HALVE, int SH = 0>
static __device__ __forceinline__ void
unite (T *l, T a, T b)
{
  for (;;) {
    a = find_root<T, HALVE, SH> (l, a);
    b = find_root<T, HALVE, SH> (l, b);
    if (a == b)
      return;
    if (a > b) {
      const T t = a;

      a = b;
      b = t;
    }
    const T old = atomicMin (&l[b >> SH], a);

    if (old == b)
      return;
    b = old;
  }
}

/* ---- pass 1: each tile labelled in shared memory: blobs-tiles.cuh ---- */

/* ---- pass 2: unions across the tiles' edges ------------------------------ */

/* The union of the sets of @a and @b (each a contact's label entry: its
 * tile root, or what that one points at) when @on, made once for each
 * pair the lanes of @lanes hold: where a tile's edge meets large
 * components, many of its contacts name the same two entries (in
 * 8-connected noise), and each union walks chains in global memory */
template <bool HALVE>
static __device__ __forceinline__ void
unite_once (uint32_t *l, unsigned lanes, bool on, uint32_t a, uint32_t b)
{
  const unsigned long long key = on ?
      (unsigned long long) a << 32 | b : ~0ull;
  const unsigned peers = __match_any_sync (lanes, key);

  if (on && (int) (threadIdx.x & 31) == __ffs (peers) - 1)
    unite<uint32_t, HALVE> (l, a, b);
}

/* A block of TILE_W + tile_rows threads per tile: the first TILE_W take the
 * top row's pixels and their neighbours above, the others the left column's
 * and their neighbours to the left. As inside the tiles, a contact is
 * skipped when other unions join it: along the top row, a vertical contact
 * whose left neighbours (in the same tile) touch too; down the left column,
 * a horizontal contact whose upper neighbours (in the same tile) touch too;
 * a diagonal contact when the straight neighbour or the one beside is
 * foreground. A contact relies only on contacts before it in the same tile,
 * so none is skipped for good. A lane has at most two contacts: the straight
 * one, or for 8-connectivity without it the two diagonals. */
template <bool CONN8, bool HALVE>
static __global__ void
merge_tiles (uint32_t *labels, int width, int height, int tile_rows)
{
  pdl_wait ();                  /* launched early: cm-pdl.cuh */
  const int t = threadIdx.x;
  const int x0 = blockIdx.x * TILE_W, y0 = blockIdx.y * tile_rows;
  const int warp_first = t & ~31;
  const unsigned lanes = (int) blockDim.x - warp_first >= 32 ? 0xffffffffu :
      (1u << ((int) blockDim.x - warp_first)) - 1u;
  uint32_t a = BLOBS_BG, b1 = BLOBS_BG, b2 = BLOBS_BG;
  /* The top row and the left column are one walk along the tile's edge
   * (index @i, from @i0, @n long in the frame), the straight neighbour
   * across it (@across entries back) and the ones before and after along
   * it (@along entries). */
  const bool top = t < TILE_W;
  const int x = top ? x0 + t : x0, y = top ? y0 : y0 + t - TILE_W;
  const int i = top ? x : y, i0 = top ? x0 : y0, n = top ? width : height;
  const uint32_t across = top ? (uint32_t) width : 1u;
  const uint32_t along = top ? 1u : (uint32_t) width;
  const bool in = top ? y > 0 && x < width :
      x > 0 && y < height && t - TILE_W < tile_rows;

  if (in) {
    const uint32_t p = (uint32_t) y * width + x;

    a = labels[p];
    if (a != BLOBS_BG) {
      const uint32_t straight = labels[p - across];
      const bool before = i > 0 && labels[p - along] != BLOBS_BG;
      const uint32_t diag_before = i > 0 ? labels[p - across - along] :
          BLOBS_BG;

      if (straight != BLOBS_BG) {
        if (!(i > i0 && before && diag_before != BLOBS_BG))
          b1 = straight;
      } else if (CONN8) {
        const bool after = i + 1 < n && labels[p + along] != BLOBS_BG;
        const uint32_t diag_after = i + 1 < n ?
            labels[p - across + along] : BLOBS_BG;

        if (!before)
          b1 = diag_before;
        if (!after)
          b2 = diag_after;
      }
    }
  }
  unite_once<HALVE> (labels, lanes, b1 != BLOBS_BG, a, b1);
  if (CONN8)
    unite_once<HALVE> (labels, lanes, b2 != BLOBS_BG, a, b2);
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

/* The place of the @n-th (from 0) set bit of @w, which has more than @n:
 * halves of the window chosen by their counts */
static __device__ __forceinline__ uint32_t
nth_set_bit (uint32_t w, uint32_t n)
{
  uint32_t pos = 0;

  for (uint32_t half = 16; half > 0; half >>= 1) {
    const uint32_t low = __popc (w & ((1u << half) - 1u));

    if (n >= low) {
      n -= low;
      w >>= half;
      pos += half;
    }
  }
  return pos;
}

/* A segment's marks (SEG_THREADS words of a bitmap, a thread each) shared
 * out by their order, consecutive marks to consecutive threads: where
 * words hold many marks, a thread per word went through its word's
 * alone, each of a warp's accesses to another place. The words, and the
 * marks before each (scanned), go to shared memory. */
struct seg_marks
{
  uint32_t before[SEG_THREADS], word[SEG_THREADS];
};

/* The segment's word of mark @j (its index in the segment) and the mark's
 * bit in it: the last word with no more than @j marks before it (a word
 * without marks has its next one's count before it) */
static __device__ __forceinline__ uint32_t
seg_mark (const seg_marks &s, uint32_t j, uint32_t *bit)
{
  uint32_t lo = 0, hi = SEG_THREADS - 1;

  while (lo < hi) {
    const uint32_t mid = (lo + hi + 1) >> 1;

    if (s.before[mid] <= j)
      lo = mid;
    else
      hi = mid - 1;
  }
  *bit = nth_set_bit (s.word[lo], j - s.before[lo]);
  return lo;
}

/* Every thread of the block: its @word's count scanned into @s; the
 * segment's marks in *@total */
static __device__ __forceinline__ void
seg_marks_load (seg_marks &s, uint32_t word, uint32_t *total,
    uint32_t *scratch)
{
  s.before[threadIdx.x] = block_exclusive_scan (__popc (word), total,
      scratch);
  s.word[threadIdx.x] = word;
  __syncthreads ();
}

/* ---- pass 3: the tile roots compressed, the blobs' roots counted -------- */

/* The record of tile root @t (a raster index) */
static __device__ __forceinline__ uint32_t
record_of (const uint32_t *bm, const uint32_t *first, int width, int wpr,
    uint32_t t)
{
  const uint32_t y = t / (uint32_t) width, x = t - y * (uint32_t) width;
  const uint32_t w = y * (uint32_t) wpr + x / 32u;

  return word_record (first[w], bm[w], x % 32u);
}

/* The tile roots are marked in a bitmap by label_tiles (@bm: a word per
 * warp row of a tile, @wpr words a row, so that the words come in raster
 * order), and only they can have parents that are not their own tile
 * root: the merges link tile roots and nothing else. So the compression
 * walks from the tile roots alone, not from every pixel: each points at
 * its blob's root afterwards, so that a pixel finds its blob's root in at
 * most two reads (its tile root, and that one's parent), and its record
 * is added into the root's. A tile root that is its own root is a blob's
 * root: @roots_bm marks those, and a segment of SEG_THREADS words counts
 * them. The segment's tile roots are shared out by their order
 * (seg_marks). The first blob a warp adds into is the block's: its
 * warps add into a record in shared memory, added into the blob's once
 * at the end. A frame's one large blob (8-connected noise, a spiral)
 * took every warp's nine atomics on one record, whose fields share a
 * line and so one L2 slice. */
static __global__ void
__launch_bounds__ (SEG_THREADS)
compress_roots (uint32_t *labels, const uint32_t *bm, const uint32_t *first,
    uint32_t *roots_bm, uint32_t nwords, int width, int wpr,
    blobs_stats st, uint32_t *seg_roots)
{
  __shared__ uint32_t scratch[32];
  __shared__ seg_marks tile_roots;
  __shared__ uint32_t s_first[SEG_THREADS], s_roots[SEG_THREADS];
  __shared__ uint32_t s_hot;
  __shared__ blob_record s_hot_part;
  __shared__ uint32_t s_hot_area;
  pdl_wait ();                  /* launched early: cm-pdl.cuh */
  const uint32_t w = blockIdx.x * SEG_THREADS + threadIdx.x;
  const uint32_t word = w < nwords ? bm[w] : 0;
  uint32_t total;

  s_roots[threadIdx.x] = 0;
  if (threadIdx.x == 0) {
    s_hot = NO_RECORD;
    record_clear (&s_hot_part);
    s_hot_area = 0;
  }
  if (word != 0)
    s_first[threadIdx.x] = first[w];
  seg_marks_load (tile_roots, word, &total, scratch);
  /* the whole block goes round together: a warp's lanes gather below */
  for (uint32_t j0 = 0; j0 < total; j0 += SEG_THREADS) {
    const uint32_t j = j0 + threadIdx.x;
    uint32_t to = NO_RECORD;
    blob_part part;

    if (j < total) {
      uint32_t b;
      const uint32_t i = seg_mark (tile_roots, j, &b);
      const uint32_t t = word_pixel (blockIdx.x * SEG_THREADS + i, b, width,
          wpr);
      const uint32_t r = find_root (labels, t);

      if (r == t) {
        atomicOr (&s_roots[i], 1u << b);
      } else {
        labels[t] = r;
        part = part_load (st.rec, st.area, word_record (s_first[i],
                tile_roots.word[i], b));
        to = record_of (bm, first, width, wpr, r);
      }
    }
    /* the warp's tile roots of one blob added up: one set of atomics */
    const unsigned peers = __match_any_sync (0xffffffffu, to);

    if (to != NO_RECORD) {
      part_gather (peers, part);
      if ((int) (threadIdx.x & 31) == __ffs (peers) - 1) {
        uint32_t hot = *(volatile uint32_t *) &s_hot;

        if (hot == NO_RECORD) {
          hot = atomicCAS (&s_hot, NO_RECORD, to);
          hot = hot == NO_RECORD ? to : hot;
        }
        if (hot == to)
          part_flush (&s_hot_part, &s_hot_area, part);
        else
          part_flush (&st.rec[to], &st.area[to], part);
      }
    }
  }
  __syncthreads ();
  if (threadIdx.x == 0 && s_hot != NO_RECORD)
    part_flush (&st.rec[s_hot], &st.area[s_hot], part_load (&s_hot_part,
            &s_hot_area, 0));
  const uint32_t roots = s_roots[threadIdx.x];

  if (w < nwords)
    roots_bm[w] = roots;
  block_exclusive_scan (__popc (roots), &total, scratch);
  if (threadIdx.x == 0)
    seg_roots[blockIdx.x] = total;
}

/* ---- pass 4: ranks of the roots, their statistics ------------------------ */

/* @seg_roots: the blobs' roots of each segment; a block adds up those
 * before its own (at 4K, about a thousand counts: four loads a thread,
 * where a kernel of its own to scan them cost a launch and its wait),
 * and the last block writes the frame's count into @ctl. A root's entry
 * becomes BLOBS_RANK | its rank (its blob's place in the order); its
 * record, now the whole blob's, stays where it is: the rank keeps the
 * blob's area (what the selection reads of every blob) and the record's
 * index, a warp's stores to consecutive ranks (seg_marks). Copying the
 * whole records to the ranks moved every blob's statistics for the
 * few that are reported. */
static __global__ void
__launch_bounds__ (SEG_THREADS)
rank_roots (uint32_t *labels, const uint32_t *roots_bm, const uint32_t *bm,
    const uint32_t *first, uint32_t nwords, int width, int wpr,
    const uint32_t *seg_roots, blobs_ctl *ctl, const uint32_t *area,
    uint32_t *rank_area, uint32_t *rank_record)
{
  __shared__ uint32_t scratch[32];
  __shared__ seg_marks roots;
  __shared__ uint32_t s_tile_roots[SEG_THREADS], s_first[SEG_THREADS];
  pdl_wait ();                  /* launched early: cm-pdl.cuh */
  const uint32_t w = blockIdx.x * SEG_THREADS + threadIdx.x;
  const uint32_t word = w < nwords ? roots_bm[w] : 0;
  uint32_t total;

  if (word != 0) {
    s_tile_roots[threadIdx.x] = bm[w];
    s_first[threadIdx.x] = first[w];
  }
  seg_marks_load (roots, word, &total, scratch);
  const bool last = blockIdx.x == gridDim.x - 1;

  if (total == 0 && !last)      /* the same in every thread of the block */
    return;
  uint32_t before = 0, offset;

  for (uint32_t s = threadIdx.x; s < blockIdx.x; s += SEG_THREADS)
    before += seg_roots[s];
  block_exclusive_scan (before, &offset, scratch);
  if (last && threadIdx.x == 0)
    ctl->roots = offset + total;

  for (uint32_t j = threadIdx.x; j < total; j += SEG_THREADS) {
    uint32_t b;
    const uint32_t i = seg_mark (roots, j, &b), k = offset + j;
    const uint32_t c = word_record (s_first[i], s_tile_roots[i], b);

    labels[word_pixel (blockIdx.x * SEG_THREADS + i, b, width, wpr)] =
        BLOBS_RANK | k;
    rank_area[k] = area[c];
    rank_record[k] = c;
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
  pdl_wait ();                  /* launched early: cm-pdl.cuh */
  const int x = blockIdx.x * OUT_W + threadIdx.x;
  const int y = blockIdx.y * OUT_ROWS + threadIdx.y;
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
