/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/, shared by two families: the van Herk / Gil-Werman
 * chunk of morph's 1-D passes (morph/morph-vhgw*.cu) and linspectrum's
 * linear openings (linspectrum/linspectrum-sheared.cu), the min/max
 * operators it is instantiated with (the passes' launch helpers are in
 * cm-pdl.cuh).
 *
 * Window of length len starting at t: a thread owns C consecutive windows
 * 0 .. C-1 (C a power of two <= len). With the split point P = C every
 * window contains [i, P) and [P, i + len), so out(i) = op (R[i], A[i])
 * with R the suffix extremes of [0, P) (registers) and A the running
 * prefix extreme from P on: C + len - 1 reads for C outputs. */
#pragma once

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#include "cm-border.h"
#include "cm-image.h"
#include "cm-pdl.cuh"

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

/* ---- a row's 16-byte vector through the border rule ---------------------
 * Samples x .. x + 16 / sizeof (Pix) - 1 of row (x a multiple of that
 * count); sample by sample through cm_border_map where the vector crosses
 * the row's ends (border REPLICATE, REFLECT, MIRROR or CONSTANT with
 * cval). The row must allow 16-byte accesses. */
template <typename Pix>
static __device__ __forceinline__ uint4
row_vector_load (const uint8_t * row, int x, int width, int border,
    uint32_t cval)
{
  constexpr int VPX = 16 / (int) sizeof (Pix);
  union
  {
    uint4 v;
    Pix p[VPX];
  } u;

  if (x >= 0 && x + VPX <= width)
    return __ldg ((const uint4 *) (row + (size_t) x * sizeof (Pix)));
#pragma unroll
  for (int i = 0; i < VPX; i++) {
    int c = x + i;
    if (c < 0 || c >= width) {
      if (border == CM_BORDER_CONSTANT) {
        u.p[i] = (Pix) cval;
        continue;
      }
      c = cm_border_map ((cm_border_mode) border, c, width);
    }
    u.p[i] = ((const Pix *) row)[c];
  }
  return u.v;
}

/* ---- min / max on one sample or two 16-bit halves -------------------- */

/* min (MIN) or max on two 16-bit halves (TWO) or on one sample, and the
 * operator's identity */
template <bool MIN, bool TWO>
struct op_minmax
{
  static constexpr uint32_t identity = MIN ? 0xffffffffu : 0u;
  static __device__ __forceinline__ uint32_t apply (uint32_t a, uint32_t b)
  {
    if constexpr (TWO)
      return MIN ? __vminu2 (a, b) : __vmaxu2 (a, b);
    else
      return MIN ? min (a, b) : max (a, b);
  }
};

struct op_min2 : op_minmax<true, true>
{
};
struct op_max2 : op_minmax<false, true>
{
};
struct op_min1 : op_minmax<true, false>
{
};
struct op_max1 : op_minmax<false, false>
{
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
