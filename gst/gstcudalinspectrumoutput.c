/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudalinspectrum's output property (gstcudalinspectrumprivate.h): the
 * caps of each output (the orientation map is RGBA), the passthrough flag
 * that goes with it, and an output that downstream refuses kept in favour
 * of the one in use. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudalinspectrumprivate.h"
#include "base/gstcudaplanefilternegotiation.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_lin_spectrum_debug);
#define GST_CAT_DEFAULT gst_cuda_lin_spectrum_debug

static void gst_cuda_lin_spectrum_keep_refused_output (GstCudaLinSpectrum *
    self, GstCaps * outcaps);

/* ---- caps --------------------------------------------------------------- */

/* the part of @caps in system memory with one of the formats of @templ */
static GstCaps *
caps_with_formats (GstCaps * caps, const gchar * templ)
{
  GstCaps *t = gst_caps_from_string (templ);
  GstCaps *res = gst_caps_intersect_full (caps, t, GST_CAPS_INTERSECT_FIRST);

  gst_caps_unref (t);
  return res;
}

/* @caps with every structure's format set to @formats and the fields that
 * belong to the old colour model removed */
static GstCaps *
caps_set_format (GstCaps * caps, const gchar * formats)
{
  GstCaps *fmt = gst_caps_from_string (formats);
  const GValue *format = gst_structure_get_value (gst_caps_get_structure (fmt,
          0), "format");
  GstCaps *res = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *st = gst_structure_copy (gst_caps_get_structure (caps, i));

    gst_structure_set_value (st, "format", format);
    gst_structure_remove_fields (st, "colorimetry", "chroma-site", NULL);
    res = gst_caps_merge_structure_full (res, st,
        gst_caps_features_copy (gst_caps_get_features (caps, i)));
  }
  gst_caps_unref (fmt);
  return res;
}

#define IN_CAPS \
  "video/x-raw, format = (string) " GST_CUDA_LIN_SPECTRUM_IN_FORMATS
#define RGBA_CAPS "video/x-raw, format = (string) RGBA"

/* The caps on the other pad of @direction for an output that is the
 * orientation map (@rgba: RGBA of the same size and framerate on the
 * source pad for any of the input formats) or not (the same caps), in
 * system memory. */
static GstCaps *
caps_for_output (GstCaps * caps, GstPadDirection direction, gboolean rgba)
{
  GstCaps *tmp, *res;

  if (!rgba)
    return caps_with_formats (caps, IN_CAPS);
  if (direction == GST_PAD_SINK) {
    tmp = caps_with_formats (caps, IN_CAPS);
    res = caps_set_format (tmp, RGBA_CAPS);
  } else {
    tmp = caps_with_formats (caps, RGBA_CAPS);
    res = caps_set_format (tmp, IN_CAPS);
  }
  gst_caps_unref (tmp);
  return res;
}

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

/* The caps of the output the property asks for, and while an output
 * change waits for its renegotiation, those of the output negotiated now
 * after them: a downstream that refuses the new caps gets the old ones,
 * and fixate_caps keeps the old output with a warning. */
GstCaps *
gst_cuda_lin_spectrum_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCudaLinSpectrum *self = GST_CUDA_LIN_SPECTRUM (trans);
  GstCudaLinSpectrumOutput output;
  GstCaps *res, *in = caps;
  gboolean want_rgba, have_caps, cur_rgba, allow;

  GST_OBJECT_LOCK (self);
  output = self->settings.output;
  GST_OBJECT_UNLOCK (self);
  want_rgba = output == GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION;
  cur_rgba = gst_cuda_lin_spectrum_current_rgba (self, &have_caps);
  /* one answer for the whole query: a start or stop may change it */
  allow = gst_cuda_plane_filter_allow_cuda_memory
      (GST_CUDA_PLANE_FILTER (self));

  /* formats in system memory here, the memories are the base class's */
  caps = gst_cuda_plane_filter_caps_to_system (in, allow);
  res = caps_for_output (caps, direction, want_rgba);
  if (have_caps && cur_rgba != want_rgba)
    res = gst_caps_merge (res, caps_for_output (caps, direction, cur_rgba));
  gst_caps_unref (caps);
  res = gst_cuda_plane_filter_caps_add_memory (res, in, allow);
  return gst_cuda_plane_filter_negotiation_filter_caps (trans, GST_CAT_DEFAULT,
      direction, in, res, filter);
}

/* The memory of the other pad when the peer takes it; size, framerate
 * and pixel aspect ratio follow the other pad (they are equal on both
 * pads); the format is the first one left. */
GstCaps *
gst_cuda_lin_spectrum_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  const GstStructure *from = gst_caps_get_structure (caps, 0);
  GstStructure *to;
  gint v, n, d;

  othercaps = gst_cuda_plane_filter_fixate_memory
      (GST_CUDA_PLANE_FILTER (trans), othercaps, caps);
  othercaps = gst_caps_truncate (othercaps);
  othercaps = gst_caps_make_writable (othercaps);
  to = gst_caps_get_structure (othercaps, 0);

  if (gst_structure_get_int (from, "width", &v))
    gst_structure_fixate_field_nearest_int (to, "width", v);
  if (gst_structure_get_int (from, "height", &v))
    gst_structure_fixate_field_nearest_int (to, "height", v);
  if (gst_structure_get_fraction (from, "framerate", &n, &d))
    gst_structure_fixate_field_nearest_fraction (to, "framerate", n, d);
  if (gst_structure_get_fraction (from, "pixel-aspect-ratio", &n, &d))
    gst_structure_fixate_field_nearest_fraction (to, "pixel-aspect-ratio", n,
        d);

  othercaps = gst_caps_fixate (othercaps);
  GST_DEBUG_OBJECT (trans, "fixated to %" GST_PTR_FORMAT, othercaps);
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
  if (self->output_applied == GST_CUDA_LIN_SPECTRUM_OUTPUT_SUPREMUM)
    return GST_CUDA_LIN_SPECTRUM_OUTPUT_SUPREMUM;
  return GST_CUDA_LIN_SPECTRUM_OUTPUT_PASSTHROUGH;
}

/* Sets the passthrough flag and, when it changes, asks for the source pad
 * to be reconfigured: GstBaseTransform decides its output pool (none in
 * passthrough) only when it negotiates, and a flag changed after that
 * decision would leave the element transforming without a pool. */
void
gst_cuda_lin_spectrum_set_passthrough (GstCudaLinSpectrum * self,
    gboolean passthrough)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);

  if (gst_base_transform_is_passthrough (trans) == passthrough)
    return;
  GST_DEBUG_OBJECT (self, "passthrough %s", passthrough ? "on" : "off");
  gst_base_transform_set_passthrough (trans, passthrough);
  gst_base_transform_reconfigure_src (trans);
}

/* Streaming thread, before a buffer is allocated: takes the output
 * property and sets the passthrough flag that goes with it. Doing it here
 * rather than in set_property keeps the flag, the buffer allocation and
 * the mode of one buffer consistent. */
static void
gst_cuda_lin_spectrum_apply_output (GstCudaLinSpectrum * self)
{
  GstCudaLinSpectrumOutput mode;

  GST_OBJECT_LOCK (self);
  self->output_applied = self->settings.output;
  GST_OBJECT_UNLOCK (self);
  if (self->output_applied != GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION)
    self->plain_output = self->output_applied;

  mode = gst_cuda_lin_spectrum_mode (self);
  gst_cuda_lin_spectrum_set_passthrough (self,
      mode == GST_CUDA_LIN_SPECTRUM_OUTPUT_PASSTHROUGH);
  if (mode != self->mode)
    gst_cuda_plane_filter_mark_dirty (GST_CUDA_PLANE_FILTER (self));
}

void
gst_cuda_lin_spectrum_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  gst_cuda_plane_filter_before_transform (trans, buffer);
  gst_cuda_lin_spectrum_apply_output (GST_CUDA_LIN_SPECTRUM (trans));
}

/* Negotiation fixated @outcaps: when they are not those of the output
 * property (downstream refused them and took those of the output in use,
 * which transform_caps offers after them), the output in use stays, the
 * property says so again, and the application is warned. Runs whether or
 * not the caps changed (GstBaseTransform skips set_caps for equal caps),
 * before the output pool is decided. */
static void
gst_cuda_lin_spectrum_keep_refused_output (GstCudaLinSpectrum * self,
    GstCaps * outcaps)
{
  GEnumClass *klass;
  GstCudaLinSpectrumOutput asked, kept;
  GstVideoInfo info;
  gboolean rgba;

  if (!gst_caps_is_fixed (outcaps) ||
      !gst_video_info_from_caps (&info, outcaps))
    return;
  rgba = GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_RGBA;

  GST_OBJECT_LOCK (self);
  asked = self->settings.output;
  if ((asked == GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION) == rgba) {
    GST_OBJECT_UNLOCK (self);
    return;
  }
  kept = rgba ? GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION : self->plain_output;
  self->settings.output = kept;
  GST_OBJECT_UNLOCK (self);

  klass = g_type_class_ref (GST_TYPE_CUDA_LIN_SPECTRUM_OUTPUT);
  GST_ELEMENT_WARNING (self, CORE, NEGOTIATION,
      ("Downstream refuses the frames of output=%s; keeping output=%s",
          g_enum_get_value (klass, asked)->value_nick,
          g_enum_get_value (klass, kept)->value_nick),
      ("negotiated %" GST_PTR_FORMAT, outcaps));
  g_type_class_unref (klass);
  g_object_notify (G_OBJECT (self), "output");
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
