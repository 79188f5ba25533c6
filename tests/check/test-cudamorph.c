/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudamorph element tests on the CPU backend (GstHarness, CK_FORK=no):
 * every template format at odd sizes and padded strides against the core's
 * CPU reference, one independent brute-force oracle, operations, shapes and
 * borders, the reconstruction operations against cm_recon_ref and one
 * independent oracle of connectivity, caps and property changes while
 * PLAYING, refused property values, the backend choice (auto -> one bus
 * warning, cuda -> error without a device) and the documentation of every
 * property. */
#include <math.h>
#include <string.h>

#include "cudamorph-harness.h"
#include "device.h"

#define E CM_MORPH_ERODE
#define D CM_MORPH_DILATE
#define O CM_MORPH_OPEN
#define C CM_MORPH_CLOSE
#define TH CM_MORPH_TOPHAT
#define BH CM_MORPH_BLACKHAT
#define G CM_MORPH_GRADIENT

#define NEU CM_BORDER_NEUTRAL
#define REP CM_BORDER_REPLICATE
#define REF CM_BORDER_REFLECT
#define MIR CM_BORDER_MIRROR
#define CON CM_BORDER_CONSTANT

#define DEF_MASK "010;111;010"

/* One row: op, shape, width, height, radius, length, angle, mask,
 * iterations, border, border-value. */
static const MorphParams format_params[] = {
  {O, CM_SHAPE_RECT, 3, 5, 1, 15, 0, DEF_MASK, 1, NEU, 0},
  {D, CM_SHAPE_DISK, 3, 3, 2, 15, 0, DEF_MASK, 1, REP, 0},
  {G, CM_SHAPE_LINE, 3, 3, 1, 7, 30, DEF_MASK, 1, MIR, 0},
  {C, CM_SHAPE_CUSTOM, 3, 3, 1, 15, 0, "110;011;001", 2, CON, 77},
  {TH, CM_SHAPE_CROSS, 5, 3, 1, 15, 0, DEF_MASK, 1, REF, 0},
};

static const struct
{
  int width, height;
} odd_sizes[] = {
  {37, 23}, {1, 1}, {1, 9}, {9, 1}, {2, 3},
};

/* pushes one random frame of @info through @h and checks it */
static void
push_and_check (GstHarness * h, const GstVideoInfo * info,
    const MorphParams * p, guint64 seed, int extra_stride, const char *ctx)
{
  GstBuffer *in = morph_make_input (info, seed, extra_stride);
  GstBuffer *out;
  gchar *desc = morph_params_describe (p);
  gchar *what = g_strdup_printf ("%s %s %dx%d%s, %s, seed %" G_GUINT64_FORMAT,
      ctx, GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), extra_stride ? " padded" : "", desc,
      seed);

  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL, "%s: no output buffer", what);
  fail_unless (morph_check_output (in, out, info, p, what),
      "%s: output differs from the reference", what);

  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (what);
  g_free (desc);
}

/* every template format at odd sizes, default and padded strides */
GST_START_TEST (test_formats_odd_sizes)
{
  guint64 seed = 1;

  for (int f = 0; f < MORPH_N_FORMATS; f++) {
    for (guint s = 0; s < G_N_ELEMENTS (odd_sizes); s++) {
      for (int extra = 0; extra <= 8; extra += 8) {
        const MorphParams *p =
            &format_params[(f + s) % G_N_ELEMENTS (format_params)];
        GstElement *e = morph_element_new ("cpu", p);
        GstHarness *h = morph_harness_new (e);
        GstVideoInfo info;

        morph_harness_set_caps (h, morph_format (f), odd_sizes[s].width,
            odd_sizes[s].height, &info);
        /* two frames: the per-caps buffers are reused */
        push_and_check (h, &info, p, seed++, extra, "formats");
        push_and_check (h, &info, p, seed++, extra, "formats");

        gst_harness_teardown (h);
        gst_object_unref (e);
      }
    }
  }
}

GST_END_TEST;

static const MorphParams op_params[] = {
  /* every operation */
  {E, CM_SHAPE_RECT, 3, 3, 1, 15, 0, DEF_MASK, 1, NEU, 0},
  {D, CM_SHAPE_RECT, 3, 3, 1, 15, 0, DEF_MASK, 1, NEU, 0},
  {O, CM_SHAPE_RECT, 5, 5, 1, 15, 0, DEF_MASK, 1, NEU, 0},
  {C, CM_SHAPE_RECT, 5, 5, 1, 15, 0, DEF_MASK, 1, NEU, 0},
  {TH, CM_SHAPE_DISK, 3, 3, 3, 15, 0, DEF_MASK, 1, NEU, 0},
  {BH, CM_SHAPE_DISK, 3, 3, 3, 15, 0, DEF_MASK, 1, NEU, 0},
  {G, CM_SHAPE_RECT, 3, 3, 1, 15, 0, DEF_MASK, 1, NEU, 0},
  /* every shape, even and asymmetric sizes */
  {E, CM_SHAPE_RECT, 4, 2, 1, 15, 0, DEF_MASK, 1, NEU, 0},
  {D, CM_SHAPE_RECT, 1, 7, 1, 15, 0, DEF_MASK, 1, NEU, 0},
  {E, CM_SHAPE_CROSS, 7, 5, 1, 15, 0, DEF_MASK, 1, NEU, 0},
  {D, CM_SHAPE_DIAMOND, 3, 3, 3, 15, 0, DEF_MASK, 1, NEU, 0},
  {E, CM_SHAPE_DISK, 3, 3, 5, 15, 0, DEF_MASK, 1, NEU, 0},
  {E, CM_SHAPE_DISK, 3, 3, 0, 15, 0, DEF_MASK, 1, NEU, 0},
  {O, CM_SHAPE_OCTAGON, 3, 3, 4, 15, 0, DEF_MASK, 1, NEU, 0},
  {E, CM_SHAPE_LINE, 3, 3, 1, 9, 0, DEF_MASK, 1, NEU, 0},
  {D, CM_SHAPE_LINE, 3, 3, 1, 9, 45, DEF_MASK, 1, NEU, 0},
  {E, CM_SHAPE_LINE, 3, 3, 1, 8, 90, DEF_MASK, 1, NEU, 0},
  {D, CM_SHAPE_LINE, 3, 3, 1, 9, 135, DEF_MASK, 1, NEU, 0},
  {O, CM_SHAPE_LINE, 3, 3, 1, 21, 70, DEF_MASK, 1, NEU, 0},
  {C, CM_SHAPE_LINE, 3, 3, 1, 12, -20, DEF_MASK, 1, NEU, 0},
  {E, CM_SHAPE_LINE, 3, 3, 1, 11, 200.5, DEF_MASK, 1, NEU, 0},
  {D, CM_SHAPE_CUSTOM, 3, 3, 1, 15, 0, "100;010;011", 1, NEU, 0},
  {E, CM_SHAPE_CUSTOM, 3, 3, 1, 15, 0, "1 1 0 1", 1, NEU, 0},
  /* borders and iterations */
  {E, CM_SHAPE_RECT, 5, 3, 1, 15, 0, DEF_MASK, 1, REP, 0},
  {D, CM_SHAPE_DISK, 3, 3, 2, 15, 0, DEF_MASK, 1, REF, 0},
  {G, CM_SHAPE_CROSS, 5, 5, 1, 15, 0, DEF_MASK, 1, MIR, 0},
  {E, CM_SHAPE_RECT, 3, 3, 1, 15, 0, DEF_MASK, 1, CON, 40},
  {D, CM_SHAPE_RECT, 3, 3, 1, 15, 0, DEF_MASK, 1, CON, 200},
  {O, CM_SHAPE_DIAMOND, 3, 3, 2, 15, 0, DEF_MASK, 3, CON, 1000},
  {C, CM_SHAPE_LINE, 3, 3, 1, 5, 60, DEF_MASK, 2, MIR, 0},
  {TH, CM_SHAPE_RECT, 7, 7, 1, 15, 0, DEF_MASK, 2, REP, 0},
  {BH, CM_SHAPE_OCTAGON, 3, 3, 2, 15, 0, DEF_MASK, 1, REF, 0},
  /* SE larger than the frame */
  {E, CM_SHAPE_RECT, 101, 61, 1, 15, 0, DEF_MASK, 1, REF, 0},
  {D, CM_SHAPE_LINE, 3, 3, 1, 99, 10, DEF_MASK, 1, MIR, 0},
};

/* operations, shapes, borders and iterations on GRAY8 and GRAY16_LE */
GST_START_TEST (test_ops_shapes_borders)
{
  static const char *const formats[] = { "GRAY8", "GRAY16_LE" };
  guint64 seed = 1000;

  for (guint i = 0; i < G_N_ELEMENTS (op_params); i++) {
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
      GstElement *e = morph_element_new ("cpu", &op_params[i]);
      GstHarness *h = morph_harness_new (e);
      GstVideoInfo info;

      morph_harness_set_caps (h, formats[f], 41, 29, &info);
      push_and_check (h, &info, &op_params[i], seed++, 0, "ops");

      gst_harness_teardown (h);
      gst_object_unref (e);
    }
  }
}

GST_END_TEST;

/* Brute force written here, independent of the core: erosion is the
 * minimum of f(x + b), dilation the maximum of f(x - b), pixels outside the
 * frame ignored (border=neutral). */
static guint8
brute_force (const guint8 * f, int w, int h, int x, int y,
    const char *const *mask, int mw, int mh, gboolean erode)
{
  int ox = mw / 2, oy = mh / 2;
  int v = erode ? 255 : 0;

  for (int r = 0; r < mh; r++) {
    for (int c = 0; c < mw; c++) {
      int dx = c - ox, dy = r - oy, sx, sy;

      if (mask[r][c] != '1')
        continue;
      sx = erode ? x + dx : x - dx;
      sy = erode ? y + dy : y - dy;
      if (sx < 0 || sy < 0 || sx >= w || sy >= h)
        continue;
      v = erode ? MIN (v, f[sy * w + sx]) : MAX (v, f[sy * w + sx]);
    }
  }
  return (guint8) v;
}

/* The element's output against a brute force in this file, so that a
 * wrong reference and a wrong element cannot agree. */
GST_START_TEST (test_independent_oracle)
{
  static const char *const mask[] = { "110", "011", "001" };
  const int w = 13, hgt = 7;

  for (int erode = 0; erode <= 1; erode++) {
    MorphParams p = MORPH_PARAMS_DEFAULT;
    GstElement *e;
    GstHarness *h;
    GstVideoInfo info;
    GstVideoFrame fin, fout;
    GstBuffer *in, *out;
    guint8 f[13 * 7];

    p.op = erode ? CM_MORPH_ERODE : CM_MORPH_DILATE;
    p.shape = CM_SHAPE_CUSTOM;
    p.mask = "110;011;001";
    e = morph_element_new ("cpu", &p);
    h = morph_harness_new (e);
    morph_harness_set_caps (h, "GRAY8", w, hgt, &info);

    in = morph_make_input (&info, 4242 + erode, 0);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
    for (int y = 0; y < hgt; y++)
      memcpy (f + y * w, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fin, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0), w);
    for (int y = 0; y < hgt; y++) {
      const guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fout, 0);
      for (int x = 0; x < w; x++) {
        guint8 want = brute_force (f, w, hgt, x, y, mask, 3, 3, erode);
        fail_unless_equals_int_hex (row[x], want);
      }
    }
    /* and the result is not the input */
    fail_if (memcmp (GST_VIDEO_FRAME_PLANE_DATA (&fout, 0),
            GST_VIDEO_FRAME_PLANE_DATA (&fin, 0),
            GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0) * hgt) == 0);
    gst_video_frame_unmap (&fout);
    gst_video_frame_unmap (&fin);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    gst_harness_teardown (h);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* new caps mid-stream: size and format change, buffers re-allocated */
GST_START_TEST (test_caps_change)
{
  static const struct
  {
    const char *format;
    int width, height;
  } steps[] = {
    {"GRAY8", 37, 23}, {"GRAY8", 64, 17}, {"RGBA", 13, 11},
    {"I420", 37, 23}, {"GRAY16_LE", 5, 40}, {"NV12", 1, 1},
    {"GRAY8", 37, 23},
  };
  MorphParams p = { O, CM_SHAPE_DISK, 3, 3, 2, 15, 0, DEF_MASK, 1, MIR, 0 };
  GstElement *e = morph_element_new ("cpu", &p);
  GstHarness *h = morph_harness_new (e);

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
    GstVideoInfo info;

    morph_harness_set_caps (h, steps[i].format, steps[i].width,
        steps[i].height, &info);
    push_and_check (h, &info, &p, 500 + i, 0, "caps change");
    push_and_check (h, &info, &p, 600 + i, 8, "caps change");
  }

  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

/* properties set while PLAYING apply from the next frame on */
GST_START_TEST (test_property_change_playing)
{
  MorphParams p = MORPH_PARAMS_DEFAULT;
  GstElement *e = morph_element_new ("cpu", &p);
  GstHarness *h = morph_harness_new (e);
  GstVideoInfo info;
  GstState state;

  morph_harness_set_caps (h, "GRAY8", 37, 23, &info);
  fail_unless_equals_int (gst_element_get_state (e, &state, NULL, 0),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (state, GST_STATE_PLAYING);

  push_and_check (h, &info, &p, 1, 0, "defaults");

  p.op = CM_MORPH_DILATE;
  p.shape = CM_SHAPE_DISK;
  p.radius = 3;
  gst_util_set_object_arg (G_OBJECT (e), "operation", "dilate");
  gst_util_set_object_arg (G_OBJECT (e), "shape", "disk");
  g_object_set (e, "radius", 3, NULL);
  push_and_check (h, &info, &p, 2, 0, "dilate disk 3");
  push_and_check (h, &info, &p, 3, 0, "dilate disk 3, again");

  p.op = CM_MORPH_ERODE;
  p.border = CM_BORDER_CONSTANT;
  p.border_value = 200;
  gst_util_set_object_arg (G_OBJECT (e), "operation", "erode");
  gst_util_set_object_arg (G_OBJECT (e), "border", "constant");
  g_object_set (e, "border-value", 200, NULL);
  push_and_check (h, &info, &p, 4, 0, "erode constant 200");

  p.shape = CM_SHAPE_CUSTOM;
  p.mask = "111;100;100";
  p.iterations = 2;
  gst_util_set_object_arg (G_OBJECT (e), "shape", "custom");
  g_object_set (e, "mask", "111;100;100", "iterations", 2, NULL);
  push_and_check (h, &info, &p, 5, 0, "custom mask");

  p.op = CM_MORPH_GRADIENT;
  p.shape = CM_SHAPE_LINE;
  p.length = 9;
  p.angle = 120;
  p.iterations = 1;
  g_object_set (e, "length", 9, "angle", 120.0, "iterations", 1, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "operation", "gradient");
  gst_util_set_object_arg (G_OBJECT (e), "shape", "line");
  push_and_check (h, &info, &p, 6, 0, "gradient line");

  /* a property change together with a caps change */
  p.op = CM_MORPH_TOPHAT;
  gst_util_set_object_arg (G_OBJECT (e), "operation", "tophat");
  morph_harness_set_caps (h, "BGRx", 19, 7, &info);
  push_and_check (h, &info, &p, 7, 0, "tophat after caps change");

  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

/* border-value is clamped to the sample depth */
GST_START_TEST (test_border_value_clamp)
{
  MorphParams p = { D, CM_SHAPE_RECT, 5, 5, 1, 15, 0, DEF_MASK, 1, CON,
    1000
  };
  GstElement *e = morph_element_new ("cpu", &p);
  GstHarness *h = morph_harness_new (e);
  GstVideoInfo info;

  /* 8-bit: behaves as 255 (morph_check_output clamps like the element) */
  morph_harness_set_caps (h, "GRAY8", 9, 8, &info);
  push_and_check (h, &info, &p, 11, 0, "clamped");
  /* 16-bit: 1000 as it is */
  morph_harness_set_caps (h, "GRAY16_LE", 9, 8, &info);
  push_and_check (h, &info, &p, 12, 0, "not clamped");

  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

static void
expect_mask_refused (GstElement * e, const char *mask, const char *kept)
{
  gchar *now = NULL;

  ASSERT_WARNING (g_object_set (e, "mask", mask, NULL));
  g_object_get (e, "mask", &now, NULL);
  fail_unless_equals_string (now, kept);
  g_free (now);
}

/* out-of-range values, bad masks and NaN angles leave the old value */
GST_START_TEST (test_invalid_values)
{
  MorphParams p = MORPH_PARAMS_DEFAULT;
  GstElement *e = morph_element_new ("cpu", NULL);
  GstHarness *h;
  GstVideoInfo info;
  gchar *long_row;
  gdouble angle;
  gint v;
  guint u;

  g_object_set (e, "width", 5, NULL);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "width", 5000, NULL));
  g_object_get (e, "width", &v, NULL);
  fail_unless_equals_int (v, 5);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "height", 0, NULL));
  g_object_get (e, "height", &v, NULL);
  fail_unless_equals_int (v, 3);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "radius", -1, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "radius", 512, NULL));
  g_object_get (e, "radius", &v, NULL);
  fail_unless_equals_int (v, 1);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "length", 1024, NULL));
  g_object_get (e, "length", &v, NULL);
  fail_unless_equals_int (v, 15);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "iterations", 65, NULL));
  g_object_get (e, "iterations", &v, NULL);
  fail_unless_equals_int (v, 1);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "border-value", 65536, NULL));
  g_object_get (e, "border-value", &u, NULL);
  fail_unless_equals_int (u, 0);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "cuda-device-id", -2, NULL));
  g_object_get (e, "cuda-device-id", &v, NULL);
  fail_unless_equals_int (v, -1);

  /* angle: out of range and NaN */
  g_object_set (e, "angle", 30.0, NULL);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "angle", 361.0, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "angle", (gdouble) NAN, NULL));
  g_object_get (e, "angle", &angle, NULL);
  fail_unless_equals_float (angle, 30.0);

  /* masks: accepted with spaces, refused when malformed */
  g_object_set (e, "mask", " 111; 1 0 1 ;111 ", NULL);
  expect_mask_refused (e, "01x;111", " 111; 1 0 1 ;111 ");
  expect_mask_refused (e, "01;111", " 111; 1 0 1 ;111 ");
  expect_mask_refused (e, "000;000", " 111; 1 0 1 ;111 ");
  expect_mask_refused (e, "", " 111; 1 0 1 ;111 ");
  expect_mask_refused (e, ";", " 111; 1 0 1 ;111 ");
  expect_mask_refused (e, "010;111;", " 111; 1 0 1 ;111 ");
  expect_mask_refused (e, NULL, " 111; 1 0 1 ;111 ");
  long_row = g_strnfill (CM_SE_MAX_CUSTOM + 1, '1');
  expect_mask_refused (e, long_row, " 111; 1 0 1 ;111 ");
  g_free (long_row);

  /* and the element still works with the values it kept */
  p.width = 5;
  p.angle = 30.0;
  p.mask = " 111; 1 0 1 ;111 ";
  p.shape = CM_SHAPE_CUSTOM;
  gst_util_set_object_arg (G_OBJECT (e), "shape", "custom");
  h = morph_harness_new (e);
  morph_harness_set_caps (h, "GRAY8", 37, 23, &info);
  push_and_check (h, &info, &p, 77, 0, "after refused values");
  p.shape = CM_SHAPE_RECT;
  gst_util_set_object_arg (G_OBJECT (e), "shape", "rect");
  push_and_check (h, &info, &p, 78, 0, "after refused values");
  p.shape = CM_SHAPE_LINE;
  gst_util_set_object_arg (G_OBJECT (e), "shape", "line");
  push_and_check (h, &info, &p, 79, 0, "after refused values");

  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

/* Reconstruction operations: op, connectivity, dome-height, and the
 * marker's structuring element (op, shape, width, height, radius, length,
 * angle, mask, iterations, border, border-value; op unused). */
#define RECON_ROW(op, conn, h, ...) {op, conn, h, {E, __VA_ARGS__}}
#define SQ3 CM_SHAPE_RECT, 3, 3, 1, 15, 0, DEF_MASK, 1, NEU, 0

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

/* pushes @in through @h and checks the result against cm_recon_ref */
static void
push_and_check_recon (GstHarness * h, const GstVideoInfo * info,
    const ReconParams * p, GstBuffer * in, const char *ctx)
{
  gchar *desc = recon_params_describe (p);
  gchar *what = g_strdup_printf ("%s %s %dx%d, %s", ctx,
      GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), desc);
  GstBuffer *out;

  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL, "%s: no output buffer", what);
  fail_unless (recon_check_output (in, out, info, p, what),
      "%s: output differs from the reference", what);

  gst_buffer_unref (out);
  g_free (what);
  g_free (desc);
}

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
        push_and_check_recon (h, &info, &p, in, "recon noise");
        gst_buffer_unref (in);
        in = morph_make_input_blobs (&info, seed++, 0, 4, 24);
        push_and_check_recon (h, &info, &p, in, "recon blobs");
        gst_buffer_unref (in);
        if (grey) {
          in = morph_make_input_maze (&info, seed++, 200, 30, FALSE);
          push_and_check_recon (h, &info, &p, in, "recon maze");
          gst_buffer_unref (in);
          in = morph_make_input_maze (&info, seed++, 30, 200, TRUE);
          push_and_check_recon (h, &info, &p, in, "recon vertical maze");
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
    GstVideoFrame fin, fout;
    GstBuffer *in, *out;
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

    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
    for (int y = 0; y < hgt; y++) {
      const guint8 *a = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fin, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0);
      const guint8 *o = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fout, 0);

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
    gst_video_frame_unmap (&fout);
    gst_video_frame_unmap (&fin);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
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
  guint u;
  gint v;

  g_object_set (e, "connectivity", 4, NULL);
  for (int bad = 5; bad <= 7; bad++) {
    ASSERT_WARNING (g_object_set (e, "connectivity", bad, NULL));
    g_object_get (e, "connectivity", &v, NULL);
    fail_unless_equals_int (v, 4);
  }
  ASSERT_OUT_OF_RANGE (g_object_set (e, "connectivity", 3, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "connectivity", 9, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "connectivity", 0, NULL));
  g_object_get (e, "connectivity", &v, NULL);
  fail_unless_equals_int (v, 4);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "dome-height", 65536, NULL));
  g_object_get (e, "dome-height", &u, NULL);
  fail_unless_equals_int (u, 10);

  /* the element works with the value it kept, also while PLAYING */
  gst_util_set_object_arg (G_OBJECT (e), "operation", "clear-border");
  h = morph_harness_new (e);
  morph_harness_set_caps (h, "GRAY8", 37, 23, &info);
  in = morph_make_input_blobs (&info, 7, 0, 3, 16);
  push_and_check_recon (h, &info, &p, in, "connectivity kept");
  ASSERT_WARNING (g_object_set (e, "connectivity", 6, NULL));
  push_and_check_recon (h, &info, &p, in, "connectivity kept, playing");
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
    GstBuffer *in, *out, *in16;
    gchar *what = g_strdup_printf ("%s dome-height=1000",
        recon_op_nick (ops[i]));

    p255.dome_height = 255;
    pmod.dome_height = 1000 % 256;
    recon_params_apply (e, &p);
    h = morph_harness_new (e);

    morph_harness_set_caps (h, "GRAY8", 33, 21, &info);
    in = morph_make_input_blobs (&info, 40 + i, 0, 5, 0);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL);
    fail_unless (recon_check_output (in, out, &info, &p255, what),
        "%s on GRAY8 differs from dome-height=255", what);
    /* and the frame tells 255 from 232 */
    fail_if (recon_check_output (in, out, &info, &pmod, "(expected to "
            "differ)"), "%s: the frame does not tell 255 from 232", what);
    gst_buffer_unref (out);

    morph_harness_set_caps (h, "GRAY16_LE", 33, 21, &info);
    in16 = morph_make_input_blobs (&info, 50 + i, 0, 5, 0);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in16));
    fail_unless (out != NULL);
    fail_unless (recon_check_output (in16, out, &info, &p, what),
        "%s on GRAY16_LE", what);
    fail_if (recon_check_output (in16, out, &info, &p255, "(expected to "
            "differ)"), "%s on GRAY16_LE acts as 255", what);
    gst_buffer_unref (out);

    gst_buffer_unref (in16);
    gst_buffer_unref (in);
    g_free (what);
    gst_harness_teardown (h);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* a change to or from a reconstruction operation while PLAYING applies
 * from the next frame on */
GST_START_TEST (test_recon_change_playing)
{
  MorphParams m = MORPH_PARAMS_DEFAULT;
  ReconParams p = RECON_ROW (CM_RECON_FILL_HOLES, 8, 10, SQ3);
  GstElement *e = morph_element_new ("cpu", &m);
  GstHarness *h = morph_harness_new (e);
  GstVideoInfo info;
  GstBuffer *in;
  GstState state;

  morph_harness_set_caps (h, "GRAY8", 37, 23, &info);
  fail_unless_equals_int (gst_element_get_state (e, &state, NULL, 0),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (state, GST_STATE_PLAYING);
  push_and_check (h, &info, &m, 1, 0, "erode first");

  /* only the operation changes: the rest is the element's defaults */
  gst_util_set_object_arg (G_OBJECT (e), "operation", "fill-holes");
  in = morph_make_input_blobs (&info, 2, 0, 4, 20);
  push_and_check_recon (h, &info, &p, in, "fill-holes while playing");
  gst_buffer_unref (in);

  p.connectivity = 4;
  g_object_set (e, "connectivity", 4, NULL);
  in = morph_make_input_blobs (&info, 3, 0, 4, 20);
  push_and_check_recon (h, &info, &p, in, "connectivity 4 while playing");
  gst_buffer_unref (in);

  p.op = CM_RECON_HBASIN;
  p.dome_height = 60;
  gst_util_set_object_arg (G_OBJECT (e), "operation", "hbasin");
  g_object_set (e, "dome-height", 60, NULL);
  in = morph_make_input_blobs (&info, 4, 0, 4, 20);
  push_and_check_recon (h, &info, &p, in, "hbasin 60 while playing");
  gst_buffer_unref (in);

  p.op = CM_RECON_OPEN;
  p.marker.shape = CM_SHAPE_DISK;
  p.marker.radius = 2;
  gst_util_set_object_arg (G_OBJECT (e), "operation", "open-rec");
  gst_util_set_object_arg (G_OBJECT (e), "shape", "disk");
  g_object_set (e, "radius", 2, NULL);
  in = morph_make_input_blobs (&info, 5, 0, 4, 20);
  push_and_check_recon (h, &info, &p, in, "open-rec disk 2 while playing");
  gst_buffer_unref (in);

  /* together with a caps change */
  p.op = CM_RECON_CLOSE;
  gst_util_set_object_arg (G_OBJECT (e), "operation", "close-rec");
  morph_harness_set_caps (h, "BGRx", 19, 7, &info);
  in = morph_make_input_blobs (&info, 6, 0, 3, 20);
  push_and_check_recon (h, &info, &p, in, "close-rec after caps change");
  gst_buffer_unref (in);

  /* and back to morphology */
  m.op = CM_MORPH_DILATE;
  m.shape = CM_SHAPE_DISK;
  m.radius = 2;
  gst_util_set_object_arg (G_OBJECT (e), "operation", "dilate");
  push_and_check (h, &info, &m, 7, 0, "dilate after close-rec");

  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

static guint
count_messages (GstBus * bus, GstMessageType type, gchar ** first_text)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop (bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == type) {
      if (n == 0 && first_text) {
        GError *err = NULL;

        if (type == GST_MESSAGE_WARNING)
          gst_message_parse_warning (msg, &err, NULL);
        else if (type == GST_MESSAGE_ERROR)
          gst_message_parse_error (msg, &err, NULL);
        *first_text = g_strdup (err ? err->message : "");
        g_clear_error (&err);
      }
      n++;
    }
    gst_message_unref (msg);
  }
  return n;
}

/* backend=auto: CUDA when there is a device, else the CPU with exactly one
 * warning on the bus; frames are correct either way */
GST_START_TEST (test_backend_auto)
{
  MorphParams p = { C, CM_SHAPE_DIAMOND, 3, 3, 2, 15, 0, DEF_MASK, 1, REP,
    0
  };
  GstElement *e = morph_element_new ("auto", &p);
  GstBus *bus = gst_bus_new ();
  gboolean have_device = cm_device_count () > 0;
  gchar *text = NULL;
  GstHarness *h;
  GstVideoInfo info;
  guint n;

  gst_element_set_bus (e, bus);
  h = morph_harness_new (e);
  morph_harness_set_caps (h, "I420", 37, 23, &info);
  push_and_check (h, &info, &p, 31, 0, "backend=auto");
  push_and_check (h, &info, &p, 32, 0, "backend=auto");
  morph_harness_set_caps (h, "RGBx", 17, 9, &info);
  push_and_check (h, &info, &p, 33, 0, "backend=auto");

  n = count_messages (bus, GST_MESSAGE_WARNING, &text);
  if (have_device) {
    fail_unless_equals_int (n, 0);
  } else {
    fail_unless_equals_int (n, 1);
    fail_unless (text && strstr (text, "CPU") != NULL,
        "the warning should say that the CPU backend is used: %s", text);
  }
  g_free (text);

  gst_harness_teardown (h);
  /* a second start warns once more, not twice */
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_WARNING, NULL),
      have_device ? 0 : 1);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR, NULL), 0);

  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

/* backend=cuda without a device: start fails with an error naming why */
GST_START_TEST (test_backend_cuda_without_device)
{
  GstElement *e;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL;
  const char *reason;

  if (cm_device_count () > 0) {
    GST_INFO ("a CUDA device is present: nothing to test here");
    return;
  }
  reason = cm_status_string (cm_have_cuda ()? CM_ERR_NO_DEVICE :
      CM_ERR_NO_CUDA);

  e = morph_element_new ("cuda", NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);

  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);

  msg = test_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message on the bus");
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (e));
  gst_message_parse_error (msg, &err, &debug);
  fail_unless (err->domain == GST_RESOURCE_ERROR);
  fail_unless (strstr (err->message, "backend=cuda") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, reason) != NULL,
      "the error should name the reason \"%s\": %s", reason, err->message);
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);

  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

static const struct
{
  const char *name;
  const char *def;              /* default, serialised */
  double min, max;              /* numeric range, 0/0: not numeric */
  const char *nicks;            /* enum nicks, in order */
} expected_props[] = {
  {"operation", "erode", 0, 0,
        "erode,dilate,open,close,tophat,blackhat,gradient,fill-holes,"
        "clear-border,open-rec,close-rec,hmax,hmin,hdome,hbasin"},
  {"shape", "rect", 0, 0, "rect,cross,diamond,disk,octagon,line,custom"},
  {"width", "3", 1, 1023, NULL},
  {"height", "3", 1, 1023, NULL},
  {"radius", "1", 0, 511, NULL},
  {"length", "15", 1, 1023, NULL},
  {"angle", "0", -360, 360, NULL},
  {"mask", "010;111;010", 0, 0, NULL},
  {"iterations", "1", 1, 64, NULL},
  {"border", "neutral", 0, 0, "neutral,replicate,reflect,mirror,constant"},
  {"border-value", "0", 0, 65535, NULL},
  {"connectivity", "8", 4, 8, NULL},
  {"dome-height", "10", 0, 65535, NULL},
  {"backend", "auto", 0, 0, "auto,cuda,cpu"},
  {"cuda-device-id", "-1", -1, G_MAXINT16, NULL},
};

static gchar *
enum_nicks (GParamSpec * pspec)
{
  GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < klass->n_values; i++)
    g_string_append_printf (s, "%s%s", i ? "," : "",
        klass->values[i].value_nick);
  return g_string_free (s, FALSE);
}

static void
range_of (GParamSpec * pspec, double *min, double *max)
{
  *min = *max = 0;
  if (G_IS_PARAM_SPEC_INT (pspec)) {
    *min = G_PARAM_SPEC_INT (pspec)->minimum;
    *max = G_PARAM_SPEC_INT (pspec)->maximum;
  } else if (G_IS_PARAM_SPEC_UINT (pspec)) {
    *min = G_PARAM_SPEC_UINT (pspec)->minimum;
    *max = G_PARAM_SPEC_UINT (pspec)->maximum;
  } else if (G_IS_PARAM_SPEC_DOUBLE (pspec)) {
    *min = G_PARAM_SPEC_DOUBLE (pspec)->minimum;
    *max = G_PARAM_SPEC_DOUBLE (pspec)->maximum;
  }
}

/* what gst-inspect-1.0 shows: every property documented, ranges and
 * defaults as specified, metadata and pad templates */
GST_START_TEST (test_inspect)
{
  GstElementFactory *factory = gst_element_factory_find ("cudamorph");
  GstElement *e;
  GParamSpec **props;
  guint n_props, found = 0;
  const char *key;

  fail_unless (factory != NULL);
  for (guint i = 0; i < 4; i++) {
    const char *keys[] = { GST_ELEMENT_METADATA_LONGNAME,
      GST_ELEMENT_METADATA_KLASS, GST_ELEMENT_METADATA_DESCRIPTION,
      GST_ELEMENT_METADATA_AUTHOR
    };
    key = gst_element_factory_get_metadata (factory, keys[i]);
    fail_unless (key != NULL && strlen (key) > 3, "metadata %s", keys[i]);
  }
  fail_unless (strstr (gst_element_factory_get_metadata (factory,
              GST_ELEMENT_METADATA_KLASS), "Filter") != NULL);

  /* pad templates: every format, both pads */
  for (const GList * l = gst_element_factory_get_static_pad_templates
      (factory); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    GstCaps *tcaps = gst_static_pad_template_get_caps (t);

    for (int f = 0; f < MORPH_N_FORMATS; f++) {
      gchar *s = g_strdup_printf ("video/x-raw,format=%s,width=1,height=1,"
          "framerate=0/1", morph_format (f));
      GstCaps *caps = gst_caps_from_string (s);

      fail_unless (gst_caps_can_intersect (tcaps, caps), "%s pad lacks %s",
          t->name_template, morph_format (f));
      gst_caps_unref (caps);
      g_free (s);
    }
    gst_caps_unref (tcaps);
  }
  fail_unless_equals_int (gst_element_factory_get_num_pad_templates (factory),
      2);

  e = gst_element_factory_create (factory, NULL);
  props = g_object_class_list_properties (G_OBJECT_GET_CLASS (e), &n_props);
  for (guint i = 0; i < n_props; i++) {
    GParamSpec *pspec = props[i];
    const char *blurb = g_param_spec_get_blurb (pspec);
    const char *nick = g_param_spec_get_nick (pspec);

    if (pspec->owner_type == GST_TYPE_OBJECT ||
        pspec->owner_type == GST_TYPE_BASE_TRANSFORM)
      continue;

    fail_unless (blurb != NULL && strlen (blurb) >= 30 &&
        g_strcmp0 (blurb, nick) != 0, "property %s has no real blurb",
        pspec->name);
    fail_unless ((pspec->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE,
        "%s", pspec->name);

    for (guint j = 0; j < G_N_ELEMENTS (expected_props); j++) {
      const GValue *dv;
      gchar *def;
      double min, max;

      if (strcmp (expected_props[j].name, pspec->name) != 0)
        continue;
      found++;

      dv = g_param_spec_get_default_value (pspec);
      if (G_VALUE_HOLDS_STRING (dv))
        def = g_value_dup_string (dv);
      else if (G_VALUE_HOLDS_ENUM (dv))
        def = g_strdup (g_enum_get_value (G_PARAM_SPEC_ENUM (pspec)->
                enum_class, g_value_get_enum (dv))->value_nick);
      else
        def = gst_value_serialize (dv);
      fail_unless_equals_string (def, expected_props[j].def);
      g_free (def);

      range_of (pspec, &min, &max);
      fail_unless (min == expected_props[j].min &&
          max == expected_props[j].max, "%s range %g..%g", pspec->name, min,
          max);

      if (expected_props[j].nicks) {
        gchar *nicks = enum_nicks (pspec);

        fail_unless_equals_string (nicks, expected_props[j].nicks);
        g_free (nicks);
      }

      /* the filter's properties can change while PLAYING, the backend's
       * only in READY */
      if (strcmp (pspec->name, "backend") == 0 ||
          strcmp (pspec->name, "cuda-device-id") == 0)
        fail_unless (pspec->flags & GST_PARAM_MUTABLE_READY, "%s",
            pspec->name);
      else
        fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING, "%s",
            pspec->name);
    }
  }
  fail_unless_equals_int (found, G_N_ELEMENTS (expected_props));

  g_free (props);
  gst_object_unref (e);
  gst_object_unref (factory);
}

GST_END_TEST;

static Suite *
cudamorph_suite (void)
{
  Suite *s = suite_create ("cudamorph");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_inspect);
  tcase_add_test (tc, test_formats_odd_sizes);
  tcase_add_test (tc, test_ops_shapes_borders);
  tcase_add_test (tc, test_independent_oracle);
  tcase_add_test (tc, test_caps_change);
  tcase_add_test (tc, test_property_change_playing);
  tcase_add_test (tc, test_border_value_clamp);
  tcase_add_test (tc, test_invalid_values);
  tcase_add_test (tc, test_recon_ops);
  tcase_add_test (tc, test_recon_connectivity_oracle);
  tcase_add_test (tc, test_recon_connectivity_refused);
  tcase_add_test (tc, test_recon_dome_height_clamp);
  tcase_add_test (tc, test_recon_change_playing);
  tcase_add_test (tc, test_backend_auto);
  tcase_add_test (tc, test_backend_cuda_without_device);

  return s;
}

GST_CHECK_MAIN (cudamorph);
