/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Streams of frames in CUDA memory for the cudamorphology elements: the
 * element's GstCudaStream, the stream a GstCudaMemory carries and the
 * work its producer may have left in flight on it. Part of the
 * CUDA-memory glue (gstcudaplanefiltermemory.h includes this header, and
 * the functions keep its gst_cuda_plane_filter_memory_ prefix), built only
 * with gstreamer-cuda-1.0 (HAVE_GST_CUDA). GstCudaStream came with
 * GStreamer 1.24: every difference between 1.22 and 1.24 of that glue
 * lives in this piece; built against 1.22 these functions return %NULL
 * and do nothing.
 *
 * On 1.22 a GstCudaMemory carries no stream: whoever maps it (host maps,
 * cudadownload, the next element) does not wait for ours, so the element
 * synchronises its stream once per frame before it unmaps the frames and
 * pushes the buffer. From 1.24 an input may carry its producer's stream
 * with work in flight (gst_cuda_plane_filter_memory_pending_stream); the
 * base class orders its own stream after it. From 1.24 the element's
 * stream is a GstCudaStream (gst_cuda_plane_filter_memory_stream_new) that
 * the pools it makes give to their frames; a frame read and written in
 * such memory is pushed without a host synchronisation (the frame path's
 * stream order). */
#pragma once

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

gpointer gst_cuda_plane_filter_memory_stream_new (GstCudaContext * context);
gpointer gst_cuda_plane_filter_memory_stream_handle (gpointer stream);
void gst_cuda_plane_filter_memory_stream_unref (gpointer stream);
void gst_cuda_plane_filter_memory_config_set_stream (GstStructure * config,
    gpointer stream);

gpointer gst_cuda_plane_filter_memory_buffer_stream (GstBuffer * buffer);
void gst_cuda_plane_filter_memory_mark_written (GstBuffer * buffer);
gpointer gst_cuda_plane_filter_memory_pending_stream (GstBuffer * buffer);
void gst_cuda_plane_filter_memory_sync (GstBuffer * buffer);

G_END_DECLS
