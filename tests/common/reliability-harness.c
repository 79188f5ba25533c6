/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* one setting of any element, a frame pushed and checked */
#include <stdio.h>
#include <string.h>

#include <gst/check/gstcheck.h>

#include "device.h"
#include "test-util.h"

#include "blobs-harness.h"
#include "reliability-harness.h"

const gchar *
test_backend (void)
{
  const gchar *b = g_getenv ("CM_TEST_BACKEND");

  return b && *b ? b : "cpu";
}

int
test_backend_main (int *argc, char ***argv, const char *name,
    const TestSuiteEntry * tests)
{
  gst_check_init (argc, argv);
  if (strcmp (test_backend (), "cuda") == 0 && cm_device_count () <= 0) {
    fprintf (stderr, "CM_TEST_BACKEND=cuda but no CUDA device: skipped\n");
    return TEST_SKIP;
  }
  return test_suite_run (test_suite_new (name, "general", 600, tests));
}

const gchar *
kind_name (ElemKind k)
{
  return k == EL_MORPH ? "cudamorph" : k == EL_MEDIAN ? "cudamedian" :
      k == EL_LIN ? "cudalinspectrum" : k == EL_BLOBS ? "cudablobs" :
      "cudatemporal";
}

GstElement *
setting_element_new (const Setting * s, GstBus ** bus)
{
  GstElement *e;

  if (s->kind == EL_LIN)
    return lin_element_new (test_backend (), &s->lin, bus);

  if (s->kind == EL_MORPH) {
    e = morph_element_new (test_backend (), &s->morph);
  } else if (s->kind == EL_MEDIAN) {
    e = median_element_new (test_backend (), &s->median);
  } else if (s->kind == EL_BLOBS) {
    e = test_element_new ("cudablobs", test_backend ());
    test_element_set_args (e, s->blobs.args);
  } else {
    e = test_element_new ("cudatemporal", test_backend ());
    g_object_set (e, "frames", s->temporal.frames, "percentile",
        s->temporal.percentile, "output", (gint) s->temporal.output, NULL);
  }
  *bus = gst_bus_new ();
  gst_element_set_bus (e, *bus);
  return e;
}

gchar *
setting_describe (const Setting * s)
{
  if (s->kind == EL_MORPH)
    return morph_params_describe (&s->morph);
  if (s->kind == EL_LIN)
    return lin_params_describe (&s->lin);
  if (s->kind == EL_BLOBS)
    return g_strdup_printf ("%s, frames of kind %d (%d)", s->blobs.args,
        s->blobs.kind, s->blobs.param);
  if (s->kind == EL_TEMPORAL)
    return g_strdup_printf ("frames=%u percentile=%g output=%s",
        s->temporal.frames, s->temporal.percentile,
        cm_temporal_output_name (s->temporal.output));
  return median_params_describe (&s->median);
}

gboolean
check_filtered (const Setting * s, GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const char *what)
{
  if (s->kind == EL_MORPH)
    return morph_check_output (inbuf, outbuf, info, &s->morph, what);
  return median_check_output (inbuf, outbuf, info, &s->median, what);
}

GList *
drain_bus (GstBus * bus, const char *what)
{
  GList *spectra = NULL;
  GstMessage *msg;

  while ((msg = gst_bus_pop (bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      fail ("%s: unexpected error: %s (%s)", what, err->message,
          GST_STR_NULL (dbg));
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (msg, "cudalinspectrum"))
      spectra = g_list_append (spectra, msg);
    else
      gst_message_unref (msg);
  }
  return spectra;
}

void
assert_no_error (GstBus * bus, const char *what)
{
  g_list_free_full (drain_bus (bus, what),
      (GDestroyNotify) gst_message_unref);
}

/* @in pushed through @h (no error on @bus), its one output pulled */
static GstBuffer *
push_pull (GstHarness * h, GstBus * bus, GstBuffer * in, const char *what)
{
  GstFlowReturn ret = gst_harness_push (h, gst_buffer_ref (in));

  assert_no_error (bus, what);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
  return gst_harness_pull (h);
}

/* The nick of enum property @name of @e */
static const gchar *
enum_nick (GstElement * e, const gchar * name)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      name);
  GEnumClass *klass = G_PARAM_SPEC_ENUM (ps)->enum_class;
  gint v;

  g_object_get (e, name, &v, NULL);
  return g_enum_get_value (klass, v)->value_nick;
}

/* cudablobs: a frame of the setting's kind, the threshold set to the
 * frame's; the meta on the output, and the output (a mask, or the frame
 * unchanged), against the reference */
static void
push_and_check_blobs (GstHarness * h, GstBus * bus, const Setting * s,
    const GstVideoInfo * info, guint64 seed, int extra_stride,
    const char *what)
{
  cm_depth depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? CM_DEPTH_16 :
      CM_DEPTH_8;
  guint t;
  GstBuffer *in = blobs_make_input (info, s->blobs.kind, s->blobs.param,
      seed, extra_stride, &t);
  BlobsExpected want;
  cm_blobs_desc d;
  GstBuffer *out;

  g_object_set (h->element, "threshold", t, NULL);
  blobs_desc_from_element (h->element, depth, &d);
  if (strcmp (enum_nick (h->element, "output"), "mask") == 0)
    d.output = CM_BLOBS_OUTPUT_MASK;
  blobs_expected_compute (&want, &d, in, info, NULL, 0);
  out = push_pull (h, bus, in, what);
  fail_unless_equals_int (blobs_meta_count (out), 1);
  fail_unless (blobs_structure_equal (blobs_meta_structure (out), TRUE,
          &want, what), "%s: meta differs from the reference", what);
  if (d.output == CM_BLOBS_OUTPUT_MASK)
    fail_unless (blobs_check_image (in, info, out, info, &d, what),
        "%s: mask differs from the reference", what);
  else
    fail_unless (morph_frames_equal (in, out, info, what),
        "%s: passthrough frame changed", what);
  blobs_expected_clear (&want);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* cudatemporal: the frames since its history began, kept on the element
 * (a new window with new caps) */
#define TEMPORAL_WINDOW_KEY "reliability-harness-window"

typedef struct
{
  GstVideoInfo info;
  GPtrArray *frames;            /* GstBuffer, oldest first */
} TemporalWindow;

static void
temporal_window_free (gpointer data)
{
  TemporalWindow *w = data;

  g_ptr_array_unref (w->frames);
  g_free (w);
}

void
setting_history_reset (GstElement * e)
{
  g_object_set_data (G_OBJECT (e), TEMPORAL_WINDOW_KEY, NULL);
}

/* @in of @info into the window of @e (cudatemporal of @s): a new window
 * with new caps, the oldest frame out when it is full */
static TemporalWindow *
temporal_window_add (const Setting * s, GstElement * e,
    const GstVideoInfo * info, GstBuffer * in)
{
  TemporalWindow *w = g_object_get_data (G_OBJECT (e), TEMPORAL_WINDOW_KEY);

  if (w == NULL || !gst_video_info_is_equal (&w->info, info)) {
    w = g_new0 (TemporalWindow, 1);
    w->info = *info;
    w->frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
        gst_buffer_unref);
    g_object_set_data_full (G_OBJECT (e), TEMPORAL_WINDOW_KEY, w,
        temporal_window_free);
  }
  if (w->frames->len == s->temporal.frames)
    g_ptr_array_remove_index (w->frames, 0);
  g_ptr_array_add (w->frames, gst_buffer_ref (in));
  return w;
}

void
setting_frame_pushed (const Setting * s, GstElement * e,
    const GstVideoInfo * info, GstBuffer * in)
{
  if (s->kind == EL_TEMPORAL)
    temporal_window_add (s, e, info, in);
}

/* cudatemporal: a random frame; the output against the reference over
 * the frames since the history began, and the window property */
static void
push_and_check_temporal (GstHarness * h, GstBus * bus, const Setting * s,
    const GstVideoInfo * info, guint64 seed, int extra_stride,
    const char *what)
{
  GstBuffer *in = morph_make_input (info, seed, extra_stride);
  TemporalWindow *w = temporal_window_add (s, h->element, info, in);
  cm_temporal_desc d;
  GstBuffer *out;
  guint window;

  memset (&d, 0, sizeof (d));
  d.frames = (int) s->temporal.frames;
  d.percentile = s->temporal.percentile;
  d.output = s->temporal.output;

  out = push_pull (h, bus, in, what);
  fail_unless (temporal_output_ok (info, &d, w->frames, out, what),
      "%s: output differs from the reference over %u frames", what,
      w->frames->len);
  g_object_get (h->element, "window", &window, NULL);
  fail_unless_equals_int (window, w->frames->len);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* cudamorph, cudamedian: the output; cudalinspectrum: its message of
 * the frame and its output */
static void
push_and_check_frame (GstHarness * h, GstBus * bus, const Setting * s,
    const GstVideoInfo * info, guint64 seed, int extra_stride,
    const char *what)
{
  GstBuffer *in = morph_make_input (info, seed, extra_stride);
  GstBuffer *out;
  GstFlowReturn ret;
  GList *spectra;

  ret = gst_harness_push (h, gst_buffer_ref (in));
  spectra = drain_bus (bus, what);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
  out = gst_harness_pull (h);

  if (s->kind != EL_LIN) {
    fail_unless (check_filtered (s, in, out, info, what),
        "%s: output differs from the reference", what);
  } else {
    fail_unless (g_list_length (spectra) == 1, "%s: %u messages for one "
        "frame", what, g_list_length (spectra));
    fail_unless (lin_check_message (gst_message_get_structure (spectra->data),
            in, info, &s->lin, what), "%s: spectrum differs from the "
        "reference", what);
    if (strcmp (s->lin.output, "supremum") == 0)
      fail_unless (lin_check_supremum (in, out, info, &s->lin, what),
          "%s: supremum differs from the reference", what);
    else
      fail_unless (morph_frames_equal (in, out, info, what),
          "%s: passthrough frame changed", what);
  }

  g_list_free_full (spectra, (GDestroyNotify) gst_message_unref);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

void
push_and_check (GstHarness * h, GstBus * bus, const Setting * s,
    const GstVideoInfo * info, guint64 seed, int extra_stride,
    const char *ctx)
{
  gchar *desc = setting_describe (s);
  gchar *what = g_strdup_printf ("%s %s: %s %dx%d stride+%d, %s, seed %"
      G_GUINT64_FORMAT, ctx, kind_name (s->kind), GST_VIDEO_INFO_NAME (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), extra_stride,
      desc, seed);

  if (s->kind == EL_BLOBS)
    push_and_check_blobs (h, bus, s, info, seed, extra_stride, what);
  else if (s->kind == EL_TEMPORAL)
    push_and_check_temporal (h, bus, s, info, seed, extra_stride, what);
  else
    push_and_check_frame (h, bus, s, info, seed, extra_stride, what);
  g_free (what);
  g_free (desc);
}

gboolean
kind_grey_yuv_only (ElemKind k)
{
  return k == EL_LIN || k == EL_BLOBS;
}

int
n_formats (ElemKind k)
{
  return kind_grey_yuv_only (k) ? LIN_N_FORMATS : MORPH_N_FORMATS;
}

const char *
format_name (ElemKind k, int i)
{
  return kind_grey_yuv_only (k) ? lin_format (i) : morph_format (i);
}
