/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A video buffer pool of page-locked (pinned) host memory.
 *
 * Host-to-device copies from pageable memory run at a fraction of the
 * speed of copies from pinned memory (docs/design.md, Memory model), so the
 * elements offer this pool upstream in propose_allocation (producers then
 * write frames straight into pinned memory and the element uploads them
 * without a staging copy) and take their system-memory output buffers from
 * it in decide_allocation (the download lands in the output buffer).
 *
 * Buffers are ordinary system memory for everyone else (map, share and
 * copy behave as for any GstMemory); only the block under them is
 * allocated with the core's cm_host_alloc_pinned(). The pool is a
 * #GstVideoBufferPool: GstVideoMeta and GstVideoAlignment work as usual. */
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
