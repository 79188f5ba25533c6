/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A GstVideoBufferPool of page-locked host memory, offered upstream and
 * used for the output in system memory, so that uploads and downloads need
 * no staging copy; its buffers are plain system memory to everyone else. */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_PLANE_FILTER_PINNED_POOL \
  (gst_cuda_plane_filter_pinned_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaPlaneFilterPinnedPool,
    gst_cuda_plane_filter_pinned_pool, GST, CUDA_PLANE_FILTER_PINNED_POOL,
    GstVideoBufferPool);

GstBufferPool *gst_cuda_plane_filter_pinned_pool_new (GstObject * cuda_context);

gboolean gst_cuda_plane_filter_pinned_pool_propose (GstQuery * query,
    GstCaps * caps, GstObject * cuda_context);

gboolean gst_cuda_plane_filter_pinned_pool_decide (GstQuery * query,
    GstCaps * caps, GstObject * cuda_context);

gboolean gst_cuda_plane_filter_pinned_memory_is_pinned (GstMemory * mem);

gboolean gst_cuda_plane_filter_pinned_buffer_is_pinned (GstBuffer * buffer);

void gst_cuda_plane_filter_pinned_get_stats (guint * live, guint * allocated);

G_END_DECLS
