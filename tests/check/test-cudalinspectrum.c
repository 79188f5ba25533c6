/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudalinspectrum element tests on the CPU backend (GstHarness,
 * CK_FORK=no), its outputs: the message schema field by field with
 * timestamps through a segment, the spectrum against the core's CPU
 * reference for every format at odd sizes, the dominant angle of digital
 * parallel lines, interval and post-messages, passthrough frames
 * untouched, the supremum (chroma copied), the RGBA orientation map and
 * its negotiation both ways. Changes while PLAYING and refused values are
 * in test-cudalinspectrum-properties.c, the result on the buffers in
 * test-cudalinspectrum-meta.c. */
#include <math.h>
#include <string.h>

#include "check-helpers.h"
#include "lin-harness.h"
#include "padded-frames.h"
#include "test-util.h"
#include "test-suite.h"

#define OPEN CM_MORPH_OPEN
#define CLOSE CM_MORPH_CLOSE

/* ---- tests -------------------------------------------------------------- */

/* The field @name of the message structure @s is the time @expected. */
static void
check_time_field (const GstStructure * s, const char *name,
    GstClockTime expected)
{
  guint64 t;

  fail_unless (gst_structure_get_uint64 (s, name, &t), "no %s", name);
  fail_unless_equals_uint64 (t, expected);
}

GST_START_TEST (test_inspect)
{
  static const char *const props[] = { "length", "angle-min", "angle-max",
    "angle-step", "operation", "output", "post-messages", "interval",
    "attach-meta", "backend", "cuda-device-id"
  };
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", NULL, &bus);
  GstElementFactory *f = gst_element_get_factory (e);
  GEnumClass *ec;

  check_properties_documented (e, props, G_N_ELEMENTS (props), 30);
  check_properties_equal (e, "length", 41u, "angle-min", 0.0, "angle-max",
      180.0, "angle-step", 1.0, "interval", 1u, "post-messages", TRUE,
      "attach-meta", TRUE, "operation", 0, NULL);

  /* enum nicks as cudamorph spells them, values from 0 as GStreamer's own
   * enums (a binding that sets 0 gets the default) */
  ec = g_type_class_ref (G_PARAM_SPEC_VALUE_TYPE (g_object_class_find_property
          (G_OBJECT_GET_CLASS (e), "operation")));
  fail_unless_equals_int (g_enum_get_value_by_nick (ec, "open")->value, 0);
  fail_unless_equals_int (g_enum_get_value_by_nick (ec, "close")->value, 1);
  fail_unless_equals_int (ec->n_values, 2);
  g_type_class_unref (ec);
  g_object_set (e, "operation", 1, NULL);
  check_properties_equal (e, "operation", 1, NULL);
  g_object_set (e, "operation", 0, NULL);
  ec = g_type_class_ref (G_PARAM_SPEC_VALUE_TYPE (g_object_class_find_property
          (G_OBJECT_GET_CLASS (e), "output")));
  fail_unless_equals_int (g_enum_get_value_by_nick (ec, "passthrough")->value,
      0);
  fail_unless (g_enum_get_value_by_nick (ec, "supremum") != NULL);
  fail_unless (g_enum_get_value_by_nick (ec, "orientation") != NULL);
  g_type_class_unref (ec);

  fail_unless (strstr (gst_element_factory_get_metadata (f,
              GST_ELEMENT_METADATA_KLASS), "Analyzer") != NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

/* every field and its type, timestamps through a segment, no timestamps */
GST_START_TEST (test_message_schema)
{
  LinRun run = { { 9, 0, 180, 5, OPEN, "passthrough" } };
  GstSegment seg;
  GstBuffer *in, *out;
  GstMessage *msg;
  const GstStructure *s;

  lin_run_start (&run, "GRAY8", 37, 23, NULL);

  /* default segment: stream and running time equal the PTS */
  in = morph_make_input (&run.info, 1, 0);
  GST_BUFFER_PTS (in) = 1 * GST_SECOND;
  GST_BUFFER_DURATION (in) = 40 * GST_MSECOND;
  out = gst_harness_push_and_pull (run.h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  msg = lin_pop_message (run.bus);
  fail_unless (msg != NULL);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (run.e));
  s = gst_message_get_structure (msg);
  fail_unless_equals_int (lin_check_schema (s, "default segment"), 36);
  fail_unless (lin_check_message (s, in, &run.info, &run.p, "default segment"));
  check_time_field (s, "timestamp", 1 * GST_SECOND);
  check_time_field (s, "stream-time", 1 * GST_SECOND);
  check_time_field (s, "running-time", 1 * GST_SECOND);
  check_time_field (s, "duration", 40 * GST_MSECOND);
  for (guint i = 0; i < 36; i++)
    fail_unless_equals_float (lin_array_get (s, "angles", i), 5.0 * i);
  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* a segment that starts at 0.5 s, stream time 2 s, base 10 s */
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.start = 500 * GST_MSECOND;
  seg.time = 2 * GST_SECOND;
  seg.base = 10 * GST_SECOND;
  fail_unless (gst_harness_push_event (run.h, gst_event_new_segment (&seg)));
  in = morph_make_input (&run.info, 2, 0);
  GST_BUFFER_PTS (in) = 1 * GST_SECOND;
  out = gst_harness_push_and_pull (run.h, gst_buffer_ref (in));
  msg = lin_pop_message (run.bus);
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);
  fail_unless (lin_check_message (s, in, &run.info, &run.p, "segment"));
  check_time_field (s, "stream-time", 2500 * GST_MSECOND);
  check_time_field (s, "running-time", 10500 * GST_MSECOND);
  check_time_field (s, "duration", GST_CLOCK_TIME_NONE);
  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* no timestamp at all */
  in = morph_make_input (&run.info, 3, 0);
  out = gst_harness_push_and_pull (run.h, gst_buffer_ref (in));
  msg = lin_pop_message (run.bus);
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);
  lin_check_schema (s, "no timestamp");
  check_time_field (s, "timestamp", GST_CLOCK_TIME_NONE);
  check_time_field (s, "stream-time", GST_CLOCK_TIME_NONE);
  check_time_field (s, "running-time", GST_CLOCK_TIME_NONE);
  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  lin_run_clear (&run);
}

GST_END_TEST;

static const CheckSize odd_sizes[] = {
  {37, 23}, {1, 1}, {1, 9}, {9, 1}, {2, 3}, {64, 48},
};

/* spectrum == reference / pixels for every format, size and both
 * operations; the passthrough buffer is the input, untouched */
GST_START_TEST (test_formats_spectrum)
{
  guint64 seed = 10;

  for (int f = 0; f < LIN_N_FORMATS; f++) {
    for (guint z = 0; z < G_N_ELEMENTS (odd_sizes); z++) {
      for (int op = 0; op < 2; op++) {
        LinRun run = { {op ? 6 : 11, op ? -10 : 0, op ? 10 : 180,
                op ? 0.25 : 4, op ? CLOSE : OPEN, "passthrough"}
        };
        int extra = (z % 2) ? 8 : 0;
        GstBuffer *in, *out, *copy;

        lin_run_start (&run, lin_format (f), odd_sizes[z].width,
            odd_sizes[z].height, NULL);
        for (int k = 0; k < 2; k++) {
          in = morph_make_input (&run.info, seed++, extra);
          copy = gst_buffer_copy_deep (in);
          out = gst_harness_push_and_pull (run.h, gst_buffer_ref (in));
          lin_check_passed_through (in, out, run.what);
          fail_unless (morph_frames_equal (out, copy, &run.info, run.what),
              "%s: passthrough changed the frame", run.what);
          lin_run_check_frame (&run, in, out, run.what);
          gst_buffer_unref (copy);
          gst_buffer_unref (out);
          gst_buffer_unref (in);
        }
        lin_run_clear (&run);
      }
    }
  }
}

GST_END_TEST;

/* parallel lines drawn as the digital scan lines of an orientation of the
 * set (every @spacing-th line of @theta), bright (@dark FALSE) or dark */
static GstBuffer *
lines_frame (const GstVideoInfo * info, double theta, int spacing,
    gboolean dark)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info),
      NULL);
  GstVideoFrame frame;
  cm_image img;
  int steep;
  double k;

  cm_linspectrum_line_geometry (theta, &steep, &k);
  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE));
  img = morph_frame_plane0 (&frame);
  for (int y = 0; y < img.height; y++) {
    for (int x = 0; x < img.width; x++) {
      long b = steep ? x + lround (y * k) : y + lround (x * k);
      gboolean on = ((b % spacing) + spacing) % spacing == 0;

      test_image_set (&img, x, y, on != dark ? 200 : 30);
    }
  }
  for (guint pl = 1; pl < GST_VIDEO_FRAME_N_PLANES (&frame); pl++) {
    gsize row_bytes;
    int rows;

    morph_plane_extent (&frame, pl, &row_bytes, &rows);
    for (int y = 0; y < rows; y++)
      memset ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, pl) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, pl), 128, row_bytes);
  }
  gst_video_frame_unmap (&frame);
  return buf;
}

/* the dominant angle of lines at a known orientation, within a quarter
 * step: bright lines with openings, dark ones (text lines of a page) with
 * closings, including the wrap-around at 0/180 and sub-degree steps */
GST_START_TEST (test_dominant_angle)
{
  static const struct
  {
    double theta;
    LinParams p;
    const char *format;
  } rows[] = {
    {23, {31, 0, 180, 1, OPEN, "passthrough"}, "GRAY8"},
    {67, {31, 0, 180, 1, CLOSE, "passthrough"}, "GRAY8"},
    {101, {31, 0, 180, 1, OPEN, "passthrough"}, "I420"},
    {151, {31, 0, 180, 1, CLOSE, "passthrough"}, "NV12"},
    {4, {31, 0, 180, 1, OPEN, "passthrough"}, "GRAY16_LE"},
    {177, {31, 0, 180, 1, CLOSE, "passthrough"}, "Y444"},
    {-3.25, {61, -10, 10, 0.25, CLOSE, "passthrough"}, "GRAY8"},
    {2.25, {61, -10, 10, 0.25, CLOSE, "passthrough"}, "I420"},
    {7.75, {61, -10, 10, 0.25, CLOSE, "supremum"}, "GRAY8"},
    {37.5, {41, 30, 40, 0.5, OPEN, "orientation"}, "GRAY8"},
  };

  for (guint r = 0; r < G_N_ELEMENTS (rows); r++) {
    LinRun run = { rows[r].p };
    GstBuffer *in, *out;
    GstMessage *msg;
    gdouble angle;

    lin_run_start (&run, rows[r].format, 160, 120, NULL);
    in = lines_frame (&run.info, rows[r].theta, 9, run.p.op == CLOSE);
    out = gst_harness_push_and_pull (run.h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    msg = lin_pop_message (run.bus);
    fail_unless (msg != NULL);
    fail_unless (lin_check_message (gst_message_get_structure (msg), in,
            &run.info, &run.p, run.what));
    fail_unless (gst_structure_get_double (gst_message_get_structure (msg),
            "dominant-angle", &angle));
    fail_unless (fabs (angle - rows[r].theta) <= run.p.angle_step / 4,
        "%s: lines at %g degrees, dominant-angle %g", run.what, rows[r].theta,
        angle);
    gst_message_unref (msg);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    lin_run_clear (&run);
  }
}

GST_END_TEST;

GST_START_TEST (test_interval)
{
  LinRun run = { { 5, 0, 180, 30, OPEN, "passthrough" } };
  GstBuffer *in, *out;
  GstMessage *msg;

  lin_run_start (&run, "GRAY8", 17, 11, "interval", 3, NULL);

  /* frames 0, 3, 6 are reported, with their own spectrum */
  for (guint i = 0; i < 9; i++) {
    in = lin_run_push (&run, 100 + i, 0, &out);
    if (i % 3 == 0) {
      lin_run_check_message (&run, in, "interval 3");
    } else {
      fail_unless (lin_pop_message (run.bus) == NULL, "message for frame %u",
          i);
    }
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }

  /* timestamps say which frame a message is for */
  for (guint i = 0; i < 6; i++) {
    in = morph_make_input (&run.info, 200 + i, 0);
    GST_BUFFER_PTS (in) = i * GST_SECOND;
    out = gst_harness_push_and_pull (run.h, in);
    gst_buffer_unref (out);
  }
  for (guint i = 0; i < 2; i++) {
    msg = lin_pop_message (run.bus);
    fail_unless (msg != NULL);
    check_time_field (gst_message_get_structure (msg), "timestamp",
        3 * i * GST_SECOND);
    gst_message_unref (msg);
  }
  fail_unless (lin_pop_message (run.bus) == NULL);

  /* interval 1 while PLAYING: every frame */
  g_object_set (run.e, "interval", 1, NULL);
  for (guint i = 0; i < 4; i++) {
    in = lin_run_push (&run, 300 + i, 0, &out);
    lin_run_check_message (&run, in, "interval 1");
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }

  /* post-messages=false: none, frames still pass */
  g_object_set (run.e, "post-messages", FALSE, NULL);
  for (guint i = 0; i < 4; i++) {
    in = lin_run_push (&run, 400 + i, 0, &out);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_unless_equals_int (lin_count_messages (run.bus), 0);
  g_object_set (run.e, "post-messages", TRUE, NULL);
  in = lin_run_push (&run, 500, 0, &out);
  lin_run_check_message (&run, in, "post-messages back on");
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  lin_run_clear (&run);
}

GST_END_TEST;

GST_START_TEST (test_post_messages_false)
{
  LinRun run = { { 7, 0, 180, 10, CLOSE, "supremum" } };

  lin_run_start (&run, "NV12", 21, 13, "post-messages", FALSE, NULL);
  for (guint i = 0; i < 5; i++) {
    GstBuffer *out, *in = lin_run_push (&run, 600 + i, 0, &out);

    fail_unless (lin_run_supremum_ok (&run, in, out, "no messages"));
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_unless_equals_int (lin_count_messages (run.bus), 0);
  lin_run_clear (&run);
}

GST_END_TEST;

typedef gboolean (*LinOutputCheck) (LinRun * r, GstBuffer * in,
    GstBuffer * out, const char *what);

/* Every format with @params[0] and @params[1] (the two operations) at
 * each of @sizes: two random frames, the second padded, seeds from @seed;
 * every output passes @check (@failure names what differs) and comes with
 * the reference's message and meta. */
static void
check_outputs (const LinParams params[2], const CheckSize * sizes,
    guint n_sizes, guint64 seed, LinOutputCheck check, const char *failure)
{
  for (int f = 0; f < LIN_N_FORMATS; f++) {
    for (int op = 0; op < 2; op++) {
      for (guint z = 0; z < n_sizes; z++) {
        LinRun run = { params[op] };

        lin_run_start (&run, lin_format (f), sizes[z].width, sizes[z].height,
            NULL);
        for (int k = 0; k < 2; k++) {
          GstBuffer *out, *in = lin_run_push (&run, seed++, k * 8, &out);

          fail_unless (check (&run, in, out, run.what), "%s: %s differs "
              "from the reference", run.what, failure);
          lin_run_check_frame (&run, in, out, run.what);
          gst_buffer_unref (out);
          gst_buffer_unref (in);
        }
        lin_run_clear (&run);
      }
    }
  }
}

/* the supremum, in a buffer of its own */
static gboolean
supremum_ok (LinRun * r, GstBuffer * in, GstBuffer * out, const char *what)
{
  fail_unless (out != in, "%s: supremum passed the buffer through", what);
  return lin_run_supremum_ok (r, in, out, what);
}

/* supremum (infimum) on every format, chroma copied, message and meta as
 * well */
GST_START_TEST (test_supremum)
{
  static const LinParams params[] = {
    {9, 0, 180, 0.5, OPEN, "supremum"}, {9, 0, 180, 7.5, CLOSE, "supremum"}
  };
  /* every other odd size */
  static const CheckSize sizes[] = { {37, 23}, {1, 9}, {2, 3} };

  check_outputs (params, sizes, G_N_ELEMENTS (sizes), 700, supremum_ok,
      "output");
}

GST_END_TEST;

/* output=orientation: RGBA of the same size, the reference colouring */
GST_START_TEST (test_orientation)
{
  static const LinParams params[] = {
    {13, 0, 180, 3, OPEN, "orientation"},
    {13, -30, 30, 0.75, CLOSE, "orientation"}
  };
  static const CheckSize size = { 45, 31 };

  check_outputs (params, &size, 1, 900, lin_run_orientation_ok,
      "orientation map");
}

GST_END_TEST;

/* transform_caps both ways: the sink pad offers the input formats for an
 * RGBA-only downstream only with output=orientation; the source pad
 * offers RGBA only then; RGB input is never accepted */
GST_START_TEST (test_caps_both_ways)
{
  GstBus *bus;
  GstElement *e = lin_element_new ("cpu", NULL, &bus);
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstPad *src = gst_element_get_static_pad (e, "src");
  GstCaps *caps, *rgba;

  gst_harness_set_sink_caps_str (h, "video/x-raw,format=RGBA");
  caps = gst_pad_query_caps (sink, NULL);
  fail_unless (gst_caps_is_empty (caps), "passthrough accepts input for an "
      "RGBA-only downstream: %" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);

  gst_util_set_object_arg (G_OBJECT (e), "output", "orientation");
  caps = gst_pad_query_caps (sink, NULL);
  for (int f = 0; f < LIN_N_FORMATS; f++)
    fail_unless (lin_caps_has_format (caps, lin_format (f)), "%s missing in %"
        GST_PTR_FORMAT, lin_format (f), caps);
  fail_if (lin_caps_has_format (caps, "RGBA"));
  gst_caps_unref (caps);

  /* upstream GRAY8 only: the source pad offers RGBA only */
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=16,"
      "height=8,framerate=25/1");
  caps = gst_pad_query_caps (src, NULL);
  fail_unless (lin_caps_has_format (caps, "RGBA"), "%" GST_PTR_FORMAT, caps);
  fail_if (lin_caps_has_format (caps, "GRAY8"), "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);

  rgba = gst_caps_from_string ("video/x-raw,format=RGBA,width=16,height=8,"
      "framerate=25/1");
  fail_if (gst_pad_query_accept_caps (sink, rgba), "RGBA input accepted");
  gst_caps_unref (rgba);

  gst_object_unref (sink);
  gst_object_unref (src);
  lin_teardown (h, e, bus);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_inspect),
  TEST_SUITE_TEST (test_message_schema),
  TEST_SUITE_TEST (test_formats_spectrum),
  TEST_SUITE_TEST (test_dominant_angle),
  TEST_SUITE_TEST (test_interval),
  TEST_SUITE_TEST (test_post_messages_false),
  TEST_SUITE_TEST (test_supremum),
  TEST_SUITE_TEST (test_orientation),
  TEST_SUITE_TEST (test_caps_both_ways),
  {NULL}
};

TEST_SUITE_MAIN (cudalinspectrum, "cudalinspectrum", 300, suite_tests);
