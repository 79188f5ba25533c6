/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the base class offers its subclasses without the element's state
 * (the helpers of gstcudaplanefilter.h that are not the element's own:
 * property values and the settings structs they are kept in, controlled
 * properties, depths and host images, caps for their own transform_caps
 * and fixate_caps), and what it asks of them
 * on the frame's way: which metas the output keeps, the subclass's
 * methods as the frame path calls them (gstcudaplanefilterhelpers.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "gstcudaplanefilter.h"
#include "gstcudaplanefilterhelpers.h"

#include "gstcudaplanefilternegotiation.h"

/* ---- properties --------------------------------------------------------- */

/**
 * gst_cuda_plane_filter_double_in_range:
 *
 * The double that set_property got for a #GParamSpecDouble, brought into
 * the spec's range: GLib up to 2.74 lets through values a hair outside it
 * (its comparison tolerance; newer GLib refuses them), which the core
 * would refuse. NaN stays NaN for the caller to refuse with a warning.
 */
gdouble
gst_cuda_plane_filter_double_in_range (const GValue * value,
    GParamSpec * pspec)
{
  GParamSpecDouble *dspec = G_PARAM_SPEC_DOUBLE (pspec);
  gdouble v = g_value_get_double (value);

  return isnan (v) ? v : CLAMP (v, dspec->minimum, dspec->maximum);
}

#define STORE(type, v) G_STMT_START { type nv = (v); \
    changed = *(type *) p != nv; *(type *) p = nv; } G_STMT_END

/* @value into the field at @p, of the type of @pspec's values; TRUE when
 * the field's value changed */
static gboolean
field_store (gpointer p, const GValue * value, GParamSpec * pspec)
{
  gboolean changed = FALSE;

  switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec))) {
    case G_TYPE_INT:
      STORE (gint, g_value_get_int (value));
      break;
    case G_TYPE_UINT:
      STORE (guint, g_value_get_uint (value));
      break;
    case G_TYPE_BOOLEAN:
      /* any non-zero gboolean is TRUE */
      STORE (gboolean, g_value_get_boolean (value) ? TRUE : FALSE);
      break;
    case G_TYPE_DOUBLE:
      /* NaN never equals itself: counted as a change, as it should be */
      STORE (gdouble, gst_cuda_plane_filter_double_in_range (value,
              pspec));
      break;
    case G_TYPE_ENUM:
      STORE (gint, g_value_get_enum (value));
      break;
    case G_TYPE_STRING:
      changed = g_strcmp0 (*(gchar **) p, g_value_get_string (value)) != 0;
      if (changed) {
        g_free (*(gchar **) p);
        *(gchar **) p = g_value_dup_string (value);
      }
      break;
    default:
      g_assert_not_reached ();
  }
  return changed;
}

#undef STORE

/* the field at @p into @value */
static void
field_load (gconstpointer p, GValue * value, GParamSpec * pspec)
{
  switch (G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspec))) {
    case G_TYPE_INT:
      g_value_set_int (value, *(const gint *) p);
      break;
    case G_TYPE_UINT:
      g_value_set_uint (value, *(const guint *) p);
      break;
    case G_TYPE_BOOLEAN:
      g_value_set_boolean (value, *(const gboolean *) p);
      break;
    case G_TYPE_DOUBLE:
      g_value_set_double (value, *(const gdouble *) p);
      break;
    case G_TYPE_ENUM:
      g_value_set_enum (value, *(const gint *) p);
      break;
    case G_TYPE_STRING:
      g_value_set_string (value, *(gchar * const *) p);
      break;
    default:
      g_assert_not_reached ();
  }
}

/**
 * gst_cuda_plane_filter_settings_set:
 * @object: the element
 * @settings: its settings struct
 * @fields: (array length=n_fields): where its properties are kept in
 *     @settings
 * @prop_id: @value: @pspec: as set_property got them
 *
 * set_property for the properties kept in @settings: stores @value in
 * the fields of @prop_id under the object lock, or warns about an
 * invalid property id. A value the element refuses is to be refused
 * before.
 *
 * Returns: %TRUE when @prop_id is one of @fields and its value changed
 *     (a value set again, by hand or by a control binding that does not
 *     move, rebuilds nothing)
 */
gboolean
gst_cuda_plane_filter_settings_set (GObject * object, gpointer settings,
    const GstCudaPlaneFilterField * fields, guint n_fields, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  gboolean known = FALSE, changed = FALSE;
  guint i;

  GST_OBJECT_LOCK (object);
  for (i = 0; i < n_fields; i++) {
    if (fields[i].prop_id == prop_id) {
      changed |= field_store (G_STRUCT_MEMBER_P (settings, fields[i].offset),
          value, pspec);
      known = TRUE;
    }
  }
  GST_OBJECT_UNLOCK (object);

  if (!known)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  return changed;
}

/**
 * gst_cuda_plane_filter_settings_get:
 *
 * get_property for the properties kept in @settings, read under the
 * object lock; the arguments are those of
 * gst_cuda_plane_filter_settings_set().
 */
void
gst_cuda_plane_filter_settings_get (GObject * object,
    gconstpointer settings, const GstCudaPlaneFilterField * fields,
    guint n_fields, guint prop_id, GValue * value, GParamSpec * pspec)
{
  guint i;

  for (i = 0; i < n_fields; i++) {
    if (fields[i].prop_id == prop_id) {
      GST_OBJECT_LOCK (object);
      field_load (G_STRUCT_MEMBER_P (settings, fields[i].offset), value,
          pspec);
      GST_OBJECT_UNLOCK (object);
      return;
    }
  }
  G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

/**
 * gst_cuda_plane_filter_before_transform:
 *
 * Before each buffer (passthrough too): controlled properties
 * (GstController bindings) take their values at the buffer's stream time,
 * so that they apply from this frame on. Subclasses that override
 * before_transform call it first.
 */
void
gst_cuda_plane_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstClockTime ts = gst_segment_to_stream_time (&trans->segment,
      GST_FORMAT_TIME, GST_BUFFER_TIMESTAMP (buffer));

  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (trans), ts);
}

/* ---- depths and host images --------------------------------------------- */

/**
 * gst_cuda_plane_filter_info_depth:
 * @info: negotiated video info
 *
 * Returns: the sample depth of the planes processed for @info
 */
cm_depth
gst_cuda_plane_filter_info_depth (const GstVideoInfo * info)
{
  return gst_cuda_plane_filter_frame_info_depth (info);
}

/**
 * gst_cuda_plane_filter_host_image_alloc:
 *
 * A host image of the given size with rows padded to 64 bytes (g_try_malloc;
 * free img->data with g_free). Returns %FALSE when out of memory.
 */
gboolean
gst_cuda_plane_filter_host_image_alloc (cm_image * img, gint width,
    gint height, cm_depth depth)
{
  return gst_cuda_plane_filter_frame_host_image_alloc (img, width, height,
      depth);
}

/* ---- caps for subclasses' own negotiation ------------------------------- */

/**
 * gst_cuda_plane_filter_template_caps:
 * @formats: a caps list of formats, "{ GRAY8, ... }"
 *
 * Pad template caps for @formats: with gstreamer-cuda, first in CUDA
 * memory (the formats the CUDA allocator supports, no GRAY), then in
 * system memory; without it, system memory only. The templates do not
 * depend on the driver: whether CUDA memory is offered at run time is
 * decided by transform_caps.
 *
 * Returns: (transfer full): the caps
 */
GstCaps *
gst_cuda_plane_filter_template_caps (const gchar * formats)
{
  return gst_cuda_plane_filter_negotiation_template_caps (formats);
}

/**
 * gst_cuda_plane_filter_caps_to_system:
 * @caps: caps on one pad
 * @allow: gst_cuda_plane_filter_allow_cuda_memory(), read once for the
 *     query
 *
 * For subclasses with their own transform_caps: the structures of @caps
 * the element can take (no CUDA memory without @allow), in system memory.
 * Compute the other pad's formats on the result, then give it to
 * gst_cuda_plane_filter_caps_add_memory() with the same @allow.
 *
 * Returns: (transfer full): the caps
 */
GstCaps *
gst_cuda_plane_filter_caps_to_system (GstCaps * caps, gboolean allow)
{
  return gst_cuda_plane_filter_negotiation_usable (caps, TRUE, allow);
}

/**
 * gst_cuda_plane_filter_caps_add_memory:
 * @caps: (transfer full): system-memory caps for the other pad
 * @like: the caps they were computed from
 * @allow: gst_cuda_plane_filter_allow_cuda_memory(), as given to
 *     gst_cuda_plane_filter_caps_to_system()
 *
 * Puts @caps in the memories the element can give: first the memory of
 * @like's first structure, then the other one (CUDA memory only for the
 * formats it supports, and only with @allow).
 *
 * Returns: (transfer full): the caps
 */
GstCaps *
gst_cuda_plane_filter_caps_add_memory (GstCaps * caps, GstCaps * like,
    gboolean allow)
{
  return gst_cuda_plane_filter_negotiation_add_memory (caps, like, allow);
}

/**
 * gst_cuda_plane_filter_fixate_memory:
 * @self: the element
 * @othercaps: (transfer full): the caps to fixate on one pad
 * @caps: the fixed caps of the other pad
 *
 * For subclasses with their own fixate_caps, before fixating: keeps the
 * structures of @othercaps in the memory of @caps when the peer accepts
 * that memory, so that frames stay in the memory they came in.
 *
 * Returns: (transfer full): the caps
 */
GstCaps *
gst_cuda_plane_filter_fixate_memory (GstCudaPlaneFilter * self,
    GstCaps * othercaps, GstCaps * caps)
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

/* ---- frame statistics --------------------------------------------------- */

/* The fields of GstCudaPlaneFilterFrameStats and their names in the
 * "cudamorphology-stats" query; "frames" counts one per frame. */
static const struct
{
  const gchar *name;
  gsize offset;
} stats_fields[] = {
  {"frames", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats, frames)},
  {"device-in", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats, device_in)},
  {"device-out", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats, device_out)},
  {"cuda-host-maps", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          cuda_host_maps)},
  {"pinned-uploads", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          pinned_uploads)},
  {"staged-uploads", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          staged_uploads)},
  {"pinned-downloads", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          pinned_downloads)},
  {"staged-downloads", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          staged_downloads)},
  {"overlapped", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats, overlapped)},
  {"stream-ordered", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          stream_ordered)},
  {"timed-frames", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          timed_frames)},
  {"device-ns", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats, device_ns)},
  {"filter-builds", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          filter_builds)},
};

#define STATS_FIELD(st, i) \
  G_STRUCT_MEMBER (guint64, (st), stats_fields[i].offset)

/* Adds one frame's counts to @sum (the frame itself counted in frames). */
void
gst_cuda_plane_filter_frame_stats_add (GstCudaPlaneFilterFrameStats * sum,
    const GstCudaPlaneFilterFrameStats * frame)
{
  guint i;

  sum->frames++;
  for (i = 1; i < G_N_ELEMENTS (stats_fields); i++)
    STATS_FIELD (sum, i) += STATS_FIELD (frame, i);
}

void
gst_cuda_plane_filter_frame_stats_to_structure (const
    GstCudaPlaneFilterFrameStats * st, GstStructure * s)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (stats_fields); i++)
    gst_structure_set (s, stats_fields[i].name, G_TYPE_UINT64,
        STATS_FIELD (st, i), NULL);
}

/* ---- errors ------------------------------------------------------------- */

/* Posts a GST_ELEMENT_ERROR "@what: <status text>" whose domain and code
 * say what kind of failure @status is, logged in @category too. */
void
gst_cuda_plane_filter_post_status (GstElement * element,
    GstDebugCategory * category, cm_status status, const gchar * what)
{
  const gchar *text = cm_status_string (status);

  if (category)
    GST_CAT_ERROR_OBJECT (category, element, "%s: %s", what, text);
  GST_ERROR_OBJECT (element, "%s: %s", what, text);

  switch (status) {
    case CM_ERR_INVALID_ARG:
    case CM_ERR_PARSE:
      GST_ELEMENT_ERROR (element, CORE, FAILED, ("%s: %s", what, text),
          ("the core said: %s", text));
      break;
    case CM_ERR_UNSUPPORTED:
      GST_ELEMENT_ERROR (element, CORE, NOT_IMPLEMENTED, ("%s: %s", what,
              text), ("the core said: %s", text));
      break;
    case CM_ERR_NO_MEMORY:
      GST_ELEMENT_ERROR (element, RESOURCE, NO_SPACE_LEFT, ("%s: %s", what,
              text), ("the core said: %s", text));
      break;
    case CM_ERR_NO_CUDA:
    case CM_ERR_NO_DEVICE:
      GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND, ("%s: %s", what,
              text), ("the core said: %s", text));
      break;
    default:
      GST_ELEMENT_ERROR (element, RESOURCE, FAILED, ("%s: %s", what, text),
          ("CUDA error %d: %s", CM_STATUS_IS_CUDA (status) ?
              (gint) status - CM_ERR_CUDA_BASE : 0, text));
      break;
  }
}
