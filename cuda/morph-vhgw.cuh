/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/: the van Herk / Gil-Werman chunk shared by the 1-D
 * passes (morph-vhgw.cu) and the 2-D rectangle kernel (morph-rect2d.cu),
 * and the min/max operators it is instantiated with. Device code only.
 *
 * Window of length len starting at t: a thread owns C consecutive windows
 * 0 .. C-1 (C a power of two <= len). With the split point P = C every
 * window contains [i, P) and [P, i + len), so out(i) = op (R[i], A[i])
 * with R the suffix extremes of [0, P) (registers) and A the running
 * prefix extreme from P on: C + len - 1 reads for C outputs. */
#pragma once

#include <stdint.h>
#include <cuda_runtime.h>
#include "cm-image.h"

/* ---- kernel arguments --------------------------------------------------
 * The source and destination views every pass kernel's argument struct
 * carries (fields src, dst, spitch, dpitch, width, height), filled from
 * the two images on the host. */
template <class Args>
static inline void
pass_set_views (Args & a, const cm_image * src, const cm_image * dst)
{
  a.src = (const uint8_t *) src->data;
  a.dst = (uint8_t *) dst->data;
  a.spitch = src->pitch;
  a.dpitch = dst->pitch;
  a.width = src->width;
  a.height = src->height;
}

/* ---- min / max on one sample, two 16-bit halves or four bytes --------- */

struct op_min4
{
  static constexpr uint32_t identity = 0xffffffffu;
  static __device__ __forceinline__ uint32_t apply (uint32_t a, uint32_t b)
  {
    return __vminu4 (a, b);
  }
};

struct op_max4
{
  static constexpr uint32_t identity = 0u;
  static __device__ __forceinline__ uint32_t apply (uint32_t a, uint32_t b)
  {
    return __vmaxu4 (a, b);
  }
};

struct op_min2
{
  static constexpr uint32_t identity = 0xffffffffu;
  static __device__ __forceinline__ uint32_t apply (uint32_t a, uint32_t b)
  {
    return __vminu2 (a, b);
  }
};

struct op_max2
{
  static constexpr uint32_t identity = 0u;
  static __device__ __forceinline__ uint32_t apply (uint32_t a, uint32_t b)
  {
    return __vmaxu2 (a, b);
  }
};

struct op_min1
{
  static constexpr uint32_t identity = 0xffffffffu;
  static __device__ __forceinline__ uint32_t apply (uint32_t a, uint32_t b)
  {
    return min (a, b);
  }
};

struct op_max1
{
  static constexpr uint32_t identity = 0u;
  static __device__ __forceinline__ uint32_t apply (uint32_t a, uint32_t b)
  {
    return max (a, b);
  }
};

/* ---- the vHGW chunk ------------------------------------------------------
 * rd (t), t = 0 .. C + len - 2: the samples from the first window's start.
 * em (i, v): output of the window starting at t = i, i = 0 .. C-1.
 * Requires C <= len. */
template <int C, class Op, class Rd, class Em>
static __device__ __forceinline__ void
vhgw_chunk (const Rd & rd, int len, Em & em)
{
  uint32_t r[C];
  uint32_t acc = Op::identity;

  r[C - 1] = rd (C - 1);
#pragma unroll
  for (int i = C - 2; i >= 0; i--)
    r[i] = Op::apply (rd (i), r[i + 1]);
  /* prefix of [C, len - 1): shared by all windows of the chunk */
#pragma unroll 8
  for (int t = C; t < len - 1; t++)
    acc = Op::apply (acc, rd (t));
#pragma unroll
  for (int i = 0; i < C; i++) {
    if (i + len - 1 >= C)
      acc = Op::apply (acc, rd (i + len - 1));
    em (i, Op::apply (r[i], acc));
  }
}
