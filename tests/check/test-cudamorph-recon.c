/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudamorph element tests on the CPU backend (GstHarness, CK_FORK=no), the
 * reconstruction operations: every operation against cm_recon_ref, one
 * independent oracle of connectivity, refused connectivity and clamped
 * dome-height, changes while PLAYING. */
#include "check-helpers.h"
#include "element-harness.h"
#include "frame-compare.h"
#include "padded-frames.h"
#include "test-suite.h"

#define E CM_MORPH_ERODE
#define NEU CM_BORDER_NEUTRAL
#define REP CM_BORDER_REPLICATE
#define CON CM_BORDER_CONSTANT
#define DEF_MASK "010;111;010"

/* Reconstruction operations: op, connectivity, dome-height, and the
 * marker's structuring element (op, shape, width, height, radius, length,
 * angle, mask, iterations, border, border-value; op unused). */
#define RECON_ROW(op, conn, h, ...) {op, conn, h, {E, __VA_ARGS__}}
#define SQ3 CM_SHAPE_RECT, 3, 3, 1, 15, 0, DEF_MASK, 1, NEU, 0
#define DISK2 CM_SHAPE_DISK, 3, 3, 2, 15, 0, DEF_MASK, 1, NEU, 0

static const ReconParams recon_params[] = {
  RECON_ROW (CM_RECON_FILL_HOLES, 8, 10, SQ3),
  RECON_ROW (CM_RECON_CLEAR_BORDER, 8, 10, SQ3),
  RECON_ROW (CM_RECON_OPEN, 8, 10, CM_SHAPE_RECT, 5, 3, 1, 15, 0, DEF_MASK,
      1, NEU, 0),
  RECON_ROW (CM_RECON_CLOSE, 8, 10, CM_SHAPE_DISK, 3, 3, 2, 15, 0, DEF_MASK,
      1, NEU, 0),
  RECON_ROW (CM_RECON_OPEN, 8, 10, CM_SHAPE_LINE, 3, 3, 1, 9, 30, DEF_MASK,
      2, REP, 0),
  RECON_ROW (CM_RECON_CLOSE, 8, 10, CM_SHAPE_CUSTOM, 3, 3, 1, 15, 0,
      "110;011;001", 1, CON, 90),
  RECON_ROW (CM_RECON_HMAX, 8, 40, SQ3),
  RECON_ROW (CM_RECON_HMIN, 8, 40, SQ3),
  RECON_ROW (CM_RECON_HDOME, 8, 25, SQ3),
  RECON_ROW (CM_RECON_HBASIN, 8, 25, SQ3),
  RECON_ROW (CM_RECON_HMAX, 8, 0, SQ3),
  RECON_ROW (CM_RECON_HDOME, 8, 65535, SQ3),
};

/* Every reconstruction operation, 4 and 8 neighbours, on GRAY8 and
 * GRAY16_LE (noise, blobs, a maze), RGBA (each colour channel) and I420
 * (luma), bit for bit against cm_recon_ref called here. */
GST_START_TEST (test_recon_ops)
{
  static const char *const formats[] = {
    "GRAY8", "GRAY16_LE", "RGBA", "I420"
  };
  guint64 seed = 3000;

  for (guint i = 0; i < G_N_ELEMENTS (recon_params); i++) {
    for (int conn = 4; conn <= 8; conn += 4) {
      ReconParams p = recon_params[i];
      GstElement *e;
      GstHarness *h;

      p.connectivity = conn;
      e = morph_element_new ("cpu", NULL);
      recon_params_apply (e, &p);
      h = morph_harness_new (e);

      for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
        gboolean grey = f < 2;
        GstVideoInfo info;
        GstBuffer *in;

        morph_harness_set_caps (h, formats[f], grey ? 41 : 23,
            grey ? 29 : 17, &info);
        in = morph_make_input (&info, seed++, grey ? 0 : 8);
        recon_push_and_check (h, &info, &p, in, "recon noise");
        gst_buffer_unref (in);
        in = morph_make_input_blobs (&info, seed++, 0, 4, 24);
        recon_push_and_check (h, &info, &p, in, "recon blobs");
        gst_buffer_unref (in);
        if (grey) {
          in = morph_make_input_maze (&info, seed++, 200, 30, FALSE);
          recon_push_and_check (h, &info, &p, in, "recon maze");
          gst_buffer_unref (in);
          in = morph_make_input_maze (&info, seed++, 30, 200, TRUE);
          recon_push_and_check (h, &info, &p, in, "recon vertical maze");
          gst_buffer_unref (in);
        }
      }

      gst_harness_teardown (h);
      gst_object_unref (e);
    }
  }
}

GST_END_TEST;

/* The element's connectivity, independently of the core: on a
 * checkerboard of 2x2 squares fill-holes through 4 neighbours raises every
 * dark square that does not touch the frame's edge to the bright level;
 * through 8 neighbours the dark squares meet at their corners, all reach
 * the edge, and the frame comes out unchanged. */
GST_START_TEST (test_recon_connectivity_oracle)
{
  const int w = 22, hgt = 14;

  for (int conn = 4; conn <= 8; conn += 4) {
    GstElement *e = morph_element_new ("cpu", NULL);
    GstHarness *h;
    GstVideoInfo info;
    GstVideoFrame fin;
    GstBuffer *in;
    FrameRun r;
    int changed = 0;

    gst_util_set_object_arg (G_OBJECT (e), "operation", "fill-holes");
    g_object_set (e, "connectivity", conn, NULL);
    h = morph_harness_new (e);
    morph_harness_set_caps (h, "GRAY8", w, hgt, &info);
    in = morph_make_input (&info, 99, 0);
    fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_WRITE));
    for (int y = 0; y < hgt; y++)
      for (int x = 0; x < w; x++)
        morph_frame_set (&fin, 0, x, y, (x / 2 + y / 2) % 2 ? 200 : 50);
    gst_video_frame_unmap (&fin);

    frame_run_push (&r, h, &info, in);
    for (int y = 0; y < hgt; y++) {
      const guint8 *a = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&r.in, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&r.in, 0);
      const guint8 *o = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&r.out, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&r.out, 0);

      for (int x = 0; x < w; x++) {
        /* a 2x2 square touches the edge when one of its pixels does */
        int sx = x / 2 * 2, sy = y / 2 * 2;
        gboolean edge = sx == 0 || sy == 0 || sx + 1 >= w - 1 ||
            sy + 1 >= hgt - 1;
        guint8 want = conn == 4 && a[x] == 50 && !edge ? 200 : a[x];

        if (o[x] != want)
          fail ("connectivity %d: (%d, %d) is %u, expected %u", conn, x, y,
              o[x], want);
        changed += o[x] != a[x];
      }
    }
    /* 4 neighbours: (22/2 - 2) x (14/2 - 2) squares, half of them dark */
    fail_unless_equals_int (changed, conn == 4 ? 4 * (9 * 5 / 2 + 1) : 0);
    frame_run_clear (&r);
    gst_harness_teardown (h);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* connectivity other than 4 or 8 is refused and the old value kept */
GST_START_TEST (test_recon_connectivity_refused)
{
  ReconParams p = RECON_ROW (CM_RECON_CLEAR_BORDER, 4, 10, SQ3);
  GstElement *e = morph_element_new ("cpu", NULL);
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *in;

  g_object_set (e, "connectivity", 4, NULL);
  for (int bad = 5; bad <= 7; bad++) {
    ASSERT_WARNING (g_object_set (e, "connectivity", bad, NULL));
    check_properties_equal (e, "connectivity", 4, NULL);
  }
  test_expect_int_refused (e, "connectivity", 3, 4);
  test_expect_int_refused (e, "connectivity", 9, 4);
  test_expect_int_refused (e, "connectivity", 0, 4);
  test_expect_int_refused (e, "dome-height", 65536, 10);

  /* the element works with the value it kept, also while PLAYING */
  gst_util_set_object_arg (G_OBJECT (e), "operation", "clear-border");
  h = morph_harness_new (e);
  morph_harness_set_caps (h, "GRAY8", 37, 23, &info);
  in = morph_make_input_blobs (&info, 7, 0, 3, 16);
  recon_push_and_check (h, &info, &p, in, "connectivity kept");
  ASSERT_WARNING (g_object_set (e, "connectivity", 6, NULL));
  recon_push_and_check (h, &info, &p, in, "connectivity kept, playing");
  gst_buffer_unref (in);

  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

/* dome-height is clamped to the sample depth: 1000 behaves as 255 on
 * 8-bit formats (not as 1000 mod 256), as 1000 on GRAY16_LE */
GST_START_TEST (test_recon_dome_height_clamp)
{
  static const cm_recon_op ops[] = {
    CM_RECON_HMAX, CM_RECON_HMIN, CM_RECON_HDOME, CM_RECON_HBASIN
  };

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++) {
    ReconParams p = RECON_ROW (ops[i], 8, 1000, SQ3);
    ReconParams p255 = p, pmod = p;
    GstElement *e = morph_element_new ("cpu", NULL);
    GstHarness *h;
    GstVideoInfo info;
    const char *what = recon_op_nick (ops[i]);
    /* on GRAY8 as 255 (and the frame tells 255 from 232), on GRAY16_LE
     * as 1000 (not as 255) */
    const struct
    {
      const char *format;
      guint64 seed;
      const ReconParams *as, *not_as;
    } runs[] = {
      {"GRAY8", 40 + i, &p255, &pmod}, {"GRAY16_LE", 50 + i, &p, &p255},
    };

    p255.dome_height = 255;
    pmod.dome_height = 1000 % 256;
    recon_params_apply (e, &p);
    h = morph_harness_new (e);

    for (guint k = 0; k < G_N_ELEMENTS (runs); k++) {
      GstBuffer *in, *out;

      morph_harness_set_caps (h, runs[k].format, 33, 21, &info);
      in = morph_make_input_blobs (&info, runs[k].seed, 0, 5, 0);
      out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
      fail_unless (out != NULL);
      fail_unless (recon_check_output (in, out, &info, runs[k].as, what),
          "%s dome-height=1000 on %s differs from dome-height=%u", what,
          runs[k].format, runs[k].as->dome_height);
      fail_if (recon_check_output (in, out, &info, runs[k].not_as,
              "(expected to differ)"), "%s dome-height=1000 on %s acts as "
          "dome-height=%u", what, runs[k].format, runs[k].not_as->dome_height);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }

    gst_harness_teardown (h);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* a change to or from a reconstruction operation while PLAYING applies
 * from the next frame on */
GST_START_TEST (test_recon_change_playing)
{
  /* the first step changes only the operation (the rest is the element's
   * defaults), the others set all the reconstruction settings, the last
   * one together with a caps change */
  static const struct
  {
    ReconParams p;
    int blobs;
    const char *what, *format;
  } steps[] = {
    {RECON_ROW (CM_RECON_FILL_HOLES, 8, 10, SQ3), 4,
        "fill-holes while playing"},
    {RECON_ROW (CM_RECON_FILL_HOLES, 4, 10, SQ3), 4,
        "connectivity 4 while playing"},
    {RECON_ROW (CM_RECON_HBASIN, 4, 60, SQ3), 4, "hbasin 60 while playing"},
    {RECON_ROW (CM_RECON_OPEN, 4, 60, DISK2), 4,
        "open-rec disk 2 while playing"},
    {RECON_ROW (CM_RECON_CLOSE, 4, 60, DISK2), 3,
        "close-rec after caps change", "BGRx"},
  };
  MorphRun r;

  morph_run_start (&r);
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
    GstBuffer *in;

    if (i == 0)
      gst_util_set_object_arg (G_OBJECT (r.e), "operation",
          recon_op_nick (steps[i].p.op));
    else
      recon_params_apply (r.e, &steps[i].p);
    if (steps[i].format != NULL)
      morph_harness_set_caps (r.h, steps[i].format, 19, 7, &r.info);
    in = morph_make_input_blobs (&r.info, 2 + i, 0, steps[i].blobs, 20);
    recon_push_and_check (r.h, &r.info, &steps[i].p, in, steps[i].what);
    gst_buffer_unref (in);
  }

  /* and back to morphology (the marker's disk of radius 2 kept) */
  r.m.shape = CM_SHAPE_DISK;
  r.m.radius = 2;
  morph_run_finish_dilate (&r, "dilate after close-rec");
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_recon_ops),
  TEST_SUITE_TEST (test_recon_connectivity_oracle),
  TEST_SUITE_TEST (test_recon_connectivity_refused),
  TEST_SUITE_TEST (test_recon_dome_height_clamp),
  TEST_SUITE_TEST (test_recon_change_playing),
  {NULL}
};

TEST_SUITE_MAIN (cudamorph_recon, "cudamorph-recon", 300, suite_tests);

