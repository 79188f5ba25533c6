/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-cudalinspectrum
 * @title: cudalinspectrum
 * @short_description: Linear openings in many orientations: angular
 *     spectrum, dominant orientation, supremum and orientation images
 *
 * cudalinspectrum filters every frame with openings (or closings) by line
 * segments of #GstCudaLinSpectrum:length pixels at every orientation
 * alpha = #GstCudaLinSpectrum:angle-min + i * #GstCudaLinSpectrum:angle-step
 * below #GstCudaLinSpectrum:angle-max (degrees, counter-clockwise from the
 * +x axis, image y pointing down), after Karas et al. (paper 000: GPU
 * linear openings at arbitrary angle, eqs. 3 and 6). The segments are the
 * length consecutive pixels of the digital scan line of each orientation
 * through a pixel, cut at the frame border; docs/design.md and
 * cuda/linspectrum/linspectrum.h define them exactly.
 *
 * An opening by a line keeps the bright structures that contain a segment
 * of that orientation and length: the sum sigma (alpha) of the opened
 * image, the angular spectrum, is largest at the orientation of bright
 * lines, ridges or texture. #GstCudaLinSpectrum:operation = close does the
 * same for dark structures: the spectrum of closings is smallest at the
 * orientation of dark lines, such as the text lines of a scanned page
 * (its skew) or cracks.
 *
 * Every frame (or every #GstCudaLinSpectrum:interval frames) the element
 * posts an element message (when #GstCudaLinSpectrum:post-messages is
 * %TRUE) with the spectrum and its dominant orientation, attaches the same
 * result to every output buffer (when #GstCudaLinSpectrum:attach-meta is
 * %TRUE; see "Metadata" below), and pushes, as
 * #GstCudaLinSpectrum:output says:
 *
 * * passthrough (default): the frame unchanged (an analyser);
 * * supremum: the frame with its luma (GRAY: its only plane) replaced by
 *   the largest opening over all orientations (for closings: the smallest
 *   closing), chroma copied;
 * * orientation: an RGBA frame of the same size: hue = twice the
 *   orientation of the winning line (so 0 and 180 degrees meet: red is
 *   horizontal, green 60 degrees, blue 120 degrees), brightness = its
 *   strength (the supremum, or for closings how dark the infimum is),
 *   full saturation, alpha 255. The colours are integer arithmetic
 *   (cuda/linspectrum/orientation-rgba.h), identical on both backends.
 *
 * Input formats are GRAY8, GRAY16_LE and the luma plane of I420, NV12 and
 * Y444. Changing #GstCudaLinSpectrum:output while PLAYING renegotiates the
 * output caps; every other property is applied from the next frame on.
 * The CUDA backend computes every orientation in one kernel launch and
 * reduces the spectrum on the device; the CPU backend is the reference
 * implementation, and both give the same numbers bit for bit.
 *
 * ## Messages
 *
 * The element message is a #GstStructure named "cudalinspectrum":
 *
 * * `timestamp` (G_TYPE_UINT64): the buffer's PTS, GST_CLOCK_TIME_NONE
 *   when unknown (likewise for the next three)
 * * `stream-time` (G_TYPE_UINT64): the stream time of the PTS
 * * `running-time` (G_TYPE_UINT64): the running time of the PTS
 * * `duration` (G_TYPE_UINT64): the buffer's duration
 * * `length` (G_TYPE_UINT): the segment length in pixels
 * * `operation` (G_TYPE_STRING): "open" or "close"
 * * `angles` (GstValueArray of G_TYPE_DOUBLE): the orientations alpha_i
 *   in degrees
 * * `spectrum` (GstValueArray of G_TYPE_DOUBLE): sigma (alpha_i) divided
 *   by the number of pixels, i.e. the mean of the opened (closed) image,
 *   in sample units (0 .. 255, or 0 .. 65535 for GRAY16_LE)
 * * `dominant-angle` (G_TYPE_DOUBLE): the orientation of the largest
 *   spectrum value (smallest for closings), refined below the step by a
 *   parabola through its neighbours (wrapping around when the angles
 *   cover 180 degrees), in degrees
 * * `dominant-value` (G_TYPE_DOUBLE): the spectrum at that orientation,
 *   normalised like `spectrum`
 *
 * The spectrum is the one of the frame the message is posted for.
 *
 * ## Metadata
 *
 * Each output buffer carries its frame's result, whatever the interval,
 * so that an application that takes frames from an appsink needs no
 * matching of messages to frames:
 *
 * * a custom meta named "GstCudaLinSpectrumMeta"
 *   (gst_buffer_get_custom_meta (), gst_custom_meta_get_structure ()):
 *   a structure of that name with the message's fields, except `angles`
 *   and `spectrum`, which are G_TYPE_BYTES: the values as doubles in the
 *   machine's byte order (PyGObject reads a GBytes without GStreamer's
 *   Python overrides, a GstValueArray it cannot);
 * * from GStreamer 1.24 (built with gstreamer-analytics-1.0), an entry of
 *   the buffer's #GstAnalyticsRelationMeta whose type is named
 *   "cudalinspectrum-spectrum": the dominant angle and value, length,
 *   operation, angles and spectrum, read with the inline functions of
 *   gstcudalinspectrummeta.h.
 *
 * In passthrough the buffer pushed is the input buffer when it is
 * writable, otherwise a copy that shares its memory (no pixel is copied);
 * a meta cannot be added to a buffer someone else holds.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=3 pattern=zone-plate \
 *     kx2=20 ky2=20 ! video/x-raw,format=GRAY8,width=320,height=240 ! \
 *     cudalinspectrum length=21 angle-step=5 ! fakesink
 * ]| Prints the spectrum of 36 orientations of three frames.
 * |[
 * gst-launch-1.0 -m filesrc location=page.png ! pngdec ! videoconvert ! \
 *     video/x-raw,format=GRAY8 ! imagefreeze num-buffers=1 ! \
 *     cudalinspectrum operation=close length=250 angle-min=-10 \
 *     angle-max=10 angle-step=0.25 ! fakesink
 * ]| The skew of a scanned page: dominant-angle of the closings by lines
 * longer than a word, every quarter degree between -10 and 10.
 * |[
 * gst-launch-1.0 videotestsrc pattern=zone-plate kx2=20 ky2=20 ! \
 *     video/x-raw,format=I420,width=640,height=480 ! \
 *     cudalinspectrum output=orientation length=15 angle-step=7.5 \
 *     post-messages=false ! videoconvert ! autovideosink
 * ]| Shows the orientation map in colour.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "gstcudalinspectrumprivate.h"
#include "gstcudalinspectrummeta.h"
#include "base/gstcudaplanefilteranalysis.h"
#include "base/gstcudaplanefiltererrors.h"

/* shared with gstcudalinspectrumoutput.c */
GST_DEBUG_CATEGORY (gst_cuda_lin_spectrum_debug);
#define GST_CAT_DEFAULT gst_cuda_lin_spectrum_debug

#define DEFAULT_LENGTH 41
#define DEFAULT_ANGLE_MIN 0.0
#define DEFAULT_ANGLE_MAX 180.0
#define DEFAULT_ANGLE_STEP 1.0
#define DEFAULT_OPERATION GST_CUDA_LIN_SPECTRUM_OPERATION_OPEN
#define DEFAULT_OUTPUT GST_CUDA_LIN_SPECTRUM_OUTPUT_PASSTHROUGH
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_INTERVAL 1
#define DEFAULT_ATTACH_META TRUE

/* range of angle-min and angle-max: orientations repeat every 180 degrees */
#define ANGLE_LIMIT 360.0


enum
{
  PROP_0,
  PROP_LENGTH,
  PROP_ANGLE_MIN,
  PROP_ANGLE_MAX,
  PROP_ANGLE_STEP,
  PROP_OPERATION,
  PROP_OUTPUT,
  PROP_POST_MESSAGES,
  PROP_INTERVAL,
  PROP_ATTACH_META,
};

G_DEFINE_TYPE_WITH_CODE (GstCudaLinSpectrum, gst_cuda_lin_spectrum,
    GST_TYPE_CUDA_PLANE_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_lin_spectrum_debug, "cudalinspectrum",
        0, "CUDA linear openings in many orientations"));

GST_ELEMENT_REGISTER_DEFINE (cudalinspectrum, "cudalinspectrum",
    GST_RANK_NONE, GST_TYPE_CUDA_LIN_SPECTRUM);

static void gst_cuda_lin_spectrum_set_property (GObject * object,
    guint prop_id, const GValue * value, GParamSpec * pspec);
static void gst_cuda_lin_spectrum_get_property (GObject * object,
    guint prop_id, GValue * value, GParamSpec * pspec);
static gboolean gst_cuda_lin_spectrum_start (GstBaseTransform * trans);

static void gst_cuda_lin_spectrum_finalize (GObject * object);
static cm_filter *gst_cuda_lin_spectrum_make_filter (GstCudaPlaneFilter *
    base, const GstVideoInfo * info, cm_backend backend);

#define PARAM_FLAGS GST_CUDA_PLANE_FILTER_PARAM_FLAGS
#define CONTROLLABLE_FLAGS GST_CUDA_PLANE_FILTER_CONTROLLABLE_FLAGS

static void
gst_cuda_lin_spectrum_class_init (GstCudaLinSpectrumClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaPlaneFilterClass *base_class =
      GST_CUDA_PLANE_FILTER_CLASS (klass);
  GstCaps *caps;

  gobject_class->set_property = gst_cuda_lin_spectrum_set_property;
  gobject_class->get_property = gst_cuda_lin_spectrum_get_property;
  gobject_class->finalize = gst_cuda_lin_spectrum_finalize;

  g_object_class_install_property (gobject_class, PROP_LENGTH,
      g_param_spec_uint ("length", "Length",
          "Length in pixels of the line segments: structures shorter than "
          "this in an orientation are removed by the opening (closing) in "
          "that orientation",
          1, CM_LINSPECTRUM_MAX_LENGTH, DEFAULT_LENGTH, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_ANGLE_MIN,
      g_param_spec_double ("angle-min", "Minimum angle",
          "First orientation in degrees (counter-clockwise from the +x "
          "axis, 0 = horizontal, 90 = vertical). The three angle "
          "properties are checked together at the next frame, whatever the "
          "order they are set in: a combination with angle-max <= "
          "angle-min or more than 4096 orientations keeps the orientations "
          "in use, with a warning on the bus (an error when the element "
          "starts with it)",
          -ANGLE_LIMIT, ANGLE_LIMIT, DEFAULT_ANGLE_MIN, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_ANGLE_MAX,
      g_param_spec_double ("angle-max", "Maximum angle",
          "End of the orientations in degrees, exclusive: the orientations "
          "are angle-min + i * angle-step below angle-max (0 to 180 by 1 "
          "gives 180 orientations, 180 itself being 0 again). Must be "
          "larger than angle-min",
          -ANGLE_LIMIT, ANGLE_LIMIT, DEFAULT_ANGLE_MAX, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_ANGLE_STEP,
      g_param_spec_double ("angle-step", "Angle step",
          "Degrees between orientations, > 0; sub-degree steps such as 0.25 "
          "work. At most 4096 orientations",
          0.0, ANGLE_LIMIT, DEFAULT_ANGLE_STEP, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_OPERATION,
      g_param_spec_enum ("operation", "Operation",
          "open = openings by lines, bright linear structures (spectrum "
          "largest along them); close = closings by lines, dark linear "
          "structures such as text lines and cracks (spectrum smallest "
          "along them)",
          GST_TYPE_CUDA_LIN_SPECTRUM_OPERATION, DEFAULT_OPERATION,
          CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "What is pushed downstream: passthrough = the frames unchanged "
          "(results in messages only); supremum = luma replaced by the "
          "largest opening over all orientations (smallest closing), "
          "chroma copied; orientation = an RGBA picture of the winning "
          "orientation (hue) and its strength (brightness). A change while "
          "PLAYING renegotiates the caps",
          GST_TYPE_CUDA_LIN_SPECTRUM_OUTPUT, DEFAULT_OUTPUT, PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post an element message named \"cudalinspectrum\" with the "
          "angles, the normalised spectrum and the dominant angle and "
          "value (every interval frames)",
          DEFAULT_POST_MESSAGES, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_INTERVAL,
      g_param_spec_uint ("interval", "Interval",
          "Post a message for one frame in every interval frames: the "
          "first frame after the start, a caps change or a change of the "
          "analysis properties, then every interval-th frame; the message "
          "carries the spectrum of that frame",
          1, G_MAXUINT, DEFAULT_INTERVAL, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_ATTACH_META,
      g_param_spec_boolean ("attach-meta", "Attach meta",
          "Attach every frame's result (the message's fields) to its output "
          "buffer: a custom meta named \"GstCudaLinSpectrumMeta\" and, "
          "with GStreamer 1.24 or later, a \"cudalinspectrum-spectrum\" "
          "entry of the analytics relation meta. In passthrough an input "
          "buffer held elsewhere is pushed as a copy sharing its memory",
          DEFAULT_ATTACH_META, PARAM_FLAGS));

  /* replace the base class's templates: no RGB input, RGBA output */
  caps = gst_cuda_plane_filter_template_caps
      (GST_CUDA_LIN_SPECTRUM_IN_FORMATS);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
  caps = gst_cuda_plane_filter_template_caps
      (GST_CUDA_LIN_SPECTRUM_OUT_FORMATS);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  gst_element_class_set_static_metadata (element_class,
      "CUDA linear spectrum", "Filter/Analyzer/Video",
      "Openings or closings by line segments in many orientations: angular "
      "spectrum and dominant orientation in messages, supremum or "
      "orientation images, on CUDA or the CPU",
      "gst-cuda-morphology developers");

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_lin_spectrum_start);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_lin_spectrum_transform_caps);
  trans_class->fixate_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_lin_spectrum_fixate_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_lin_spectrum_set_caps);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_lin_spectrum_before_transform);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_lin_spectrum_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_lin_spectrum_transform);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cuda_lin_spectrum_transform_ip);

  base_class->debug_category = gst_cuda_lin_spectrum_debug;
  base_class->make_filter =
      GST_DEBUG_FUNCPTR (gst_cuda_lin_spectrum_make_filter);
  base_class->frame_done = GST_DEBUG_FUNCPTR (gst_cuda_lin_spectrum_frame_done);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_LIN_SPECTRUM_OPERATION, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_LIN_SPECTRUM_OUTPUT, 0);
  /* before the first buffer: applications look the meta up by name */
  gst_cuda_lin_spectrum_meta_get_info ();
}

/* the properties in the settings */
static const GstCudaPlaneFilterField gst_cuda_lin_spectrum_fields[] = {
  {PROP_LENGTH, G_STRUCT_OFFSET (GstCudaLinSpectrumSettings, length)},
  {PROP_ANGLE_MIN, G_STRUCT_OFFSET (GstCudaLinSpectrumSettings, angle_min)},
  {PROP_ANGLE_MAX, G_STRUCT_OFFSET (GstCudaLinSpectrumSettings, angle_max)},
  {PROP_ANGLE_STEP, G_STRUCT_OFFSET (GstCudaLinSpectrumSettings, angle_step)},
  {PROP_OPERATION, G_STRUCT_OFFSET (GstCudaLinSpectrumSettings, operation)},
  {PROP_OUTPUT, G_STRUCT_OFFSET (GstCudaLinSpectrumSettings, output)},
  {PROP_POST_MESSAGES,
      G_STRUCT_OFFSET (GstCudaLinSpectrumSettings, post_messages)},
  {PROP_INTERVAL, G_STRUCT_OFFSET (GstCudaLinSpectrumSettings, interval)},
  {PROP_ATTACH_META, G_STRUCT_OFFSET (GstCudaLinSpectrumSettings, attach_meta)},
};

static void
gst_cuda_lin_spectrum_init (GstCudaLinSpectrum * self)
{
  gst_cuda_plane_filter_settings_init (G_OBJECT (self), &self->settings,
      gst_cuda_lin_spectrum_fields, G_N_ELEMENTS (gst_cuda_lin_spectrum_fields));

  self->refused_min = self->refused_max = self->refused_step = NAN;
  gst_cuda_plane_filter_analysis_init (GST_BASE_TRANSFORM (self),
      &self->analysis, DEFAULT_OUTPUT, GST_CUDA_LIN_SPECTRUM_OUTPUT_PASSTHROUGH);
  self->mode = DEFAULT_OUTPUT;
}

static void
settings_to_desc (const GstCudaLinSpectrumSettings * s,
    cm_linspectrum_desc * desc)
{
  memset (desc, 0, sizeof (*desc));
  desc->length = (int) s->length;
  desc->angle_min = s->angle_min;
  desc->angle_max = s->angle_max;
  desc->angle_step = s->angle_step;
  desc->op = s->operation == GST_CUDA_LIN_SPECTRUM_OPERATION_CLOSE ?
      CM_MORPH_CLOSE : CM_MORPH_OPEN;
}

static gboolean
desc_equal (const cm_linspectrum_desc * a, const cm_linspectrum_desc * b)
{
  return a->length == b->length && a->angle_min == b->angle_min &&
      a->angle_max == b->angle_max && a->angle_step == b->angle_step &&
      a->op == b->op && a->want_supremum == b->want_supremum &&
      a->want_orientation == b->want_orientation;
}

/* NULL when the angles of @desc are a valid set of orientations,
 * otherwise why not, in words. */
static const gchar *
gst_cuda_lin_spectrum_angles_refusal (const cm_linspectrum_desc * desc)
{
  /* the angles alone: length and operation are checked after */
  cm_linspectrum_desc angles = *desc;

  angles.length = 1;
  angles.op = CM_MORPH_OPEN;
  if (cm_linspectrum_desc_check (&angles) == CM_OK)
    return NULL;
  if (!(angles.angle_step > 0.0))
    return "angle-step must be larger than 0";
  if (!(angles.angle_max > angles.angle_min))
    return "angle-max must be larger than angle-min";
  return "it would give more than " G_STRINGIFY (CM_LINSPECTRUM_MAX_ANGLES)
      " orientations";
}

/* read at every frame: a new value rebuilds nothing */
static const guint per_frame_props[] = { PROP_POST_MESSAGES, PROP_INTERVAL,
  PROP_ATTACH_META
};

/* FALSE (with a warning) for a value the element refuses: the previous
 * setting stays. Checked before the object lock is taken; an angle alone:
 * the three together are checked at the next frame (make_filter), so that
 * the order they arrive in does not matter. */
static gboolean
gst_cuda_lin_spectrum_value_ok (GstCudaLinSpectrum * self, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  gdouble v;
  const gchar *why = NULL;

  if (prop_id != PROP_ANGLE_MIN && prop_id != PROP_ANGLE_MAX &&
      prop_id != PROP_ANGLE_STEP)
    return TRUE;
  /* NaN stays NaN and is refused here */
  v = gst_cuda_plane_filter_double_in_range (value, pspec);
  if (!isfinite (v))
    why = "it is not a finite number";
  else if (prop_id == PROP_ANGLE_STEP && !(v > 0.0))
    why = "angle-step must be larger than 0";
  if (why == NULL)
    return TRUE;
  gst_cuda_plane_filter_refuse (GST_ELEMENT (self), "refusing %s = %g: %s; "
      "keeping the previous value", pspec->name, v, why);
  return FALSE;
}

static void
gst_cuda_lin_spectrum_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaLinSpectrum *self = GST_CUDA_LIN_SPECTRUM (object);

  if (!gst_cuda_lin_spectrum_value_ok (self, prop_id, value, pspec))
    return;

  if (gst_cuda_plane_filter_analysis_set_property (object, &self->settings,
          gst_cuda_lin_spectrum_fields,
          G_N_ELEMENTS (gst_cuda_lin_spectrum_fields), PROP_OUTPUT,
          (gint *) & self->settings.output, per_frame_props,
          G_N_ELEMENTS (per_frame_props), prop_id, value, pspec))
    gst_cuda_plane_filter_mark_dirty (GST_CUDA_PLANE_FILTER (self));
}

static void
gst_cuda_lin_spectrum_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  gst_cuda_plane_filter_settings_get (object,
      &GST_CUDA_LIN_SPECTRUM (object)->settings, gst_cuda_lin_spectrum_fields,
      G_N_ELEMENTS (gst_cuda_lin_spectrum_fields), prop_id, value, pspec);
}

/* ---- plans -------------------------------------------------------------- */

/* the element error of angles that are invalid together, none valid before */
static void
post_no_angles (GstCudaLinSpectrum * self, const cm_linspectrum_desc * desc,
    const gchar * why)
{
  GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
      ("angle-min %g, angle-max %g, angle-step %g: %s", desc->angle_min,
          desc->angle_max, desc->angle_step, why),
      ("no valid orientations to keep"));
}

/* The angle properties are taken together here, whatever the order they
 * were set in. An invalid combination keeps the orientations in use and
 * warns once (an element error when there are none yet). */
static gboolean
gst_cuda_lin_spectrum_choose_angles (GstCudaLinSpectrum * self,
    cm_linspectrum_desc * desc)
{
  const gchar *why = gst_cuda_lin_spectrum_angles_refusal (desc);
  gboolean fresh;

  if (why == NULL) {
    /* a later invalid combination is news again */
    self->refused_min = self->refused_max = self->refused_step = NAN;
    self->have_valid_angles = TRUE;
    self->valid_min = desc->angle_min;
    self->valid_max = desc->angle_max;
    self->valid_step = desc->angle_step;
    return TRUE;
  }
  /* said once per combination (negotiation may try again) */
  fresh = desc->angle_min != self->refused_min ||
      desc->angle_max != self->refused_max ||
      desc->angle_step != self->refused_step;
  self->refused_min = desc->angle_min;
  self->refused_max = desc->angle_max;
  self->refused_step = desc->angle_step;
  if (!self->have_valid_angles) {
    if (fresh)
      post_no_angles (self, desc, why);
    return FALSE;
  }
  if (fresh) {
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
        ("angle-min %g, angle-max %g, angle-step %g: %s; keeping %g to %g "
            "by %g", desc->angle_min, desc->angle_max, desc->angle_step, why,
            self->valid_min, self->valid_max, self->valid_step), (NULL));
  }
  desc->angle_min = self->valid_min;
  desc->angle_max = self->valid_max;
  desc->angle_step = self->valid_step;
  return TRUE;
}

/* An invalid combination of angles with none valid before fails the state
 * change here, synchronously: from set_caps it would be an error in the
 * streaming thread, which gst-launch-1.0 can miss (it quits its main loop
 * before running it and waits forever). */
static gboolean
gst_cuda_lin_spectrum_start (GstBaseTransform * trans)
{
  GstCudaLinSpectrum *self = GST_CUDA_LIN_SPECTRUM (trans);
  cm_linspectrum_desc desc;
  const gchar *why;

  GST_OBJECT_LOCK (self);
  settings_to_desc (&self->settings, &desc);
  GST_OBJECT_UNLOCK (self);
  /* checked only: the first frame chooses the orientations */
  why = gst_cuda_lin_spectrum_angles_refusal (&desc);
  if (why != NULL && !self->have_valid_angles) {
    post_no_angles (self, &desc, why);
    return FALSE;
  }
  self->analysis.filter_made = FALSE;
  self->analysis.result_ready = FALSE;
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_lin_spectrum_parent_class)->start
      (trans);
}

static void
gst_cuda_lin_spectrum_finalize (GObject * object)
{
  gst_cuda_lin_spectrum_result_clear (&GST_CUDA_LIN_SPECTRUM (object)->result);

  G_OBJECT_CLASS (gst_cuda_lin_spectrum_parent_class)->finalize (object);
}

/* The filter of the analysis the properties ask for (the spectrum, with
 * the supremum or the orientation map as the output requires). */
static cm_filter *
gst_cuda_lin_spectrum_make_filter (GstCudaPlaneFilter * base,
    const GstVideoInfo * info, cm_backend backend)
{
  gboolean use_cuda = backend == CM_BACKEND_CUDA;
  GstCudaLinSpectrum *self = GST_CUDA_LIN_SPECTRUM (base);
  const GstVideoInfo *out_info =
      gst_cuda_plane_filter_get_output_info (base);
  GstCudaLinSpectrumSettings s;
  GstCudaLinSpectrumOutput mode;
  cm_linspectrum_desc desc;
  cm_depth depth = gst_cuda_plane_filter_info_depth (info);
  gint width = GST_VIDEO_INFO_WIDTH (info);
  gint height = GST_VIDEO_INFO_HEIGHT (info);
  cm_filter *filter = NULL;
  cm_status status;
  gint n;

  GST_OBJECT_LOCK (self);
  s = self->settings;
  GST_OBJECT_UNLOCK (self);

  self->rgba_caps = GST_VIDEO_INFO_FORMAT (out_info) == GST_VIDEO_FORMAT_RGBA;
  mode = gst_cuda_lin_spectrum_mode (self);
  gst_cuda_plane_filter_analysis_set_passthrough (GST_BASE_TRANSFORM (self),
      GST_CAT_DEFAULT, mode == GST_CUDA_LIN_SPECTRUM_OUTPUT_PASSTHROUGH);

  settings_to_desc (&s, &desc);
  desc.want_supremum = mode != GST_CUDA_LIN_SPECTRUM_OUTPUT_PASSTHROUGH;
  desc.want_orientation = mode == GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION;
  if (!gst_cuda_lin_spectrum_choose_angles (self, &desc))
    return NULL;
  status = cm_linspectrum_desc_check (&desc);
  if (status != CM_OK) {
    gst_cuda_plane_filter_post_status_error (base, status,
        "Invalid length or orientations");
    return NULL;
  }
  n = cm_linspectrum_count_angles (&desc);

  /* the first frame after a change of the analysis or the caps is
   * reported; a region of another size is neither */
  gst_cuda_plane_filter_analysis_filter_made (&self->analysis,
      desc_equal (&desc, &self->desc) && mode == self->mode, out_info);

  gst_cuda_lin_spectrum_result_clear (&self->result);
  self->analysis.result_ready = FALSE;
  self->desc = desc;
  self->n_angles = n;
  self->mode = mode;

  if (!gst_cuda_lin_spectrum_result_init (&self->result, &desc, n))
    status = CM_ERR_NO_MEMORY;
  else
    status = cm_linspectrum_filter_new (&filter, backend, &desc, width,
        height, depth, gst_cuda_plane_filter_cpu_opts (base));
  if (status != CM_OK) {
    gst_cuda_lin_spectrum_result_clear (&self->result);
    gst_cuda_plane_filter_post_status_error (base, status, use_cuda ?
        "Failed to build the CUDA linear spectrum plan" :
        "Failed to allocate the linear spectrum buffers");
    return NULL;
  }

  GST_INFO_OBJECT (self, "%s by lines of %d px, %d orientations %g..%g step "
      "%g, output %s, %dx%d %d-bit on %s: %s",
      desc.op == CM_MORPH_CLOSE ? "closings" : "openings", desc.length, n,
      desc.angle_min, desc.angle_max, desc.angle_step,
      mode == GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION ? "orientation" :
      mode == GST_CUDA_LIN_SPECTRUM_OUTPUT_SUPREMUM ? "supremum" :
      "passthrough", width, height, (gint) depth, use_cuda ? "CUDA" : "CPU",
      cm_filter_algorithm (filter));
  return filter;
}
