/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Orientation colouring on the CPU (orientation-rgba.h): the hue table at
 * known angles, hand-computed pixels (primary and secondary colours,
 * sector edges, 16-bit rounding, closings), an independent
 * floating-point HSV conversion over random maps (within 1 of the integer
 * definition, maximum channel = brightness, minimum = 0, alpha = 255),
 * clamped indices, padded pitches, untouched padding and refused
 * arguments. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core-test.h"
#include "linspectrum/orientation-rgba.h"
#include "test-count.h"
#include "test-util.h"

static cm_linspectrum_desc
make_desc (double amin, double amax, double step, cm_morph_op op)
{
  const cm_linspectrum_desc d = { 5, amin, amax, step, op, 0, 0 };

  return d;
}

static const uint8_t *
rgba_at (const cm_image_packed * p, int x, int y)
{
  return (const uint8_t *) p->data + (size_t) y * p->pitch + 4 * (size_t) x;
}

/* The images of one call: strength, orientation index, colours */
typedef struct
{
  cm_image sup, ori;
  cm_image_packed dst;
} rgba_images;

/* w x h, rows padded by extra samples (extra bytes for the strength) */
static rgba_images
images_new (int w, int h, cm_depth depth, int extra)
{
  rgba_images im = {
    test_image_new (w, h, depth, extra),
    test_image_new (w, h, CM_DEPTH_16, extra * 2),
    test_packed_new (w, h, CM_DEPTH_8, 4, extra)
  };

  return im;
}

static void
images_free (rgba_images * im)
{
  test_image_free (&im->sup);
  test_image_free (&im->ori);
  free (im->dst.data);
}

static void
test_hue_table (void)
{
  static const struct
  {
    double amin, amax, step;
    int n;
    int idx;
    uint16_t hue;
  } rows[] = {
    {0, 180, 1, 180, 0, 0},     /* 0 deg: red */
    {0, 180, 1, 180, 30, 256},  /* 30: yellow */
    {0, 180, 1, 180, 60, 512},  /* 60: green */
    {0, 180, 1, 180, 90, 768},  /* 90: cyan */
    {0, 180, 1, 180, 120, 1024},        /* 120: blue */
    {0, 180, 1, 180, 150, 1280},        /* 150: magenta */
    {0, 180, 1, 180, 179, 1527},        /* 358 deg of hue: 1527.47 */
    {-10, 10, 0.25, 80, 0, 1451},       /* -10: 340 deg, 1450.67 */
    {-10, 10, 0.25, 80, 1, 1453},       /* -9.75: 340.5, 1452.8 */
    {-10, 10, 0.25, 80, 40, 0}, /* 0 */
    {-10, 10, 0.25, 80, 79, 83},        /* 9.75: 19.5, 83.2 */
    {180, 360, 45, 4, 0, 0},    /* 180 = 0 */
    {180, 360, 45, 4, 1, 384},  /* 225 = 45: 90 deg of hue */
    {-90, 0, 45, 2, 0, 768},    /* -90 = 90 */
    {0, 180, 0.1, 1800, 1799, 1535},    /* 179.9: 359.8, 1535.15 */
    {0, 180, 0.001, 0, 0, 0},   /* too many orientations */
  };

  for (unsigned r = 0; r < sizeof (rows) / sizeof (rows[0]); r++) {
    cm_linspectrum_desc d = make_desc (rows[r].amin, rows[r].amax,
        rows[r].step, CM_MORPH_OPEN);
    int n = cm_linspectrum_count_angles (&d);
    uint16_t *hue;
    cm_status st;

    CHECK (n == rows[r].n, "hue row %u: %d orientations, expected %d", r, n,
        rows[r].n);
    if (rows[r].n == 0) {
      uint16_t dummy[4];

      CHECK (cm_orientation_hue_table (&d, dummy, 4) == CM_ERR_INVALID_ARG,
          "hue row %u: invalid descriptor accepted", r);
      continue;
    }
    hue = calloc ((size_t) n, sizeof (uint16_t));
    st = cm_orientation_hue_table (&d, hue, n);
    CHECK (st == CM_OK, "hue row %u: %s", r, cm_status_string (st));
    CHECK (hue[rows[r].idx] == rows[r].hue, "hue row %u (%g..%g step %g) "
        "index %d: hue %u, expected %u", r, rows[r].amin, rows[r].amax,
        rows[r].step, rows[r].idx, hue[rows[r].idx], rows[r].hue);
    for (int i = 0; i < n; i++)
      CHECK (hue[i] < CM_ORIENTATION_HUE_STEPS, "hue row %u: hue[%d] = %u",
          r, i, hue[i]);
    CHECK (cm_orientation_hue_table (&d, hue, n + 1) == CM_ERR_INVALID_ARG,
        "hue row %u: wrong count accepted", r);
    CHECK (cm_orientation_hue_table (&d, NULL, n) == CM_ERR_INVALID_ARG,
        "hue row %u: NULL table accepted", r);
    free (hue);
  }
}

/* one pixel: sup s, orientation index i of desc -> expected RGBA */
static void
check_pixel (const cm_linspectrum_desc * d, cm_depth depth, uint32_t s,
    uint16_t i, uint8_t r, uint8_t g, uint8_t b, const char *what)
{
  rgba_images im = images_new (1, 1, depth, 0);
  const uint8_t *o = rgba_at (&im.dst, 0, 0);
  cm_status st;

  test_image_set (&im.sup, 0, 0, s);
  test_image_set (&im.ori, 0, 0, i);
  st = cm_orientation_rgba_ref (d, &im.sup, &im.ori, &im.dst);
  CHECK (st == CM_OK, "%s: %s", what, cm_status_string (st));
  CHECK (o[0] == r && o[1] == g && o[2] == b && o[3] == 255,
      "%s: got (%u,%u,%u,%u), expected (%u,%u,%u,255)", what, o[0], o[1],
      o[2], o[3], r, g, b);
  images_free (&im);
}

static void
test_pixels (void)
{
  cm_linspectrum_desc open = make_desc (0, 180, 1, CM_MORPH_OPEN);
  cm_linspectrum_desc close = make_desc (0, 180, 1, CM_MORPH_CLOSE);
  /* 0..180 step 7.5: index k has hue 15 k degrees = 64 k units */
  cm_linspectrum_desc fine = make_desc (0, 180, 7.5, CM_MORPH_OPEN);

  check_pixel (&open, CM_DEPTH_8, 255, 0, 255, 0, 0, "0 deg red");
  check_pixel (&open, CM_DEPTH_8, 255, 30, 255, 255, 0, "30 deg yellow");
  check_pixel (&open, CM_DEPTH_8, 255, 60, 0, 255, 0, "60 deg green");
  check_pixel (&open, CM_DEPTH_8, 255, 90, 0, 255, 255, "90 deg cyan");
  check_pixel (&open, CM_DEPTH_8, 255, 120, 0, 0, 255, "120 deg blue");
  check_pixel (&open, CM_DEPTH_8, 255, 150, 255, 0, 255, "150 deg magenta");
  check_pixel (&open, CM_DEPTH_8, 0, 45, 0, 0, 0, "zero strength black");
  /* 45 deg: hue 384 = sector 1, f 128: t = (200 * 128 + 128) / 256 = 100 */
  check_pixel (&open, CM_DEPTH_8, 200, 45, 100, 200, 0, "45 deg, v 200");
  /* 15 deg: hue 128, sector 0: t = (77 * 128 + 128) / 256 = 39 */
  check_pixel (&open, CM_DEPTH_8, 77, 15, 77, 39, 0, "15 deg, v 77");
  /* sector edges: hue 192 (index 3 of fine): t = (255*192+128)/256 = 191 */
  check_pixel (&fine, CM_DEPTH_8, 255, 3, 255, 191, 0, "hue 192");
  /* hue 1472 (index 23): sector 5, f 192: t = 191, q = 64 */
  check_pixel (&fine, CM_DEPTH_8, 255, 23, 255, 0, 64, "hue 1472");
  /* hue 704 (index 11): sector 2, f 192: (0, v, t) */
  check_pixel (&fine, CM_DEPTH_8, 100, 11, 0, 100, 75, "hue 704, v 100");
  /* hue 960 (index 15): sector 3, f 192: t = 75, q = 25 */
  check_pixel (&fine, CM_DEPTH_8, 100, 15, 0, 25, 100, "hue 960, v 100");
  /* hue 1216 (index 19): sector 4, f 192: (t, 0, v) */
  check_pixel (&fine, CM_DEPTH_8, 100, 19, 75, 0, 100, "hue 1216, v 100");
  /* 16-bit: v = (u * 255 + 32767) / 65535 */
  check_pixel (&open, CM_DEPTH_16, 65535, 0, 255, 0, 0, "16-bit full");
  check_pixel (&open, CM_DEPTH_16, 32768, 0, 128, 0, 0, "16-bit half");
  check_pixel (&open, CM_DEPTH_16, 128, 0, 0, 0, 0, "16-bit 128 -> 0");
  check_pixel (&open, CM_DEPTH_16, 129, 0, 1, 0, 0, "16-bit 129 -> 1");
  /* closings: strength is M - inf */
  check_pixel (&close, CM_DEPTH_8, 0, 60, 0, 255, 0, "close, black line");
  check_pixel (&close, CM_DEPTH_8, 255, 60, 0, 0, 0, "close, white");
  check_pixel (&close, CM_DEPTH_16, 0, 120, 0, 0, 255, "close 16-bit");
  /* indices past the last orientation read as the last one (179 deg:
   * hue 1527, sector 5, f 247: t = 246, q = 9) */
  check_pixel (&open, CM_DEPTH_8, 255, 179, 255, 0, 9, "179 deg");
  check_pixel (&open, CM_DEPTH_8, 255, 180, 255, 0, 9, "index 180 clamped");
  check_pixel (&open, CM_DEPTH_8, 255, 65535, 255, 0, 9, "index 65535");
}

/* An independent HSV conversion in floating point: within 1 of the
 * integer definition on every channel. */
static void
test_random_against_float (void)
{
  static const struct
  {
    int w, h, extra;
    cm_depth depth;
    cm_morph_op op;
    double amin, amax, step;
  } rows[] = {
    {37, 23, 0, CM_DEPTH_8, CM_MORPH_OPEN, 0, 180, 1},
    {1, 1, 0, CM_DEPTH_8, CM_MORPH_CLOSE, 0, 180, 1},
    {64, 9, 6, CM_DEPTH_16, CM_MORPH_OPEN, -10, 10, 0.25},
    {9, 64, 3, CM_DEPTH_16, CM_MORPH_CLOSE, 0, 180, 0.5},
    {101, 3, 1, CM_DEPTH_8, CM_MORPH_OPEN, 30, 31, 0.125},
  };
  test_rng rng;

  test_rng_seed (&rng, 42);
  for (unsigned r = 0; r < sizeof (rows) / sizeof (rows[0]); r++) {
    cm_linspectrum_desc d = make_desc (rows[r].amin, rows[r].amax,
        rows[r].step, rows[r].op);
    int n = cm_linspectrum_count_angles (&d);
    int w = rows[r].w, h = rows[r].h;
    rgba_images im = images_new (w, h, rows[r].depth, rows[r].extra);
    double m = cm_depth_max (rows[r].depth);
    int bad = 0;
    cm_status st;

    test_image_fill_random (&im.sup, &rng);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        test_image_set (&im.ori, x, y, test_rng_below (&rng, (uint32_t) n));
    st = cm_orientation_rgba_ref (&d, &im.sup, &im.ori, &im.dst);
    CHECK (st == CM_OK, "random row %u: %s", r, cm_status_string (st));

    for (int y = 0; y < h && !bad; y++) {
      for (int x = 0; x < w && !bad; x++) {
        const uint8_t *o = rgba_at (&im.dst, x, y);
        double s = test_image_get (&im.sup, x, y);
        double alpha = cm_linspectrum_angle (&d, test_image_get (&im.ori, x,
                y));
        double u = rows[r].op == CM_MORPH_CLOSE ? m - s : s;
        double v = floor (u * 255.0 / m + 0.5);
        double hd = fmod (2.0 * alpha, 360.0), hf, c[3];
        int sector, vmax, vmin;

        if (hd < 0)
          hd += 360.0;
        hf = hd / 60.0;
        sector = (int) floor (hf) % 6;
        hf -= floor (hf);
        switch (sector) {
          case 0:
            c[0] = v, c[1] = v * hf, c[2] = 0;
            break;
          case 1:
            c[0] = v * (1 - hf), c[1] = v, c[2] = 0;
            break;
          case 2:
            c[0] = 0, c[1] = v, c[2] = v * hf;
            break;
          case 3:
            c[0] = 0, c[1] = v * (1 - hf), c[2] = v;
            break;
          case 4:
            c[0] = v * hf, c[1] = 0, c[2] = v;
            break;
          default:
            c[0] = v, c[1] = 0, c[2] = v * (1 - hf);
            break;
        }
        vmax = o[0] > o[1] ? o[0] : o[1];
        vmax = vmax > o[2] ? vmax : o[2];
        vmin = o[0] < o[1] ? o[0] : o[1];
        vmin = vmin < o[2] ? vmin : o[2];
        /* HSV is continuous across sector edges, so a hue rounded into
         * the next sector stays within 1 as well */
        for (int k = 0; k < 3; k++)
          if (fabs (o[k] - c[k]) > 1.0)
            bad = 1;
        if (vmax != (int) v || vmin != 0 || o[3] != 255)
          bad = 1;
        CHECK (!bad, "random row %u at (%d,%d): got (%u,%u,%u,%u), float "
            "HSV (%.2f,%.2f,%.2f), v %g, hue %.3f deg", r, x, y, o[0], o[1],
            o[2], o[3], c[0], c[1], c[2], v, hd);
      }
    }
    /* the padding after each row is untouched */
    for (int y = 0; y < h; y++) {
      const uint8_t *row = (const uint8_t *) im.dst.data + (size_t) y *
          im.dst.pitch;
      for (int k = w * 4; k < (int) im.dst.pitch; k++)
        CHECK (row[k] == 0xA5, "random row %u: padding byte %d of row %d "
            "written", r, k, y);
    }
    images_free (&im);
  }
}

static void
test_invalid (void)
{
  cm_linspectrum_desc d = make_desc (0, 180, 1, CM_MORPH_OPEN);
  cm_linspectrum_desc bad = d, erode = d;
  rgba_images im = images_new (5, 4, CM_DEPTH_8, 0);
  cm_image ori8 = test_image_new (5, 4, CM_DEPTH_8, 0);
  cm_image small = test_image_new (4, 4, CM_DEPTH_16, 0);
  cm_image_packed dst3 = im.dst;
  cm_image_packed dst16 = im.dst;
  cm_image_packed narrow = test_packed_new (4, 4, CM_DEPTH_8, 4, 0);

  bad.angle_step = 0;
  erode.op = CM_MORPH_ERODE;
  dst3.channels = 3;
  dst16.depth = CM_DEPTH_16;
  test_image_fill (&im.sup, 1);
  test_image_fill (&im.ori, 1);
  CHECK (cm_orientation_rgba_ref (&d, &im.sup, &im.ori, &im.dst) == CM_OK,
      "valid call refused");
  CHECK (cm_orientation_rgba_ref (NULL, &im.sup, &im.ori, &im.dst) ==
      CM_ERR_INVALID_ARG, "NULL desc accepted");
  CHECK (cm_orientation_rgba_ref (&bad, &im.sup, &im.ori, &im.dst) ==
      CM_ERR_INVALID_ARG, "step 0 accepted");
  CHECK (cm_orientation_rgba_ref (&erode, &im.sup, &im.ori, &im.dst) ==
      CM_ERR_INVALID_ARG, "erosion accepted");
  CHECK (cm_orientation_rgba_ref (&d, NULL, &im.ori, &im.dst) ==
      CM_ERR_INVALID_ARG, "NULL sup accepted");
  CHECK (cm_orientation_rgba_ref (&d, &im.sup, &ori8, &im.dst) ==
      CM_ERR_INVALID_ARG, "8-bit orientation accepted");
  CHECK (cm_orientation_rgba_ref (&d, &im.sup, &small, &im.dst) ==
      CM_ERR_INVALID_ARG, "orientation of another size accepted");
  CHECK (cm_orientation_rgba_ref (&d, &im.sup, &im.ori, &dst3) ==
      CM_ERR_INVALID_ARG, "3-channel output accepted");
  CHECK (cm_orientation_rgba_ref (&d, &im.sup, &im.ori, &dst16) ==
      CM_ERR_INVALID_ARG, "16-bit output accepted");
  CHECK (cm_orientation_rgba_ref (&d, &im.sup, &im.ori, &narrow) ==
      CM_ERR_INVALID_ARG, "output of another size accepted");
  CHECK (cm_orientation_rgba_ref (&d, &im.sup, &im.ori, NULL) ==
      CM_ERR_INVALID_ARG, "NULL output accepted");
  images_free (&im);
  test_image_free (&ori8);
  test_image_free (&small);
  free (narrow.data);
}

int
main (void)
{
  test_hue_table ();
  test_pixels ();
  test_random_against_float ();
  test_invalid ();
  return test_count_report ("test-orientation-rgba");
}
