/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Horizontal min/max over short centred windows (odd L up to 65 samples
 * at 8 bit, 33 at 16 bit) by doubling on packed samples: the extreme of
 * 2^(k+1) neighbours is that of two runs of 2^k (the logarithmic
 * decomposition of a line segment, van den Boomgaard and van Balen, CVGIP
 * 1992), and the window of L is the extreme of the two runs of 2^K,
 * 2^K <= L < 2^(K+1), that start at its two ends. About log2 L + 1
 * operations per pair of samples, against the van Herk / Gil-Werman tile
 * kernel's fixed three per sample: for these lengths it is not the
 * arithmetic that counts but the memory accesses, and here every global
 * load and store is 16 bytes wide and made once.
 *
 * Layout: a warp owns 32 consecutive 16-byte vectors of one row (512
 * 8-bit samples), lane l the vector l. The warp stages its vectors and
 * the NB vectors on each side (NB = 1 up to L = 33 at 8 bit, 17 at 16
 * bit, else 2) in its own shared buffer; a lane then reads the 2 NB + 1
 * vectors around its own (conflict-free 16-byte reads), runs
 * the doublings in registers (a byte permute for odd sample offsets), and
 * stores its 16 outputs with one 16-byte store. L (so the centre and every
 * offset) is a template parameter: all register indices are static.
 *
 * Borders: vectors that cross the row's ends are gathered sample by sample
 * through cm_border_map, the constant rule (neutral has been turned into
 * it by the caller) giving cval; vectors that no output reaches are not
 * loaded. Rows need 16-byte aligned starts (data and pitch); the caller
 * checks that and otherwise keeps the tile kernel (morph-vhgw.cu). */
#include <stdint.h>
#include <cuda_runtime.h>

#include "morph-passes.h"
#include "vhgw.cuh"

#define RD_WARPS 8              /* rows per block, one warp each          */

struct rd_args
{
  const uint8_t *src;
  uint8_t *dst;
  size_t spitch, dpitch;
  int width, height;
  int border;                   /* REPLICATE, REFLECT, MIRROR, CONSTANT   */
  uint32_t cval;
};

/* samples x .. x + VPX - 1 of row as a vector; x is a multiple of VPX.
 * Vectors that cross the row's ends (a few lanes of the first and last
 * warps of a row) go sample by sample through the border rule. */
template <typename Pix>
static __device__ __forceinline__ uint4
rd_load (const rd_args & a, const uint8_t * row, int x)
{
  return row_vector_load<Pix> (row, x, a.width, a.border, a.cval);
}

/* word w of m shifted right by one sample (s = 1) or not (s = 0): the
 * second half of lo and the first of hi */
static __device__ __forceinline__ uint32_t
rd_shifted (uint32_t lo, uint32_t hi, int s)
{
  return s ? __byte_perm (lo, hi, 0x5432) : lo;
}

/* one doubling step beyond the first: m[i] takes the extreme with the
 * word WS further on (runs of 2 WS samples become runs of 4 WS). A
 * template, so that every index is a constant: written as a loop over k
 * with a trip count depending on k, the compiler kept the loop and chose
 * registers by compare-and-select chains (about 5x the instructions; ncu and
 * SASS on an H100) */
template <int WS, int NW, class Op>
static __device__ __forceinline__ void
rd_step (uint32_t (&m)[NW])
{
#pragma unroll
  for (int i = 0; i + WS < NW; i++)
    m[i] = Op::apply (m[i], m[i + WS]);
}

/* The computation runs on words of two 16-bit samples whatever the depth:
 * __vminu2/__vmaxu2 are one instruction on sm_90, while the four-byte
 * __vminu4/__vmaxu4 are emulated (a first version on bytes took about
 * what its emulated byte minima cost; docs/bench/history.md, "Figures
 * moved from code comments"). 8-bit vectors are widened when read and
 * narrowed when stored. */
template <typename Pix, int L, class Op>
static __global__ void __launch_bounds__ (32 * RD_WARPS)
row_doubling_kernel (const __grid_constant__ rd_args a)
{
  constexpr int VPX = 16 / (int) sizeof (Pix);  /* samples per vector   */
  constexpr int C = (L - 1) / 2;        /* reach on each side           */
  constexpr int NB = (C + VPX - 1) / VPX;       /* vectors on each side */
  constexpr int NW = (2 * NB + 1) * VPX / 2;    /* pair words of them all */
  constexpr int K = L >= 64 ? 6 : L >= 32 ? 5 : L >= 16 ? 4 : L >= 8 ? 3 :
      L >= 4 ? 2 : 1;
  constexpr int P = 1 << K;     /* run length of the last doubling      */
  static_assert (L % 2 == 1 && NB >= 1 && NB <= 2, "window out of reach");
  __shared__ uint4 stage[RD_WARPS][32 + 2 * NB];
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int y = (int) blockIdx.y * RD_WARPS + warp;

  pdl_wait ();                  /* launched early: pdl_launch */
  if (y >= a.height)
    return;                     /* the whole warp; no block barrier here */
  const int x = ((int) blockIdx.x * 32 + lane) * VPX;
  const uint8_t *row = a.src + (size_t) y * a.spitch;
  uint4 *b = stage[warp];

  /* slot NB + l: the warp's vector l; the first NB lanes also load the NB
   * vectors before the warp's, the last NB lanes the NB after it. A vector
   * that no output of the row reaches is not loaded. */
  if (x < a.width + NB * VPX)
    b[NB + lane] = rd_load<Pix> (a, row, x);
  if (lane < NB)
    b[lane] = rd_load<Pix> (a, row, x - NB * VPX);
  if (lane >= 32 - NB && x < a.width)
    b[2 * NB + lane] = rd_load<Pix> (a, row, x + NB * VPX);
  __syncwarp ();
  if (x >= a.width)
    return;

  /* m[0 .. NW - 1]: samples x - NB VPX .. x + (NB + 1) VPX - 1, two per
   * word */
  uint32_t m[NW];
#pragma unroll
  for (int j = 0; j < 2 * NB + 1; j++) {
    const uint4 v = b[lane + j];
    const uint32_t w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
    for (int i = 0; i < 4; i++) {
      if (sizeof (Pix) == 1) {
        m[8 * j + 2 * i] = __byte_perm (w[i], 0, 0x4140);
        m[8 * j + 2 * i + 1] = __byte_perm (w[i], 0, 0x4342);
      } else
        m[4 * j + i] = w[i];
    }
  }
  /* doublings: after step k, sample i of m is the extreme of samples
   * i .. i + 2^(k+1) - 1, where those lie in m (ascending i: m[i + 1]
   * still holds step k - 1). The first step updates the last word too,
   * with itself as the next: its first sample stays in range and is
   * needed later (and right); a word that a later word shift leaves alone
   * holds only samples out of range from then on. */
#pragma unroll
  for (int i = 0; i < NW; i++)
    m[i] = Op::apply (m[i], rd_shifted (m[i], m[i + 1 < NW ? i + 1 : i], 1));
  /* step k >= 1: runs of 2^k samples are 2^(k-1) words apart */
  if constexpr (K > 1)
    rd_step<1, NW, Op> (m);
  if constexpr (K > 2)
    rd_step<2, NW, Op> (m);
  if constexpr (K > 3)
    rd_step<4, NW, Op> (m);
  if constexpr (K > 4)
    rd_step<8, NW, Op> (m);
  if constexpr (K > 5)
    rd_step<16, NW, Op> (m);
  /* output sample p: window NB VPX + p - C .. + L - 1 of m's samples, the
   * runs of P starting at its two ends */
  constexpr int A = NB * VPX - C, B = NB * VPX - C + L - P;
  uint32_t o[VPX / 2];
#pragma unroll
  for (int j = 0; j < VPX / 2; j++)
    o[j] = Op::apply (rd_shifted (m[A / 2 + j], m[A / 2 + j + 1], A % 2),
        rd_shifted (m[B / 2 + j], m[B / 2 + j + 1], B % 2));

  uint8_t *drow = a.dst + (size_t) y * a.dpitch;
  uint32_t out[4];
#pragma unroll
  for (int i = 0; i < 4; i++)
    out[i] = sizeof (Pix) == 1 ?
        __byte_perm (o[2 * i], o[(2 * i + 1) % (VPX / 2)], 0x6420) : o[i];
  if (x + VPX <= a.width) {
    *(uint4 *) (drow + (size_t) x * sizeof (Pix)) =
        make_uint4 (out[0], out[1], out[2], out[3]);
  } else {
#pragma unroll
    for (int i = 0; i < VPX; i++)
      if (x + i < a.width)
        ((Pix *) drow)[x + i] = (Pix) (o[i / 2] >> (16 * (i % 2)));
  }
}

typedef void (*rd_kernel) (const rd_args);

template <typename Pix, int L>
static rd_kernel
rd_for_op (int is_min)
{
  return is_min ? row_doubling_kernel<Pix, L, op_min2>
      : row_doubling_kernel<Pix, L, op_max2>;
}

/* the kernel for odd len, 3 .. 65 (8-bit) or 3 .. 33 (16-bit); NULL else */
static rd_kernel
rd_for (int bytes, int len, int is_min)
{
#define RD_CASE16(n) case n: \
      return bytes == 1 ? rd_for_op<uint8_t, n> (is_min) \
      : rd_for_op<uint16_t, n> (is_min)
#define RD_CASE8(n) case n: return bytes == 1 ? rd_for_op<uint8_t, n> (is_min) \
      : NULL
  switch (len) {
      RD_CASE16 (3);
      RD_CASE16 (5);
      RD_CASE16 (7);
      RD_CASE16 (9);
      RD_CASE16 (11);
      RD_CASE16 (13);
      RD_CASE16 (15);
      RD_CASE16 (17);
      RD_CASE16 (19);
      RD_CASE16 (21);
      RD_CASE16 (23);
      RD_CASE16 (25);
      RD_CASE16 (27);
      RD_CASE16 (29);
      RD_CASE16 (31);
      RD_CASE16 (33);
      RD_CASE8 (35);
      RD_CASE8 (37);
      RD_CASE8 (39);
      RD_CASE8 (41);
      RD_CASE8 (43);
      RD_CASE8 (45);
      RD_CASE8 (47);
      RD_CASE8 (49);
      RD_CASE8 (51);
      RD_CASE8 (53);
      RD_CASE8 (55);
      RD_CASE8 (57);
      RD_CASE8 (59);
      RD_CASE8 (61);
      RD_CASE8 (63);
      RD_CASE8 (65);
    default:
      return NULL;
  }
#undef RD_CASE16
#undef RD_CASE8
}

int
cm_row_doubling_takes (cm_depth depth, int first, int len)
{
  return len % 2 == 1 && first == -(len - 1) / 2 &&
      rd_for (cm_depth_bytes (depth), len, 1) != NULL;
}

cudaError_t
cm_row_doubling_pass (const cm_image * src, const cm_image * dst, int len,
    int is_min, cm_border_mode border, uint32_t cval, int pdl,
    cudaStream_t stream)
{
  const int bytes = cm_depth_bytes (src->depth);
  const int vpx = 16 / bytes;
  rd_kernel k = rd_for (bytes, len, is_min);
  rd_args a;

  if (!k)
    return cudaErrorInvalidValue;
  pass_set_views (a, src, dst);
  a.border = (int) border;
  a.cval = cval;

  dim3 block (32, RD_WARPS);
  dim3 grid ((unsigned) ((src->width + 32 * vpx - 1) / (32 * vpx)),
      (unsigned) ((src->height + RD_WARPS - 1) / RD_WARPS));
  if (grid.y > 65535u)
    return cudaErrorInvalidValue;
  return pdl_launch (k, grid, block, 0, stream, a, pdl);
}
