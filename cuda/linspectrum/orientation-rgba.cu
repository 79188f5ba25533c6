/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Orientation colouring (orientation-rgba.h), the device twin of
 * orientation-rgba-ref.c: one thread per pixel, integer arithmetic only,
 * the hue of each orientation read from a table computed on the host by
 * cm_orientation_hue_table (the same double-precision code as the
 * reference). A warp covers consecutive pixels of a row, so every read
 * and the 4-byte write are coalesced. */
#include <stdint.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "orientation-rgba.h"
#include "cm-cuda.h"

#define BX 64
#define BY 4

struct cm_orientation_rgba_plan
{
  uint16_t *d_hue;              /* n entries */
  int n;
  int close;
};

/* T: sample type of sup; PACKED: dst address and pitch are multiples of
 * 4, so a pixel is one 32-bit store */
template <typename T, bool PACKED>
static __global__ void __launch_bounds__ (BX * BY)
rgba_kernel (const uint8_t * __restrict__ sup, size_t sup_pitch,
    const uint8_t * __restrict__ ori, size_t ori_pitch,
    uint8_t * __restrict__ dst, size_t dst_pitch,
    const uint16_t * __restrict__ hue, int n, int close, uint32_t m,
    int width, int height)
{
  const int x = (int) (blockIdx.x * BX + threadIdx.x);
  const int y = (int) (blockIdx.y * BY + threadIdx.y);

  if (x >= width || y >= height)
    return;

  const uint32_t s = __ldg ((const T *) (sup + (size_t) y * sup_pitch) + x);
  uint32_t i = __ldg ((const uint16_t *) (ori + (size_t) y * ori_pitch) + x);
  if (i >= (uint32_t) n)
    i = (uint32_t) n - 1;

  const uint32_t u = close ? m - s : s;
  const uint32_t v = (u * 255u + m / 2u) / m;
  uint32_t rgb[3];

  cm_orientation_rgb (v, __ldg (hue + i), rgb);

  uint8_t *out = dst + (size_t) y * dst_pitch + 4 * (size_t) x;
  if (PACKED) {
    /* little-endian: the bytes R, G, B, A in memory order */
    *(uint32_t *) out = rgb[0] | (rgb[1] << 8) | (rgb[2] << 16) |
        (255u << 24);
  } else {
    out[0] = (uint8_t) rgb[0];
    out[1] = (uint8_t) rgb[1];
    out[2] = (uint8_t) rgb[2];
    out[3] = 255;
  }
}

typedef void (*rgba_fn) (const uint8_t *, size_t, const uint8_t *, size_t,
    uint8_t *, size_t, const uint16_t *, int, int, uint32_t, int, int);

static rgba_fn
rgba_kernel_for (cm_depth depth, bool packed)
{
  if (depth == CM_DEPTH_16)
    return packed ? rgba_kernel<uint16_t, true> : rgba_kernel<uint16_t,
        false>;
  return packed ? rgba_kernel<uint8_t, true> : rgba_kernel<uint8_t, false>;
}

extern "C" cm_status
cm_orientation_rgba_plan_new (cm_orientation_rgba_plan ** out,
    const cm_linspectrum_desc * desc)
{
  cm_orientation_rgba_plan *p;
  uint16_t *hue;
  cudaError_t e;
  cm_status st;
  int n;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  n = cm_linspectrum_count_angles (desc);
  if (n < 1)
    return CM_ERR_INVALID_ARG;

  hue = (uint16_t *) malloc (sizeof (uint16_t) * (size_t) n);
  p = (cm_orientation_rgba_plan *) calloc (1, sizeof (*p));
  if (!hue || !p) {
    free (hue);
    free (p);
    return CM_ERR_NO_MEMORY;
  }
  st = cm_orientation_hue_table (desc, hue, n);
  if (st != CM_OK) {
    free (hue);
    free (p);
    return st;
  }
  p->n = n;
  p->close = desc->op == CM_MORPH_CLOSE;

  /* once per descriptor, outside the data path: a synchronous copy */
  e = cudaMalloc ((void **) &p->d_hue, sizeof (uint16_t) * (size_t) n);
  if (e == cudaSuccess)
    e = cudaMemcpy (p->d_hue, hue, sizeof (uint16_t) * (size_t) n,
        cudaMemcpyHostToDevice);
  free (hue);
  if (e != cudaSuccess) {
    cm_orientation_rgba_plan_free (p);
    return cm_status_from_cuda (e);
  }
  *out = p;
  return CM_OK;
}

extern "C" cm_status
cm_orientation_rgba_plan_run (cm_orientation_rgba_plan * plan,
    const cm_image * sup, const cm_image * orient,
    const cm_image_packed * dst, void *stream)
{
  dim3 block (BX, BY), grid;
  bool packed;

  if (!plan || !cm_orientation_rgba_views_ok (sup, orient, dst) ||
      !cm_image_aligned_ok (sup) || !cm_image_aligned_ok (orient))
    return CM_ERR_INVALID_ARG;

  grid = dim3 ((unsigned) ((sup->width + BX - 1) / BX),
      (unsigned) ((sup->height + BY - 1) / BY));
  if (grid.y > 65535u)
    return CM_ERR_INVALID_ARG;
  packed = (((uintptr_t) dst->data | (uintptr_t) dst->pitch) & 3) == 0;

  rgba_kernel_for (sup->depth, packed) <<< grid, block, 0,
      (cudaStream_t) stream >>> ((const uint8_t *) sup->data, sup->pitch,
      (const uint8_t *) orient->data, orient->pitch, (uint8_t *) dst->data,
      dst->pitch, plan->d_hue, plan->n, plan->close,
      cm_depth_max (sup->depth), sup->width, sup->height);
  return cm_status_from_cuda (cudaGetLastError ());
}

extern "C" void
cm_orientation_rgba_plan_free (cm_orientation_rgba_plan * plan)
{
  if (!plan)
    return;
  cudaFree (plan->d_hue);
  free (plan);
}
