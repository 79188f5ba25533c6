/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudablobs' output (gstcudablobsprivate.h): the output property (caps,
 * passthrough, a refused output kept), a frame's blobs gathered region
 * after region, and the result as the message and the output buffer's
 * metas (the custom meta, the analytics entries). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudablobsprivate.h"
#include "base/gstcudaplanefilteranalysis.h"
#include "base/gstcudaplanefilternegotiation.h"

#ifdef HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_blobs_debug);
#define GST_CAT_DEFAULT gst_cuda_blobs_debug

/* the analytics relation meta keeps a matrix of order n^2: its entries
 * with max-blobs=0 */
#define MAX_OD_ENTRIES 4096

static void gst_cuda_blobs_keep_refused_output (GstCudaBlobs * self,
    GstCaps * incaps, GstCaps * outcaps);

/* ---- caps --------------------------------------------------------------- */

#define IN_CAPS "video/x-raw, format = (string) " GST_CUDA_BLOBS_IN_FORMATS
#define LABELS_CAPS "video/x-raw, format = (string) GRAY16_LE"

/* Whether the caps negotiated on the source pad are the labels of another
 * format; FALSE with *have_caps FALSE before the first negotiation. */
static gboolean
gst_cuda_blobs_current_labels (GstCudaBlobs * self, gboolean * have_caps)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCaps *in = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
  GstCaps *out = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SRC_PAD (trans));
  GstVideoInfo in_info, out_info;
  gboolean labels = FALSE;

  *have_caps = in != NULL && out != NULL;
  if (*have_caps && gst_video_info_from_caps (&in_info, in) &&
      gst_video_info_from_caps (&out_info, out))
    labels = GST_VIDEO_INFO_FORMAT (&in_info) !=
        GST_VIDEO_INFO_FORMAT (&out_info);
  gst_clear_caps (&in);
  gst_clear_caps (&out);
  return labels;
}

/* The base's caps for the labels or the input's format */
GstCaps *
gst_cuda_blobs_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (trans);
  GstCudaPlaneFilterAnalysisCaps a = { IN_CAPS, LABELS_CAPS };

  GST_OBJECT_LOCK (self);
  a.want = self->settings.output == GST_CUDA_BLOBS_OUTPUT_LABELS;
  GST_OBJECT_UNLOCK (self);
  a.current = gst_cuda_blobs_current_labels (self, &a.have_caps);
  /* one answer for the whole query: a start or stop may change it */
  a.allow = gst_cuda_plane_filter_allow_cuda_memory (GST_CUDA_PLANE_FILTER
      (self));
  return gst_cuda_plane_filter_analysis_transform_caps (trans,
      GST_CAT_DEFAULT, &a, direction, caps, filter);
}

/* The base's fixation; the output property follows what downstream
 * took. */
GstCaps *
gst_cuda_blobs_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  othercaps = gst_cuda_plane_filter_analysis_fixate_caps (trans,
      GST_CAT_DEFAULT, caps, othercaps);
  if (direction == GST_PAD_SINK)
    gst_cuda_blobs_keep_refused_output (GST_CUDA_BLOBS (trans), caps,
        othercaps);
  return othercaps;
}

/* ---- output mode -------------------------------------------------------- */

/* The frames' mode for the applied output and the negotiated caps: a
 * converted output is the labels whatever the property says (a
 * renegotiation is pending), and output=labels on caps of another format
 * than GRAY16_LE leaves the frames unchanged until it is renegotiated. */
GstCudaBlobsOutput
gst_cuda_blobs_mode (GstCudaBlobs * self)
{
  if (self->labels_caps)
    return GST_CUDA_BLOBS_OUTPUT_LABELS;
  if (self->analysis.output_applied == GST_CUDA_BLOBS_OUTPUT_LABELS)
    return self->in_gray16 ? GST_CUDA_BLOBS_OUTPUT_LABELS :
        GST_CUDA_BLOBS_OUTPUT_PASSTHROUGH;
  return self->analysis.output_applied;
}

/* Streaming thread, before a buffer is allocated: takes the output
 * property and sets the passthrough flag that goes with it, so that the
 * flag, the buffer allocation and the mode of one buffer agree. */
static void
gst_cuda_blobs_apply_output (GstCudaBlobs * self)
{
  gst_cuda_plane_filter_analysis_take_output (GST_BASE_TRANSFORM (self),
      &self->analysis, (const gint *) & self->settings.output,
      GST_CUDA_BLOBS_OUTPUT_LABELS);
  gst_cuda_plane_filter_analysis_apply_mode (GST_BASE_TRANSFORM (self),
      GST_CAT_DEFAULT, gst_cuda_blobs_mode (self), self->mode,
      GST_CUDA_BLOBS_OUTPUT_PASSTHROUGH);
}

void
gst_cuda_blobs_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  gst_cuda_plane_filter_before_transform (trans, buffer);
  gst_cuda_blobs_apply_output (GST_CUDA_BLOBS (trans));
}

/* Negotiation fixated @outcaps for @incaps: the output in use stays when
 * downstream refused the property's. */
static void
gst_cuda_blobs_keep_refused_output (GstCudaBlobs * self, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstVideoInfo in_info, out_info;
  gboolean labels;

  if (!gst_caps_is_fixed (outcaps) || !gst_caps_is_fixed (incaps) ||
      !gst_video_info_from_caps (&out_info, outcaps) ||
      !gst_video_info_from_caps (&in_info, incaps))
    return;
  /* GRAY16_LE in: every output has the same caps */
  if (GST_VIDEO_INFO_FORMAT (&in_info) == GST_VIDEO_FORMAT_GRAY16_LE)
    return;
  labels = GST_VIDEO_INFO_FORMAT (&out_info) == GST_VIDEO_FORMAT_GRAY16_LE;

  if (gst_cuda_plane_filter_analysis_keep_output (GST_BASE_TRANSFORM (self),
          &self->analysis, (gint *) & self->settings.output,
          GST_CUDA_BLOBS_OUTPUT_LABELS, labels, GST_TYPE_CUDA_BLOBS_OUTPUT,
          outcaps))
    gst_cuda_blobs_apply_output (self);
}

gboolean
gst_cuda_blobs_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (trans);
  GstVideoInfo in_info, out_info;

  if (!gst_video_info_from_caps (&in_info, incaps) ||
      !gst_video_info_from_caps (&out_info, outcaps))
    return FALSE;
  self->in_gray16 =
      GST_VIDEO_INFO_FORMAT (&in_info) == GST_VIDEO_FORMAT_GRAY16_LE;
  self->labels_caps = GST_VIDEO_INFO_FORMAT (&in_info) !=
      GST_VIDEO_INFO_FORMAT (&out_info);
  /* before the allocation that follows set_caps */
  gst_cuda_blobs_apply_output (self);

  return GST_BASE_TRANSFORM_CLASS (g_type_class_peek
      (GST_TYPE_CUDA_PLANE_FILTER))->set_caps (trans, incaps, outcaps);
}

/* ---- a frame's blobs ---------------------------------------------------- */

void
gst_cuda_blobs_result_clear (GstCudaBlobsResult * r)
{
  g_free (r->x);
  g_free (r->area);
  g_free (r->cx);
  memset (r, 0, sizeof (*r));
}

/* Room for @n more entries; FALSE when out of memory. The arrays are
 * three blocks (32-bit, 64-bit, double) that grow together. */
static gboolean
result_reserve (GstCudaBlobsResult * r, guint n)
{
  guint need = r->count + n, cap;
  guint32 *u32;
  guint64 *u64;
  gdouble *dbl;

  if (need <= r->capacity)
    return TRUE;
  cap = MAX (need, MAX (64, r->capacity * 2));
  u32 = g_try_new (guint32, (gsize) cap * 6);
  u64 = g_try_new (guint64, cap);
  dbl = g_try_new (gdouble, (gsize) cap * 3);
  if (u32 == NULL || u64 == NULL || dbl == NULL) {
    g_free (u32);
    g_free (u64);
    g_free (dbl);
    return FALSE;
  }
#define MOVE(field, block, i) \
  G_STMT_START { \
    if (r->count > 0) \
      memcpy (block + (gsize) (i) * cap, r->field, \
          r->count * sizeof (*r->field)); \
    r->field = block + (gsize) (i) * cap; \
  } G_STMT_END
  {
    guint32 *old32 = r->x;
    guint64 *old64 = r->area;
    gdouble *olddbl = r->cx;

    MOVE (x, u32, 0);
    MOVE (y, u32, 1);
    MOVE (width, u32, 2);
    MOVE (height, u32, 3);
    MOVE (min, u32, 4);
    MOVE (max, u32, 5);
    MOVE (area, u64, 0);
    MOVE (cx, dbl, 0);
    MOVE (cy, dbl, 1);
    MOVE (mean, dbl, 2);
    g_free (old32);
    g_free (old64);
    g_free (olddbl);
  }
#undef MOVE
  r->capacity = cap;
  return TRUE;
}

static void
result_reset (GstCudaBlobsResult * r)
{
  r->total = 0;
  r->foreground = 0;
  r->count = 0;
}

/* The blobs of one region at (@dx, @dy) of the frame appended to @r */
static gboolean
result_append (GstCudaBlobsResult * r, const cm_blobs_results * b, guint dx,
    guint dy)
{
  guint i, n = b->count;

  if (!result_reserve (r, n))
    return FALSE;
  for (i = 0; i < n; i++) {
    guint k = r->count + i;

    r->x[k] = b->x[i] + dx;
    r->y[k] = b->y[i] + dy;
    r->width[k] = b->width[i];
    r->height[k] = b->height[i];
    r->min[k] = b->min[i];
    r->max[k] = b->max[i];
    r->area[k] = b->area[i];
    r->cx[k] = b->cx[i] + dx;
    r->cy[k] = b->cy[i] + dy;
    r->mean[k] = b->mean[i];
  }
  r->count += n;
  r->total += b->total;
  r->foreground += b->foreground;
  return TRUE;
}

/* The results of the filter that just ran, appended to the frame's; FALSE
 * (posted) when there are none or no memory for them. */
static gboolean
gst_cuda_blobs_gather (GstCudaBlobs * self, cm_filter * filter, guint dx,
    guint dy)
{
  const cm_blobs_results *b = cm_blobs_filter_results (filter);

  if (!self->gathering) {
    result_reset (&self->result);
    self->gathering = TRUE;
  }
  if (b == NULL) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, (NULL),
        ("no blobs after a frame"));
    return FALSE;
  }
  if (b->labels_saturated && !self->labels_warned) {
    GST_ELEMENT_WARNING (self, STREAM, FAILED,
        ("More than 65535 blobs: those past 65535 share the label 65535"),
        ("%u blobs passed", b->total));
    self->labels_warned = TRUE;
  }
  if (!result_append (&self->result, b, dx, dy)) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("Out of memory for %u blobs", b->count), (NULL));
    return FALSE;
  }
  return TRUE;
}

/* A region's blobs, once its work is done: appended in frame coordinates */
void
gst_cuda_blobs_region_done (GstCudaPlaneFilter * base, cm_filter * filter,
    const GstVideoRectangle * rect)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (base);

  if (!gst_cuda_blobs_gather (self, filter, (guint) rect->x, (guint) rect->y))
    self->gathering = FALSE;    /* the frame's error is posted */
}

static void
result_set_counts (GstStructure * s, const GstCudaBlobsResult * r)
{
  gst_structure_set (s, "total", G_TYPE_UINT, r->total,
      "count", G_TYPE_UINT, r->count,
      "foreground", G_TYPE_UINT64, r->foreground, NULL);
}

/* the arrays as GstValueArrays (@bytes FALSE) or GBytes */
static void
result_set_arrays (GstStructure * s, const GstCudaBlobsResult * r,
    gboolean bytes)
{
  const struct
  {
    const gchar *name;
    GType type;
    gconstpointer v;
    gsize size;
  } arrays[] = {
    {"x", G_TYPE_UINT, r->x, 4}, {"y", G_TYPE_UINT, r->y, 4},
    {"width", G_TYPE_UINT, r->width, 4}, {"height", G_TYPE_UINT, r->height, 4},
    {"area", G_TYPE_UINT64, r->area, 8},
    {"cx", G_TYPE_DOUBLE, r->cx, 8}, {"cy", G_TYPE_DOUBLE, r->cy, 8},
    {"min", G_TYPE_UINT, r->min, 4}, {"max", G_TYPE_UINT, r->max, 4},
    {"mean", G_TYPE_DOUBLE, r->mean, 8},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (arrays); i++) {
    if (bytes) {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, G_TYPE_BYTES);
      g_value_take_boxed (&v, g_bytes_new (r->count ? arrays[i].v : NULL,
              r->count * arrays[i].size));
      gst_structure_take_value (s, arrays[i].name, &v);
    } else {
      gst_cuda_plane_filter_analysis_take_array (s, arrays[i].name,
          arrays[i].type, arrays[i].v, r->count);
    }
  }
}

/* A copy of @r's reported entries for a message built later; NULL when
 * out of memory */
static GstCudaBlobsResult *
result_copy (const GstCudaBlobsResult * r)
{
  GstCudaBlobsResult *c = g_new0 (GstCudaBlobsResult, 1);

  if (!result_reserve (c, r->count)) {
    g_free (c);
    return NULL;
  }
#define COPY(field) \
  if (r->count > 0) \
    memcpy (c->field, r->field, r->count * sizeof (*r->field))
  COPY (x);
  COPY (y);
  COPY (width);
  COPY (height);
  COPY (min);
  COPY (max);
  COPY (area);
  COPY (cx);
  COPY (cy);
  COPY (mean);
#undef COPY
  c->count = r->count;
  c->total = r->total;
  c->foreground = r->foreground;
  return c;
}

static void
result_free (gpointer data)
{
  gst_cuda_blobs_result_clear (data);
  g_free (data);
}

/* GstCudaPlaneFilterFinishFunc: the message's arrays */
static void
result_finish_message (GstStructure * s, gpointer data)
{
  result_set_arrays (s, data, FALSE);
}

/* ---- the metas ----------------------------------------------------------- */

/**
 * gst_cuda_blobs_meta_get_info:
 *
 * Registers the custom meta "GstCudaBlobsMeta" (once per process). Tags:
 * the blobs depend on the picture, its orientation and its size (an
 * element that rotates, flips or scales frames drops it); copies of the
 * buffer copy it.
 *
 * Returns: (transfer none): the meta's info
 */
const GstMetaInfo *
gst_cuda_blobs_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const gchar *tags[] = { GST_META_TAG_VIDEO_STR,
      GST_META_TAG_VIDEO_ORIENTATION_STR, GST_META_TAG_VIDEO_SIZE_STR, NULL
    };
    const GstMetaInfo *i = gst_meta_get_info (GST_CUDA_BLOBS_META_NAME);

    if (i == NULL)
      i = gst_meta_register_custom (GST_CUDA_BLOBS_META_NAME, tags, NULL,
          NULL, NULL);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) i);
  }
  return info;
}

#ifdef HAVE_GST_ANALYTICS
/* One object-detection entry of type "blob" per reported blob (at most
 * MAX_OD_ENTRIES without max-blobs), in the buffer's relation meta: a new
 * one pre-sized for them, or upstream's. */
static gboolean
result_add_od (const GstCudaBlobsResult * r, guint max_blobs,
    GstBuffer * buf)
{
  GQuark type = g_quark_from_static_string (GST_CUDA_BLOBS_OD_TYPE);
  GstAnalyticsRelationMeta *rmeta;
  guint i, n = r->count;

  if (max_blobs == 0)
    n = MIN (n, MAX_OD_ENTRIES);
  if (n == 0)
    return TRUE;
  rmeta = gst_buffer_get_analytics_relation_meta (buf);
  if (rmeta == NULL) {
    GstAnalyticsRelationMetaInitParams params = { n,
      (gsize) n * (sizeof (GstAnalyticsODMtd) + 64)
    };

    rmeta = gst_buffer_add_analytics_relation_meta_full (buf, &params);
  }
  if (rmeta == NULL)
    return FALSE;
  for (i = 0; i < n; i++) {
    GstAnalyticsODMtd od;

    if (!gst_analytics_relation_meta_add_od_mtd (rmeta, type, (gint) r->x[i],
            (gint) r->y[i], (gint) r->width[i], (gint) r->height[i], 1.0f,
            &od))
      return FALSE;
  }
  return TRUE;
}
#endif

/* @buf (writable) gets the frame's "GstCudaBlobsMeta" and, with
 * GStreamer >= 1.24, its analytics entries; FALSE when one could not be
 * added */
static gboolean
result_attach (const GstCudaBlobsResult * r, guint max_blobs,
    const GstSegment * segment, GstBuffer * buf)
{
  GstCustomMeta *meta;
  GstStructure *s;

  meta = (GstCustomMeta *) gst_buffer_add_meta (buf,
      gst_cuda_blobs_meta_get_info (), NULL);
  if (meta == NULL)
    return FALSE;
  s = gst_custom_meta_get_structure (meta);
  gst_cuda_plane_filter_analysis_set_times (s, segment, buf);
  result_set_counts (s, r);
  result_set_arrays (s, r, TRUE);
#ifdef HAVE_GST_ANALYTICS
  if (!result_add_od (r, max_blobs, buf))
    return FALSE;
#else
  (void) max_blobs;
#endif
  return TRUE;
}

/* ---- a frame's end ------------------------------------------------------- */

/* The frame's blobs (the whole frame's from @filter, or the regions'
 * gathered): a message when this frame is reported, kept for its output
 * buffer when that gets them. */
GstFlowReturn
gst_cuda_blobs_frame_done (GstCudaPlaneFilter * base, GstBuffer * inbuf,
    cm_filter * filter, gint width, gint height)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (base);
  GstStructure *s = NULL;

  (void) width;
  (void) height;

  /* a whole frame, or no region: the gathering starts here */
  if (filter != NULL) {
    self->gathering = FALSE;
    if (!gst_cuda_blobs_gather (self, filter, 0, 0))
      return GST_FLOW_ERROR;
  } else if (!self->gathering) {
    result_reset (&self->result);
  }
  self->gathering = FALSE;

  if (gst_cuda_plane_filter_analysis_post_frame (GST_BASE_TRANSFORM (self),
          &self->analysis, &self->settings.post_messages,
          &self->settings.interval)) {
    GstCudaBlobsResult *copy = result_copy (&self->result);

    if (copy == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
          ("Out of memory for the message of %u blobs", self->result.count),
          (NULL));
      return GST_FLOW_ERROR;
    }
    /* the times and counts here, the arrays (2,560 values at max-blobs
     * 256) by the element's message thread */
    s = gst_structure_new_empty ("cudablobs");
    gst_cuda_plane_filter_analysis_set_times (s,
        &GST_BASE_TRANSFORM (self)->segment, inbuf);
    result_set_counts (s, &self->result);
    gst_cuda_plane_filter_post_later (base, s, result_finish_message, copy,
        result_free);
  }
  return gst_cuda_plane_filter_analysis_frame_done (GST_BASE_TRANSFORM (self),
      &self->analysis, NULL);
}

/* ---- the result on the output buffer ------------------------------------ */

/* GstCudaBlobs's parent, GstCudaPlaneFilter */
#define PARENT_CLASS GST_BASE_TRANSFORM_CLASS (g_type_class_peek \
    (GST_TYPE_CUDA_PLANE_FILTER))

/* Reads attach-meta once per buffer and starts the frame's gathering;
 * in passthrough a writable buffer when the meta goes on it. */
GstFlowReturn
gst_cuda_blobs_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (trans);

  self->gathering = FALSE;
  return gst_cuda_plane_filter_analysis_prepare_output_buffer (trans,
      GST_CAT_DEFAULT, &self->analysis, &self->settings.attach_meta, inbuf,
      outbuf);
}

/* after the frame (@attach: its result goes on @buf): its result on @buf */
static GstFlowReturn
gst_cuda_blobs_attach (GstCudaBlobs * self, gboolean attach, GstBuffer * buf)
{
  guint max_blobs;

  if (!attach)
    return GST_FLOW_OK;
  max_blobs = self->desc.max_blobs;
  if (!result_attach (&self->result, max_blobs,
          &GST_BASE_TRANSFORM (self)->segment, buf)) {
    GST_ELEMENT_ERROR (self, CORE, FAILED, (NULL),
        ("could not attach the blobs to the output buffer"));
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

GstFlowReturn
gst_cuda_blobs_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (trans);
  GstFlowReturn ret;

  ret = PARENT_CLASS->transform (trans, inbuf, outbuf);
  if (ret != GST_FLOW_OK)
    return ret;
  return gst_cuda_blobs_attach (self,
      gst_cuda_plane_filter_analysis_take_ready (trans, GST_CAT_DEFAULT,
          &self->analysis, outbuf), outbuf);
}

GstFlowReturn
gst_cuda_blobs_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstFlowReturn ret;

  ret = PARENT_CLASS->transform_ip (trans, buf);
  if (ret != GST_FLOW_OK)
    return ret;
  return gst_cuda_blobs_attach (GST_CUDA_BLOBS (trans),
      gst_cuda_plane_filter_analysis_take_ready (trans, GST_CAT_DEFAULT,
          &GST_CUDA_BLOBS (trans)->analysis, buf), buf);
}

/* A frame that stayed on the device (overlap) leaves: frame_done read its
 * blobs; they go on @outbuf by attach-meta now. */
GstFlowReturn
gst_cuda_blobs_frame_left (GstCudaPlaneFilter * base, GstBuffer * outbuf)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (base);

  return gst_cuda_blobs_attach (self,
      gst_cuda_plane_filter_analysis_take_left (GST_BASE_TRANSFORM (self),
          GST_CAT_DEFAULT, &self->analysis, &self->settings.attach_meta,
          outbuf), outbuf);
}
