/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudamedian element tests on the CPU backend (GstHarness, CK_FORK=no):
 * every template format at odd sizes (1x1 included) against the core's
 * CPU reference, per channel and in luma mode, rectangular windows,
 * percentiles 0 and 100 against erosion and dilation by the rectangle, no
 * new colours in luma mode, property changes while PLAYING and refused
 * property values. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check-helpers.h"
#include "element-harness.h"
#include "frame-compare.h"
#include "median-harness.h"
#include "padded-frames.h"
#include "test-util.h"
#include "test-suite.h"

#define REP CM_BORDER_REPLICATE
#define REF CM_BORDER_REFLECT
#define MIR CM_BORDER_MIRROR
#define CON CM_BORDER_CONSTANT
#define NEU CM_BORDER_NEUTRAL

static const MedianParams format_params[] = {
  {3, 3, 50, REP, 0, TRUE},
  {5, 5, 50, REF, 0, FALSE},
  {1, 1, 50, REP, 0, TRUE},
  {7, 3, 25, MIR, 0, TRUE},
  {3, 5, 80, CON, 77, FALSE},
  {9, 9, 50, NEU, 0, TRUE},
  {5, 1, 50, CON, 300, TRUE},
};

/* every template format at odd sizes, default and padded strides, both
 * colour modes */
GST_START_TEST (test_formats_odd_sizes)
{
  guint64 seed = 1;

  for (int f = 0; f < MORPH_N_FORMATS; f++) {
    for (guint s = 0; s < CHECK_N_ODD_SIZES; s++) {
      for (int extra = 0; extra <= 8; extra += 8) {
        MedianParams p =
            format_params[(f + s + extra) % G_N_ELEMENTS (format_params)];
        GstElement *e;
        GstHarness *h;
        GstVideoInfo info;

        for (int mode = 0; mode < 2; mode++) {
          p.luma = mode == 0;
          e = median_element_new ("cpu", &p);
          h = morph_harness_new (e);
          morph_harness_set_caps (h, morph_format (f), check_odd_sizes[s].width,
              check_odd_sizes[s].height, &info);
          /* two frames: the per-caps buffers are reused */
          median_push_and_check (h, &info, &p, seed++, extra, "formats");
          median_push_and_check (h, &info, &p, seed++, extra, "formats");
          gst_harness_teardown (h);
          gst_object_unref (e);
        }
      }
    }
  }
}

GST_END_TEST;

/* rectangular windows, windows larger than the frame, percentiles */
GST_START_TEST (test_windows)
{
  static const MedianParams params[] = {
    {1, 7, 50, REP, 0, FALSE},
    {7, 1, 50, REF, 0, FALSE},
    {11, 3, 50, MIR, 0, FALSE},
    {3, 15, 10, CON, 1000, FALSE},
    {21, 21, 50, REP, 0, FALSE},
    {61, 41, 70, REF, 0, FALSE},
    {5, 7, 33.3, MIR, 0, TRUE},
    {15, 3, 50, CON, 128, TRUE},
  };
  static const char *const formats[] = { "GRAY8", "GRAY16_LE", "BGRA" };

  check_rows_on_formats (CHECK_MEDIAN, params, G_N_ELEMENTS (params),
      formats, G_N_ELEMENTS (formats), 33, 19, 500, "windows");
}

GST_END_TEST;

/* percentile 0 = erosion and 100 = dilation by the rectangle (neutral
 * behaves as replicate for a median) */
GST_START_TEST (test_percentile_extremes)
{
  static const cm_border_mode borders[] = { NEU, REP, REF, MIR, CON };
  static const char *const formats[] = { "GRAY8", "GRAY16_LE", "I420" };
  guint64 seed = 900;

  for (guint b = 0; b < G_N_ELEMENTS (borders); b++) {
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
      for (int extreme = 0; extreme <= 100; extreme += 100) {
        MedianParams p = { 5, 3, extreme, borders[b], 99, FALSE };
        GstElement *e = median_element_new ("cpu", &p);
        GstHarness *h = morph_harness_new (e);
        GstVideoInfo info;
        FrameRun r;
        cm_depth depth;
        cm_image src, got, exp;
        cm_se *se = NULL;
        int w = 23, ht = 17;

        morph_harness_set_caps (h, formats[f], w, ht, &info);
        depth = GST_VIDEO_INFO_COMP_DEPTH (&info, 0) > 8 ?
            CM_DEPTH_16 : CM_DEPTH_8;
        frame_run_push (&r, h, &info, morph_make_input (&info, seed++, 0));
        src = (cm_image) {
        GST_VIDEO_FRAME_PLANE_DATA (&r.in, 0),
              (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&r.in, 0), w, ht, depth};
        got = (cm_image) {
        GST_VIDEO_FRAME_PLANE_DATA (&r.out, 0),
              (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&r.out, 0), w, ht, depth};
        exp = test_image_new (w, ht, depth, 0);
        fail_unless (cm_se_new_rect (&se, 5, 3) == CM_OK);
        fail_unless (cm_morph_ref_rank_extreme (se, extreme == 0,
                borders[b] == NEU ? REP : borders[b], 99, &src,
                &exp) == CM_OK);
        fail_unless (test_image_equal (&got, &exp, "percentile extreme"),
            "%s percentile %d border %s differs from the %s", formats[f],
            extreme, morph_border_nick (borders[b]),
            extreme == 0 ? "erosion" : "dilation");
        cm_se_free (se);
        test_image_free (&exp);
        frame_run_clear (&r);
        gst_harness_teardown (h);
        gst_object_unref (e);
      }
    }
  }
}

GST_END_TEST;

/* luma mode: every output colour (R, G, B) is in the input window */
GST_START_TEST (test_luma_no_new_colours)
{
  static const char *const formats[] = { "RGBA", "BGRx" };
  static const double percentiles[] = { 0, 30, 50, 100 };
  guint64 seed = 1300;

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (guint q = 0; q < G_N_ELEMENTS (percentiles); q++) {
      MedianParams p = { 5, 3, percentiles[q], MIR, 0, TRUE };
      GstElement *e = median_element_new ("cpu", &p);
      GstHarness *h = morph_harness_new (e);
      GstVideoInfo info;
      FrameRun r;
      int w = 19, ht = 13, ps, ri, gi, bi;
      const guint8 *id, *od;
      gsize is, os;

      morph_harness_set_caps (h, formats[f], w, ht, &info);
      frame_run_push (&r, h, &info, morph_make_input (&info, seed++, 0));
      ps = GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);
      ri = GST_VIDEO_INFO_COMP_POFFSET (&info, 0);
      gi = GST_VIDEO_INFO_COMP_POFFSET (&info, 1);
      bi = GST_VIDEO_INFO_COMP_POFFSET (&info, 2);
      id = GST_VIDEO_FRAME_PLANE_DATA (&r.in, 0);
      od = GST_VIDEO_FRAME_PLANE_DATA (&r.out, 0);
      is = GST_VIDEO_FRAME_PLANE_STRIDE (&r.in, 0);
      os = GST_VIDEO_FRAME_PLANE_STRIDE (&r.out, 0);
      for (int y = 0; y < ht; y++) {
        for (int x = 0; x < w; x++) {
          const guint8 *o = od + y * os + x * ps;
          gboolean found = FALSE;

          for (int dy = -1; dy <= 1 && !found; dy++) {
            for (int dx = -2; dx <= 2 && !found; dx++) {
              int sy = cm_border_map (MIR, y + dy, ht);
              int sx = cm_border_map (MIR, x + dx, w);
              const guint8 *s = id + sy * is + sx * ps;

              found = s[ri] == o[ri] && s[gi] == o[gi] && s[bi] == o[bi];
            }
          }
          fail_unless (found, "%s p=%g: colour (%u,%u,%u) at (%d,%d) is "
              "not in its window", formats[f], percentiles[q], o[ri], o[gi],
              o[bi], x, y);
        }
      }
      frame_run_clear (&r);
      gst_harness_teardown (h);
      gst_object_unref (e);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_property_change_playing)
{
  MedianParams p = { 3, 3, 50, REP, 0, TRUE };
  GstElement *e = median_element_new ("cpu", NULL);
  GstHarness *h = morph_harness_new (e);
  GstVideoInfo info;

  morph_harness_set_caps (h, "RGBA", 37, 23, &info);
  check_element_playing (e);
  median_push_and_check (h, &info, &p, 1, 0, "defaults");

  p.width = p.height = 7;
  g_object_set (e, "size", 7, NULL);
  check_properties_equal (e, "width", 7, "height", 7, NULL);
  median_push_and_check (h, &info, &p, 2, 0, "size 7");

  p.luma = FALSE;
  gst_util_set_object_arg (G_OBJECT (e), "color-mode", "channels");
  median_push_and_check (h, &info, &p, 3, 0, "channels");

  /* all of them at once */
  p = (MedianParams) { 9, 3, 75, CON, 200, TRUE };
  median_params_apply (e, &p);
  median_push_and_check (h, &info, &p, 4, 0, "9x3 p75 constant luma");

  gst_util_set_object_arg (G_OBJECT (e), "algorithm", "histogram");
  median_push_and_check (h, &info, &p, 5, 0, "algorithm histogram");

  /* with a caps change */
  p.percentile = 0;
  g_object_set (e, "percentile", 0.0, NULL);
  morph_harness_set_caps (h, "NV12", 19, 7, &info);
  median_push_and_check (h, &info, &p, 6, 0, "after caps change");

  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

/* even sides, NaN and out-of-range values leave the old value */
GST_START_TEST (test_invalid_values)
{
  MedianParams p = { 5, 3, 40, REP, 0, TRUE };
  GstElement *e = median_element_new ("cpu", NULL);
  GstHarness *h;
  GstVideoInfo info;

  g_object_set (e, "size", 5, "height", 3, "percentile", 40.0, NULL);
  ASSERT_WARNING (g_object_set (e, "size", 4, NULL));
  ASSERT_WARNING (g_object_set (e, "width", 6, NULL));
  ASSERT_WARNING (g_object_set (e, "height", 2, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "size", 0, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "width", CM_MEDIAN_MAX_WINDOW + 2,
          NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "height", -1, NULL));
  check_properties_equal (e, "width", 5, "height", 3, NULL);

  ASSERT_OUT_OF_RANGE (g_object_set (e, "percentile", (gdouble) NAN, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "percentile", 100.5, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "percentile", -1.0, NULL));
  check_properties_equal (e, "percentile", 40.0, NULL);

  ASSERT_OUT_OF_RANGE (g_object_set (e, "border-value", 65536, NULL));
  check_properties_equal (e, "border-value", 0u, NULL);

  /* the element still works with the values it kept */
  h = morph_harness_new (e);
  morph_harness_set_caps (h, "BGRx", 21, 11, &info);
  median_push_and_check (h, &info, &p, 77, 0, "after refused values");
  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

/* defaults and documentation of the properties */
GST_START_TEST (test_inspect)
{
  static const char *const props[] = { "size", "width", "height",
    "percentile", "border", "border-value", "color-mode", "algorithm",
    "backend", "cuda-device-id"
  };
  GstElement *e = median_element_new ("cpu", NULL);

  check_properties_documented (e, props, G_N_ELEMENTS (props), 20);
  check_properties_equal (e, "size", 3, "percentile", 50.0, "border", REP,
      "color-mode", 0, NULL);
  gst_object_unref (e);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_inspect),
  TEST_SUITE_TEST (test_formats_odd_sizes),
  TEST_SUITE_TEST (test_windows),
  TEST_SUITE_TEST (test_percentile_extremes),
  TEST_SUITE_TEST (test_luma_no_new_colours),
  TEST_SUITE_TEST (test_property_change_playing),
  TEST_SUITE_TEST (test_invalid_values),
  {NULL}
};

TEST_SUITE_MAIN (cudamedian, "cudamedian", 300, suite_tests);
