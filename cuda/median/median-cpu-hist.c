/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* median-cpu-hist.h. Column x's histogram counts the samples of rows
 * y - ry .. y + ry of image column x (border rows by the rule); a window
 * column off the image is the histogram of the column the border rule maps
 * it to, or for CONSTANT one of wh samples of the constant. Counts fit 16
 * bits: a window holds at most 255 x 255 samples. */
#include "median-cpu-hist.h"
#include "cm-cpu-clones.h"
#include "cm-align.h"
#include "cpu-bands.h"

#include <stdlib.h>
#include <string.h>

#define BINS 256
#define COARSE 16

typedef struct
{
  uint16_t *fine;               /* (w + 1) x BINS: column x, then the
                                   constant column */
  uint16_t *coarse;             /* (w + 1) x COARSE */
  const uint16_t **fcol, **ccol;        /* window column e: its histogram */
  uint16_t *win;                /* the window's: BINS fine, COARSE coarse */
} band_mem;

typedef struct
{
  const cm_image *src, *dst;
  const cm_cpu_opts *opts;
  int k, w, h, ww, wh, rx, ry;
  cm_border_mode mode;          /* NEUTRAL read as REPLICATE */
  uint8_t cval;
  band_mem *mem;
} hist_job;

/* h += a - b over n counters (wrapping: the sums are counts) */
static inline void
hist_move (uint16_t * restrict h, const uint16_t * restrict a,
    const uint16_t * restrict b, int n)
{
  for (int i = 0; i < n; i++)
    h[i] += a[i] - b[i];
}

/* One output row from the column histograms: the window's histogram
 * starts with columns 0 .. ww - 1 and slides right */
CM_CPU_CLONES static void
hist_row (uint8_t * out, const uint16_t * const *fcol,
    const uint16_t * const *ccol, uint16_t * restrict fine,
    uint16_t * restrict coarse, int w, int ww, int k)
{
  memset (fine, 0, BINS * sizeof (uint16_t));
  memset (coarse, 0, COARSE * sizeof (uint16_t));
  for (int e = 0; e < ww; e++) {
    for (int i = 0; i < BINS; i++)
      fine[i] += fcol[e][i];
    for (int i = 0; i < COARSE; i++)
      coarse[i] += ccol[e][i];
  }
  for (int x = 0; x < w; x++) {
    int c = 0, f = 0, below, acc = 0;

    /* the smallest value with more than k samples at or below it: the
     * number of bins whose running sum is at most k, counted without
     * branches (a search mispredicts on noise) */
    for (int i = 0; i < COARSE; i++) {
      acc += coarse[i];
      c += acc <= k;
    }
    below = 0;
    for (int i = 0; i < COARSE; i++)
      below += i < c ? coarse[i] : 0;
    acc = below;
    for (int i = 0; i < COARSE; i++) {
      acc += fine[c * COARSE + i];
      f += acc <= k;
    }
    out[x] = (uint8_t) (c * COARSE + f);
    if (x + 1 == w)
      break;
    hist_move (fine, fcol[x + ww], fcol[x], BINS);
    hist_move (coarse, ccol[x + ww], ccol[x], COARSE);
  }
}

/* Counts virtual row v (the border rule's row) into the column
 * histograms, d = 1, or out, d = -1 (0xffff) */
static void
count_row (const hist_job * j, band_mem * m, int v, uint16_t d)
{
  int my = v;

  if (v < 0 || v >= j->h)
    my = j->mode == CM_BORDER_CONSTANT ? -1 : cm_border_map (j->mode, v,
        j->h);
  if (my < 0) {
    for (int x = 0; x < j->w; x++) {
      m->fine[x * BINS + j->cval] += d;
      m->coarse[x * COARSE + j->cval / COARSE] += d;
    }
    return;
  }
  {
    const uint8_t *row = (const uint8_t *) j->src->data + (size_t) my *
        j->src->pitch;

    for (int x = 0; x < j->w; x++) {
      m->fine[x * BINS + row[x]] += d;
      m->coarse[x * COARSE + row[x] / COARSE] += d;
    }
  }
}

static cm_status
hist_band (void *data, int band, int y0, int y1)
{
  const hist_job *j = data;
  band_mem *m = &j->mem[band];

  for (int y = y0; y < y1; y++) {
    if (cm_cpu_cancelled (j->opts))
      return CM_ERR_CANCELLED;
    if (y == y0) {
      for (int v = y - j->ry; v <= y + j->ry; v++)
        count_row (j, m, v, 1);
    } else {
      count_row (j, m, y - 1 - j->ry, (uint16_t) 0xffff);
      count_row (j, m, y + j->ry, 1);
    }
    hist_row ((uint8_t *) j->dst->data + (size_t) y * j->dst->pitch,
        m->fcol, m->ccol, m->win, m->win + BINS, j->w, j->ww, j->k);
  }
  return CM_OK;
}

/* The bytes of one band's arrays, each 64-byte aligned */
static size_t
band_bytes (int w, int rx)
{
  size_t n = (size_t) w + 2 * (size_t) rx;

  return cm_align64 (((size_t) w + 1) * BINS * sizeof (uint16_t)) +
      cm_align64 (((size_t) w + 1) * COARSE * sizeof (uint16_t)) +
      2 * cm_align64 (n * sizeof (const uint16_t *)) +
      cm_align64 ((BINS + COARSE) * sizeof (uint16_t));
}

size_t
cm_median_hist8_scratch (const cm_median_desc * desc, int width, int bands)
{
  return cm_align64 ((size_t) bands * sizeof (band_mem)) + (size_t) bands *
      band_bytes (width, desc->window_w / 2);
}

/* One band's arrays carved from @p: histograms zeroed, the constant
 * column filled, the window columns' pointers */
static uint8_t *
band_init (const hist_job * j, band_mem * m, uint8_t * p)
{
  size_t n = (size_t) j->w + 2 * (size_t) j->rx;
  size_t fine = ((size_t) j->w + 1) * BINS * sizeof (uint16_t);
  size_t coarse = ((size_t) j->w + 1) * COARSE * sizeof (uint16_t);

  m->fine = (uint16_t *) p;
  p += cm_align64 (fine);
  m->coarse = (uint16_t *) p;
  p += cm_align64 (coarse);
  m->fcol = (const uint16_t **) p;
  p += cm_align64 (n * sizeof (const uint16_t *));
  m->ccol = (const uint16_t **) p;
  p += cm_align64 (n * sizeof (const uint16_t *));
  m->win = (uint16_t *) p;
  p += cm_align64 ((BINS + COARSE) * sizeof (uint16_t));
  memset (m->fine, 0, fine);
  memset (m->coarse, 0, coarse);
  m->fine[j->w * BINS + j->cval] = (uint16_t) j->wh;
  m->coarse[j->w * COARSE + j->cval / COARSE] = (uint16_t) j->wh;
  for (size_t e = 0; e < n; e++) {
    int x = (int) e - j->rx;

    if (x < 0 || x >= j->w)
      x = j->mode == CM_BORDER_CONSTANT ? j->w : cm_border_map (j->mode, x,
          j->w);
    m->fcol[e] = m->fine + (size_t) x * BINS;
    m->ccol[e] = m->coarse + (size_t) x * COARSE;
  }
  return p;
}

cm_status
cm_median_hist8_run (const cm_median_desc * desc, int k,
    const cm_image * src, const cm_image * dst, const cm_cpu_opts * opts,
    void *scratch)
{
  hist_job j;
  int n;
  uint8_t *p = scratch;

  memset (&j, 0, sizeof (j));
  j.src = src;
  j.dst = dst;
  j.opts = opts;
  j.k = k;
  j.w = src->width;
  j.h = src->height;
  j.ww = desc->window_w;
  j.wh = desc->window_h;
  j.rx = j.ww / 2;
  j.ry = j.wh / 2;
  j.mode = desc->border == CM_BORDER_NEUTRAL ? CM_BORDER_REPLICATE :
      desc->border;
  j.cval = (uint8_t) (desc->border_value < 255 ? desc->border_value : 255);
  n = cm_cpu_band_count (opts, j.h);
  j.mem = (band_mem *) p;
  p += cm_align64 ((size_t) n * sizeof (band_mem));
  for (int i = 0; i < n; i++)
    p = band_init (&j, &j.mem[i], p);
  return cm_cpu_bands (opts, j.h, hist_band, &j);
}
