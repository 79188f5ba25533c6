/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the van Herk / Gil-Werman passes (morph-vhgw*.cu): the
 * block shape, the pass arguments and the device helpers that the kernels
 * of morph-vhgw-columns.cu and morph-vhgw-rows.cu share, and the lookup
 * of a kernel by (variant, depth, chunk, min/max) that the host side of
 * morph-vhgw.cu launches. */
#pragma once

#include <stdint.h>
#include <cuda_runtime.h>

#include "cm-cuda.h"
#include "morph-passes.h"
#include "vhgw.cuh"

#define LANES 32                /* threads along x of every block          */
#define WARPS 8                 /* threads along y of every block          */
#define HT_ROWS (2 * LANES)     /* rows of a horizontal tile               */
#define HT_STRIDE (LANES + 1)   /* words per column of a horizontal tile   */

/* ---- border rule ------------------------------------------------------ */

/* cm_border_map (cm-border.h) is host and device code: the kernels use the
 * reference's own definition. Index-map rules only. */
static __device__ __forceinline__ int
border_map (int mode, int i, int n)
{
  return cm_border_map ((cm_border_mode) mode, i, n);
}

/* shared tile column: sample t at p[t * S] */
template <int S>
struct tile_reader
{
  const uint32_t *p;
  __device__ __forceinline__ uint32_t operator () (int t) const
  {
    return p[t * S];
  }
};

/* ---- pairs of samples as two 16-bit halves ------------------------------ */

/* Samples x, x+1 (x even) of a row as the two halves of a word. FULL: both
 * exist and the row allows one 2-byte (8-bit) or 4-byte (16-bit) access
 * at even x; else sample by sample, a missing x+1 giving 0. */
template <typename Pix, bool FULL>
static __device__ __forceinline__ uint32_t
load_pair (const uint8_t * row, int x, int width)
{
  const Pix *r = (const Pix *) row;

  if (FULL) {
    if (sizeof (Pix) == 1)
      return __byte_perm (*(const uint16_t *) (row + x), 0, 0x4140);
    return *(const uint32_t *) (r + x);
  }
  return (uint32_t) r[x] | (x + 1 < width ? (uint32_t) r[x + 1] << 16 : 0u);
}

template <typename Pix, bool FULL>
static __device__ __forceinline__ void
store_pair (uint8_t * row, int x, int width, uint32_t v)
{
  Pix *r = (Pix *) row;

  if (FULL) {
    if (sizeof (Pix) == 1)
      *(uint16_t *) (row + x) = (uint16_t) __byte_perm (v, 0, 0x0020);
    else
      *(uint32_t *) (r + x) = v;
    return;
  }
  r[x] = (Pix) v;
  if (x + 1 < width)
    r[x + 1] = (Pix) (v >> 16);
}

/* Everything a kernel needs to know about the pass */
struct pass_args
{
  const uint8_t *src;
  uint8_t *dst;
  size_t spitch, dpitch;
  int width, height;
  int first, len;               /* window in the kernel's walk coordinate */
  int tile;                     /* outputs per block along the walk       */
  int border;                   /* REPLICATE, REFLECT, MIRROR, CONSTANT   */
  uint32_t cval;                /* constant sample                        */
  int src_aligned, dst_aligned; /* rows allow pair accesses (load_pair)  */
  int src_vec, dst_vec;         /* rows allow 16-byte accesses (h kernel) */
  /* lines kernel only */
  int sigma;                    /* x = e + sigma * b (0, 1, -1)           */
  int trans;                    /* walk along x, lines are rows           */
  int e_min, e_count;           /* lines; sheared: columns e              */
  int grid_tiles;               /* sheared: tiles from row 0, not ya      */
  int diag_checked;             /* sheared: cm_segment.diag_checked       */
  int reverse;                  /* sheared: strips from the last one      */
};

typedef void (*pass_kernel) (const pass_args);

/* The kernel of (variant, depth, C, min/max) from a file's family of
 * kernel templates, Family::get<Pix, C, Op2, Op1> (variant): Op2 the
 * operator on two 16-bit halves, Op1 on one sample. C is a power of two
 * up to 64. */
template <class Family, typename Pix, class Op2, class Op1>
struct vhgw_by_c
{
  template <int C>
  static pass_kernel get (cm_pass_variant v)
  {
    return Family::template get<Pix, C, Op2, Op1> (v);
  }
};

template <class Family, typename Pix, class Op2, class Op1>
static pass_kernel
vhgw_kernel_for_depth (cm_pass_variant v, int c)
{
  return cm_pow2_pick<vhgw_by_c<Family, Pix, Op2, Op1>, 1, 64> (c, v);
}

template <class Family>
static pass_kernel
vhgw_kernel_for (cm_pass_variant v, cm_depth depth, int is_min, int c)
{
  if (depth == CM_DEPTH_16)
    return is_min ?
        vhgw_kernel_for_depth<Family, uint16_t, op_min2, op_min1> (v, c) :
        vhgw_kernel_for_depth<Family, uint16_t, op_max2, op_max1> (v, c);
  return is_min ?
      vhgw_kernel_for_depth<Family, uint8_t, op_min2, op_min1> (v, c) :
      vhgw_kernel_for_depth<Family, uint8_t, op_max2, op_max1> (v, c);
}

/* CM_PASS_VERTICAL and CM_PASS_SHEARED (morph-vhgw-columns.cu) */
pass_kernel vhgw_columns_kernel (cm_pass_variant v, cm_depth depth,
    int is_min, int c);
/* CM_PASS_HORIZONTAL and CM_PASS_LINES (morph-vhgw-rows.cu) */
pass_kernel vhgw_rows_kernel (cm_pass_variant v, cm_depth depth, int is_min,
    int c);
