/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pass 1 of blobs.cu: each tile of TILE_W x tile_rows pixels labelled in
 * shared memory, a warp a row and four pixels a lane.
 *
 * Each row's runs of foreground come from bit operations on the row's
 * mask (four 32-bit words in shared memory, each made by the eight lanes
 * that hold its pixels): a pixel's run is its first label (the
 * horizontal unions, free). Then one union per segment where a run
 * touches a run of the row above (the first pixel of each overlap), and
 * for 8-connectivity the diagonal contacts that no overlap or run
 * already joins (the pixel above and the one beside both in the
 * background); every other contact is in one of those sets already. A
 * union per pixel instead made chains of a thousand links in a full
 * tile, walked by every pixel. Last, one find per run: each pixel's
 * label entry is its tile root's raster index.
 *
 * Only a run's first pixel takes part in the unions, and no two first
 * pixels of a tile are closer than two pixels (a run, then at least one
 * background pixel; rows of TILE_W, an even width, keep them apart
 * across rows), so the parents and the slots are kept for each two
 * pixels (index p >> 1): TILE_W / 2 x tile_rows entries each.
 *
 * Each run's statistics go to its tile root's slot in shared memory (one
 * set of atomics a run). A lane adds up the pieces of runs inside its
 * four pixels before any shuffle; the shuffles that join a run's pieces
 * across lanes are a row's. Each tile root writes its slot out as its
 * record, in its tile's part of the records (tile_records entries, the
 * most tile roots a tile can hold: no counter shared by the blocks,
 * which serialised them). The tile roots are marked in @bm (a word per
 * 32 pixels of a row, @wpr words a frame row) and @first gives the
 * record of the word's first one. Counts the foreground.
 *
 * Why four pixels a lane: with one (32-wide tiles, until 2026-12-07) a
 * lane carried a pixel through the ballot, the runs' shuffles, the
 * unions and the stores, so that every step's instructions were paid
 * once per pixel; here the samples are loaded four at once and the
 * labels stored four at once, and the tiles' edges, which the merge
 * walks, are a quarter as long across a row (docs/design.md). */
#pragma once

#include "blobs-label.cuh"

#define TILE_WORDS (TILE_W / 32)        /* mask words of a tile row       */
#define TILE_ROWS_MAX 16        /* the tallest tile (shared memory)       */
#define TILE_SLOTS_WORDS 10     /* shared words each two pixels: the
                                 * parent and nine statistics             */

/* The most tile roots (components) a tile of TILE_W x @rows can hold:
 * every other pixel of every other row, or a checkerboard */
static __host__ __device__ __forceinline__ uint32_t
tile_records (bool conn8, int rows)
{
  return conn8 ? (uint32_t) (TILE_W / 2) * (uint32_t) ((rows + 1) / 2) :
      (uint32_t) (TILE_W / 2 * rows);
}

/* The first column of the run through foreground column @c of a tile row
 * (@row: its TILE_WORDS mask words) */
static __device__ __forceinline__ int
row_run_first (const uint32_t *row, int c)
{
  int k = c >> 5;
  uint32_t gaps = ~row[k] & ((1u << (c & 31)) - 1u);

  while (gaps == 0 && k > 0)
    gaps = ~row[--k];
  return gaps ? 32 * k + 32 - __clz (gaps) : 0;
}

/* The last column of the run through foreground column @c */
static __device__ __forceinline__ int
row_run_last (const uint32_t *row, int c)
{
  int k = c >> 5;
  uint32_t ahead = ~row[k] & ~((2u << (c & 31)) - 1u);

  while (ahead == 0 && k < TILE_WORDS - 1)
    ahead = ~row[++k];
  return ahead ? 32 * k + __ffs (ahead) - 2 : TILE_W - 1;
}

/* A lane's four label entries, at once where they are aligned */
static __device__ __forceinline__ void
store_labels4 (uint32_t *labels, int width, int x, int y,
    const uint32_t l[4])
{
  uint32_t *p = labels + (size_t) y * width + x;

  if (x + 3 < width && ((uintptr_t) p & 15u) == 0) {
    *(uint4 *) p = make_uint4 (l[0], l[1], l[2], l[3]);
    return;
  }
#pragma unroll
  for (int j = 0; j < 4; j++)
    if (x + j < width)
      p[j] = l[j];
}

/* A lane's four samples (0 outside the frame), at once where aligned */
template <typename T>
static __device__ __forceinline__ void
load4 (const void *src, size_t pitch, int width, int x, int y,
    uint32_t v[4])
{
  const T *row = (const T *) ((const char *) src + (size_t) y * pitch);

  if (x + 3 < width && ((uintptr_t) (row + x) & (4 * sizeof (T) - 1)) == 0) {
    if (sizeof (T) == 1) {
      const uint32_t q = *(const uint32_t *) (row + x);

#pragma unroll
      for (int j = 0; j < 4; j++)
        v[j] = (q >> (8 * j)) & 0xffu;
    } else {
      const uint2 q = *(const uint2 *) (row + x);

      v[0] = q.x & 0xffffu;
      v[1] = q.x >> 16;
      v[2] = q.y & 0xffffu;
      v[3] = q.y >> 16;
    }
    return;
  }
#pragma unroll
  for (int j = 0; j < 4; j++)
    v[j] = x + j < width ? row[x + j] : 0;
}

/* The word of the 8 lanes of a lane's group (its four bits @bits at its
 * place in the word): a 32-pixel word of a tile row */
static __device__ __forceinline__ uint32_t
group_word (unsigned bits, int b0)
{
  uint32_t w = bits << b0;

  w |= __shfl_xor_sync (0xffffffffu, w, 1);
  w |= __shfl_xor_sync (0xffffffffu, w, 2);
  w |= __shfl_xor_sync (0xffffffffu, w, 4);
  return w;
}

/* A block of 32 x tile_rows threads (tile_rows <= TILE_ROWS_MAX); lane
 * tx takes columns 4 tx ... 4 tx + 3 of its warp's row. Dynamic shared
 * memory: TILE_SLOTS_WORDS x TILE_W / 2 x tile_rows words. The bounds
 * hold it to 32 registers, so that a full SM's threads fit: the block's
 * warps wait for its slowest row at the barriers, and other blocks' warps
 * fill that wait (docs/design.md). */
template <typename T, bool CONN8>
static __global__ void
__launch_bounds__ (32 * TILE_ROWS_MAX, 2048 / (32 * TILE_ROWS_MAX))
label_tiles (const void *src, size_t pitch, int width, int height,
    uint32_t threshold, bool invert, uint32_t *labels, uint32_t *bm,
    uint32_t *first, int wpr, blobs_stats st, blobs_ctl *ctl)
{
  extern __shared__ int tile[];
  __shared__ uint32_t s_rows[TILE_ROWS_MAX * TILE_WORDS];
  __shared__ uint32_t s_cnt[TILE_ROWS_MAX * TILE_WORDS];
  const unsigned FULL = 0xffffffffu;
  const int tx = threadIdx.x, ty = threadIdx.y, rows = blockDim.y;
  const int half = TILE_W / 2 * rows;
  int *par = tile;
  uint32_t *s_n = (uint32_t *) tile + half, *s_sx = s_n + half;
  uint32_t *s_sy = s_sx + half, *s_sv = s_sy + half, *s_x0 = s_sv + half;
  uint32_t *s_x1 = s_x0 + half, *s_y1 = s_x1 + half, *s_lo = s_y1 + half;
  uint32_t *s_hi = s_lo + half;
  const int x0 = blockIdx.x * TILE_W, y0 = blockIdx.y * rows;
  const int c0 = 4 * tx, x = x0 + c0, y = y0 + ty;
  const int k = tx >> 3, b0 = c0 & 31, prow = ty * TILE_W;
  const bool row_in = y < height;
  uint32_t v[4] = { 0, 0, 0, 0 };
  unsigned f = 0;

  if (row_in) {
    load4<T> (src, pitch, width, x, y, v);
#pragma unroll
    for (int j = 0; j < 4; j++)
      if (x + j < width && blobs_is_fg (v[j], threshold, invert))
        f |= 1u << j;
  }
  const uint32_t word = group_word (f, b0);

  if ((tx & 7) == 0)
    s_rows[ty * TILE_WORDS + k] = word;
  /* the columns beside the lane's four (none past the tile's edges: the
   * merge joins across them) */
  const unsigned f_left = __shfl_up_sync (FULL, f, 1);
  const unsigned f_right = __shfl_down_sync (FULL, f, 1);
  const unsigned left = tx > 0 ? (f_left >> 3) & 1u : 0u;
  const unsigned right = tx < 31 ? f_right & 1u : 0u;
  /* runs starting and ending in the lane (bit j: column c0 + j) */
  const unsigned starts = f & ~((f << 1) | left) & 0xfu;
  const unsigned ends = f & ~((f >> 1) | (right << 3)) & 0xfu;

  for (unsigned s = starts; s != 0; s &= s - 1) {
    const int p = prow + c0 + __ffs (s) - 1, e = p >> 1;

    par[e] = p;
    s_n[e] = 0;
    s_sx[e] = 0;
    s_sy[e] = 0;
    s_sv[e] = 0;
    s_x0[e] = TILE_W;
    s_x1[e] = 0;
    s_y1[e] = 0;
    s_lo[e] = 0xffffffffu;
    s_hi[e] = 0;
  }
  if (!__syncthreads_or (f != 0)) {    /* the same in the whole block */
    const uint32_t bg[4] = { BLOBS_BG, BLOBS_BG, BLOBS_BG, BLOBS_BG };

    if (row_in) {
      store_labels4 (labels, width, x, y, bg);
      if ((tx & 7) == 0 && (int) blockIdx.x * TILE_WORDS + k < wpr)
        bm[(size_t) y * wpr + blockIdx.x * TILE_WORDS + k] = 0;
    }
    return;
  }
  if (ty == 0) {
    uint32_t n = 0;

    for (int q = tx; q < rows * TILE_WORDS; q += 32)
      n += __popc (s_rows[q]);
    n = warp_sum (FULL, n);
    if (tx == 0)
      atomicAdd (&ctl->foreground, (unsigned long long) n);
  }
  const uint32_t *mrow = s_rows + ty * TILE_WORDS;
  /* the first column of the run through column 0 (when it is in one),
   * the last of the run through column 3 */
  const int s0 = (f & 1u) ? (left ? row_run_first (mrow, c0) : c0) : 0;
  const int e3 = (f & 8u) ? (right ? row_run_last (mrow, c0 + 3) :
      c0 + 3) : 0;
  /* the first column of pixel j's run */
  auto start_of = [&] (int j) -> int {
    const unsigned s = starts & ((2u << j) - 1u);

    return s ? c0 + 31 - __clz (s) : s0;
  };

  if (ty > 0 && f != 0) {
    const uint32_t *urow = mrow - TILE_WORDS;
    const uint32_t uk = urow[k];
    const unsigned u4 = (uk >> b0) & 0xfu;
    const unsigned uleft = c0 > 0 ? (b0 ? uk >> (b0 - 1) :
        urow[k - 1] >> 31) & 1u : 0u;
    const unsigned uright = c0 + 4 < TILE_W ? (b0 + 4 < 32 ?
        uk >> (b0 + 4) : urow[k + 1]) & 1u : 0u;
    const unsigned both = f & u4;
    /* the first pixel of each overlap with a run above */
    const unsigned seg = both & ~((both << 1) | (left & uleft)) & 0xfu;
    unsigned dl = 0, dr = 0;

    if (CONN8) {
      /* bit j of these: column c0 + j - 1 */
      const unsigned uwin = uleft | u4 << 1 | uright << 5;
      const unsigned win = left | f << 1 | right << 5;

      /* up-left (right) in the foreground, up and left (right) not */
      dl = f & uwin & ~u4 & ~win & 0xfu;
      dr = f & (uwin >> 2) & ~u4 & ~(win >> 2) & 0xfu;
    }
    for (unsigned c = seg | dl | dr; c != 0; c &= c - 1) {
      const int j = __ffs (c) - 1, a = prow + start_of (j);
      const int up = prow - TILE_W;

      if ((seg >> j) & 1u) {
        unite<int, true, 1> (par, a, up + row_run_first (urow, c0 + j));
      } else {
        if ((dl >> j) & 1u)
          unite<int, true, 1> (par, a, up + row_run_first (urow,
                  c0 + j - 1));
        if ((dr >> j) & 1u)
          unite<int, true, 1> (par, a, up + row_run_first (urow,
                  c0 + j + 1));
      }
    }
  }
  __syncthreads ();
  /* the roots of the (at most two) runs starting in the lane; a run
   * from further left takes its root from the lane where it starts */
  const unsigned rest = starts & (starts - 1u);
  const int sa = starts ? __ffs (starts) - 1 : 0;
  const int sb = rest ? __ffs (rest) - 1 : 0;
  const int ra = starts ? find_root<int, true, 1> (par, prow + c0 + sa) : 0;
  const int rb = rest ? find_root<int, true, 1> (par, prow + c0 + sb) : 0;
  const int r_from = __shfl_sync (FULL, rest ? rb : ra,
      (f & 1u) && left ? s0 >> 2 : tx);
  uint32_t lab[4];

#pragma unroll
  for (int j = 0; j < 4; j++) {
    const unsigned s = starts & ((2u << j) - 1u);
    const int r = s == 0 ? r_from : (s & (s - 1u)) ? rb : ra;

    lab[j] = (f >> j) & 1u ? (uint32_t) (y0 + r / TILE_W) * (uint32_t) width +
        (uint32_t) (x0 + (r & (TILE_W - 1))) : BLOBS_BG;
  }
  if (row_in)
    store_labels4 (labels, width, x, y, lab);

  /* each run's sum, and its maximum and minimum packed in the halves of
   * a word (the maximum and the complement's maximum, which one maximum
   * by halves takes: __vmaxu2): the lane's pieces first (the run from
   * further left, the runs starting here), then the pieces from the
   * lanes to the right. After the steps by 1, 2, 4, 8 and 16 a lane
   * holds its run's pieces from itself to the run's last lane. */
  uint32_t s_left = 0, m_left = 0, s_a = 0, m_a = 0, s_b = 0, m_b = 0;

#pragma unroll
  for (int j = 0; j < 4; j++)
    if ((f >> j) & 1u) {
      const int id = __popc (starts & ((2u << j) - 1u));
      const uint32_t m = v[j] | (0xffffu - v[j]) << 16;

      if (id == 0) {
        s_left += v[j];
        m_left = __vmaxu2 (m_left, m);
      } else if (id == 1) {
        s_a += v[j];
        m_a = __vmaxu2 (m_a, m);
      } else {
        s_b += v[j];
        m_b = __vmaxu2 (m_b, m);
      }
    }
  const bool cont = (f & 8u) && right;  /* the last run goes on right */
  /* lanes whose piece 0 goes on right reach to the run's last lane */
  const int ext = f == 0xfu && left && right ? e3 >> 2 : tx;
  uint32_t xs = s_left, xm = m_left;

  for (int o = 1; o < 32; o <<= 1) {
    const uint32_t so = __shfl_down_sync (FULL, xs, o);
    const uint32_t mo = __shfl_down_sync (FULL, xm, o);

    if (tx + o <= ext) {
      xs += so;
      xm = __vmaxu2 (xm, mo);
    }
  }
  const uint32_t ns = __shfl_down_sync (FULL, xs, 1);
  const uint32_t nm = __shfl_down_sync (FULL, xm, 1);

  if (cont && rest) {
    s_b += ns;
    m_b = __vmaxu2 (m_b, nm);
  } else if (cont && starts) {
    s_a += ns;
    m_a = __vmaxu2 (m_a, nm);
  }
  /* each run starting here into its root's slot */
  auto add_run = [&] (int r, int s, uint32_t sv, uint32_t m) {
    const unsigned e_bits = ends >> s;
    const uint32_t sc = (uint32_t) (c0 + s);
    const uint32_t ec = e_bits ? sc + __ffs (e_bits) - 1 : (uint32_t) e3;
    const uint32_t len = ec - sc + 1, slot = (uint32_t) r >> 1;

    atomicAdd (&s_n[slot], len);
    atomicAdd (&s_sx[slot], len * sc + len * (len - 1) / 2);
    atomicAdd (&s_sy[slot], len * (uint32_t) ty);
    atomicAdd (&s_sv[slot], sv);
    atomicMin (&s_x0[slot], sc);
    atomicMax (&s_x1[slot], ec);
    atomicMax (&s_y1[slot], (uint32_t) ty);
    atomicMin (&s_lo[slot], 0xffffu - (m >> 16));
    atomicMax (&s_hi[slot], m & 0xffffu);
  };

  if (starts)
    add_run (ra, sa, s_a, m_a);
  if (rest)
    add_run (rb, sb, s_b, m_b);
  /* the tile roots: runs whose first pixel is their root */
  const unsigned root_bits =
      (starts && ra == prow + c0 + sa ? 1u << sa : 0u) |
      (rest && rb == prow + c0 + sb ? 1u << sb : 0u);
  const uint32_t roots_word = group_word (root_bits, b0);

  if ((tx & 7) == 0)
    s_cnt[ty * TILE_WORDS + k] = __popc (roots_word);
  __syncthreads ();
  /* the tile's records: its words' one after another, in raster order */
  const int idx = ty * TILE_WORDS + k;
  uint32_t before = 0;

  for (int c = 0; c < ty * TILE_WORDS; c += 32)
    before += warp_sum (FULL, c + tx < ty * TILE_WORDS ? s_cnt[c + tx] : 0);
  for (int q = ty * TILE_WORDS; q < idx; q++)
    before += s_cnt[q];
  const uint32_t word_first = (blockIdx.y * gridDim.x + blockIdx.x) *
      tile_records (CONN8, rows) + before;

  if ((tx & 7) == 0 && row_in && (int) blockIdx.x * TILE_WORDS + k < wpr) {
    const size_t w = (size_t) y * wpr + blockIdx.x * TILE_WORDS + k;

    bm[w] = roots_word;
    first[w] = word_first;
  }
  for (unsigned rb_bits = root_bits; rb_bits != 0; rb_bits &= rb_bits - 1) {
    const int j = __ffs (rb_bits) - 1, slot = (prow + c0 + j) >> 1;
    const uint32_t c = word_record (word_first, roots_word, b0 + j);
    const uint32_t cnt = s_n[slot];
    blob_record r;

    r.sum_x = s_sx[slot] + (unsigned long long) cnt * x0;
    r.sum_y = s_sy[slot] + (unsigned long long) cnt * y0;
    r.sum_v = s_sv[slot];
    r.x0 = x0 + s_x0[slot];
    r.x1 = x0 + s_x1[slot];
    r.y0 = y;
    r.y1 = y0 + s_y1[slot];
    r.vmin = s_lo[slot];
    r.vmax = s_hi[slot];
    st.rec[c] = r;
    st.area[c] = cnt;
  }
}
