/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CUDA memory (gstcudaplanefiltermemory.h): thin, testable wrappers over
 * gstreamer-cuda-1.0 (builds without it: gstcudaplanefiltermemorynone.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaplanefiltermemory.h"
#include "gstcudaplanefilterpool.h"

#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/gstcudaloader.h>
#if GST_CHECK_VERSION (1, 24, 0)
#include <gst/cuda/gstcudastream.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_plane_filter_memory_debug);
#define GST_CAT_DEFAULT gst_cuda_plane_filter_memory_debug

static gboolean library_loaded;

static void
debug_ensure (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_plane_filter_memory_debug,
        "cudaplanefiltermemory", 0, "CUDA plane filter CUDA memory");
    g_once_init_leave (&once, 1);
  }
}

/* The frames of a pool configured with a stream carry it (>= 1.24). */
void
gst_cuda_plane_filter_memory_config_set_stream (GstStructure * config,
    gpointer stream)
{
#if GST_CHECK_VERSION (1, 24, 0)
  if (stream != NULL)
    gst_buffer_pool_config_set_cuda_stream (config, (GstCudaStream *) stream);
#endif
}

/* ---- library ------------------------------------------------------------ */

/* Loads the driver library through gstreamer-cuda once per process and
 * registers the CUDA allocator (explicit on 1.22); from plugin_init.
 * FALSE: system memory only, and nothing may call gstreamer-cuda (its
 * context functions assert without the library). */
gboolean
gst_cuda_plane_filter_memory_init (void)
{
  static gsize once = 0;

  debug_ensure ();
  if (g_once_init_enter (&once)) {
    library_loaded = gst_cuda_load_library ();
    if (library_loaded)
      gst_cuda_memory_init_once ();
    GST_INFO ("CUDA driver library %s", library_loaded ? "loaded" :
        "not available: system memory only");
    g_once_init_leave (&once, 1);
  }
  return library_loaded;
}

/**
 * gst_cuda_plane_filter_memory_available:
 *
 * Returns: the result of gst_cuda_plane_filter_memory_init(); %FALSE before it
 */
gboolean
gst_cuda_plane_filter_memory_available (void)
{
  return library_loaded;
}

/* ---- caps --------------------------------------------------------------- */

static GstCaps *
cuda_formats_caps (void)
{
  return gst_caps_from_string ("video/x-raw(" GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY
      "), format = (string) " GST_CUDA_PLANE_FILTER_MEMORY_CUDA_FORMATS);
}

/* Appends @s in CUDA memory to @dst, restricted to the CUDA formats (a
 * structure without a format that CUDA memory can carry adds nothing). */
static void
append_in_cuda (GstCaps * dst, const GstStructure * s)
{
  GstCaps *one = gst_caps_new_empty (), *formats, *cuda;

  gst_caps_append_structure_full (one, gst_structure_copy (s),
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  formats = cuda_formats_caps ();
  cuda = gst_caps_intersect_full (one, formats, GST_CAPS_INTERSECT_FIRST);
  gst_caps_append (dst, cuda);
  gst_caps_unref (formats);
  gst_caps_unref (one);
}

static void
append_in_system (GstCaps * dst, const GstStructure * s)
{
  /* no features: system memory */
  gst_caps_append_structure (dst, gst_structure_copy (s));
}

/* Template caps: @formats in CUDA memory (those its allocator supports),
 * then in system memory. */
GstCaps *
gst_cuda_plane_filter_memory_template_caps (const gchar * formats)
{
  GstCaps *sys, *caps;
  gchar *str;
  guint i;

  g_return_val_if_fail (formats != NULL, NULL);

  str = g_strdup_printf ("video/x-raw, format = (string) %s, "
      "width = " GST_VIDEO_SIZE_RANGE ", height = " GST_VIDEO_SIZE_RANGE ", "
      "framerate = " GST_VIDEO_FPS_RANGE, formats);
  sys = gst_caps_from_string (str);
  g_free (str);
  g_return_val_if_fail (sys != NULL, NULL);

  caps = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (sys); i++)
    append_in_cuda (caps, gst_caps_get_structure (sys, i));
  gst_caps_append (caps, sys);
  return caps;
}

static gboolean
features_are_cuda (const GstCapsFeatures * features)
{
  return features != NULL && !gst_caps_features_is_any (features) &&
      gst_caps_features_contains (features,
      GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
}

/* The (first structure of the) caps are in CUDA memory. */
gboolean
gst_cuda_plane_filter_memory_caps_is_cuda (const GstCaps * caps)
{
  if (caps == NULL || gst_caps_is_any (caps) || gst_caps_is_empty (caps))
    return FALSE;
  return features_are_cuda (gst_caps_get_features (caps, 0));
}

/* The other pad's caps: each structure in its own memory first, then in
 * the other (CUDA only with @allow_cuda and for its formats), so that
 * negotiation stays in the memory it got; other features dropped. */
GstCaps *
gst_cuda_plane_filter_memory_transform_caps (const GstCaps * caps,
    gboolean allow_cuda)
{
  GstCaps *same, *other;
  guint i;

  g_return_val_if_fail (caps != NULL, NULL);

  if (gst_caps_is_any (caps))
    return gst_caps_new_any ();

  same = gst_caps_new_empty ();
  other = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);

    if (features_are_cuda (gst_caps_get_features (caps, i))) {
      if (allow_cuda)
        append_in_cuda (same, s);
      append_in_system (other, s);
    } else {
      append_in_system (same, s);
      if (allow_cuda)
        append_in_cuda (other, s);
    }
  }
  return gst_caps_merge (same, other);
}

/* The structures of @caps whose memory is (@cuda) or is not CUDA memory,
 * appended to @into in their order. */
static void
append_memory (GstCaps * into, const GstCaps * caps, gboolean cuda)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (features_are_cuda (f) == cuda)
      gst_caps_append_structure_full (into,
          gst_structure_copy (gst_caps_get_structure (caps, i)),
          f ? gst_caps_features_copy (f) : NULL);
  }
}

/* @caps' CUDA-memory structures first (transfer full): the sink pad's
 * answer on the CUDA backend, so that an upstream that can give either
 * (cudaupload lists system memory first) uploads for it. */
GstCaps *
gst_cuda_plane_filter_memory_caps_cuda_first (GstCaps * caps)
{
  GstCaps *res;

  if (gst_caps_is_any (caps) || gst_caps_is_empty (caps))
    return caps;
  res = gst_caps_new_empty ();
  append_memory (res, caps, TRUE);
  append_memory (res, caps, FALSE);
  gst_caps_unref (caps);
  return res;
}

/* @caps' structures in the memory of @like when there are any (transfer
 * full): fixating keeps frames in the memory they came in (GstBaseTransform
 * would take the peer's first, and nvcodec lists system memory first). */
GstCaps *
gst_cuda_plane_filter_memory_caps_in_memory_of (GstCaps * caps,
    const GstCaps * like)
{
  GstCaps *res;

  if (gst_caps_is_any (caps) || gst_caps_is_empty (caps) || like == NULL ||
      gst_caps_is_any (like) || gst_caps_is_empty (like))
    return caps;
  res = gst_caps_new_empty ();
  append_memory (res, caps,
      features_are_cuda (gst_caps_get_features (like, 0)));
  if (gst_caps_is_empty (res)) {
    gst_caps_unref (res);
    return caps;
  }
  gst_caps_unref (caps);
  return res;
}

/* ---- context ------------------------------------------------------------ */

/* The pipeline's GstCudaContext for @device_id (-1: any; device 0 when the
 * pipeline has none), found by query and message as nvcodec does, or made
 * and announced; kept in *@context when set. FALSE: no library or device. */
gboolean
gst_cuda_plane_filter_memory_ensure_context (GstElement * element,
    gint device_id, GstCudaContext ** context)
{
  g_return_val_if_fail (GST_IS_ELEMENT (element), FALSE);
  g_return_val_if_fail (context != NULL, FALSE);

  if (!library_loaded)
    return FALSE;
  return gst_cuda_ensure_element_context (element, device_id, context);
}

/* From set_context: *@context taken from @gst_context when it holds one
 * for @device_id. */
gboolean
gst_cuda_plane_filter_memory_set_context (GstElement * element,
    GstContext * gst_context, gint device_id, GstCudaContext ** context)
{
  g_return_val_if_fail (GST_IS_ELEMENT (element), FALSE);
  g_return_val_if_fail (context != NULL, FALSE);

  if (!library_loaded || gst_context == NULL)
    return FALSE;
  return gst_cuda_handle_set_context (element, gst_context, device_id,
      context);
}

/* A CUDA context query answered with @context; FALSE: not one. */
gboolean
gst_cuda_plane_filter_memory_query_context (GstElement * element,
    GstQuery * query, GstCudaContext * context)
{
  g_return_val_if_fail (GST_IS_ELEMENT (element), FALSE);
  g_return_val_if_fail (query != NULL, FALSE);

  if (!library_loaded || context == NULL ||
      GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT)
    return FALSE;
  return gst_cuda_handle_context_query (element, query, context);
}

/* The device ordinal of @context (the runtime's too). */
gint
gst_cuda_plane_filter_memory_context_device_id (GstCudaContext * context)
{
  guint device_id = 0;

  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), -1);

  g_object_get (context, "cuda-device-id", &device_id, NULL);
  return (gint) device_id;
}

/* @context current on this thread, stacked (memory_pop); FALSE: NULL or
 * not pushed, then do not pop. */
gboolean
gst_cuda_plane_filter_memory_push (GstCudaContext * context)
{
  if (context == NULL || !library_loaded)
    return FALSE;
  return gst_cuda_context_push (context);
}

/**
 * gst_cuda_plane_filter_memory_pop:
 *
 * Undoes a successful gst_cuda_plane_filter_memory_push().
 */
void
gst_cuda_plane_filter_memory_pop (void)
{
  gst_cuda_context_pop (NULL);
}

/* ---- pools -------------------------------------------------------------- */

/* A configured, inactive CUDA pool of @context for @caps with GstVideoMeta
 * (*@size: the size it settled on); its frames carry @stream (>= 1.24).
 * NULL when it refused @caps. */
GstBufferPool *
gst_cuda_plane_filter_memory_pool_new (GstCudaContext * context,
    GstCaps * caps, guint * size, guint min, guint max, gpointer stream)
{
  GstBufferPool *pool;
  GstStructure *config;

  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), NULL);
  g_return_val_if_fail (caps != NULL && size != NULL, NULL);

  debug_ensure ();
  pool = gst_cuda_buffer_pool_new (context);
  config = gst_buffer_pool_get_config (pool);
  gst_cuda_plane_filter_memory_config_set_stream (config, stream);
  if (!gst_cuda_plane_filter_pool_set_config (pool, config, caps, size, min,
          max, TRUE)) {
    GST_WARNING_OBJECT (pool, "refused %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* propose_allocation: a CUDA pool of @context for @caps and GstVideoMeta
 * (the CUDA pitch is not the default stride), unless @query has a pool. */
gboolean
gst_cuda_plane_filter_memory_propose (GstQuery * query, GstCaps * caps,
    GstCudaContext * context, gpointer stream)
{
  GstVideoInfo info;
  GstBufferPool *pool;
  guint size;

  g_return_val_if_fail (query != NULL, FALSE);
  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), FALSE);

  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  if (!gst_cuda_plane_filter_pool_propose_wanted (query))
    return TRUE;

  size = GST_VIDEO_INFO_SIZE (&info);
  pool = gst_cuda_plane_filter_memory_pool_new (context, caps, &size, 0, 0,
      stream);
  if (pool == NULL)
    return FALSE;
  gst_query_add_allocation_pool (query, pool, size, 0, 0);
  gst_object_unref (pool);
  return TRUE;
}

/* decide_allocation: downstream's CUDA pool of @context first, else a new
 * one with its buffer counts; chain up afterwards. */
gboolean
gst_cuda_plane_filter_memory_decide (GstQuery * query, GstCaps * caps,
    GstCudaContext * context, gpointer stream)
{
  GstVideoInfo info;
  GstBufferPool *pool = NULL, *ours;
  guint size = 0, min = 0, max = 0;
  gboolean update;

  g_return_val_if_fail (query != NULL, FALSE);
  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), FALSE);

  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  debug_ensure ();
  update = gst_query_get_n_allocation_pools (query) > 0;
  if (update)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  if (pool && (!GST_IS_CUDA_BUFFER_POOL (pool) ||
          GST_CUDA_BUFFER_POOL (pool)->context != context)) {
    GST_DEBUG_OBJECT (pool, "not a CUDA pool of our context");
    gst_clear_object (&pool);
  }

  size = MAX (size, (guint) GST_VIDEO_INFO_SIZE (&info));
  if (pool) {
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_cuda_plane_filter_memory_config_set_stream (config, stream);
    if (gst_cuda_plane_filter_pool_set_config (pool, config, caps, &size, min,
            max, TRUE)) {
      ours = pool;
    } else {
      gst_object_unref (pool);
      ours = gst_cuda_plane_filter_memory_pool_new (context, caps, &size, min,
          max, stream);
    }
  } else {
    ours = gst_cuda_plane_filter_memory_pool_new (context, caps, &size, min,
        max, stream);
  }
  if (ours == NULL)
    return FALSE;

  gst_cuda_plane_filter_pool_put_first (query, ours, size, min, max, update);
  gst_object_unref (ours);
  return TRUE;
}

/* ---- frames ------------------------------------------------------------- */

/* The context of @buffer's one CUDA memory, else NULL (transfer none). */
GstCudaContext *
gst_cuda_plane_filter_memory_buffer_context (GstBuffer * buffer)
{
  GstMemory *mem;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);

  if (gst_buffer_n_memory (buffer) != 1)
    return NULL;
  mem = gst_buffer_peek_memory (buffer, 0);
  if (!gst_is_cuda_memory (mem))
    return NULL;
  return GST_CUDA_MEMORY_CAST (mem)->context;
}

/* @buffer mapped for the device: plane pointers in the memory's context,
 * strides from its GstVideoMeta. A read map uploads first if the host
 * wrote last; unmap after synchronising every stream that used it. */
gboolean
gst_cuda_plane_filter_memory_frame_map (GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags)
{
  g_return_val_if_fail (frame != NULL && info != NULL, FALSE);
  g_return_val_if_fail (GST_IS_BUFFER (buffer), FALSE);

  debug_ensure ();
  if (gst_cuda_plane_filter_memory_buffer_context (buffer) == NULL) {
    GST_WARNING ("buffer %" GST_PTR_FORMAT " is not one CUDA memory",
        buffer);
    return FALSE;
  }
  return gst_video_frame_map (frame, (GstVideoInfo *) info, buffer,
      flags | GST_MAP_CUDA);
}

static cm_depth
frame_depth (const GstVideoFrame * frame)
{
  return GST_VIDEO_FRAME_COMP_DEPTH (frame, 0) > 8 ? CM_DEPTH_16 : CM_DEPTH_8;
}

/* Plane @plane of a mapped frame as one channel (an interleaved plane is
 * one channel that many times wider: for copies). */
gboolean
gst_cuda_plane_filter_memory_plane_view (const GstVideoFrame * frame,
    guint plane, cm_image * view)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  cm_depth depth;
  gsize row_bytes;

  g_return_val_if_fail (frame != NULL && view != NULL, FALSE);

  if (plane >= GST_VIDEO_FRAME_N_PLANES (frame))
    return FALSE;
  gst_video_format_info_component (frame->info.finfo, plane, comp);
  if (comp[0] < 0)
    return FALSE;

  depth = frame_depth (frame);
  row_bytes = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (frame, comp[0]) *
      GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp[0]);
  view->data = GST_VIDEO_FRAME_PLANE_DATA (frame, plane);
  view->pitch = (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane);
  view->width = (int) (row_bytes / cm_depth_bytes (depth));
  view->height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp[0]);
  view->depth = depth;
  return TRUE;
}

/* Plane 0 of a mapped packed RGB(A) frame as an interleaved image. */
gboolean
gst_cuda_plane_filter_memory_packed_view (const GstVideoFrame * frame,
    cm_image_packed * view)
{
  cm_depth depth;

  g_return_val_if_fail (frame != NULL && view != NULL, FALSE);

  if (!GST_VIDEO_INFO_IS_RGB (&frame->info) ||
      GST_VIDEO_FRAME_N_PLANES (frame) != 1)
    return FALSE;

  depth = frame_depth (frame);
  view->data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  view->pitch = (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  view->width = GST_VIDEO_FRAME_WIDTH (frame);
  view->height = GST_VIDEO_FRAME_HEIGHT (frame);
  view->depth = depth;
  view->channels = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, 0) /
      cm_depth_bytes (depth);
  return TRUE;
}
