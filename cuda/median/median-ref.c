/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU reference of the median / rank filters (median.h), written as the
 * definition: the output is the sample of rank k of the border-extended
 * window. It is the oracle of the tests and the CPU backend of the
 * element, so the rank is found by counting rather than by sorting each
 * window (Huang's sliding histogram): along a row the window histogram
 * loses one column and gains one, 2 * window_h updates per output, and
 * the rank is read off a hierarchical histogram of 16-way levels (4 bits
 * a level: 2 levels for 8-bit data, 4 for 16-bit), at most 16 steps a
 * level. Counting sort and selection give the same sample by definition.
 *
 * The border rule is applied through index tables built once per call
 * (cm_border_map, or "outside" for CONSTANT), so every window sample is
 * either an image sample or the constant. */
#include "median.h"
#include "cpu-bands.h"
#include "cm-rank.h"
#include "cm-sample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- descriptor --------------------------------------------------------- */

static int
window_side_ok (int n)
{
  return n >= 1 && n <= CM_MEDIAN_MAX_WINDOW && (n % 2) == 1;
}

cm_status
cm_median_desc_check (const cm_median_desc * desc)
{
  if (!desc)
    return CM_ERR_INVALID_ARG;
  if (!window_side_ok (desc->window_w) || !window_side_ok (desc->window_h))
    return CM_ERR_INVALID_ARG;
  /* NaN fails both comparisons */
  if (!(desc->percentile >= 0.0 && desc->percentile <= 100.0))
    return CM_ERR_INVALID_ARG;
  if ((int) desc->border < 0 || (int) desc->border >= CM_BORDER_MODE_COUNT)
    return CM_ERR_INVALID_ARG;
  if ((int) desc->algorithm < 0
      || (int) desc->algorithm >= CM_MEDIAN_ALGORITHM_COUNT)
    return CM_ERR_INVALID_ARG;
  if (desc->plan_flags & ~CM_MEDIAN_PLAN_LUMA)
    return CM_ERR_INVALID_ARG;
  return CM_OK;
}

int
cm_median_rank (const cm_median_desc * desc)
{
  if (cm_median_desc_check (desc) != CM_OK)
    return -1;
  return cm_percentile_rank (desc->percentile,
      desc->window_w * desc->window_h);
}

const char *
cm_median_algorithm_name (cm_median_algorithm algorithm)
{
  switch (algorithm) {
    case CM_MEDIAN_AUTO:
      return "auto";
    case CM_MEDIAN_NETWORK:
      return "network";
    case CM_MEDIAN_HISTOGRAM:
      return "histogram";
    default:
      return "unknown";
  }
}

/* ---- images ------------------------------------------------------------- */

/* A colour view: three or four channels */
static int
packed_ok (const cm_image_packed * img)
{
  return cm_image_packed_ok (img) && img->channels >= 3;
}

/* ---- hierarchical histogram ----------------------------------------------
 * Level l (0 .. nlev-1) has 16^(l+1) bins counting the samples by their
 * top 4 (l+1) bits; the last level counts full values. */

typedef struct
{
  int bits, nlev;
  uint32_t *lev[4];
  uint32_t *mem;
} rhist;

static int
rhist_init (rhist * h, int bits)
{
  size_t total = 0, off = 0;

  h->bits = bits;
  h->nlev = bits / 4;
  for (int l = 0; l < h->nlev; l++)
    total += (size_t) 1 << (4 * (l + 1));
  h->mem = calloc (total, sizeof (uint32_t));
  if (!h->mem)
    return 0;
  for (int l = 0; l < h->nlev; l++) {
    h->lev[l] = h->mem + off;
    off += (size_t) 1 << (4 * (l + 1));
  }
  return 1;
}

static void
rhist_clear (rhist * h)
{
  size_t total = 0;

  for (int l = 0; l < h->nlev; l++)
    total += (size_t) 1 << (4 * (l + 1));
  memset (h->mem, 0, total * sizeof (uint32_t));
}

static inline void
rhist_add (rhist * h, uint32_t v, uint32_t count)
{
  for (int l = 0; l < h->nlev; l++)
    h->lev[l][v >> (h->bits - 4 * (l + 1))] += count;
}

static inline void
rhist_remove (rhist * h, uint32_t v)
{
  for (int l = 0; l < h->nlev; l++)
    h->lev[l][v >> (h->bits - 4 * (l + 1))]--;
}

/* The sample of rank k (0-based) of the counted multiset; *below receives
 * how many samples are smaller than it. k < number of samples. */
static uint32_t
rhist_select (const rhist * h, int k, int *below)
{
  uint32_t idx = 0, acc = 0;

  for (int l = 0; l < h->nlev; l++) {
    const uint32_t *bins = h->lev[l] + (size_t) idx * 16;
    int c = 0;

    while (c < 15 && acc + bins[c] <= (uint32_t) k) {
      acc += bins[c];
      c++;
    }
    idx = idx * 16 + (uint32_t) c;
  }
  *below = (int) acc;
  return idx;
}

/* ---- border-extended plane ---------------------------------------------- */

/* A single-channel plane of samples: row y starts at data + y * pitch. */
typedef struct
{
  const uint8_t *data;
  size_t pitch;
  int width, height, bpp;
} plane;

/* Index tables of the virtual columns -rx .. width-1+rx and rows
 * -ry .. height-1+ry: the image index, or -1 for "outside" (CONSTANT). */
typedef struct
{
  int *xmap, *ymap;
  int rx, ry;
  uint32_t cval;
} border_tables;

static cm_border_mode
effective_border (cm_border_mode b)
{
  return b == CM_BORDER_NEUTRAL ? CM_BORDER_REPLICATE : b;
}

static int
map_index (cm_border_mode mode, int i, int n)
{
  if (i >= 0 && i < n)
    return i;
  if (mode == CM_BORDER_CONSTANT)
    return -1;
  return cm_border_map (mode, i, n);
}

static int
tables_init (border_tables * t, const cm_median_desc * desc, int width,
    int height, cm_depth depth)
{
  cm_border_mode mode = effective_border (desc->border);
  uint32_t maxv = cm_depth_max (depth);

  t->rx = desc->window_w / 2;
  t->ry = desc->window_h / 2;
  t->cval = desc->border_value < maxv ? desc->border_value : maxv;
  t->xmap = malloc (sizeof (int) * (size_t) (width + 2 * t->rx));
  t->ymap = malloc (sizeof (int) * (size_t) (height + 2 * t->ry));
  if (!t->xmap || !t->ymap) {
    free (t->xmap);
    free (t->ymap);
    return 0;
  }
  for (int i = 0; i < width + 2 * t->rx; i++)
    t->xmap[i] = map_index (mode, i - t->rx, width);
  for (int i = 0; i < height + 2 * t->ry; i++)
    t->ymap[i] = map_index (mode, i - t->ry, height);
  return 1;
}

static void
tables_clear (border_tables * t)
{
  free (t->xmap);
  free (t->ymap);
}

/* Sample at virtual column index vx (table index, x + rx) of a mapped row
 * (NULL = outside row) */
static inline uint32_t
ext_sample (const plane * p, const border_tables * t, const uint8_t * row,
    int vx)
{
  int mx = t->xmap[vx];

  if (!row || mx < 0)
    return t->cval;
  return cm_load_sample (row, mx, p->bpp);
}

/* Called for every output with the rank-k sample and the number of window
 * samples below it. */
typedef void (*emit_fn) (void *ctx, int x, int y, uint32_t v, int below);

/* The rank filter's invariants, shared by its bands (read only), and each
 * band's scratch: allocated by the calling thread, since memory that a
 * short-lived thread allocates makes glibc give it an arena of its own,
 * which stays (the process would grow with the number of cores). */
typedef struct
{
  const plane *p;
  int k;
  const cm_median_desc *desc;
  const border_tables *t;
  emit_fn emit;
  void *ctx;
  const cm_cpu_opts *opts;
  rhist *hist;                  /* one per band */
  const uint8_t **rows;         /* window_h per band */
} rank_job;

/* Rows [y0, y1) of the rank filter, on one thread. */
static cm_status
rank_band (void *data, int band, int y0, int y1)
{
  const rank_job *j = data;
  const plane *p = j->p;
  const border_tables *t = j->t;
  const int w = p->width;
  const int ww = j->desc->window_w, wh = j->desc->window_h;
  rhist *hist = &j->hist[band];
  const uint8_t **rows = j->rows + (size_t) band * wh;

  for (int y = y0; y < y1; y++) {
    if (cm_cpu_cancelled (j->opts))
      return CM_ERR_CANCELLED;
    /* rows of the window: virtual y - ry .. y + ry = table y .. y + wh - 1 */
    for (int r = 0; r < wh; r++) {
      int my = t->ymap[y + r];
      rows[r] = my < 0 ? NULL : p->data + (size_t) my * p->pitch;
    }
    rhist_clear (hist);
    /* window of x = 0: virtual columns -rx .. rx = table 0 .. ww - 1 */
    for (int r = 0; r < wh; r++) {
      if (!rows[r]) {
        rhist_add (hist, t->cval, (uint32_t) ww);
        continue;
      }
      for (int c = 0; c < ww; c++)
        rhist_add (hist, ext_sample (p, t, rows[r], c), 1);
    }
    for (int x = 0; x < w; x++) {
      int below;
      uint32_t v = rhist_select (hist, j->k, &below);

      j->emit (j->ctx, x, y, v, below);
      if (x + 1 == w)
        break;
      /* column x - rx leaves (table x), column x + rx + 1 enters
       * (table x + ww) */
      for (int r = 0; r < wh; r++) {
        rhist_remove (hist, ext_sample (p, t, rows[r], x));
        rhist_add (hist, ext_sample (p, t, rows[r], x + ww), 1);
      }
    }
  }
  return CM_OK;
}

/* The sliding-histogram rank filter over plane p (values < 2^bits), its
 * rows split among opts->threads threads (emit writes pixel (x, y) only,
 * so bands never share an output). */
static cm_status
rank_run (const plane * p, int bits, const cm_median_desc * desc, int k,
    cm_depth depth, emit_fn emit, void *ctx, const cm_cpu_opts * opts)
{
  int n = cm_cpu_band_count (opts, p->height), made = 0;
  border_tables t;
  rank_job j = { p, k, desc, &t, emit, ctx, opts, NULL, NULL };
  cm_status st = CM_ERR_NO_MEMORY;

  if (!tables_init (&t, desc, p->width, p->height, depth))
    return CM_ERR_NO_MEMORY;
  j.hist = calloc ((size_t) n, sizeof (*j.hist));
  j.rows = malloc (sizeof (*j.rows) * (size_t) n * desc->window_h);
  if (j.hist && j.rows) {
    while (made < n && rhist_init (&j.hist[made], bits))
      made++;
    if (made == n)
      st = cm_cpu_bands (opts, p->height, rank_band, &j);
  }
  for (int i = 0; i < made; i++)
    free (j.hist[i].mem);
  free (j.hist);
  free (j.rows);
  tables_clear (&t);
  return st;
}

/* ---- single channel ----------------------------------------------------- */

typedef struct
{
  const cm_image *dst;
  int bpp;
} grey_ctx;

static void
grey_emit (void *ctx, int x, int y, uint32_t v, int below)
{
  grey_ctx *c = ctx;

  (void) below;
  cm_store_sample ((uint8_t *) c->dst->data + (size_t) y * c->dst->pitch, x,
      c->bpp, v);
}

cm_status
cm_median_ref (const cm_median_desc * desc, const cm_image * src,
    const cm_image * dst)
{
  return cm_median_ref_mt (desc, src, dst, NULL);
}

cm_status
cm_median_ref_mt (const cm_median_desc * desc, const cm_image * src,
    const cm_image * dst, const cm_cpu_opts * opts)
{
  grey_ctx c;
  plane p;
  int bpp;

  if (cm_median_desc_check (desc) != CM_OK)
    return CM_ERR_INVALID_ARG;
  if (!cm_image_pair_ok (src, dst))
    return CM_ERR_INVALID_ARG;
  bpp = cm_depth_bytes (src->depth);

  p.data = src->data;
  p.pitch = src->pitch;
  p.width = src->width;
  p.height = src->height;
  p.bpp = bpp;
  c.dst = dst;
  c.bpp = bpp;
  return rank_run (&p, bpp * 8, desc, cm_median_rank (desc), src->depth,
      grey_emit, &c, opts);
}

/* ---- luma mode ---------------------------------------------------------- */

typedef struct
{
  const cm_image_packed *src, *dst;
  const plane *yp;              /* luminance plane                         */
  border_tables t;
  int k, ww, wh, bpp, ch;
  int r_idx, g_idx, b_idx, a_idx;
} luma_ctx;

static void
luma_emit (void *ctx, int x, int y, uint32_t ystar, int below)
{
  luma_ctx *c = ctx;
  const luma_ctx *cc = c;
  int want = c->k - below;      /* 0-based among the samples == ystar */
  int wx = -1, wy = -1, found = 0;
  uint32_t px[4];
  const uint8_t *srow, *crow;
  uint8_t *drow;

  /* the want-th window sample (raster order) whose luminance is ystar */
  for (int r = 0; r < c->wh && !found; r++) {
    int my = cc->t.ymap[y + r];
    const uint8_t *row = my < 0 ? NULL :
        c->yp->data + (size_t) my * c->yp->pitch;

    for (int q = 0; q < c->ww; q++) {
      if (ext_sample (c->yp, &cc->t, row, x + q) != ystar)
        continue;
      if (want-- == 0) {
        wx = cc->t.xmap[x + q];
        wy = my;
        found = 1;
        break;
      }
    }
  }

  if (found && wx >= 0 && wy >= 0) {
    srow = (const uint8_t *) c->src->data + (size_t) wy * c->src->pitch;
    for (int i = 0; i < c->ch; i++)
      px[i] = cm_load_sample (srow, wx * c->ch + i, c->bpp);
  } else {
    /* outside pixel of CONSTANT (found is always 1: the histogram counted
     * exactly these samples) */
    for (int i = 0; i < c->ch; i++)
      px[i] = cc->t.cval;
  }
  if (c->a_idx >= 0) {
    crow = (const uint8_t *) c->src->data + (size_t) y * c->src->pitch;
    px[c->a_idx] = cm_load_sample (crow, x * c->ch + c->a_idx, c->bpp);
  }
  drow = (uint8_t *) c->dst->data + (size_t) y * c->dst->pitch;
  for (int i = 0; i < c->ch; i++)
    cm_store_sample (drow, x * c->ch + i, c->bpp, px[i]);
}

cm_status
cm_median_luma_ref (const cm_median_desc * desc,
    const cm_image_packed * src, const cm_image_packed * dst, int r_idx,
    int g_idx, int b_idx, int a_idx)
{
  return cm_median_luma_ref_mt (desc, src, dst, r_idx, g_idx, b_idx, a_idx,
      NULL);
}

cm_status
cm_median_luma_ref_mt (const cm_median_desc * desc,
    const cm_image_packed * src, const cm_image_packed * dst, int r_idx,
    int g_idx, int b_idx, int a_idx, const cm_cpu_opts * opts)
{
  const int bpp = src ? cm_depth_bytes (src->depth) : 1;
  luma_ctx c;
  plane yp;
  uint16_t *ybuf;
  size_t row_bytes;
  cm_status st;

  if (cm_median_desc_check (desc) != CM_OK)
    return CM_ERR_INVALID_ARG;
  if (!packed_ok (src) || !packed_ok (dst))
    return CM_ERR_INVALID_ARG;
  if (src->width != dst->width || src->height != dst->height ||
      src->depth != dst->depth || src->channels != dst->channels)
    return CM_ERR_INVALID_ARG;
  if (!cm_channels_ok (src->channels, r_idx, g_idx, b_idx, a_idx))
    return CM_ERR_INVALID_ARG;
  row_bytes = (size_t) src->width * (size_t) src->channels * bpp;
  if (cm_ranges_overlap (src->data, cm_view_span (src->pitch, src->height,
              row_bytes), dst->data, cm_view_span (dst->pitch, dst->height,
              row_bytes)))
    return CM_ERR_INVALID_ARG;

  /* the luminance plane, as 16-bit samples whatever the depth */
  ybuf = malloc (sizeof (uint16_t) * (size_t) src->width *
      (size_t) src->height);
  if (!ybuf)
    return CM_ERR_NO_MEMORY;
  for (int y = 0; y < src->height; y++) {
    const uint8_t *row = (const uint8_t *) src->data + (size_t) y *
        src->pitch;
    for (int x = 0; x < src->width; x++) {
      uint32_t r = cm_load_sample (row, x * src->channels + r_idx, bpp);
      uint32_t g = cm_load_sample (row, x * src->channels + g_idx, bpp);
      uint32_t b = cm_load_sample (row, x * src->channels + b_idx, bpp);
      ybuf[(size_t) y * src->width + x] =
          (uint16_t) ((77u * r + 150u * g + 29u * b) >> 8);
    }
  }
  yp.data = (const uint8_t *) ybuf;
  yp.pitch = 2 * (size_t) src->width;
  yp.width = src->width;
  yp.height = src->height;
  yp.bpp = 2;

  memset (&c, 0, sizeof (c));
  if (!tables_init (&c.t, desc, src->width, src->height, src->depth)) {
    free (ybuf);
    return CM_ERR_NO_MEMORY;
  }
  c.src = src;
  c.dst = dst;
  c.yp = &yp;
  c.k = cm_median_rank (desc);
  c.ww = desc->window_w;
  c.wh = desc->window_h;
  c.bpp = bpp;
  c.ch = src->channels;
  c.r_idx = r_idx;
  c.g_idx = g_idx;
  c.b_idx = b_idx;
  c.a_idx = a_idx;
  st = rank_run (&yp, bpp * 8, desc, c.k, src->depth, luma_emit, &c, opts);
  tables_clear (&c.t);
  free (ybuf);
  return st;
}
