/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudamorph element tests on the CPU backend (GstHarness, CK_FORK=no), the
 * area operations: area-open and area-close against cm_attr_ref on small
 * frames (specks, noise, blobs, hills; 4 and 8 neighbours; 8- and 16-bit,
 * YUV with its chroma untouched, each colour channel of RGBA), one
 * independent oracle of connectivity and of min-area's bound, min-area=0
 * refused, roi, changes while PLAYING. */
#include <string.h>

#include "check-helpers.h"
#include "element-harness.h"
#include "frame-compare.h"
#include "padded-frames.h"
#include "test-suite.h"

/* the frames of test_area_ops, each with the min-area it is tried at: 1
 * keeps everything, more pixels than the frame removes everything */
static const struct
{
  attr_frame_kind kind;
  guint min_area;
} area_frames[] = {
  {ATTR_FRAME_SPECKS, 12},
  {ATTR_FRAME_NOISE, 3},
  {ATTR_FRAME_BLOBS, 40},
  {ATTR_FRAME_HILLS, 64},
  {ATTR_FRAME_LEVELS, 1},
  {ATTR_FRAME_SPECKS, 5000},
};

/* Both operations through 4 and 8 neighbours on GRAY8, GRAY16_LE, I420
 * (luma) and RGBA (each colour channel), bit for bit against cm_attr_ref
 * called here; min-area changed between frames, a padded stride, and
 * frames of one row, one column and one pixel. */
GST_START_TEST (test_area_ops)
{
  static const char *const formats[] = {
    "GRAY8", "GRAY16_LE", "I420", "RGBA"
  };
  static const struct
  {
    int width, height;
  } odd[] = { {1, 1}, {17, 1}, {1, 13} };
  guint64 seed = 7000;

  for (int op = CM_ATTR_OPEN; op <= CM_ATTR_CLOSE; op++) {
    for (int conn = 4; conn <= 8; conn += 4) {
      AreaParams p = { (cm_attr_op) op, conn, 64 };
      GstElement *e = morph_element_new ("cpu", NULL);
      GstHarness *h;

      area_params_apply (e, &p);
      h = morph_harness_new (e);
      for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
        gboolean grey = f < 2;
        GstVideoInfo info;

        morph_harness_set_caps (h, formats[f], grey ? 41 : 23,
            grey ? 29 : 17, &info);
        for (guint k = 0; k < G_N_ELEMENTS (area_frames); k++) {
          GstBuffer *in = morph_make_input_attr (&info, seed++,
              k == 2 ? 8 : 0, area_frames[k].kind);
          gchar *what = g_strdup_printf ("area %s", attr_frame_name
              (area_frames[k].kind));

          p.min_area = area_frames[k].min_area;
          g_object_set (e, "min-area", p.min_area, NULL);
          area_push_and_check (h, &info, &p, in, what);
          gst_buffer_unref (in);
          g_free (what);
        }
      }
      for (guint s = 0; s < G_N_ELEMENTS (odd); s++) {
        GstVideoInfo info;
        GstBuffer *in;

        morph_harness_set_caps (h, s == 1 ? "GRAY16_LE" : "GRAY8",
            odd[s].width, odd[s].height, &info);
        in = morph_make_input_attr (&info, seed++, 0, ATTR_FRAME_SPECKS);
        p.min_area = 3;
        g_object_set (e, "min-area", p.min_area, NULL);
        area_push_and_check (h, &info, &p, in, "area odd size");
        gst_buffer_unref (in);
      }
      gst_harness_teardown (h);
      gst_object_unref (e);
    }
  }
}

GST_END_TEST;

#define BG 10

/* A frame of @info (GRAY8) at BG with a diagonal of 6 single pixels at
 * 200 (one structure through 8 neighbours, six through 4) and a row of 6
 * pixels at 150 (one structure either way); for area-close the same
 * inverted (v -> 255 - v). */
static GstBuffer *
oracle_frame (const GstVideoInfo * info, gboolean dark)
{
  GstBuffer *in = morph_make_input (info, 5, 0);
  GstVideoFrame f;

  fail_unless (gst_video_frame_map (&f, (GstVideoInfo *) info, in,
          GST_MAP_WRITE));
  for (int y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++)
    for (int x = 0; x < GST_VIDEO_INFO_WIDTH (info); x++) {
      guint v = x == y && x >= 2 && x < 8 ? 200 : y == 10 && x >= 3 &&
          x < 9 ? 150 : BG;

      morph_frame_set (&f, 0, x, y, dark ? 255 - v : v);
    }
  gst_video_frame_unmap (&f);
  return in;
}

/* The element's connectivity and min-area, independently of the core: a
 * structure of 6 pixels stays at min-area=6 and goes at 7, the diagonal
 * is one structure through 8 neighbours (the default) and six through
 * 4. */
GST_START_TEST (test_area_connectivity_oracle)
{
  static const struct
  {
    int connectivity;           /* 0: the default */
    guint min_area;
    gboolean diagonal_kept, row_kept;
  } cases[] = {
    {0, 6, TRUE, TRUE}, {8, 7, FALSE, FALSE}, {4, 6, FALSE, TRUE},
    {4, 1, TRUE, TRUE}, {4, 2, FALSE, TRUE},
  };

  for (int op = CM_ATTR_OPEN; op <= CM_ATTR_CLOSE; op++) {
    for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
      GstElement *e = morph_element_new ("cpu", NULL);
      gboolean dark = op == CM_ATTR_CLOSE;
      GstHarness *h;
      GstVideoInfo info;
      FrameRun r;
      gint conn;

      gst_util_set_object_arg (G_OBJECT (e), "operation",
          area_op_nick ((cm_attr_op) op));
      g_object_set (e, "min-area", cases[c].min_area, NULL);
      if (cases[c].connectivity != 0)
        g_object_set (e, "connectivity", cases[c].connectivity, NULL);
      g_object_get (e, "connectivity", &conn, NULL);
      fail_unless_equals_int (conn, cases[c].connectivity ?
          cases[c].connectivity : 8);
      h = morph_harness_new (e);
      morph_harness_set_caps (h, "GRAY8", 14, 12, &info);
      frame_run_push (&r, h, &info, oracle_frame (&info, dark));

      for (int y = 0; y < 12; y++) {
        const guint8 *a = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&r.in, 0) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&r.in, 0);
        const guint8 *o = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&r.out, 0) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&r.out, 0);

        for (int x = 0; x < 14; x++) {
          gboolean diagonal = x == y && x >= 2 && x < 8;
          gboolean row = y == 10 && x >= 3 && x < 9;
          gboolean kept = diagonal ? cases[c].diagonal_kept :
              row ? cases[c].row_kept : TRUE;
          guint8 want = kept ? a[x] : dark ? 255 - BG : BG;

          if (o[x] != want)
            fail ("%s connectivity %d min-area %u: (%d, %d) is %u, "
                "expected %u", area_op_nick ((cm_attr_op) op), conn,
                cases[c].min_area, x, y, o[x], want);
        }
      }
      frame_run_clear (&r);
      gst_harness_teardown (h);
      gst_object_unref (e);
    }
  }
}

GST_END_TEST;

/* The next problem on @bus is a WARNING that names min-area. */
static void
expect_min_area_warning (GstBus * bus)
{
  GstMessage *msg = test_bus_pop_filtered (bus, GST_MESSAGE_WARNING |
      GST_MESSAGE_ERROR);
  GError *err = NULL;

  fail_unless (msg != NULL, "no warning on the bus");
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING);
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "min-area") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
}

/* min-area=0 is refused with a warning on the bus, the previous value
 * kept, before and while PLAYING; the upper end is the largest uint */
GST_START_TEST (test_area_min_area_refused)
{
  AreaParams p = { CM_ATTR_CLOSE, 8, 12 };
  GstElement *e = morph_element_new ("cpu", NULL);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *in;

  gst_element_set_bus (e, bus);
  area_params_apply (e, &p);
  ASSERT_WARNING (g_object_set (e, "min-area", 0, NULL));
  check_properties_equal (e, "min-area", 12, NULL);
  expect_min_area_warning (bus);

  h = morph_harness_new (e);
  morph_harness_set_caps (h, "GRAY16_LE", 37, 23, &info);
  in = morph_make_input_attr (&info, 8, 0, ATTR_FRAME_SPECKS);
  area_push_and_check (h, &info, &p, in, "min-area kept");
  ASSERT_WARNING (g_object_set (e, "min-area", 0, NULL));
  check_properties_equal (e, "min-area", 12, NULL);
  expect_min_area_warning (bus);
  area_push_and_check (h, &info, &p, in, "min-area kept, playing");
  fail_unless_equals_int (test_bus_count_problems (bus, GST_MESSAGE_WARNING
          | GST_MESSAGE_ERROR), 0);

  p.min_area = G_MAXUINT;
  g_object_set (e, "min-area", p.min_area, NULL);
  area_push_and_check (h, &info, &p, in, "min-area G_MAXUINT");
  gst_buffer_unref (in);

  test_element_teardown (h, e, bus);
}

GST_END_TEST;

/* Plane 0 of @got inside @r equals the reference on that rectangle of
 * @in as a frame of its own; every other byte (chroma included) equals
 * @in's. */
static void
check_area_roi (GstVideoFrame * in, GstVideoFrame * got,
    const AreaParams * p, const GstVideoRectangle * r, const char *what)
{
  cm_depth depth = GST_VIDEO_FRAME_COMP_DEPTH (in, 0) > 8 ? CM_DEPTH_16 :
      CM_DEPTH_8;
  gsize px = GST_VIDEO_FRAME_COMP_PSTRIDE (in, 0);
  gsize in_stride = GST_VIDEO_FRAME_PLANE_STRIDE (in, 0);
  gsize out_stride = GST_VIDEO_FRAME_PLANE_STRIDE (got, 0);
  guint8 *in0 = GST_VIDEO_FRAME_PLANE_DATA (in, 0);
  guint8 *out0 = GST_VIDEO_FRAME_PLANE_DATA (got, 0);
  cm_image src = { in0 + r->y * in_stride + r->x * px, in_stride, r->w,
    r->h, depth
  };
  cm_image region = { out0 + r->y * out_stride + r->x * px, out_stride,
    r->w, r->h, depth
  };
  cm_image exp = test_image_new (r->w, r->h, depth, 0);
  gchar *label = g_strdup_printf ("%s: the region", what);

  fail_unless (area_plane_ref (p, &src, &exp) == CM_OK);
  fail_unless (test_image_equal (&region, &exp, label), "%s differs from "
      "the reference", label);
  for (int y = 0; y < GST_VIDEO_FRAME_HEIGHT (in); y++)
    for (gsize b = 0; b < GST_VIDEO_FRAME_WIDTH (in) * px; b++) {
      gboolean inside = y >= r->y && y < r->y + r->h &&
          b >= r->x * px && b < (r->x + r->w) * px;

      if (!inside && out0[y * out_stride + b] != in0[y * in_stride + b])
        fail ("%s: row %d byte %" G_GSIZE_FORMAT " outside the region "
            "changed", what, y, b);
    }
  g_free (label);
  fail_unless (frame_planes_equal (got, in, 1, what), "%s: chroma changed",
      what);
  test_image_free (&exp);
}

/* roi: the region filtered as a frame of its own (its structures end at
 * its edges), the rest unchanged; a region partly outside is clipped */
GST_START_TEST (test_area_roi)
{
  static const struct
  {
    const char *format;
    AreaParams p;
    GstVideoRectangle roi, clipped;
  } cases[] = {
    {"GRAY8", {CM_ATTR_OPEN, 8, 10}, {6, 4, 20, 14}, {6, 4, 20, 14}},
    {"GRAY16_LE", {CM_ATTR_CLOSE, 4, 25}, {30, 20, 40, 40},
        {30, 20, 18, 16}},
    {"I420", {CM_ATTR_OPEN, 4, 7}, {0, 8, 48, 10}, {0, 8, 48, 10}},
    {"NV12", {CM_ATTR_CLOSE, 8, 40}, {-4, -2, 20, 12}, {0, 0, 16, 10}},
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    const GstVideoRectangle *r = &cases[c].roi;
    GstElement *e = morph_element_new ("cpu", NULL);
    gchar *roi = g_strdup_printf ("<%d,%d,%d,%d>", r->x, r->y, r->w, r->h);
    gchar *what = g_strdup_printf ("%s roi=%s", cases[c].format, roi);
    GstHarness *h;
    GstVideoInfo info;
    FrameRun run;

    area_params_apply (e, &cases[c].p);
    gst_util_set_object_arg (G_OBJECT (e), "roi", roi);
    h = morph_harness_new (e);
    morph_harness_set_caps (h, cases[c].format, 48, 36, &info);
    frame_run_push (&run, h, &info, morph_make_input_attr (&info, 60 + c, 0,
            c % 2 ? ATTR_FRAME_NOISE : ATTR_FRAME_SPECKS));
    check_area_roi (&run.in, &run.out, &cases[c].p, &cases[c].clipped, what);
    frame_run_clear (&run);
    gst_harness_teardown (h);
    gst_object_unref (e);
    g_free (what);
    g_free (roi);
  }
}

GST_END_TEST;

/* to and from the area operations while PLAYING: each change applies
 * from the next frame on */
GST_START_TEST (test_area_change_playing)
{
  static const struct
  {
    AreaParams p;
    const char *what, *format;
  } steps[] = {
    {{CM_ATTR_OPEN, 8, 64}, "area-open, the defaults"},
    {{CM_ATTR_OPEN, 8, 10}, "min-area 10 while playing"},
    {{CM_ATTR_OPEN, 4, 10}, "connectivity 4 while playing"},
    {{CM_ATTR_CLOSE, 4, 10}, "area-close while playing"},
    {{CM_ATTR_CLOSE, 4, 30}, "min-area 30 after a caps change", "NV12"},
  };
  MorphRun r;

  morph_run_start (&r);
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
    GstBuffer *in;

    if (i == 0)
      gst_util_set_object_arg (G_OBJECT (r.e), "operation", "area-open");
    else
      area_params_apply (r.e, &steps[i].p);
    if (steps[i].format != NULL)
      morph_harness_set_caps (r.h, steps[i].format, 19, 7, &r.info);
    in = morph_make_input_attr (&r.info, 20 + i, 0, ATTR_FRAME_BLOBS);
    area_push_and_check (r.h, &r.info, &steps[i].p, in, steps[i].what);
    gst_buffer_unref (in);
  }

  /* and back to morphology */
  morph_run_finish_dilate (&r, "dilate after area-close");
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_area_ops),
  TEST_SUITE_TEST (test_area_connectivity_oracle),
  TEST_SUITE_TEST (test_area_min_area_refused),
  TEST_SUITE_TEST (test_area_roi),
  TEST_SUITE_TEST (test_area_change_playing),
  {NULL}
};

TEST_SUITE_MAIN (cudamorph_area, "cudamorph-area", 300, suite_tests);
