/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Building the selection networks of median-cpu-net.h: Batcher's odd-even
 * merge (for lists of any lengths), merge trees that drop what can no
 * longer be of rank k, then pruning and the placing of every value in an
 * input, a reused scratch array or an output. */
#include "median-cpu-net.h"

#include <stdlib.h>
#include <string.h>

/* ---- values and comparators (each value written once) ----------------- */

typedef struct
{
  cm_mnet_op *ops;              /* a, b read; lo, hi new values */
  int n_ops, cap;
  int n_values;
  int failed;                   /* an allocation failed */
} builder;

static int
new_value (builder * b)
{
  return b->n_values++;
}

static void
compare (builder * b, int x, int y, int *lo, int *hi)
{
  *lo = new_value (b);
  *hi = new_value (b);
  if (b->n_ops == b->cap) {
    int cap = b->cap ? 2 * b->cap : 256;
    cm_mnet_op *ops = realloc (b->ops, sizeof (*ops) * (size_t) cap);

    if (!ops) {
      b->failed = 1;
      return;
    }
    b->ops = ops;
    b->cap = cap;
  }
  b->ops[b->n_ops++] = (cm_mnet_op) { x, y, *lo, *hi };
}

static int *
new_list (builder * b, int n)
{
  int *l = malloc (sizeof (int) * (size_t) (n > 0 ? n : 1));

  if (!l)
    b->failed = 1;
  return l;
}

/* Batcher's odd-even merge of the sorted lists x (nx values, stride sx)
 * and y into out (nx + ny): merge the even-indexed and the odd-indexed
 * halves, then compare each odd with the next even (Knuth, TAOCP 3,
 * 5.3.4: it holds for any nx and ny). */
static void
merge (builder * b, const int *x, int nx, int sx, const int *y, int ny,
    int sy, int *out)
{
  int nv = (nx + 1) / 2 + (ny + 1) / 2, nw = nx / 2 + ny / 2, o = 1;
  int *v, *w;

  if (nx == 0 || ny == 0) {
    for (int i = 0; i < nx; i++)
      out[i] = x[i * sx];
    for (int i = 0; i < ny; i++)
      out[nx + i] = y[i * sy];
    return;
  }
  if (nx == 1 && ny == 1) {
    compare (b, x[0], y[0], &out[0], &out[1]);
    return;
  }
  v = new_list (b, nv);
  w = new_list (b, nw);
  if (v && w) {
    merge (b, x, (nx + 1) / 2, 2 * sx, y, (ny + 1) / 2, 2 * sy, v);
    merge (b, x + sx, nx / 2, 2 * sx, y + sy, ny / 2, 2 * sy, w);
    out[0] = v[0];
    for (int i = 0; i < nw; i++) {
      if (i + 1 < nv) {
        compare (b, w[i], v[i + 1], &out[o], &out[o + 1]);
        o += 2;
      } else {
        out[o++] = w[i];
      }
    }
    for (int i = nw + 1; i < nv; i++)
      out[o++] = v[i];
  }
  free (v);
  free (w);
}

/* ---- dropping what cannot be of rank k ---------------------------------- */

/* The candidates left of one window: r of them, the answers the t-th to
 * the (t + span)-th (span 0 but in the column network). */
typedef struct
{
  int r, t, span;
} cands;

/* Drops from the sorted list l (*n values) the positions that cannot be
 * an answer (median-cpu-net.h) and updates c */
static void
trim (cands * c, int *l, int *n)
{
  int m = *n;
  int hi = m - 1 < c->t + c->span ? m - 1 : c->t + c->span;
  int lo = c->t - (c->r - m) > 0 ? c->t - (c->r - m) : 0;
  int keep = hi - lo + 1;

  memmove (l, l + lo, sizeof (int) * (size_t) keep);
  c->r -= m - keep;
  c->t -= lo;
  *n = keep;
}

typedef struct
{
  int *v;
  int n;
} list;

/* Merges the lists (owned, freed) two shortest first, trimming each
 * merge; the result is owned by the caller. */
static list
merge_all (builder * b, cands * c, list * ls, int nl)
{
  while (nl > 1) {
    list m;
    int i0 = 0, i1 = 1;

    if (ls[i1].n < ls[i0].n) {
      i0 = 1;
      i1 = 0;
    }
    for (int i = 2; i < nl; i++) {
      if (ls[i].n < ls[i0].n) {
        i1 = i0;
        i0 = i;
      } else if (ls[i].n < ls[i1].n) {
        i1 = i;
      }
    }
    m.n = ls[i0].n + ls[i1].n;
    m.v = new_list (b, m.n);
    if (m.v) {
      merge (b, ls[i0].v, ls[i0].n, 1, ls[i1].v, ls[i1].n, 1, m.v);
      trim (c, m.v, &m.n);
    }
    free (ls[i0].v);
    free (ls[i1].v);
    if (!m.v) {
      m.n = 0;
      b->failed = 1;
    }
    /* m replaces the first of the two, the last list the second */
    if (i0 > i1) {
      int t = i0;
      i0 = i1;
      i1 = t;
    }
    ls[i0] = m;
    ls[i1] = ls[--nl];
  }
  if (nl == 0)
    return (list) { new_list (b, 0), 0 };
  return ls[0];
}

static list
copy_list (builder * b, const int *v, int n)
{
  list l = { new_list (b, n), n };

  if (l.v)
    memcpy (l.v, v, sizeof (int) * (size_t) n);
  else
    l.n = 0;
  return l;
}

/* Merge sort of the n values of l, trimming each merge; the result is
 * owned by the caller. */
static list
sort_list (builder * b, cands * c, const int *l, int n)
{
  list ls[2];

  if (n < 2)
    return copy_list (b, l, n);
  ls[0] = sort_list (b, c, l, n / 2);
  ls[1] = sort_list (b, c, l + n / 2, n - n / 2);
  return merge_all (b, c, ls, 2);
}

/* The row network's shape */
typedef struct
{
  int ww, n_cols;
  int **cols;                   /* trimmed sorted columns */
  int *ncol;
  int *out;                     /* the answer's value, per window */
} rows_shape;

/* Windows [g0, g1) (columns g .. g + ww - 1 each) given l, the trimmed
 * merge of columns [a, b), with candidates c: merges the columns all of
 * them share, then splits them in halves (Adams, section 4). */
static void
solve (builder * b, const rows_shape * s, int g0, int g1, list l, int a,
    int bcol, cands c)
{
  int lo = g1 - 1, hi = g0 + s->ww, nl = 1, mid;
  list *ls = malloc (sizeof (list) * (size_t) (s->n_cols + 1));
  list m;

  if (!ls) {
    b->failed = 1;
    free (l.v);
    return;
  }
  ls[0] = l;
  for (int j = lo; j < hi; j++)
    if (j < a || j >= bcol)
      ls[nl++] = copy_list (b, s->cols[j], s->ncol[j]);
  m = merge_all (b, &c, ls, nl);
  free (ls);
  if (g1 - g0 == 1) {
    /* every column of the window is in: c.r == m.n */
    s->out[g0] = m.n > c.t && !b->failed ? m.v[c.t] : -1;
    if (s->out[g0] < 0)
      b->failed = 1;
    free (m.v);
    return;
  }
  mid = (g0 + g1) / 2;
  solve (b, s, g0, mid, copy_list (b, m.v, m.n), lo, hi, c);
  solve (b, s, mid, g1, m, lo, hi, c);
}

/* ---- pruning and placing ------------------------------------------------ */

/* Keeps the comparators that lead to the outputs (out[w], -1: none), then
 * places every value: inputs stay, outputs go to their arrays, the rest to
 * scratch arrays reused once their last reader is done. */
static cm_status
finish (builder * b, cm_mnet * net, int n_in, const int *out, int n_out)
{
  int nv = b->n_values, n = 0, n_slots = 0, n_free = 0;
  unsigned char *live = calloc ((size_t) nv, 1);
  int *loc = malloc (sizeof (int) * (size_t) nv);
  int *last = malloc (sizeof (int) * (size_t) nv);
  int *free_slots = malloc (sizeof (int) * (size_t) nv);
  cm_mnet_op *kept = malloc (sizeof (cm_mnet_op) * (size_t) (b->n_ops +
          n_out + 1));
  cm_status st = CM_ERR_NO_MEMORY;

  memset (net, 0, sizeof (*net));
  if (!live || !loc || !last || !free_slots || !kept || b->failed)
    goto done;
  for (int w = 0; w < n_out; w++)
    if (out[w] >= 0)
      live[out[w]] = 1;
  /* backwards: kept[] fills from the end */
  n = b->n_ops;
  for (int i = b->n_ops - 1; i >= 0; i--) {
    cm_mnet_op o = b->ops[i];

    if (!live[o.lo])
      o.lo = -1;
    if (!live[o.hi])
      o.hi = -1;
    if (o.lo < 0 && o.hi < 0)
      continue;
    live[o.a] = live[o.b] = 1;
    kept[--n] = o;
  }
  memmove (kept, kept + n, sizeof (cm_mnet_op) * (size_t) (b->n_ops - n));
  n = b->n_ops - n;

  /* locations: inputs [0, n_in), slots n_in + s, output w -2 - w until
   * the number of slots is known */
  for (int v = 0; v < nv; v++) {
    loc[v] = v < n_in ? v : -1;
    last[v] = -1;
  }
  for (int i = 0; i < n; i++)
    last[kept[i].a] = last[kept[i].b] = i;
  for (int w = 0; w < n_out; w++)
    if (out[w] >= n_in && loc[out[w]] == -1)
      loc[out[w]] = -2 - w;
  for (int i = 0; i < n; i++) {
    const cm_mnet_op *o = &kept[i];
    int res[2] = { o->lo, o->hi };

    for (int r = 0; r < 2; r++)
      if (res[r] >= 0 && loc[res[r]] == -1)
        loc[res[r]] = n_free > 0 ? free_slots[--n_free] : n_in + n_slots++;
    /* freed only now: a comparator's results never share an array with
     * its operands (the run reads them while writing) */
    if (last[o->a] == i && loc[o->a] >= n_in)
      free_slots[n_free++] = loc[o->a];
    if (last[o->b] == i && loc[o->b] >= n_in)
      free_slots[n_free++] = loc[o->b];
  }
#define PLACE(v) ((v) < 0 ? -1 : loc[v] <= -2 ? n_in + n_slots - 2 - loc[v] \
    : loc[v])
  for (int i = 0; i < n; i++)
    kept[i] = (cm_mnet_op) { PLACE (kept[i].a), PLACE (kept[i].b),
      PLACE (kept[i].lo), PLACE (kept[i].hi)
    };
  /* an output no comparator makes (an input, or another output's value)
   * is a copy */
  for (int w = 0; w < n_out; w++) {
    int dst = n_in + n_slots + w;

    if (out[w] >= 0 && PLACE (out[w]) != dst)
      kept[n++] = (cm_mnet_op) { PLACE (out[w]), -1, dst, -1 };
  }
#undef PLACE
  net->in_used = calloc ((size_t) n_in + 1, 1);
  if (!net->in_used)
    goto done;
  for (int i = 0; i < n; i++) {
    if (kept[i].a < n_in)
      net->in_used[kept[i].a] = 1;
    if (kept[i].b >= 0 && kept[i].b < n_in)
      net->in_used[kept[i].b] = 1;
  }
  net->ops = kept;
  kept = NULL;
  net->n_ops = n;
  net->n_in = n_in;
  net->n_slots = n_slots;
  net->n_out = n_out;
  st = CM_OK;
done:
  free (live);
  free (loc);
  free (last);
  free (free_slots);
  free (kept);
  return st;
}

/* ---- the two networks --------------------------------------------------- */

cm_status
cm_mnet_columns (cm_mnet * net, int wh, const unsigned char *want)
{
  builder b = { 0 };
  int *in = new_list (&b, wh), *out = new_list (&b, wh);
  int lo = wh, hi = -1;
  cm_status st = CM_ERR_NO_MEMORY;
  cands c;
  list l;

  for (int i = 0; i < wh; i++)
    if (!want || want[i]) {
      lo = lo < i ? lo : i;
      hi = i;
    }
  if (in && out && hi >= 0) {
    /* the ranks wanted: [lo, hi] */
    c = (cands) { wh, lo, hi - lo };
    b.n_values = wh;
    for (int i = 0; i < wh; i++)
      in[i] = i;
    l = sort_list (&b, &c, in, wh);
    for (int i = 0; i < wh; i++)
      out[i] = (!want || want[i]) && l.v && !b.failed ? l.v[c.t + i - lo] :
          -1;
    free (l.v);
    st = finish (&b, net, wh, out, wh);
  }
  free (in);
  free (out);
  free (b.ops);
  return st;
}

cm_status
cm_mnet_rows (cm_mnet * net, int ww, int wh, int k, int g)
{
  builder b = { 0 };
  int n_cols = ww + g - 1, n = ww * wh;
  int clo = k - (n - wh) > 0 ? k - (n - wh) : 0;
  int chi = wh - 1 < k ? wh - 1 : k;
  rows_shape s = { ww, n_cols, NULL, NULL, NULL };
  cands c = { n - ww * (wh - (chi - clo + 1)), k - ww * clo, 0 };
  cm_status st = CM_ERR_NO_MEMORY;

  s.cols = calloc ((size_t) n_cols, sizeof (int *));
  s.ncol = calloc ((size_t) n_cols, sizeof (int));
  s.out = malloc (sizeof (int) * (size_t) g);
  b.n_values = n_cols * wh;
  if (s.cols && s.ncol && s.out) {
    /* each column keeps ranks [clo, chi]: any other is above or below
     * rank k of every window that holds the column */
    for (int j = 0; j < n_cols; j++) {
      s.cols[j] = new_list (&b, wh);
      if (!s.cols[j])
        break;
      s.ncol[j] = chi - clo + 1;
      for (int i = 0; i < s.ncol[j]; i++)
        s.cols[j][i] = j * wh + clo + i;
    }
    if (!b.failed) {
      solve (&b, &s, 0, g, (list) { new_list (&b, 0), 0 }, 0, 0, c);
      st = finish (&b, net, n_cols * wh, s.out, g);
    }
  }
  for (int j = 0; s.cols && j < n_cols; j++)
    free (s.cols[j]);
  free (s.cols);
  free (s.ncol);
  free (s.out);
  free (b.ops);
  return st;
}

int
cm_mnet_cost (const cm_mnet * net)
{
  int c = 0;

  for (int i = 0; i < net->n_ops; i++)
    c += (net->ops[i].lo >= 0) + (net->ops[i].hi >= 0);
  return c;
}

void
cm_mnet_clear (cm_mnet * net)
{
  free (net->ops);
  free (net->in_used);
  memset (net, 0, sizeof (*net));
}
