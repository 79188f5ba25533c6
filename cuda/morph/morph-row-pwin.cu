/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Horizontal min/max over long windows (32 to 511 samples, 8-bit) as the
 * extreme of two windows of P samples, P the power of two with
 * P <= L < 2P: the window [a, a + L - 1] is the union of [a, a + P - 1]
 * and [a + L - P, a + L - 1]. A window of P samples is the van Herk /
 * Gil-Werman pair (van Herk 1992, Gil and Werman 1993) on blocks of P
 * samples aligned at multiples of P: out_P (a) = op (h[a], g[a + P - 1]),
 * h the suffix and g the prefix extreme inside each block. So
 *
 *     out (x) = op (W[x + first], W[x + first + L - P]),
 *     W[a] = op (h[a], g[a + P - 1]),
 *
 * about a dozen operations per sample whatever L.
 *
 * Why not the tile kernel (morph-vhgw.cu): for L above 64 its staged tile
 * (tile + L - 1 columns of 64 rows) leaves two blocks per SM, and staging,
 * barrier and computing do not overlap (low occupancy and few
 * instructions issued per cycle: the profile is in docs/bench/history.md,
 * "What changed, predicted against measured", its 2026-11-24 H100 run).
 * Here a warp owns a whole row and walks it in chunks of 512 samples
 * (lane l: the 16 samples 16 l .. 16 l + 15, one 16-byte load), the next
 * chunk's load in flight while the current one is computed; no block
 * barrier, 6 KiB of shared memory per warp.
 *
 * The chunks start at the first sample an output of the warp reads,
 * rounded down to a multiple of P. Per chunk k and
 * lane:
 *  1. the 16 samples as eight words of two 16-bit halves, word k holding
 *     samples k and k + 8, each as v * 0x101 (so that __vminu2/__vmaxu2,
 *     one instruction on sm_90, are exact and a byte of either half is
 *     the sample); prefix g and suffix h over the eight words, then across
 *     the P / 16 lanes of each block by shuffles;
 *  2. g to the warp's ring (4 chunks, bytes), h to a second one (2
 *     chunks, pair form);
 *  3. W over the chunk moved back by P samples (the last positions whose
 *     g is in): h read back 16-byte aligned, g 16 bytes at offset P - 1
 *     (two 16-byte shared loads and a funnel shift), to a third ring;
 *  4. the output chunk whose W values are now all there (one chunk behind,
 *     two for the longest windows): two reads of the W ring, one op, one
 *     16-byte store.
 * So a warp scans one chunk more than it writes (two for the longest).
 * The row's ends: input chunks that cross them are gathered sample by
 * sample through cm_border_map (constant: cval; neutral is turned into it
 * by the caller), output chunks that cross the end stored sample by
 * sample. Rows need 16-byte aligned starts (data and pitch). */
#include <stdint.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "cm-cuda.h"
#include "morph-passes.h"
#include "vhgw.cuh"

#define PW_WARPS 2              /* rows per block: 1080 blocks at 4K,
                                   one wave at up to 8 blocks per SM     */
#define PW_CHUNK 512            /* samples per warp step                  */
#define PW_RING_VECS 128        /* 16-byte vectors per ring: 4 chunks     */

struct pw_args
{
  const uint8_t *src;
  uint8_t *dst;
  size_t spitch, dpitch;
  int width, height;
  int first, len;
  int border;                   /* REPLICATE, REFLECT, MIRROR, CONSTANT   */
  uint32_t cval;
  int o_end;                    /* output chunks 0 .. o_end - 1           */
  int o_seg;                    /* output chunks per warp (grid.y parts)  */
  int trigger;                  /* one wave: let the next pass launch     */
};

/* ---- pair form: word k = samples k and k + 8, each as v * 0x101 ------- */

static __device__ __forceinline__ void
pw_unpack (const uint4 & v, uint32_t u[8])
{
#pragma unroll
  for (int j = 0; j < 4; j++) {
    const uint32_t s = j | j << 4 | (4 + j) << 8 | (4 + j) << 12;
    u[j] = __byte_perm (v.x, v.z, s);
    u[4 + j] = __byte_perm (v.y, v.w, s);
  }
}

static __device__ __forceinline__ uint4
pw_pack (const uint32_t u[8])
{
  const uint32_t t01 = __byte_perm (u[0], u[1], 0x6240);
  const uint32_t t23 = __byte_perm (u[2], u[3], 0x6240);
  const uint32_t t45 = __byte_perm (u[4], u[5], 0x6240);
  const uint32_t t67 = __byte_perm (u[6], u[7], 0x6240);
  uint4 v;

  v.x = __byte_perm (t01, t23, 0x5410);
  v.y = __byte_perm (t45, t67, 0x5410);
  v.z = __byte_perm (t01, t23, 0x7632);
  v.w = __byte_perm (t45, t67, 0x7632);
  return v;
}

/* op on four packed bytes with two 16-bit operations: the high byte of a
 * 16-bit min/max is the min/max of the high bytes whatever the low ones */
template <class Op>
static __device__ __forceinline__ uint32_t
pw_op_bytes (uint32_t a, uint32_t b)
{
  const uint32_t hi = Op::apply (a, b);
  const uint32_t lo = Op::apply (a << 8, b << 8);
  return __byte_perm (lo, hi, 0x7351);
}

/* ---- the rings ------------------------------------------------------------ */

/* 16 bytes of a ring from byte position p (any alignment, taken modulo
 * the ring). In a warp p - 16 lane is the same for every lane, so the
 * word phase q and the byte shift are uniform: two aligned 16-byte loads
 * (consecutive lanes, consecutive vectors: no bank conflict), words q to
 * q + 4 of the two, a funnel shift. Q: the word phase when the caller
 * knows it at compile time, else -1 (a uniform branch per phase, cheaper
 * than selects). */
template <int Q>
static __device__ __forceinline__ uint4
pw_ring_read_q (const uint4 * ring, int p)
{
  const int b = (p >> 4) & (PW_RING_VECS - 1);
  const uint32_t sh = (uint32_t) (p & 3) * 8;
  const uint4 A = ring[b], B = ring[(b + 1) & (PW_RING_VECS - 1)];
  const uint32_t v[8] = { A.x, A.y, A.z, A.w, B.x, B.y, B.z, B.w };
  uint4 r;

  r.x = __funnelshift_r (v[Q], v[Q + 1], sh);
  r.y = __funnelshift_r (v[Q + 1], v[Q + 2], sh);
  r.z = __funnelshift_r (v[Q + 2], v[Q + 3], sh);
  r.w = __funnelshift_r (v[Q + 3], v[Q + 4], sh);
  return r;
}

static __device__ __forceinline__ uint4
pw_ring_read (const uint4 * ring, int p)
{
  switch ((p >> 2) & 3) {
    case 0:
      return pw_ring_read_q<0> (ring, p);
    case 1:
      return pw_ring_read_q<1> (ring, p);
    case 2:
      return pw_ring_read_q<2> (ring, p);
    default:
      return pw_ring_read_q<3> (ring, p);
  }
}

/* ---- global memory ---------------------------------------------------------- */

/* samples s .. s + 15 of the row, s a multiple of 16; sample by sample
 * through the border rule when the vector crosses the row's ends */
static __device__ __forceinline__ uint4
pw_load (const pw_args & a, const uint8_t * row, int s)
{
  return row_vector_load<uint8_t> (row, s, a.width, a.border, a.cval);
}

static __device__ __forceinline__ void
pw_store (const pw_args & a, uint8_t * row, int x, uint4 v)
{
  if (x + 16 <= a.width) {
    *(uint4 *) (row + x) = v;
    return;
  }
  const uint32_t w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
  for (int j = 0; j < 16; j++)
    if (x + j < a.width)
      row[x + j] = (uint8_t) (w[j / 4] >> (8 * (j % 4)));
}

/* ---- the kernel --------------------------------------------------------------- */

template <int P, class Op>
static __global__ void __launch_bounds__ (32 * PW_WARPS, 8)
row_pwin_kernel (const __grid_constant__ pw_args a)
{
  constexpr int N = P / 16;     /* lanes per block of P samples */
  __shared__ uint4 rings[PW_WARPS][2][PW_RING_VECS];
  /* h of the last two chunks in pair form: words 0-3 and 4-7 of a lane */
  __shared__ uint4 hrings[PW_WARPS][2][2 * 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int y = (int) blockIdx.x * PW_WARPS + warp;
  const int d = a.first + a.len - P;    /* the second window's offset */
  /* this warp's output samples [x0, x1) */
  const int x0 = (int) blockIdx.y * a.o_seg * PW_CHUNK;
  const int x1 = min (x0 + a.o_seg * PW_CHUNK, a.width);

  /* launched early by pdl_launch: wait for the previous pass; one wave of
   * small blocks, so the next pass may launch at once */
  pdl_wait ();
  if (a.trigger)
    pdl_trigger ();
  if (y >= a.height || x0 >= x1)
    return;                     /* no block barrier below */
  /* Input chunk k: samples s + 512 k .. + 511 from the first one an
   * output reads, s = x0 + first rounded down to a multiple of P (a block
   * of P never straddles two chunks: the scans stay in the warp; centred
   * windows of 2P - 1 lose nothing, first = 1 - P). Iteration k scans
   * chunk k, then computes W over [s + 512 k - P, s + 512 k + 512 - P)
   * (its g up to P - 1 further is in), then writes output chunk
   * m = k - lag, whose W values end at x0 + 512 m + 511 + d. Chunks from
   * in_end on are not needed: the W values read lie below x1 + d, each
   * with its g up to P - 1 further. */
  const int s = (x0 + a.first) & ~(P - 1);
  const int ln = lane % N;
  const int lag = (x0 - s + PW_CHUNK - 1 + d + P) / PW_CHUNK;
  const int k_end = (x1 - x0 + PW_CHUNK - 1) / PW_CHUNK + lag;
  const int in_end = x1 + d + P - 1;
  uint4 *gring = rings[warp][0], *wring = rings[warp][1];
  uint4 *hring0 = hrings[warp][0], *hring1 = hrings[warp][1];
  const uint8_t *srow = a.src + (size_t) y * a.spitch;
  uint8_t *drow = a.dst + (size_t) y * a.dpitch;
  uint4 next = pw_load (a, srow, s + 16 * lane);

  for (int k = 0; k < k_end; k++) {
    const int s0 = s + k * PW_CHUNK;

    if (s0 < in_end) {          /* uniform */
      const uint4 v = next;
      if (s0 + PW_CHUNK < in_end)
        next = pw_load (a, srow, s0 + PW_CHUNK + 16 * lane);

      /* 1. prefix and suffix in the lane, then across the block */
      uint32_t u[8], g[8], h[8];
      pw_unpack (v, u);
      g[0] = u[0];
#pragma unroll
      for (int j = 1; j < 8; j++)
        g[j] = Op::apply (g[j - 1], u[j]);
      h[7] = u[7];
#pragma unroll
      for (int j = 6; j >= 0; j--)
        h[j] = Op::apply (u[j], h[j + 1]);
      /* g[7] = (op of samples 0..7, op of 8..15) */
      const uint32_t tot = Op::apply (g[7], __byte_perm (g[7], 0, 0x1032));
      uint32_t pre = tot, suf = tot;
#pragma unroll
      for (int off = 1; off < N; off *= 2) {
        const uint32_t up = __shfl_up_sync (0xffffffffu, pre, off);
        const uint32_t dn = __shfl_down_sync (0xffffffffu, suf, off);
        if (ln >= off)
          pre = Op::apply (pre, up);
        if (ln + off < N)
          suf = Op::apply (suf, dn);
      }
      uint32_t cg = __shfl_up_sync (0xffffffffu, pre, 1);
      uint32_t ch = __shfl_down_sync (0xffffffffu, suf, 1);
      if (ln == 0)
        cg = Op::identity;
      if (ln == N - 1)
        ch = Op::identity;
      /* the high halves of g also take samples 0..7, the low halves of h
       * samples 8..15 */
      const uint32_t fg = __byte_perm (cg, Op::apply (cg, g[7] << 16), 0x7610);
      const uint32_t fh = __byte_perm (Op::apply (ch, g[7] >> 16), ch, 0x7610);
#pragma unroll
      for (int j = 0; j < 8; j++) {
        g[j] = Op::apply (g[j], fg);
        h[j] = Op::apply (h[j], fh);
      }

      /* 2. g and h to the rings */
      gring[(s0 / 16 + lane) & (PW_RING_VECS - 1)] = pw_pack (g);
      hring0[(32 * k + lane) & 63] = make_uint4 (h[0], h[1], h[2], h[3]);
      hring1[(32 * k + lane) & 63] = make_uint4 (h[4], h[5], h[6], h[7]);
    }
    __syncwarp ();

    /* 3. W at p = s0 - P + 16 lane: h 16-byte aligned N vectors back, g
     * P - 1 samples on (word phase known at compile time). At k = 0 the
     * first N lanes read slots never written: W below s, never read. */
    {
      const int p = s0 - P + 16 * lane;
      const int hi = (32 * k - N + lane) & 63;
      const uint4 h0 = hring0[hi], h1 = hring1[hi];
      const uint32_t hv[8] = { h0.x, h0.y, h0.z, h0.w, h1.x, h1.y, h1.z,
        h1.w
      };
      uint32_t gl[8];
      pw_unpack (pw_ring_read_q<((P - 1) >> 2) & 3> (gring, p + P - 1), gl);
#pragma unroll
      for (int j = 0; j < 8; j++)
        gl[j] = Op::apply (gl[j], hv[j]);
      wring[(p >> 4) & (PW_RING_VECS - 1)] = pw_pack (gl);
    }
    __syncwarp ();

    /* 4. output chunk k - lag */
    if (k >= lag) {
      const int x = x0 + (k - lag) * PW_CHUNK + 16 * lane;
      const uint4 w1 = pw_ring_read (wring, x + a.first);
      const uint4 w2 = pw_ring_read (wring, x + d);
      uint4 r;
      r.x = pw_op_bytes<Op> (w1.x, w2.x);
      r.y = pw_op_bytes<Op> (w1.y, w2.y);
      r.z = pw_op_bytes<Op> (w1.z, w2.z);
      r.w = pw_op_bytes<Op> (w1.w, w2.w);
      if (x < x1)
        pw_store (a, drow, x, r);
    }
  }
}

/* ---- host side ------------------------------------------------------------ */

typedef void (*pw_kernel) (const pw_args);

static int
pw_block (int len)
{
  int p = 32;

  while (p * 2 <= len)
    p *= 2;
  return p;
}

/* row_pwin_kernel<P, Op> by P (cm_pow2_pick) */
template <class Op>
struct pw_by_p
{
  template <int P>
  static pw_kernel get ()
  {
    return row_pwin_kernel<P, Op>;
  }
};

template <class Op>
static pw_kernel
pw_for_p (int p)
{
  return cm_pow2_pick<pw_by_p<Op>, 32, 256> (p);
}

/* parts per row: @parts when > 0, else enough warps for about 32 per SM;
 * *sms_out: the SMs */
static int
pw_parts (int width, int height, int parts, int *sms_out)
{
  const int chunks = (width + PW_CHUNK - 1) / PW_CHUNK;
  const int sms = current_device_attr (cudaDevAttrMultiProcessorCount);

  *sms_out = sms;
  if (parts <= 0)
    parts = (sms * 32 + height - 1) / height;
  if (parts > chunks)
    parts = chunks;
  if (parts > 65535)
    parts = 65535;
  return parts < 1 ? 1 : parts;
}

int
cm_row_pwin_takes (cm_depth depth, int first, int len)
{
  const int p = pw_block (len);

  /* the lag of the rings: every window lies in the chunks before, of and
   * after its output chunk */
  return depth == CM_DEPTH_8 && len >= 32 && len <= 511 &&
      first >= -PW_CHUNK && first + len - p <= PW_CHUNK - 1;
}

cudaError_t
cm_row_pwin_pass (const cm_image * src, const cm_image * dst, int first,
    int len, int is_min, cm_border_mode border, uint32_t cval, int parts,
    int pdl, cudaStream_t stream)
{
  const int p = pw_block (len);
  pw_args a;
  int sms;

  if (src->depth != dst->depth || !cm_row_pwin_takes (src->depth, first, len)
      || !cm_rows_vec_aligned (src, dst))
    return cudaErrorInvalidValue;
  pass_set_views (a, src, dst);
  a.first = first;
  a.len = len;
  a.border = (int) border;
  a.cval = cval;
  a.o_end = (src->width + PW_CHUNK - 1) / PW_CHUNK;
  /* Rows split into parts, one warp each: a 4K frame has only 2,160 rows,
   * 16 warps per SM of an H100, too few to hide the latency of a warp's
   * chain of shuffles and shared accesses; each part pays the rings' lag
   * (one chunk) again. parts: the tuning's (cm_morph_tuning.pwin_parts). */
  parts = pw_parts (src->width, src->height, parts, &sms);
  a.o_seg = (a.o_end + parts - 1) / parts;
  parts = (a.o_end + a.o_seg - 1) / a.o_seg;

  const pw_kernel k = is_min ? pw_for_p<op_min2> (p) : pw_for_p<op_max2> (p);
  const dim3 grid ((unsigned) ((src->height + PW_WARPS - 1) / PW_WARPS),
      (unsigned) parts);
  /* the early launch of the next pass only when this one runs in one wave
   * (16 blocks per SM: shared memory allows 18) */
  a.trigger = (double) grid.x * grid.y <= 16.0 * sms;
  return pdl_launch (k, grid, dim3 (32 * PW_WARPS), 0, stream, a, pdl);
}
