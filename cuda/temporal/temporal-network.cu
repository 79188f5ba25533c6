/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Temporal percentile of small windows: the window's samples held in
 * registers and sorted by a network, the rank read off.
 *
 *  - A thread takes 4 neighbouring samples of a row; they travel as two
 *    words of two 16-bit lanes (8-bit samples widened), so that one
 *    __vminu2 / __vmaxu2 (a single VIMNMX.U16x2 on sm_90, where the 8-bit
 *    __vminu4 takes about six) does a compare-exchange for two samples.
 *  - The network is Batcher's merge exchange (Knuth, TAOCP vol. 3,
 *    5.2.2, Algorithm M) for exactly C inputs, generated at compile time;
 *    a window of n < C fills the rest with the maximum, which sorts above
 *    every sample and never reaches ranks 0 .. n - 1.
 *  - The rank is a run-time value (the percentile is a property, and the
 *    window grows after a reset), read off the sorted registers by
 *    selects; for the median of odd windows up to 31 the rank is a
 *    template constant and the compiler drops every compare-exchange that
 *    does not lead to it (a pruned selection network, as in cudamedian).
 *  - The current frame comes from src and is written to its ring slot in
 *    the same pass; the other n - 1 samples are read from the ring, whose
 *    rows are 512-byte aligned and padded, so ring words are whole. */
#include <utility>

#include "temporal-impl.cuh"
#include "temporal.h"

/* ---- the network, generated at compile time ---------------------------- */

struct ce_list
{
  short i[256], j[256];
  int n;
};

/* Algorithm M's compare-exchanges for N inputs, in order */
static constexpr ce_list
merge_exchange (int N)
{
  ce_list L {};
  int t = 0;

  if (N < 2)
    return L;
  while ((1 << t) < N)
    t++;
  for (int p = 1 << (t - 1); p > 0; p >>= 1) {
    int q = 1 << (t - 1), r = 0, d = p;

    for (;;) {
      for (int i = 0; i < N - d; i++)
        if ((i & p) == r) {
          L.i[L.n] = (short) i;
          L.j[L.n] = (short) (i + d);
          L.n++;
        }
      if (q == p)
        break;
      d = q - p;
      q >>= 1;
      r = p;
    }
  }
  return L;
}

template <int N>
struct net_of
{
  static constexpr ce_list list = merge_exchange (N);
};

/* compare-exchange I of the network of N inputs, as constants */
template <int N, int I>
struct ce_at
{
  static constexpr int i = net_of<N>::list.i[I];
  static constexpr int j = net_of<N>::list.j[I];
};

static __device__ __forceinline__ void
ce (uint32_t & a, uint32_t & b)
{
  const uint32_t lo = __vminu2 (a, b);

  b = __vmaxu2 (a, b);
  a = lo;
}

template <int N, size_t... I>
static __device__ __forceinline__ void
sort_words (uint32_t (&a)[N], uint32_t (&b)[N], std::index_sequence<I...>)
{
  ((ce (a[ce_at<N, I>::i], a[ce_at<N, I>::j]),
          ce (b[ce_at<N, I>::i], b[ce_at<N, I>::j])), ...);
}

/* ---- four samples as two words of 16-bit lanes -------------------------- */

/* @valid (1 .. 4) samples at p, any alignment of a sample; lanes past
 * valid are 0 */
template <int BPP>
static __device__ __forceinline__ void
load_quad (const uint8_t * p, int valid, uint32_t & a, uint32_t & b)
{
  if (BPP == 1) {
    uint32_t w = 0;

    if (valid == 4 && ((uintptr_t) p & 3) == 0)
      w = *(const uint32_t *) p;
    else
      for (int l = 0; l < valid; l++)
        w |= (uint32_t) p[l] << (8 * l);
    a = __byte_perm (w, 0, 0x4140);
    b = __byte_perm (w, 0, 0x4342);
  } else {
    const uint16_t *s = (const uint16_t *) p;

    if (valid == 4 && ((uintptr_t) p & 7) == 0) {
      const uint2 w = *(const uint2 *) p;

      a = w.x;
      b = w.y;
    } else {
      uint32_t v[4] = { 0, 0, 0, 0 };

      for (int l = 0; l < valid; l++)
        v[l] = s[l];
      a = v[0] | v[1] << 16;
      b = v[2] | v[3] << 16;
    }
  }
}

template <int BPP>
static __device__ __forceinline__ void
store_quad (uint8_t * p, int valid, uint32_t a, uint32_t b)
{
  if (BPP == 1) {
    const uint32_t w = __byte_perm (a, b, 0x6420);

    if (valid == 4 && ((uintptr_t) p & 3) == 0)
      *(uint32_t *) p = w;
    else
      for (int l = 0; l < valid; l++)
        p[l] = (uint8_t) (w >> (8 * l));
  } else {
    uint16_t *s = (uint16_t *) p;

    if (valid == 4 && ((uintptr_t) p & 7) == 0)
      *(uint2 *) p = make_uint2 (a, b);
    else {
      const uint32_t v[4] = { a & 0xffff, a >> 16, b & 0xffff, b >> 16 };

      for (int l = 0; l < valid; l++)
        s[l] = (uint16_t) v[l];
    }
  }
}

/* a whole quad of a ring row (aligned, inside the padded row) */
template <int BPP>
static __device__ __forceinline__ void
load_ring (const uint8_t * p, uint32_t & a, uint32_t & b)
{
  if (BPP == 1) {
    const uint32_t w = __ldg ((const unsigned int *) p);

    a = __byte_perm (w, 0, 0x4140);
    b = __byte_perm (w, 0, 0x4342);
  } else {
    const uint2 w = __ldg ((const uint2 *) p);

    a = w.x;
    b = w.y;
  }
}

template <int BPP>
static __device__ __forceinline__ void
store_ring (uint8_t * p, uint32_t a, uint32_t b)
{
  if (BPP == 1)
    *(uint32_t *) p = __byte_perm (a, b, 0x6420);
  else
    *(uint2 *) p = make_uint2 (a, b);
}

/* lanes (16-bit halves of a, b) of the samples x .. x + 3 in the alpha
 * channel */
static __device__ __forceinline__ void
alpha_masks (const temporal_args & t, int x, uint32_t & ma, uint32_t & mb)
{
  const int c0 = x % t.channels;
  uint32_t m[4];

  for (int l = 0; l < 4; l++)
    m[l] = (c0 + l) % t.channels == t.alpha ? 0xffffu : 0u;
  ma = m[0] | m[1] << 16;
  mb = m[2] | m[3] << 16;
}

/* ---- the kernel ------------------------------------------------------- */

#define QUADS_X 64              /* a block: 64 quads of 4 rows */
#define ROWS_Y 4

/* C inputs; K >= 0: the rank, a constant (pruned network), K < 0: t.k */
template <int C, int K, int BPP>
__global__ void __launch_bounds__ (QUADS_X * ROWS_Y)
temporal_network_kernel (temporal_args t)
{
  const int x = 4 * (blockIdx.x * QUADS_X + threadIdx.x);
  const int y = blockIdx.y * ROWS_Y + threadIdx.y;
  uint32_t a[C], b[C];
  uint32_t ca, cb, ba, bb;
  int valid;

  if (x >= t.samples || y >= t.height)
    return;
  valid = min (4, t.samples - x);
  const uint8_t *src = t.src + (size_t) y * t.src_pitch + (size_t) x * BPP;
  uint8_t *ring = t.ring + (size_t) y * t.ring_pitch + (size_t) x * BPP;

  load_quad<BPP> (src, valid, ca, cb);
  store_ring<BPP> (ring + (size_t) t.pos * t.slot_bytes, ca, cb);
  a[0] = ca;
  b[0] = cb;
#pragma unroll
  for (int i = 1; i < C; i++) {
    if (i < t.n) {
      /* slots 0 .. n - 1 but pos */
      const int s = i - 1 + (i - 1 >= t.pos);

      load_ring<BPP> (ring + (size_t) s * t.slot_bytes, a[i], b[i]);
    } else {
      a[i] = 0xffffffffu;
      b[i] = 0xffffffffu;
    }
  }
  sort_words<C> (a, b, std::make_index_sequence<net_of<C>::list.n> ());
  if constexpr (K >= 0) {
    ba = a[K];
    bb = b[K];
  } else {
    ba = a[0];
    bb = b[0];
#pragma unroll
    for (int i = 1; i < C; i++)
      if (i == t.k) {
        ba = a[i];
        bb = b[i];
      }
  }
  if (t.diff) {
    ba = __vsub2 (__vmaxu2 (ca, ba), __vminu2 (ca, ba));
    bb = __vsub2 (__vmaxu2 (cb, bb), __vminu2 (cb, bb));
  }
  if (t.alpha >= 0) {
    uint32_t ma, mb;

    alpha_masks (t, x, ma, mb);
    ba = (ba & ~ma) | (ca & ma);
    bb = (bb & ~mb) | (cb & mb);
  }
  store_quad<BPP> (t.dst + (size_t) y * t.dst_pitch + (size_t) x * BPP,
      valid, ba, bb);
}

/* ---- the sizes built, and the launch ------------------------------------ */

/* generic networks (any rank), ascending */
#define GENERIC_SIZES(X) X (2) X (3) X (4) X (5) X (6) X (7) X (8) X (9) \
  X (10) X (12) X (14) X (16) X (20) X (24) X (28) X (32)
/* pruned medians: odd windows */
#define MEDIAN_SIZES(X) X (3) X (5) X (7) X (9) X (11) X (13) X (15) X (17) \
  X (19) X (21) X (23) X (25) X (27) X (29) X (31)

int
temporal_network_capacity (int n)
{
#define PICK(c) if (n <= c) return c;
  GENERIC_SIZES (PICK)
#undef PICK
  return 0;
}

int
temporal_network_has_median (int n)
{
#define HAS(c) if (n == c) return 1;
  MEDIAN_SIZES (HAS)
#undef HAS
  return 0;
}

template <int C, int K>
static cudaError_t
launch (const temporal_args & t, int bpp, cudaStream_t stream)
{
  const dim3 block (QUADS_X, ROWS_Y);
  const int quads = (t.samples + 3) / 4;
  const dim3 grid ((quads + QUADS_X - 1) / QUADS_X,
      (t.height + ROWS_Y - 1) / ROWS_Y);

  if (bpp == 1)
    temporal_network_kernel<C, K, 1> <<<grid, block, 0, stream>>> (t);
  else
    temporal_network_kernel<C, K, 2> <<<grid, block, 0, stream>>> (t);
  return cudaGetLastError ();
}

cudaError_t
temporal_network_launch (const temporal_args & t, int bpp, int capacity,
    int median_pruned, cudaStream_t stream)
{
  if (median_pruned) {
    switch (capacity) {
#define CASE(c) case c: return launch<c, c / 2> (t, bpp, stream);
        MEDIAN_SIZES (CASE)
#undef CASE
      default:
        return cudaErrorInvalidValue;
    }
  }
  switch (capacity) {
#define CASE(c) case c: return launch<c, -1> (t, bpp, stream);
      GENERIC_SIZES (CASE)
#undef CASE
    default:
      return cudaErrorInvalidValue;
  }
}
