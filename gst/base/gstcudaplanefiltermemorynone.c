/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gstcudaplanefiltermemory.h without gstreamer-cuda-1.0: no CUDA memory, no
 * context, no stream; every answer is no. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaplanefiltermemory.h"

gboolean
gst_cuda_plane_filter_memory_init (void)
{
  return FALSE;
}

gboolean
gst_cuda_plane_filter_memory_available (void)
{
  return FALSE;
}

GstCaps *
gst_cuda_plane_filter_memory_template_caps (const gchar * formats)
{
  gchar *str = g_strdup_printf ("video/x-raw, format = (string) %s, "
      "width = " GST_VIDEO_SIZE_RANGE ", height = " GST_VIDEO_SIZE_RANGE ", "
      "framerate = " GST_VIDEO_FPS_RANGE, formats);
  GstCaps *caps = gst_caps_from_string (str);

  g_free (str);
  return caps;
}

gboolean
gst_cuda_plane_filter_memory_caps_is_cuda (const GstCaps * caps)
{
  return FALSE;
}

GstCaps *
gst_cuda_plane_filter_memory_caps_cuda_first (GstCaps * caps)
{
  return caps;
}

GstCaps *
gst_cuda_plane_filter_memory_caps_in_memory_of (GstCaps * caps,
    const GstCaps * like)
{
  return caps;
}

GstCaps *
gst_cuda_plane_filter_memory_transform_caps (const GstCaps * caps,
    gboolean allow_cuda)
{
  return gst_caps_copy (caps);
}

gboolean
gst_cuda_plane_filter_memory_ensure_context (GstElement * element,
    gint device_id, GstCudaContext ** context)
{
  return FALSE;
}

gboolean
gst_cuda_plane_filter_memory_set_context (GstElement * element,
    GstContext * gst_context, gint device_id, GstCudaContext ** context)
{
  return FALSE;
}

gboolean
gst_cuda_plane_filter_memory_query_context (GstElement * element,
    GstQuery * query, GstCudaContext * context)
{
  return FALSE;
}

gint
gst_cuda_plane_filter_memory_context_device_id (GstCudaContext * context)
{
  return -1;
}

gboolean
gst_cuda_plane_filter_memory_push (GstCudaContext * context)
{
  return FALSE;
}

void
gst_cuda_plane_filter_memory_pop (void)
{
}

GstBufferPool *
gst_cuda_plane_filter_memory_pool_new (GstCudaContext * context,
    GstCaps * caps, guint * size, guint min, guint max, gpointer stream)
{
  return NULL;
}

gboolean
gst_cuda_plane_filter_memory_propose (GstQuery * query, GstCaps * caps,
    GstCudaContext * context, gpointer stream)
{
  return FALSE;
}

gboolean
gst_cuda_plane_filter_memory_decide (GstQuery * query, GstCaps * caps,
    GstCudaContext * context, gpointer stream)
{
  return FALSE;
}

GstCudaContext *
gst_cuda_plane_filter_memory_buffer_context (GstBuffer * buffer)
{
  return NULL;
}

gboolean
gst_cuda_plane_filter_memory_frame_map (GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags)
{
  return FALSE;
}

gboolean
gst_cuda_plane_filter_memory_plane_view (const GstVideoFrame * frame,
    guint plane, cm_image * view)
{
  return FALSE;
}

gboolean
gst_cuda_plane_filter_memory_packed_view (const GstVideoFrame * frame,
    cm_image_packed * view)
{
  return FALSE;
}

gpointer
gst_cuda_plane_filter_memory_stream_new (GstCudaContext * context)
{
  return NULL;
}

gpointer
gst_cuda_plane_filter_memory_stream_handle (gpointer stream)
{
  return NULL;
}

void
gst_cuda_plane_filter_memory_stream_unref (gpointer stream)
{
}

void
gst_cuda_plane_filter_memory_config_set_stream (GstStructure * config,
    gpointer stream)
{
}

gpointer
gst_cuda_plane_filter_memory_buffer_stream (GstBuffer * buffer)
{
  return NULL;
}

void
gst_cuda_plane_filter_memory_mark_written (GstBuffer * buffer)
{
}

gpointer
gst_cuda_plane_filter_memory_pending_stream (GstBuffer * buffer)
{
  return NULL;
}

void
gst_cuda_plane_filter_memory_sync (GstBuffer * buffer)
{
}

