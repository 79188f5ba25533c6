/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The analysers' output (gstcudaplanefilteranalysis.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaplanefilteranalysis.h"
#include "gstcudaplanefilter.h"
#include "gstcudaplanefiltererrors.h"
#include "gstcudaplanefilternegotiation.h"
#include "gstcudaplanefiltersettings.h"

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

/* The caps on the other pad of @direction, in system memory:
 * @converted_caps of the same size and framerate on the source pad for any
 * input format when @converted, the same caps otherwise. */
static GstCaps *
output_caps (GstCaps * caps,
    GstPadDirection direction, const gchar * in_caps,
    const gchar * converted_caps, gboolean converted)
{
  GstCaps *tmp, *res;

  if (!converted)
    return caps_with_formats (caps, in_caps);
  if (direction == GST_PAD_SINK) {
    tmp = caps_with_formats (caps, in_caps);
    res = caps_set_format (tmp, converted_caps);
  } else {
    tmp = caps_with_formats (caps, converted_caps);
    res = caps_set_format (tmp, in_caps);
  }
  gst_caps_unref (tmp);
  return res;
}

/* The caps of the output the property asks for, and while an output
 * change waits for its renegotiation, those of the output negotiated now
 * after them: a downstream that refuses the new caps gets the old ones,
 * and fixate_caps keeps the old output with a warning. */
GstCaps *
gst_cuda_plane_filter_analysis_transform_caps (GstBaseTransform * trans,
    GstDebugCategory * category, const GstCudaPlaneFilterAnalysisCaps * a,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *sys, *res;

  /* formats in system memory here, the memories are the base class's */
  sys = gst_cuda_plane_filter_caps_to_system (caps, a->allow);
  res = output_caps (sys, direction, a->in_caps, a->converted_caps, a->want);
  if (a->have_caps && a->current != a->want)
    res = gst_caps_merge (res, output_caps (sys, direction, a->in_caps,
            a->converted_caps, a->current));
  gst_caps_unref (sys);
  res = gst_cuda_plane_filter_caps_add_memory (res, caps, a->allow);
  return gst_cuda_plane_filter_negotiation_filter_caps (trans, category,
      direction, caps, res, filter);
}

/* The memory of the other pad when the peer takes it; size, framerate
 * and pixel aspect ratio follow the other pad; the format is the first
 * one left. */
GstCaps *
gst_cuda_plane_filter_analysis_fixate_caps (GstBaseTransform * trans,
    GstDebugCategory * category, GstCaps * caps, GstCaps * othercaps)
{
  const GstStructure *from = gst_caps_get_structure (caps, 0);
  GstStructure *to;
  gint v, n, d;

  othercaps = gst_cuda_plane_filter_fixate_memory (othercaps, caps);
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
  GST_CAT_DEBUG_OBJECT (category, trans, "fixated to %" GST_PTR_FORMAT,
      othercaps);
  return othercaps;
}

/* The output property (@output, the settings' field) set to @value,
 * compared and set at once under the object lock: the streaming thread
 * may put back the output in use. A change (new output caps and/or
 * passthrough state) renegotiates before the next buffer; the streaming
 * thread applies the passthrough flag itself (before_transform). Returns
 * whether it changed. */
gboolean
gst_cuda_plane_filter_analysis_set_output (GstBaseTransform * trans,
    gint * output, gint value)
{
  gboolean changed;

  GST_OBJECT_LOCK (trans);
  changed = *output != value;
  *output = value;
  GST_OBJECT_UNLOCK (trans);
  if (changed)
    gst_base_transform_reconfigure_src (trans);
  return changed;
}

/* An analyser's set_property: @output_prop through set_output (a new
 * output renegotiates), the others stored as @settings' @fields. TRUE when
 * the value changed and the filters must be rebuilt before the next frame
 * (the caller marks them dirty): never for the @n_per_frame properties of
 * @per_frame, read at every frame (messages, interval, metas). */
gboolean
gst_cuda_plane_filter_analysis_set_property (GObject * object,
    gpointer settings, const GstCudaPlaneFilterField * fields, guint n_fields,
    guint output_prop, gint * output, const guint * per_frame,
    guint n_per_frame, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  if (prop_id == output_prop) {
    if (!gst_cuda_plane_filter_analysis_set_output (GST_BASE_TRANSFORM
            (object), output, g_value_get_enum (value)))
      return FALSE;
  } else if (!gst_cuda_plane_filter_settings_set (object, settings, fields,
          n_fields, prop_id, value, pspec)) {
    return FALSE;
  }
  for (guint i = 0; i < n_per_frame; i++)
    if (prop_id == per_frame[i])
      return FALSE;
  return TRUE;
}

/* Streaming thread: the output property (@output, the settings' field)
 * applied; the last one that keeps the input format (not @converted) is
 * what a refused converted output falls back to. */
void
gst_cuda_plane_filter_analysis_take_output (GstBaseTransform * trans,
    GstCudaPlaneFilterAnalysis * an, const gint * output, gint converted)
{
  GST_OBJECT_LOCK (trans);
  an->output_applied = *output;
  GST_OBJECT_UNLOCK (trans);
  if (an->output_applied != converted)
    an->plain_output = an->output_applied;
}

/* Negotiation fixated @outcaps, those of the @converted output or not
 * (@is_converted): when the output property (@output, of the GEnum
 * @output_type) asks for the other one (downstream refused its caps and
 * took those of the output in use, which transform_caps offers after
 * them), the output in use stays, the property says so again, and the
 * application is warned. Returns whether the property changed. */
gboolean
gst_cuda_plane_filter_analysis_keep_output (GstBaseTransform * trans,
    GstCudaPlaneFilterAnalysis * an, gint * output, gint converted,
    gboolean is_converted, GType output_type, GstCaps * outcaps)
{
  gint asked, kept;

  GST_OBJECT_LOCK (trans);
  asked = *output;
  if ((asked == converted) == is_converted) {
    GST_OBJECT_UNLOCK (trans);
    return FALSE;
  }
  kept = is_converted ? converted : an->plain_output;
  *output = kept;
  GST_OBJECT_UNLOCK (trans);

  gst_cuda_plane_filter_refuse_output (GST_ELEMENT (trans), output_type,
      asked, kept, outcaps);
  return TRUE;
}

/* Sets the passthrough flag and, when it changes, asks for the source pad
 * to be reconfigured: GstBaseTransform decides its output pool (none in
 * passthrough) only when it negotiates, and a flag changed after that
 * decision would leave the element transforming without a pool. */
void
gst_cuda_plane_filter_analysis_set_passthrough (GstBaseTransform * trans,
    GstDebugCategory * category, gboolean passthrough)
{
  if (gst_base_transform_is_passthrough (trans) == passthrough)
    return;
  GST_CAT_DEBUG_OBJECT (category, trans, "passthrough %s",
      passthrough ? "on" : "off");
  gst_base_transform_set_passthrough (trans, passthrough);
  gst_base_transform_reconfigure_src (trans);
}

/* instance_init: the output property's default @output applied, the
 * element in passthrough when that is @passthrough_output */
void
gst_cuda_plane_filter_analysis_init (GstBaseTransform * trans,
    GstCudaPlaneFilterAnalysis * an, gint output, gint passthrough_output)
{
  an->output_applied = output;
  an->plain_output = output;
  gst_base_transform_set_passthrough (trans, output == passthrough_output);
}

/* Streaming thread, the output applied: the frames' @mode (the element's,
 * from the output and the caps) sets the passthrough flag (on for
 * @passthrough_mode) and, when it is not @filter_mode, that of the last
 * filter made, has the filters rebuilt. */
void
gst_cuda_plane_filter_analysis_apply_mode (GstBaseTransform * trans,
    GstDebugCategory * category, gint mode, gint filter_mode,
    gint passthrough_mode)
{
  gst_cuda_plane_filter_analysis_set_passthrough (trans, category,
      mode == passthrough_mode);
  if (mode != filter_mode)
    gst_cuda_plane_filter_mark_dirty (GST_CUDA_PLANE_FILTER (trans));
}

/* ---- a frame's report ---------------------------------------------------- */

/* A filter was made for @info: another analysis (@same_analysis FALSE)
 * or other caps restart the countdown, so that the next frame is
 * reported. */
void
gst_cuda_plane_filter_analysis_filter_made (GstCudaPlaneFilterAnalysis * an,
    gboolean same_analysis, const GstVideoInfo * info)
{
  if (!an->filter_made || !same_analysis ||
      !gst_video_info_is_equal (info, &an->info_posted))
    an->frames_to_post = 0;
  an->filter_made = TRUE;
  an->info_posted = *info;
}

/* Whether this frame is reported, one in @interval; a smaller interval
 * applies at once. */
gboolean
gst_cuda_plane_filter_analysis_report (GstCudaPlaneFilterAnalysis * an,
    guint interval)
{
  if (an->frames_to_post >= interval)
    an->frames_to_post = interval - 1;
  if (an->frames_to_post > 0) {
    an->frames_to_post--;
    return FALSE;
  }
  an->frames_to_post = interval - 1;
  return TRUE;
}

/* Whether this frame's message is posted: the post-messages property
 * (@post_messages) on and, one in @interval (the property), its turn
 * (gst_cuda_plane_filter_analysis_report()); the countdown goes on
 * either way. */
gboolean
gst_cuda_plane_filter_analysis_post_frame (GstBaseTransform * trans,
    GstCudaPlaneFilterAnalysis * an, const gboolean * post_messages,
    const guint * interval)
{
  gboolean post;
  guint n;

  GST_OBJECT_LOCK (trans);
  post = *post_messages;
  n = *interval;
  GST_OBJECT_UNLOCK (trans);
  if (!gst_cuda_plane_filter_analysis_report (an, n))
    post = FALSE;
  return post;
}

/* @s's field @name: a GstValueArray of the @n values of @type at @v
 * (guint32 for G_TYPE_UINT, guint64 for G_TYPE_UINT64, else gdouble) */
void
gst_cuda_plane_filter_analysis_take_array (GstStructure * s,
    const gchar * name, GType type, gconstpointer v, guint n)
{
  GValue array = G_VALUE_INIT;
  guint i;

  /* room for the values at once: no growth per value */
  gst_value_array_init (&array, n);
  for (i = 0; i < n; i++) {
    GValue e = G_VALUE_INIT;

    g_value_init (&e, type);
    if (type == G_TYPE_UINT)
      g_value_set_uint (&e, ((const guint32 *) v)[i]);
    else if (type == G_TYPE_UINT64)
      g_value_set_uint64 (&e, ((const guint64 *) v)[i]);
    else
      g_value_set_double (&e, ((const gdouble *) v)[i]);
    gst_value_array_append_and_take_value (&array, &e);
  }
  gst_structure_take_value (s, name, &array);
}

/* The end of a frame's work: @message (nullable: not this frame's turn)
 * posted as the element's, and the result attached to the buffer that
 * leaves when that gets it. */
GstFlowReturn
gst_cuda_plane_filter_analysis_frame_done (GstBaseTransform * trans,
    GstCudaPlaneFilterAnalysis * an, GstStructure * message)
{
  if (message != NULL)
    gst_element_post_message (GST_ELEMENT (trans),
        gst_message_new_element (GST_OBJECT (trans), message));
  /* attached once the frame is done, to the buffer that leaves */
  an->result_ready = an->attach_frame;
  return GST_FLOW_OK;
}

/* timestamp, stream-time, running-time, duration of @buf, as the level
 * element gives them */
void
gst_cuda_plane_filter_analysis_set_times (GstStructure * s,
    const GstSegment * segment, GstBuffer * buf)
{
  GstClockTime ts = GST_BUFFER_PTS (buf);
  GstClockTime stream_time = GST_CLOCK_TIME_NONE;
  GstClockTime running_time = GST_CLOCK_TIME_NONE;

  if (GST_CLOCK_TIME_IS_VALID (ts) && segment->format == GST_FORMAT_TIME) {
    stream_time = gst_segment_to_stream_time (segment, GST_FORMAT_TIME, ts);
    running_time = gst_segment_to_running_time (segment, GST_FORMAT_TIME,
        ts);
  }
  gst_structure_set (s, "timestamp", G_TYPE_UINT64, ts,
      "stream-time", G_TYPE_UINT64, stream_time,
      "running-time", G_TYPE_UINT64, running_time,
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (buf), NULL);
}

/* ---- the result on the output buffer ------------------------------------ */

/* prepare_output_buffer: reads the attach-meta property (@attach_meta)
 * once per buffer. In passthrough GstBaseTransform pushes the input buffer
 * and transform_ip only looks at it; a meta needs a writable buffer, so
 * one that someone else also holds (a tee, an application) is replaced by
 * a copy that shares its memory and metas (gst_buffer_copy: no pixel is
 * copied). GstBaseTransform drops its reference to the input when the
 * output is another buffer. Otherwise the base class's buffer. */
GstFlowReturn
gst_cuda_plane_filter_analysis_prepare_output_buffer (GstBaseTransform *
    trans, GstDebugCategory * category, GstCudaPlaneFilterAnalysis * an,
    const gboolean * attach_meta, GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GST_OBJECT_LOCK (trans);
  an->attach_frame = *attach_meta;
  GST_OBJECT_UNLOCK (trans);
  an->result_ready = FALSE;

  if (!an->attach_frame || !gst_base_transform_is_passthrough (trans))
    return GST_BASE_TRANSFORM_CLASS (g_type_class_peek
        (GST_TYPE_CUDA_PLANE_FILTER))->prepare_output_buffer (trans, inbuf,
        outbuf);
  if (gst_buffer_is_writable (inbuf)) {
    *outbuf = inbuf;
  } else {
    GST_CAT_LOG_OBJECT (category, trans, "input buffer not writable: "
        "pushing a copy that shares its memory");
    *outbuf = gst_buffer_copy (inbuf);
  }
  return GST_FLOW_OK;
}

/* @wanted, and @buf writable to carry the result */
static gboolean
result_goes_on (GstBaseTransform * trans, GstDebugCategory * category,
    gboolean wanted, GstBuffer * buf)
{
  if (!wanted)
    return FALSE;
  if (!gst_buffer_is_writable (buf)) {
    GST_CAT_DEBUG_OBJECT (category, trans,
        "output buffer not writable: no meta on it");
    return FALSE;
  }
  return TRUE;
}

/* A frame that stayed on the device (overlap) leaves with its result,
 * read after the next frame's prepare_output_buffer: whether the result
 * goes on @buf, by attach-meta now (@attach_meta, object lock) and @buf
 * writable. */
gboolean
gst_cuda_plane_filter_analysis_take_left (GstBaseTransform * trans,
    GstDebugCategory * category, GstCudaPlaneFilterAnalysis * an,
    const gboolean * attach_meta, GstBuffer * buf)
{
  gboolean attach;

  an->result_ready = FALSE;
  GST_OBJECT_LOCK (trans);
  attach = *attach_meta;
  GST_OBJECT_UNLOCK (trans);
  return result_goes_on (trans, category, attach, buf);
}

/* After the frame: whether its result (ready, then no longer) goes on @buf.
 * Passthrough switched on or off between the buffer's allocation and its
 * transform leaves the input itself, held elsewhere (rare): no meta. */
gboolean
gst_cuda_plane_filter_analysis_take_ready (GstBaseTransform * trans,
    GstDebugCategory * category, GstCudaPlaneFilterAnalysis * an,
    GstBuffer * buf)
{
  gboolean was_ready = an->result_ready;

  an->result_ready = FALSE;
  return result_goes_on (trans, category, was_ready, buf);
}
