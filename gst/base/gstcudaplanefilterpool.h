/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Buffer pool steps shared by the pools the cudamorphology elements
 * propose upstream and pick downstream (pinned host pools,
 * gstcudaplanefilterpinnedpool.c; CUDA pools, gstcudaplanefiltermemory.c;
 * plain video pools, gstcudaplanefilternegotiation.c). Header only: the
 * tests compile those pieces on their own, each takes these with it. */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* Sets @config (gst_buffer_pool_get_config (@pool), which the caller may
 * have added to; the pool takes it either way) with the params of @caps,
 * *@size, @min and @max and, with @video_meta, the GstVideoMeta option. On
 * success *@size is the buffer size the pool settled on. */
static inline gboolean
gst_cuda_plane_filter_pool_set_config (GstBufferPool * pool,
    GstStructure * config, GstCaps * caps, guint * size, guint min,
    guint max, gboolean video_meta)
{
  gst_buffer_pool_config_set_params (config, caps, *size, min, max);
  if (video_meta)
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config))
    return FALSE;

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
  gst_structure_free (config);
  return TRUE;
}

/* The start of a pool proposal: @query learns that GstVideoMeta is
 * understood (any stride). Returns %FALSE when @query already holds a
 * pool, which is left alone. */
static inline gboolean
gst_cuda_plane_filter_pool_propose_wanted (GstQuery * query)
{
  if (!gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return gst_query_get_n_allocation_pools (query) == 0;
}

/* The end of a pool proposal: @pool configured for @caps, buffers of
 * @size at least and the GstVideoMeta option, and offered in @query (no
 * minimum or maximum). Returns %FALSE when @pool refuses the
 * configuration (nothing is offered then). */
static inline gboolean
gst_cuda_plane_filter_pool_offer (GstQuery * query, GstBufferPool * pool,
    GstCaps * caps, guint size)
{
  if (!gst_cuda_plane_filter_pool_set_config (pool,
          gst_buffer_pool_get_config (pool), caps, &size, 0, 0, TRUE))
    return FALSE;
  gst_query_add_allocation_pool (query, pool, size, 0, 0);
  return TRUE;
}

/* The end of a pool decision: @pool first in @query, in place of
 * downstream's when @update (@query had one). */
static inline void
gst_cuda_plane_filter_pool_put_first (GstQuery * query, GstBufferPool * pool,
    guint size, guint min, guint max, gboolean update)
{
  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
}

G_END_DECLS
