/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU backend of the blobs (blobs-cpu.h): the classic two-pass
 * labelling (Rosenfeld & Pfaltz's raster scan with an equivalence table
 * kept as union-find, the neighbour decision tree of Wu, Otoo & Suzuki's
 * SAUF: at most one union per pixel).
 *
 * Pass 1 gives each foreground pixel a provisional label: the label of an
 * earlier neighbour, or a new one; neighbours with different labels are
 * united, the smaller label becoming the root. A blob's first pixel in
 * raster order has no earlier neighbour in it, so it opens the blob's
 * smallest label: numbering the roots in label order numbers the blobs in
 * the order of blobs.h. Pass 1 runs on bands of rows in parallel (the
 * threads of the CPU options), each band's labels in a range above the
 * bands before it, then the bands' edges are united: a blob's first pixel
 * is in its earliest band and still opens its smallest label. Pass 2
 * gives each set of labels its number (one thread, a step a label), then
 * gathers the statistics run by run (a row's run of foreground pixels is
 * in one blob) on the same bands: a blob within one band has its record
 * to that band's thread, and one that crosses a band's edge (at most one
 * a run of the edge's row) gets a record in each band it meets (a hash
 * table per band, a few times the frame's width), folded into one after.
 * The largest max_blobs come from a selection (the max_blobs-th largest
 * area, then ties in order), not a sort. */
#include <stdlib.h>
#include <string.h>

#include "blobs-cpu.h"
#include "cm-sample.h"
#include "cpu-bands.h"

typedef struct
{
  uint64_t sum_x, sum_y, sum_v;
  uint32_t area, x0, x1, y0, y1, vmin, vmax;
  uint32_t number;              /* among the passing blobs, 0: dropped */
} cpu_blob;

#define NO_BLOB UINT32_MAX

struct cm_blobs_cpu
{
  cm_blobs_desc desc;
  int width, height;
  cm_depth depth;
  cm_cpu_opts opts;
  uint32_t threshold;
  uint32_t *labels;             /* width * height */
  uint32_t *parent;             /* provisional labels' union-find */
  cpu_blob *blobs;
  uint32_t *areas;              /* selection scratch */
  /* blobs across bands' edges: a label of each run joined across an edge
   * (pass 1), whether blob k is one of them, and each band's records of
   * those it meets: a hash table of table_mask + 1 entries (blob index
   * or NO_BLOB, record) from band * (table_mask + 1) */
  uint32_t *edge_labels;
  uint32_t n_edge_labels;
  uint8_t *crosses;
  uint32_t *band_keys;
  cpu_blob *band_blobs;
  uint32_t table_mask;
  uint8_t *fg;                  /* a row of foreground flags per band */
  int bands;
  uint32_t *next;               /* per band: its next label */
  uint64_t *band_fg;            /* per band: its foreground pixels */
  size_t most_labels;
  cm_blobs_results res;
};

cm_status
cm_blobs_cpu_new (cm_blobs_cpu ** out, const cm_blobs_desc * desc,
    int width, int height, cm_depth depth, const cm_cpu_opts * opts)
{
  cm_blobs_cpu *p;
  cm_blobs_desc all;
  size_t most_edge, table;
  size_t npix;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!cm_blobs_desc_ok (desc) || !cm_frame_ok (width, height, depth))
    return CM_ERR_INVALID_ARG;
  npix = (size_t) width * height;
  if (npix > INT32_MAX)
    return CM_ERR_UNSUPPORTED;
  p = calloc (1, sizeof (*p));
  if (p == NULL)
    return CM_ERR_NO_MEMORY;
  p->desc = *desc;
  p->width = width;
  p->height = height;
  p->depth = depth;
  if (opts)
    p->opts = *opts;
  p->threshold = desc->threshold > cm_depth_max (depth) ?
      cm_depth_max (depth) : desc->threshold;
  all = *desc;
  all.max_blobs = 0;
  /* provisional labels: a new one needs a background pixel before it in
   * its row, so never more than (width + 1) / 2 a row, plus 0 */
  p->bands = cm_cpu_band_count (&p->opts, height);
  p->most_labels = (size_t) height * (size_t) ((width + 1) / 2) + 2;
  /* a run of an edge's lower row joins at most one blob across it; a
   * band meets those of its first row's runs and its last row's: at most
   * width + 1, and no more than all edges have; the tables half full */
  most_edge = (size_t) (p->bands - 1) * (size_t) ((width + 1) / 2);
  table = 1;
  while (table < 2 * (most_edge < (size_t) width + 1 ? most_edge :
          (size_t) width + 1))
    table *= 2;
  p->table_mask = (uint32_t) (table - 1);
  p->labels = malloc (npix * sizeof (*p->labels));
  p->parent = malloc (p->most_labels * sizeof (*p->parent));
  p->blobs = malloc ((size_t) cm_blobs_capacity (&all, width, height) *
      sizeof (*p->blobs));
  p->areas = malloc ((size_t) cm_blobs_capacity (&all, width, height) *
      sizeof (*p->areas));
  p->edge_labels = malloc ((most_edge + 1) * sizeof (*p->edge_labels));
  p->crosses = malloc ((size_t) cm_blobs_capacity (&all, width, height));
  p->band_keys = malloc (table * p->bands * sizeof (*p->band_keys));
  p->band_blobs = malloc (table * p->bands * sizeof (*p->band_blobs));
  p->fg = malloc ((size_t) width * p->bands);
  p->next = malloc ((size_t) p->bands * sizeof (*p->next));
  p->band_fg = malloc ((size_t) p->bands * sizeof (*p->band_fg));
  if (!p->labels || !p->parent || !p->blobs || !p->areas ||
      !p->edge_labels || !p->crosses || !p->band_keys || !p->band_blobs ||
      !p->fg ||
      !p->next || !p->band_fg ||
      cm_blobs_results_alloc (&p->res, cm_blobs_capacity (desc, width,
              height)) != CM_OK) {
    cm_blobs_cpu_free (p);
    return CM_ERR_NO_MEMORY;
  }
  *out = p;
  return CM_OK;
}

void
cm_blobs_cpu_free (cm_blobs_cpu * p)
{
  if (p == NULL)
    return;
  free (p->labels);
  free (p->parent);
  free (p->blobs);
  free (p->areas);
  free (p->edge_labels);
  free (p->crosses);
  free (p->band_keys);
  free (p->band_blobs);
  free (p->fg);
  free (p->next);
  free (p->band_fg);
  cm_blobs_results_free (&p->res);
  free (p);
}

const cm_blobs_results *
cm_blobs_cpu_results (const cm_blobs_cpu * p)
{
  return &p->res;
}

static inline uint32_t
find_root (uint32_t * parent, uint32_t i)
{
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];      /* path halving */
    i = parent[i];
  }
  return i;
}

/* the sets of labels a and b made one, the smaller root on top; the root */
static inline uint32_t
unite (uint32_t * parent, uint32_t a, uint32_t b)
{
  a = find_root (parent, a);
  b = find_root (parent, b);
  if (a < b) {
    parent[b] = a;
    return a;
  }
  parent[a] = b;
  return b;
}

/* row y's foreground flags into @fg; the number of them */
static uint32_t
foreground_row (const cm_blobs_cpu * p, const cm_image * src, int y,
    uint8_t * fg)
{
  const uint8_t *row = (const uint8_t *) src->data + (size_t) y * src->pitch;
  const uint32_t t = p->threshold;
  const int inv = p->desc.invert != 0;
  uint32_t n = 0;

  if (src->depth == CM_DEPTH_8) {
    for (int x = 0; x < p->width; x++) {
      fg[x] = (uint8_t) ((row[x] >= t) ^ inv);
      n += fg[x];
    }
  } else {
    for (int x = 0; x < p->width; x++) {
      fg[x] = (uint8_t) ((cm_load_sample (row, x, 2) >= t) ^ inv);
      n += fg[x];
    }
  }
  return n;
}

typedef struct
{
  cm_blobs_cpu *p;
  const cm_image *src;
} label_job;

/* the first row of band @band */
static inline int
band_first_row (const cm_blobs_cpu * p, int band)
{
  return (int) ((int64_t) p->height * band / p->bands);
}

/* the first label of band @band, which starts at row @y0 */
static inline uint32_t
band_base (const cm_blobs_cpu * p, int y0)
{
  return 1 + (uint32_t) y0 * (uint32_t) ((p->width + 1) / 2);
}

/* Pass 1 on rows [y0, y1) as if the band were the frame: provisional
 * labels from band_base on */
static cm_status
label_band (void *ctx, int band, int y0, int y1)
{
  label_job *job = ctx;
  cm_blobs_cpu *p = job->p;
  const int w = p->width, conn8 = p->desc.connectivity == 8;
  uint32_t *parent = p->parent, next = band_base (p, y0);
  uint8_t *fg = p->fg + (size_t) band * w;
  uint64_t count = 0;

  for (int y = y0; y < y1; y++) {
    uint32_t *cur = p->labels + (size_t) y * w;
    const uint32_t *up = y > y0 ? cur - w : NULL;

    if (cm_cpu_cancelled (&p->opts))
      return CM_ERR_CANCELLED;
    count += foreground_row (p, job->src, y, fg);
    for (int x = 0; x < w; x++) {
      uint32_t l, a, b, c, d;

      if (!fg[x]) {
        cur[x] = 0;
        continue;
      }
      b = up ? up[x] : 0;
      d = x > 0 ? cur[x - 1] : 0;
      if (!conn8) {
        l = b ? b : d;
        if (b && d && b != d)
          unite (parent, b, d);
      } else if (b) {
        l = b;                  /* a, c and d touch b: already its set */
      } else {
        a = up && x > 0 ? up[x - 1] : 0;
        c = up && x + 1 < w ? up[x + 1] : 0;
        if (d) {                /* a touches d */
          l = d;
          if (c && c != d)
            unite (parent, c, d);
        } else if (a) {
          l = a;
          if (c && c != a)
            unite (parent, a, c);
        } else {
          l = c;
        }
      }
      if (l == 0) {
        parent[next] = next;
        l = next++;
      }
      cur[x] = l;
    }
  }
  p->next[band] = next;
  p->band_fg[band] = count;
  return CM_OK;
}

/* @fn over the bands the plan was made for (pass 1's, pass 2's) */
static cm_status
on_bands (cm_blobs_cpu * p, const cm_image * src, cm_band_fn fn)
{
  label_job job = { p, src };
  cm_cpu_opts opts = p->opts;

  opts.threads = p->bands;
  return cm_cpu_bands (&opts, p->height, fn, &job);
}

/* Pass 1: provisional labels, band by band, then the bands' edges
 * united; a label of each run joined across an edge in p->edge_labels */
static cm_status
label_pass (cm_blobs_cpu * p, const cm_image * src)
{
  const int w = p->width, conn8 = p->desc.connectivity == 8;
  cm_status st = on_bands (p, src, label_band);

  if (st != CM_OK)
    return st;
  p->res.foreground = 0;
  for (int b = 0; b < p->bands; b++)
    p->res.foreground += p->band_fg[b];
  p->n_edge_labels = 0;
  for (int b = 1; b < p->bands; b++) {
    const int y = band_first_row (p, b);
    const uint32_t *cur = p->labels + (size_t) y * w, *up = cur - w;
    int listed = 0;             /* this run's label is in edge_labels */

    for (int x = 0; x < w; x++) {
      int joined = 0;

      if (cur[x] == 0) {
        listed = 0;
        continue;
      }
      if (up[x]) {
        unite (p->parent, cur[x], up[x]);
        joined = 1;
      } else if (conn8) {
        if (x > 0 && up[x - 1]) {
          unite (p->parent, cur[x], up[x - 1]);
          joined = 1;
        }
        if (x + 1 < w && up[x + 1]) {
          unite (p->parent, cur[x], up[x + 1]);
          joined = 1;
        }
      }
      if (joined && !listed) {
        p->edge_labels[p->n_edge_labels++] = cur[x];
        listed = 1;
      }
    }
  }
  return CM_OK;
}

/* The sum, minimum and maximum of the samples [x0, x1) of @row */
static inline void
run_samples (const uint8_t * row, int x0, int x1, int bpp, uint64_t * sum,
    uint32_t * vmin, uint32_t * vmax)
{
  uint32_t mn = UINT32_MAX, mx = 0;
  uint64_t s = 0;

  if (bpp == 1) {
    for (int x = x0; x < x1; x++) {
      const uint32_t v = row[x];

      s += v;
      mn = v < mn ? v : mn;
      mx = v > mx ? v : mx;
    }
  } else {
    for (int x = x0; x < x1; x++) {
      const uint32_t v = cm_load_sample (row, x, 2);

      s += v;
      mn = v < mn ? v : mn;
      mx = v > mx ? v : mx;
    }
  }
  *sum = s;
  *vmin = mn;
  *vmax = mx;
}

static void
blob_clear (cpu_blob * b)
{
  memset (b, 0, sizeof (*b));
  b->x0 = b->y0 = b->vmin = UINT32_MAX;
}

/* Each label's final number (1, 2 ... in the order) in parent[]; the
 * records cleared, the blobs across the bands' edges marked */
static uint32_t
number_blobs (cm_blobs_cpu * p)
{
  uint32_t *parent = p->parent, n = 0;

  /* the bands' labels in increasing order; parent[i] < i for every
   * non-root: its final number is already there */
  for (int b = 0; b < p->bands; b++)
    for (uint32_t i = band_base (p, band_first_row (p, b)); i < p->next[b];
        i++)
      parent[i] = parent[i] == i ? ++n : parent[parent[i]];
  for (uint32_t k = 0; k < n; k++) {
    blob_clear (&p->blobs[k]);
    p->crosses[k] = 0;
  }
  for (uint32_t i = 0; i < p->n_edge_labels; i++)
    p->crosses[parent[p->edge_labels[i]] - 1] = 1;
  return n;
}

/* @b's statistics with @a's added: a run's, or a band's part of a blob
 * across edges */
static inline void
blob_add (cpu_blob * b, const cpu_blob * a)
{
  b->area += a->area;
  b->sum_x += a->sum_x;
  b->sum_y += a->sum_y;
  b->sum_v += a->sum_v;
  b->x0 = a->x0 < b->x0 ? a->x0 : b->x0;
  b->x1 = a->x1 > b->x1 ? a->x1 : b->x1;
  b->y0 = a->y0 < b->y0 ? a->y0 : b->y0;
  b->y1 = a->y1 > b->y1 ? a->y1 : b->y1;
  b->vmin = a->vmin < b->vmin ? a->vmin : b->vmin;
  b->vmax = a->vmax > b->vmax ? a->vmax : b->vmax;
}

/* Blob @k's record in a band's table (@keys, @recs, @mask + 1 entries,
 * never full), cleared when new */
static inline cpu_blob *
band_record (uint32_t * keys, cpu_blob * recs, uint32_t mask, uint32_t k)
{
  uint32_t h = (k * 2654435761u) & mask;

  while (keys[h] != k) {
    if (keys[h] == NO_BLOB) {
      keys[h] = k;
      blob_clear (&recs[h]);
      break;
    }
    h = (h + 1) & mask;
  }
  return &recs[h];
}

/* Pass 2 on rows [y0, y1): the statistics of their runs */
static cm_status
stats_band (void *ctx, int band, int y0, int y1)
{
  label_job *job = ctx;
  cm_blobs_cpu *p = job->p;
  const int w = p->width, bpp = cm_depth_bytes (job->src->depth);
  const uint32_t *parent = p->parent;
  const size_t table = (size_t) p->table_mask + 1;
  uint32_t *keys = p->band_keys + (size_t) band * table;
  cpu_blob *own = p->band_blobs + (size_t) band * table;

  for (size_t h = 0; h < table; h++)
    keys[h] = NO_BLOB;
  for (int y = y0; y < y1; y++) {
    const uint32_t *cur = p->labels + (size_t) y * w;
    const uint8_t *row = (const uint8_t *) job->src->data + (size_t) y *
        job->src->pitch;

    if (cm_cpu_cancelled (&p->opts))
      return CM_ERR_CANCELLED;
    for (int x = 0; x < w;) {
      cpu_blob run;
      uint32_t k;
      int x0;

      if (cur[x] == 0) {
        x++;
        continue;
      }
      k = parent[cur[x]] - 1;
      for (x0 = x; x < w && cur[x] != 0; x++);
      run.area = (uint32_t) (x - x0);
      run.sum_x = (uint64_t) (x0 + x - 1) * (uint64_t) (x - x0) / 2;
      run.sum_y = (uint64_t) y * (uint64_t) (x - x0);
      run.x0 = (uint32_t) x0;
      run.x1 = (uint32_t) (x - 1);
      run.y0 = run.y1 = (uint32_t) y;
      run_samples (row, x0, x, bpp, &run.sum_v, &run.vmin, &run.vmax);
      blob_add (p->crosses[k] ? band_record (keys, own, p->table_mask, k) :
          &p->blobs[k], &run);
    }
  }
  return CM_OK;
}

/* Pass 2: the blobs numbered and their statistics; the number of blobs
 * in *@n */
static cm_status
stats_pass (cm_blobs_cpu * p, const cm_image * src, uint32_t * n)
{
  cm_status st;

  *n = number_blobs (p);
  st = on_bands (p, src, stats_band);
  if (st != CM_OK)
    return st;
  for (size_t h = 0; h < (size_t) p->bands * (p->table_mask + 1); h++)
    if (p->band_keys[h] != NO_BLOB)
      blob_add (&p->blobs[p->band_keys[h]], &p->band_blobs[h]);
  return CM_OK;
}

static void
swap_u32 (uint32_t * a, uint32_t * b)
{
  uint32_t t = *a;

  *a = *b;
  *b = t;
}

/* The k-th largest (k from 0) of v[0..n) (reordered): quickselect with
 * a three-way split (> pivot, == pivot, < pivot) */
static uint32_t
kth_largest (uint32_t * v, size_t n, size_t k)
{
  size_t lo = 0, hi = n;

  while (hi - lo > 1) {
    const uint32_t pivot = v[lo + (hi - lo) / 2];
    size_t gt = lo, m = lo, lt = hi;

    while (m < lt) {
      if (v[m] > pivot)
        swap_u32 (&v[m++], &v[gt++]);
      else if (v[m] < pivot)
        swap_u32 (&v[m], &v[--lt]);
      else
        m++;
    }
    if (k < gt)
      hi = gt;
    else if (k >= lt)
      lo = lt;
    else
      return pivot;
  }
  return v[lo];
}

/* filters, selection, results; the passing blobs numbered */
static void
finish (cm_blobs_cpu * p, uint32_t n)
{
  const cm_blobs_desc *d = &p->desc;
  const uint64_t min_area = d->min_area ? d->min_area : 1;
  const uint32_t w = (uint32_t) p->width, h = (uint32_t) p->height;
  uint32_t total = 0, cut = 0, ties = 0, k = 0;
  cm_blobs_results *r = &p->res;

  for (uint32_t i = 0; i < n; i++) {
    cpu_blob *b = &p->blobs[i];
    const int passes = b->area >= min_area &&
        (d->max_area == 0 || b->area <= d->max_area) &&
        !(d->exclude_border && (b->x0 == 0 || b->y0 == 0 ||
            b->x1 == w - 1 || b->y1 == h - 1));

    b->number = passes ? ++total : 0;
    if (passes)
      p->areas[total - 1] = b->area;
  }
  /* reported: area > cut, and the first @ties of area == cut */
  if (d->max_blobs != 0 && total > d->max_blobs) {
    uint32_t greater = 0;

    cut = kth_largest (p->areas, total, d->max_blobs - 1);
    for (uint32_t i = 0; i < n; i++)
      greater += p->blobs[i].number != 0 && p->blobs[i].area > cut;
    ties = d->max_blobs - greater;
  } else {
    cut = 0;
  }
  for (uint32_t i = 0; i < n; i++) {
    const cpu_blob *b = &p->blobs[i];

    if (b->number == 0)
      continue;
    if (b->area <= cut) {
      if (b->area < cut || ties == 0)
        continue;
      ties--;
    }
    r->x[k] = b->x0;
    r->y[k] = b->y0;
    r->width[k] = b->x1 - b->x0 + 1;
    r->height[k] = b->y1 - b->y0 + 1;
    r->area[k] = b->area;
    r->cx[k] = (double) b->sum_x / (double) b->area;
    r->cy[k] = (double) b->sum_y / (double) b->area;
    r->min[k] = b->vmin;
    r->max[k] = b->vmax;
    r->mean[k] = (double) b->sum_v / (double) b->area;
    k++;
  }
  r->total = total;
  r->count = k;
  r->labels_saturated = d->output == CM_BLOBS_OUTPUT_LABELS &&
      total > 65535;
}

static void
write_output (cm_blobs_cpu * p, const cm_image * dst)
{
  const int bpp = cm_depth_bytes (dst->depth);
  const uint32_t maxv = cm_depth_max (dst->depth);
  const int mask = p->desc.output == CM_BLOBS_OUTPUT_MASK;

  for (int y = 0; y < p->height; y++) {
    const uint32_t *cur = p->labels + (size_t) y * p->width;
    uint8_t *row = (uint8_t *) dst->data + (size_t) y * dst->pitch;

    for (int x = 0; x < p->width; x++) {
      uint32_t v = cur[x] ? p->blobs[p->parent[cur[x]] - 1].number : 0;

      if (v != 0)
        v = mask ? maxv : (v > 65535 ? 65535 : v);
      cm_store_sample (row, x, bpp, v);
    }
  }
}

cm_status
cm_blobs_cpu_run (cm_blobs_cpu * p, const cm_image * src,
    const cm_image * dst)
{
  uint32_t n;
  cm_status st;

  if (p == NULL || !cm_image_ok (src) || src->width != p->width ||
      src->height != p->height || src->depth != p->depth)
    return CM_ERR_INVALID_ARG;
  if (p->desc.output != CM_BLOBS_OUTPUT_NONE && (!cm_image_ok (dst) ||
          dst->width != p->width || dst->height != p->height ||
          dst->depth != cm_blobs_output_depth (&p->desc, p->depth) ||
          cm_images_overlap (src, dst)))
    return CM_ERR_INVALID_ARG;
  st = label_pass (p, src);
  if (st != CM_OK)
    return st;
  st = stats_pass (p, src, &n);
  if (st != CM_OK)
    return st;
  finish (p, n);
  if (p->desc.output != CM_BLOBS_OUTPUT_NONE)
    write_output (p, dst);
  return CM_OK;
}
