/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudatemporal on the CUDA backend against the same element on the CPU
 * backend, bit for bit, frame after frame: every format and both outputs,
 * windows of 1 to 255 frames (the device plan's networks and histograms),
 * percentiles 0, 50, 100 and between, padded strides, the history begun
 * anew at a flush, a DISCONT buffer, new caps and a new frames, and a new
 * percentile while PLAYING; the window property of both; the error of a
 * history larger than the device. Exits 77 (meson: SKIP) when no CUDA
 * device is usable. */
#include <stdio.h>
#include <string.h>

#include "element-harness.h"
#include "element-pair.h"
#include "frame-compare.h"
#include "padded-frames.h"
#include "test-util.h"

static const char *const formats[] = {
  "GRAY8", "GRAY16_LE", "I420", "NV12", "Y444", "RGBA", "BGRA", "RGBx",
  "BGRx"
};

static GstElement *
temporal_new (const char *backend, guint frames, double percentile,
    const char *output)
{
  GstElement *e = test_element_new ("cudatemporal", backend);

  g_object_set (e, "frames", frames, "percentile", percentile, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "output", output);
  return e;
}

static void
pair_set (ElementPair * pair, const char *name, const GValue * v)
{
  g_object_set_property (G_OBJECT (pair->cpu), name, v);
  g_object_set_property (G_OBJECT (pair->cuda), name, v);
}

static guint
window_of (GstElement * e)
{
  guint w;

  g_object_get (e, "window", &w, NULL);
  return w;
}

/* One random frame through both; the outputs and windows equal */
static void
push_compare (ElementPair * pair, const GstVideoInfo * info, guint64 seed,
    int extra, gboolean discont, const char *ctx)
{
  GstBuffer *in = morph_make_input (info, seed, extra);
  GstBuffer *out_cpu, *out_cuda;
  gchar *what = frame_case_name (ctx, info, extra, "", seed);

  if (discont)
    GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
  element_pair_push (pair, in, &out_cuda, &out_cpu, what);
  fail_unless (morph_frames_equal (out_cuda, out_cpu, info, what),
      "%s: CUDA and CPU outputs differ", what);
  fail_unless_equals_int (window_of (pair->cuda), window_of (pair->cpu));
  gst_buffer_unref (out_cpu);
  gst_buffer_unref (out_cuda);
  gst_buffer_unref (in);
  g_free (what);
}

/* @n frames of @format through a CPU and a CUDA element */
static void
compare (const char *format, int width, int height, guint frames,
    double percentile, const char *output, int n, guint64 seed, int extra)
{
  ElementPair pair;
  GstVideoInfo info;
  gchar *ctx = g_strdup_printf ("frames=%u p=%g %s", frames, percentile,
      output);

  element_pair_init (&pair, temporal_new ("cpu", frames, percentile, output),
      temporal_new ("cuda", frames, percentile, output));
  element_pair_set_caps (&pair, format, width, height, &info);
  for (int t = 0; t < n; t++)
    push_compare (&pair, &info, seed + t, extra, FALSE, ctx);
  fail_unless_equals_int (window_of (pair.cuda), MIN ((guint) n, frames));
  element_pair_clear (&pair);
  g_free (ctx);
}

/* every format, both outputs, the window growing and sliding */
GST_START_TEST (test_formats)
{
  guint64 seed = 1;

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    for (int o = 0; o < 2; o++) {
      compare (formats[f], 67, 41, 5, 50, o ? "difference" : "background",
          8, seed, 0);
      seed += 8;
    }
}

GST_END_TEST;

/* every window size of the plan's choice, percentiles, both depths */
GST_START_TEST (test_windows)
{
  static const guint frames[] = { 1, 2, 3, 4, 7, 9, 16, 25, 31, 32, 33, 64,
    100, 255
  };
  static const double percentiles[] = { 0, 50, 100, 37.5 };
  guint64 seed = 1000;
  int n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    for (guint p = 0; p < G_N_ELEMENTS (percentiles); p++) {
      if (n++ > 0 && !test_sample_keep ()) {    /* sanitizer setups */
        seed += 300;
        continue;
      }
      compare (p % 2 ? "GRAY16_LE" : "GRAY8", 45, 17, frames[i],
          percentiles[p], p == 3 ? "difference" : "background",
          (int) frames[i] + 2, seed, 0);
      seed += 300;
    }
}

GST_END_TEST;

GST_START_TEST (test_sizes_and_strides)
{
  static const struct
  {
    int w, h;
  } sizes[] = { {1, 1}, {2, 3}, {9, 1}, {1, 9}, {640, 480}, {333, 97} };
  guint64 seed = 50000;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (int extra = 0; extra <= 8; extra += 8) {
      compare ("RGBA", sizes[s].w, sizes[s].h, 4, 50, "background", 5,
          seed, extra);
      compare ("I420", sizes[s].w, sizes[s].h, 3, 25, "background", 4,
          seed + 10, extra);
      compare ("NV12", sizes[s].w, sizes[s].h, 9, 75, "difference", 4,
          seed + 20, extra);
      seed += 30;
    }
}

GST_END_TEST;

/* where the history begins anew, and a new percentile while PLAYING */
GST_START_TEST (test_history_restarts)
{
  ElementPair pair;
  GstVideoInfo info;
  GValue v = G_VALUE_INIT;
  guint64 seed = 60000;

  element_pair_init (&pair, temporal_new ("cpu", 6, 50, "background"),
      temporal_new ("cuda", 6, 50, "background"));
  element_pair_set_caps (&pair, "NV12", 96, 54, &info);
  for (int t = 0; t < 8; t++)
    push_compare (&pair, &info, seed++, 0, FALSE, "start");

  /* a flush on both */
  for (int k = 0; k < 2; k++) {
    GstHarness *h = k ? pair.hcuda : pair.hcpu;
    GstSegment seg;

    gst_segment_init (&seg, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
    fail_unless (gst_harness_push_event (h,
            gst_event_new_flush_stop (TRUE)));
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  }
  push_compare (&pair, &info, seed++, 0, FALSE, "after a flush");
  fail_unless_equals_int (window_of (pair.cuda), 1);
  push_compare (&pair, &info, seed++, 0, FALSE, "after a flush");

  push_compare (&pair, &info, seed++, 0, TRUE, "DISCONT");
  fail_unless_equals_int (window_of (pair.cuda), 1);
  for (int t = 0; t < 3; t++)
    push_compare (&pair, &info, seed++, 0, FALSE, "after DISCONT");

  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, 90.0);
  pair_set (&pair, "percentile", &v);
  g_value_unset (&v);
  push_compare (&pair, &info, seed++, 0, FALSE, "new percentile");
  fail_unless_equals_int (window_of (pair.cuda), 5);

  g_value_init (&v, G_TYPE_UINT);
  g_value_set_uint (&v, 40);
  pair_set (&pair, "frames", &v);
  g_value_unset (&v);
  for (int t = 0; t < 42; t++)
    push_compare (&pair, &info, seed++, 0, FALSE, "new frames");

  element_pair_set_caps (&pair, "I420", 51, 37, &info);
  for (int t = 0; t < 3; t++)
    push_compare (&pair, &info, seed++, 0, FALSE, "new caps");
  element_pair_clear (&pair);
}

GST_END_TEST;

/* a history larger than the device: an element error that names the
 * bytes (548 GB here) */
GST_START_TEST (test_history_too_large)
{
  GstElement *e = temporal_new ("cuda", 255, 50, "background");
  gchar *text = test_caps_error (e, "GRAY16_LE", 32768, 32768);

  printf ("the error: %s\n", text);
  fail_unless (strstr (text, "255 frames") != NULL &&
      strstr (text, "device memory") != NULL &&
      strstr (text, " bytes") != NULL,
      "the error does not name the frames and bytes: %s", text);
  g_free (text);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_formats),
  TEST_SUITE_TEST (test_windows),
  TEST_SUITE_TEST (test_sizes_and_strides),
  TEST_SUITE_TEST (test_history_restarts),
  TEST_SUITE_TEST (test_history_too_large),
  {NULL}
};

TEST_GPU_CHECK_MAIN ("cudatemporal-element", suite_tests);
