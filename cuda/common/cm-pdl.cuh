/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/: launching kernels of a chain (programmatic dependent
 * launch on sm_90) and reading the current device's attributes, for the
 * plans of several families (morph's passes, the blobs' steps). */
#pragma once

#include <cuda_runtime.h>

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

/* Launch of a kernel of several parameters (@args, as the kernel takes
 * them) with the programmatic stream serialization attribute when @pdl
 * (decided when the plan was made: compute capability 9.0 or later) */
template <typename... Params, typename... Args>
static inline cudaError_t
pdl_launch_params (void (*kernel) (Params...), dim3 grid, dim3 block,
    size_t smem, cudaStream_t stream, int pdl, Args... args)
{
  cudaLaunchConfig_t cfg = { };
  cudaLaunchAttribute attr;

  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = pdl ? 1 : 0;
  return cudaLaunchKernelEx (&cfg, kernel, args...);
}

/* As pdl_launch_params for a kernel of one argument struct, when @allow
 * and the current device is of compute capability 9.0 or later (allow 0:
 * plain launches, cm_morph_tuning.no_pdl, for comparisons); the kernel
 * must call pdl_wait () first. The device's answer is kept per device (the
 * first 64; others ask on every launch). */
template <class Args>
static inline cudaError_t
pdl_launch (void (*kernel) (const Args), dim3 grid, dim3 block, size_t smem,
    cudaStream_t stream, const Args & args, int allow)
{
  static signed char known[64]; /* 0: not asked yet, 1: before 9.0, 2: 9.0+ */
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
  return pdl_launch_params (kernel, grid, block, smem, stream,
      capable && allow, args);
}
