/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudalinspectrum element tests on the CPU backend (GstHarness,
 * CK_FORK=no), its properties: output and parameter changes while
 * PLAYING, refused property values, and the defects a review found:
 * passthrough left in the middle of a buffer, a refused output kept,
 * angles set from another thread while frames flow, the order of angle
 * changes and angles invalid at start. */
#include <math.h>
#include <string.h>

#include "check-helpers.h"
#include "lin-harness.h"
#include "padded-frames.h"
#include "test-util.h"
#include "test-suite.h"

#define OPEN CM_MORPH_OPEN
#define CLOSE CM_MORPH_CLOSE

/* output and parameters changed while PLAYING apply to the next frame;
 * output changes renegotiate (RGBA and back) */
GST_START_TEST (test_change_playing)
{
  LinRun run = { { 9, 0, 180, 6, OPEN, "passthrough" } };
  GstBuffer *in, *out;
  GstCaps *caps;

  lin_run_start (&run, "I420", 41, 29, NULL);
  check_element_playing (run.e);

  lin_run_push_checked (&run, 1, 0, "passthrough");

  lin_run_set_output (&run, "supremum");
  lin_run_push_checked (&run, 2, 0, "to supremum");

  run.p.length = 21;
  run.p.op = CLOSE;
  run.p.angle_min = -20;
  run.p.angle_max = 20;
  run.p.angle_step = 0.25;
  lin_params_apply (run.e, &run.p);
  lin_run_push_checked (&run, 3, 0, "new parameters");

  lin_run_set_output (&run, "orientation");
  lin_run_push_checked (&run, 4, 0, "to orientation");

  run.p.op = OPEN;
  gst_util_set_object_arg (G_OBJECT (run.e), "operation", "open");
  in = lin_run_push (&run, 5, 0, &out);
  fail_unless (lin_check_orientation (in, &run.info, out, &run.out_info,
          &run.p, "orientation, open"));
  lin_run_check_frame (&run, in, out, "orientation, open");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  lin_run_set_output (&run, "passthrough");
  lin_run_push_checked (&run, 6, 0, "back to passthrough");
  caps = gst_pad_get_current_caps (run.h->sinkpad);
  fail_unless (lin_caps_has_format (caps, "I420"), "%" GST_PTR_FORMAT, caps);
  fail_if (lin_caps_has_format (caps, "RGBA"), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);

  /* with a caps change in orientation mode */
  lin_run_set_output (&run, "orientation");
  morph_harness_set_caps (run.h, "GRAY16_LE", 19, 7, &run.info);
  lin_run_push_checked (&run, 7, 0, "orientation, new caps");

  lin_run_clear (&run);
}

GST_END_TEST;

/* Pops every message of @run's bus: the one spectrum message of the
 * frame is checked against @in, warnings are counted (errors fail). */
static guint
check_message_and_warnings (LinRun * run, GstBuffer * in, const char *what)
{
  GstMessage *msg;
  guint spectra = 0, warnings = 0;

  while ((msg = gst_bus_pop (run->bus)) != NULL) {
    fail_if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR, "%s: error", what);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
      warnings++;
    if (gst_message_has_name (msg, "cudalinspectrum")) {
      fail_unless (lin_check_message (gst_message_get_structure (msg), in,
              &run->info, &run->p, what),
          "%s: message differs from the reference", what);
      spectra++;
    }
    gst_message_unref (msg);
  }
  fail_unless_equals_int (spectra, 1);
  return warnings;
}

/* refused values leave the old value and the element keeps working */
GST_START_TEST (test_invalid_values)
{
  LinRun run = { { 15, 10, 100, 2, OPEN, "passthrough" } };
  /* beyond the properties' ranges (GLib refuses them) */
  static const struct
  {
    const char *name;
    gdouble value;
  } out_of_range[] = {
    {"angle-step", -1.0}, {"angle-step", NAN}, {"angle-step", INFINITY},
    {"angle-min", NAN}, {"angle-min", -INFINITY}, {"angle-max", NAN},
    {"angle-max", INFINITY},
  };
  GstBuffer *in, *out;
  gdouble d;

  lin_run_new (&run);

  /* one value alone: refused at once, the old one kept */
  ASSERT_WARNING (g_object_set (run.e, "angle-step", 0.0, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (out_of_range); i++)
    ASSERT_OUT_OF_RANGE (g_object_set (run.e, out_of_range[i].name,
            out_of_range[i].value, NULL));
  check_properties_equal (run.e, "angle-step", 2.0, "angle-min", 10.0,
      "angle-max", 100.0, NULL);

  test_expect_int_refused (run.e, "length", 0, 15);
  test_expect_int_refused (run.e, "length", CM_LINSPECTRUM_MAX_LENGTH + 1,
      15);
  test_expect_int_refused (run.e, "interval", 0, 1);

  lin_run_set_caps (&run, "GRAY8", 23, 17);
  in = lin_run_push (&run, 77, 0, &out);
  lin_run_check_message (&run, in, "after refused values");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* combinations: taken as set, judged at the next frame; an invalid one
   * keeps the orientations in use with one warning */
  {
    const struct
    {
      const char *name;
      gdouble value;
    } bad[] = {
      {"angle-step", 0.01},     /* 9000 orientations */
      {"angle-min", 100.0},     /* = angle-max */
      {"angle-max", -5.0},      /* below angle-min */
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
      gchar *what = g_strdup_printf ("%s = %g", bad[i].name, bad[i].value);

      g_object_get (run.e, bad[i].name, &d, NULL);
      g_object_set (run.e, bad[i].name, bad[i].value, NULL);
      for (int k = 0; k < 2; k++) {
        in = lin_run_push (&run, 80 + 2 * i + k, 0, &out);
        fail_unless_equals_int (check_message_and_warnings (&run, in, what),
            k == 0 ? 1 : 0);
        gst_buffer_unref (out);
        gst_buffer_unref (in);
      }
      /* back to the value before: no warning */
      g_object_set (run.e, bad[i].name, d, NULL);
      in = lin_run_push (&run, 90 + i, 0, &out);
      fail_unless_equals_int (check_message_and_warnings (&run, in, what), 0);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      g_free (what);
    }
  }

  /* the largest number of orientations is fine */
  run.p.angle_min = 0;
  run.p.angle_max = 180;
  run.p.angle_step = 180.0 / CM_LINSPECTRUM_MAX_ANGLES;
  g_object_set (run.e, "angle-min", 0.0, "angle-max", 180.0, "angle-step",
      180.0 / CM_LINSPECTRUM_MAX_ANGLES, NULL);
  in = lin_run_push (&run, 99, 0, &out);
  fail_unless_equals_int (check_message_and_warnings (&run, in,
          "4096 orientations"), 0);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  lin_run_clear (&run);
}

GST_END_TEST;

/* ---- review defects: passthrough, refused output, angle race ------------ */

/* Sets output=supremum from basetransform's own log line "got DISCONT
 * buffer", which it writes between before_transform and its check for a
 * pending reconfigure: the interleaving that once left the element out of
 * passthrough with no output pool. */
static GstElement *race_element;
static gint race_armed, race_fired;

static void
race_log_hook (GstDebugCategory * cat, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object, GstDebugMessage * msg,
    gpointer user_data)
{
  const gchar *m = gst_debug_message_get (msg);

  if (m != NULL && g_str_has_prefix (m, "got DISCONT buffer") &&
      g_atomic_int_compare_and_exchange (&race_armed, TRUE, FALSE)) {
    gst_util_set_object_arg (G_OBJECT (race_element), "output", "supremum");
    g_atomic_int_set (&race_fired, TRUE);
  }
}

GST_START_TEST (test_passthrough_left_mid_buffer)
{
  LinRun run = { { 3, 0, 180, 45, OPEN, "passthrough" } };
  GstBuffer *in, *out;
  GstMessage *msg;

  lin_run_new (&run);
  gst_debug_set_threshold_for_name ("basetransform", GST_LEVEL_DEBUG);
  gst_debug_add_log_function (race_log_hook, NULL, NULL);
  race_element = run.e;

  lin_run_set_caps (&run, "GRAY8", 64, 48);
  /* padded rows (GstVideoMeta): a frame that cannot be sized from caps */
  in = lin_run_push (&run, 11, 16, &out);
  lin_check_passed_through (in, out, "passthrough");
  lin_run_check_frame (&run, in, out, "passthrough");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* output changes while this buffer is between the two steps */
  in = morph_make_input (&run.info, 12, 16);
  GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
  g_atomic_int_set (&race_armed, TRUE);
  out = gst_harness_push_and_pull (run.h, gst_buffer_ref (in));
  gst_debug_remove_log_function (race_log_hook);
  gst_debug_set_threshold_for_name ("basetransform", GST_LEVEL_NONE);
  fail_unless (g_atomic_int_get (&race_fired), "basetransform did not log "
      "\"got DISCONT buffer\": the interleaving was not forced");
  fail_unless (out != NULL, "no output for the frame in flight");
  msg = lin_pop_message (run.bus);
  fail_unless (msg != NULL);
  lin_check_result_is_message (out, gst_message_get_structure (msg),
      "frame in flight");
  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* the next frames are supremum frames, in a buffer of the right size */
  run.p.output = "supremum";
  for (int k = 0; k < 2; k++) {
    in = lin_run_push (&run, 13 + k, 16, &out);
    fail_unless (out != in, "still in passthrough");
    fail_unless (lin_run_supremum_ok (&run, in, out, "after the race"));
    lin_run_check_frame (&run, in, out, "after the race");
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_if (gst_bus_have_pending (run.bus), "error or warning on the bus");
  lin_run_clear (&run);
}

GST_END_TEST;

/* the output property's nick */
static gchar *
output_nick (GstElement * e)
{
  GValue v = G_VALUE_INIT;
  gchar *nick;

  g_value_init (&v, g_object_class_find_property (G_OBJECT_GET_CLASS (e),
          "output")->value_type);
  g_object_get_property (G_OBJECT (e), "output", &v);
  nick = g_strdup (g_enum_get_value (g_type_class_peek (G_VALUE_TYPE (&v)),
          g_value_get_enum (&v))->value_nick);
  g_value_unset (&v);
  return nick;
}

/* output=orientation asked of a downstream that takes only the input
 * format: frames keep coming in the output in use (supremum), with one
 * warning, and the property says so; the same back from RGBA */
GST_START_TEST (test_refused_output_kept)
{
  LinRun run = { {9, 0, 180, 30, OPEN, "supremum"}, .sink_caps =
        "video/x-raw,format=GRAY8"
  };
  GstBuffer *in, *out;
  gchar *output;

  lin_run_start (&run, "GRAY8", 40, 30, NULL);
  in = lin_run_push (&run, 21, 0, &out);
  fail_unless (lin_run_supremum_ok (&run, in, out, "supremum"));
  lin_run_check_message (&run, in, "supremum");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  gst_util_set_object_arg (G_OBJECT (run.e), "output", "orientation");
  for (int k = 0; k < 3; k++) {
    gchar *what = g_strdup_printf ("kept, frame %d", k);

    in = lin_run_push (&run, 22 + k, 0, &out);
    fail_unless (lin_run_supremum_ok (&run, in, out, what),
        "%s: not the supremum", what);
    fail_unless_equals_int (check_message_and_warnings (&run, in, what),
        k == 0 ? 1 : 0);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    g_free (what);
  }
  output = output_nick (run.e);
  fail_unless_equals_string (output, "supremum");
  g_free (output);
  lin_run_clear (&run);

  /* and from RGBA to a format downstream refuses */
  run.p.output = "orientation";
  run.sink_caps = "video/x-raw,format=RGBA";
  lin_run_start (&run, "GRAY8", 40, 30, NULL);
  for (int k = 0; k < 2; k++) {
    if (k == 1)
      gst_util_set_object_arg (G_OBJECT (run.e), "output", "passthrough");
    in = lin_run_push (&run, 30 + k, 0, &out);
    fail_unless (lin_run_orientation_ok (&run, in, out, "orientation kept"));
    fail_unless_equals_int (check_message_and_warnings (&run, in,
            "orientation kept"), k == 1 ? 1 : 0);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  output = output_nick (run.e);
  fail_unless_equals_string (output, "orientation");
  g_free (output);
  lin_run_clear (&run);
}

GST_END_TEST;

/* Concurrent sets of different angle properties: none undoes another. */
static GstElement *angle_element;
static gint angle_stop;

static gpointer
set_angle_min_loop (gpointer data)
{
  for (guint i = 0; !g_atomic_int_get (&angle_stop); i++)
    g_object_set (angle_element, "angle-min", (i & 1) ? 10.0 : 20.0, NULL);
  return NULL;
}

GST_START_TEST (test_angle_sets_concurrent)
{
  GThread *t;
  guint undone = 0, n = 100000;

  angle_element = gst_element_factory_make ("cudalinspectrum", NULL);
  g_atomic_int_set (&angle_stop, FALSE);
  t = g_thread_new ("angle-min", set_angle_min_loop, NULL);
  for (guint i = 0; i < n; i++) {
    gdouble want = (i & 1) ? 2.0 : 3.0, got;

    g_object_set (angle_element, "angle-step", want, NULL);
    g_object_get (angle_element, "angle-step", &got, NULL);
    if (got != want)
      undone++;
  }
  g_atomic_int_set (&angle_stop, TRUE);
  g_thread_join (t);
  fail_unless_equals_int (undone, 0);
  gst_object_unref (angle_element);
}

GST_END_TEST;

/* angle-min=200 angle-max=300 and the other way round give the same
 * orientations: the three are judged together at the next frame */
GST_START_TEST (test_angle_order)
{
  for (int order = 0; order < 2; order++) {
    LinRun run = { {5, 200, 300, 20, OPEN, "passthrough"} };
    GstBuffer *in, *out;
    /* the defaults, then the properties one by one as strings */
    GstElement *e = run.e = lin_element_new ("cpu", NULL, &run.bus);

    gst_util_set_object_arg (G_OBJECT (e), "length", "5");
    gst_util_set_object_arg (G_OBJECT (e), "angle-step", "20");
    if (order == 0) {
      gst_util_set_object_arg (G_OBJECT (e), "angle-min", "200");
      gst_util_set_object_arg (G_OBJECT (e), "angle-max", "300");
    } else {
      gst_util_set_object_arg (G_OBJECT (e), "angle-max", "300");
      gst_util_set_object_arg (G_OBJECT (e), "angle-min", "200");
    }
    lin_run_set_caps (&run, "GRAY8", 30, 20);
    in = lin_run_push (&run, 7, 0, &out);
    fail_unless_equals_int (check_message_and_warnings (&run, in,
            order ? "max then min" : "min then max"), 0);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    lin_run_clear (&run);
  }
}

GST_END_TEST;

/* an invalid combination when the element starts: the state change
 * fails, synchronously, with an error that names it (in set_caps, the
 * error would come from the streaming thread, which gst-launch-1.0 can
 * miss and then wait forever) */
GST_START_TEST (test_angles_invalid_at_start)
{
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", NULL, &bus);
  GstMessage *msg;
  GError *err = NULL;

  g_object_set (e, "angle-min", 200.0, NULL);   /* angle-max stays 180 */
  msg = test_start_fails (e, bus);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "angle-max") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  test_element_stop (e, bus);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_change_playing),
  TEST_SUITE_TEST (test_invalid_values),
  TEST_SUITE_TEST (test_passthrough_left_mid_buffer),
  TEST_SUITE_TEST (test_refused_output_kept),
  TEST_SUITE_TEST (test_angle_sets_concurrent),
  TEST_SUITE_TEST (test_angle_order),
  TEST_SUITE_TEST (test_angles_invalid_at_start),
  {NULL}
};

TEST_SUITE_MAIN (cudalinspectrum_properties, "cudalinspectrum-properties",
    300, suite_tests);
