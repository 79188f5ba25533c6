/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built instead of common's .cu files when the CUDA toolkit is absent:
 * every device entry point reports CM_ERR_NO_CUDA so callers fall back to
 * the CPU backend. Each family stubs its own plans beside its code
 * (<family>/<family>-nocuda.c, with cm-nocuda.h). */
#include <stdio.h>
#include "device.h"
#include "planes.h"

const char *cm_cuda_error_text (int cuda_error);

const char *
cm_cuda_error_text (int cuda_error)
{
  (void) cuda_error;
  return "CUDA error (this build has no CUDA support)";
}

int
cm_have_cuda (void)
{
  return 0;
}

int
cm_device_count (void)
{
  return 0;
}

cm_status
cm_device_set (int device_id)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_device_name (int device_id, char *buf, size_t size)
{
  if (buf && size)
    snprintf (buf, size, "none");
  return CM_ERR_NO_CUDA;
}

cm_status
cm_stream_new (cm_stream * out)
{
  if (out)
    *out = NULL;
  return CM_ERR_NO_CUDA;
}

cm_status
cm_stream_free (cm_stream stream)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_stream_sync (cm_stream stream)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_event_new (cm_event * out)
{
  if (out)
    *out = NULL;
  return CM_ERR_NO_CUDA;
}

cm_status
cm_event_free (cm_event event)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_event_record (cm_event event, cm_stream stream)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_event_sync (cm_event event)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_stream_wait_event (cm_stream stream, cm_event event)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_event_new_timed (cm_event * out)
{
  if (out)
    *out = NULL;
  return CM_ERR_NO_CUDA;
}

cm_status
cm_event_elapsed_us (cm_event start, cm_event end, double *us, int *done)
{
  if (done)
    *done = 0;
  return CM_ERR_NO_CUDA;
}

cm_status
cm_device_image_alloc (cm_image * img, int width, int height, cm_depth depth)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_device_packed_alloc (cm_image_packed * img, int width, int height,
    cm_depth depth, int channels)
{
  return CM_ERR_NO_CUDA;
}

void
cm_device_free (void *ptr)
{
}

cm_status
cm_host_alloc_pinned (void **out, size_t size)
{
  return CM_ERR_NO_CUDA;
}

void
cm_host_free_pinned (void *ptr)
{
}

cm_status
cm_copy_2d_async (void *dst, size_t dst_pitch, const void *src,
    size_t src_pitch, size_t width_bytes, int height, cm_copy_kind kind,
    cm_stream stream)
{
  return CM_ERR_NO_CUDA;
}

/* ---- the per-channel planes (planes.h) ---- */

cm_status
cm_extract_channel_cuda (const cm_image_packed * src, int channel,
    const cm_image * dst, void *stream)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_insert_channel_cuda (const cm_image * src, int channel,
    const cm_image_packed * dst, void *stream)
{
  return CM_ERR_NO_CUDA;
}
