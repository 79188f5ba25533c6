/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one interface to gstreamer-cuda-1.0, the same in every build:
 * library set-up, caps, the pipeline's GstCudaContext, CUDA pools, device
 * views of mapped planes, streams (>= 1.24). Without the library
 * (gstcudaplanefiltermemorynone.c) every answer is no, so callers need no
 * #if. The element pushes the context around all its device work: the
 * runtime launches in whatever context is current (docs/design.md). */
#pragma once

#ifdef HAVE_CONFIG_H
#include "config.h"             /* HAVE_GST_CUDA */
#endif

#include <gst/gst.h>
#include <gst/video/video.h>
#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#define GST_CUDA_PLANE_FILTER_HAVE_CUDA_MEMORY 1
#else
typedef struct _GstCudaContext GstCudaContext;
#define GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY "memory:CUDAMemory"
#define GST_CUDA_PLANE_FILTER_HAVE_CUDA_MEMORY 0
#endif

#include "cm-image.h"

G_BEGIN_DECLS

/* Formats the CUDA allocator of gstreamer-cuda 1.22 supports among ours:
 * no GRAY formats, those stay in system memory. */
#define GST_CUDA_PLANE_FILTER_MEMORY_CUDA_FORMATS \
  "{ I420, NV12, Y444, RGBA, BGRA, RGBx, BGRx }"

gboolean gst_cuda_plane_filter_memory_init (void);
gboolean gst_cuda_plane_filter_memory_available (void);

GstCaps *gst_cuda_plane_filter_memory_template_caps (const gchar * formats);
gboolean gst_cuda_plane_filter_memory_caps_is_cuda (const GstCaps * caps);
GstCaps *gst_cuda_plane_filter_memory_caps_cuda_first (GstCaps * caps);
GstCaps *gst_cuda_plane_filter_memory_caps_in_memory_of (GstCaps * caps,
    const GstCaps * like);
GstCaps *gst_cuda_plane_filter_memory_transform_caps (const GstCaps * caps,
    gboolean allow_cuda);

gboolean gst_cuda_plane_filter_memory_ensure_context (GstElement * element,
    gint device_id, GstCudaContext ** context);
gboolean gst_cuda_plane_filter_memory_set_context (GstElement * element,
    GstContext * gst_context, gint device_id, GstCudaContext ** context);
gboolean gst_cuda_plane_filter_memory_query_context (GstElement * element,
    GstQuery * query, GstCudaContext * context);
gint gst_cuda_plane_filter_memory_context_device_id (GstCudaContext * context);
gboolean gst_cuda_plane_filter_memory_push (GstCudaContext * context);
void gst_cuda_plane_filter_memory_pop (void);

GstBufferPool *gst_cuda_plane_filter_memory_pool_new (GstCudaContext * context,
    GstCaps * caps, guint * size, guint min, guint max, gpointer stream);
gboolean gst_cuda_plane_filter_memory_propose (GstQuery * query, GstCaps * caps,
    GstCudaContext * context, gpointer stream);
gboolean gst_cuda_plane_filter_memory_decide (GstQuery * query, GstCaps * caps,
    GstCudaContext * context, gpointer stream);

GstCudaContext *gst_cuda_plane_filter_memory_buffer_context (GstBuffer *
    buffer);
gboolean gst_cuda_plane_filter_memory_frame_map (GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags);
gboolean gst_cuda_plane_filter_memory_plane_view (const GstVideoFrame * frame,
    guint plane, cm_image * view);
gboolean gst_cuda_plane_filter_memory_packed_view (const GstVideoFrame * frame,
    cm_image_packed * view);

/* streams (gstcudaplanefilterstream.c) */
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
