/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The linear-spectrum reference (linspectrum-ref.c) against:
 *  - a brute force written here from the definition in linspectrum.h:
 *    for every pixel, the scan line through it is rebuilt by testing every
 *    position, and the opening (closing) is the max (min) over every
 *    admissible window of L positions of the min (max) over the window
 *    cut to the run, one window at a time;
 *  - the 2-D opening/closing of cm_morph_ref (NEUTRAL border) by the
 *    straight segment at 0, 90, 45 and 135 degrees, where the definition
 *    says they are the same;
 *  - spectrum, supremum and orientation == sums and extremes of the single
 *    orientations (ties: smallest index);
 *  - applications: parallel lines at a known angle (OPEN) and a rotated
 *    page of staff lines (CLOSE, L = 250, -10..10 step 0.25, paper 000
 *    section 6.1.3), both from tests/common/synthetic-lines.c, give their
 *    angle back through cm_linspectrum_dominant;
 *  - the parabola refinement on synthetic spectra, orientation counts and
 *    argument checks;
 *  - cm_linspectrum_ref_mt == cm_linspectrum_ref on any number of threads,
 *    and a flag set before or during a run stops it. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linspectrum/linspectrum.h"
#include "morph/morph.h"
#include "morph/se.h"
#include "synthetic-lines.h"
#include "core-test.h"
#include "test-count.h"
#include "test-util.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---------------------------------------------------------------------- */
/* Brute force from the definition */

/* the geometry paragraph of linspectrum.h, literally */
static void
brute_geometry (double alpha, int *steep, double *k)
{
  double r = fmod (alpha, 180.0);

  if (r < 0)
    r += 180.0;
  if (r >= 180.0)
    r = 0.0;
  if (r <= 45.0) {
    *steep = 0;
    *k = tan (r * M_PI / 180.0);
  } else if (r >= 135.0) {
    *steep = 0;
    *k = tan ((r - 180.0) * M_PI / 180.0);
  } else {
    *steep = 1;
    *k = tan ((90.0 - r) * M_PI / 180.0);
  }
}

/* pixel of scan line b at position q (shallow: (q, b - lround (q k)),
 * steep: (b - lround (q k), q)); 1 when inside the image */
static int
line_pixel (int steep, double k, long b, int q, int w, int h, int *x, int *y)
{
  long other = b - lround (q * k);

  if (steep) {
    *x = (int) other;
    *y = q;
  } else {
    *x = q;
    *y = (int) other;
  }
  return other >= 0 && other < (steep ? w : h);
}

/* Opening (close = 0) or closing of src by the scan-line segment of L at
 * alpha, pixel by pixel. */
static void
brute_linear (const cm_image * src, int L, double alpha, int close,
    const cm_image * dst)
{
  int w = src->width, h = src->height, steep, o = L / 2;
  double k;
  int span, p0, p1;
  uint32_t *g;

  brute_geometry (alpha, &steep, &k);
  span = steep ? h : w;
  g = malloc (sizeof (uint32_t) * (size_t) span);
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      int p = steep ? y : x;
      long b = steep ? x + lround (y * k) : y + lround (x * k);
      uint32_t best;

      /* the run of line b inside the image: every position tested */
      p0 = -1;
      p1 = -2;
      for (int q = 0; q < span; q++) {
        int px, py;

        if (line_pixel (steep, k, b, q, w, h, &px, &py)) {
          if (p0 < 0)
            p0 = q;
          else if (q != p1 + 1)
            FAIL ("brute: line %ld at %.4f is not one run", b, alpha);
          p1 = q;
          g[q] = test_image_get (src, px, py);
        }
      }
      if (p < p0 || p > p1) {
        FAIL ("brute: pixel (%d, %d) is not on its own line", x, y);
        continue;
      }
      /* windows [s, s + L - 1] containing p with origin s + o in the run */
      best = close ? cm_depth_max (src->depth) : 0;
      for (int s = p - L + 1; s <= p; s++) {
        uint32_t ext;
        int lo, hi;

        if (s + o < p0 || s + o > p1)
          continue;
        lo = s < p0 ? p0 : s;
        hi = s + L - 1 > p1 ? p1 : s + L - 1;
        ext = g[lo];
        for (int q = lo; q <= hi; q++)
          ext = close ? (g[q] > ext ? g[q] : ext) : (g[q] < ext ? g[q] : ext);
        if (close ? ext < best : ext > best)
          best = ext;
      }
      test_image_set (dst, x, y, best);
    }
  }
  free (g);
}

/* ---------------------------------------------------------------------- */

static void
fill_input (cm_image * img, test_rng * r, int levels)
{
  if (levels > 0)
    test_image_fill_levels (img, r, levels);
  else
    test_image_fill_random (img, r);
  test_image_set (img, 0, 0, cm_depth_max (img->depth) / 3 + 1);
}

static const double brute_angles[] = {
  0, 7, 12.25, 26.5651, 30, 44.9, 45, 45.1, 60, 63.4349, 89.75, 90, 90.5,
  100, 120, 134.9, 135, 135.1, 150, 170, 179.75, 180, 197.5, 271, -10,
  -33.3, -45, -90, 359.5, 721.25
};

static void
test_brute (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 7}, {7, 1}, {2, 3}, {13, 9}, {24, 17}, {9, 30}
  };
  static const int lengths[] = { 1, 2, 3, 4, 5, 8, 11, 40 };
  uint64_t seed = 1;

  for (int si = 0; si < N_OF (sizes); si++) {
    for (int di = 0; di < 2; di++) {
      cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
      int w = sizes[si][0], h = sizes[si][1];
      cm_image src = test_image_new (w, h, depth, di ? 2 : 3);
      cm_image got = test_image_new (w, h, depth, 1);
      cm_image exp = test_image_new (w, h, depth, 0);
      test_rng rng;

      test_rng_seed (&rng, seed++);
      fill_input (&src, &rng, (si & 1) ? 4 : 0);
      for (int li = 0; li < N_OF (lengths); li++) {
        for (int ai = 0; ai < N_OF (brute_angles); ai++) {
          for (int close = 0; close < 2; close++) {
            char what[160];
            cm_status st;

            snprintf (what, sizeof (what), "brute %dx%d/%d L=%d a=%g %s",
                w, h, depth, lengths[li], brute_angles[ai],
                close ? "close" : "open");
            brute_linear (&src, lengths[li], brute_angles[ai], close, &exp);
            st = cm_linopen_ref (lengths[li], brute_angles[ai],
                close ? CM_MORPH_CLOSE : CM_MORPH_OPEN, &src, &got);
            checks++;
            if (st != CM_OK)
              FAIL ("%s: status %d", what, (int) st);
            else if (!test_image_equal (&got, &exp, what))
              failures++;
          }
        }
      }
      test_image_free (&src);
      test_image_free (&got);
      test_image_free (&exp);
    }
  }
}

/* ---------------------------------------------------------------------- */
/* 0, 90, 45, 135 degrees == the 2-D operation by the straight segment */

static void
test_straight (void)
{
  static const int sizes[][2] = { {1, 1}, {5, 1}, {1, 6}, {17, 12},
  {40, 33}
  };
  static const int lengths[] = { 1, 2, 3, 4, 6, 7, 10, 15, 41, 64 };
  /* angle, which SE: 0 rect L x 1, 1 rect 1 x L, 2 diagonal up, 3 down
   * (synth_segment_se at 45, 135), 4 cm_se_new_line (odd L only),
   * 5 synth_segment_se at 0 or 90 (the GPU test's segments) */
  static const struct
  {
    double angle;
    int kind;
  } cases[] = {
    {0, 0}, {180, 0}, {-180, 0}, {360, 0}, {90, 1}, {-90, 1}, {270, 1},
    {45, 2}, {225, 2}, {-135, 2}, {135, 3}, {-45, 3}, {315, 3},
    {45, 4}, {135, 4}, {0, 4}, {90, 4}, {0, 5}, {180, 5}, {90, 5}
  };
  uint64_t seed = 100;

  for (int si = 0; si < N_OF (sizes); si++) {
    for (int di = 0; di < 2; di++) {
      cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
      int w = sizes[si][0], h = sizes[si][1];
      cm_image src = test_image_new (w, h, depth, 1);
      cm_image got = test_image_new (w, h, depth, 0);
      cm_image exp = test_image_new (w, h, depth, 2);
      test_rng rng;

      test_rng_seed (&rng, seed++);
      fill_input (&src, &rng, si == 3 ? 3 : 0);
      for (int li = 0; li < N_OF (lengths); li++) {
        int L = lengths[li];

        for (int ci = 0; ci < N_OF (cases); ci++) {
          cm_se *se = NULL, *refl = NULL;

          switch (cases[ci].kind) {
            case 0:
              cm_se_new_rect (&se, L, 1);
              break;
            case 1:
              cm_se_new_rect (&se, 1, L);
              break;
            case 2:
            case 3:
              se = synth_segment_se (L, cases[ci].kind == 2 ? 45 : 135);
              break;
            case 4:
              if (!(L & 1))
                continue;
              cm_se_new_line (&se, L, cases[ci].angle);
              break;
            default:
              se = synth_segment_se (L, (int) fmod (cases[ci].angle, 180));
              break;
          }
          if (!se) {
            FAIL ("straight: no SE for L=%d kind %d", L, cases[ci].kind);
            continue;
          }
          if (cm_se_reflect (se, &refl) != CM_OK) {
            FAIL ("straight: cm_se_reflect failed");
            cm_se_free (se);
            continue;
          }
          for (int close = 0; close < 2; close++) {
            /* the closing is M - opening (M - f): the closing by the
             * reflected segment (the same one when L is odd) */
            cm_morph_desc md = { close ? CM_MORPH_CLOSE : CM_MORPH_OPEN,
              close ? refl : se, 1, CM_BORDER_NEUTRAL, 0
            };
            char what[160];

            snprintf (what, sizeof (what), "straight %dx%d/%d L=%d a=%g "
                "kind %d %s", w, h, depth, L, cases[ci].angle,
                cases[ci].kind, close ? "close" : "open");
            checks++;
            if (cm_morph_ref (&md, &src, &exp) != CM_OK ||
                cm_linopen_ref (L, cases[ci].angle, md.op, &src,
                    &got) != CM_OK)
              FAIL ("%s: status", what);
            else if (!test_image_equal (&got, &exp, what))
              failures++;
          }
          cm_se_free (se);
          cm_se_free (refl);
        }
      }
      test_image_free (&src);
      test_image_free (&got);
      test_image_free (&exp);
    }
  }
}

/* ---------------------------------------------------------------------- */
/* spectrum, supremum, orientation == the single orientations combined */

/* The supremum and orientation images against the expected ones: each
 * differing image counts as a failure (test_image_equal reports where) */
static void
compare_outputs (const char *name, const cm_image * sup,
    const cm_image * want_sup, const cm_image * ori,
    const cm_image * want_ori)
{
  char what[240];

  snprintf (what, sizeof (what), "%s supremum", name);
  if (!test_image_equal (sup, want_sup, what))
    failures++;
  snprintf (what, sizeof (what), "%s orientation", name);
  if (!test_image_equal (ori, want_ori, what))
    failures++;
}

static void
check_combined (const cm_linspectrum_desc * d, const cm_image * src,
    const char *name)
{
  int n = cm_linspectrum_count_angles (d), w = src->width, h = src->height;
  uint64_t *spec = calloc ((size_t) n, sizeof (uint64_t));
  cm_image sup = test_image_new (w, h, src->depth, 3);
  cm_image ori = test_image_new (w, h, CM_DEPTH_16, 2);
  cm_image one = test_image_new (w, h, src->depth, 0);
  cm_image bsup = test_image_new (w, h, src->depth, 0);
  cm_image bori = test_image_new (w, h, CM_DEPTH_16, 0);
  uint64_t *spec2 = calloc ((size_t) n, sizeof (uint64_t));
  int close = d->op == CM_MORPH_CLOSE;
  cm_status st;

  checks++;
  st = cm_linspectrum_ref (d, src, spec, &sup, &ori);
  if (st != CM_OK) {
    FAIL ("%s: cm_linspectrum_ref status %d", name, (int) st);
    goto out;
  }
  for (int i = 0; i < n; i++) {
    uint64_t s = 0;

    brute_linear (src, d->length, cm_linspectrum_angle (d, i), close, &one);
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        uint32_t v = test_image_get (&one, x, y);

        s += v;
        if (i == 0 || (close ? v < test_image_get (&bsup, x, y)
                : v > test_image_get (&bsup, x, y))) {
          test_image_set (&bsup, x, y, v);
          test_image_set (&bori, x, y, (uint32_t) i);
        }
      }
    }
    if (s != spec[i])
      FAIL ("%s: spectrum[%d] (angle %g) = %llu, expected %llu", name, i,
          cm_linspectrum_angle (d, i), (unsigned long long) spec[i],
          (unsigned long long) s);
  }
  compare_outputs (name, &sup, &bsup, &ori, &bori);
  /* the outputs are optional and independent */
  st = cm_linspectrum_ref (d, src, spec2, NULL, NULL);
  if (st != CM_OK || memcmp (spec, spec2, sizeof (uint64_t) * n) != 0)
    FAIL ("%s: spectrum without sup/orient differs", name);
out:
  free (spec);
  free (spec2);
  test_image_free (&sup);
  test_image_free (&ori);
  test_image_free (&one);
  test_image_free (&bsup);
  test_image_free (&bori);
}

static void
test_combined (void)
{
  static const struct
  {
    double a0, a1, step;
  } sets[] = {
    {0, 180, 7.5}, {-10, 10, 0.25}, {30, 31, 1}, {0, 180, 13}
  };
  static const int lengths[] = { 1, 4, 9, 30 };
  test_rng rng;
  uint64_t seed = 300;

  for (int di = 0; di < 2; di++) {
    for (int si = 0; si < N_OF (sets); si++) {
      for (int li = 0; li < N_OF (lengths); li++) {
        for (int close = 0; close < 2; close++) {
          cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
          int w = 19 + si, h = 14 + li;
          cm_image src = test_image_new (w, h, depth, 1);
          cm_linspectrum_desc d = { lengths[li], sets[si].a0, sets[si].a1,
            sets[si].step, close ? CM_MORPH_CLOSE : CM_MORPH_OPEN, 1, 1
          };
          char name[160];

          test_rng_seed (&rng, seed++);
          /* few levels: ties between orientations are everywhere */
          fill_input (&src, &rng, (li & 1) ? 3 : 0);
          snprintf (name, sizeof (name), "combined %dx%d/%d L=%d %g..%g/%g "
              "%s", w, h, depth, d.length, d.angle_min, d.angle_max,
              d.angle_step, close ? "close" : "open");
          check_combined (&d, &src, name);
          test_image_free (&src);
        }
      }
    }
  }
}

/* ---------------------------------------------------------------------- */
/* applications */

/* One check: the dominant orientation of img's spectrum under d
 * (cm_linspectrum_dominant) within 0.25 degrees of theta, modulo 180;
 * what says what img shows */
static void
check_dominant (const cm_linspectrum_desc * d, const cm_image * img,
    double theta, const char *what)
{
  int n = cm_linspectrum_count_angles (d);
  uint64_t *spec = calloc ((size_t) n, sizeof (uint64_t));
  double angle, value, err;

  checks++;
  if (cm_linspectrum_ref (d, img, spec, NULL, NULL) != CM_OK ||
      cm_linspectrum_dominant (d, spec, n, &angle, &value) != CM_OK) {
    FAIL ("%s %.2f: status", what, theta);
  } else {
    err = fabs (angle - theta);
    if (err > 90)
      err = 180 - err;
    if (err > 0.25)
      FAIL ("%s %.2f: dominant %.3f (value %.0f)", what, theta, angle,
          value);
    else if (getenv ("CM_TEST_VERBOSE"))
      printf ("%s %.2f: dominant %.3f\n", what, theta, angle);
  }
  free (spec);
}

/* bright parallel lines (Gaussian profile) every 11 pixels on a dark noisy
 * background, found with OPEN, L = 101, over 0..180 step 1. Angles near
 * multiples of 45 degrees are left out: there the scan lines of the
 * nearest orientation are exactly aligned with the pixel grid and the
 * digital geometry biases the peak (not a property of the algorithm) */
static void
test_parallel_lines (void)
{
  static const double thetas[] = { 30.0, 72.4, 121.3, 163.8, 58.7, 101.1,
    4.6
  };
  for (int ti = 0; ti < N_OF (thetas); ti++) {
    cm_image img = test_image_new (200, 200, CM_DEPTH_8, 0);
    cm_linspectrum_desc d = { 101, 0, 180, 1, CM_MORPH_OPEN, 0, 0 };

    synth_parallel_lines (&img, thetas[ti], 11.0, 77 + (uint64_t) ti);
    check_dominant (&d, &img, thetas[ti], "parallel lines at");
    test_image_free (&img);
  }
}

/* an 800 x 600 page of staves rotated by theta (synth_staff_page), CLOSE
 * with L = 250 over -10..10 step 0.25 (paper 000 section 6.1.3) */
static void
test_music_sheet (void)
{
  static const double thetas[] = { 3.3, -7.6, 1.3, -2.45, 9.1 };

  for (int ti = 0; ti < N_OF (thetas); ti++) {
    cm_image img = test_image_new (800, 600, CM_DEPTH_8, 0);
    cm_linspectrum_desc d = { 250, -10, 10, 0.25, CM_MORPH_CLOSE, 0, 0 };

    synth_staff_page (&img, thetas[ti], 91 + (uint64_t) ti);
    check_dominant (&d, &img, thetas[ti], "music sheet rotated by");
    test_image_free (&img);
  }
}

/* ---------------------------------------------------------------------- */
/* the parabola helper */

static void
test_dominant (void)
{
  cm_linspectrum_desc d = { 5, 0, 180, 1, CM_MORPH_OPEN, 0, 0 };
  uint64_t s[180];
  double a, v;

  /* an exact parabola peaking at 37.3 */
  for (int i = 0; i < 180; i++)
    s[i] = (uint64_t) (1e12 - 1e6 * (i - 37.3) * (i - 37.3));
  checks++;
  if (cm_linspectrum_dominant (&d, s, 180, &a, &v) != CM_OK ||
      fabs (a - 37.3) > 1e-6 || fabs (v - 1e12) > 10)
    FAIL ("dominant: parabola at 37.3 gave %.9f (%.1f)", a, v);

  /* wrapping over the full 180 degrees: peaks at -0.3 == 179.7 and, on
   * the other side, at 179.6 */
  for (int k = 0; k < 2; k++) {
    const double off = k ? 0.4 : 0.3, want = 180 - off;

    for (int i = 0; i < 180; i++) {
      double x = i < 90 ? i + off : i - 180 + off;
      s[i] = (uint64_t) (1e12 - 1e6 * x * x);
    }
    checks++;
    if (cm_linspectrum_dominant (&d, s, 180, &a, &v) != CM_OK ||
        fabs (a - want) > 1e-6)
      FAIL ("dominant: wrapped peak gave %.9f, expected %.1f", a, want);
  }

  /* not wrapping: the ends are not refined */
  {
    cm_linspectrum_desc e = { 5, -10, 10, 0.25, CM_MORPH_OPEN, 0, 0 };
    int n = cm_linspectrum_count_angles (&e);

    for (int i = 0; i < n; i++)
      s[i] = (uint64_t) (1000 + i);
    checks++;
    if (cm_linspectrum_dominant (&e, s, n, &a, &v) != CM_OK || a != 9.75 ||
        v != 1000 + n - 1)
      FAIL ("dominant: last orientation gave %.9f (%.1f)", a, v);
    /* in between: parabola at 2.6 degrees = index 50.4 */
    for (int i = 0; i < n; i++) {
      double x = (i - 50.4) * 0.25;
      s[i] = (uint64_t) (1e12 - 1e8 * x * x);
    }
    checks++;
    if (cm_linspectrum_dominant (&e, s, n, &a, &v) != CM_OK ||
        fabs (a - 2.6) > 1e-6)
      FAIL ("dominant: 0.25 step parabola gave %.9f, expected 2.6", a);
    /* CLOSE: the minimum */
    e.op = CM_MORPH_CLOSE;
    for (int i = 0; i < n; i++) {
      double x = (i - 20.7) * 0.25;
      s[i] = (uint64_t) (1e9 + 1e8 * x * x);
    }
    checks++;
    if (cm_linspectrum_dominant (&e, s, n, &a, &v) != CM_OK ||
        fabs (a - (-10 + 20.7 * 0.25)) > 1e-6 || fabs (v - 1e9) > 10)
      FAIL ("dominant: close minimum gave %.9f (%.1f)", a, v);
  }

  /* ties: the smallest index, flat: no refinement */
  for (int i = 0; i < 180; i++)
    s[i] = 7;
  checks++;
  if (cm_linspectrum_dominant (&d, s, 180, &a, &v) != CM_OK || a != 0.0 ||
      v != 7.0)
    FAIL ("dominant: flat spectrum gave %.9f (%.1f)", a, v);
  s[10] = s[20] = 9;
  checks++;
  if (cm_linspectrum_dominant (&d, s, 180, &a, &v) != CM_OK ||
      fabs (a - 10.0) > 1e-12)
    FAIL ("dominant: tie gave %.9f, expected 10", a);

  /* one and two orientations */
  {
    cm_linspectrum_desc one = { 5, 30, 31, 1, CM_MORPH_OPEN, 0, 0 };
    cm_linspectrum_desc two = { 5, 30, 32, 1, CM_MORPH_OPEN, 0, 0 };
    uint64_t t2[2] = { 3, 5 };

    checks++;
    if (cm_linspectrum_dominant (&one, t2, 1, &a, NULL) != CM_OK || a != 30)
      FAIL ("dominant: single orientation gave %.9f", a);
    checks++;
    if (cm_linspectrum_dominant (&two, t2, 2, &a, &v) != CM_OK || a != 31 ||
        v != 5)
      FAIL ("dominant: two orientations gave %.9f", a);
  }

  /* wrong n, NULL */
  CHECK (cm_linspectrum_dominant (&d, s, 179, &a, &v) == CM_ERR_INVALID_ARG,
      "dominant: wrong n accepted");
  CHECK (cm_linspectrum_dominant (&d, NULL, 180, &a, &v) ==
      CM_ERR_INVALID_ARG, "dominant: NULL spectrum accepted");
  CHECK (cm_linspectrum_dominant (&d, s, 180, NULL, &v) ==
      CM_ERR_INVALID_ARG, "dominant: NULL angle accepted");
  CHECK (cm_linspectrum_dominant (NULL, s, 180, &a, &v) ==
      CM_ERR_INVALID_ARG, "dominant: NULL desc accepted");
}

/* ---------------------------------------------------------------------- */
/* counts, geometry, argument checks */

static void
test_counts_and_args (void)
{
  static const struct
  {
    double a0, a1, step;
    int n;
  } counts[] = {
    {0, 180, 1, 180}, {-10, 10, 0.25, 80}, {0, 180, 7.5, 24},
    {0, 1, 0.3, 4}, {0, 180, 0.25, 720}, {30, 31, 1, 1}, {0, 0.5, 1, 1},
    {0, 180, 0.1, 1800}, {-90, 90, 0.05, 3600}, {0, 4096, 1, 4096}
  };
  const cm_linspectrum_desc good = { 11, 0, 180, 1, CM_MORPH_OPEN, 0, 0 };
  cm_linspectrum_desc d;
  cm_image src = test_image_new (8, 6, CM_DEPTH_8, 0);
  cm_image dst = test_image_new (8, 6, CM_DEPTH_8, 0);
  cm_image small = test_image_new (7, 6, CM_DEPTH_8, 0);
  cm_image o8 = test_image_new (8, 6, CM_DEPTH_8, 0);
  cm_image o16 = test_image_new (8, 6, CM_DEPTH_16, 0);
  uint64_t spec[180];
  int steep;
  double k;

  test_image_fill (&src, 9);
  for (int i = 0; i < N_OF (counts); i++) {
    cm_linspectrum_desc c = good;

    c.angle_min = counts[i].a0;
    c.angle_max = counts[i].a1;
    c.angle_step = counts[i].step;
    CHECK (cm_linspectrum_count_angles (&c) == counts[i].n,
        "count %g..%g/%g = %d, expected %d", c.angle_min, c.angle_max,
        c.angle_step, cm_linspectrum_count_angles (&c), counts[i].n);
    /* the definition: the last one is below max, the next is not */
    CHECK (cm_linspectrum_angle (&c, counts[i].n - 1) < c.angle_max &&
        cm_linspectrum_angle (&c, counts[i].n) >= c.angle_max,
        "count %g..%g/%g: angles straddle max wrongly", c.angle_min,
        c.angle_max, c.angle_step);
  }
  CHECK (cm_linspectrum_angle (&good, 37) == 37.0, "angle 37");

  /* geometry */
  cm_linspectrum_line_geometry (0, &steep, &k);
  CHECK (!steep && k == 0.0, "geometry 0");
  cm_linspectrum_line_geometry (90, &steep, &k);
  CHECK (steep && k == 0.0, "geometry 90");
  cm_linspectrum_line_geometry (45, &steep, &k);
  CHECK (!steep && fabs (k - 1.0) < 1e-12, "geometry 45");
  cm_linspectrum_line_geometry (135, &steep, &k);
  CHECK (!steep && fabs (k + 1.0) < 1e-12, "geometry 135");
  cm_linspectrum_line_geometry (45.01, &steep, &k);
  CHECK (steep && k > 0.99 && k < 1.0, "geometry 45.01");
  cm_linspectrum_line_geometry (-30, &steep, &k);
  CHECK (!steep && fabs (k + tan (M_PI / 6)) < 1e-12, "geometry -30");
  cm_linspectrum_line_geometry (120, &steep, &k);
  CHECK (steep && fabs (k + tan (M_PI / 6)) < 1e-12, "geometry 120");
  cm_linspectrum_line_geometry (60, NULL, NULL);

  /* descriptors */
  CHECK (cm_linspectrum_desc_check (&good) == CM_OK, "good desc refused");
  CHECK (cm_linspectrum_desc_check (NULL) == CM_ERR_INVALID_ARG, "NULL");
  d = good;
  d.length = 0;
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG, "length 0");
  d.length = CM_LINSPECTRUM_MAX_LENGTH + 1;
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG, "length max");
  d.length = CM_LINSPECTRUM_MAX_LENGTH;
  CHECK (cm_linspectrum_desc_check (&d) == CM_OK, "length max refused");
  d = good;
  d.angle_min = NAN;
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG, "NaN min");
  d = good;
  d.angle_max = INFINITY;
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG, "inf max");
  d = good;
  d.angle_step = NAN;
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG, "NaN step");
  d.angle_step = 0;
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG, "step 0");
  d.angle_step = -1;
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG, "step < 0");
  d = good;
  d.angle_max = d.angle_min;
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG, "max == min");
  d.angle_max = d.angle_min - 5;
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG, "max < min");
  d = good;
  d.angle_step = 0.01;          /* 18000 orientations */
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG &&
      cm_linspectrum_count_angles (&d) == 0, "too many orientations");
  d.angle_step = 1e-300;
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG,
      "tiny step");
  d = good;
  d.angle_max = 4097;
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG, "4097");
  d = good;
  d.op = CM_MORPH_ERODE;
  CHECK (cm_linspectrum_desc_check (&d) == CM_ERR_INVALID_ARG, "op erode");
  d.op = (cm_morph_op) 99;
  CHECK (cm_linspectrum_count_angles (&d) == 0, "op 99 counted");

  /* reference entry points */
  CHECK (cm_linspectrum_ref (&good, &src, spec, NULL, NULL) == CM_OK,
      "ref refused a good call");
  CHECK (cm_linspectrum_ref (&good, &src, NULL, NULL, NULL) ==
      CM_ERR_INVALID_ARG, "ref: NULL spectrum");
  CHECK (cm_linspectrum_ref (&good, NULL, spec, NULL, NULL) ==
      CM_ERR_INVALID_ARG, "ref: NULL src");
  CHECK (cm_linspectrum_ref (&good, &src, spec, &small, NULL) ==
      CM_ERR_INVALID_ARG, "ref: sup of another size");
  CHECK (cm_linspectrum_ref (&good, &src, spec, &o16, NULL) ==
      CM_ERR_INVALID_ARG, "ref: sup of another depth");
  CHECK (cm_linspectrum_ref (&good, &src, spec, NULL, &o8) ==
      CM_ERR_INVALID_ARG, "ref: 8-bit orientation");
  CHECK (cm_linspectrum_ref (&good, &src, spec, &dst, &o16) == CM_OK,
      "ref: good sup/orient refused");
  d = good;
  d.length = 0;
  CHECK (cm_linspectrum_ref (&d, &src, spec, NULL, NULL) ==
      CM_ERR_INVALID_ARG, "ref: length 0");
  CHECK (cm_linopen_ref (0, 0, CM_MORPH_OPEN, &src, &dst) ==
      CM_ERR_INVALID_ARG, "linopen: length 0");
  CHECK (cm_linopen_ref (3, NAN, CM_MORPH_OPEN, &src, &dst) ==
      CM_ERR_INVALID_ARG, "linopen: NaN angle");
  CHECK (cm_linopen_ref (3, 0, CM_MORPH_DILATE, &src, &dst) ==
      CM_ERR_INVALID_ARG, "linopen: dilate");
  CHECK (cm_linopen_ref (3, 0, CM_MORPH_OPEN, &src, &small) ==
      CM_ERR_INVALID_ARG, "linopen: size");
  CHECK (cm_linopen_ref (3, 0, CM_MORPH_OPEN, &src, &o16) ==
      CM_ERR_INVALID_ARG, "linopen: depth");
  CHECK (cm_linopen_ref (3, 0, CM_MORPH_OPEN, NULL, &dst) ==
      CM_ERR_INVALID_ARG, "linopen: NULL");
  /* a constant image is its own opening and closing */
  CHECK (cm_linopen_ref (5, 33, CM_MORPH_CLOSE, &src, &dst) == CM_OK &&
      test_image_get (&dst, 3, 3) == 9, "linopen: constant image");

  test_image_free (&src);
  test_image_free (&dst);
  test_image_free (&small);
  test_image_free (&o8);
  test_image_free (&o16);
}

/* ---------------------------------------------------------------------- */
/* over threads: the same results, stoppable */

/* cm_linspectrum_ref_mt (@o) against cm_linspectrum_ref: spectrum,
 * supremum and orientation all equal */
static void
check_mt (const cm_linspectrum_desc * d, const cm_image * src,
    const cm_cpu_opts * o, const char *name)
{
  int n = cm_linspectrum_count_angles (d), w = src->width, h = src->height;
  uint64_t *want = calloc ((size_t) n, sizeof (uint64_t));
  uint64_t *got = calloc ((size_t) n, sizeof (uint64_t));
  uint64_t *only = calloc ((size_t) n, sizeof (uint64_t));
  cm_image wsup = test_image_new (w, h, src->depth, 0);
  cm_image word = test_image_new (w, h, CM_DEPTH_16, 0);
  cm_image gsup = test_image_new (w, h, src->depth, 5);
  cm_image gord = test_image_new (w, h, CM_DEPTH_16, 3);
  cm_status st;

  checks++;
  if (cm_linspectrum_ref (d, src, want, &wsup, &word) != CM_OK) {
    FAIL ("%s: reference failed", name);
    goto out;
  }
  /* poison: every entry must be written */
  memset (got, 0xa5, sizeof (uint64_t) * n);
  memset (only, 0x5a, sizeof (uint64_t) * n);
  st = cm_linspectrum_ref_mt (d, src, got, &gsup, &gord, o);
  if (st != CM_OK) {
    FAIL ("%s: status %d", name, (int) st);
    goto out;
  }
  for (int i = 0; i < n; i++) {
    if (got[i] != want[i]) {
      FAIL ("%s: spectrum[%d] = %llu, reference %llu", name, i,
          (unsigned long long) got[i], (unsigned long long) want[i]);
      break;
    }
  }
  compare_outputs (name, &gsup, &wsup, &gord, &word);
  /* each output alone */
  checks++;
  test_image_fill (&gsup, 1);
  test_image_fill (&gord, 1);
  if (cm_linspectrum_ref_mt (d, src, only, NULL, NULL, o) != CM_OK ||
      memcmp (only, want, sizeof (uint64_t) * n) != 0)
    FAIL ("%s: spectrum alone differs", name);
  else if (cm_linspectrum_ref_mt (d, src, only, &gsup, NULL, o) != CM_OK ||
      !test_image_equal (&gsup, &wsup, name))
    FAIL ("%s: supremum alone differs", name);
  else if (cm_linspectrum_ref_mt (d, src, only, NULL, &gord, o) != CM_OK ||
      !test_image_equal (&gord, &word, name))
    FAIL ("%s: orientation alone differs", name);
out:
  free (want);
  free (got);
  free (only);
  test_image_free (&wsup);
  test_image_free (&word);
  test_image_free (&gsup);
  test_image_free (&gord);
}

static void
test_threads (void)
{
  static const int threads[] = { 1, 2, 3, 5, 8 };
  static const struct
  {
    int w, h;
  } sizes[] = {
    {37, 23}, {1, 17}, {29, 1}, {1, 1}, {64, 48}
  };
  static const struct
  {
    double a0, a1, step;
  } sets[] = {
    /* 1, 2, 4, 24 and 80 orientations: fewer and more than threads */
    {30, 31, 1}, {0, 180, 90}, {10, 180, 45}, {0, 180, 7.5},
    {-10, 10, 0.25}
  };
  test_rng rng;
  uint64_t seed = 900;

  for (int si = 0; si < N_OF (sizes); si++) {
    for (int ai = 0; ai < N_OF (sets); ai++) {
      for (int v = 0; v < 4; v++) {
        /* 8/16 bits, OPEN/CLOSE, odd/even L, few levels (ties between
         * orientations everywhere) or random samples */
        cm_depth depth = (v & 1) ? CM_DEPTH_16 : CM_DEPTH_8;
        int close = (v >> 1) & 1, w = sizes[si].w, h = sizes[si].h;
        cm_linspectrum_desc d = { (si + ai + v) % 3 ? 7 : 12, sets[ai].a0,
          sets[ai].a1, sets[ai].step,
          close ? CM_MORPH_CLOSE : CM_MORPH_OPEN, 1, 1
        };
        cm_image src = test_image_new (w, h, depth, 7);

        test_rng_seed (&rng, seed++);
        fill_input (&src, &rng, (ai + v) % 2 ? 3 : 0);
        for (int ti = 0; ti < N_OF (threads); ti++) {
          cm_cpu_opts o = { threads[ti], NULL };
          char name[200];

          snprintf (name, sizeof (name), "threads %d: %dx%d/%d L=%d "
              "%g..%g/%g %s", o.threads, w, h, depth, d.length, d.angle_min,
              d.angle_max, d.angle_step, close ? "close" : "open");
          check_mt (&d, &src, &o, name);
        }
        test_image_free (&src);
      }
    }
  }

  /* NULL options: cm_linspectrum_ref, argument checks as it */
  {
    cm_linspectrum_desc d = { 9, 0, 180, 15, CM_MORPH_OPEN, 1, 1 };
    cm_image src = test_image_new (33, 21, CM_DEPTH_8, 0);
    cm_image small = test_image_new (32, 21, CM_DEPTH_8, 0);
    cm_cpu_opts o = { 2, NULL };
    uint64_t spec[12];

    test_rng_seed (&rng, seed++);
    fill_input (&src, &rng, 0);
    check_mt (&d, &src, NULL, "NULL options");
    CHECK (cm_linspectrum_ref_mt (&d, &src, NULL, NULL, NULL, &o) ==
        CM_ERR_INVALID_ARG, "ref_mt: NULL spectrum");
    CHECK (cm_linspectrum_ref_mt (&d, NULL, spec, NULL, NULL, &o) ==
        CM_ERR_INVALID_ARG, "ref_mt: NULL src");
    CHECK (cm_linspectrum_ref_mt (&d, &src, spec, &small, NULL, &o) ==
        CM_ERR_INVALID_ARG, "ref_mt: sup of another size");
    CHECK (cm_linspectrum_ref_mt (&d, &src, spec, NULL, &small, &o) ==
        CM_ERR_INVALID_ARG, "ref_mt: 8-bit orientation");
    d.length = 0;
    CHECK (cm_linspectrum_ref_mt (&d, &src, spec, NULL, NULL, &o) ==
        CM_ERR_INVALID_ARG, "ref_mt: length 0");
    test_image_free (&src);
    test_image_free (&small);
  }
}

/* A flag set before the run stops it at once, on one thread or more; one
 * set from another thread 50 ms into a run of seconds stops it within
 * 100 ms (one orientation of this frame takes longer than that on one
 * core: the check between scan lines is what makes it) */
static void
test_cancel (void)
{
  cm_linspectrum_desc d = { 21, 0, 180, 1, CM_MORPH_OPEN, 1, 1 };
  cm_image src = test_image_new (2048, 2048, CM_DEPTH_8, 0);
  cm_image sup = test_image_new (2048, 2048, CM_DEPTH_8, 0);
  cm_image ori = test_image_new (2048, 2048, CM_DEPTH_16, 0);
  uint64_t spec[180];
  int flag = 1;
  canceller c = { &flag, 50000, 0 };
  pthread_t tid;
  double t1;
  test_rng r;
  cm_status st;

  test_rng_seed (&r, 901);
  test_image_fill_random (&src, &r);
  for (int t = 1; t <= 3; t++) {
    cm_cpu_opts o = { t, &flag };

    CHECK (cm_linspectrum_ref_mt (&d, &src, spec, &sup, &ori, &o) ==
        CM_ERR_CANCELLED, "%d thread(s): a run with the flag set was not "
        "cancelled", t);
    CHECK (cm_linspectrum_ref_mt (&d, &src, spec, NULL, NULL, &o) ==
        CM_ERR_CANCELLED, "%d thread(s): a spectrum-only run with the flag "
        "set was not cancelled", t);
  }

  /* 180 orientations of 4 Mpixel: seconds on two cores */
  {
    cm_cpu_opts o = { 2, &flag };

    flag = 0;
    checks++;
    pthread_create (&tid, NULL, cancel_later, &c);
    st = cm_linspectrum_ref_mt (&d, &src, spec, &sup, &ori, &o);
    t1 = now_s ();
    pthread_join (tid, NULL);
    if (st != CM_ERR_CANCELLED)
      FAIL ("a run cancelled after 50 ms returned %d", (int) st);
    else if (t1 - c.set_at > 0.1)
      FAIL ("a run cancelled after 50 ms stopped %.3f s after the flag",
          t1 - c.set_at);
    else if (getenv ("CM_TEST_VERBOSE"))
      printf ("cancelled: stopped %.1f ms after the flag\n",
          (t1 - c.set_at) * 1e3);
  }
  test_image_free (&src);
  test_image_free (&sup);
  test_image_free (&ori);
}

int
main (void)
{
  test_counts_and_args ();
  test_dominant ();
  test_brute ();
  test_straight ();
  test_combined ();
  test_parallel_lines ();
  test_music_sheet ();
  test_threads ();
  test_cancel ();

  return test_count_report ("test-linspectrum-ref");
}
