/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/, shared by two families: the van Herk / Gil-Werman
 * chunk of morph's 1-D passes (morph/morph-vhgw*.cu) and linspectrum's
 * linear openings (linspectrum/linspectrum-sheared.cu), the min/max
 * operators it is instantiated with, and the launch helpers of the passes
 * (programmatic dependent launch, device attributes).
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

/* ---- host: an attribute of the current device ---------------------------
 * 0 when it cannot be read (the error is cleared: the caller falls back to
 * its default choice). */
static inline int
current_device_attr (cudaDeviceAttr attr)
{
  int dev, v = 0;

  if (cudaGetDevice (&dev) != cudaSuccess ||
      cudaDeviceGetAttribute (&v, attr, dev) != cudaSuccess) {
    (void) cudaGetLastError ();
    return 0;
  }
  return v;
}

/* ---- programmatic dependent launch (sm_90) --------------------------------
 * A pass launched by pdl_launch may start while the kernel before it in
 * the stream is still running: its blocks get resident and set up during
 * the other's last blocks instead of after its completion (the launch gap
 * between passes of a chain). Such a kernel calls pdl_wait () before any
 * global memory access: it returns once every kernel before it has
 * completed and its writes are visible, so sources written and
 * destinations still read by the previous pass stay safe. pdl_trigger ()
 * lets the next pass launch before this one ends (only in kernels of one
 * wave: waiting blocks of the next pass must not take the slots of this
 * one's later waves). Both are no-ops before sm_90 and when launched
 * normally. */
static __device__ __forceinline__ void
pdl_wait (void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile ("griddepcontrol.wait;":::"memory");
#endif
}

static __device__ __forceinline__ void
pdl_trigger (void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile ("griddepcontrol.launch_dependents;":::"memory");
#endif
}

/* Launch with the programmatic stream serialization attribute when
 * @allow and the device is of compute capability 9.0 or later (allow 0:
 * plain launches, cm_morph_tuning.no_pdl, for comparisons); the kernel
 * must call pdl_wait () first. The device's answer is kept per device (the
 * first 64; others ask on every launch). */
template <class Args>
static inline cudaError_t
pdl_launch (void (*kernel) (const Args), dim3 grid, dim3 block, size_t smem,
    cudaStream_t stream, const Args & args, int allow)
{
  static signed char known[64]; /* 0: not asked yet, 1: before 9.0, 2: 9.0+ */
  cudaLaunchConfig_t cfg = { };
  cudaLaunchAttribute attr;
  int dev = -1, capable;

  if (cudaGetDevice (&dev) != cudaSuccess) {
    (void) cudaGetLastError ();
    dev = -1;
  }
  if (dev >= 0 && dev < 64 && known[dev])
    capable = known[dev] == 2;
  else {
    capable = current_device_attr (cudaDevAttrComputeCapabilityMajor) >= 9;
    if (dev >= 0 && dev < 64)
      known[dev] = capable ? 2 : 1;
  }
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = capable && allow ? 1 : 0;
  return cudaLaunchKernelEx (&cfg, kernel, args);
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
