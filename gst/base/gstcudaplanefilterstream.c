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

/**
 * gst_cuda_plane_filter_memory_stream_new:
 * @context: the element's context
 *
 * Returns: (transfer full) (nullable): a new GstCudaStream of @context for
 * the element's work and the frames of its pools, or %NULL before
 * GStreamer 1.24 or when none could be made (the caller then makes a
 * plain stream and synchronises every frame on the host)
 */
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

/**
 * gst_cuda_plane_filter_memory_stream_handle:
 * @stream: a stream from gst_cuda_plane_filter_memory_stream_new()
 *
 * Returns: its CUstream
 */
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

/**
 * gst_cuda_plane_filter_memory_buffer_stream:
 * @buffer: a buffer
 *
 * Returns: (nullable): the CUstream that @buffer's CUDA memory carries
 * (the stream its writers and readers order their work on), or %NULL when
 * @buffer is not one CUDA memory, carries none (the default stream,
 * GStreamer 1.22) or the build predates 1.24
 */
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

/**
 * gst_cuda_plane_filter_memory_mark_written:
 * @buffer: a buffer of one CUDA memory that carries a stream
 *
 * Says that work writing @buffer may still be in flight on its stream
 * (%GST_CUDA_MEMORY_TRANSFER_NEED_SYNC): a host map, or a consumer on
 * another stream, waits for it. A device write map sets it already; this
 * makes it explicit where the frame is left unsynchronised.
 */
void
gst_cuda_plane_filter_memory_mark_written (GstBuffer * buffer)
{
#if GST_CHECK_VERSION (1, 24, 0)
  if (gst_cuda_plane_filter_memory_buffer_stream (buffer) != NULL)
    GST_MINI_OBJECT_FLAG_SET (gst_buffer_peek_memory (buffer, 0),
        GST_CUDA_MEMORY_TRANSFER_NEED_SYNC);
#endif
}

/**
 * gst_cuda_plane_filter_memory_pending_stream:
 * @buffer: a buffer of one CUDA memory
 *
 * Since GStreamer 1.24 a CUDA memory may carry the stream its producer
 * wrote it on and leave that work in flight, flagged
 * %GST_CUDA_MEMORY_TRANSFER_NEED_SYNC; a device map does not wait for it:
 * whoever reads the memory on another stream must order the two streams.
 * Built against 1.22 there is no such memory and this returns %NULL.
 *
 * Returns: (nullable): the producer's stream (a CUstream of the memory's
 * context) when the memory's contents may still be being written on it,
 * else %NULL
 */
gpointer
gst_cuda_plane_filter_memory_pending_stream (GstBuffer * buffer)
{
#if GST_CHECK_VERSION (1, 24, 0)
  /* the stream it carries, while its flag says the work may be pending */
  if (gst_cuda_plane_filter_memory_buffer_context (buffer) == NULL ||
      !GST_MEMORY_FLAG_IS_SET (gst_buffer_peek_memory (buffer, 0),
          GST_CUDA_MEMORY_TRANSFER_NEED_SYNC))
    return NULL;
  return gst_cuda_plane_filter_memory_buffer_stream (buffer);
#else
  return NULL;
#endif
}

/**
 * gst_cuda_plane_filter_memory_sync:
 * @buffer: a buffer of one CUDA memory
 *
 * Waits on the host until the producer's work on @buffer's memory is done
 * (the fallback where the streams cannot be ordered on the device).
 * Nothing to do before GStreamer 1.24.
 */
void
gst_cuda_plane_filter_memory_sync (GstBuffer * buffer)
{
#if GST_CHECK_VERSION (1, 24, 0)
  if (gst_cuda_plane_filter_memory_buffer_context (buffer) != NULL)
    gst_cuda_memory_sync (GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory
            (buffer, 0)));
#endif
}
