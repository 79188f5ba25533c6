/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Devices, streams, pitched device images, pinned host memory and async
 * copies: thin wrappers over the CUDA runtime (device.h). Nothing here
 * prints or aborts; a machine without a driver simply has no device.
 * A failed runtime call is followed by cudaGetLastError () so that its
 * error does not surface later as the error of an unrelated launch. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <cuda_runtime.h>

#include "device.h"
#include "cm-cuda.h"

extern "C" const char *cm_cuda_error_text (int cuda_error);

extern "C" const char *
cm_cuda_error_text (int cuda_error)
{
  return cudaGetErrorString ((cudaError_t) cuda_error);
}

extern "C" int
cm_have_cuda (void)
{
  return 1;
}

extern "C" int
cm_device_count (void)
{
  int n = 0;

  if (cudaGetDeviceCount (&n) != cudaSuccess) {
    (void) cudaGetLastError ();
    return 0;
  }
  return n > 0 ? n : 0;
}

static int
resolve_device (int device_id)
{
  return device_id < 0 ? 0 : device_id;
}

extern "C" cm_status
cm_device_set (int device_id)
{
  int id = resolve_device (device_id);

  if (id >= cm_device_count ())
    return CM_ERR_NO_DEVICE;
  return cm_cuda_status (cudaSetDevice (id));
}

extern "C" cm_status
cm_device_name (int device_id, char *buf, size_t size)
{
  cudaDeviceProp prop;
  int id = resolve_device (device_id);
  cm_status st;

  if (!buf || size == 0)
    return CM_ERR_INVALID_ARG;
  if (id >= cm_device_count ()) {
    snprintf (buf, size, "none");
    return CM_ERR_NO_DEVICE;
  }
  st = cm_cuda_status (cudaGetDeviceProperties (&prop, id));
  if (st != CM_OK) {
    snprintf (buf, size, "unknown");
    return st;
  }
  prop.name[sizeof (prop.name) - 1] = '\0';
  snprintf (buf, size, "%s", prop.name);
  return CM_OK;
}

extern "C" cm_status
cm_stream_new (cm_stream * out)
{
  cudaStream_t s = NULL;
  cm_status st;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  st = cm_cuda_status (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking));
  if (st == CM_OK)
    *out = (cm_stream) s;
  return st;
}

extern "C" cm_status
cm_stream_free (cm_stream stream)
{
  if (!stream)
    return CM_OK;               /* the default stream is not ours */
  return cm_cuda_status (cudaStreamDestroy ((cudaStream_t) stream));
}

extern "C" cm_status
cm_stream_sync (cm_stream stream)
{
  return cm_cuda_status (cudaStreamSynchronize ((cudaStream_t) stream));
}

/* An event with @flags (cudaEventCreate is cudaEventDefault) */
static cm_status
event_new (cm_event * out, unsigned flags)
{
  cudaEvent_t ev = NULL;
  cm_status st;

  if (!out)
    return CM_ERR_INVALID_ARG;
  st = cm_cuda_status (cudaEventCreateWithFlags (&ev, flags));
  *out = st == CM_OK ? (cm_event) ev : NULL;
  return st;
}

extern "C" cm_status
cm_event_new (cm_event * out)
{
  return event_new (out, cudaEventDisableTiming);
}

extern "C" cm_status
cm_event_new_timed (cm_event * out)
{
  return event_new (out, cudaEventDefault);
}

extern "C" cm_status
cm_event_elapsed_us (cm_event start, cm_event end, double *us, int *done)
{
  cudaError_t e;
  float ms = 0.f;

  if (!start || !end || !us || !done)
    return CM_ERR_INVALID_ARG;
  *done = 0;
  e = cudaEventQuery ((cudaEvent_t) end);
  if (e == cudaErrorNotReady) {
    (void) cudaGetLastError ();   /* not an error: still running */
    return CM_OK;
  }
  if (e == cudaSuccess)
    e = cudaEventElapsedTime (&ms, (cudaEvent_t) start, (cudaEvent_t) end);
  if (e != cudaSuccess)
    return cm_cuda_status (e);
  *us = (double) ms * 1000.0;
  *done = 1;
  return CM_OK;
}

extern "C" cm_status
cm_event_free (cm_event event)
{
  if (!event)
    return CM_OK;
  return cm_cuda_status (cudaEventDestroy ((cudaEvent_t) event));
}

extern "C" cm_status
cm_event_record (cm_event event, cm_stream stream)
{
  return cm_cuda_status (cudaEventRecord ((cudaEvent_t) event,
          (cudaStream_t) stream));
}

extern "C" cm_status
cm_event_sync (cm_event event)
{
  return cm_cuda_status (cudaEventSynchronize ((cudaEvent_t) event));
}

extern "C" cm_status
cm_stream_wait_event (cm_stream stream, cm_event event)
{
  if (!event)
    return CM_ERR_INVALID_ARG;
  return cm_cuda_status (cudaStreamWaitEvent ((cudaStream_t) stream,
          (cudaEvent_t) event, 0));
}

static cm_status
alloc_pitched (void **data, size_t *pitch, size_t width_bytes, int height)
{
  void *p = NULL;
  size_t pt = 0;
  cm_status st;

  st = cm_cuda_status (cudaMallocPitch (&p, &pt, width_bytes, (size_t) height));
  if (st != CM_OK)
    return st;
  *data = p;
  *pitch = pt;
  return CM_OK;
}

extern "C" cm_status
cm_device_image_alloc (cm_image * img, int width, int height, cm_depth depth)
{
  if (!img)
    return CM_ERR_INVALID_ARG;
  img->data = NULL;
  img->pitch = 0;
  if (!cm_frame_ok (width, height, depth))
    return CM_ERR_INVALID_ARG;
  img->width = width;
  img->height = height;
  img->depth = depth;
  return alloc_pitched (&img->data, &img->pitch,
      (size_t) width * cm_depth_bytes (depth), height);
}

extern "C" cm_status
cm_device_packed_alloc (cm_image_packed * img, int width, int height,
    cm_depth depth, int channels)
{
  if (!img)
    return CM_ERR_INVALID_ARG;
  img->data = NULL;
  img->pitch = 0;
  if (!cm_frame_ok (width, height, depth) || channels < 1 || channels > 4)
    return CM_ERR_INVALID_ARG;
  img->width = width;
  img->height = height;
  img->depth = depth;
  img->channels = channels;
  return alloc_pitched (&img->data, &img->pitch,
      (size_t) width * (size_t) channels * cm_depth_bytes (depth), height);
}

extern "C" void
cm_device_free (void *ptr)
{
  if (ptr)
    (void) cm_cuda_status (cudaFree (ptr));
}

extern "C" cm_status
cm_host_alloc_pinned (void **out, size_t size)
{
  void *p = NULL;
  cm_status st;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (size == 0)
    return CM_ERR_INVALID_ARG;
  st = cm_cuda_status (cudaMallocHost (&p, size));
  if (st == CM_OK)
    *out = p;
  return st;
}

extern "C" void
cm_host_free_pinned (void *ptr)
{
  if (ptr)
    (void) cm_cuda_status (cudaFreeHost (ptr));
}

/* Device-to-device copies by a kernel: cudaMemcpy2DAsync gives pitched
 * device copies to the copy engine, which moves about half the bytes per
 * second a plain kernel does (docs/PERFORMANCE.md, "How the figures are
 * measured"; docs/bench/history.md, "Device-to-device copies by a
 * kernel"). One
 * block row per image row (rows past the grid's 65535 taken in strides),
 * words of V, the bytes of a row past its last whole word one by one. */
template <typename V>
__global__ void
copy_rows_kernel (uint8_t *dst, size_t dst_pitch, const uint8_t *src,
    size_t src_pitch, size_t width_bytes, int height)
{
  const size_t words = width_bytes / sizeof (V);
  const size_t step = (size_t) gridDim.x * blockDim.x;
  const size_t first = (size_t) blockIdx.x * blockDim.x + threadIdx.x;

  for (int y = blockIdx.y; y < height; y += gridDim.y) {
    const uint8_t *s = src + (size_t) y * src_pitch;
    uint8_t *d = dst + (size_t) y * dst_pitch;

    for (size_t i = first; i < words; i += step)
      ((V *) d)[i] = ((const V *) s)[i];
    for (size_t i = words * sizeof (V) + first; i < width_bytes; i += step)
      d[i] = s[i];
  }
}

template <typename V>
static cudaError_t
copy_rows (void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
    size_t width_bytes, int height, cudaStream_t stream)
{
  const unsigned threads = 128;
  size_t words = width_bytes / sizeof (V);
  size_t blocks = (words + threads - 1) / threads;
  dim3 grid ((unsigned) (blocks > 0 ? (blocks < 65535 ? blocks : 65535) : 1),
      (unsigned) (height < 65535 ? height : 65535));

  copy_rows_kernel<V><<<grid, threads, 0, stream>>> ((uint8_t *) dst,
      dst_pitch, (const uint8_t *) src, src_pitch, width_bytes, height);
  return cudaGetLastError ();
}

/* The widest word that every address and pitch is aligned to */
static cudaError_t
copy_d2d (void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
    size_t width_bytes, int height, cudaStream_t stream)
{
  size_t align = (size_t) (uintptr_t) dst | (size_t) (uintptr_t) src |
      dst_pitch | src_pitch;

  if (align % 16 == 0)
    return copy_rows<uint4> (dst, dst_pitch, src, src_pitch, width_bytes,
        height, stream);
  if (align % 8 == 0)
    return copy_rows<uint2> (dst, dst_pitch, src, src_pitch, width_bytes,
        height, stream);
  if (align % 4 == 0)
    return copy_rows<uint32_t> (dst, dst_pitch, src, src_pitch, width_bytes,
        height, stream);
  return cudaMemcpy2DAsync (dst, dst_pitch, src, src_pitch, width_bytes,
      (size_t) height, cudaMemcpyDeviceToDevice, stream);
}

extern "C" cm_status
cm_copy_2d_async (void *dst, size_t dst_pitch, const void *src,
    size_t src_pitch, size_t width_bytes, int height, cm_copy_kind kind,
    cm_stream stream)
{
  cudaMemcpyKind k;

  switch (kind) {
    case CM_COPY_H2D:
      k = cudaMemcpyHostToDevice;
      break;
    case CM_COPY_D2H:
      k = cudaMemcpyDeviceToHost;
      break;
    case CM_COPY_D2D:
      k = cudaMemcpyDeviceToDevice;
      break;
    case CM_COPY_H2H:
      k = cudaMemcpyHostToHost;
      break;
    default:
      return CM_ERR_INVALID_ARG;
  }
  if (height < 0)
    return CM_ERR_INVALID_ARG;
  if (height == 0 || width_bytes == 0)
    return CM_OK;
  if (!dst || !src || dst_pitch < width_bytes || src_pitch < width_bytes)
    return CM_ERR_INVALID_ARG;
  if (kind == CM_COPY_D2D)
    return cm_cuda_status (copy_d2d (dst, dst_pitch, src, src_pitch,
            width_bytes, height, (cudaStream_t) stream));
  return cm_cuda_status (cudaMemcpy2DAsync (dst, dst_pitch, src, src_pitch,
          width_bytes, (size_t) height, k, (cudaStream_t) stream));
}
