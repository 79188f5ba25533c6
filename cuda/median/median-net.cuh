/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Selection networks for small median / rank windows.
 *
 * Algorithm. Szántó & Fehér (paper 001, section 3.3, "BMS2") observe that
 * neighbouring windows share most of their samples, so the sorting work on
 * the shared samples can be done once; Adams ("Fast median filters using
 * separable sorting networks", ACM TOG 40(4), 2021) makes this systematic:
 * sort the columns of the window once, reuse them for every output that
 * contains them, and merge sorted lists while dropping every element that
 * provably cannot be the answer ("forgetful" pruning). Here a thread owns
 * TX horizontally adjacent outputs:
 *
 *  1. each of the TX + W - 1 input columns (H samples) is sorted once
 *     (Batcher's odd-even merge sort);
 *  2. the outputs are split recursively in halves; the columns common to
 *     all outputs of a range are merged into one sorted list, which the
 *     two halves extend with their own extra columns (Batcher's odd-even
 *     merge for arbitrary sizes);
 *  3. after every merge the list is pruned: with N samples and rank K, an
 *     element with at least N - K others of the current problem known to be
 *     >= it lies below the answer, and one with at least K + 1 known <= it
 *     lies above; both are dropped (N and K updated). A sorted list of len
 *     retained elements whose subtree already dropped db below and da
 *     above loses max(0, len - (N - K - da)) at the bottom and
 *     max(0, len - (K - db) - 1) at the top. Counting only the node's own
 *     subtree keeps the conditions sufficient whichever output the list is
 *     shared by, so shared lists are pruned once for all of them;
 *  4. each output is finally the element of rank r = K - (dropped below)
 *     of the union of two sorted lists A, B, computed directly as
 *     max over i + j = r of min (A[i], B[j]) (out-of-range terms omitted).
 *
 * The network is built at compile time by the constexpr C++ of
 * median-nb.cuh (constant folding, common subexpressions, dead-code
 * elimination), for a fixed window, TX and rank (a rank above the median
 * as the min / max dual of rank N - 1 - K), and emitted as a straight-line
 * program of loads from the shared-memory tile and min / max operations on
 * registers; the kernel executes it through an index_sequence so that
 * every operand is a compile-time register. Rank 0 and rank N-1 reduce to
 * min / max trees of shared column extremes. Operations per output pair
 * (two samples): 3x3 18, 5x5 65, 7x7 145, 9x9 269 (TX = 16), 11x11 470
 * (TX = 8), 13x13 986, 15x15 1411 (TX = 4); minimum / maximum 4 to 30. The builder is exact by
 * construction and was checked against sorting on random and 0/1 inputs.
 *
 * Data layout. Each 32-bit register holds two samples (two 16-bit halves:
 * the block's rows y and y + 32), so one __vminu2 / __vmaxu2 handles two
 * outputs; on sm_90 they are single VIMNMX.U16x2 instructions (and the
 * compiler fuses chains into 3-input VIMNMX3). Older architectures have no
 * 16x2 min / max (the intrinsics take 5 instructions), so there the program
 * runs twice on one half at a time with scalar IMNMX. 8-bit samples are
 * widened to 16 bits when the tile is loaded.
 *
 * A block is 32 x NW threads. Lane l of warp w computes the TX outputs at
 * columns x0 + w TX .. + TX - 1 of rows y0 + l and y0 + 32 + l; the input
 * tile (32 + H - 1 packed rows x NW TX + W - 1 columns) is loaded once with
 * the border rule applied (med_fetch), with an odd row stride so that the
 * 32 lanes (32 rows) of a warp read 32 different banks. Results go through
 * a shared staging area so that global stores are coalesced 32-bit words.
 *
 * A second kernel (runtime rank, any window of N <= 64 samples) runs one
 * full Batcher sorting network of 16, 32 or 64 inputs per output (window
 * padded with the maximum) and picks rank k with a multiplexer tree on the
 * bits of k. */
#pragma once

#include <stdint.h>
#include <type_traits>
#include <utility>

#include "median-impl.cuh"
#include "median-nb.cuh"

/* ---- programs -------------------------------------------------------------
 * The program structs live only in constant expressions: the kernels read
 * every op through std::integral_constant, so no table reaches the device
 * and every register index is a compile-time constant. */

/* window W x H, TX outputs a thread, rank K; MAXN: builder capacity */
template <int W_, int H_, int TX_, int K_, int MAXN_>
struct med_tile_prog
{
  static constexpr int W = W_, H = H_, TX = TX_, K = K_;
  static constexpr int PW = TX + W - 1;
  static constexpr auto p = med_nb::build_tile<W, H, TX, K, MAXN_> ();
  static_assert (p.ok, "median network: builder capacity exceeded");
  static constexpr int n = p.n, ns = p.ns;
};

/* full sorting network of NS inputs */
template <int NS_, int MAXN_>
struct med_sort_prog
{
  static constexpr int NS = NS_;
  static constexpr auto p = med_nb::build_sort<NS_, MAXN_> ();
  static_assert (p.ok, "median network: builder capacity exceeded");
  static constexpr int n = p.n, ns = p.ns;
};

/* min / max of two packed 16-bit halves, or of one plain sample */
struct med_ops_packed
{
  static __device__ __forceinline__ uint32_t lo (uint32_t a, uint32_t b)
  {
    return __vminu2 (a, b);
  }
  static __device__ __forceinline__ uint32_t hi (uint32_t a, uint32_t b)
  {
    return __vmaxu2 (a, b);
  }
};

struct med_ops_scalar
{
  static __device__ __forceinline__ uint32_t lo (uint32_t a, uint32_t b)
  {
    return min (a, b);
  }
  static __device__ __forceinline__ uint32_t hi (uint32_t a, uint32_t b)
  {
    return max (a, b);
  }
};

/* Input sources of a program: the shared tile at the thread's patch
 * (input id -> column id % PW, row id / PW), or registers in[] */
template <int PW, int S>
struct med_src_tile
{
  const uint32_t *base;
  __device__ __forceinline__ uint32_t operator() (uint32_t id) const
  {
    return base[(id / PW) * S + id % PW];
  }
};

/* One 16-bit half (0: low, 1: high) of the tile words, read as such: the
 * address depends on the half, so the loads of the second pass are not
 * hoisted out of the pass loop (which would keep the whole patch live). */
template <int PW, int S>
struct med_src_tile_half
{
  const uint16_t *base;         /* (const uint16_t *) word base + half */
  __device__ __forceinline__ uint32_t operator() (uint32_t id) const
  {
    return base[2 * ((id / PW) * S + id % PW)];
  }
};

struct med_src_regs
{
  const uint32_t *in;
  __device__ __forceinline__ uint32_t operator() (uint32_t id) const
  {
    return in[id];
  }
};

/* One op; e is a compile-time constant after inlining. */
template <class OPS, class SRC>
static __device__ __forceinline__ void
med_apply (uint32_t *v, const SRC &src, uint32_t e)
{
  const uint32_t kind = e >> 30, d = (e >> 20) & 1023;
  const uint32_t a = (e >> 10) & 1023, b = e & 1023;

  if (kind == med_nb::OP_LOAD)
    v[d] = src (a);
  else if (kind == med_nb::OP_MIN)
    v[d] = OPS::lo (v[a], v[b]);
  else
    v[d] = OPS::hi (v[a], v[b]);
}

template <class PR, class OPS, class SRC, size_t... I>
static __device__ __forceinline__ void
med_run (uint32_t *v, const SRC &src, std::index_sequence<I...>)
{
  (med_apply<OPS> (v, src,
          std::integral_constant<uint32_t, PR::p.code[I]>::value), ...);
}

/* out[i] = v[register of output i] */
template <class PR, size_t... I>
static __device__ __forceinline__ void
med_outputs (uint32_t *out, const uint32_t *v, std::index_sequence<I...>)
{
  ((out[I] = v[std::integral_constant<int, PR::p.out[I]>::value]), ...);
}

/* ---- tile load ------------------------------------------------------------
 * tile[r * S + c], r < R, c < C: the samples (gx0 + c, gy0 + r) (low half)
 * and (gx0 + c, gy0 + 32 + r) (high half) of the border-extended source.
 * NT threads. Three paths: tiles inside the image with 4-byte aligned rows
 * read whole 32-bit words (4 or 2 samples) of the top and bottom rows and
 * split them with byte permutes; other tiles inside the image read sample
 * by sample; tiles reaching outside go through the border helper. */
template <int NT>
static __device__ __forceinline__ void
med_tile_load (uint32_t *tile, const med_args &a, int gx0, int gy0, int R,
    int C, int S)
{
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const bool inside = gx0 >= 0 && gy0 >= 0 && gx0 + C <= a.width &&
      gy0 + 32 + R <= a.height;
  const int per = 4 / a.bpp;    /* samples a word */
  const int lead = inside ? gx0 % per : 0;      /* samples before gx0 */
  const int cw = (lead + C + per - 1) / per;    /* words a tile row   */

  if (inside && a.src_aligned4 && gx0 - lead + cw * per <= a.width) {
    const uint8_t *src = a.src + (size_t) gy0 * a.src_pitch +
        (size_t) (gx0 - lead) * a.bpp;
    const size_t half = (size_t) 8 * a.src_pitch;      /* 32 rows, words */
    for (int i = tid; i < R * cw; i += NT) {
      const int r = i / cw, q = i - r * cw;
      const uint32_t *p = (const uint32_t *) (src + (size_t) r *
          a.src_pitch) + q;
      const uint32_t t = __ldg (p), b = __ldg (p + half);
      uint32_t *row = tile + r * S;
      const int c = q * per - lead;     /* tile column of the word's first */
      if (per == 4) {
#pragma unroll
        for (int j = 0; j < 4; j++) {
          /* [t_j, b_j, ., .] then [t_j, 0, b_j, 0] */
          uint32_t w = __byte_perm (__byte_perm (t, b, j | (4 + j) << 4),
              0, 0x5140);
          if (c + j >= 0 && c + j < C)
            row[c + j] = w;
        }
      } else {
        if (c >= 0)
          row[c] = __byte_perm (t, b, 0x5410);
        if (c + 1 < C)
          row[c + 1] = __byte_perm (t, b, 0x7632);
      }
    }
  } else if (inside) {
    const uint8_t *src = a.src + (size_t) gy0 * a.src_pitch;
    const size_t half = (size_t) 32 * a.src_pitch;
    for (int i = tid; i < R * C; i += NT) {
      int r = i / C, c = i - r * C;
      const uint8_t *row = src + (size_t) r * a.src_pitch;
      uint32_t lo = med_load (row, gx0 + c, a.bpp);
      uint32_t hi = med_load (row + half, gx0 + c, a.bpp);
      tile[r * S + c] = lo | hi << 16;
    }
  } else {
    for (int i = tid; i < R * C; i += NT) {
      int r = i / C, c = i - r * C;
      uint32_t lo = med_fetch (a.src, a.src_pitch, a.width, a.height, a.bpp,
          a.border, a.cval, gx0 + c, gy0 + r);
      uint32_t hi = med_fetch (a.src, a.src_pitch, a.width, a.height, a.bpp,
          a.border, a.cval, gx0 + c, gy0 + 32 + r);
      tile[r * S + c] = lo | hi << 16;
    }
  }
}

/* ---- output staging -------------------------------------------------------
 * The block's 64 x OW outputs as 16-bit samples in shared memory, row
 * stride med_stage_stride (OW) (even, half of it odd: the 32 lanes of a
 * warp, 32 rows, write 32 different banks). */
static __host__ __device__ constexpr int
med_stage_stride (int ow)
{
  return ((ow / 2) | 1) * 2;
}

/* Write the staged outputs to dst in coalesced 32-bit words (4 8-bit or 2
 * 16-bit samples a word), with narrower stores at the right edge or when
 * dst is not 4-byte aligned. */
template <int NT>
static __device__ __forceinline__ void
med_stage_store (const uint16_t *stage, int ow, const med_args &a, int x0,
    int y0)
{
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int swh = med_stage_stride (ow);
  const int per = 4 / a.bpp;
  const int wpr = ow / per;

  for (int i = tid; i < 64 * wpr; i += NT) {
    int row = i / wpr, wd = i - row * wpr;
    int y = y0 + row, x = x0 + wd * per;
    if (y >= a.height || x >= a.width)
      continue;
    const uint16_t *s = stage + row * swh + wd * per;
    uint8_t *drow = a.dst + (size_t) y * a.dst_pitch;
    if (a.dst_aligned4 && x + per <= a.width) {
      const uint32_t *s32 = (const uint32_t *) s;
      uint32_t word = per == 4 ? __byte_perm (s32[0], s32[1], 0x6420) :
          s32[0];
      *(uint32_t *) (drow + (size_t) x * a.bpp) = word;
    } else {
      for (int q = 0; q < per && x + q < a.width; q++)
        med_store (drow, x + q, a.bpp, s[q]);
    }
  }
}

/* ---- the shared-work tile kernel ------------------------------------------
 * Block 32 x NW, outputs [x0, x0 + NW TX) x [y0, y0 + 64). */
template <class PR, int NW>
__global__ void __launch_bounds__ (32 * NW)
med_net_tile_kernel (med_args a)
{
  constexpr int TX = PR::TX, OW = NW * TX;
  constexpr int R = 32 + PR::H - 1, C = OW + PR::W - 1, S = C | 1;
  constexpr int SWH = med_stage_stride (OW);
  static_assert (TX % 4 == 0, "TX must be a multiple of 4");
  static_assert (64 * SWH <= 2 * R * S, "staging does not fit the tile");
  __shared__ uint32_t tile[R * S];

  const int x0 = blockIdx.x * OW, y0 = blockIdx.y * 64;
  med_tile_load<32 * NW> (tile, a, x0 - PR::W / 2, y0 - PR::H / 2, R, C, S);
  __syncthreads ();

  const uint32_t *base = tile + threadIdx.x * S + threadIdx.y * TX;
  uint32_t res[TX];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  {
    uint32_t v[PR::ns];
    med_src_tile<PR::PW, S> src { base };
    med_run<PR, med_ops_packed> (v, src, std::make_index_sequence<PR::n> ());
    med_outputs<PR> (res, v, std::make_index_sequence<TX> ());
  }
#else
  /* no 16x2 min / max: one half at a time */
#pragma unroll
  for (int i = 0; i < TX; i++)
    res[i] = 0;
#pragma unroll 1
  for (int half = 0; half < 2; half++) {
    uint32_t v[PR::ns], o[TX];
    med_src_tile_half<PR::PW, S> src { (const uint16_t *) base + half };
    med_run<PR, med_ops_scalar> (v, src, std::make_index_sequence<PR::n> ());
    med_outputs<PR> (o, v, std::make_index_sequence<TX> ());
#pragma unroll
    for (int i = 0; i < TX; i++)
      res[i] |= o[i] << (16 * half);
  }
#endif
  __syncthreads ();             /* everyone is done with the tile */

  uint16_t *stage = (uint16_t *) tile;
  uint32_t *top = (uint32_t *) (stage + threadIdx.x * SWH + threadIdx.y * TX);
  uint32_t *bot = (uint32_t *) (stage + (threadIdx.x + 32) * SWH +
      threadIdx.y * TX);
#pragma unroll
  for (int j = 0; j < TX / 2; j++) {
    uint32_t p = res[2 * j], q = res[2 * j + 1];
    top[j] = (p & 0xffffu) | q << 16;
    bot[j] = p >> 16 | (q & 0xffff0000u);
  }
  __syncthreads ();
  med_stage_store<32 * NW> (stage, OW, a, x0, y0);
}

template <class PR, int NW>
static cudaError_t
med_net_tile_run (const med_args *a, cudaStream_t stream)
{
  constexpr int OW = NW * PR::TX;
  dim3 block (32, NW);
  dim3 grid ((unsigned) ((a->width + OW - 1) / OW),
      (unsigned) ((a->height + 63) / 64));
  med_net_tile_kernel<PR, NW><<<grid, block, 0, stream>>> (*a);
  return cudaGetLastError ();
}

/* ---- the runtime-rank sorting kernel --------------------------------------
 * Block 32 x MED_SORT_NW, MED_SORT_TX outputs a thread (computed one after
 * the other), dynamic shared memory: the tile (runtime window) and the
 * staging area. */

#define MED_SORT_NW 4
#define MED_SORT_TX 4

/* tile offsets of the window samples: (i / ww) * S + i % ww, i < N */
struct med_sort_offsets
{
  int off[64];
};

/* The element of index k (< NS) of v[0..NS): a multiplexer tree on the
 * bits of k, level B halving the candidates. Masks rather than ?: (the
 * compiler turns a select between two register-array elements into a
 * select of addresses, i.e. local memory), and one template level a bit
 * so that every loop has a constant trip count. */
template <int NS, int B = 0>
static __device__ __forceinline__ uint32_t
med_mux (uint32_t *v, int k)
{
  if constexpr (NS == 1)
    return v[0];
  else {
    const uint32_t m = 0u - ((uint32_t) (k >> B) & 1u);
#pragma unroll
    for (int i = 0; i < NS / 2; i++)
      v[i] = (v[2 * i] & ~m) | (v[2 * i + 1] & m);
    return med_mux<NS / 2, B + 1> (v, k);
  }
}

/* Rank k of the window at base (offsets o), N = n samples, the rest padded
 * with the maximum. sh / half: one 16-bit half (scalar runs). */
template <class PR, class OPS>
static __device__ __forceinline__ uint32_t
med_sort_one (const uint32_t *base, const med_sort_offsets &o, int n,
    int k, int sh, bool half)
{
  constexpr int NS = PR::NS;
  uint32_t in[NS], v[PR::ns], s[NS];

#pragma unroll
  for (int j = 0; j < NS; j++) {
    if (half)
      in[j] = j < n ? ((const uint16_t *) (base + o.off[j]))[sh / 16] :
          0xffffu;
    else
      in[j] = j < n ? base[o.off[j]] : 0xffffffffu;
  }
  med_src_regs src { in };
  med_run<PR, OPS> (v, src, std::make_index_sequence<PR::n> ());
  med_outputs<PR> (s, v, std::make_index_sequence<NS> ());
  return med_mux<NS> (s, k);
}

template <class PR>
__global__ void __launch_bounds__ (32 * MED_SORT_NW)
med_net_sort_kernel (med_args a, med_sort_offsets o)
{
  extern __shared__ uint32_t med_smem[];
  constexpr int OW = MED_SORT_NW * MED_SORT_TX;
  constexpr int SWH = med_stage_stride (OW);
  const int R = 32 + a.wh - 1, C = OW + a.ww - 1, S = C | 1;
  uint32_t *tile = med_smem;
  uint16_t *stage = (uint16_t *) (med_smem + R * S);
  const int x0 = blockIdx.x * OW, y0 = blockIdx.y * 64;
  const int n = a.ww * a.wh;

  med_tile_load<32 * MED_SORT_NW> (tile, a, x0 - a.ww / 2, y0 - a.wh / 2,
      R, C, S);
  __syncthreads ();

#pragma unroll 1
  for (int i = 0; i < MED_SORT_TX; i++) {
    const int col = threadIdx.y * MED_SORT_TX + i;
    const uint32_t *base = tile + threadIdx.x * S + col;
    uint32_t r;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    r = med_sort_one<PR, med_ops_packed> (base, o, n, a.k, 0, false);
#else
    r = med_sort_one<PR, med_ops_scalar> (base, o, n, a.k, 0, true) |
        med_sort_one<PR, med_ops_scalar> (base, o, n, a.k, 16, true) << 16;
#endif
    stage[threadIdx.x * SWH + col] = (uint16_t) r;
    stage[(threadIdx.x + 32) * SWH + col] = (uint16_t) (r >> 16);
  }
  __syncthreads ();
  med_stage_store<32 * MED_SORT_NW> (stage, OW, a, x0, y0);
}

/* Dynamic shared memory of the sort kernel for window ww x wh */
static inline size_t
med_net_sort_smem (int ww, int wh)
{
  const int OW = MED_SORT_NW * MED_SORT_TX;
  const int R = 32 + wh - 1, C = OW + ww - 1, S = C | 1;
  return (size_t) R * S * 4 + (size_t) 64 * med_stage_stride (OW) * 2;
}

/* ---- launchers --------------------------------------------------------- */

/* Square window of side SIDE, TX outputs a thread, variant MED_NET_*;
 * MAXN: builder capacity (a static_assert fails when too small). */
template <int SIDE, int TX, int MAXN>
static cudaError_t
med_net_square_tx (int variant, const med_args *a, cudaStream_t stream)
{
  constexpr int N = SIDE * SIDE;

  switch (variant) {
    case MED_NET_MIN:
      return med_net_tile_run<med_tile_prog<SIDE, SIDE, TX, 0, MAXN>, 4>
          (a, stream);
    case MED_NET_MAX:
      return med_net_tile_run<med_tile_prog<SIDE, SIDE, TX, N - 1, MAXN>, 4>
          (a, stream);
    default:
      return med_net_tile_run<med_tile_prog<SIDE, SIDE, TX, (N - 1) / 2,
          MAXN>, 4> (a, stream);
  }
}

/* The same, MED_NET_NARROW_TX outputs a thread when @narrow */
template <int SIDE, int TX, int MAXN>
static cudaError_t
med_net_square (int variant, int narrow, const med_args *a,
    cudaStream_t stream)
{
  if (narrow && TX > MED_NET_NARROW_TX)
    return med_net_square_tx<SIDE, MED_NET_NARROW_TX, MAXN> (variant, a,
        stream);
  return med_net_square_tx<SIDE, TX, MAXN> (variant, a, stream);
}
