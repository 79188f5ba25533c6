/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudamorph element tests on the CPU backend (GstHarness, CK_FORK=no), its
 * outputs: every template format at odd sizes and padded strides against
 * the core's CPU reference, one independent brute-force oracle,
 * operations, shapes and borders, caps and property changes while
 * PLAYING, border-value clamped to the depth. The reconstruction
 * operations are in test-cudamorph-recon.c, refused values, the backend
 * choice and the documentation of every property in
 * test-cudamorph-properties.c. */
#include <string.h>

#include "check-helpers.h"
#include "element-harness.h"
#include "frame-compare.h"
#include "padded-frames.h"
#include "device.h"
#include "test-suite.h"

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

/* every template format at odd sizes, default and padded strides */
GST_START_TEST (test_formats_odd_sizes)
{
  guint64 seed = 1;

  for (int f = 0; f < MORPH_N_FORMATS; f++) {
    for (guint s = 0; s < CHECK_N_ODD_SIZES; s++) {
      for (int extra = 0; extra <= 8; extra += 8) {
        const MorphParams *p =
            &format_params[(f + s) % G_N_ELEMENTS (format_params)];
        GstElement *e = morph_element_new ("cpu", p);
        GstHarness *h = morph_harness_new (e);
        GstVideoInfo info;

        morph_harness_set_caps (h, morph_format (f), check_odd_sizes[s].width,
            check_odd_sizes[s].height, &info);
        /* two frames: the per-caps buffers are reused */
        morph_push_and_check (h, &info, p, seed++, extra, "formats");
        morph_push_and_check (h, &info, p, seed++, extra, "formats");

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

  check_rows_on_formats (CHECK_MORPH, op_params, G_N_ELEMENTS (op_params),
      formats, G_N_ELEMENTS (formats), 41, 29, 1000, "ops");
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
    FrameRun r;
    guint8 f[13 * 7];

    p.op = erode ? CM_MORPH_ERODE : CM_MORPH_DILATE;
    p.shape = CM_SHAPE_CUSTOM;
    p.mask = "110;011;001";
    e = morph_element_new ("cpu", &p);
    h = morph_harness_new (e);
    morph_harness_set_caps (h, "GRAY8", w, hgt, &info);

    frame_run_push (&r, h, &info, morph_make_input (&info, 4242 + erode, 0));
    for (int y = 0; y < hgt; y++)
      memcpy (f + y * w, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&r.in, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&r.in, 0), w);
    for (int y = 0; y < hgt; y++) {
      const guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&r.out, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&r.out, 0);
      for (int x = 0; x < w; x++) {
        guint8 want = brute_force (f, w, hgt, x, y, mask, 3, 3, erode);
        fail_unless_equals_int_hex (row[x], want);
      }
    }
    /* and the result is not the input */
    fail_if (memcmp (GST_VIDEO_FRAME_PLANE_DATA (&r.out, 0),
            GST_VIDEO_FRAME_PLANE_DATA (&r.in, 0),
            GST_VIDEO_FRAME_PLANE_STRIDE (&r.in, 0) * hgt) == 0);
    frame_run_clear (&r);
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
    morph_push_and_check (h, &info, &p, 500 + i, 0, "caps change");
    morph_push_and_check (h, &info, &p, 600 + i, 8, "caps change");
  }

  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

/* properties set while PLAYING apply from the next frame on: each step
 * sets all of the element's settings (as the element is made), the last
 * one together with a caps change */
GST_START_TEST (test_property_change_playing)
{
  static const struct
  {
    MorphParams p;
    guint frames;
    const char *what, *format;
  } steps[] = {
    {MORPH_PARAMS_DEFAULT, 1, "defaults"},
    {{D, CM_SHAPE_DISK, 3, 3, 3, 15, 0, DEF_MASK, 1, NEU, 0}, 2,
        "dilate disk 3"},
    {{E, CM_SHAPE_DISK, 3, 3, 3, 15, 0, DEF_MASK, 1, CON, 200}, 1,
        "erode constant 200"},
    {{E, CM_SHAPE_CUSTOM, 3, 3, 3, 15, 0, "111;100;100", 2, CON, 200}, 1,
        "custom mask"},
    {{G, CM_SHAPE_LINE, 3, 3, 3, 9, 120, "111;100;100", 1, CON, 200}, 1,
        "gradient line"},
    {{TH, CM_SHAPE_LINE, 3, 3, 3, 9, 120, "111;100;100", 1, CON, 200}, 1,
        "tophat after caps change", "BGRx"},
  };
  GstElement *e = morph_element_new ("cpu", &steps[0].p);
  GstHarness *h = morph_harness_new (e);
  GstVideoInfo info;
  guint64 seed = 1;

  morph_harness_set_caps (h, "GRAY8", 37, 23, &info);
  check_element_playing (e);

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
    if (i > 0)
      morph_params_apply (e, &steps[i].p);
    if (steps[i].format != NULL)
      morph_harness_set_caps (h, steps[i].format, 19, 7, &info);
    for (guint k = 0; k < steps[i].frames; k++)
      morph_push_and_check (h, &info, &steps[i].p, seed++, 0, steps[i].what);
  }

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
  morph_push_and_check (h, &info, &p, 11, 0, "clamped");
  /* 16-bit: 1000 as it is */
  morph_harness_set_caps (h, "GRAY16_LE", 9, 8, &info);
  morph_push_and_check (h, &info, &p, 12, 0, "not clamped");

  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_formats_odd_sizes),
  TEST_SUITE_TEST (test_ops_shapes_borders),
  TEST_SUITE_TEST (test_independent_oracle),
  TEST_SUITE_TEST (test_caps_change),
  TEST_SUITE_TEST (test_property_change_playing),
  TEST_SUITE_TEST (test_border_value_clamp),
  {NULL}
};

TEST_SUITE_MAIN (cudamorph, "cudamorph", 300, suite_tests);

