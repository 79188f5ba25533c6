/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GPU median / rank filters == CPU reference (cm_median_ref,
 * cm_median_luma_ref), bit for bit over the whole image.
 *
 * Table: depth (8, 16) x image size (1x1 .. 640x480) x window (1 .. 63,
 * rectangles) x percentile (0, 10, 50, 90, 100) x border x algorithm
 * (auto, network, histogram; auto runs the square networks' narrow
 * tiles on these frames, a forced network the wide ones), on seeded
 * random images, few-level images (ties) and the histograms' worst cases
 * (every sample in the last bin, every sample in one coarse bin). Large windows on the largest image are
 * thinned (fewer percentiles and borders). Destinations are device views
 * with an offset into a larger, noise-filled allocation (also doubled
 * pitches and rows not 4-byte aligned); the whole allocation is read back,
 * so writes outside the view are caught. A forced network may refuse
 * (CM_ERR_UNSUPPORTED) only outside its documented limits. Luma mode on
 * RGBA / BGRx / RGB images, 8 and 16 bits. Argument checks. Edge cases
 * of particular kernels (the 3 x 3 stream, the 16-bit histograms), also
 * with the other variants of cm_median_tuning (the 3 x 3 shared-memory
 * network, a band of 16); every 16-bit sliding-histogram variant forced in
 * turn (test_hist16).
 *
 * Exit 77 (meson SKIP) without a CUDA device; one line per failing case on
 * stderr, "N passed, M failed" at the end, exit 1 on any failure.
 * CM_TEST_VERBOSE=1 prints every case and the algorithm it ran;
 * CM_TEST_MAX_PIXELS=n skips the images of more than n pixels;
 * CM_TEST_SAMPLE=n runs about one plan in n (test-util.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "median/median.h"
#include "kernel-test.h"
#include "test-util.h"
#include "test-median-gpu.h"

int n_pass, n_fail, n_unsupported, verbose;
long max_pixels = 1L << 40;     /* CM_TEST_MAX_PIXELS */
cm_stream stream;
/* the variants the plans of run_case are made with (NULL: defaults) */
static const cm_median_tuning *tuning;

const char *
border_name (cm_border_mode b)
{
  static const char *names[] = { "neutral", "replicate", "reflect", "mirror",
    "constant"
  };
  return (int) b >= 0 && (int) b < CM_BORDER_MODE_COUNT ? names[b] : "?";
}

/* ---- device views with a guard band ---------------------------------------
 * layout 0: the allocation itself (allocator pitch); 1: a view one sample
 * and one row into an allocation 4 samples wider and 2 rows taller (8-bit
 * rows not 4-byte aligned); 2: every other row of a taller allocation
 * (doubled pitch) starting at column 2; 3: a view 16 bytes and one row
 * into an allocation 32 bytes wider and 2 rows taller (16-byte aligned
 * rows, as the 3 x 3 streaming kernel needs, inside a guard band). */
#define LAYOUTS 4

typedef struct
{
  cm_image alloc;               /* device allocation            */
  cm_image view;                /* what the plan sees           */
} dev_image;

static cm_status
dev_image_new (dev_image * d, int w, int h, cm_depth depth, int layout)
{
  int aw = layout == 0 ? w : layout == 3 ? w + 32 / cm_depth_bytes (depth) :
      w + 4;
  int ah = layout == 0 ? h : layout == 2 ? 2 * h + 1 : h + 2;
  cm_status st = cm_device_image_alloc (&d->alloc, aw, ah, depth);
  size_t bpp = (size_t) cm_depth_bytes (depth);

  if (st != CM_OK)
    return st;
  d->view = d->alloc;
  d->view.width = w;
  d->view.height = h;
  if (layout == 1)
    d->view.data = (uint8_t *) d->alloc.data + d->alloc.pitch + bpp;
  else if (layout == 2) {
    d->view.data = (uint8_t *) d->alloc.data + 2 * bpp;
    d->view.pitch = 2 * d->alloc.pitch;
  } else if (layout == 3)
    d->view.data = (uint8_t *) d->alloc.data + d->alloc.pitch + 16;
  return CM_OK;
}

static void
dev_image_free (dev_image * d)
{
  cm_device_free (d->alloc.data);
  d->alloc.data = NULL;
}

/* host image shaped like a device allocation */
static cm_image
host_like (const cm_image * dev)
{
  return test_image_new (dev->width, dev->height, dev->depth, 0);
}

/* noise in the whole allocation, so that stray writes show */
static int
fill_noise (const dev_image * d, test_rng * r)
{
  cm_image h = host_like (&d->alloc);
  int ok;

  test_image_fill_random (&h, r);
  ok = image_copy (&d->alloc, &h, CM_COPY_H2D, stream) == CM_OK;
  test_image_free (&h);
  return ok;
}

/* @src uploaded into *@d, a new device view of layout @layout whose
 * allocation is noise from @r around it (as allocated when @r is NULL);
 * FALSE, after a FAIL naming @what, when that fails */
static int
source_upload (dev_image * d, const cm_image * src, int layout, test_rng * r,
    const char *what)
{
  if (dev_image_new (d, src->width, src->height, src->depth, layout) != CM_OK
      || (r && !fill_noise (d, r))
      || image_copy (&d->view, src, CM_COPY_H2D, stream) != CM_OK) {
    FAIL ("%s %dx%d: source upload", what, src->width, src->height);
    return 0;
  }
  return 1;
}

/* Compare the view against expected and the guard band against the noise
 * that was there; prints the first difference. */
static int
check_dst (const dev_image * d, const cm_image * noise, const cm_image * exp,
    const char *what)
{
  cm_image got = host_like (&d->alloc);
  size_t bpp = (size_t) cm_depth_bytes (d->alloc.depth);
  size_t off = (size_t) ((const uint8_t *) d->view.data -
      (const uint8_t *) d->alloc.data);
  int vx0 = (int) ((off % d->alloc.pitch) / bpp);
  int vy0 = (int) (off / d->alloc.pitch);
  int step = (int) (d->view.pitch / d->alloc.pitch);
  int ok = 1;
  cm_status st = image_copy (&got, &d->alloc, CM_COPY_D2H, stream);

  if (st != CM_OK) {
    FAIL ("%s: download: %s", what, cm_status_string (st));
    test_image_free (&got);
    return 0;
  }
  for (int y = 0; y < got.height && ok; y++) {
    for (int x = 0; x < got.width; x++) {
      int in_view = x >= vx0 && x < vx0 + exp->width && y >= vy0 &&
          (y - vy0) % step == 0 && (y - vy0) / step < exp->height;
      uint32_t g = test_image_get (&got, x, y);
      uint32_t e = in_view ? test_image_get (exp, x - vx0, (y - vy0) / step)
          : test_image_get (noise, x, y);
      if (g != e) {
        if (in_view)
          FAIL ("%s: first mismatch at (%d, %d) of %dx%d: got %u expected "
              "%u", what, x - vx0, (y - vy0) / step, exp->width, exp->height,
              g, e);
        else
          FAIL ("%s: write outside the destination at allocation (%d, %d)",
              what, x, y);
        ok = 0;
        break;
      }
    }
  }
  test_image_free (&got);
  return ok;
}

/* ---- grey cases ----------------------------------------------------------- */

static const test_size sizes[] = {
  {1, 1}, {1, 9}, {9, 1}, {5, 4}, {37, 23}, {136, 136}, {640, 480}
};

static const test_size windows[] = {
  {1, 1}, {3, 3}, {5, 5}, {7, 7}, {9, 9}, {11, 11}, {13, 13}, {15, 15},
  {21, 21}, {31, 31}, {63, 63}, {3, 7}, {15, 5}, {5, 3}, {1, 5}, {9, 1}
};

static const double percentiles[] = { 0, 10, 50, 90, 100 };

const cm_border_mode borders[MEDIAN_TEST_BORDERS] = {
  CM_BORDER_REPLICATE, CM_BORDER_REFLECT, CM_BORDER_MIRROR,
  CM_BORDER_CONSTANT, CM_BORDER_NEUTRAL
};

const cm_median_algorithm algorithms[MEDIAN_TEST_ALGORITHMS] = {
  CM_MEDIAN_AUTO, CM_MEDIAN_NETWORK, CM_MEDIAN_HISTOGRAM
};

/* Does a forced network accept this window and rank (median.h)? */
int
network_supports (int ww, int wh, int k)
{
  int n = ww * wh;
  if (n <= CM_MEDIAN_NETWORK_MAX_N)
    return 1;
  return ww == wh && ww <= 15 && (k == 0 || k == n - 1 || k == (n - 1) / 2);
}

/* Destinations of one image size: a device view per layout, and the
 * noise every case starts from */
typedef struct
{
  dev_image d[LAYOUTS];
  cm_image noise[LAYOUTS];
  int ok;
} dst_set;

static void
dst_set_new (dst_set * s, int w, int h, cm_depth depth, test_rng * rng)
{
  memset (s, 0, sizeof (*s));
  s->ok = 1;
  for (int l = 0; l < LAYOUTS; l++) {
    if (dev_image_new (&s->d[l], w, h, depth, l) != CM_OK) {
      s->ok = 0;
      continue;
    }
    s->noise[l] = host_like (&s->d[l].alloc);
    test_image_fill_random (&s->noise[l], rng);
  }
}

static void
dst_set_free (dst_set * s)
{
  for (int l = 0; l < LAYOUTS; l++) {
    if (s->d[l].alloc.data)
      dev_image_free (&s->d[l]);
    if (s->noise[l].data)
      test_image_free (&s->noise[l]);
  }
}

/* Run one plan on dsrc into the noise-filled destination of `layout` and
 * compare with exp. */
static void
run_case (const cm_median_desc * d, const dev_image * dsrc,
    const cm_image * exp, dst_set * dst, int layout, const char *what0)
{
  char what[256];
  cm_median_plan *plan = NULL;
  const dev_image *ddst = &dst->d[layout];
  cm_status st;
  int k = cm_median_rank (d);
  /* a forced network runs wide tiles, which auto gives only frames
   * larger than the table's */
  static const cm_median_tuning wide = { 0, 0, CM_MEDIAN_TILES_WIDE };
  const cm_median_tuning *t = tuning || d->algorithm != CM_MEDIAN_NETWORK ?
      tuning : &wide;

  if (!test_sample_keep ())
    return;
  snprintf (what, sizeof (what), "%s alg %s layout %d", what0,
      cm_median_algorithm_name (d->algorithm), layout);
  st = cm_median_plan_new_tuned (&plan, d, exp->width, exp->height,
      exp->depth, t);
  if (st == CM_ERR_UNSUPPORTED && d->algorithm == CM_MEDIAN_NETWORK &&
      !network_supports (d->window_w, d->window_h, k)) {
    n_unsupported++;
    if (verbose)
      printf ("%s: unsupported (as documented)\n", what);
    return;
  }
  if (st != CM_OK) {
    FAIL ("%s: cm_median_plan_new: %s", what, cm_status_string (st));
    return;
  }
  if (d->algorithm == CM_MEDIAN_NETWORK &&
      strncmp (cm_median_plan_algorithm (plan), "network", 7) &&
      strcmp (cm_median_plan_algorithm (plan), "copy")) {
    FAIL ("%s: forced network runs %s", what,
        cm_median_plan_algorithm (plan));
  }
  if (d->algorithm == CM_MEDIAN_HISTOGRAM &&
      strncmp (cm_median_plan_algorithm (plan), "histogram", 9) &&
      strcmp (cm_median_plan_algorithm (plan), "copy")) {
    FAIL ("%s: forced histogram runs %s", what,
        cm_median_plan_algorithm (plan));
  }
  if (verbose)
    printf ("%s: %s\n", what, cm_median_plan_algorithm (plan));
  if (!dst->ok || image_copy (&ddst->alloc, &dst->noise[layout],
          CM_COPY_H2D, stream) != CM_OK) {
    FAIL ("%s: destination allocation / upload", what);
  } else {
    st = kernel_test_synced (cm_median_plan_run (plan, &dsrc->view,
            &ddst->view, stream), stream);
    if (st != CM_OK)
      FAIL ("%s: run (%s): %s", what, cm_median_plan_algorithm (plan),
          cm_status_string (st));
    else if (check_dst (ddst, &dst->noise[layout], exp, what))
      n_pass++;
    else
      fprintf (stderr, "      (algorithm %s)\n",
          cm_median_plan_algorithm (plan));
  }
  cm_median_plan_free (plan);
}

/* Thin the table where the reference gets slow: big windows on the big
 * image get a few percentiles and borders only. */
static int
thinned (const test_size * s, const test_size * w, int pi, int bi)
{
  if ((long) s->w * s->h < 10000)
    return 0;
  if (w->w * w->h >= 200)
    return !(pi == 2 || (pi == 0 && bi == 0) || (pi == 4 && bi == 3)) ||
        bi == 4;
  return bi == 4 && pi != 2;
}

static void
test_grey (void)
{
  test_rng rng;

  test_rng_seed (&rng, 2024);
  for (int di = 0; di < 2; di++) {
    cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
    for (int si = 0; si < N_OF (sizes); si++) {
      const test_size *sz = &sizes[si];
      if ((long) sz->w * sz->h > max_pixels)
        continue;
      for (int fill = 0; fill < 2; fill++) {
        cm_image src = test_image_new (sz->w, sz->h, depth, 3);
        dev_image dsrc;
        dst_set dst;
        int layout = (si + fill + di) % LAYOUTS;

        if (fill)
          test_image_fill_levels (&src, &rng, 4);
        else
          test_image_fill_random (&src, &rng);
        if (!source_upload (&dsrc, &src, (layout + 1) % LAYOUTS, &rng,
                "grey")) {
          test_image_free (&src);
          continue;
        }
        dst_set_new (&dst, sz->w, sz->h, depth, &rng);
        for (int wi = 0; wi < N_OF (windows); wi++) {
          for (int pi = 0; pi < N_OF (percentiles); pi++) {
            for (int bi = 0; bi < N_OF (borders); bi++) {
              cm_median_desc d = { windows[wi].w, windows[wi].h,
                percentiles[pi], borders[bi], 0, CM_MEDIAN_AUTO, 0
              };
              cm_image exp;
              char what[160];

              if (thinned (sz, &windows[wi], pi, bi))
                continue;
              /* the few-level image: the median rank and a subset only */
              if (fill && (pi != 2 || bi > 1) && sz->w * sz->h > 100)
                continue;
              d.border_value = depth == CM_DEPTH_16 ? 40000 : 77;
              if (bi == 3 && pi == 1)
                d.border_value = 1u << 20;      /* clamped to the maximum */
              snprintf (what, sizeof (what), "grey %dx%d depth %d fill %d "
                  "win %dx%d p%g %s", sz->w, sz->h, depth, fill, d.window_w,
                  d.window_h, d.percentile, border_name (d.border));
              exp = test_image_new (sz->w, sz->h, depth, 0);
              if (cm_median_ref (&d, &src, &exp) != CM_OK) {
                FAIL ("%s: reference failed", what);
                test_image_free (&exp);
                continue;
              }
              for (int ai = 0; ai < N_OF (algorithms); ai++) {
                d.algorithm = algorithms[ai];
                run_case (&d, &dsrc, &exp, &dst, (wi + pi + ai) % LAYOUTS,
                    what);
              }
              test_image_free (&exp);
            }
          }
        }
        dst_set_free (&dst);
        dev_image_free (&dsrc);
        test_image_free (&src);
      }
    }
  }
}

/* Histogram worst cases: every sample in the last bin (255 / 65535), every
 * sample in one coarse bin, and the same plus a few outliers. */
static void
test_worst_cases (void)
{
  static const test_size wsizes[] = { {37, 23}, {136, 136}, {300, 200} };
  static const int sides[] = { 3, 9, 15, 17, 31, 63, 65 };
  static const double ps[] = { 0, 50, 90, 100 };
  test_rng rng;

  test_rng_seed (&rng, 77);
  for (int di = 0; di < 2; di++) {
    cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
    uint32_t maxv = cm_depth_max (depth);
    for (int si = 0; si < N_OF (wsizes); si++) {
      if ((long) wsizes[si].w * wsizes[si].h > max_pixels)
        continue;
      for (int kind = 0; kind < 4; kind++) {
        cm_image src = test_image_new (wsizes[si].w, wsizes[si].h, depth, 0);
        dev_image dsrc;
        dst_set dst;

        for (int y = 0; y < src.height; y++) {
          for (int x = 0; x < src.width; x++) {
            uint32_t v = maxv;  /* kind 0: all in the last bin */
            if (kind == 1)      /* one coarse bin, the last */
              v = maxv - test_rng_below (&rng, depth == CM_DEPTH_8 ? 16 :
                  256);
            else if (kind == 2) /* one coarse bin in the middle */
              v = (depth == CM_DEPTH_8 ? 0x90 : 0x9100) +
                  test_rng_below (&rng, depth == CM_DEPTH_8 ? 16 : 256);
            else if (kind == 3) /* one 4096-wide bin plus outliers */
              v = test_rng_below (&rng, 50) == 0 ? test_rng_below (&rng,
                  maxv + 1) : (depth == CM_DEPTH_8 ? 0x20 : 0x2000) +
                  test_rng_below (&rng, depth == CM_DEPTH_8 ? 16 : 4096);
            test_image_set (&src, x, y, v);
          }
        }
        if (!source_upload (&dsrc, &src, 0, NULL, "worst case")) {
          test_image_free (&src);
          continue;
        }
        dst_set_new (&dst, src.width, src.height, depth, &rng);
        for (int wi = 0; wi < N_OF (sides); wi++) {
          for (int pi = 0; pi < N_OF (ps); pi++) {
            for (int bi = 0; bi < 4; bi += 3) {
              cm_median_desc d = { sides[wi], sides[wi], ps[pi], borders[bi],
                maxv, CM_MEDIAN_AUTO, 0
              };
              cm_image exp = test_image_new (src.width, src.height, depth,
                  0);
              char what[160];

              if (si >= 1 && sides[wi] >= 31 && pi != 1)
                continue;
              snprintf (what, sizeof (what), "worst %d %dx%d depth %d win "
                  "%d p%g %s", kind, src.width, src.height, depth, sides[wi],
                  d.percentile, border_name (d.border));
              cm_median_ref (&d, &src, &exp);
              d.algorithm = CM_MEDIAN_HISTOGRAM;
              run_case (&d, &dsrc, &exp, &dst, pi % LAYOUTS, what);
              d.algorithm = CM_MEDIAN_AUTO;
              run_case (&d, &dsrc, &exp, &dst, (pi + 1) % LAYOUTS, what);
              test_image_free (&exp);
            }
          }
        }
        dst_set_free (&dst);
        dev_image_free (&dsrc);
        test_image_free (&src);
      }
    }
  }
}

/* ---- kernel-specific cases ------------------------------------------------
 * The 3 x 3 streaming kernel (16-byte strips, 8 rows a thread): widths
 * around multiples of the strip (16 8-bit / 8 16-bit samples) and of a
 * warp's 32 strips, heights around multiples of 8 and 32 rows, 1 x N and
 * N x 1, every border, ranks 0 / median / N-1 (and p10, a sorting
 * network), aligned views (the stream) and unaligned ones (its fallback).
 * Then the same 3 x 3 cases and a few 16-bit sliding-histogram cases with
 * the other variants (cm_median_tuning): the 3 x 3 shared-memory network
 * on aligned rows too, the 16-bit histogram with a band of 16. */
/* 0: the default kernels, the stream on every frame (wide tiles); 1: the
 * other variants */
static const cm_median_tuning variant_tunings[2] = {
  {0, 0, CM_MEDIAN_TILES_WIDE}, {1, 16, 0}
};

static void
test_kernels (void)
{
  static const test_size ssizes[] = {
    {1, 1}, {1, 40}, {40, 1}, {2, 2}, {7, 3}, {8, 9}, {15, 8}, {16, 7},
    {17, 16}, {24, 17}, {31, 33}, {32, 31}, {33, 40}, {255, 9}, {256, 41},
    {257, 65}, {511, 3}, {513, 34}, {1000, 71}
  };
  static const double sps[] = { 0, 10, 50, 100 };
  static const test_size hwins[] = { {17, 17}, {21, 21}, {31, 31}, {65, 9},
    {9, 71}
  };
  test_rng rng;

  test_rng_seed (&rng, 333);
  for (int vi = 0; vi < N_OF (variant_tunings); vi++) {
    tuning = &variant_tunings[vi];
    for (int di = 0; di < 2; di++) {
      cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
      for (int si = 0; si < N_OF (ssizes); si++) {
        const test_size *sz = &ssizes[si];
        if ((long) sz->w * sz->h > max_pixels)
          continue;
        for (int sl = 0; sl < 2; sl++) {
          /* source layouts: aligned (3) and not (1) */
          const int slayout = sl ? 1 : 3;
          cm_image src = test_image_new (sz->w, sz->h, depth, 0);
          dev_image dsrc;
          dst_set dst;

          if (si % 3 == 2)
            test_image_fill_levels (&src, &rng, 3);
          else
            test_image_fill_random (&src, &rng);
          if (!source_upload (&dsrc, &src, slayout, &rng, "kernels")) {
            test_image_free (&src);
            continue;
          }
          dst_set_new (&dst, sz->w, sz->h, depth, &rng);
          for (int pi = 0; pi < N_OF (sps); pi++) {
            for (int bi = 0; bi < N_OF (borders); bi++) {
              cm_median_desc d = { 3, 3, sps[pi], borders[bi],
                depth == CM_DEPTH_16 ? 51234 : 201, CM_MEDIAN_AUTO, 0
              };
              cm_image exp = test_image_new (sz->w, sz->h, depth, 0);
              char what[200];

              snprintf (what, sizeof (what), "kernels%s %dx%d depth %d "
                  "src layout %d win 3x3 p%g %s", vi ? " (variants)" : "",
                  sz->w, sz->h, depth, slayout, d.percentile,
                  border_name (d.border));
              if (cm_median_ref (&d, &src, &exp) != CM_OK) {
                FAIL ("%s: reference failed", what);
                test_image_free (&exp);
                continue;
              }
              /* aligned destinations (0, 3) with the aligned source, an
               * unaligned one (1) with the other */
              for (int dl = 0; dl < 2; dl++) {
                d.algorithm = dl ? CM_MEDIAN_NETWORK : CM_MEDIAN_AUTO;
                run_case (&d, &dsrc, &exp, &dst, sl ? 1 : dl ? 3 : 0,
                    what);
              }
              test_image_free (&exp);
            }
          }
          /* 16-bit sliding histograms, first and second version */
          if (depth == CM_DEPTH_16 && sz->w * sz->h >= 200 &&
              sz->w * sz->h <= 40000 && sl == 0) {
            for (int wi = 0; wi < N_OF (hwins); wi++) {
              for (int bi = 0; bi < 4; bi += 3) {
                cm_median_desc d = { hwins[wi].w, hwins[wi].h,
                  wi == 3 ? 90 : 50, borders[bi], 1000,
                  CM_MEDIAN_HISTOGRAM, 0
                };
                cm_image exp = test_image_new (sz->w, sz->h, depth, 0);
                char what[200];

                snprintf (what, sizeof (what), "kernels%s %dx%d depth 16 "
                    "win %dx%d p%g %s", vi ? " (variants)" : "", sz->w, sz->h,
                    d.window_w, d.window_h, d.percentile,
                    border_name (d.border));
                cm_median_ref (&d, &src, &exp);
                run_case (&d, &dsrc, &exp, &dst, wi % LAYOUTS, what);
                test_image_free (&exp);
              }
            }
          }
          dst_set_free (&dst);
          dev_image_free (&dsrc);
          test_image_free (&src);
        }
      }
    }
  }
  tuning = NULL;
}

/* ---- 16-bit sliding histograms, every kernel -----------------------------
 * Each 16-bit histogram variant (the walk kernel with a band of 8, the
 * default, and of 16: cm_median_tuning.hist16_band) on windows from 17 to
 * 65, square and not (one and two samples a lane, rows wider than a warp,
 * windows larger than the image), at every border, on data that stress the
 * walk kernel's tracked coarse level and band: noise (the answer's high
 * byte moves every row, band rebuilds), every sample 65535 (the last bin,
 * the band clamped at the top), two far levels 0x01xx / 0xfexx (the coarse
 * walk gives up and searches), one high byte only, diagonal ramps (the
 * answer climbs steadily through bands) and few levels (ties). Random data
 * get every percentile of 0 / 10 / 50 / 90 / 100 at every border, the
 * others one percentile a window in turn. */
static const cm_median_tuning hist16_tunings[] = { {0, 0}, {0, 16} };

static const char *const hist16_names[] = {
  "histogram-16-walk", "histogram-16-walk-b16"
};

static void
fill_hist16 (cm_image * src, test_rng * rng, int kind)
{
  if (kind == 5) {
    test_image_fill_levels (src, rng, 5);
    return;
  }
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++) {
      uint32_t v = test_rng_below (rng, 65536);
      if (kind == 1)
        v = 65535;
      else if (kind == 2)
        v = test_rng_below (rng, 2) ? 0x0100 + test_rng_below (rng, 3) :
            0xfe00 + test_rng_below (rng, 3);
      else if (kind == 3)
        v = 0x9100 + test_rng_below (rng, 256);
      else if (kind == 4)
        v = ((uint32_t) (x + 2 * y) * 397u + test_rng_below (rng, 64)) &
            0xffffu;
      test_image_set (src, x, y, v);
    }
}

static void
test_hist16 (void)
{
  static const test_size hsizes[] = {
    {1, 40}, {37, 1}, {5, 4}, {40, 33}, {97, 70}, {131, 90}
  };
  static const test_size hwins[] = {
    {17, 17}, {19, 19}, {21, 21}, {25, 25}, {31, 31}, {33, 33}, {63, 63},
    {65, 65}, {65, 9}, {9, 71}, {17, 31}, {33, 5}
  };
  test_rng rng;

  test_rng_seed (&rng, 1616);
  for (int si = 0; si < N_OF (hsizes); si++) {
    const test_size *sz = &hsizes[si];
    if ((long) sz->w * sz->h > max_pixels)
      continue;
    for (int kind = 0; kind < 6; kind++) {
      cm_image src = test_image_new (sz->w, sz->h, CM_DEPTH_16, 0);
      dev_image dsrc;
      dst_set dst;

      fill_hist16 (&src, &rng, kind);
      if (!source_upload (&dsrc, &src, (si + kind) % LAYOUTS, &rng,
              "hist16")) {
        test_image_free (&src);
        continue;
      }
      dst_set_new (&dst, sz->w, sz->h, CM_DEPTH_16, &rng);
      for (int wi = 0; wi < N_OF (hwins); wi++) {
        for (int pi = 0; pi < N_OF (percentiles); pi++) {
          if (kind != 0 && pi != (wi + kind) % N_OF (percentiles))
            continue;
          for (int bi = 0; bi < N_OF (borders); bi++) {
            cm_median_desc d = { hwins[wi].w, hwins[wi].h, percentiles[pi],
              borders[bi], (bi + wi) % 2 ? 65535 : 20000,
              CM_MEDIAN_HISTOGRAM, 0
            };
            cm_image exp = test_image_new (sz->w, sz->h, CM_DEPTH_16, 0);
            char what[200];

            if (cm_median_ref (&d, &src, &exp) != CM_OK) {
              FAIL ("hist16: reference failed");
              test_image_free (&exp);
              continue;
            }
            for (int ki = 0; ki < N_OF (hist16_tunings); ki++) {
              cm_median_plan *plan = NULL;

              tuning = &hist16_tunings[ki];
              /* the plan runs the kernel asked for */
              if (cm_median_plan_new_tuned (&plan, &d, sz->w, sz->h,
                      CM_DEPTH_16, tuning) == CM_OK &&
                  strcmp (cm_median_plan_algorithm (plan),
                      hist16_names[ki]))
                FAIL ("hist16: %s runs %s", hist16_names[ki],
                    cm_median_plan_algorithm (plan));
              cm_median_plan_free (plan);
              snprintf (what, sizeof (what), "hist16 %s %dx%d kind %d win "
                  "%dx%d p%g %s", hist16_names[ki], sz->w, sz->h, kind,
                  d.window_w, d.window_h, d.percentile,
                  border_name (d.border));
              run_case (&d, &dsrc, &exp, &dst, (wi + pi + bi + ki) %
                  LAYOUTS, what);
            }
            tuning = NULL;
            test_image_free (&exp);
          }
        }
      }
      dst_set_free (&dst);
      dev_image_free (&dsrc);
      test_image_free (&src);
    }
  }
}

/* The plan names say which kernel runs: for 3 x 3 at the three
 * shared-work ranks the stream on large frames, the narrow shared-memory
 * network on small ones, the network also with
 * cm_median_tuning.network3_shared, wide or narrow as the frame or
 * network_tiles say. */
static void
test_kernel_names (void)
{
  static const struct
  {
    double p;
    int net3, tiles, width;
    const char *name;
  } cases[] = {
    /* the stream on large frames or wide tiles */
    {50, 0, 0, 3840, "network-3x3-stream"},
    {0, 0, CM_MEDIAN_TILES_WIDE, 64, "network-3x3-min-stream"},
    {100, 0, 0, 3840, "network-3x3-max-stream"},
    /* the shared-memory network: narrow on small frames, wide on large
     * ones, or as forced */
    {50, 0, 0, 64, "network-3x3-narrow"},
    {50, 1, 0, 64, "network-3x3-narrow"},
    {0, 1, 0, 64, "network-3x3-min-narrow"},
    {50, 1, 0, 3840, "network-3x3"},
    {50, 1, CM_MEDIAN_TILES_WIDE, 64, "network-3x3"},
    {100, 1, CM_MEDIAN_TILES_NARROW, 3840, "network-3x3-max-narrow"},
  };

  for (int i = 0; i < N_OF (cases); i++) {
    cm_median_desc d = { 3, 3, cases[i].p, CM_BORDER_REPLICATE, 0,
      CM_MEDIAN_AUTO, 0
    };
    cm_median_plan *plan = NULL;

    const cm_median_tuning t = { cases[i].net3, 0, cases[i].tiles };

    if (cm_median_plan_new_tuned (&plan, &d, cases[i].width, 2160,
            CM_DEPTH_8, &t) != CM_OK)
      FAIL ("names: plan p%g", cases[i].p);
    else if (strcmp (cm_median_plan_algorithm (plan), cases[i].name))
      FAIL ("names: p%g net3 %d tiles %d width %d runs %s, expected %s",
          cases[i].p, cases[i].net3, cases[i].tiles, cases[i].width,
          cm_median_plan_algorithm (plan), cases[i].name);
    else
      n_pass++;
    cm_median_plan_free (plan);
  }
}

int
main (void)
{
  const char *mp = getenv ("CM_TEST_MAX_PIXELS");
  int rc = kernel_test_open_verbose (&stream, &verbose);

  if (rc != 0)
    return rc;
  if (mp && atol (mp) > 0)
    max_pixels = atol (mp);

  test_args ();
  test_kernel_names ();
  test_kernels ();
  test_hist16 ();
  test_grey ();
  test_worst_cases ();
  test_luma ();

  cm_stream_free (stream);
  test_sample_report ();
  printf ("%d passed, %d failed (%d forced-network cases unsupported as "
      "documented)\n", n_pass, n_fail, n_unsupported);
  return n_fail ? 1 : 0;
}
