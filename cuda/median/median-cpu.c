/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fast CPU median (median-cpu.h). Per output row:
 *
 *  - each input row, border-extended (cm-border.h) and split into g phases
 *    (median-cpu-exec.h), is prepared once into a ring of wh rows;
 *  - the column network sorts the wh rows of the window elementwise;
 *  - the row network ranks g neighbouring windows at once from the sorted
 *    columns, reading phase (j % g) at offset j / g for column j, so that
 *    every array it reads or writes is contiguous;
 *  - the g phases of the result are joined into the output row.
 *
 * The 3x3 median, the most common, has a loop of its own instead
 * (cm_mrow_median3: the columns sorted once, then each window's median
 * from its three sorted columns, in registers), and 8-bit windows whose
 * networks would cost more than constant-time histograms go to those
 * (median-cpu-hist.h).
 *
 * Both networks run over chunks of CHUNK bytes, so that their scratch
 * arrays stay in the first-level cache. */
#include "median-cpu.h"
#include "median-cpu-exec.h"
#include "median-cpu-hist.h"
#include "median-cpu-net.h"
#include "cm-align.h"
#include "cpu-bands.h"
#include "cm-sample.h"

#include <stdlib.h>
#include <string.h>

#define BLK CM_MNET_BLOCK
#define CHUNK 512               /* of 128 to 1024 the fastest (5x5, 7x7) */
#define MAX_SIDE CM_MEDIAN_CPU_MAX_SIDE
/* Comparators a pixel (cm_mnet_cost) that take as long as the 8-bit
 * histograms (1080p, one core, AVX-512: about 2800; the median of 21 x 21
 * costs 2416, of 23 x 23 3065) */
#define HIST8_COST 2800

typedef enum
{
  KIND_NETWORK,
  KIND_MEDIAN3,                 /* cm_mrow_median3, no networks */
  KIND_HIST8                    /* cm_median_hist8_run, no networks */
} plan_kind;

struct cm_median_cpu_plan
{
  cm_median_desc desc;
  cm_depth depth;
  plan_kind kind;
  int k, g;
  cm_mnet cols, rows;
  unsigned char need[MAX_SIDE]; /* ranks of a column the row network reads */
  void *scratch;                /* the runs' arrays, grown, never per frame */
  size_t scratch_bytes;
};

static int
round_up (int n, int m)
{
  return (n + m - 1) / m * m;
}

int
cm_median_cpu_takes (const cm_median_desc * desc, cm_depth depth)
{
  if (cm_median_desc_check (desc) != CM_OK ||
      (depth != CM_DEPTH_8 && depth != CM_DEPTH_16))
    return 0;
  return depth == CM_DEPTH_8 || (desc->window_w <= MAX_SIDE &&
      desc->window_h <= MAX_SIDE);
}

/* Windows ranked at once: 4 share merges from 5 columns on; on 3 columns
 * 2 already share all there is (cm_mnet_cost), and a column is its own
 * window when ww == 1 */
static int
group_of (int ww)
{
  return ww == 1 ? 1 : ww == 3 ? 2 : 4;
}

cm_status
cm_median_cpu_plan_new (cm_median_cpu_plan ** out,
    const cm_median_desc * desc, cm_depth depth)
{
  cm_median_cpu_plan *p;
  cm_status st;
  int ww, wh;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (cm_median_desc_check (desc) != CM_OK ||
      (depth != CM_DEPTH_8 && depth != CM_DEPTH_16))
    return CM_ERR_INVALID_ARG;
  if (!cm_median_cpu_takes (desc, depth))
    return CM_ERR_UNSUPPORTED;
  p = calloc (1, sizeof (*p));
  if (!p)
    return CM_ERR_NO_MEMORY;
  p->desc = *desc;
  p->depth = depth;
  ww = desc->window_w;
  wh = desc->window_h;
  p->k = cm_median_rank (desc);
  p->g = 1;
  if (ww == 3 && wh == 3 && p->k == 4) {
    p->kind = KIND_MEDIAN3;
  } else if (ww > MAX_SIDE || wh > MAX_SIDE) {
    p->kind = KIND_HIST8;       /* cm_median_cpu_takes: 8-bit */
  } else {
    p->kind = KIND_NETWORK;
    p->g = group_of (ww);
    st = cm_mnet_rows (&p->rows, ww, wh, p->k, p->g);
    if (st == CM_OK) {
      for (int j = 0; j < ww + p->g - 1; j++)
        for (int i = 0; i < wh; i++)
          p->need[i] |= p->rows.in_used[j * wh + i];
      st = cm_mnet_columns (&p->cols, wh, p->need);
    }
    if (st != CM_OK) {
      cm_median_cpu_plan_free (p);
      return st;
    }
    if (depth == CM_DEPTH_8 && cm_mnet_cost (&p->cols) +
        cm_mnet_cost (&p->rows) / p->g > HIST8_COST) {
      cm_mnet_clear (&p->cols);
      cm_mnet_clear (&p->rows);
      p->kind = KIND_HIST8;
      p->g = 1;
    }
  }
  *out = p;
  return CM_OK;
}

const char *
cm_median_cpu_plan_algorithm (const cm_median_cpu_plan * plan)
{
  if (!plan)
    return "none";
  return plan->kind == KIND_MEDIAN3 ? "cpu-median3x3" :
      plan->kind == KIND_HIST8 ? "cpu-histogram" : "cpu-network";
}

void
cm_median_cpu_plan_free (cm_median_cpu_plan * p)
{
  if (!p)
    return;
  cm_mnet_clear (&p->cols);
  cm_mnet_clear (&p->rows);
  free (p->scratch);
  free (p);
}

/* @bytes of the plan's scratch (64-byte aligned), allocated by the calling
 * thread (a band thread's allocation would make glibc give that thread an
 * arena of its own, which stays); reallocated only when a run needs more
 * than an earlier one (a wider frame, more threads) */
static uint8_t *
plan_scratch (cm_median_cpu_plan * p, size_t bytes)
{
  if (bytes > p->scratch_bytes) {
    free (p->scratch);
    p->scratch = aligned_alloc (64, cm_align64 (bytes));
    p->scratch_bytes = p->scratch ? bytes : 0;
  }
  return p->scratch;
}

/* ---- one run ------------------------------------------------------------ */

/* A band's arrays, carved from the plan's scratch */
typedef struct
{
  uint8_t *mem;
  uint8_t *ring[MAX_SIDE];      /* prepared rows, virtual row v at v % wh */
  uint8_t *ext;                 /* a row extended, before the split */
  uint8_t *sorted[MAX_SIDE];    /* rank i of every column of the window */
  uint8_t *res;                 /* g phases of a chunk of results */
  uint8_t *out;                 /* the output row, joined */
  void **cloc, **rloc;          /* the networks' arrays */
} band_mem;

/* An input the row network reads: rank of column c at phase c % g,
 * offset c / g */
typedef struct
{
  int loc, rank;
  size_t off;
} run_input;

typedef struct
{
  const cm_median_cpu_plan *plan;
  const cm_image *src, *dst;
  const cm_cpu_opts *opts;
  int w, h, bpp, ww, wh, rx, ry, g;
  int pc;                       /* windows a phase, padded to BLK */
  int q;                        /* samples a phase of a prepared row */
  int e;                        /* samples a prepared row: g * q */
  int chunk;                    /* samples a chunk: CHUNK / bpp */
  cm_border_mode mode;          /* NEUTRAL read as REPLICATE */
  uint32_t cval;                /* CONSTANT, clamped */
  int *xsrc;                    /* e entries: image column, -1: constant */
  run_input *used;              /* the inputs of the row network read */
  int n_used;
  band_mem *mem;
} run_job;

static void
put (uint8_t * row, int i, int bpp, uint32_t v)
{
  if (bpp == 1)
    row[i] = (uint8_t) v;
  else
    ((uint16_t *) row)[i] = (uint16_t) v;
}

/* Sample i of the extended row ext, off the image row: by the border
 * rule */
static inline void
margin (const run_job * j, uint8_t * ext, const uint8_t * row, int i)
{
  int x = j->xsrc[i];

  put (ext, i, j->bpp, x < 0 ? j->cval : cm_load_sample (row, x, j->bpp));
}

/* Virtual row v (any integer), extended by the border rule, split into
 * the phases of dest */
static void
prepare (const run_job * j, band_mem * m, int v, uint8_t * dest)
{
  const int bpp = j->bpp;
  uint8_t *ext = j->g == 1 ? dest : m->ext;
  int my = v;

  if (v < 0 || v >= j->h)
    my = j->mode == CM_BORDER_CONSTANT ? -1 : cm_border_map (j->mode, v,
        j->h);
  if (my < 0) {
    for (int i = 0; i < j->e; i++)
      put (ext, i, bpp, j->cval);
  } else {
    const uint8_t *row = (const uint8_t *) j->src->data + (size_t) my *
        j->src->pitch;

    /* the image row by memcpy (any alignment), its margins by the map
     * (the right one padded to the phases' length) */
    memcpy (ext + (size_t) j->rx * bpp, row, (size_t) j->w * bpp);
    for (int i = 0; i < j->rx; i++)
      margin (j, ext, row, i);
    for (int i = j->rx + j->w; i < j->e; i++)
      margin (j, ext, row, i);
  }
  if (j->g > 1)
    cm_mrow_split (dest, ext, j->g, j->q, bpp);
}

static int
ring_slot (int v, int wh)
{
  return ((v % wh) + wh) % wh;
}

/* Output row y and how many of its samples the loops may store there
 * directly: whole blocks of g * CM_MNET_BLOCK, 16-bit rows aligned; the
 * rest goes through m->out */
static uint8_t *
out_row (const run_job * j, int y, int *direct)
{
  uint8_t *row = (uint8_t *) j->dst->data + (size_t) y * j->dst->pitch;
  int blk = j->g * BLK;

  *direct = j->bpp == 2 && ((uintptr_t) row & 1) ? 0 : j->w / blk * blk;
  return row;
}

/* The column network over the window of output row y */
static void
sort_columns (const run_job * j, band_mem * m, int y)
{
  const cm_mnet *net = &j->plan->cols;
  const int wh = j->wh, bpp = j->bpp;

  uint8_t *rows[MAX_SIDE];

  /* the rows in any order: the network sorts them */
  for (int i = 0; i < wh; i++)
    rows[i] = m->ring[ring_slot (y - j->ry + i, wh)];
  for (int off = 0; off < j->e; off += j->chunk) {
    int len = j->e - off < j->chunk ? j->e - off : j->chunk;

    for (int i = 0; i < wh; i++)
      m->cloc[i] = rows[i] + (size_t) off * bpp;
    for (int i = 0; i < wh; i++)
      m->cloc[net->n_in + net->n_slots + i] = j->plan->need[i] ?
          m->sorted[i] + (size_t) off * bpp : NULL;
    cm_mnet_run (net, m->cloc, len, bpp);
  }
}

/* The row network over the sorted columns: output row y */
static void
rank_rows (const run_job * j, band_mem * m, int y)
{
  const cm_mnet *net = &j->plan->rows;
  const int g = j->g, bpp = j->bpp;
  void *res[4];
  int direct;
  uint8_t *dst = out_row (j, y, &direct);

  for (int w = 0; w < g; w++) {
    res[w] = m->res + (size_t) w * CHUNK;
    m->rloc[net->n_in + net->n_slots + w] = res[w];
  }
  for (int p0 = 0; p0 < j->pc; p0 += j->chunk) {
    int len = j->pc - p0 < j->chunk ? j->pc - p0 : j->chunk;
    size_t x0 = (size_t) g * p0;

    for (int u = 0; u < j->n_used; u++) {
      const run_input *in = &j->used[u];

      m->rloc[in->loc] = m->sorted[in->rank] + (in->off + p0) * bpp;
    }
    cm_mnet_run (net, m->rloc, len, bpp);
    if (x0 + (size_t) g * len <= (size_t) direct) {
      cm_mrow_join (dst + x0 * bpp, res, g, len, bpp);
    } else {
      cm_mrow_join (m->out, res, g, len, bpp);
      if (x0 < (size_t) j->w)
        memcpy (dst + x0 * bpp, m->out, (j->w - x0 < (size_t) g * len ?
                j->w - x0 : (size_t) g * len) * bpp);
    }
  }
}

/* The 3x3 median of output row y (g == 1), the sorted arrays its
 * scratch */
static void
median3_row (const run_job * j, band_mem * m, int y)
{
  void *rows[3], *tmp[3] = { m->sorted[0], m->sorted[1], m->sorted[2] };
  int direct;
  uint8_t *dst = out_row (j, y, &direct);

  for (int i = 0; i < 3; i++)
    rows[i] = m->ring[ring_slot (y - 1 + i, 3)];
  if (direct > 0)
    cm_mrow_median3 (dst, rows, tmp, direct, j->bpp);
  if (direct == j->w)
    return;
  for (int i = 0; i < 3; i++)
    rows[i] = (uint8_t *) rows[i] + (size_t) direct * j->bpp;
  cm_mrow_median3 (m->out, rows, tmp, j->pc - direct, j->bpp);
  memcpy (dst + (size_t) direct * j->bpp, m->out,
      (size_t) (j->w - direct) * j->bpp);
}

static cm_status
run_band (void *data, int band, int y0, int y1)
{
  const run_job *j = data;
  band_mem *m = &j->mem[band];

  for (int y = y0; y < y1; y++) {
    if (cm_cpu_cancelled (j->opts))
      return CM_ERR_CANCELLED;
    if (y == y0)
      for (int v = y0 - j->ry; v < y0 + j->ry; v++)
        prepare (j, m, v, m->ring[ring_slot (v, j->wh)]);
    prepare (j, m, y + j->ry, m->ring[ring_slot (y + j->ry, j->wh)]);
    if (j->plan->kind == KIND_MEDIAN3) {
      median3_row (j, m, y);
      continue;
    }
    sort_columns (j, m, y);
    rank_rows (j, m, y);
  }
  return CM_OK;
}

/* The bytes of one band's arrays (a multiple of 64) */
static size_t
band_bytes (const run_job * j)
{
  const cm_mnet *cn = &j->plan->cols, *rn = &j->plan->rows;
  size_t row = (size_t) j->e * j->bpp, chunk = CHUNK;
  int ns = cn->n_slots > rn->n_slots ? cn->n_slots : rn->n_slots;
  size_t ncl = (size_t) cn->n_in + cn->n_slots + cn->n_out;
  size_t nrl = (size_t) rn->n_in + rn->n_slots + rn->n_out;

  return cm_align64 ((2 * (size_t) j->wh + 2) * row + ((size_t) ns + j->g) *
      chunk + (ncl + nrl) * sizeof (void *));
}

/* Carves one band's arrays out of @mem (64-byte aligned, band_bytes) */
static void
band_carve (const run_job * j, band_mem * m, uint8_t * mem)
{
  const cm_mnet *cn = &j->plan->cols, *rn = &j->plan->rows;
  size_t row = (size_t) j->e * j->bpp, chunk = CHUNK;
  int ns = cn->n_slots > rn->n_slots ? cn->n_slots : rn->n_slots;
  size_t ncl = (size_t) cn->n_in + cn->n_slots + cn->n_out;
  uint8_t *p;

  m->mem = mem;
  p = m->mem;
  for (int i = 0; i < j->wh; i++, p += row)
    m->ring[i] = p;
  for (int i = 0; i < j->wh; i++, p += row)
    m->sorted[i] = p;
  m->ext = p;
  p += row;
  m->out = p;                   /* g * chunk, g * pc <= e */
  p += row;
  m->res = p;
  p += (size_t) j->g * chunk;
  /* the scratch slots of both networks are the same arrays: one runs
   * after the other */
  m->cloc = (void **) (p + (size_t) ns * chunk);
  m->rloc = m->cloc + ncl;
  for (int s = 0; s < ns; s++) {
    if (s < cn->n_slots)
      m->cloc[cn->n_in + s] = p + (size_t) s * chunk;
    if (s < rn->n_slots)
      m->rloc[rn->n_in + s] = p + (size_t) s * chunk;
  }
}

cm_status
cm_median_cpu_plan_run (cm_median_cpu_plan * plan,
    const cm_image * src, const cm_image * dst, const cm_cpu_opts * opts)
{
  const cm_median_desc *d;
  run_job j;
  int n, maxoff;
  size_t xsrc_bytes, used_bytes, mem_bytes, band;
  uint8_t *p;

  if (!plan || !cm_image_pair_ok (src, dst) || src->depth != plan->depth)
    return CM_ERR_INVALID_ARG;
  d = &plan->desc;
  n = cm_cpu_band_count (opts, src->height);
  if (plan->kind == KIND_HIST8) {
    p = plan_scratch (plan, cm_median_hist8_scratch (d, src->width, n));
    return p ? cm_median_hist8_run (d, plan->k, src, dst, opts, p) :
        CM_ERR_NO_MEMORY;
  }
  memset (&j, 0, sizeof (j));
  j.plan = plan;
  j.src = src;
  j.dst = dst;
  j.opts = opts;
  j.w = src->width;
  j.h = src->height;
  j.bpp = cm_depth_bytes (src->depth);
  j.ww = d->window_w;
  j.wh = d->window_h;
  j.rx = j.ww / 2;
  j.ry = j.wh / 2;
  j.g = plan->g;
  j.pc = round_up ((j.w + j.g - 1) / j.g, BLK);
  maxoff = (j.ww + j.g - 2) / j.g;
  j.q = j.pc + round_up (maxoff, BLK);
  j.e = j.g * j.q;
  j.chunk = CHUNK / j.bpp;
  j.mode = d->border == CM_BORDER_NEUTRAL ? CM_BORDER_REPLICATE : d->border;
  j.cval = d->border_value < cm_depth_max (src->depth) ? d->border_value :
      cm_depth_max (src->depth);

  xsrc_bytes = cm_align64 (sizeof (int) * (size_t) j.e);
  used_bytes = cm_align64 (sizeof (run_input) * (size_t) (plan->rows.n_in + 1));
  mem_bytes = cm_align64 (sizeof (band_mem) * (size_t) n);
  band = band_bytes (&j);
  p = plan_scratch (plan, xsrc_bytes + used_bytes + mem_bytes +
      (size_t) n * band);
  if (!p)
    return CM_ERR_NO_MEMORY;
  j.xsrc = (int *) p;
  j.used = (run_input *) (p + xsrc_bytes);
  j.mem = (band_mem *) (p + xsrc_bytes + used_bytes);
  p += xsrc_bytes + used_bytes + mem_bytes;
  for (int c = 0; c < j.ww + j.g - 1 && plan->kind == KIND_NETWORK; c++)
    for (int i = 0; i < j.wh; i++)
      if (plan->rows.in_used[c * j.wh + i])
        j.used[j.n_used++] = (run_input) { c * j.wh + i, i,
          (size_t) ((c % j.g) * j.q + c / j.g)
        };
  for (int i = 0; i < j.e; i++) {
    int x = i - j.rx;

    j.xsrc[i] = x >= 0 && x < j.w ? x : j.mode == CM_BORDER_CONSTANT ?
        -1 : cm_border_map (j.mode, x, j.w);
  }
  for (int i = 0; i < n; i++)
    band_carve (&j, &j.mem[i], p + (size_t) i * band);
  return cm_cpu_bands (opts, j.h, run_band, &j);
}

cm_status
cm_median_cpu_run (const cm_median_desc * desc, const cm_image * src,
    const cm_image * dst, const cm_cpu_opts * opts)
{
  cm_median_cpu_plan *p;
  cm_status st;

  if (!cm_image_ok (src) || !cm_median_cpu_takes (desc, src->depth))
    return cm_median_ref_mt (desc, src, dst, opts);
  st = cm_median_cpu_plan_new (&p, desc, src->depth);
  if (st != CM_OK)
    return st;
  st = cm_median_cpu_plan_run (p, src, dst, opts);
  cm_median_cpu_plan_free (p);
  return st;
}
