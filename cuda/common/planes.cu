/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Interleaved <-> planar copies of one channel (planes.h), the device
 * twins of planes-ref.c. One thread per pixel, consecutive threads of a
 * warp on consecutive pixels of a row: the planar side is read or written
 * contiguously, the interleaved side touches every sector of its span (the
 * other channels' bytes ride along in the same sectors). */
#include <stdint.h>
#include <cuda_runtime.h>

#include "planes.h"
#include "cm-cuda.h"

#define BX 64
#define BY 4

/* One sample of BPP bytes; SPLIT: 16-bit samples on an odd address or
 * pitch, copied byte by byte. */
template <int BPP, bool SPLIT>
static __device__ __forceinline__ void
copy_sample (uint8_t * d, const uint8_t * s)
{
  if (BPP == 1)
    *d = *s;
  else if (SPLIT) {
    d[0] = s[0];
    d[1] = s[1];
  } else
    *(uint16_t *) d = *(const uint16_t *) s;
}

/* extract: interleaved src, planar dst; insert: the reverse */
template <int BPP, bool SPLIT, bool INSERT>
static __global__ void __launch_bounds__ (BX * BY)
channel_kernel (const uint8_t * __restrict__ src, size_t spitch,
    uint8_t * __restrict__ dst, size_t dpitch, int channels, int channel,
    int width, int height)
{
  const int x = (int) (blockIdx.x * BX + threadIdx.x);
  const int y = (int) (blockIdx.y * BY + threadIdx.y);

  if (x >= width || y >= height)
    return;
  const size_t packed = ((size_t) x * channels + channel) * BPP;
  const size_t planar = (size_t) x * BPP;
  const uint8_t *s = src + (size_t) y * spitch + (INSERT ? planar : packed);
  uint8_t *d = dst + (size_t) y * dpitch + (INSERT ? packed : planar);
  copy_sample<BPP, SPLIT> (d, s);
}

typedef void (*channel_fn) (const uint8_t *, size_t, uint8_t *, size_t, int,
    int, int, int);

static channel_fn
channel_kernel_for (int bpp, int split, int insert)
{
  if (bpp == 1)
    return insert ? channel_kernel<1, false, true>
        : channel_kernel<1, false, false>;
  if (split)
    return insert ? channel_kernel<2, true, true>
        : channel_kernel<2, true, false>;
  return insert ? channel_kernel<2, false, true>
      : channel_kernel<2, false, false>;
}

/* packed <-> planar copy of `channel`; insert: planar -> packed */
static cm_status
channel_copy (const cm_image_packed * p, int channel, const cm_image * img,
    int insert, cudaStream_t stream)
{
  dim3 block (BX, BY), grid;
  uintptr_t any;
  int bpp;
  channel_fn k;

  if (!cm_channel_copy_ok (p, channel, img))
    return CM_ERR_INVALID_ARG;
  grid = dim3 ((unsigned) ((p->width + BX - 1) / BX),
      (unsigned) ((p->height + BY - 1) / BY));
  if (grid.y > 65535u)
    return CM_ERR_INVALID_ARG;
  bpp = cm_depth_bytes (p->depth);
  any = (uintptr_t) p->data | (uintptr_t) p->pitch |
      (uintptr_t) img->data | (uintptr_t) img->pitch;
  k = channel_kernel_for (bpp, (any & 1) != 0, insert);
  if (insert)
    k <<< grid, block, 0, stream >>> ((const uint8_t *) img->data,
        img->pitch, (uint8_t *) p->data, p->pitch, p->channels, channel,
        p->width, p->height);
  else
    k <<< grid, block, 0, stream >>> ((const uint8_t *) p->data, p->pitch,
        (uint8_t *) img->data, img->pitch, p->channels, channel, p->width,
        p->height);
  return cm_status_from_cuda (cudaGetLastError ());
}

extern "C" cm_status
cm_extract_channel_cuda (const cm_image_packed * src, int channel,
    const cm_image * dst, void *stream)
{
  return channel_copy (src, channel, dst, 0, (cudaStream_t) stream);
}

extern "C" cm_status
cm_insert_channel_cuda (const cm_image * src, int channel,
    const cm_image_packed * dst, void *stream)
{
  return channel_copy (dst, channel, src, 1, (cudaStream_t) stream);
}
