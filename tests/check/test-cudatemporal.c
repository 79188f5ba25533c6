/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudatemporal element tests on the CPU backend (GstHarness, CK_FORK=no):
 * every template format at odd sizes, both outputs, against the core's
 * reference (cm_temporal_ref) over the test's own copy of the window;
 * every plane with its own history (I420's U and V, Y444's three planes
 * of one size); the window property; the history begun anew at a flush,
 * a DISCONT buffer, new caps, a new frames or output, and kept at a new
 * percentile; frames = 255; regions of interest; properties, refusals and
 * the error of a history that does not fit. */
#include <math.h>
#include <string.h>

#include "check-helpers.h"
#include "element-harness.h"
#include "frame-compare.h"
#include "padded-frames.h"
#include "temporal-harness.h"
#include "test-suite.h"

/* One cudatemporal in a harness, and the inputs of its window (the test's
 * own history: oldest first, at most `frames`) */
typedef struct
{
  GstElement *e;
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo info;
  cm_temporal_desc d;
  GPtrArray *win;               /* GstBuffer */
} Run;

static void
run_start (Run * r, const char *format, int width, int height, int frames,
    double percentile, cm_temporal_output output)
{
  memset (r, 0, sizeof (*r));
  r->e = test_element_new ("cudatemporal", "cpu");
  r->bus = gst_bus_new ();
  gst_element_set_bus (r->e, r->bus);
  g_object_set (r->e, "frames", (guint) frames, "percentile", percentile,
      "output", (gint) output, NULL);
  r->d.frames = frames;
  r->d.percentile = percentile;
  r->d.output = output;
  r->win = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_buffer_unref);
  r->h = morph_harness_new (r->e);
  morph_harness_set_caps (r->h, format, width, height, &r->info);
}

static void
run_clear (Run * r)
{
  fail_unless (test_bus_count_problems (r->bus, GST_MESSAGE_ERROR |
          GST_MESSAGE_WARNING) == 0, "errors or warnings on the bus");
  test_element_teardown (r->h, r->e, r->bus);
  g_ptr_array_unref (r->win);
}

/* The history begins anew (as the element's should have) */
static void
run_reset (Run * r)
{
  g_ptr_array_set_size (r->win, 0);
}

static guint
run_window (Run * r)
{
  guint w;

  g_object_get (r->e, "window", &w, NULL);
  return w;
}

/* A random frame (seed @seed, @extra bytes of row padding) pushed,
 * flagged DISCONT when @discont; its output checked against the window
 * and the window property against its length */
static void
run_push (Run * r, guint64 seed, int extra, gboolean discont,
    const char *ctx)
{
  GstBuffer *in = morph_make_input (&r->info, seed, extra), *out;
  gchar *what = frame_case_name (ctx, &r->info, extra, "", seed);

  if (discont)
    GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
  if (r->win->len == (guint) r->d.frames)
    g_ptr_array_remove_index (r->win, 0);
  g_ptr_array_add (r->win, gst_buffer_ref (in));
  fail_unless_equals_int (gst_harness_push (r->h, in), GST_FLOW_OK);
  out = gst_harness_pull (r->h);
  fail_unless (out != NULL, "%s: no output", what);
  fail_unless (temporal_output_ok (&r->info, &r->d, r->win, out, what),
      "%s: output differs (window %u, "
      "frames %d, percentile %g, %s)", what, r->win->len, r->d.frames,
      r->d.percentile, cm_temporal_output_name (r->d.output));
  fail_unless_equals_int (run_window (r), r->win->len);
  gst_buffer_unref (out);
  g_free (what);
}

static const char *const formats[] = {
  "GRAY8", "GRAY16_LE", "I420", "NV12", "Y444", "RGBA", "BGRA", "RGBx",
  "BGRx"
};

/* every format at odd sizes, both outputs, the window growing to full
 * and sliding */
GST_START_TEST (test_formats_odd_sizes)
{
  guint64 seed = 1;

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (guint s = 0; s < CHECK_N_ODD_SIZES; s++) {
      for (int o = 0; o < 2; o++) {
        int frames = 1 + (int) ((f + s + o) % 4);
        int extra = (f + s) % 2 ? 8 : 0;
        Run r;

        run_start (&r, formats[f], check_odd_sizes[s].width,
            check_odd_sizes[s].height, frames, 50.0, (cm_temporal_output) o);
        for (int t = 0; t < frames + 2; t++)
          run_push (&r, seed++, extra, FALSE, "formats");
        run_clear (&r);
      }
    }
  }
}

GST_END_TEST;

/* percentiles between and at the ends, ties (few levels come from the
 * random bytes of small frames too) */
GST_START_TEST (test_percentiles)
{
  static const double percentiles[] = { 0, 12.5, 50, 66.7, 100 };
  static const char *const fmts[] = { "GRAY8", "GRAY16_LE", "NV12", "BGRA" };
  guint64 seed = 300;

  for (guint f = 0; f < G_N_ELEMENTS (fmts); f++)
    for (guint i = 0; i < G_N_ELEMENTS (percentiles); i++) {
      Run r;

      run_start (&r, fmts[f], 13, 7, 6, percentiles[i],
          i % 2 ? CM_TEMPORAL_DIFFERENCE : CM_TEMPORAL_BACKGROUND);
      for (int t = 0; t < 9; t++)
        run_push (&r, seed++, 0, FALSE, "percentiles");
      run_clear (&r);
    }
}

GST_END_TEST;

/* the longest window: it fills at 255 and slides */
GST_START_TEST (test_frames_255)
{
  Run r;

  run_start (&r, "GRAY8", 5, 3, 255, 50.0, CM_TEMPORAL_BACKGROUND);
  for (int t = 0; t < 258; t++)
    run_push (&r, 1000 + t, 0, FALSE, "frames=255");
  fail_unless_equals_int (run_window (&r), 255);
  run_clear (&r);
}

GST_END_TEST;

/* Y444's three planes have one size, and so do I420's U and V: each
 * keeps its own history (a shared one would mix their samples), the
 * window sliding over random frames */
GST_START_TEST (test_planes_own_history)
{
  static const char *const fmts[] = { "I420", "Y444", "NV12" };
  guint64 seed = 2000;

  for (guint f = 0; f < G_N_ELEMENTS (fmts); f++) {
    Run r;

    run_start (&r, fmts[f], 16, 8, 3, 50.0, CM_TEMPORAL_BACKGROUND);
    for (int t = 0; t < 6; t++)
      run_push (&r, seed++, 0, FALSE, "planes");
    run_clear (&r);
  }
}

GST_END_TEST;

static void
push_flush (GstHarness * h)
{
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  /* a segment after the flush, as a source sends one */
  {
    GstSegment seg;

    gst_segment_init (&seg, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  }
}

/* where the history begins anew, and where it does not */
GST_START_TEST (test_history_restarts)
{
  guint64 seed = 3000, builds;
  Run r;

  run_start (&r, "I420", 9, 5, 4, 50.0, CM_TEMPORAL_BACKGROUND);
  for (int t = 0; t < 5; t++)
    run_push (&r, seed++, 0, FALSE, "start");

  /* a flush */
  push_flush (r.h);
  run_reset (&r);
  for (int t = 0; t < 3; t++)
    run_push (&r, seed++, 0, FALSE, "after a flush");

  /* a DISCONT buffer */
  run_reset (&r);
  run_push (&r, seed++, 0, TRUE, "DISCONT");
  run_push (&r, seed++, 0, FALSE, "after DISCONT");

  /* a new percentile: the history kept, nothing allocated */
  builds = test_filter_builds (r.e);
  g_object_set (r.e, "percentile", 100.0, NULL);
  r.d.percentile = 100.0;
  run_push (&r, seed++, 0, FALSE, "new percentile");
  fail_unless_equals_int (run_window (&r), 3);
  fail_unless_equals_uint64 (test_filter_builds (r.e), builds);

  /* a new frames: new histories, one a plane */
  g_object_set (r.e, "frames", 2u, NULL);
  r.d.frames = 2;
  run_reset (&r);
  for (int t = 0; t < 3; t++)
    run_push (&r, seed++, 0, FALSE, "new frames");
  fail_unless_equals_uint64 (test_filter_builds (r.e), builds + 3);

  /* a new output */
  g_object_set (r.e, "output", CM_TEMPORAL_DIFFERENCE, NULL);
  r.d.output = CM_TEMPORAL_DIFFERENCE;
  run_reset (&r);
  for (int t = 0; t < 3; t++)
    run_push (&r, seed++, 0, FALSE, "new output");

  /* new caps */
  morph_harness_set_caps (r.h, "Y444", 7, 6, &r.info);
  run_reset (&r);
  for (int t = 0; t < 3; t++)
    run_push (&r, seed++, 0, FALSE, "new caps");
  run_clear (&r);
}

GST_END_TEST;

/* a fixed region, from the roi property (@meta FALSE) or from a meta on
 * every buffer: the temporal percentile inside, the frame outside */
static void
check_fixed_region (gboolean meta)
{
  guint64 seed = 4000;
  GstElement *e = test_element_new ("cudatemporal", "cpu");
  GstHarness *h = morph_harness_new (e);
  GPtrArray *win = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  GstVideoInfo info;

  if (meta)
    g_object_set (e, "roi-meta", TRUE, NULL);
  else
    gst_util_set_object_arg (G_OBJECT (e), "roi", "<3,2,6,4>");
  g_object_set (e, "frames", 3u, "percentile", 0.0, NULL);
  morph_harness_set_caps (h, "GRAY8", 12, 9, &info);
  for (int t = 0; t < 5; t++) {
    GstBuffer *in = morph_make_input (&info, seed++, 0), *out;
    GstVideoFrame fo, fi;

    if (meta)
      gst_buffer_add_video_region_of_interest_meta (in, "moving", 3, 2, 6,
          4);

    if (win->len == 3)
      g_ptr_array_remove_index (win, 0);
    g_ptr_array_add (win, gst_buffer_ref (in));
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
    for (int y = 0; y < 9; y++)
      for (int x = 0; x < 12; x++) {
        guint8 got = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fo, 0))[y *
            GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0) + x];
        guint8 exp = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fi, 0))[y *
            GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0) + x];

        /* inside: the minimum over the window */
        if (x >= 3 && x < 9 && y >= 2 && y < 6)
          for (guint i = 0; i < win->len; i++) {
            GstMapInfo m;

            fail_unless (gst_buffer_map (g_ptr_array_index (win, i), &m,
                    GST_MAP_READ));
            exp = MIN (exp, m.data[GST_VIDEO_INFO_PLANE_OFFSET (&info, 0) +
                    y * GST_VIDEO_INFO_PLANE_STRIDE (&info, 0) + x]);
            gst_buffer_unmap (g_ptr_array_index (win, i), &m);
          }
        fail_unless_equals_int (got, exp);
      }
    gst_video_frame_unmap (&fo);
    gst_video_frame_unmap (&fi);
    gst_buffer_unref (out);
  }
  g_ptr_array_unref (win);
  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_START_TEST (test_roi)
{
  check_fixed_region (FALSE);
  check_fixed_region (TRUE);
}

GST_END_TEST;

/* a history larger than memory: an element error that names the bytes */
GST_START_TEST (test_history_too_large)
{
  GstElement *e = test_element_new ("cudatemporal", "cpu");
  gchar *text;

  g_object_set (e, "frames", 255u, NULL);
  /* 255 x 32768 x 32768 x 2 bytes: 548 GB */
  text = test_caps_error (e, "GRAY16_LE", 32768, 32768);
  fail_unless (strstr (text, "255 frames") != NULL &&
      strstr (text, "547608330240 bytes") != NULL,
      "the error does not name the frames and bytes: %s", text);
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_properties)
{
  static const char *const props[] = { "frames", "percentile", "output" };
  GstElement *e = test_element_new ("cudatemporal", "cpu");
  GParamSpec *window = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "window");

  check_properties_documented (e, props, G_N_ELEMENTS (props), 40);
  check_properties_equal (e, "frames", 9u, "percentile", 50.0, "output", 0,
      "window", 0u, NULL);
  fail_unless (window != NULL && !(window->flags & G_PARAM_WRITABLE));

  /* GLib's ranges */
  test_expect_int_refused (e, "frames", 0, 9);
  test_expect_int_refused (e, "frames", 256, 9);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "percentile", 100.5, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "percentile", -0.5, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "percentile", (gdouble) NAN, NULL));
  check_properties_equal (e, "percentile", 50.0, NULL);

  g_object_set (e, "frames", 255u, "percentile", 0.0, "output", 1, NULL);
  check_properties_equal (e, "frames", 255u, "percentile", 0.0, "output", 1,
      NULL);
  gst_object_unref (e);
}

GST_END_TEST;

/* interlaced video and unknown formats are refused at negotiation */
GST_START_TEST (test_caps_refused)
{
  GstElement *e = test_element_new ("cudatemporal", "cpu");
  GstHarness *h = morph_harness_new (e);
  GstCaps *caps;

  caps = gst_caps_from_string ("video/x-raw,format=UYVY,width=8,height=8,"
      "framerate=30/1");
  fail_if (gst_pad_query_accept_caps (GST_PAD_PEER (h->srcpad), caps));
  gst_caps_unref (caps);
  caps = gst_caps_from_string ("video/x-raw,format=GRAY8,width=8,height=8,"
      "framerate=30/1,interlace-mode=interleaved");
  fail_if (gst_pad_query_accept_caps (GST_PAD_PEER (h->srcpad), caps));
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_properties),
  TEST_SUITE_TEST (test_caps_refused),
  TEST_SUITE_TEST (test_formats_odd_sizes),
  TEST_SUITE_TEST (test_percentiles),
  TEST_SUITE_TEST (test_frames_255),
  TEST_SUITE_TEST (test_planes_own_history),
  TEST_SUITE_TEST (test_history_restarts),
  TEST_SUITE_TEST (test_roi),
  TEST_SUITE_TEST (test_history_too_large),
  {NULL, NULL, 0, 0}
};

TEST_SUITE_MAIN (cudatemporal, "cudatemporal", 120, suite_tests);
