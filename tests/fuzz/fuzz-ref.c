/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the CPU reference (cuda/morph/morph-ref.c, median-ref.c,
 * linspectrum-ref.c) on small images of random size, depth, pitch and
 * content, with random structuring elements, borders and windows.
 *
 * Invariants checked (any failure aborts, which the fuzzer reports):
 *  - an SE that holds its origin: erosion <= f <= dilation, any border;
 *  - neutral border, any SE: opening <= f <= closing, opening and closing
 *    idempotent, top-hat = f - opening, gradient = dilation - erosion;
 *  - the result does not depend on the pitch (padded copy);
 *  - median: percentile 0 <= p <= 100 pointwise, monotone in p, and
 *    percentile 0 / 100 equal to erosion / dilation by the window
 *    (replicate border);
 *  - linear openings: gamma (f) <= f, spectrum[i] = sum of gamma_i (f). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-input.h"
#include "linspectrum/linspectrum.h"
#include "median/median.h"
#include "morph/morph.h"
#include "morph/se.h"
#include "test-util.h"

static int
equal (const cm_image * a, const cm_image * b)
{
  for (int y = 0; y < a->height; y++)
    for (int x = 0; x < a->width; x++)
      if (test_image_get (a, x, y) != test_image_get (b, x, y))
        return 0;
  return 1;
}

static int
leq (const cm_image * a, const cm_image * b)
{
  for (int y = 0; y < a->height; y++)
    for (int x = 0; x < a->width; x++)
      if (test_image_get (a, x, y) > test_image_get (b, x, y))
        return 0;
  return 1;
}

static void
morph (cm_morph_op op, const cm_se * se, int it, cm_border_mode border,
    uint32_t value, const cm_image * src, const cm_image * dst)
{
  const cm_morph_desc d = { op, se, it, border, value };

  CHECK (cm_morph_ref (&d, src, dst) == CM_OK);
}

/* A random SE: a custom mask up to 7x7 or one of the shapes. */
static cm_se *
random_se (Bytes * b)
{
  cm_se *se = NULL;
  unsigned kind = take (b, 4);

  if (kind == 0) {
    int w = 1 + take (b, 7), h = 1 + take (b, 7), any = 0;
    uint8_t mask[49];

    for (int i = 0; i < w * h; i++)
      any |= (mask[i] = take (b, 2));
    if (!any)
      mask[take (b, w * h)] = 1;
    CHECK (cm_se_new_from_mask (&se, mask, w, h, w / 2, h / 2) == CM_OK);
  } else if (kind == 1) {
    CHECK (cm_se_new_line (&se, 1 + take (b, 15), take (b, 0) * 360.0 / 256 -
            180.0) == CM_OK);
  } else if (kind == 2) {
    CHECK (cm_se_new_disk (&se, take (b, 5)) == CM_OK);
  } else {
    CHECK (cm_se_new_rect (&se, 1 + take (b, 9), 1 + take (b, 9)) == CM_OK);
  }
  return se;
}

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  Bytes b = { data, size };
  int w = 1 + take (&b, 24), h = 1 + take (&b, 24);
  cm_depth depth = take (&b, 2) ? CM_DEPTH_16 : CM_DEPTH_8;
  cm_border_mode border = take (&b, CM_BORDER_MODE_COUNT);
  uint32_t value = take (&b, 0) * (depth == CM_DEPTH_16 ? 257 : 1);
  int it = 1 + take (&b, 2);
  int extra = take (&b, 5);
  const int bps = cm_depth_bytes (depth);
  /* fp, tp: rows padded by extra and 3 samples */
  cm_image f = test_image_new (w, h, depth, 0);
  cm_image fp = test_image_new (w, h, depth, extra * bps);
  cm_image e = test_image_new (w, h, depth, 0);
  cm_image dl = test_image_new (w, h, depth, 0);
  cm_image o = test_image_new (w, h, depth, 0);
  cm_image c = test_image_new (w, h, depth, 0);
  cm_image t = test_image_new (w, h, depth, 0);
  cm_image tp = test_image_new (w, h, depth, 3 * bps);
  cm_se *se;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint32_t v = take (&b, 0);

      if (depth == CM_DEPTH_16)
        v = v << 8 | take (&b, 0);
      test_image_set (&f, x, y, v);
      test_image_set (&fp, x, y, v);
    }
  se = random_se (&b);

  /* erosion <= f <= dilation when the origin is in the SE */
  morph (CM_MORPH_ERODE, se, it, border, value, &f, &e);
  morph (CM_MORPH_DILATE, se, it, border, value, &f, &dl);
  if (cm_se_get (se, 0, 0)) {
    CHECK (leq (&e, &f));
    CHECK (leq (&f, &dl));
  }
  /* the pitch does not matter */
  morph (CM_MORPH_ERODE, se, it, border, value, &fp, &tp);
  CHECK (equal (&tp, &e));
  /* gradient = dilation - erosion (saturated) */
  morph (CM_MORPH_GRADIENT, se, it, border, value, &f, &t);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint32_t a = test_image_get (&dl, x, y), z = test_image_get (&e, x, y);
      CHECK (test_image_get (&t, x, y) == (a > z ? a - z : 0));
    }

  if (border == CM_BORDER_NEUTRAL) {
    morph (CM_MORPH_OPEN, se, it, border, value, &f, &o);
    morph (CM_MORPH_CLOSE, se, it, border, value, &f, &c);
    CHECK (leq (&o, &f));
    CHECK (leq (&f, &c));
    /* idempotence, for one iteration (the opening by B^N is not N
     * openings by B) */
    if (it == 1) {
      morph (CM_MORPH_OPEN, se, 1, border, value, &o, &t);
      CHECK (equal (&t, &o));
      morph (CM_MORPH_CLOSE, se, 1, border, value, &c, &t);
      CHECK (equal (&t, &c));
    }
    morph (CM_MORPH_TOPHAT, se, it, border, value, &f, &t);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        CHECK (test_image_get (&t, x, y) == test_image_get (&f, x, y) -
            test_image_get (&o, x, y));
  }
  cm_se_free (se);

  /* median between minimum and maximum of the window, monotone in p */
  {
    cm_median_desc md;
    cm_se *rect = NULL;
    double p1 = take (&b, 101), p2 = take (&b, 101);
    cm_image m1 = test_image_new (w, h, depth, 0);
    cm_image m2 = test_image_new (w, h, depth, 0);

    memset (&md, 0, sizeof (md));
    md.window_w = 1 + 2 * take (&b, 6);
    md.window_h = 1 + 2 * take (&b, 6);
    md.border = border == CM_BORDER_NEUTRAL ? CM_BORDER_REPLICATE : border;
    md.border_value = value;
    md.percentile = 0;
    CHECK (cm_median_ref (&md, &f, &e) == CM_OK);
    md.percentile = 100;
    CHECK (cm_median_ref (&md, &f, &dl) == CM_OK);
    md.percentile = p1 < p2 ? p1 : p2;
    CHECK (cm_median_ref (&md, &f, &m1) == CM_OK);
    md.percentile = p1 < p2 ? p2 : p1;
    CHECK (cm_median_ref (&md, &fp, &m2) == CM_OK);
    CHECK (leq (&e, &m1) && leq (&m1, &m2) && leq (&m2, &dl));
    CHECK (cm_se_new_rect (&rect, md.window_w, md.window_h) == CM_OK);
    if (md.border == CM_BORDER_REPLICATE) {
      morph (CM_MORPH_ERODE, rect, 1, md.border, value, &f, &t);
      CHECK (equal (&t, &e));
      morph (CM_MORPH_DILATE, rect, 1, md.border, value, &f, &t);
      CHECK (equal (&t, &dl));
    }
    cm_se_free (rect);
    test_image_free (&m1);
    test_image_free (&m2);
  }

  /* linear openings: anti-extensive, spectrum = sums */
  {
    cm_linspectrum_desc ld;
    uint64_t spec[8];
    int n;

    memset (&ld, 0, sizeof (ld));
    ld.length = 1 + take (&b, 30);
    ld.angle_min = take (&b, 0) - 128.0;
    ld.angle_step = 1 + take (&b, 90);
    ld.angle_max = ld.angle_min + ld.angle_step * (1 + take (&b, 8)) - 0.5;
    ld.op = take (&b, 2) ? CM_MORPH_CLOSE : CM_MORPH_OPEN;
    n = cm_linspectrum_count_angles (&ld);
    CHECK (n >= 1 && n <= 8);
    CHECK (cm_linspectrum_ref (&ld, &f, spec, &o, NULL) == CM_OK);
    for (int i = 0; i < n; i++) {
      uint64_t sum = 0;

      CHECK (cm_linopen_ref (ld.length, cm_linspectrum_angle (&ld, i), ld.op,
              &f, &t) == CM_OK);
      if (ld.op == CM_MORPH_OPEN)
        CHECK (leq (&t, &f) && leq (&t, &o));
      else
        CHECK (leq (&f, &t) && leq (&o, &t));
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          sum += test_image_get (&t, x, y);
      CHECK (sum == spec[i]);
    }
  }

  test_image_free (&f);
  test_image_free (&fp);
  test_image_free (&e);
  test_image_free (&dl);
  test_image_free (&o);
  test_image_free (&c);
  test_image_free (&t);
  test_image_free (&tp);
  return 0;
}
