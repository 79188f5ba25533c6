/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fast CPU median (median-cpu.h) against cm_median_ref, bit for bit:
 * windows of each of its paths (the 3x3 loop, the networks, the 8-bit
 * histograms) at ranks 0, N - 1, the median and between, every border
 * rule (CONSTANT values above the depth's maximum too), 8 and 16 bits,
 * random and few-level images (ties), sizes from 1x1 to wider than one
 * chunk of the networks, odd pitches (16-bit rows off alignment), on 1 to
 * 3 threads. Plus: the windows it refuses go to the reference,
 * cancellation, argument checks and the filter's choice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "median/median-cpu.h"
#include "median/median-filter.h"
#include "test-count.h"
#include "core-test.h"
#include "test-util.h"

static const char *border_names[CM_BORDER_MODE_COUNT] = {
  "neutral", "replicate", "reflect", "mirror", "constant"
};

typedef struct
{
  int w, h;
} size2;

static const size2 sizes[] = {
  {1, 1}, {1, 13}, {13, 1}, {2, 2}, {17, 9}, {64, 48}
};

static const size2 windows[] = {
  {3, 3}, {5, 5}, {7, 7}, {9, 9}, {1, 1}, {3, 5}, {5, 3}, {1, 7}, {7, 1},
  {9, 3}, {3, 9}, {5, 7}, {15, 15}, {17, 15}, {31, 31}, {31, 3}, {1, 31},
  {33, 33}, {65, 5}, {1, 255}
};

static const double percentiles[] = { 0, 50, 100, 10, 37.5, 90 };

/* The plan's output (dst scribbled first, so that every sample must be
 * written) against the reference's; the padding of dst stays 0xA5. */
static void
check_one (const cm_median_cpu_plan * plan, const cm_median_desc * d,
    const cm_image * src, int threads, const char *what)
{
  cm_cpu_opts o = { threads, NULL };
  cm_image got = test_image_new (src->width, src->height, src->depth, 3);
  cm_image exp = test_image_new (src->width, src->height, src->depth, 0);
  size_t row = (size_t) src->width * cm_depth_bytes (src->depth);
  cm_status st;

  for (int y = 0; y < got.height; y++)
    for (int x = 0; x < got.width; x++)
      test_image_set (&got, x, y, (uint32_t) (x * 7 + y * 3) & 0xff);
  checks++;
  if (cm_median_ref (d, src, &exp) != CM_OK) {
    FAIL ("%s: reference failed", what);
  } else if ((st = cm_median_cpu_plan_run (plan, src, &got, &o)) != CM_OK) {
    FAIL ("%s: status %d", what, st);
  } else if (!test_image_equal (&got, &exp, what)) {
    failures++;
  } else {
    for (int y = 0; y < got.height; y++)
      for (size_t b = row; b < got.pitch; b++)
        if (((uint8_t *) got.data)[y * got.pitch + b] != 0xA5) {
          FAIL ("%s: padding of row %d written", what, y);
          y = got.height;
          break;
        }
  }
  test_image_free (&got);
  test_image_free (&exp);
}

static void
test_against_ref (void)
{
  test_rng rng;
  int run = 0;

  test_rng_seed (&rng, 34);
  for (int wi = 0; wi < N_OF (windows); wi++) {
    for (int pi = 0; pi < N_OF (percentiles); pi++) {
      for (int b = 0; b < CM_BORDER_MODE_COUNT; b++) {
        cm_median_desc d = { windows[wi].w, windows[wi].h, percentiles[pi],
          (cm_border_mode) b, 0, CM_MEDIAN_AUTO, 0
        };
        for (int di = 0; di < 2; di++) {
          cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
          cm_median_cpu_plan *plan = NULL;

          /* above the maximum on every other run: clamped */
          d.border_value = test_rng_below (&rng, cm_depth_max (depth) + 1) +
              (run % 2 ? 70000u : 0u);
          int takes = di == 0 || (d.window_w <= CM_MEDIAN_CPU_MAX_SIDE &&
              d.window_h <= CM_MEDIAN_CPU_MAX_SIDE);

          checks++;
          if (cm_median_cpu_takes (&d, depth) != takes ||
              cm_median_cpu_plan_new (&plan, &d, depth) != (takes ? CM_OK :
                  CM_ERR_UNSUPPORTED)) {
            FAIL ("window %dx%d p%g depth %d: taken %d, expected %d",
                d.window_w, d.window_h, d.percentile, depth,
                cm_median_cpu_takes (&d, depth), takes);
            continue;
          }
          if (!takes)
            continue;           /* test_refused () */
          for (int si = 0; si < N_OF (sizes); si++) {
            for (int fill = 0; fill < 2; fill++) {
              /* odd pitches: 16-bit rows off their alignment */
              cm_image src = test_image_new (sizes[si].w, sizes[si].h,
                  depth, (si + fill) % 2 ? 3 : 0);
              char what[160];
              int threads = 1 + run++ % 3;

              if (fill)
                test_image_fill_levels (&src, &rng, 3);
              else
                test_image_fill_random (&src, &rng);
              snprintf (what, sizeof (what), "median %dx%d win %dx%d p%g %s "
                  "(%u) depth %d fill %d threads %d", src.width, src.height,
                  d.window_w, d.window_h, d.percentile, border_names[b],
                  d.border_value, depth, fill, threads);
              check_one (plan, &d, &src, threads, what);
              test_image_free (&src);
            }
          }
          cm_median_cpu_plan_free (plan);
        }
      }
    }
  }
}

static void
test_wide (void)
{
  static const size2 wins[] = {
    {3, 3}, {5, 5}, {7, 7}, {9, 3}, {1, 5}, {15, 15}, {17, 17}, {41, 33}
  };
  static const size2 big[] = { {1031, 7}, {2053, 5}, {300, 31} };
  test_rng rng;

  test_rng_seed (&rng, 35);
  for (int di = 0; di < 2; di++) {
    cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
    for (int si = 0; si < N_OF (big); si++) {
      cm_image src = test_image_new (big[si].w, big[si].h, depth, 1);

      test_image_fill_random (&src, &rng);
      for (int wi = 0; wi < N_OF (wins); wi++) {
        cm_median_desc d = { wins[wi].w, wins[wi].h, 50,
          (cm_border_mode) ((si + wi) % CM_BORDER_MODE_COUNT), 99,
          CM_MEDIAN_AUTO, 0
        };
        cm_median_cpu_plan *plan = NULL;
        char what[128];

        snprintf (what, sizeof (what), "wide %dx%d win %dx%d %s depth %d",
            src.width, src.height, d.window_w, d.window_h,
            border_names[d.border], depth);
        if (!cm_median_cpu_takes (&d, depth))
          continue;
        checks++;
        if (cm_median_cpu_plan_new (&plan, &d, depth) != CM_OK) {
          FAIL ("%s: no plan", what);
          continue;
        }
        check_one (plan, &d, &src, 1 + wi % 3, what);
        cm_median_cpu_plan_free (plan);
      }
      test_image_free (&src);
    }
  }
}

/* 16-bit windows the networks refuse: cm_median_cpu_run is the
 * reference */
static void
test_refused (void)
{
  static const size2 wins[] = { {33, 33}, {33, 3}, {1, 35} };
  test_rng rng;
  cm_image src = test_image_new (23, 19, CM_DEPTH_16, 1);

  test_rng_seed (&rng, 36);
  test_image_fill_random (&src, &rng);
  for (int wi = 0; wi < N_OF (wins); wi++) {
    cm_median_desc d = { wins[wi].w, wins[wi].h, 50, CM_BORDER_MIRROR, 0,
      CM_MEDIAN_AUTO, 0
    };
    cm_median_cpu_plan *plan = NULL;
    cm_cpu_opts o = { 2, NULL };
    cm_image got = test_image_new (23, 19, CM_DEPTH_16, 0);
    cm_image exp = test_image_new (23, 19, CM_DEPTH_16, 0);

    checks++;
    if (cm_median_cpu_takes (&d, CM_DEPTH_16) ||
        cm_median_cpu_plan_new (&plan, &d, CM_DEPTH_16) !=
        CM_ERR_UNSUPPORTED)
      FAIL ("window %dx%d taken", d.window_w, d.window_h);
    checks++;
    if (cm_median_cpu_run (&d, &src, &got, &o) != CM_OK ||
        cm_median_ref (&d, &src, &exp) != CM_OK ||
        !test_image_equal (&got, &exp, "refused window"))
      FAIL ("window %dx%d: cm_median_cpu_run is not the reference",
          d.window_w, d.window_h);
    test_image_free (&got);
    test_image_free (&exp);
  }
  test_image_free (&src);
}

static void
test_cancel_and_args (void)
{
  static const size2 wins[] = { {3, 3}, {5, 5}, {33, 33} };
  int flag = 1;
  cm_cpu_opts o = { 2, &flag };
  cm_image a = test_image_new (40, 30, CM_DEPTH_8, 0);
  cm_image b = test_image_new (40, 30, CM_DEPTH_8, 0);
  cm_image c16 = test_image_new (40, 30, CM_DEPTH_16, 0);
  cm_median_desc bad = { 4, 5, 50, CM_BORDER_REPLICATE, 0, CM_MEDIAN_AUTO,
    0
  };
  cm_median_cpu_plan *plan = NULL;
  test_rng rng;

  test_rng_seed (&rng, 37);
  test_image_fill_random (&a, &rng);
  for (int wi = 0; wi < N_OF (wins); wi++) {
    cm_median_desc d = { wins[wi].w, wins[wi].h, 50, CM_BORDER_REPLICATE, 0,
      CM_MEDIAN_AUTO, 0
    };

    checks++;
    if (cm_median_cpu_plan_new (&plan, &d, CM_DEPTH_8) != CM_OK) {
      FAIL ("%dx%d plan", d.window_w, d.window_h);
      continue;
    }
    CHECK (cm_median_cpu_plan_run (plan, &a, &b, &o) == CM_ERR_CANCELLED,
        "%s: a run with the cancel flag set was not cancelled",
        cm_median_cpu_plan_algorithm (plan));
    CHECK (cm_median_cpu_run (&d, &a, &b, &o) == CM_ERR_CANCELLED,
        "%dx%d: cm_median_cpu_run with the cancel flag set", d.window_w,
        d.window_h);
    CHECK (cm_median_cpu_plan_run (plan, &a, &a, NULL) == CM_ERR_INVALID_ARG
        && cm_median_cpu_plan_run (plan, &a, &c16, NULL) ==
        CM_ERR_INVALID_ARG && cm_median_cpu_plan_run (plan, &c16, &c16,
            NULL) == CM_ERR_INVALID_ARG && cm_median_cpu_plan_run (plan,
            NULL, &b, NULL) == CM_ERR_INVALID_ARG &&
        cm_median_cpu_plan_run (NULL, &a, &b, NULL) == CM_ERR_INVALID_ARG,
        "%dx%d: bad images accepted", d.window_w, d.window_h);
    cm_median_cpu_plan_free (plan);
    plan = NULL;
  }
  CHECK (!cm_median_cpu_takes (&bad, CM_DEPTH_8) &&
      !cm_median_cpu_takes (NULL, CM_DEPTH_8) &&
      cm_median_cpu_plan_new (&plan, &bad, CM_DEPTH_8) == CM_ERR_INVALID_ARG
      && cm_median_cpu_run (&bad, &a, &b, NULL) == CM_ERR_INVALID_ARG,
      "an even window accepted");
  bad.window_w = 5;
  CHECK (cm_median_cpu_plan_new (NULL, &bad, CM_DEPTH_8) ==
      CM_ERR_INVALID_ARG && !cm_median_cpu_takes (&bad, (cm_depth) 12) &&
      cm_median_cpu_plan_new (&plan, &bad, (cm_depth) 12) ==
      CM_ERR_INVALID_ARG, "a bad depth or no plan pointer accepted");
  test_image_free (&a);
  test_image_free (&b);
  test_image_free (&c16);
}

/* The CPU filter runs the fast path where it takes the window */
static void
test_filter_choice (void)
{
  static const struct
  {
    int n;
    cm_depth depth;
    const char *algorithm;
  } cases[] = {
    {3, CM_DEPTH_8, "cpu-median3x3"}, {5, CM_DEPTH_8, "cpu-network"},
    {5, CM_DEPTH_16, "cpu-network"}, {21, CM_DEPTH_8, "cpu-network"},
    {23, CM_DEPTH_8, "cpu-histogram"}, {23, CM_DEPTH_16, "cpu-network"},
    {33, CM_DEPTH_8, "cpu-histogram"}, {33, CM_DEPTH_16, "reference"},
  };

  for (int i = 0; i < N_OF (cases); i++) {
    cm_median_desc d = { cases[i].n, cases[i].n, 50, CM_BORDER_REPLICATE, 0,
      CM_MEDIAN_AUTO, 0
    };
    cm_filter *f = NULL;
    cm_status st = cm_median_filter_new (&f, CM_BACKEND_CPU, &d, 32, 16,
        cases[i].depth, NULL);

    CHECK (st == CM_OK &&
        strcmp (cm_filter_algorithm (f), cases[i].algorithm) == 0,
        "%dx%d %d-bit CPU filter: %s, expected %s", d.window_w, d.window_h,
        cases[i].depth, f ? cm_filter_algorithm (f) : "none",
        cases[i].algorithm);
    cm_filter_free (f);
  }
}

int
main (void)
{
  test_against_ref ();
  test_wide ();
  test_refused ();
  test_cancel_and_args ();
  test_filter_choice ();
  return test_count_report ("test-median-cpu");
}
