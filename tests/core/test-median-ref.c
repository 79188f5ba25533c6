/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cm_median_ref and cm_median_luma_ref against deliberately naive twins
 * written here from median.h: every window is gathered into an array with
 * the border rule applied by folding the index one reflection at a time,
 * sorted with qsort, and the sample of rank k taken. Plus: percentile 0 and
 * 100 equal erosion and dilation by the rectangle (cm_morph_ref_rank_
 * extreme), NEUTRAL equals REPLICATE, luma outputs are colours of the
 * window, and argument checks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "median/median.h"
#include "morph/morph.h"
#include "morph/se.h"
#include "test-count.h"
#include "test-util.h"

static const char *border_names[CM_BORDER_MODE_COUNT] = {
  "neutral", "replicate", "reflect", "mirror", "constant"
};

/* ---------------------------------------------------------------------- */
/* Naive twins */

/* The border rule: test_border_fold () (test-util.h); NEUTRAL is
 * REPLICATE for a median. */

static int
naive_rank (double p, int n)
{
  return (int) floor (p / 100.0 * (double) (n - 1) + 0.5);
}

static uint32_t
clamp_value (uint32_t v, cm_depth d)
{
  return v < cm_depth_max (d) ? v : cm_depth_max (d);
}

/* One sample of a window */
typedef struct
{
  uint32_t key;                 /* the value it is ranked by */
  int idx;                      /* its place in the window (ties) */
  int sx, sy;                   /* source pixel, -1 = constant */
} win_sample;

static int
cmp_sample (const void *a, const void *b)
{
  const win_sample *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->idx - y->idx;
}

/* The naive rank filter of both twins, on a w x h image of depth depth:
 * at each pixel the window is gathered with the border rule (value (ctx,
 * sx, sy) for a source pixel, the clamped constant outside), sorted with
 * qsort by value then place, and the sample of rank k handed to put (ctx,
 * x, y, sample). */
static void
naive_rank_filter (const cm_median_desc * d, int w, int h, cm_depth depth,
    uint32_t (*value) (const void *ctx, int x, int y),
    void (*put) (const void *ctx, int x, int y, const win_sample * e),
    const void *ctx)
{
  int rx = d->window_w / 2, ry = d->window_h / 2;
  int n = d->window_w * d->window_h, k = naive_rank (d->percentile, n);
  win_sample *win = malloc (sizeof (win_sample) * (size_t) n);
  uint32_t cval = clamp_value (d->border_value, depth);

  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      int m = 0;
      for (int dy = -ry; dy <= ry; dy++) {
        for (int dx = -rx; dx <= rx; dx++) {
          win_sample *e = &win[m];
          e->sx = test_border_fold (d->border, x + dx, w);
          e->sy = test_border_fold (d->border, y + dy, h);
          e->idx = m++;
          if (e->sx < 0 || e->sy < 0) {
            e->sx = e->sy = -1;
            e->key = cval;
          } else
            e->key = value (ctx, e->sx, e->sy);
        }
      }
      qsort (win, (size_t) n, sizeof (win_sample), cmp_sample);
      put (ctx, x, y, &win[k]);
    }
  }
  free (win);
}

typedef struct
{
  const cm_image *src, *dst;
} image_pair;

static uint32_t
image_value (const void *ctx, int x, int y)
{
  return test_image_get (((const image_pair *) ctx)->src, x, y);
}

static void
image_put (const void *ctx, int x, int y, const win_sample * e)
{
  test_image_set (((const image_pair *) ctx)->dst, x, y, e->key);
}

static void
naive_median (const cm_median_desc * d, const cm_image * src,
    const cm_image * dst)
{
  image_pair c = { src, dst };

  naive_rank_filter (d, src->width, src->height, src->depth, image_value,
      image_put, &c);
}

/* ---------------------------------------------------------------------- */
/* Packed images for the luma mode */

/* A few colours (so that luminances tie often) or random ones */
static void
packed_fill (const cm_image_packed * p, test_rng * r, int palette)
{
  uint32_t maxv = cm_depth_max (p->depth);
  uint32_t pal[6][4];

  for (int i = 0; i < 6; i++)
    for (int c = 0; c < 4; c++)
      pal[i][c] = test_rng_below (r, maxv + 1);
  /* two colours of equal luminance: permutations with equal weights are
   * rare, so make one of grey and its exact twin */
  for (int c = 0; c < 4; c++)
    pal[1][c] = pal[0][c];
  pal[1][3] = pal[0][3] ^ 1;    /* differs only in the 4th channel */
  for (int y = 0; y < p->height; y++)
    for (int x = 0; x < p->width; x++) {
      int i = (int) test_rng_below (r, 6);
      for (int c = 0; c < p->channels; c++)
        test_packed_set (p, x, y, c, palette ? pal[i][c] :
            test_rng_below (r, maxv + 1));
    }
}

typedef struct
{
  const cm_image_packed *src, *dst;
  int ri, gi, bi, ai;
  uint32_t cval;
} luma_pair;

static uint32_t
luma_value (const void *ctx, int x, int y)
{
  const luma_pair *l = ctx;

  return (77u * test_packed_get (l->src, x, y, l->ri) +
      150u * test_packed_get (l->src, x, y, l->gi) +
      29u * test_packed_get (l->src, x, y, l->bi)) >> 8;
}

/* The colour of the pixel of rank k, alpha kept */
static void
luma_put (const void *ctx, int x, int y, const win_sample * e)
{
  const luma_pair *l = ctx;

  for (int c = 0; c < l->src->channels; c++) {
    uint32_t v;
    if (c == l->ai)
      v = test_packed_get (l->src, x, y, c);
    else if (e->sx < 0)
      v = l->cval;
    else
      v = test_packed_get (l->src, e->sx, e->sy, c);
    test_packed_set (l->dst, x, y, c, v);
  }
}

static void
naive_luma (const cm_median_desc * d, const cm_image_packed * src,
    const cm_image_packed * dst, int ri, int gi, int bi, int ai)
{
  luma_pair l = { src, dst, ri, gi, bi, ai,
    clamp_value (d->border_value, src->depth)
  };

  naive_rank_filter (d, src->width, src->height, src->depth, luma_value,
      luma_put, &l);
}

/* ---------------------------------------------------------------------- */

typedef struct
{
  int w, h;
} size2;

static const size2 sizes[] = {
  {1, 1}, {1, 17}, {17, 1}, {3, 2}, {13, 11}, {31, 23}
};

static const size2 windows[] = {
  {1, 1}, {3, 3}, {5, 3}, {3, 5}, {7, 7}, {1, 7}, {15, 15}
};

static const double percentiles[] = { 0, 25, 50, 90, 100 };

static int
images_equal_exact (const cm_image * a, const cm_image * b, const char *what)
{
  checks++;
  if (!test_image_equal (a, b, what)) {
    failures++;
    return 0;
  }
  return 1;
}

static void
test_against_naive (void)
{
  test_rng rng;

  test_rng_seed (&rng, 11);
  for (int di = 0; di < 2; di++) {
    cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
    for (int si = 0; si < N_OF (sizes); si++) {
      for (int fill = 0; fill < 2; fill++) {
        /* odd extra pitch on 16-bit images exercises unaligned rows */
        cm_image src = test_image_new (sizes[si].w, sizes[si].h, depth,
            si % 2 ? 3 : 0);
        if (fill)
          test_image_fill_levels (&src, &rng, 3);
        else
          test_image_fill_random (&src, &rng);
        for (int wi = 0; wi < N_OF (windows); wi++) {
          for (int pi = 0; pi < N_OF (percentiles); pi++) {
            for (int b = 0; b < CM_BORDER_MODE_COUNT; b++) {
              cm_median_desc d = { windows[wi].w, windows[wi].h,
                percentiles[pi], (cm_border_mode) b, 0, CM_MEDIAN_AUTO, 0
              };
              cm_image got = test_image_new (src.width, src.height, depth,
                  5);
              cm_image exp = test_image_new (src.width, src.height, depth,
                  0);
              char what[160];
              cm_status st;

              d.border_value = (uint32_t) test_rng_below (&rng,
                  cm_depth_max (depth) + 1) + (b == CM_BORDER_CONSTANT &&
                  pi == 2 ? 70000u : 0u);       /* also > max: clamped */
              snprintf (what, sizeof (what), "median %dx%d win %dx%d p%g "
                  "%s depth %d fill %d", src.width, src.height, d.window_w,
                  d.window_h, d.percentile, border_names[b], depth, fill);
              st = cm_median_ref (&d, &src, &got);
              if (st != CM_OK)
                FAIL ("%s: status %d", what, st);
              naive_median (&d, &src, &exp);
              images_equal_exact (&got, &exp, what);
              test_image_free (&got);
              test_image_free (&exp);
            }
          }
        }
        test_image_free (&src);
      }
    }
  }
}

/* p = 0 / 100 are erosion / dilation by the rectangle */
static void
test_extremes (void)
{
  test_rng rng;
  static const size2 wins[] = { {3, 3}, {5, 3}, {1, 9}, {7, 7}, {15, 15} };
  static const cm_border_mode borders[] = {
    CM_BORDER_REPLICATE, CM_BORDER_REFLECT, CM_BORDER_MIRROR,
    CM_BORDER_CONSTANT
  };

  test_rng_seed (&rng, 12);
  for (int di = 0; di < 2; di++) {
    cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
    for (int si = 0; si < N_OF (sizes); si++) {
      cm_image src = test_image_new (sizes[si].w, sizes[si].h, depth, 1);
      test_image_fill_random (&src, &rng);
      for (int wi = 0; wi < N_OF (wins); wi++) {
        cm_se *se = NULL;
        if (cm_se_new_rect (&se, wins[wi].w, wins[wi].h) != CM_OK) {
          FAIL ("cm_se_new_rect %dx%d", wins[wi].w, wins[wi].h);
          continue;
        }
        for (int bi = 0; bi < N_OF (borders); bi++) {
          for (int is_min = 0; is_min < 2; is_min++) {
            cm_median_desc d = { wins[wi].w, wins[wi].h, is_min ? 0 : 100,
              borders[bi], 77, CM_MEDIAN_AUTO, 0
            };
            cm_image got = test_image_new (src.width, src.height, depth, 0);
            cm_image exp = test_image_new (src.width, src.height, depth, 0);
            char what[160];

            snprintf (what, sizeof (what), "%s vs p%g %dx%d win %dx%d %s "
                "depth %d", is_min ? "erosion" : "dilation", d.percentile,
                src.width, src.height, d.window_w, d.window_h,
                border_names[borders[bi]], depth);
            if (cm_median_ref (&d, &src, &got) != CM_OK ||
                cm_morph_ref_rank_extreme (se, is_min, borders[bi], 77, &src,
                    &exp) != CM_OK)
              FAIL ("%s: status", what);
            else
              images_equal_exact (&got, &exp, what);
            test_image_free (&got);
            test_image_free (&exp);
          }
        }
        cm_se_free (se);
      }
      test_image_free (&src);
    }
  }
}

/* NEUTRAL behaves exactly as REPLICATE */
static void
test_neutral (void)
{
  test_rng rng;
  cm_image src = test_image_new (9, 5, CM_DEPTH_8, 0);
  cm_image a = test_image_new (9, 5, CM_DEPTH_8, 0);
  cm_image b = test_image_new (9, 5, CM_DEPTH_8, 0);
  cm_median_desc d = { 7, 7, 50, CM_BORDER_NEUTRAL, 0, CM_MEDIAN_AUTO, 0 };

  test_rng_seed (&rng, 13);
  test_image_fill_random (&src, &rng);
  cm_median_ref (&d, &src, &a);
  d.border = CM_BORDER_REPLICATE;
  cm_median_ref (&d, &src, &b);
  images_equal_exact (&a, &b, "neutral == replicate");
  test_image_free (&src);
  test_image_free (&a);
  test_image_free (&b);
}

static void
test_rank (void)
{
  static const struct
  {
    int w, h;
    double p;
    int k;
  } cases[] = {
    {3, 3, 50, 4}, {3, 3, 0, 0}, {3, 3, 100, 8}, {3, 3, 25, 2},
    {3, 3, 90, 7}, {5, 5, 10, 2}, {5, 5, 50, 12}, {1, 1, 37, 0},
    {3, 1, 25, 1}, {15, 15, 50, 112}, {5, 3, 10, 1}, {63, 63, 100, 3968},
  };

  for (int i = 0; i < N_OF (cases); i++) {
    cm_median_desc d = { cases[i].w, cases[i].h, cases[i].p,
      CM_BORDER_REPLICATE, 0, CM_MEDIAN_AUTO, 0
    };
    int k = cm_median_rank (&d);
    checks++;
    if (k != cases[i].k)
      FAIL ("rank %dx%d p%g: got %d expected %d", cases[i].w, cases[i].h,
          cases[i].p, k, cases[i].k);
  }
}

/* Every output colour is the colour of a window pixel (or the constant);
 * alpha comes from the centre */
static void
check_luma_colours (const cm_median_desc * d, const cm_image_packed * src,
    const cm_image_packed * out, int ri, int gi, int bi, int ai,
    const char *what)
{
  int rx = d->window_w / 2, ry = d->window_h / 2;
  uint32_t cval = clamp_value (d->border_value, src->depth);

  checks++;
  for (int y = 0; y < src->height; y++) {
    for (int x = 0; x < src->width; x++) {
      int ok = 0;
      for (int dy = -ry; dy <= ry && !ok; dy++) {
        for (int dx = -rx; dx <= rx && !ok; dx++) {
          int sx = test_border_fold (d->border, x + dx, src->width);
          int sy = test_border_fold (d->border, y + dy, src->height);
          int same = 1;
          for (int c = 0; c < src->channels; c++) {
            uint32_t v = sx < 0 || sy < 0 ? cval :
                test_packed_get (src, sx, sy, c);
            if (c == ai)
              continue;
            same &= test_packed_get (out, x, y, c) == v;
          }
          ok = same;
        }
      }
      if (ai >= 0 && test_packed_get (out, x, y, ai) !=
          test_packed_get (src, x, y, ai))
        ok = 0;
      if (!ok) {
        FAIL ("%s: output (%d, %d) is not a window colour", what, x, y);
        return;
      }
    }
  }
}

static int
packed_equal (const cm_image_packed * a, const cm_image_packed * b,
    const char *what)
{
  checks++;
  for (int y = 0; y < a->height; y++)
    for (int x = 0; x < a->width; x++)
      for (int c = 0; c < a->channels; c++)
        if (test_packed_get (a, x, y, c) != test_packed_get (b, x, y, c)) {
          FAIL ("%s: first mismatch at (%d, %d) channel %d: got %u "
              "expected %u", what, x, y, c, test_packed_get (a, x, y, c),
              test_packed_get (b, x, y, c));
          return 0;
        }
  return 1;
}

static void
test_luma (void)
{
  static const struct
  {
    int ch, r, g, b, a;
    const char *name;
  } layouts[] = {
    {4, 0, 1, 2, 3, "RGBA"}, {4, 2, 1, 0, 3, "BGRA"},
    {4, 2, 1, 0, -1, "BGRx"}, {3, 0, 1, 2, -1, "RGB"},
  };
  static const size2 lsizes[] = { {1, 1}, {1, 9}, {9, 1}, {2, 3}, {13, 11} };
  static const size2 lwins[] = { {1, 1}, {3, 3}, {5, 3}, {7, 7} };
  test_rng rng;

  test_rng_seed (&rng, 14);
  for (int di = 0; di < 2; di++) {
    cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
    for (int li = 0; li < N_OF (layouts); li++) {
      for (int si = 0; si < N_OF (lsizes); si++) {
        for (int fill = 0; fill < 2; fill++) {
          cm_image_packed src = test_packed_new (lsizes[si].w, lsizes[si].h,
              depth, layouts[li].ch, si % 2 ? 3 : 0);
          packed_fill (&src, &rng, fill);
          for (int wi = 0; wi < N_OF (lwins); wi++) {
            for (int pi = 0; pi < N_OF (percentiles); pi++) {
              for (int b = 1; b < CM_BORDER_MODE_COUNT; b++) {
                cm_median_desc d = { lwins[wi].w, lwins[wi].h,
                  percentiles[pi], (cm_border_mode) b, 0, CM_MEDIAN_AUTO, 0
                };
                cm_image_packed got = test_packed_new (src.width, src.height,
                    depth, src.channels, 2);
                cm_image_packed exp = test_packed_new (src.width, src.height,
                    depth, src.channels, 0);
                char what[160];
                cm_status st;

                d.border_value = test_rng_below (&rng,
                    cm_depth_max (depth) + 1);
                snprintf (what, sizeof (what), "luma %s %dx%d win %dx%d "
                    "p%g %s depth %d fill %d", layouts[li].name, src.width,
                    src.height, d.window_w, d.window_h, d.percentile,
                    border_names[b], depth, fill);
                st = cm_median_luma_ref (&d, &src, &got, layouts[li].r,
                    layouts[li].g, layouts[li].b, layouts[li].a);
                if (st != CM_OK)
                  FAIL ("%s: status %d", what, st);
                naive_luma (&d, &src, &exp, layouts[li].r, layouts[li].g,
                    layouts[li].b, layouts[li].a);
                packed_equal (&got, &exp, what);
                check_luma_colours (&d, &src, &got, layouts[li].r,
                    layouts[li].g, layouts[li].b, layouts[li].a, what);
                free (got.data);
                free (exp.data);
              }
            }
          }
          free (src.data);
        }
      }
    }
  }
}

static void
expect_invalid (cm_status st, const char *what)
{
  checks++;
  if (st != CM_ERR_INVALID_ARG)
    FAIL ("%s: expected CM_ERR_INVALID_ARG, got %d", what, st);
}

static void
test_invalid (void)
{
  cm_image a = test_image_new (8, 8, CM_DEPTH_8, 0);
  cm_image b = test_image_new (8, 8, CM_DEPTH_8, 0);
  cm_image c16 = test_image_new (8, 8, CM_DEPTH_16, 0);
  cm_image small = test_image_new (7, 8, CM_DEPTH_8, 0);
  cm_image_packed pa = test_packed_new (4, 4, CM_DEPTH_8, 4, 0);
  cm_image_packed pb = test_packed_new (4, 4, CM_DEPTH_8, 4, 0);
  cm_image_packed p2 = test_packed_new (4, 4, CM_DEPTH_8, 2, 0);
  cm_median_desc good = { 3, 3, 50, CM_BORDER_REPLICATE, 0,
    CM_MEDIAN_AUTO, 0
  };
  cm_median_desc d;
  cm_image bad;

  checks++;
  if (cm_median_ref (&good, &a, &b) != CM_OK)
    FAIL ("valid call rejected");
  expect_invalid (cm_median_ref (NULL, &a, &b), "NULL desc");
  expect_invalid (cm_median_ref (&good, NULL, &b), "NULL src");
  expect_invalid (cm_median_ref (&good, &a, NULL), "NULL dst");
  d = good;
  d.window_w = 4;
  expect_invalid (cm_median_ref (&d, &a, &b), "even width");
  d = good;
  d.window_h = 0;
  expect_invalid (cm_median_ref (&d, &a, &b), "zero height");
  d = good;
  d.window_w = -3;
  expect_invalid (cm_median_ref (&d, &a, &b), "negative width");
  d = good;
  d.window_w = CM_MEDIAN_MAX_WINDOW + 2;
  expect_invalid (cm_median_ref (&d, &a, &b), "too wide");
  d = good;
  d.percentile = NAN;
  expect_invalid (cm_median_ref (&d, &a, &b), "NaN percentile");
  d.percentile = -0.5;
  expect_invalid (cm_median_ref (&d, &a, &b), "negative percentile");
  d.percentile = 100.5;
  expect_invalid (cm_median_ref (&d, &a, &b), "percentile > 100");
  d.percentile = INFINITY;
  expect_invalid (cm_median_ref (&d, &a, &b), "infinite percentile");
  d = good;
  d.border = (cm_border_mode) 9;
  expect_invalid (cm_median_ref (&d, &a, &b), "bad border");
  d = good;
  d.algorithm = (cm_median_algorithm) 7;
  expect_invalid (cm_median_ref (&d, &a, &b), "bad algorithm");
  d = good;
  d.plan_flags = 0x10;
  expect_invalid (cm_median_ref (&d, &a, &b), "bad flags");
  expect_invalid (cm_median_ref (&good, &a, &c16), "depth mismatch");
  expect_invalid (cm_median_ref (&good, &a, &small), "size mismatch");
  expect_invalid (cm_median_ref (&good, &a, &a), "in place");
  bad = a;
  bad.pitch = 7;
  expect_invalid (cm_median_ref (&good, &bad, &b), "pitch < width");
  bad = a;
  bad.depth = (cm_depth) 12;
  expect_invalid (cm_median_ref (&good, &bad, &b), "bad depth");
  bad = b;
  bad.data = (uint8_t *) a.data + 8;
  bad.height = 2;
  {
    cm_image a2 = a;
    a2.height = 2;
    expect_invalid (cm_median_ref (&good, &a2, &bad), "overlap");
  }
  checks++;
  if (cm_median_rank (NULL) != -1)
    FAIL ("rank of NULL desc");

  checks++;
  if (cm_median_luma_ref (&good, &pa, &pb, 0, 1, 2, 3) != CM_OK)
    FAIL ("valid luma call rejected");
  expect_invalid (cm_median_luma_ref (&good, &pa, &pb, 0, 0, 2, 3),
      "luma r == g");
  expect_invalid (cm_median_luma_ref (&good, &pa, &pb, 0, 1, 4, 3),
      "luma b out of range");
  expect_invalid (cm_median_luma_ref (&good, &pa, &pb, 0, 1, 2, 2),
      "luma a == b");
  expect_invalid (cm_median_luma_ref (&good, &pa, &pb, 0, 1, 2, -2),
      "luma a = -2");
  expect_invalid (cm_median_luma_ref (&good, &pa, &pa, 0, 1, 2, 3),
      "luma in place");
  expect_invalid (cm_median_luma_ref (&good, &p2, &p2, 0, 1, 2, -1),
      "luma 2 channels");
  expect_invalid (cm_median_luma_ref (NULL, &pa, &pb, 0, 1, 2, 3),
      "luma NULL desc");

  test_image_free (&a);
  test_image_free (&b);
  test_image_free (&c16);
  test_image_free (&small);
  free (pa.data);
  free (pb.data);
  free (p2.data);
}

/* ---------------------------------------------------------------------- */
/* Threads and cancellation (the _mt entry points) */

static void
test_threads (void)
{
  static const int thread_counts[] = { 2, 5, 64 };
  static const size2 wins[] = { {3, 3}, {7, 5}, {15, 15} };
  test_rng rng;

  test_rng_seed (&rng, 4242);
  for (int di = 0; di < 2; di++) {
    cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
    cm_image src = test_image_new (53, 41, depth, 3);
    cm_image_packed psrc = test_packed_new (29, 23, depth, 4, 2);

    test_image_fill_random (&src, &rng);
    packed_fill (&psrc, &rng, 0);
    for (int wi = 0; wi < N_OF (wins); wi++) {
      cm_median_desc d = { wins[wi].w, wins[wi].h, 30.0 + 20 * wi,
        (cm_border_mode) (wi % CM_BORDER_MODE_COUNT), 9, CM_MEDIAN_AUTO, 0
      };
      cm_image want = test_image_new (53, 41, depth, 0);
      cm_image_packed pwant = test_packed_new (29, 23, depth, 4, 0);

      if (cm_median_ref (&d, &src, &want) != CM_OK ||
          cm_median_luma_ref (&d, &psrc, &pwant, 0, 1, 2, 3) != CM_OK) {
        FAIL ("reference failed");
        continue;
      }
      for (int t = 0; t < N_OF (thread_counts); t++) {
        cm_cpu_opts o = { thread_counts[t], NULL };
        cm_image got = test_image_new (53, 41, depth, 1);
        cm_image_packed pgot = test_packed_new (29, 23, depth, 4, 1);
        char what[96];

        snprintf (what, sizeof (what), "median %dx%d %d-bit on %d threads",
            d.window_w, d.window_h, depth, o.threads);
        checks++;
        if (cm_median_ref_mt (&d, &src, &got, &o) != CM_OK)
          FAIL ("%s: failed", what);
        else if (!test_image_equal (&got, &want, what))
          failures++;
        checks++;
        if (cm_median_luma_ref_mt (&d, &psrc, &pgot, 0, 1, 2, 3, &o) !=
            CM_OK) {
          FAIL ("%s (luma): failed", what);
        } else {
          for (int y = 0; y < 23; y++)
            for (int x = 0; x < 29; x++)
              for (int c = 0; c < 4; c++)
                if (test_packed_get (&pgot, x, y, c) !=
                    test_packed_get (&pwant, x, y, c)) {
                  FAIL ("%s (luma): differs at (%d, %d)", what, x, y);
                  y = 23;
                  x = 29;
                  break;
                }
        }
        test_image_free (&got);
        free (pgot.data);
      }
      test_image_free (&want);
      free (pwant.data);
    }
    test_image_free (&src);
    free (psrc.data);
  }

  /* a flag set before the run stops it */
  {
    int flag = 1;
    cm_cpu_opts o = { 3, &flag };
    cm_median_desc d = { 5, 5, 50, CM_BORDER_REPLICATE, 0, CM_MEDIAN_AUTO,
      0
    };
    cm_image a = test_image_new (40, 30, CM_DEPTH_8, 0);
    cm_image b = test_image_new (40, 30, CM_DEPTH_8, 0);

    test_image_fill_random (&a, &rng);
    checks++;
    if (cm_median_ref_mt (&d, &a, &b, &o) != CM_ERR_CANCELLED)
      FAIL ("a median run with the cancel flag set was not cancelled");
    test_image_free (&a);
    test_image_free (&b);
  }
}

int
main (void)
{
  test_rank ();
  test_invalid ();
  test_neutral ();
  test_against_naive ();
  test_extremes ();
  test_luma ();
  test_threads ();
  return test_count_report ("test-median-ref");
}
