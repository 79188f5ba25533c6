/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudalinspectrum's output (gstcudalinspectrumprivate.h): the output
 * property (caps, passthrough, a refused output kept), and a frame's result
 * as the message and the output buffer's metas. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudalinspectrumprivate.h"
#include "gstcudalinspectrummeta.h"
#include "base/gstcudaplanefilteranalysis.h"
#include "base/gstcudaplanefilternegotiation.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_lin_spectrum_debug);
#define GST_CAT_DEFAULT gst_cuda_lin_spectrum_debug

static void gst_cuda_lin_spectrum_keep_refused_output (GstCudaLinSpectrum *
    self, GstCaps * outcaps);

/* ---- caps --------------------------------------------------------------- */

#define IN_CAPS \
  "video/x-raw, format = (string) " GST_CUDA_LIN_SPECTRUM_IN_FORMATS
#define RGBA_CAPS "video/x-raw, format = (string) RGBA"

/* Whether the caps negotiated on the source pad are RGBA; FALSE with
 * *have_caps FALSE before the first negotiation. */
static gboolean
gst_cuda_lin_spectrum_current_rgba (GstCudaLinSpectrum * self,
    gboolean * have_caps)
{
  GstCaps *cur = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SRC_PAD (self));
  GstVideoInfo info;
  gboolean rgba = FALSE;

  *have_caps = cur != NULL;
  if (cur != NULL && gst_video_info_from_caps (&info, cur))
    rgba = GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_RGBA;
  gst_clear_caps (&cur);
  return rgba;
}

/* The base's caps for the orientation map or the input's format */
GstCaps *
gst_cuda_lin_spectrum_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCudaLinSpectrum *self = GST_CUDA_LIN_SPECTRUM (trans);
  GstCudaPlaneFilterAnalysisCaps a = { IN_CAPS, RGBA_CAPS };
  GstCudaLinSpectrumOutput output;

  GST_OBJECT_LOCK (self);
  output = self->settings.output;
  GST_OBJECT_UNLOCK (self);
  a.want = output == GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION;
  a.current = gst_cuda_lin_spectrum_current_rgba (self, &a.have_caps);
  /* one answer for the whole query: a start or stop may change it */
  a.allow = gst_cuda_plane_filter_allow_cuda_memory
      (GST_CUDA_PLANE_FILTER (self));
  return gst_cuda_plane_filter_analysis_transform_caps (trans,
      GST_CAT_DEFAULT, &a, direction, caps, filter);
}

/* The base's fixation (size and the like are equal on both pads); the
 * output property follows what downstream took. */
GstCaps *
gst_cuda_lin_spectrum_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  othercaps = gst_cuda_plane_filter_analysis_fixate_caps (trans,
      GST_CAT_DEFAULT, caps, othercaps);
  if (direction == GST_PAD_SINK)
    gst_cuda_lin_spectrum_keep_refused_output (GST_CUDA_LIN_SPECTRUM (trans),
        othercaps);
  return othercaps;
}

/* ---- output mode -------------------------------------------------------- */

/* The frames' mode for the applied output and the negotiated caps: an
 * RGBA output is the orientation map whatever the property says (a
 * renegotiation is pending), and output=orientation on same caps leaves
 * the frames unchanged until it is renegotiated. */
GstCudaLinSpectrumOutput
gst_cuda_lin_spectrum_mode (GstCudaLinSpectrum * self)
{
  if (self->rgba_caps)
    return GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION;
  if (self->analysis.output_applied == GST_CUDA_LIN_SPECTRUM_OUTPUT_SUPREMUM)
    return GST_CUDA_LIN_SPECTRUM_OUTPUT_SUPREMUM;
  return GST_CUDA_LIN_SPECTRUM_OUTPUT_PASSTHROUGH;
}

/* Streaming thread, before a buffer is allocated: takes the output
 * property and sets the passthrough flag that goes with it. Doing it here
 * rather than in set_property keeps the flag, the buffer allocation and
 * the mode of one buffer consistent. */
static void
gst_cuda_lin_spectrum_apply_output (GstCudaLinSpectrum * self)
{
  gst_cuda_plane_filter_analysis_take_output (GST_BASE_TRANSFORM (self),
      &self->analysis, (const gint *) & self->settings.output,
      GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION);
  gst_cuda_plane_filter_analysis_apply_mode (GST_BASE_TRANSFORM (self),
      GST_CAT_DEFAULT, gst_cuda_lin_spectrum_mode (self), self->mode,
      GST_CUDA_LIN_SPECTRUM_OUTPUT_PASSTHROUGH);
}

void
gst_cuda_lin_spectrum_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  gst_cuda_plane_filter_before_transform (trans, buffer);
  gst_cuda_lin_spectrum_apply_output (GST_CUDA_LIN_SPECTRUM (trans));
}

/* Negotiation fixated @outcaps: the output in use stays when downstream
 * refused the property's. Runs whether or not the caps changed
 * (GstBaseTransform skips set_caps for equal caps), before the output
 * pool is decided. */
static void
gst_cuda_lin_spectrum_keep_refused_output (GstCudaLinSpectrum * self,
    GstCaps * outcaps)
{
  GstVideoInfo info;
  gboolean rgba;

  if (!gst_caps_is_fixed (outcaps) ||
      !gst_video_info_from_caps (&info, outcaps))
    return;
  rgba = GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_RGBA;

  if (gst_cuda_plane_filter_analysis_keep_output (GST_BASE_TRANSFORM (self),
          &self->analysis, (gint *) & self->settings.output,
          GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION, rgba,
          GST_TYPE_CUDA_LIN_SPECTRUM_OUTPUT, outcaps))
    gst_cuda_lin_spectrum_apply_output (self);
}

gboolean
gst_cuda_lin_spectrum_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaLinSpectrum *self = GST_CUDA_LIN_SPECTRUM (trans);
  GstVideoInfo out_info;

  if (!gst_video_info_from_caps (&out_info, outcaps))
    return FALSE;
  self->rgba_caps = GST_VIDEO_INFO_FORMAT (&out_info) ==
      GST_VIDEO_FORMAT_RGBA;
  /* before the allocation that follows set_caps */
  gst_cuda_lin_spectrum_apply_output (self);

  return GST_BASE_TRANSFORM_CLASS (g_type_class_peek
      (GST_TYPE_CUDA_PLANE_FILTER))->set_caps (trans, incaps,
      outcaps);
}

/* ---- a frame's result ---- */

/**
 * gst_cuda_lin_spectrum_result_init:
 * @r: a cleared result
 * @desc: the orientations, length and operation (checked)
 * @n_angles: the number of orientations of @desc
 *
 * Allocates what every frame of @desc fills (when the filter is made: nothing is
 * allocated per frame but the metas) and computes the angles.
 *
 * Returns: %FALSE when out of memory
 */
gboolean
gst_cuda_lin_spectrum_result_init (GstCudaLinSpectrumResult * r,
    const cm_linspectrum_desc * desc, gint n_angles)
{
  gdouble *angles;
  gint i;

  gst_cuda_lin_spectrum_result_clear (r);
  angles = g_try_new (gdouble, n_angles);
  r->spectrum = g_try_new0 (gdouble, n_angles);
  if (angles == NULL || r->spectrum == NULL) {
    g_free (angles);
    gst_cuda_lin_spectrum_result_clear (r);
    return FALSE;
  }
  for (i = 0; i < n_angles; i++)
    angles[i] = cm_linspectrum_angle (desc, i);
  r->angles_bytes = g_bytes_new_take (angles, n_angles * sizeof (gdouble));
  r->angles = angles;
  r->n_angles = n_angles;
  r->length = (guint) desc->length;
  r->closing = desc->op == CM_MORPH_CLOSE;
  return TRUE;
}

void
gst_cuda_lin_spectrum_result_clear (GstCudaLinSpectrumResult * r)
{
  g_clear_pointer (&r->angles_bytes, g_bytes_unref);
  g_clear_pointer (&r->spectrum, g_free);
  memset (r, 0, sizeof (*r));
}

/**
 * gst_cuda_lin_spectrum_result_set:
 * @r: a result made for @desc
 * @desc: the frame's orientations
 * @sums: the sums over the frame, one per orientation
 * @npix: the pixels of the frame (the sums are given as means)
 *
 * The frame's spectrum and dominant orientation.
 */
void
gst_cuda_lin_spectrum_result_set (GstCudaLinSpectrumResult * r,
    const cm_linspectrum_desc * desc, const guint64 * sums, gdouble npix)
{
  gdouble angle = 0.0, value = 0.0;
  gint i;

  cm_linspectrum_dominant (desc, sums, r->n_angles, &angle, &value);
  for (i = 0; i < r->n_angles; i++)
    r->spectrum[i] = (gdouble) sums[i] / npix;
  r->dominant_angle = angle;
  r->dominant_value = value / npix;
}

static void
result_set_params (GstStructure * s, const GstCudaLinSpectrumResult * r)
{
  gst_structure_set (s, "length", G_TYPE_UINT, r->length,
      "operation", G_TYPE_STRING, r->closing ? "close" : "open", NULL);
}

static void
result_set_dominant (GstStructure * s, const GstCudaLinSpectrumResult * r)
{
  gst_structure_set (s, "dominant-angle", G_TYPE_DOUBLE, r->dominant_angle,
      "dominant-value", G_TYPE_DOUBLE, r->dominant_value, NULL);
}

/**
 * gst_cuda_lin_spectrum_result_message:
 * @r: the frame's result
 * @segment: the element's input segment
 * @inbuf: the input buffer (its timestamps)
 *
 * Returns: (transfer full): the "cudalinspectrum" structure: timestamp,
 * stream-time, running-time, duration, length, operation, angles,
 * spectrum, dominant-angle, dominant-value
 */
GstStructure *
gst_cuda_lin_spectrum_result_message (const GstCudaLinSpectrumResult * r,
    const GstSegment * segment, GstBuffer * inbuf)
{
  GstStructure *s = gst_structure_new_empty ("cudalinspectrum");

  gst_cuda_plane_filter_analysis_set_times (s, segment, inbuf);
  result_set_params (s, r);
  gst_cuda_plane_filter_analysis_take_array (s, "angles", G_TYPE_DOUBLE,
      r->angles, (guint) r->n_angles);
  gst_cuda_plane_filter_analysis_take_array (s, "spectrum", G_TYPE_DOUBLE,
      r->spectrum, (guint) r->n_angles);
  result_set_dominant (s, r);
  return s;
}

#ifdef HAVE_GST_ANALYTICS
static gboolean
result_add_mtd (const GstCudaLinSpectrumResult * r, GstBuffer * buf)
{
  GstAnalyticsRelationMeta *rmeta;
  GstCudaLinSpectrumMtdData *d;
  GstAnalyticsMtd mtd;
  gsize n = (gsize) r->n_angles;

  /* one relation meta per buffer: upstream's, or a new one with room for
   * this entry */
  rmeta = gst_buffer_get_analytics_relation_meta (buf);
  if (rmeta == NULL) {
    GstAnalyticsRelationMetaInitParams params = { 4,
      sizeof (GstCudaLinSpectrumMtdData) + 2 * n * sizeof (gdouble) + 64
    };

    rmeta = gst_buffer_add_analytics_relation_meta_full (buf, &params);
  }
  if (rmeta == NULL ||
      !gst_cuda_lin_spectrum_mtd_add (rmeta, r->n_angles, &mtd, &d))
    return FALSE;
  d->dominant_angle = r->dominant_angle;
  d->dominant_value = r->dominant_value;
  d->length = r->length;
  d->closing = r->closing ? 1 : 0;
  memcpy (d->values, r->angles, n * sizeof (gdouble));
  memcpy (d->values + n, r->spectrum, n * sizeof (gdouble));
  return TRUE;
}
#endif

/**
 * gst_cuda_lin_spectrum_result_attach:
 * @r: the frame's result
 * @segment: the element's input segment
 * @buf: the output buffer, writable
 *
 * Adds the frame's "GstCudaLinSpectrumMeta" to @buf: the message's fields,
 * angles and spectrum as GBytes of doubles (the angles' bytes are shared
 * by every buffer of the configuration), and with GStreamer >= 1.24 the
 * "cudalinspectrum-spectrum" analytics entry.
 *
 * Returns: %FALSE when a meta could not be added
 */
gboolean
gst_cuda_lin_spectrum_result_attach (const GstCudaLinSpectrumResult * r,
    const GstSegment * segment, GstBuffer * buf)
{
  GstStructure *s = gst_cuda_lin_spectrum_meta_add (buf);
  GValue v = G_VALUE_INIT;

  if (s == NULL)
    return FALSE;
  gst_cuda_plane_filter_analysis_set_times (s, segment, buf);
  result_set_params (s, r);
  gst_structure_set (s, "angles", G_TYPE_BYTES, r->angles_bytes, NULL);
  g_value_init (&v, G_TYPE_BYTES);
  g_value_take_boxed (&v, g_bytes_new (r->spectrum,
          (gsize) r->n_angles * sizeof (gdouble)));
  gst_structure_take_value (s, "spectrum", &v);
  result_set_dominant (s, r);

#ifdef HAVE_GST_ANALYTICS
  if (!result_add_mtd (r, buf))
    return FALSE;
#endif
  return TRUE;
}

/* ---- a frame's result ---------------------------------------------------- */

/* The frame's result: a message when this frame is reported, kept for
 * its output buffer when that gets it. */
GstFlowReturn
gst_cuda_lin_spectrum_frame_done (GstCudaPlaneFilter * base,
    GstBuffer * inbuf, cm_filter * filter, gint width, gint height)
{
  GstCudaLinSpectrum *self = GST_CUDA_LIN_SPECTRUM (base);
  const guint64 *spectrum;
  gboolean post;

  post = gst_cuda_plane_filter_analysis_post_frame (GST_BASE_TRANSFORM (self),
      &self->analysis, &self->settings.post_messages,
      &self->settings.interval);
  if (!post && !self->analysis.attach_frame)
    return GST_FLOW_OK;

  /* the stream was synchronised: the pinned copy is up to date */
  spectrum = filter != NULL ? cm_linspectrum_filter_spectrum (filter) : NULL;
  if (spectrum == NULL) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, (NULL),
        ("no spectrum after a frame"));
    return GST_FLOW_ERROR;
  }
  gst_cuda_lin_spectrum_result_set (&self->result, &self->desc, spectrum,
      (gdouble) width * (gdouble) height);
  return gst_cuda_plane_filter_analysis_frame_done (GST_BASE_TRANSFORM (self),
      &self->analysis, post ? gst_cuda_lin_spectrum_result_message
      (&self->result, &GST_BASE_TRANSFORM (self)->segment, inbuf) : NULL);
}

/* ---- the result on the output buffer ------------------------------------ */

/* GstCudaLinSpectrum's parent, GstCudaPlaneFilter */
#define PARENT_CLASS GST_BASE_TRANSFORM_CLASS (g_type_class_peek \
    (GST_TYPE_CUDA_PLANE_FILTER))

/* Reads attach-meta once per buffer; in passthrough a writable buffer
 * when the meta goes on it. */
GstFlowReturn
gst_cuda_lin_spectrum_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstCudaLinSpectrum *self = GST_CUDA_LIN_SPECTRUM (trans);

  return gst_cuda_plane_filter_analysis_prepare_output_buffer (trans,
      GST_CAT_DEFAULT, &self->analysis, &self->settings.attach_meta, inbuf,
      outbuf);
}

/* after the frame: its result on @buf */
static GstFlowReturn
gst_cuda_lin_spectrum_attach (GstCudaLinSpectrum * self, GstBuffer * buf)
{
  if (!gst_cuda_plane_filter_analysis_take_ready (GST_BASE_TRANSFORM (self),
          GST_CAT_DEFAULT, &self->analysis, buf))
    return GST_FLOW_OK;
  if (!gst_cuda_lin_spectrum_result_attach (&self->result,
          &GST_BASE_TRANSFORM (self)->segment, buf)) {
    GST_ELEMENT_ERROR (self, CORE, FAILED, (NULL),
        ("could not attach the result to the output buffer"));
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

GstFlowReturn
gst_cuda_lin_spectrum_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstFlowReturn ret;

  ret = PARENT_CLASS->transform (trans, inbuf,
      outbuf);
  if (ret != GST_FLOW_OK)
    return ret;
  return gst_cuda_lin_spectrum_attach (GST_CUDA_LIN_SPECTRUM (trans), outbuf);
}

GstFlowReturn
gst_cuda_lin_spectrum_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstFlowReturn ret;

  ret = PARENT_CLASS->transform_ip (trans, buf);
  if (ret != GST_FLOW_OK)
    return ret;
  return gst_cuda_lin_spectrum_attach (GST_CUDA_LIN_SPECTRUM (trans), buf);
}
