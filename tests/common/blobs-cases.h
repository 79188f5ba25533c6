/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The frames and descriptors of the blobs tests (tests/core's CPU backend
 * and tests/gpu's CUDA plan, both against cm_blobs_ref), and the exact
 * comparison of two results. Header only: each test program includes it
 * once. */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobs/blobs.h"
#include "test-util.h"

typedef enum
{
  BLOBS_RANDOM,                 /* uniform samples: density by threshold */
  BLOBS_SPIRAL,                 /* one path of turns a pixel apart       */
  BLOBS_CHECKER,                /* checkerboard of cells: 4 vs 8 differ  */
  BLOBS_FULL,                   /* one blob covering the frame           */
  BLOBS_EMPTY,                  /* no blob                               */
  BLOBS_DISCS,                  /* discs of a few radii (area ties)      */
  BLOBS_COMBS,                  /* columns joined by one row: long merges */
  BLOBS_KINDS
} blobs_kind;

static inline const char *
blobs_kind_name (blobs_kind k)
{
  static const char *names[] = { "random", "spiral", "checker", "full",
    "empty", "discs", "combs"
  };
  return k < BLOBS_KINDS ? names[k] : "?";
}

/* the threshold of the structured kinds at @depth */
static inline uint32_t
blobs_mid (cm_depth depth)
{
  return depth == CM_DEPTH_16 ? 32768u : 128u;
}

/* a random sample on the foreground (@fg) or background side of @t */
static inline uint32_t
blobs_sample (test_rng * r, int fg, uint32_t t, cm_depth depth)
{
  const uint32_t max = cm_depth_max (depth);

  return fg ? t + test_rng_below (r, max - t + 1) : test_rng_below (r, t);
}

/* @img's samples from the mask @on (a byte a pixel, rows of @img's
 * width): random, at >= @t where it is set, below elsewhere */
static inline void
blobs_paint (cm_image * img, const uint8_t * on, uint32_t t, test_rng * r)
{
  const int w = img->width;

  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < w; x++)
      test_image_set (img, x, y, blobs_sample (r, on[(size_t) y * w + x], t,
              img->depth));
}

/* A spiral from the top-left corner inwards, clockwise, its laps one
 * pixel apart: walk on while the next pixel and the one after it are
 * free, else turn; stop after two turns in a row. */
static inline void
blobs_fill_spiral (uint8_t * on, int w, int h)
{
  static const int dx[4] = { 1, 0, -1, 0 }, dy[4] = { 0, 1, 0, -1 };
  int x = 0, y = 0, dir = 0, turns = 0;

  on[0] = 1;
  while (turns < 2) {
    const int nx = x + dx[dir], ny = y + dy[dir];
    const int fx = x + 2 * dx[dir], fy = y + 2 * dy[dir];
    const int in = nx >= 0 && ny >= 0 && nx < w && ny < h;
    const int far_in = fx >= 0 && fy >= 0 && fx < w && fy < h;

    if (in && !on[(size_t) ny * w + nx] && !(far_in &&
            on[(size_t) fy * w + fx])) {
      x = nx;
      y = ny;
      on[(size_t) y * w + x] = 1;
      turns = 0;
    } else {
      dir = (dir + 1) % 4;
      turns++;
    }
  }
}

/* @img filled as @kind with @param (random: density in percent of the
 * threshold's side, checker: cell size, discs: count), foreground at
 * >= @t. Random frames: uniform samples, density set by *t (returned). */
static inline void
blobs_fill (cm_image * img, blobs_kind kind, int param, uint32_t * t,
    test_rng * r)
{
  const int w = img->width, h = img->height;
  const uint32_t max = cm_depth_max (img->depth);
  uint8_t *on;

  if (kind == BLOBS_RANDOM) {
    /* P(v >= t) = (max + 1 - t) / (max + 1) = param / 100 */
    *t = (uint32_t) ((uint64_t) (max + 1) * (100 - param) / 100);
    if (*t > max)
      *t = max;
    test_image_fill_random (img, r);
    return;
  }
  *t = blobs_mid (img->depth);
  on = (uint8_t *) calloc ((size_t) w * h, 1);
  switch (kind) {
    case BLOBS_SPIRAL:
      blobs_fill_spiral (on, w, h);
      break;
    case BLOBS_CHECKER:
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          on[(size_t) y * w + x] = ((x / param) + (y / param)) % 2 == 0;
      break;
    case BLOBS_FULL:
      memset (on, 1, (size_t) w * h);
      break;
    case BLOBS_DISCS:
      for (int i = 0; i < param; i++) {
        const int rad = 1 + (int) test_rng_below (r, 4) * 2;
        const int cx = (int) test_rng_below (r, (uint32_t) w);
        const int cy = (int) test_rng_below (r, (uint32_t) h);

        for (int y = cy - rad; y <= cy + rad; y++)
          for (int x = cx - rad; x <= cx + rad; x++)
            if (x >= 0 && y >= 0 && x < w && y < h &&
                (x - cx) * (x - cx) + (y - cy) * (y - cy) <= rad * rad)
              on[(size_t) y * w + x] = 1;
      }
      break;
    case BLOBS_COMBS:
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          on[(size_t) y * w + x] = x % 2 == 0 || y == h - 1 - (x / 64) % h;
      break;
    default:
      break;
  }
  blobs_paint (img, on, *t, r);
  free (on);
}

/* The results equal, every array entry bit for bit; else a line on
 * stderr naming the first difference */
static inline int
blobs_results_equal (const cm_blobs_results * got,
    const cm_blobs_results * want, const char *what)
{
#define BLOBS_FIELD(f) do { \
    if (memcmp (&got->f[i], &want->f[i], sizeof (want->f[i])) != 0) { \
      fprintf (stderr, "%s: blob %u of %u: " #f " differs: got box %u,%u " \
          "%ux%u area %llu cx %.17g cy %.17g min %u max %u mean %.17g, " \
          "expected %u,%u %ux%u area %llu cx %.17g cy %.17g min %u max %u " \
          "mean %.17g\n", what, i, want->count, got->x[i], got->y[i], \
          got->width[i], got->height[i], \
          (unsigned long long) got->area[i], got->cx[i], got->cy[i], \
          got->min[i], got->max[i], got->mean[i], want->x[i], want->y[i], \
          want->width[i], want->height[i], \
          (unsigned long long) want->area[i], want->cx[i], want->cy[i], \
          want->min[i], want->max[i], want->mean[i]); \
      return 0; \
    } \
  } while (0)
  if (got->total != want->total || got->count != want->count ||
      got->foreground != want->foreground ||
      got->labels_saturated != want->labels_saturated) {
    fprintf (stderr, "%s: total %u count %u foreground %llu saturated %d, "
        "expected %u %u %llu %d\n", what, got->total, got->count,
        (unsigned long long) got->foreground, got->labels_saturated,
        want->total, want->count, (unsigned long long) want->foreground,
        want->labels_saturated);
    return 0;
  }
  for (uint32_t i = 0; i < want->count; i++) {
    BLOBS_FIELD (x);
    BLOBS_FIELD (y);
    BLOBS_FIELD (width);
    BLOBS_FIELD (height);
    BLOBS_FIELD (area);
    BLOBS_FIELD (cx);
    BLOBS_FIELD (cy);
    BLOBS_FIELD (min);
    BLOBS_FIELD (max);
    BLOBS_FIELD (mean);
  }
#undef BLOBS_FIELD
  return 1;
}

/* The frames every size is checked on: a kind and its parameter */
static const struct
{
  blobs_kind kind;
  int param;
} blobs_kinds[] = {
  {BLOBS_RANDOM, 5}, {BLOBS_RANDOM, 25}, {BLOBS_RANDOM, 50},
  {BLOBS_RANDOM, 75}, {BLOBS_RANDOM, 95}, {BLOBS_SPIRAL, 0},
  {BLOBS_CHECKER, 1}, {BLOBS_CHECKER, 3}, {BLOBS_FULL, 0},
  {BLOBS_EMPTY, 0}, {BLOBS_DISCS, 30}, {BLOBS_COMBS, 0}
};

#define BLOBS_KINDS ((int) (sizeof (blobs_kinds) / sizeof (blobs_kinds[0])))

/* @src a checkerboard of one-pixel cells: under the descriptor returned
 * (4-connected, labels out) more blobs than 65535, so that labels past it
 * share 65535 */
static inline cm_blobs_desc
blobs_saturating (cm_image * src, test_rng * r)
{
  cm_blobs_desc d;
  uint32_t t;

  blobs_fill (src, BLOBS_CHECKER, 1, &t, r);
  memset (&d, 0, sizeof (d));
  d.threshold = t;
  d.connectivity = 4;
  d.output = CM_BLOBS_OUTPUT_LABELS;
  return d;
}

/* The descriptors a frame is checked with: a mix of the filters, the
 * selection and the outputs; @i from 0 to BLOBS_DESCS - 1, @t the
 * threshold */
#define BLOBS_DESCS 8

static inline cm_blobs_desc
blobs_desc_of (int i, uint32_t t)
{
  cm_blobs_desc d;

  memset (&d, 0, sizeof (d));
  d.threshold = t;
  d.connectivity = i % 2 ? 4 : 8;
  d.min_area = 1;
  switch (i / 2) {
    case 0:                    /* everything, labels */
      d.output = CM_BLOBS_OUTPUT_LABELS;
      break;
    case 1:                    /* area limits, the border, a mask */
      d.min_area = 3;
      d.max_area = 500;
      d.exclude_border = 1;
      d.output = CM_BLOBS_OUTPUT_MASK;
      break;
    case 2:                    /* the largest few: ties */
      d.max_blobs = 7;
      d.output = CM_BLOBS_OUTPUT_LABELS;
      break;
    default:                   /* dark objects, the default limit */
      d.invert = 1;
      d.max_blobs = 256;
      d.min_area = 2;
      d.output = CM_BLOBS_OUTPUT_NONE;
      break;
  }
  return d;
}

static inline const char *
blobs_output_name (cm_blobs_output o)
{
  return o == CM_BLOBS_OUTPUT_MASK ? "mask" :
      o == CM_BLOBS_OUTPUT_LABELS ? "labels" : "none";
}

/* "<kind>(param) WxH d-bit conn=c t=.. inv=.. area=[a,b] border=.. max=..
 * out=.." into buf */
static inline void
blobs_case_name (char *buf, size_t size, blobs_kind kind, int param,
    const cm_image * img, const cm_blobs_desc * d)
{
  snprintf (buf, size, "%s(%d) %dx%d %d-bit conn=%d t=%u inv=%d area=[%llu,"
      "%llu] border=%d max=%u out=%s", blobs_kind_name (kind), param,
      img->width, img->height, (int) img->depth, d->connectivity,
      d->threshold, d->invert, (unsigned long long) d->min_area,
      (unsigned long long) d->max_area, d->exclude_border, d->max_blobs,
      blobs_output_name (d->output));
}
