/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the temporal percentile's tests (core and GPU) share: random frames
 * (uniform, or a few levels for ties), the test's own copy of the window
 * (the frames since the last reset, oldest first, at most `frames`: what
 * cm_temporal_ref takes), and an exact comparison of interleaved images
 * that reports the first mismatch. */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm-sample.h"
#include "temporal/temporal.h"
#include "test-util.h"

/* Every sample of @img (not the padding): uniform at levels 0, else one
 * of @levels values spread over the depth's range */
static inline void
temporal_fill (const cm_image_packed * img, test_rng * r, int levels)
{
  const int bpp = cm_depth_bytes (img->depth);
  const uint32_t max = cm_depth_max (img->depth);

  for (int y = 0; y < img->height; y++) {
    uint8_t *row = (uint8_t *) img->data + (size_t) y * img->pitch;

    for (int x = 0; x < img->width * img->channels; x++) {
      uint32_t v = levels > 1 ?
          test_rng_below (r, (uint32_t) levels) * (max / (levels - 1)) :
          test_rng_below (r, max + 1);

      cm_store_sample (row, x, bpp, v);
    }
  }
}

/* A frame of @src's size with its samples, rows packed (free with
 * free (data)) */
static inline cm_image_packed
temporal_copy (const cm_image_packed * src)
{
  cm_image_packed c = test_packed_new (src->width, src->height, src->depth,
      src->channels, 0);
  const size_t row = (size_t) src->width * src->channels *
      cm_depth_bytes (src->depth);

  for (int y = 0; y < src->height; y++)
    memcpy ((uint8_t *) c.data + (size_t) y * c.pitch,
        (const uint8_t *) src->data + (size_t) y * src->pitch, row);
  return c;
}

typedef struct
{
  cm_image_packed win[CM_TEMPORAL_MAX_FRAMES];
  int n, frames;
} temporal_history;

static inline void
temporal_history_clear (temporal_history * h)
{
  for (int i = 0; i < h->n; i++)
    free (h->win[i].data);
  h->n = 0;
}

/* @src joins the window, the oldest frame leaving a full one */
static inline void
temporal_history_push (temporal_history * h, const cm_image_packed * src)
{
  if (h->n == h->frames) {
    free (h->win[0].data);
    memmove (&h->win[0], &h->win[1], (size_t) (h->n - 1) * sizeof (h->win[0]));
    h->n--;
  }
  h->win[h->n++] = temporal_copy (src);
}

/* 1 when the samples of @got and @want agree; else prints "<what>: first
 * mismatch at (x, y) channel c: got G expected E" and returns 0 */
static inline int
temporal_equal (const cm_image_packed * got, const cm_image_packed * want,
    const char *what)
{
  for (int y = 0; y < want->height; y++)
    for (int x = 0; x < want->width; x++)
      for (int c = 0; c < want->channels; c++) {
        const uint32_t g = test_packed_get (got, x, y, c);
        const uint32_t e = test_packed_get (want, x, y, c);

        if (g != e) {
          fprintf (stderr, "%s: first mismatch at (%d, %d) channel %d: "
              "got %u expected %u\n", what, x, y, c, g, e);
          return 0;
        }
      }
  return 1;
}
