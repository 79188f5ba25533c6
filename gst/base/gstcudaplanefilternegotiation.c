/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Caps and allocation negotiation of the cudamorphology elements
 * (gstcudaplanefilternegotiation.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaplanefilternegotiation.h"
#include "gstcudaplanefilterdebug.h"

#include "gstcudaplanefilterpool.h"

#include "gstcudaplanefiltermemory.h"
#include "gstcudaplanefilterpinnedpool.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_plane_filter_negotiation_debug);
#define GST_CAT_DEFAULT gst_cuda_plane_filter_negotiation_debug

static void
debug_ensure (void)
{
  GST_CUDA_PLANE_FILTER_DEBUG_INIT_ONCE
      (gst_cuda_plane_filter_negotiation_debug, "cudaplanefilternegotiation",
      "CUDA plane filter caps and allocation");
}

/* Template caps: @formats in CUDA memory (its allocator's formats) then
 * in system memory; progressive only, so that interlaced caps fail
 * negotiation like any refused caps, not later in set_caps (a field would
 * be filtered with the other field's rows). */
GstCaps *
gst_cuda_plane_filter_negotiation_template_caps (const gchar * formats)
{
  GstCaps *caps;
  caps = gst_cuda_plane_filter_memory_template_caps (formats);
  gst_caps_set_simple (caps, "interlace-mode", G_TYPE_STRING, "progressive",
      NULL);
  return caps;
}

/* After accept_caps refused @caps: interlaced caps on the sink pad are
 * explained by a WARNING (upstream posts the not-negotiated error). */
void
gst_cuda_plane_filter_negotiation_explain_refusal (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps)
{
  GstVideoInfo info;

  if (direction == GST_PAD_SINK && gst_caps_is_fixed (caps) &&
      gst_video_info_from_caps (&info, caps) &&
      GST_VIDEO_INFO_IS_INTERLACED (&info))
    GST_ELEMENT_WARNING (trans, STREAM, FORMAT,
        ("Interlaced video is not supported: put a deinterlace element "
            "before %s", GST_ELEMENT_NAME (trans)),
        ("caps %" GST_PTR_FORMAT, caps));
}

/* The caps are in CUDA memory (never without gstreamer-cuda). */
gboolean
gst_cuda_plane_filter_negotiation_caps_is_cuda (const GstCaps * caps)
{
  return gst_cuda_plane_filter_memory_caps_is_cuda (caps);
}

/* @caps (transfer full) without CUDA (or other non-system) memory unless
 * @allow; in system memory with @to_system. */
GstCaps *
gst_cuda_plane_filter_negotiation_usable (GstCaps * caps, gboolean to_system,
    gboolean allow)
{
  GstCaps *res;
  guint i;

  if (gst_caps_is_any (caps))
    return gst_caps_new_any ();
  res = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    gboolean cuda = f != NULL && !gst_caps_features_is_any (f) &&
        !gst_caps_features_is_equal (f,
        GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY);

    /* CUDA (or other) memory the element cannot read */
    if (cuda && !allow)
      continue;
    if (to_system)
      res = gst_caps_merge_structure (res,
          gst_structure_copy (gst_caps_get_structure (caps, i)));
    else
      res = gst_caps_merge_structure_full (res,
          gst_structure_copy (gst_caps_get_structure (caps, i)),
          f ? gst_caps_features_copy (f) : NULL);
  }
  return res;
}

/* @caps (transfer full, system memory) in the memories the element can
 * give: @like's first structure's first, then the other (CUDA only with
 * @allow and for its formats). */
GstCaps *
gst_cuda_plane_filter_negotiation_add_memory (GstCaps * caps, GstCaps * like,
    gboolean allow)
{
  GstCaps *res;

  if (gst_caps_is_any (caps))
    return caps;
  if (allow && gst_cuda_plane_filter_memory_caps_is_cuda (like)) {
    /* CUDA first: the transform puts a structure's own memory first */
    caps = gst_caps_make_writable (caps);
    gst_caps_set_features_simple (caps,
        gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  }
  res = gst_cuda_plane_filter_memory_transform_caps (caps, allow);
  gst_caps_unref (caps);
  return res;
}

/* The other pad's caps: the same, in the memory they came in first; CUDA
 * memory the element cannot take gives nothing (accept-caps refuses). */
GstCaps *
gst_cuda_plane_filter_negotiation_transform (GstCaps * caps, gboolean allow)
{
  GstCaps *usable = gst_cuda_plane_filter_negotiation_usable (caps, FALSE,
      allow);
  GstCaps *res = gst_cuda_plane_filter_memory_transform_caps (usable, allow);

  gst_caps_unref (usable);
  return res;
}

/* @othercaps' structures in the memory of @caps when any (transfer
 * full): frames stay in the memory they came in. */
GstCaps *
gst_cuda_plane_filter_negotiation_in_memory_of (GstCaps * othercaps,
    GstCaps * caps)
{
  return gst_cuda_plane_filter_memory_caps_in_memory_of (othercaps, caps);
}

/* @caps' CUDA-memory structures first (transfer full): the sink pad's
 * caps answer on the CUDA backend. */
GstCaps *
gst_cuda_plane_filter_negotiation_cuda_first (GstCaps * caps)
{
  return gst_cuda_plane_filter_memory_caps_cuda_first (caps);
}

/* The first pool of @query asks for @held buffers more. */
static void
count_held_buffers (GstQuery * query, guint held)
{
  GstBufferPool *pool = NULL;
  guint size, min, max;

  if (held == 0 || gst_query_get_n_allocation_pools (query) == 0)
    return;
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  min += held;
  if (max != 0 && max < min)
    max = min;
  gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  gst_clear_object (&pool);
}

/* The caps of an ALLOCATION @query and their video @info; NULL when it
 * has none or they are not video caps. */
static GstCaps *
allocation_caps (GstQuery * query, GstVideoInfo * info)
{
  GstCaps *caps;

  debug_ensure ();
  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (info, caps))
    return NULL;
  return caps;
}

/* Upstream's pool in the caps' memory: a CUDA pool of @context for CUDA
 * caps, a pinned pool on the CUDA backend (no staging copy), else a video
 * pool; any stride (GstVideoMeta); @held more buffers (overlap). FALSE:
 * not video caps, or CUDA caps the element cannot take. */
gboolean
gst_cuda_plane_filter_negotiation_propose (GstObject * element,
    GstQuery * query, cm_backend backend, gpointer context, gpointer stream,
    guint held)
{
  GstCaps *caps;
  GstVideoInfo info;
  GstBufferPool *pool;

  caps = allocation_caps (query, &info);
  if (caps == NULL)
    return FALSE;

  if (gst_cuda_plane_filter_memory_caps_is_cuda (caps)) {
    if (backend != CM_BACKEND_CUDA || context == NULL ||
        !gst_cuda_plane_filter_memory_propose (query, caps, context, stream))
      return FALSE;
    count_held_buffers (query, held);
    return TRUE;
  }
  if (backend == CM_BACKEND_CUDA && gst_cuda_plane_filter_pinned_pool_propose (query, caps,
          context)) {
    count_held_buffers (query, held);
    return TRUE;
  }

  if (!gst_cuda_plane_filter_pool_propose_wanted (query))
    return TRUE;

  pool = gst_video_buffer_pool_new ();
  if (!gst_cuda_plane_filter_pool_offer (query, pool, caps,
          GST_VIDEO_INFO_SIZE (&info)))
    GST_WARNING_OBJECT (element, "failed to configure the proposed pool");
  gst_object_unref (pool);

  return TRUE;
}

/* The output pool first in @query: a CUDA pool of @context for CUDA caps,
 * a pinned pool on the CUDA backend (the download lands in the buffer),
 * else downstream's or our own video pool; chain up after. */
gboolean
gst_cuda_plane_filter_negotiation_decide (GstObject * element,
    GstQuery * query, cm_backend backend, gpointer context, gpointer stream)
{
  GstCaps *outcaps;
  GstVideoInfo info;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  guint size = 0, min = 0, max = 0, settled;
  gboolean update_pool, video_meta;

  outcaps = allocation_caps (query, &info);
  if (outcaps == NULL)
    return FALSE;

  if (gst_cuda_plane_filter_memory_caps_is_cuda (outcaps)) {
    if (backend != CM_BACKEND_CUDA || context == NULL ||
        !gst_cuda_plane_filter_memory_decide (query, outcaps, context,
            stream)) {
      GST_ERROR_OBJECT (element, "no CUDA buffer pool for %" GST_PTR_FORMAT,
          outcaps);
      return FALSE;
    }
    return TRUE;
  }
  if (backend == CM_BACKEND_CUDA && gst_cuda_plane_filter_pinned_pool_decide (query, outcaps,
          context))
    return TRUE;

  update_pool = gst_query_get_n_allocation_pools (query) > 0;
  if (update_pool)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  size = MAX (size, (guint) GST_VIDEO_INFO_SIZE (&info));

  if (pool == NULL)
    pool = gst_video_buffer_pool_new ();

  video_meta = gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
      NULL);
  /* the query keeps size: what the pool settles on is not put in it */
  settled = size;
  if (!gst_cuda_plane_filter_pool_set_config (pool,
          gst_buffer_pool_get_config (pool), outcaps, &settled, min, max,
          video_meta)) {
    gboolean usable;

    /* the pool may have adjusted the config: take it if it is still fine,
     * otherwise use a plain video pool of our own. set_config takes the
     * structure whatever it answers; a refused one is ours to free. */
    config = gst_buffer_pool_get_config (pool);
    usable = gst_buffer_pool_config_validate_params (config, outcaps, size,
        min, max);
    if (usable)
      usable = gst_buffer_pool_set_config (pool, config);
    else
      gst_structure_free (config);
    if (!usable) {
      GST_DEBUG_OBJECT (element, "downstream pool refused our config");
      gst_object_unref (pool);
      pool = gst_video_buffer_pool_new ();
      settled = size;
      if (!gst_cuda_plane_filter_pool_set_config (pool,
              gst_buffer_pool_get_config (pool), outcaps, &settled, min, max,
              video_meta)) {
        GST_ERROR_OBJECT (element, "failed to configure a video buffer pool");
        gst_object_unref (pool);
        return FALSE;
      }
    }
  }

  gst_cuda_plane_filter_pool_put_first (query, pool, size, min, max,
      update_pool);
  gst_object_unref (pool);
  return TRUE;
}

/* ---- caps for subclasses' own negotiation ------------------------------- */

/* Template caps for subclasses' pads (see negotiation_template_caps). */
GstCaps *
gst_cuda_plane_filter_template_caps (const gchar * formats)
{
  return gst_cuda_plane_filter_negotiation_template_caps (formats);
}

/* Subclasses' transform_caps: the structures of @caps the element can take
 * (@allow: allow_cuda_memory(), read once per query), in system memory;
 * compute the other pad's formats on them, then caps_add_memory(). */
GstCaps *
gst_cuda_plane_filter_caps_to_system (GstCaps * caps, gboolean allow)
{
  return gst_cuda_plane_filter_negotiation_usable (caps, TRUE, allow);
}

/* @caps (transfer full) in the memories the element can give (the same
 * @allow as caps_to_system). */
GstCaps *
gst_cuda_plane_filter_caps_add_memory (GstCaps * caps, GstCaps * like,
    gboolean allow)
{
  return gst_cuda_plane_filter_negotiation_add_memory (caps, like, allow);
}

/* Subclasses' fixate_caps, first: @othercaps in the memory of @caps when
 * the peer takes it. */
GstCaps *
gst_cuda_plane_filter_fixate_memory (GstCaps * othercaps, GstCaps * caps)
{
  return gst_cuda_plane_filter_negotiation_in_memory_of (othercaps, caps);
}

/* ---- metas -------------------------------------------------------------- */

/* A filter changes sample values, never where the frame's pixels are: a
 * meta is kept unless one of its tags says it depends on something else
 * than the video, its orientation, size or colour space (as GStreamer's
 * video filters decide), e.g. "memory"; colour-space metas only while the
 * output has the input's format. Regions of interest and affine
 * transformations stay. @convert: the output format differs from the
 * input's. */
gboolean
gst_cuda_plane_filter_meta_is_kept (GstMeta * meta, gboolean convert)
{
  const gchar *const *tags;
  const gchar *const kept[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_ORIENTATION_STR, GST_META_TAG_VIDEO_SIZE_STR,
    GST_META_TAG_VIDEO_COLORSPACE_STR, NULL
  };

  tags = gst_meta_api_type_get_tags (meta->info->api);
  if (tags == NULL)
    return TRUE;
  for (; *tags; tags++) {
    if (!g_strv_contains (kept, *tags))
      return FALSE;
    if (convert &&
        g_str_equal (*tags, GST_META_TAG_VIDEO_COLORSPACE_STR))
      return FALSE;
  }
  return TRUE;
}

/* ---- the base class's callbacks ----------------------------------------- */

/* GstCudaPlaneFilter derives from GstBaseTransform directly */
#define PARENT_CLASS \
  GST_BASE_TRANSFORM_CLASS (g_type_class_peek (GST_TYPE_BASE_TRANSFORM))

/* The other pad's caps: the same, in the memory they came in first, then
 * in the other one when the element can use CUDA memory. */
GstCaps *
gst_cuda_plane_filter_negotiation_transform_caps (GstBaseTransform * trans,
    gboolean allow, GstPadDirection direction, GstCaps * caps,
    GstCaps * filter)
{
  debug_ensure ();
  return gst_cuda_plane_filter_negotiation_filter_caps (trans,
      GST_CAT_DEFAULT, direction, caps,
      gst_cuda_plane_filter_negotiation_transform (caps, allow), filter);
}

/* The end of a transform_caps: @res (transfer full) intersected with
 * @filter, filter order first, logged in @category. */
GstCaps *
gst_cuda_plane_filter_negotiation_filter_caps (GstBaseTransform * trans,
    GstDebugCategory * category, GstPadDirection direction, GstCaps * caps,
    GstCaps * res, GstCaps * filter)
{
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, res,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (res);
    res = tmp;
  }
  GST_CAT_DEBUG_OBJECT (category, trans, "%s %" GST_PTR_FORMAT " -> %"
      GST_PTR_FORMAT, direction == GST_PAD_SINK ? "sink" : "src", caps, res);
  return res;
}

GstCaps *
gst_cuda_plane_filter_negotiation_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  debug_ensure ();
  othercaps = gst_cuda_plane_filter_fixate_memory (othercaps, caps);
  othercaps = gst_caps_fixate (othercaps);
  GST_DEBUG_OBJECT (trans, "fixated to %" GST_PTR_FORMAT, othercaps);
  return othercaps;
}

/* A caps query. On the CUDA backend the sink pad asks upstream for CUDA
 * memory first: the work is on the device anyway, and an upstream that can
 * give either memory (cudaupload, nvh264dec) then uploads or decodes into
 * it. */
gboolean
gst_cuda_plane_filter_negotiation_query_caps (GstBaseTransform * trans,
    gboolean allow, GstPadDirection direction, GstQuery * query)
{
  GstCaps *caps;

  if (direction != GST_PAD_SINK || !allow)
    return PARENT_CLASS->query (trans, direction, query);

  if (!PARENT_CLASS->query (trans, direction, query))
    return FALSE;
  gst_query_parse_caps_result (query, &caps);
  if (caps != NULL) {
    caps = gst_cuda_plane_filter_negotiation_cuda_first (gst_caps_ref (caps));
    gst_query_set_caps_result (query, caps);
    gst_caps_unref (caps);
  }
  return TRUE;
}

/* set_caps: parses the caps into @in_info and @out_info and checks that
 * the element can process them (an error is posted or logged when not). */
gboolean
gst_cuda_plane_filter_negotiation_check_caps (GstBaseTransform * trans,
    const GstCudaPlaneFilterNegotiationState * st, GstCaps * incaps,
    GstCaps * outcaps, GstVideoInfo * in_info, GstVideoInfo * out_info)
{
  debug_ensure ();
  if (!gst_video_info_from_caps (in_info, incaps) ||
      !gst_video_info_from_caps (out_info, outcaps)) {
    GST_ERROR_OBJECT (trans, "invalid caps %" GST_PTR_FORMAT " -> %"
        GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  /* the templates refuse interlaced caps before they come here */
  if (GST_VIDEO_INFO_IS_INTERLACED (in_info)) {
    GST_ERROR_OBJECT (trans, "interlaced caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  if (GST_VIDEO_INFO_WIDTH (in_info) != GST_VIDEO_INFO_WIDTH (out_info)
      || GST_VIDEO_INFO_HEIGHT (in_info) != GST_VIDEO_INFO_HEIGHT (out_info)) {
    GST_ERROR_OBJECT (trans, "input and output sizes differ: %"
        GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  /* another output format: only one plane made by the subclass from a
   * planar input, packed 8-bit RGB or GRAY16_LE (labels) */
  if (GST_VIDEO_INFO_FORMAT (in_info) != GST_VIDEO_INFO_FORMAT (out_info)
      && (GST_VIDEO_INFO_IS_RGB (in_info)
          || GST_VIDEO_INFO_N_PLANES (out_info) != 1
          || !((GST_VIDEO_INFO_IS_RGB (out_info) &&
                  GST_VIDEO_INFO_COMP_DEPTH (out_info, 0) == 8) ||
              GST_VIDEO_INFO_FORMAT (out_info) ==
              GST_VIDEO_FORMAT_GRAY16_LE))) {
    GST_ERROR_OBJECT (trans, "cannot convert %" GST_PTR_FORMAT " to %"
        GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  if ((gst_cuda_plane_filter_negotiation_caps_is_cuda (incaps) ||
          gst_cuda_plane_filter_negotiation_caps_is_cuda (outcaps)) &&
      !(st->backend == CM_BACKEND_CUDA && st->context != NULL)) {
    GST_ERROR_OBJECT (trans, "CUDA memory without a CUDA context: %"
        GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  return TRUE;
}

gboolean
gst_cuda_plane_filter_negotiation_get_unit_size (GstBaseTransform * trans,
    GstCaps * caps, gsize * size)
{
  GstVideoInfo info;

  debug_ensure ();
  if (!gst_video_info_from_caps (&info, caps)) {
    GST_WARNING_OBJECT (trans, "cannot parse caps %" GST_PTR_FORMAT, caps);
    return FALSE;
  }
  *size = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

gboolean
gst_cuda_plane_filter_negotiation_propose_allocation (GstBaseTransform * trans,
    const GstCudaPlaneFilterNegotiationState * st, GstQuery * decide_query,
    GstQuery * query)
{
  /* passthrough (analysers): buffers go downstream as they come, so
   * downstream answers, plus the buffer held back with overlap */
  if (decide_query == NULL) {
    if (!gst_pad_peer_query (GST_BASE_TRANSFORM_SRC_PAD (trans), query))
      return FALSE;
    count_held_buffers (query, st->held);
    return TRUE;
  }
  /* with overlap the input buffer of the frame still on the device is
   * kept: one more than upstream needs itself */
  return gst_cuda_plane_filter_negotiation_propose (GST_OBJECT (trans), query,
      st->backend, st->context, st->stream, st->held);
}

gboolean
gst_cuda_plane_filter_negotiation_decide_allocation (GstBaseTransform * trans,
    const GstCudaPlaneFilterNegotiationState * st, GstQuery * query)
{
  if (!gst_cuda_plane_filter_negotiation_decide (GST_OBJECT (trans), query,
          st->backend, st->context, st->stream))
    return FALSE;
  return PARENT_CLASS->decide_allocation (trans, query);
}
