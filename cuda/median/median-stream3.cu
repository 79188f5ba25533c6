/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* 3 x 3 median / minimum / maximum as a streaming kernel.
 *
 * A 3 x 3 rank filter is memory bound, not compute bound, so this kernel
 * is built like a copy: each thread owns a 16-byte column strip (16 8-bit
 * or 8 16-bit samples) and walks down MED_S3_RPT output rows, reading each
 * of its RPT + 2 input rows once with one 16-byte load, all of them issued
 * before any is used (one wave of blocks: the load latency is paid once).
 * The samples left and right of the strip come from the neighbouring lanes
 * by warp shuffles; only lanes 0 and 31 and the strips at the image edges
 * read them from memory (through the border rule).
 *
 * Median of 9 with sorted rows (Paeth, Graphics Gems 1990; the row sort is
 * the "BMS2" sharing of paper 001 section 3.3 turned by 90 degrees): sort
 * each input row's triple (x-1, x, x+1) once into lo <= mid <= hi; then
 *
 *   median = med3 (max3 (lo), med3 (mid), min3 (hi))
 *
 * over the three rows of the window (checked exhaustively on 3-valued
 * inputs, which covers every order and tie pattern of 9 samples). Each
 * sorted row serves the three outputs above, on and below it, and two
 * vertically adjacent outputs share the sorted pair of the two mids their
 * windows have in common. Minimum and maximum: min3 / max3 of the row extremes.
 *
 * Samples are widened to 16 bits and processed two a register with
 * __vminu2 / __vmaxu2: on sm_90 these are single VIMNMX.U16x2 (and three-
 * input VIMNMX3) instructions, while the 8-bit __vminu4 takes about six.
 * About 15 min / max per register (two outputs) and row: 8 per output,
 * a few microseconds of the whole GPU for a 4K frame.
 *
 * The fast path needs 16-byte aligned rows (data and pitch of source and
 * destination); med_s3_supported says so, and the plan falls back to the
 * shared-memory network kernel (median-net3.cu) otherwise. */
#include "median-impl.cuh"

#define MED_S3_RPT 8            /* output rows a thread               */
#define MED_S3_WARPS 4          /* warps a block, stacked vertically  */
#ifndef MED_S3_PAIRS
#define MED_S3_PAIRS 1
#endif
#ifndef MED_S3_MINB
#define MED_S3_MINB 5           /* blocks an SM: at most 102 registers */
#endif
#define MED_S3_FULL 0xffffffffu

int
med_s3_supported (const med_args *a)
{
  return (uintptr_t) a->src % 16 == 0 && (uintptr_t) a->dst % 16 == 0 &&
      a->src_pitch % 16 == 0 && a->dst_pitch % 16 == 0;
}

/* A strip and its own neighbour samples (left in the low, right in the
 * high 16 bits of nb: only where the neighbouring lane cannot give them) */
struct med_s3_row
{
  uint4 raw;
  uint32_t nb;
};

/* sample x (any virtual column) of the mapped row `row` (NULL: constant) */
template <int BPP>
static __device__ __forceinline__ uint32_t
med_s3_fetch (const uint8_t *row, int width, int border, uint32_t cval,
    int x)
{
  const int mx = med_border_index (border, x, width);
  if (!row || mx < 0)
    return cval;
  return med_load (row, mx, BPP);
}

/* The general row load, through the border rule for rows and columns:
 * strips touching an image edge or a window row outside the image. Not
 * inlined, so that the interior path stays a few instructions a row (and
 * the kernel small enough for the instruction cache). One 16-byte load
 * for a whole strip, samples one by one for the partial strip at the
 * right edge, the constant for a constant row, 0 for an idle lane. */
template <int BPP>
static __device__ __noinline__ med_s3_row
med_s3_slow (const uint8_t *src, size_t pitch, int width, int height,
    int border, uint32_t cval, int vy, int x0, bool own_l, bool own_r)
{
  constexpr int SPS = 16 / BPP;
  const int my = med_border_index (border, vy, height);
  const uint8_t *row = my < 0 ? NULL : src + (size_t) my * pitch;
  med_s3_row r;

  r.raw = make_uint4 (0, 0, 0, 0);
  r.nb = 0;
  if (x0 >= width)
    return r;
  if (!row) {
    const uint32_t w = cval * (BPP == 1 ? 0x01010101u : 0x00010001u);
    r.raw = make_uint4 (w, w, w, w);
  } else if (x0 + SPS <= width)
    r.raw = __ldg ((const uint4 *) (row + (size_t) x0 * BPP));
  else {
    uint32_t w[4] = { 0, 0, 0, 0 };
    for (int j = 0; j < SPS; j++)
      w[j * BPP / 4] |= med_s3_fetch<BPP> (row, width, border, cval,
          x0 + j) << (8 * BPP * j % 32);
    r.raw = make_uint4 (w[0], w[1], w[2], w[3]);
  }
  if (own_l)
    r.nb = med_s3_fetch<BPP> (row, width, border, cval, x0 - 1);
  if (own_r)
    r.nb |= med_s3_fetch<BPP> (row, width, border, cval, x0 + SPS) << 16;
  return r;
}

/* Sort the triples (x-1, x, x+1) of 8 samples of one row: c[1 + k] holds
 * samples 2k, 2k + 1 (k < 4) as 16-bit halves, c[0] the left neighbour in
 * its high half, c[5] the right one in its low half. lo / mid / hi[k]:
 * the sorted triples of samples 2k, 2k + 1. */
template <int VAR>
static __device__ __forceinline__ void
med_s3_sort_row (const uint32_t *c, uint32_t *lo, uint32_t *mid,
    uint32_t *hi)
{
#pragma unroll
  for (int k = 0; k < 4; k++) {
    const uint32_t L = __byte_perm (c[k], c[k + 1], 0x5432);
    const uint32_t C = c[k + 1];
    const uint32_t R = __byte_perm (c[k + 1], c[k + 2], 0x5432);
    const uint32_t mn = __vminu2 (L, C), mx = __vmaxu2 (L, C);
    if (VAR != MED_NET_MAX)
      lo[k] = __vminu2 (mn, R);
    if (VAR != MED_NET_MIN)
      hi[k] = __vmaxu2 (mx, R);
    if (VAR == MED_NET_MEDIAN)
      mid[k] = __vmaxu2 (mn, __vminu2 (mx, R));
  }
}

/* The 8 samples of part h of a strip (8-bit: bytes 8h .. 8h + 7 of the
 * 16; 16-bit: the whole strip) widened to c[1..4] with their neighbours
 * in c[0] and c[5] (med_s3_sort_row); l / r: the strip's neighbours. */
template <int BPP>
static __device__ __forceinline__ void
med_s3_part (const uint4 &raw, int h, uint32_t l, uint32_t r, uint32_t *c)
{
  if (BPP == 1) {
    const uint32_t w0 = h ? raw.z : raw.x, w1 = h ? raw.w : raw.y;
    c[0] = (h ? raw.y >> 24 : l) << 16;
    c[1] = __byte_perm (w0, 0, 0x4140);
    c[2] = __byte_perm (w0, 0, 0x4342);
    c[3] = __byte_perm (w1, 0, 0x4140);
    c[4] = __byte_perm (w1, 0, 0x4342);
    c[5] = h ? r : raw.z & 0xffu;
  } else {
    c[0] = l << 16;
    c[1] = raw.x;
    c[2] = raw.y;
    c[3] = raw.z;
    c[4] = raw.w;
    c[5] = r;
  }
}

/* Block 32 x MED_S3_WARPS: lane l of warp w owns the strip of blockIdx.x
 * * 32 + l and the output rows (blockIdx.y * MED_S3_WARPS + w) * RPT + 0 ..
 * RPT - 1. Rows are warp-uniform, so whole warps leave together. An 8-bit
 * strip is filtered in two passes of 8 samples (8-byte stores), which
 * keeps the thread under 96 registers: 5 blocks an SM, so that a 4K frame
 * is one wave. */
template <int BPP, int VAR>
__global__ void __launch_bounds__ (32 * MED_S3_WARPS, MED_S3_MINB)
med_s3_kernel (med_args a)
{
  constexpr int SPS = 16 / BPP, RPT = MED_S3_RPT, NH = 2 / BPP;
  constexpr uint32_t MASK = BPP == 1 ? 0xffu : 0xffffu;
  static_assert (RPT % 2 == 0, "the mid pairs span two output rows");
  const int lane = threadIdx.x;
  const int x0 = (blockIdx.x * 32 + lane) * SPS;
  const int y0 = (blockIdx.y * MED_S3_WARPS + threadIdx.y) * RPT;

  if (y0 >= a.height)
    return;
  const bool active = x0 < a.width, full = x0 + SPS <= a.width;
  /* lanes whose neighbour sample is not in a neighbouring lane's strip */
  const bool own_l = active && (lane == 0 || x0 == 0);
  const bool own_r = active && (lane == 31 || x0 + SPS >= a.width);
  /* window rows and columns inside the image: plain loads */
  const bool interior = y0 >= 1 && y0 + RPT < a.height && x0 >= 1 &&
      x0 + SPS < a.width;

  /* every load first: strips, and the neighbour samples a lane reads
   * itself; nb[i]: left neighbour in the low, right in the high 16 bits */
  uint4 raw[RPT + 2];
  uint32_t nb[RPT + 2];
  const uint8_t *row0 = a.src + (size_t) (y0 - 1) * a.src_pitch;
#pragma unroll
  for (int i = 0; i < RPT + 2; i++) {
    if (interior) {
      const uint8_t *row = row0 + (size_t) i * a.src_pitch;
      raw[i] = __ldg ((const uint4 *) (row + (size_t) x0 * BPP));
      nb[i] = 0;
      if (own_l)
        nb[i] = med_load (row, x0 - 1, BPP);
      if (own_r)
        nb[i] |= med_load (row, x0 + SPS, BPP) << 16;
    } else {
      const med_s3_row r = med_s3_slow<BPP> (a.src, a.src_pitch, a.width,
          a.height, a.border, a.cval, y0 - 1 + i, x0, own_l, own_r);
      raw[i] = r.raw;
      nb[i] = r.nb;
    }
  }
#pragma unroll
  for (int i = 0; i < RPT + 2; i++) {
    const uint32_t up = __shfl_up_sync (MED_S3_FULL, raw[i].w, 1);
    const uint32_t down = __shfl_down_sync (MED_S3_FULL, raw[i].x, 1);
    const uint32_t l = own_l ? nb[i] & 0xffffu : up >> (32 - 8 * BPP);
    const uint32_t r = own_r ? nb[i] >> 16 : down & MASK;
    nb[i] = l | r << 16;
  }

#pragma unroll
  for (int h = 0; h < NH; h++) {
    uint32_t lo[3][4], mid[3][4], hi[3][4];
    uint32_t ps[4], pt[4];      /* a sorted pair of mids, two outputs */
#pragma unroll
    for (int i = 0; i < RPT + 2; i++) {
      const int s = i % 3;
      uint32_t c[6];
      med_s3_part<BPP> (raw[i], h, nb[i] & 0xffffu, nb[i] >> 16, c);
      med_s3_sort_row<VAR> (c, lo[s], mid[s], hi[s]);
      if (i < 2)
        continue;

      /* output row y0 + i - 2 from rows i - 2 (sa), i - 1 (sb), i (s) */
      const int sa = (i - 2) % 3, sb = (i - 1) % 3;
      uint32_t o[4];
#pragma unroll
      for (int k = 0; k < 4; k++) {
        if (VAR == MED_NET_MIN)
          o[k] = __vminu2 (__vminu2 (lo[sa][k], lo[sb][k]), lo[s][k]);
        else if (VAR == MED_NET_MAX)
          o[k] = __vmaxu2 (__vmaxu2 (hi[sa][k], hi[sb][k]), hi[s][k]);
        else {
          /* med3 of the mids from a sorted pair (ps <= pt) of two of them
           * and the third: max (ps, min (pt, third)). The pair of rows
           * (i - 1, i) of an even step also serves the next step, whose
           * rows are (i - 1, i, i + 1). */
          uint32_t m;
          if (!MED_S3_PAIRS)
            m = __vmaxu2 (__vminu2 (mid[sa][k], mid[sb][k]),
                __vminu2 (__vmaxu2 (mid[sa][k], mid[sb][k]), mid[s][k]));
          else if (i % 2 == 0) {
            ps[k] = __vminu2 (mid[sb][k], mid[s][k]);
            pt[k] = __vmaxu2 (mid[sb][k], mid[s][k]);
            m = __vmaxu2 (ps[k], __vminu2 (pt[k], mid[sa][k]));
          } else
            m = __vmaxu2 (ps[k], __vminu2 (pt[k], mid[s][k]));
          const uint32_t x = __vmaxu2 (__vmaxu2 (lo[sa][k], lo[sb][k]),
              lo[s][k]);
          const uint32_t z = __vminu2 (__vminu2 (hi[sa][k], hi[sb][k]),
              hi[s][k]);
          o[k] = __vmaxu2 (__vminu2 (x, m), __vminu2 (__vmaxu2 (x, m), z));
        }
      }

      const int y = y0 + i - 2;
      if (!active || y >= a.height)
        continue;
      uint8_t *drow = a.dst + (size_t) y * a.dst_pitch;
      const int xs = x0 + 8 * h;        /* first sample of the part */
      if (full) {
        if (BPP == 1)
          *(uint2 *) (drow + xs) = make_uint2 (__byte_perm (o[0], o[1],
                  0x6420), __byte_perm (o[2], o[3], 0x6420));
        else
          *(uint4 *) (drow + (size_t) xs * 2) = make_uint4 (o[0], o[1], o[2],
              o[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 8; j++)
          if (xs + j < a.width)
            med_store (drow, xs + j, BPP, (o[j / 2] >> (16 * (j % 2))) &
                0xffffu);
      }
    }
  }
}

template <int BPP, int VAR>
static cudaError_t
med_s3_run (const med_args *a, cudaStream_t stream)
{
  constexpr int SPS = 16 / BPP;
  const int strips = (a->width + SPS - 1) / SPS;
  dim3 block (32, MED_S3_WARPS);
  dim3 grid ((unsigned) ((strips + 31) / 32), (unsigned) ((a->height +
              MED_S3_RPT * MED_S3_WARPS - 1) / (MED_S3_RPT * MED_S3_WARPS)));

  med_s3_kernel<BPP, VAR><<<grid, block, 0, stream>>> (*a);
  return cudaGetLastError ();
}

cudaError_t
med_s3_launch (int variant, const med_args *a, cudaStream_t stream)
{
  if (!med_s3_supported (a))
    return cudaErrorInvalidValue;
  switch (variant * 2 + (a->bpp == 2)) {
    case MED_NET_MIN * 2:
      return med_s3_run<1, MED_NET_MIN> (a, stream);
    case MED_NET_MIN * 2 + 1:
      return med_s3_run<2, MED_NET_MIN> (a, stream);
    case MED_NET_MEDIAN * 2:
      return med_s3_run<1, MED_NET_MEDIAN> (a, stream);
    case MED_NET_MEDIAN * 2 + 1:
      return med_s3_run<2, MED_NET_MEDIAN> (a, stream);
    case MED_NET_MAX * 2:
      return med_s3_run<1, MED_NET_MAX> (a, stream);
    case MED_NET_MAX * 2 + 1:
      return med_s3_run<2, MED_NET_MAX> (a, stream);
    default:
      return cudaErrorInvalidValue;
  }
}
