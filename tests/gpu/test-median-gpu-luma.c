/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The median GPU test, second part (test-median-gpu.c has the rest and
 * main): luma mode (cm_median_plan_run_luma == cm_median_luma_ref on RGBA /
 * BGRx / RGB images, 8 and 16 bits, every algorithm) and the argument
 * checks of the plans, cm_median_plan_new_tuned's included. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "median/median.h"
#include "test-util.h"
#include "test-median-gpu.h"

/* ---- luma mode ------------------------------------------------------------ */

static cm_status
packed_copy (void *dst, size_t dpitch, const void *src, size_t spitch,
    const cm_image_packed * shape, cm_copy_kind kind)
{
  cm_status st = cm_copy_2d_async (dst, dpitch, src, spitch,
      (size_t) shape->width * shape->channels * cm_depth_bytes (shape->depth),
      shape->height, kind, stream);
  return st == CM_OK ? cm_stream_sync (stream) : st;
}

void
test_luma (void)
{
  static const struct
  {
    int ch, r, g, b, a;
    const char *name;
  } layouts[] = {
    {4, 0, 1, 2, 3, "RGBA"}, {4, 2, 1, 0, -1, "BGRx"}, {3, 0, 1, 2, -1, "RGB"},
  };
  static const size2 lsizes[] = { {1, 1}, {9, 1}, {37, 23}, {160, 120} };
  static const size2 lwins[] = { {1, 1}, {3, 3}, {5, 3}, {9, 9}, {15, 15} };
  static const double lps[] = { 0, 50, 90 };
  test_rng rng;

  test_rng_seed (&rng, 4242);
  for (int di = 0; di < 2; di++) {
    cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
    uint32_t maxv = cm_depth_max (depth);
    for (int li = 0; li < N_OF (layouts); li++) {
      for (int si = 0; si < N_OF (lsizes); si++) {
        const int w = lsizes[si].w, h = lsizes[si].h, ch = layouts[li].ch;
        if ((long) w * h > max_pixels)
          continue;
        cm_image_packed src = test_packed_new (w, h, depth, ch, 0);
        cm_image_packed exp = test_packed_new (w, h, depth, ch, 0);
        cm_image_packed got = test_packed_new (w, h, depth, ch, 0);
        cm_image_packed dsrc, ddst;
        uint32_t pal[5][4];

        /* a small palette with two colours of equal luminance (ties) */
        for (int i = 0; i < 5; i++)
          for (int c = 0; c < 4; c++)
            pal[i][c] = test_rng_below (&rng, maxv + 1);
        memcpy (pal[1], pal[0], sizeof (pal[0]));
        pal[1][3] ^= 1;
        for (int y = 0; y < h; y++)
          for (int x = 0; x < w; x++) {
            int i = (int) test_rng_below (&rng, 6);
            for (int c = 0; c < ch; c++)
              test_packed_set (&src, x, y, c, i < 5 ? pal[i][c] :
                  test_rng_below (&rng, maxv + 1));
          }
        if (cm_device_packed_alloc (&dsrc, w, h, depth, ch) != CM_OK ||
            cm_device_packed_alloc (&ddst, w, h, depth, ch) != CM_OK ||
            packed_copy (dsrc.data, dsrc.pitch, src.data, src.pitch, &src,
                CM_COPY_H2D) != CM_OK) {
          FAIL ("luma: device allocation / upload");
          goto next;
        }
        for (int wi = 0; wi < N_OF (lwins); wi++) {
          for (int pi = 0; pi < N_OF (lps); pi++) {
            for (int bi = 0; bi < 4; bi++) {
              cm_median_desc d = { lwins[wi].w, lwins[wi].h, lps[pi],
                borders[bi], maxv / 3, CM_MEDIAN_AUTO, CM_MEDIAN_PLAN_LUMA
              };
              char what[200];

              if (w * h > 10000 && bi != 1 && pi != 1)
                continue;
              snprintf (what, sizeof (what), "luma %s %dx%d depth %d win "
                  "%dx%d p%g %s", layouts[li].name, w, h, depth, d.window_w,
                  d.window_h, d.percentile, border_name (d.border));
              if (cm_median_luma_ref (&d, &src, &exp, layouts[li].r,
                      layouts[li].g, layouts[li].b, layouts[li].a) != CM_OK) {
                FAIL ("%s: reference failed", what);
                continue;
              }
              for (int ai = 0; ai < N_OF (algorithms); ai++) {
                cm_median_plan *plan = NULL;
                cm_status st;
                int bad = 0;

                if (!test_sample_keep ())
                  continue;
                d.algorithm = algorithms[ai];
                st = cm_median_plan_new (&plan, &d, w, h, depth);
                if (st == CM_ERR_UNSUPPORTED &&
                    d.algorithm == CM_MEDIAN_NETWORK &&
                    !network_supports (d.window_w, d.window_h,
                        cm_median_rank (&d))) {
                  n_unsupported++;
                  continue;
                }
                if (st != CM_OK) {
                  FAIL ("%s alg %s: plan: %s", what,
                      cm_median_algorithm_name (d.algorithm),
                      cm_status_string (st));
                  continue;
                }
                memset (got.data, 0x5A, got.pitch * (size_t) h);
                packed_copy (ddst.data, ddst.pitch, got.data, got.pitch,
                    &got, CM_COPY_H2D);
                st = cm_median_plan_run_luma (plan, &dsrc, &ddst,
                    layouts[li].r, layouts[li].g, layouts[li].b,
                    layouts[li].a, stream);
                if (st == CM_OK)
                  st = cm_stream_sync (stream);
                if (st == CM_OK)
                  st = packed_copy (got.data, got.pitch, ddst.data,
                      ddst.pitch, &got, CM_COPY_D2H);
                if (st != CM_OK) {
                  FAIL ("%s alg %s (%s): run: %s", what,
                      cm_median_algorithm_name (d.algorithm),
                      cm_median_plan_algorithm (plan),
                      cm_status_string (st));
                  cm_median_plan_free (plan);
                  continue;
                }
                for (int y = 0; y < h && !bad; y++)
                  for (int x = 0; x < w && !bad; x++)
                    for (int c = 0; c < ch; c++)
                      if (test_packed_get (&got, x, y, c) !=
                          test_packed_get (&exp, x, y, c)) {
                        FAIL ("%s alg %s (%s): first mismatch at (%d, %d) "
                            "channel %d: got %u expected %u", what,
                            cm_median_algorithm_name (d.algorithm),
                            cm_median_plan_algorithm (plan), x, y, c,
                            test_packed_get (&got, x, y, c),
                            test_packed_get (&exp, x, y, c));
                        bad = 1;
                        break;
                      }
                if (!bad)
                  n_pass++;
                if (verbose)
                  printf ("%s alg %s: %s\n", what,
                      cm_median_algorithm_name (d.algorithm),
                      cm_median_plan_algorithm (plan));
                cm_median_plan_free (plan);
              }
            }
          }
        }
      next:
        cm_device_free (dsrc.data);
        cm_device_free (ddst.data);
        free (src.data);
        free (exp.data);
        free (got.data);
      }
    }
  }
}

/* ---- argument checks ------------------------------------------------------ */

static void
expect (cm_status got, cm_status want, const char *what)
{
  if (got != want)
    FAIL ("args: %s: got %s, expected %s", what, cm_status_string (got),
        cm_status_string (want));
  else
    n_pass++;
}

void
test_args (void)
{
  cm_median_desc good = { 3, 3, 50, CM_BORDER_REPLICATE, 0, CM_MEDIAN_AUTO,
    0
  };
  /* good with one of these fields out of range */
  static const struct
  {
    int window_w;
    double percentile;
    int algorithm;
    const char *what;
  } bad[] = {
    {4, 50, CM_MEDIAN_AUTO, "even window"},
    {3, NAN, CM_MEDIAN_AUTO, "NaN percentile"},
    {3, 101, CM_MEDIAN_AUTO, "percentile 101"},
    {3, 50, 5, "bad algorithm"},
  };
  cm_median_desc d;
  cm_median_plan *plan = NULL;
  cm_image a, b, c16, odd;
  cm_image_packed pa, pb;

  expect (cm_median_plan_new (NULL, &good, 8, 8, CM_DEPTH_8),
      CM_ERR_INVALID_ARG, "NULL out");
  expect (cm_median_plan_new (&plan, NULL, 8, 8, CM_DEPTH_8),
      CM_ERR_INVALID_ARG, "NULL desc");
  for (int i = 0; i < N_OF (bad); i++) {
    d = good;
    d.window_w = bad[i].window_w;
    d.percentile = bad[i].percentile;
    d.algorithm = (cm_median_algorithm) bad[i].algorithm;
    expect (cm_median_plan_new (&plan, &d, 8, 8, CM_DEPTH_8),
        CM_ERR_INVALID_ARG, bad[i].what);
  }
  expect (cm_median_plan_new (&plan, &good, 0, 8, CM_DEPTH_8),
      CM_ERR_INVALID_ARG, "zero width");
  expect (cm_median_plan_new (&plan, &good, 8, 8, (cm_depth) 12),
      CM_ERR_INVALID_ARG, "bad depth");
  d = good;
  d.window_w = d.window_h = 15;
  d.percentile = 10;
  d.algorithm = CM_MEDIAN_NETWORK;
  expect (cm_median_plan_new (&plan, &d, 8, 8, CM_DEPTH_8),
      CM_ERR_UNSUPPORTED, "network 15x15 p10");
  if (plan)
    FAIL ("args: failed plan_new left a plan");
  {
    cm_median_tuning t = { 0, 12 };

    expect (cm_median_plan_new_tuned (&plan, &good, 8, 8, CM_DEPTH_16, &t),
        CM_ERR_INVALID_ARG, "tuning: band of 12");
    if (plan)
      FAIL ("args: failed plan_new_tuned left a plan");
    t.hist16_band = 16;
    expect (cm_median_plan_new_tuned (&plan, &good, 8, 8, CM_DEPTH_16, &t),
        CM_OK, "tuning: band of 16");
    cm_median_plan_free (plan);
    plan = NULL;
    expect (cm_median_plan_new_tuned (&plan, &good, 8, 8, CM_DEPTH_16,
            NULL), CM_OK, "tuning NULL");
    cm_median_plan_free (plan);
    plan = NULL;
  }

  if (cm_median_plan_new (&plan, &good, 8, 8, CM_DEPTH_16) != CM_OK) {
    FAIL ("args: valid plan refused");
    return;
  }
  cm_device_image_alloc (&a, 8, 8, CM_DEPTH_16);
  cm_device_image_alloc (&b, 8, 8, CM_DEPTH_16);
  cm_device_image_alloc (&c16, 9, 8, CM_DEPTH_16);
  expect (cm_median_plan_run (plan, &a, &b, stream), CM_OK, "valid run");
  expect (cm_stream_sync (stream), CM_OK, "valid run sync");
  expect (cm_median_plan_run (NULL, &a, &b, stream), CM_ERR_INVALID_ARG,
      "NULL plan");
  expect (cm_median_plan_run (plan, NULL, &b, stream), CM_ERR_INVALID_ARG,
      "NULL src");
  expect (cm_median_plan_run (plan, &a, &c16, stream), CM_ERR_INVALID_ARG,
      "size mismatch");
  expect (cm_median_plan_run (plan, &a, &a, stream), CM_ERR_INVALID_ARG,
      "in place");
  odd = b;
  odd.pitch = b.pitch - 1;
  expect (cm_median_plan_run (plan, &a, &odd, stream), CM_ERR_INVALID_ARG,
      "pitch not a multiple of the sample");
  odd = b;
  odd.data = (uint8_t *) b.data + 1;
  odd.width = 7;
  expect (cm_median_plan_run (plan, &a, &odd, stream), CM_ERR_INVALID_ARG,
      "odd address, other width");
  odd = b;
  odd.depth = CM_DEPTH_8;
  expect (cm_median_plan_run (plan, &a, &odd, stream), CM_ERR_INVALID_ARG,
      "depth mismatch");
  cm_device_packed_alloc (&pa, 8, 8, CM_DEPTH_16, 4);
  cm_device_packed_alloc (&pb, 8, 8, CM_DEPTH_16, 4);
  expect (cm_median_plan_run_luma (plan, &pa, &pb, 0, 1, 2, 3, stream),
      CM_ERR_INVALID_ARG, "luma run of a plan without CM_MEDIAN_PLAN_LUMA");
  cm_median_plan_free (plan);
  plan = NULL;
  d = good;
  d.plan_flags = CM_MEDIAN_PLAN_LUMA;
  if (cm_median_plan_new (&plan, &d, 8, 8, CM_DEPTH_16) == CM_OK) {
    expect (cm_median_plan_run_luma (plan, &pa, &pb, 0, 1, 2, 3, stream),
        CM_OK, "valid luma run");
    expect (cm_stream_sync (stream), CM_OK, "valid luma run sync");
    expect (cm_median_plan_run_luma (plan, &pa, &pb, 0, 1, 1, 3, stream),
        CM_ERR_INVALID_ARG, "luma g == b");
    expect (cm_median_plan_run_luma (plan, &pa, &pb, 0, 1, 2, 4, stream),
        CM_ERR_INVALID_ARG, "luma alpha out of range");
    expect (cm_median_plan_run_luma (plan, &pa, &pa, 0, 1, 2, 3, stream),
        CM_ERR_INVALID_ARG, "luma in place");
  } else
    FAIL ("args: valid luma plan refused");
  cm_median_plan_free (plan);
  cm_median_plan_free (NULL);
  cm_device_free (a.data);
  cm_device_free (b.data);
  cm_device_free (c16.data);
  cm_device_free (pa.data);
  cm_device_free (pb.data);
}
