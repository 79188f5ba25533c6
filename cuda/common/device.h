/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Devices, streams, resident buffers, pinned host memory, async copies.
 * Thin wrappers over the CUDA runtime so that nothing outside cuda/ needs
 * CUDA headers. Without the CUDA toolkit every function returns
 * CM_ERR_NO_CUDA (common-nocuda.c). */
#pragma once

#include <stddef.h>
#include "cm-status.h"
#include "cm-image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when this build contains CUDA kernels */
int cm_have_cuda (void);

/* Number of usable devices (0 when none, no driver, or no CUDA build). */
int cm_device_count (void);

/* Make device_id (-1: device 0) current for the calling thread. */
cm_status cm_device_set (int device_id);

/* Name of the device (e.g. "NVIDIA H100 80GB HBM3") into buf. */
cm_status cm_device_name (int device_id, char *buf, size_t size);

typedef void *cm_stream;        /* a cudaStream_t */

cm_status cm_stream_new (cm_stream * out);
cm_status cm_stream_free (cm_stream stream);
cm_status cm_stream_sync (cm_stream stream);

/* A point in a stream that the host can wait for (cudaEvent_t without
 * timing): created once and recorded for every frame. */
typedef void *cm_event;

cm_status cm_event_new (cm_event * out);
cm_status cm_event_free (cm_event event);
cm_status cm_event_record (cm_event event, cm_stream stream);
cm_status cm_event_sync (cm_event event);
/* Work queued on @stream from now on waits, on the device, for @event
 * (recorded on another stream of the same context). */
cm_status cm_stream_wait_event (cm_stream stream, cm_event event);

/* Events that also keep time (for the device time of a frame), and the
 * time between two of them once @end has completed: *done = 0 (and
 * CM_OK) while it has not, without waiting. */
cm_status cm_event_new_timed (cm_event * out);
cm_status cm_event_elapsed_us (cm_event start, cm_event end, double *us,
    int *done);

/* Pitched device image (cudaMallocPitch). img->data == NULL after free. */
cm_status cm_device_image_alloc (cm_image * img, int width, int height,
    cm_depth depth);
/* Same for interleaved images */
cm_status cm_device_packed_alloc (cm_image_packed * img, int width,
    int height, cm_depth depth, int channels);
void cm_device_free (void *ptr);

/* Page-locked host memory */
cm_status cm_host_alloc_pinned (void **out, size_t size);
void cm_host_free_pinned (void *ptr);

typedef enum
{
  CM_COPY_H2D = 0,
  CM_COPY_D2H = 1,
  CM_COPY_D2D = 2,
  CM_COPY_H2H = 3
} cm_copy_kind;

/* 2-D async copy of `height` rows of `width_bytes` each. */
cm_status cm_copy_2d_async (void *dst, size_t dst_pitch, const void *src,
    size_t src_pitch, size_t width_bytes, int height, cm_copy_kind kind,
    cm_stream stream);

#ifdef __cplusplus
}
#endif
