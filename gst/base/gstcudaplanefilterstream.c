/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Streams of frames in CUDA memory (gstcudaplanefiltermemory.h): the
 * element's GstCudaStream, the stream a GstCudaMemory carries and the work
 * its producer left in flight on it. GstCudaStream came with 1.24: built
 * against 1.22 these return %NULL and do nothing. Built with
 * gstreamer-cuda only (the stubs are in gstcudaplanefiltermemory.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaplanefiltermemory.h"

#if GST_CHECK_VERSION (1, 24, 0)
#include <gst/cuda/gstcudastream.h>
#endif

/* ---- the element's stream ----------------------------------------------- */

/* A GstCudaStream of @context for the element and its pools' frames;
 * NULL before 1.24 or on failure (then a plain stream, synchronised). */
gpointer
gst_cuda_plane_filter_memory_stream_new (GstCudaContext * context)
{
#if GST_CHECK_VERSION (1, 24, 0)
  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), NULL);
  return gst_cuda_stream_new (context);
#else
  return NULL;
#endif
}

/* Its CUstream. */
gpointer
gst_cuda_plane_filter_memory_stream_handle (gpointer stream)
{
#if GST_CHECK_VERSION (1, 24, 0)
  return stream ? (gpointer) gst_cuda_stream_get_handle ((GstCudaStream *)
      stream) : NULL;
#else
  return NULL;
#endif
}

/**
 * gst_cuda_plane_filter_memory_stream_unref:
 * @stream: (nullable): a stream from gst_cuda_plane_filter_memory_stream_new()
 */
void
gst_cuda_plane_filter_memory_stream_unref (gpointer stream)
{
#if GST_CHECK_VERSION (1, 24, 0)
  if (stream != NULL)
    gst_cuda_stream_unref ((GstCudaStream *) stream);
#endif
}

/* ---- the stream a frame carries ----------------------------------------- */

/* The CUstream @buffer's one CUDA memory carries, else NULL. */
gpointer
gst_cuda_plane_filter_memory_buffer_stream (GstBuffer * buffer)
{
#if GST_CHECK_VERSION (1, 24, 0)
  GstCudaStream *stream;

  if (gst_cuda_plane_filter_memory_buffer_context (buffer) == NULL)
    return NULL;
  stream = gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST
      (gst_buffer_peek_memory (buffer, 0)));
  return stream ? (gpointer) gst_cuda_stream_get_handle (stream) : NULL;
#else
  return NULL;
#endif
}

/* Work writing @buffer may still be in flight on its stream (NEED_SYNC):
 * a host map or another stream waits for it. */
void
gst_cuda_plane_filter_memory_mark_written (GstBuffer * buffer)
{
#if GST_CHECK_VERSION (1, 24, 0)
  if (gst_cuda_plane_filter_memory_buffer_stream (buffer) != NULL)
    GST_MINI_OBJECT_FLAG_SET (gst_buffer_peek_memory (buffer, 0),
        GST_CUDA_MEMORY_TRANSFER_NEED_SYNC);
#endif
}

/* The producer's stream when its writing of @buffer's memory may still be
 * in flight (>= 1.24; a device map does not wait for it), else NULL. */
gpointer
gst_cuda_plane_filter_memory_pending_stream (GstBuffer * buffer)
{
  gpointer stream = gst_cuda_plane_filter_memory_buffer_stream (buffer);

  /* the stream it carries, while its flag says the work may be pending
   * (none before 1.24) */
#if GST_CHECK_VERSION (1, 24, 0)
  if (stream != NULL && !GST_MEMORY_FLAG_IS_SET (gst_buffer_peek_memory
          (buffer, 0), GST_CUDA_MEMORY_TRANSFER_NEED_SYNC))
    stream = NULL;
#endif
  return stream;
}

/* The host waits for the producer's work on @buffer (where the streams
 * cannot be ordered on the device). */
void
gst_cuda_plane_filter_memory_sync (GstBuffer * buffer)
{
#if GST_CHECK_VERSION (1, 24, 0)
  if (gst_cuda_plane_filter_memory_buffer_context (buffer) != NULL)
    gst_cuda_memory_sync (GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory
            (buffer, 0)));
#endif
}
