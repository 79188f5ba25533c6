/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudamorph on the CUDA backend against the same element on the CPU
 * backend, bit for bit, for every format, operations and shapes that take
 * each GPU algorithm, the reconstruction operations (4 and 8 neighbours,
 * blobs, noise and mazes that make propagation long), the area operations
 * (specks, noise, hills, staircases across tiles), padded strides, a size
 * change and property changes while PLAYING. Exits 77 (meson: SKIP) when
 * no CUDA device is usable. */
#include <stdio.h>
#include <string.h>

#include "element-harness.h"
#include "element-pair.h"
#include "frame-compare.h"
#include "padded-frames.h"
#include "device.h"
#include "test-util.h"

/* a CPU and a CUDA cudamorph set from @p, the CUDA one on @device_id */
static void
pair_init_on_device (ElementPair * pair, const MorphParams * p,
    int device_id)
{
  GstElement *cpu = morph_element_new ("cpu", p);
  GstElement *cuda = morph_element_new ("cuda", p);

  g_object_set (cuda, "cuda-device-id", device_id, NULL);
  element_pair_init (pair, cpu, cuda);
}

static void
pair_init (ElementPair * pair, const MorphParams * p)
{
  pair_init_on_device (pair, p, -1);
}

/* both elements set from @p while PLAYING */
static void
pair_apply (ElementPair * pair, const MorphParams * p)
{
  morph_params_apply (pair->cpu, p);
  morph_params_apply (pair->cuda, p);
}

/* both elements set for the reconstruction @p while PLAYING */
static void
pair_apply_recon (ElementPair * pair, const ReconParams * p)
{
  recon_params_apply (pair->cpu, p);
  recon_params_apply (pair->cuda, p);
}

/* both elements set for the area operation @p while PLAYING */
static void
pair_apply_area (ElementPair * pair, const AreaParams * p)
{
  area_params_apply (pair->cpu, p);
  area_params_apply (pair->cuda, p);
}

/* @in through both elements, outputs compared; @what names the case */
static void
pair_push_buffer_and_compare (ElementPair * pair, const GstVideoInfo * info,
    GstBuffer * in, const char *what)
{
  GstBuffer *out_cpu, *out_cuda;

  element_pair_push (pair, in, &out_cuda, &out_cpu, what);
  /* the CPU element equals the reference (tests/check): bit for bit */
  fail_unless (morph_frames_equal (out_cuda, out_cpu, info, what),
      "%s: CUDA and CPU outputs differ", what);

  gst_buffer_unref (out_cpu);
  gst_buffer_unref (out_cuda);
}

static void
pair_push_and_compare (ElementPair * pair, const GstVideoInfo * info,
    const MorphParams * p, guint64 seed, int extra_stride, const char *ctx)
{
  GstBuffer *in = morph_make_input (info, seed, extra_stride);
  gchar *desc = morph_params_describe (p);
  gchar *what = frame_case_name (ctx, info, extra_stride, desc, seed);

  pair_push_buffer_and_compare (pair, info, in, what);
  gst_buffer_unref (in);
  g_free (what);
  g_free (desc);
}

/* both elements set from @p while PLAYING, then a random frame (@seed)
 * through both */
static void
pair_change_and_compare (ElementPair * pair, const GstVideoInfo * info,
    const MorphParams * p, guint64 seed, const char *ctx)
{
  pair_apply (pair, p);
  pair_push_and_compare (pair, info, p, seed, 0, ctx);
}

/* The frames of a reconstruction case. */
typedef enum
{
  RECON_NOISE,                  /* every byte random */
  RECON_BLOBS,                  /* plateaus of 6x6 plus a little noise */
  RECON_MAZE_DARK,              /* dark corridor, one path from the edge */
  RECON_MAZE_BRIGHT_V           /* bright corridor along columns */
} ReconInput;

static void
pair_push_and_compare_recon (ElementPair * pair, const GstVideoInfo * info,
    const ReconParams * p, ReconInput input, guint64 seed, int extra_stride,
    const char *ctx)
{
  static const char *const names[] = { "noise", "blobs", "maze", "maze-v" };
  gboolean deep = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8;
  guint lo = deep ? 3000 : 30, hi = deep ? 60000 : 220;
  GstBuffer *in;
  gchar *desc = recon_params_describe (p);
  gchar *what;

  switch (input) {
    case RECON_NOISE:
      in = morph_make_input (info, seed, extra_stride);
      break;
    case RECON_BLOBS:
      in = morph_make_input_blobs (info, seed, extra_stride, 6, 12);
      break;
    case RECON_MAZE_DARK:
      in = morph_make_input_maze (info, seed, hi, lo, FALSE);
      break;
    default:
      in = morph_make_input_maze (info, seed, lo, hi, TRUE);
      break;
  }
  what = g_strdup_printf ("%s %s %dx%d%s %s, %s, seed %" G_GUINT64_FORMAT,
      ctx, GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), extra_stride ? " padded" : "",
      names[input], desc, seed);

  pair_push_buffer_and_compare (pair, info, in, what);
  gst_buffer_unref (in);
  g_free (what);
  g_free (desc);
}

static const MorphParams format_params[] = {
  MORPH_SIZE (CM_MORPH_OPEN, CM_SHAPE_RECT, 5, 3, 1, CM_BORDER_NEUTRAL, 0),
  MORPH_RADIUS (CM_MORPH_DILATE, CM_SHAPE_DISK, 4, 1, CM_BORDER_REPLICATE, 0),
  MORPH_LINE (CM_MORPH_GRADIENT, 17, 30, 1, CM_BORDER_MIRROR, 0),
  MORPH_MASK (CM_MORPH_CLOSE, "110;011;001", 2, CM_BORDER_CONSTANT, 77),
  MORPH_SIZE (CM_MORPH_TOPHAT, CM_SHAPE_CROSS, 7, 5, 1, CM_BORDER_REFLECT, 0),
};

static const struct
{
  int width, height;
} sizes[] = {
  {37, 23}, {1, 1}, {1, 9}, {9, 1}, {640, 480}, {1921, 31},
};

GST_START_TEST (test_formats)
{
  guint64 seed = 1;
  int n = 0;

  for (int f = 0; f < MORPH_N_FORMATS; f++) {
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
      for (int extra = 0; extra <= 8; extra += 8) {
        const MorphParams *p =
            &format_params[(f + s) % G_N_ELEMENTS (format_params)];
        ElementPair pair;
        GstVideoInfo info;

        if (n++ > 0 && !test_sample_keep ()) {  /* sanitizer setups */
          seed += 2;
          continue;
        }

        pair_init (&pair, p);
        element_pair_set_caps (&pair, morph_format (f), sizes[s].width,
            sizes[s].height, &info);
        pair_push_and_compare (&pair, &info, p, seed++, extra, "formats");
        pair_push_and_compare (&pair, &info, p, seed++, extra, "formats");
        element_pair_clear (&pair);
      }
    }
  }
}

GST_END_TEST;

/* each GPU algorithm: vHGW rectangles and 0/45/90/135 degree lines, runs
 * for disks, diamonds, octagons, crosses, other lines and custom masks */
static const MorphParams shape_params[] = {
  MORPH_SIZE (CM_MORPH_ERODE, CM_SHAPE_RECT, 3, 3, 1, CM_BORDER_NEUTRAL, 0),
  MORPH_SIZE (CM_MORPH_DILATE, CM_SHAPE_RECT, 31, 1, 1, CM_BORDER_REPLICATE, 0),
  MORPH_SIZE (CM_MORPH_OPEN, CM_SHAPE_RECT, 1, 45, 1, CM_BORDER_REFLECT, 0),
  MORPH_SIZE (CM_MORPH_CLOSE, CM_SHAPE_RECT, 64, 40, 2, CM_BORDER_MIRROR, 0),
  MORPH_LINE (CM_MORPH_ERODE, 41, 45, 1, CM_BORDER_NEUTRAL, 0),
  MORPH_LINE (CM_MORPH_DILATE, 40, 90, 1, CM_BORDER_CONSTANT, 9),
  MORPH_LINE (CM_MORPH_OPEN, 41, 135, 1, CM_BORDER_REFLECT, 0),
  MORPH_LINE (CM_MORPH_OPEN, 41, 70, 1, CM_BORDER_NEUTRAL, 0),
  MORPH_LINE (CM_MORPH_CLOSE, 24, -20, 1, CM_BORDER_MIRROR, 0),
  MORPH_RADIUS (CM_MORPH_ERODE, CM_SHAPE_DISK, 15, 1, CM_BORDER_NEUTRAL, 0),
  MORPH_RADIUS (CM_MORPH_TOPHAT, CM_SHAPE_DISK, 40, 1, CM_BORDER_REPLICATE, 0),
  MORPH_RADIUS (CM_MORPH_BLACKHAT, CM_SHAPE_DIAMOND, 6, 1, CM_BORDER_REFLECT,
      0),
  MORPH_RADIUS (CM_MORPH_GRADIENT, CM_SHAPE_OCTAGON, 7, 1, CM_BORDER_CONSTANT,
      1000),
  MORPH_SIZE (CM_MORPH_ERODE, CM_SHAPE_CROSS, 9, 5, 3, CM_BORDER_MIRROR, 0),
  MORPH_MASK (CM_MORPH_DILATE, "00100;01110;11011;01110;00100", 1,
      CM_BORDER_NEUTRAL, 0),
  MORPH_SIZE (CM_MORPH_ERODE, CM_SHAPE_RECT, 301, 201, 1, CM_BORDER_REFLECT, 0),
};

GST_START_TEST (test_shapes)
{
  static const char *const formats[] = { "GRAY8", "GRAY16_LE" };
  guint64 seed = 1000;
  int n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (shape_params); i++) {
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
      ElementPair pair;
      GstVideoInfo info;

      if (n++ > 0 && !test_sample_keep ()) {    /* sanitizer setups */
        seed += f == 0 ? 2 : 1;
        continue;
      }

      pair_init (&pair, &shape_params[i]);
      element_pair_set_caps (&pair, formats[f], 203, 117, &info);
      pair_push_and_compare (&pair, &info, &shape_params[i], seed++, 0,
          "shapes");
      if (f == 0) {
        element_pair_set_caps (&pair, formats[f], 1280, 720, &info);
        pair_push_and_compare (&pair, &info, &shape_params[i], seed++, 0,
            "shapes");
      }
      element_pair_clear (&pair);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_size_change)
{
  static const struct
  {
    const char *format;
    int width, height;
  } steps[] = {
    {"GRAY8", 640, 480}, {"GRAY8", 37, 23}, {"NV12", 1280, 720},
    {"RGBA", 333, 111}, {"GRAY16_LE", 1, 1}, {"I420", 640, 480},
  };
  MorphParams p =
      MORPH_RADIUS (CM_MORPH_OPEN, CM_SHAPE_DISK, 6, 1, CM_BORDER_MIRROR, 0);
  ElementPair pair;

  pair_init (&pair, &p);
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
    GstVideoInfo info;

    element_pair_set_caps (&pair, steps[i].format, steps[i].width,
        steps[i].height, &info);
    pair_push_and_compare (&pair, &info, &p, 100 + i, 0, "size change");
    pair_push_and_compare (&pair, &info, &p, 200 + i, 8, "size change");
  }
  element_pair_clear (&pair);
}

GST_END_TEST;

GST_START_TEST (test_property_change_playing)
{
  MorphParams p = MORPH_PARAMS_DEFAULT;
  GstVideoInfo info;
  ElementPair pair;

  pair_init (&pair, &p);
  element_pair_set_caps (&pair, "Y444", 320, 240, &info);
  pair_push_and_compare (&pair, &info, &p, 1, 0, "defaults");

  p.op = CM_MORPH_DILATE;
  p.shape = CM_SHAPE_LINE;
  p.length = 31;
  p.angle = 45;
  pair_change_and_compare (&pair, &info, &p, 2, "line 45");

  p.angle = 100;
  p.border = CM_BORDER_CONSTANT;
  p.border_value = 128;
  pair_change_and_compare (&pair, &info, &p, 3, "line 100");

  p.op = CM_MORPH_GRADIENT;
  p.shape = CM_SHAPE_DISK;
  p.radius = 9;
  p.iterations = 2;
  pair_change_and_compare (&pair, &info, &p, 4, "disk 9");

  /* property and size change before the same frame */
  p.op = CM_MORPH_BLACKHAT;
  pair_apply (&pair, &p);
  element_pair_set_caps (&pair, "BGRA", 640, 360, &info);
  pair_push_and_compare (&pair, &info, &p, 5, 0, "blackhat, new size");

  element_pair_clear (&pair);
}

GST_END_TEST;

/* Reconstruction operations: op, connectivity (both are run), dome-height,
 * and the marker's structuring element of open-rec and close-rec, a
 * MorphParams row (its op unused: erode; SQ3, the element's defaults). */
#define RECON_ROW(op, h, marker) {op, 8, h, marker}
#define SQ3 MORPH_PARAMS_DEFAULT

static const ReconParams recon_params[] = {
  RECON_ROW (CM_RECON_FILL_HOLES, 10, SQ3),
  RECON_ROW (CM_RECON_CLEAR_BORDER, 10, SQ3),
  RECON_ROW (CM_RECON_OPEN, 10, MORPH_SIZE (CM_MORPH_ERODE, CM_SHAPE_RECT, 9,
          9, 1, CM_BORDER_NEUTRAL, 0)),
  RECON_ROW (CM_RECON_CLOSE, 10, MORPH_RADIUS (CM_MORPH_ERODE, CM_SHAPE_DISK,
          5, 1, CM_BORDER_REPLICATE, 0)),
  RECON_ROW (CM_RECON_OPEN, 10, MORPH_LINE (CM_MORPH_ERODE, 31, 70, 2,
          CM_BORDER_MIRROR, 0)),
  RECON_ROW (CM_RECON_CLOSE, 10, MORPH_MASK (CM_MORPH_ERODE,
          "00100;01110;11011;01110;00100", 1, CM_BORDER_CONSTANT, 1000)),
  RECON_ROW (CM_RECON_HMAX, 40, SQ3),
  RECON_ROW (CM_RECON_HMIN, 40, SQ3),
  RECON_ROW (CM_RECON_HDOME, 25, SQ3),
  RECON_ROW (CM_RECON_HBASIN, 25, SQ3),
  RECON_ROW (CM_RECON_HMAX, 0, SQ3),
  RECON_ROW (CM_RECON_HBASIN, 65535, SQ3),
};

/* every reconstruction operation, 4 and 8 neighbours, on GRAY8 and
 * GRAY16_LE (noise, blobs, mazes whose one path from the edge crosses the
 * whole frame), NV12 and RGBA */
GST_START_TEST (test_recon)
{
  static const struct
  {
    const char *format;
    int width, height;
    ReconInput input;
    int extra_stride;
  } cases[] = {
    {"GRAY8", 203, 117, RECON_NOISE, 0},
    {"GRAY8", 203, 117, RECON_BLOBS, 8},
    {"GRAY8", 1280, 720, RECON_BLOBS, 0},
    {"GRAY8", 640, 480, RECON_MAZE_DARK, 0},
    {"GRAY8", 480, 640, RECON_MAZE_BRIGHT_V, 0},
    {"GRAY8", 1921, 31, RECON_MAZE_DARK, 0},
    {"GRAY8", 1, 1, RECON_NOISE, 0},
    {"GRAY8", 9, 1, RECON_NOISE, 0},
    {"GRAY8", 1, 9, RECON_NOISE, 0},
    {"GRAY16_LE", 203, 117, RECON_NOISE, 0},
    {"GRAY16_LE", 203, 117, RECON_BLOBS, 0},
    {"GRAY16_LE", 640, 480, RECON_MAZE_BRIGHT_V, 0},
    {"NV12", 333, 111, RECON_BLOBS, 0},
    {"RGBA", 333, 111, RECON_BLOBS, 8},
  };
  guint64 seed = 5000;
  int n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (recon_params); i++) {
    for (int conn = 4; conn <= 8; conn += 4) {
      ReconParams p = recon_params[i];
      ElementPair pair;

      if (n++ > 0 && !test_sample_keep ()) {    /* sanitizer setups */
        seed += G_N_ELEMENTS (cases);
        continue;
      }

      p.connectivity = conn;
      pair_init (&pair, &p.marker);
      pair_apply_recon (&pair, &p);
      for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
        GstVideoInfo info;

        element_pair_set_caps (&pair, cases[c].format, cases[c].width,
            cases[c].height, &info);
        pair_push_and_compare_recon (&pair, &info, &p, cases[c].input,
            seed++, cases[c].extra_stride, "recon");
      }
      element_pair_clear (&pair);
    }
  }
}

GST_END_TEST;

/* from morphology to reconstruction and back while PLAYING; connectivity
 * and dome-height changes apply from the next frame */
GST_START_TEST (test_recon_change_playing)
{
  MorphParams m = MORPH_PARAMS_DEFAULT;
  ReconParams p = RECON_ROW (CM_RECON_FILL_HOLES, 10, SQ3);
  GstVideoInfo info;
  ElementPair pair;

  pair_init (&pair, &m);
  element_pair_set_caps (&pair, "GRAY8", 640, 360, &info);
  pair_push_and_compare (&pair, &info, &m, 1, 0, "erode");

  pair_apply_recon (&pair, &p);
  pair_push_and_compare_recon (&pair, &info, &p, RECON_BLOBS, 2, 0,
      "fill-holes");

  p.connectivity = 4;
  pair_apply_recon (&pair, &p);
  pair_push_and_compare_recon (&pair, &info, &p, RECON_MAZE_DARK, 3, 0,
      "connectivity 4");

  p.op = CM_RECON_HDOME;
  p.dome_height = 70;
  pair_apply_recon (&pair, &p);
  pair_push_and_compare_recon (&pair, &info, &p, RECON_BLOBS, 4, 0,
      "hdome 70");

  p.op = CM_RECON_OPEN;
  p.marker.shape = CM_SHAPE_DISK;
  p.marker.radius = 7;
  pair_apply_recon (&pair, &p);
  element_pair_set_caps (&pair, "GRAY16_LE", 333, 200, &info);
  pair_push_and_compare_recon (&pair, &info, &p, RECON_BLOBS, 5, 0,
      "open-rec disk 7, new size");

  m.op = CM_MORPH_GRADIENT;
  m.shape = CM_SHAPE_DISK;
  m.radius = 3;
  pair_change_and_compare (&pair, &info, &m, 6, "gradient after open-rec");

  element_pair_clear (&pair);
}

GST_END_TEST;

/* @kind through both elements, set for @p */
static void
pair_push_and_compare_area (ElementPair * pair, const GstVideoInfo * info,
    const AreaParams * p, attr_frame_kind kind, guint64 seed,
    int extra_stride, const char *ctx)
{
  GstBuffer *in = morph_make_input_attr (info, seed, extra_stride, kind);
  gchar *desc = area_params_describe (p);
  gchar *what = g_strdup_printf ("%s %s %dx%d%s %s, %s, seed %"
      G_GUINT64_FORMAT, ctx, GST_VIDEO_INFO_NAME (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
      extra_stride ? " padded" : "", attr_frame_name (kind), desc, seed);

  pair_push_buffer_and_compare (pair, info, in, what);
  gst_buffer_unref (in);
  g_free (what);
  g_free (desc);
}

/* area-open and area-close, 4 and 8 neighbours, min-area from 1 to more
 * than the frame: 8- and 16-bit frames across many tiles, the edge
 * sizes of a tile, one row, one column, YUV and RGB */
GST_START_TEST (test_area)
{
  static const struct
  {
    const char *format;
    int width, height;
    attr_frame_kind kind;
    guint min_area;
    int extra_stride;
  } cases[] = {
    {"GRAY8", 203, 117, ATTR_FRAME_SPECKS, 12, 0},
    {"GRAY8", 203, 117, ATTR_FRAME_NOISE, 5, 8},
    {"GRAY8", 1280, 720, ATTR_FRAME_HILLS, 64, 0},
    {"GRAY8", 1280, 720, ATTR_FRAME_HILLS, 1000, 0},
    {"GRAY8", 640, 480, ATTR_FRAME_NOISE, 64, 0},
    {"GRAY8", 640, 480, ATTR_FRAME_STAIRS_X, 3, 0},
    {"GRAY8", 480, 640, ATTR_FRAME_RINGS, 100, 0},
    {"GRAY8", 33, 65, ATTR_FRAME_LEVELS, 20, 0},
    {"GRAY8", 64, 32, ATTR_FRAME_FLAT, 1, 0},
    {"GRAY8", 1921, 31, ATTR_FRAME_BLOBS, 40, 0},
    {"GRAY8", 1, 1, ATTR_FRAME_NOISE, 1, 0},
    {"GRAY8", 9, 1, ATTR_FRAME_NOISE, 3, 0},
    {"GRAY8", 1, 9, ATTR_FRAME_NOISE, 3, 0},
    {"GRAY8", 100, 50, ATTR_FRAME_SPECKS, 6000, 0},
    {"GRAY16_LE", 203, 117, ATTR_FRAME_NOISE, 12, 0},
    {"GRAY16_LE", 640, 480, ATTR_FRAME_HILLS, 64, 0},
    {"GRAY16_LE", 640, 480, ATTR_FRAME_STAIRS_Y, 5, 8},
    {"GRAY16_LE", 333, 111, ATTR_FRAME_SPECKS, 30, 0},
    {"NV12", 333, 111, ATTR_FRAME_SPECKS, 20, 0},
    {"I420", 320, 240, ATTR_FRAME_HILLS, 64, 0},
    {"RGBA", 333, 111, ATTR_FRAME_BLOBS, 30, 8},
  };
  guint64 seed = 9000;
  int n = 0;

  for (int op = CM_ATTR_OPEN; op <= CM_ATTR_CLOSE; op++) {
    for (int conn = 4; conn <= 8; conn += 4) {
      AreaParams p = { (cm_attr_op) op, conn, 64 };
      ElementPair pair;

      if (n++ > 0 && !test_sample_keep ()) {    /* sanitizer setups */
        seed += G_N_ELEMENTS (cases);
        continue;
      }

      pair_init (&pair, NULL);
      pair_apply_area (&pair, &p);
      for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
        GstVideoInfo info;

        p.min_area = cases[c].min_area;
        pair_apply_area (&pair, &p);
        element_pair_set_caps (&pair, cases[c].format, cases[c].width,
            cases[c].height, &info);
        pair_push_and_compare_area (&pair, &info, &p, cases[c].kind, seed++,
            cases[c].extra_stride, "area");
      }
      element_pair_clear (&pair);
    }
  }
}

GST_END_TEST;

/* from morphology to the area operations and back while PLAYING */
GST_START_TEST (test_area_change_playing)
{
  MorphParams m = MORPH_PARAMS_DEFAULT;
  AreaParams p = { CM_ATTR_OPEN, 8, 64 };
  GstVideoInfo info;
  ElementPair pair;

  pair_init (&pair, &m);
  element_pair_set_caps (&pair, "GRAY8", 640, 360, &info);
  pair_push_and_compare (&pair, &info, &m, 1, 0, "erode");

  pair_apply_area (&pair, &p);
  pair_push_and_compare_area (&pair, &info, &p, ATTR_FRAME_SPECKS, 2, 0,
      "area-open");

  p.connectivity = 4;
  p.min_area = 15;
  pair_apply_area (&pair, &p);
  pair_push_and_compare_area (&pair, &info, &p, ATTR_FRAME_SPECKS, 3, 0,
      "connectivity 4, min-area 15");

  p.op = CM_ATTR_CLOSE;
  pair_apply_area (&pair, &p);
  element_pair_set_caps (&pair, "GRAY16_LE", 333, 200, &info);
  pair_push_and_compare_area (&pair, &info, &p, ATTR_FRAME_HILLS, 4, 0,
      "area-close, new size");

  m.op = CM_MORPH_GRADIENT;
  m.shape = CM_SHAPE_DISK;
  m.radius = 3;
  pair_change_and_compare (&pair, &info, &m, 5, "gradient after area-close");

  element_pair_clear (&pair);
}

GST_END_TEST;

/* cuda-device-id: the last device works, one past it fails to start */
GST_START_TEST (test_device_id)
{
  MorphParams p = MORPH_PARAMS_DEFAULT;
  int n = cm_device_count ();
  GstElement *e;
  GstBus *bus;
  GstVideoInfo info;
  ElementPair pair;

  pair_init_on_device (&pair, &p, n - 1);
  element_pair_set_caps (&pair, "GRAY8", 97, 45, &info);
  pair_push_and_compare (&pair, &info, &p, 9, 0, "last device");
  element_pair_clear (&pair);

  e = morph_element_new ("cuda", &p);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  g_object_set (e, "cuda-device-id", n, NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (test_bus_count_problems (bus, GST_MESSAGE_ERROR),
      1);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);

  /* backend=auto with a device: no warning */
  e = morph_element_new ("auto", &p);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (test_bus_count_problems (bus,
          GST_MESSAGE_WARNING | GST_MESSAGE_ERROR), 0);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_formats),
  TEST_SUITE_TEST (test_shapes),
  TEST_SUITE_TEST (test_size_change),
  TEST_SUITE_TEST (test_property_change_playing),
  TEST_SUITE_TEST (test_recon),
  TEST_SUITE_TEST (test_recon_change_playing),
  TEST_SUITE_TEST (test_area),
  TEST_SUITE_TEST (test_area_change_playing),
  TEST_SUITE_TEST (test_device_id),
  {NULL}
};

TEST_GPU_CHECK_MAIN ("cudamorph-element", suite_tests);
