/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU backend of the area opening and closing: a max-tree by
 * union-find (Najman & Couprie 2006; the variant of Berger et al. 2007
 * that Carlinet & Geraud, IEEE TIP 2014, found the fastest on low
 * depths), the area by accumulation from the leaves, and the direct
 * filtering rule (Salembier et al. 1998) from the root.
 *
 * The pixels are sorted by level (a counting sort for 8 bits, two 8-bit
 * radix passes for 16), stable, so that within a level the order is the
 * raster order; they are then added from the highest key down, each
 * becoming the parent of the neighbouring components already built (their
 * union-find by rank with path halving, its roots kept apart from the
 * tree's nodes: on 4K noise 4 links followed a pixel instead of 17). The
 * tree is that of the strict order (level, raster index): the first pixel
 * of a level component in raster order is its canonical node, and its
 * subtree is exactly the component. The frame is padded with a one-pixel
 * ring that is never added, so that neighbours need no bounds checks.
 * The closing runs on the inverted levels.
 *
 * On several threads the rows are cut into bands, each sorted and built
 * on its own thread (neighbours in other bands ignored), and each band's
 * tree measured: a pixel whose component in the band already holds
 * min_area pixels is marked large. The bands' trees are then joined
 * along their borders by Wilkinson's connect (2008), the sequential twin
 * of attribute-tree.cuh, which stops, as the GPU's seams do, once both
 * chains are down to marked nodes (what is left would only join large
 * components; docs/design.md); the marks then count as min_area pixels at
 * least in the area pass. The sorted bands are interleaved level by level
 * into the frame's order for the two last passes. */
#include <stdlib.h>
#include <string.h>

#include "attribute.h"
#include "cpu-bands.h"

#define UNSEEN (-1)             /* in the frame, not added yet */
#define OUTSIDE (-2)            /* the padding ring */
#define CANCEL_EVERY 65536
#define AREA_MARK 0x80000000u   /* in the area pass: marked large        */
#define MIN_BAND_ROWS 32
#define MAX_BANDS 64

struct cm_attr_cpu
{
  cm_attr_desc desc;
  int width, height;
  cm_depth depth;
  cm_cpu_opts opts;             /* threads: the bands */
  int bands;
  int pw;                       /* padded width */
  size_t pn;                    /* padded pixels */
  int n;                        /* frame pixels */
  int levels;                   /* 256 or 65536 */
  uint16_t *lev;                /* padded, inverted for the closing */
  int32_t *zpar;                /* union-find links, then the area */
  int32_t *repr;                /* a union-find root's tree node */
  uint8_t *rank;                /* a union-find root's rank */
  int32_t *parent;              /* the tree (padded indices) */
  int32_t *sorted;              /* padded indices by (level, raster), a
                                 * band's run after another's */
  int32_t *tmp;                 /* the radix sort's first pass; the
                                 * frame's order when there are bands */
  int32_t *hist;                /* bands x levels: pixels at a level */
  uint16_t *out;                /* padded result, inverted for closing */
  int32_t *size;                /* with bands: a union-find root's set's
                                 * pixels */
  uint8_t *large;               /* with bands: the pixel's component in
                                 * its band holds min_area pixels */
  int offsets[8];               /* the neighbours, as index offsets */
};

void
cm_attr_cpu_free (cm_attr_cpu * p)
{
  if (p == NULL)
    return;
  free (p->lev);
  free (p->zpar);
  free (p->repr);
  free (p->rank);
  free (p->parent);
  free (p->sorted);
  free (p->tmp);
  free (p->hist);
  free (p->out);
  free (p->size);
  free (p->large);
  free (p);
}

cm_status
cm_attr_cpu_new (cm_attr_cpu ** out, const cm_attr_desc * desc, int width,
    int height, cm_depth depth, const cm_cpu_opts * cpu)
{
  cm_attr_cpu *p;
  int pw;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!cm_attr_desc_ok (desc) || !cm_frame_ok (width, height, depth) ||
      (double) (width + 2) * (height + 2) >= 2147483647.0)
    return CM_ERR_INVALID_ARG;
  p = calloc (1, sizeof (*p));
  if (p == NULL)
    return CM_ERR_NO_MEMORY;
  p->desc = *desc;
  p->width = width;
  p->height = height;
  p->depth = depth;
  if (cpu != NULL)
    p->opts = *cpu;
  /* bands of at least MIN_BAND_ROWS rows: their borders cost a merge a
   * pixel */
  p->bands = p->opts.threads > 1 ? p->opts.threads : 1;
  if (p->bands > height / MIN_BAND_ROWS)
    p->bands = height / MIN_BAND_ROWS > 0 ? height / MIN_BAND_ROWS : 1;
  if (p->bands > MAX_BANDS)
    p->bands = MAX_BANDS;
  p->opts.threads = p->bands;
  pw = p->pw = width + 2;
  p->pn = (size_t) pw * (height + 2);
  p->n = width * height;
  p->levels = depth == CM_DEPTH_16 ? 65536 : 256;
  p->lev = malloc (p->pn * sizeof (uint16_t));
  p->zpar = malloc (p->pn * sizeof (int32_t));
  p->repr = malloc (p->pn * sizeof (int32_t));
  p->rank = malloc (p->pn);
  p->parent = malloc (p->pn * sizeof (int32_t));
  p->sorted = malloc ((size_t) p->n * sizeof (int32_t));
  p->out = malloc (p->pn * sizeof (uint16_t));
  p->hist = malloc ((size_t) p->bands * p->levels * sizeof (int32_t));
  if (depth == CM_DEPTH_16 || p->bands > 1)
    p->tmp = malloc ((size_t) p->n * sizeof (int32_t));
  if (p->bands > 1) {
    p->size = malloc (p->pn * sizeof (int32_t));
    p->large = malloc (p->pn);
  }
  if (!p->lev || !p->zpar || !p->repr || !p->rank || !p->parent ||
      !p->sorted || !p->out || !p->hist ||
      ((depth == CM_DEPTH_16 || p->bands > 1) && !p->tmp) ||
      (p->bands > 1 && (!p->size || !p->large))) {
    cm_attr_cpu_free (p);
    return CM_ERR_NO_MEMORY;
  }
  /* right, left, down, up, then the diagonals */
  p->offsets[0] = 1;
  p->offsets[1] = -1;
  p->offsets[2] = pw;
  p->offsets[3] = -pw;
  p->offsets[4] = pw + 1;
  p->offsets[5] = pw - 1;
  p->offsets[6] = -pw + 1;
  p->offsets[7] = -pw - 1;
  *out = p;
  return CM_OK;
}

/* one run's arguments, shared by the bands */
typedef struct
{
  cm_attr_cpu *p;
  const cm_image *src;
} run_ctx;

/* lev and zpar of rows [y0, y1) (and of the ring next to them) */
static void
load_rows (cm_attr_cpu * p, const cm_image * src, int y0, int y1)
{
  uint16_t inv = p->desc.op == CM_ATTR_CLOSE ?
      (uint16_t) cm_depth_max (p->depth) : 0;
  int pw = p->pw;

  if (y0 == 0)
    for (int x = 0; x < pw; x++)
      p->zpar[x] = OUTSIDE;
  if (y1 == p->height)
    for (int x = 0; x < pw; x++)
      p->zpar[(size_t) (p->height + 1) * pw + x] = OUTSIDE;
  for (int y = y0; y < y1; y++) {
    const uint8_t *row = (const uint8_t *) src->data + (size_t) y *
        src->pitch;
    uint16_t *l = p->lev + (size_t) (y + 1) * pw + 1;
    int32_t *z = p->zpar + (size_t) (y + 1) * pw;

    if (p->depth == CM_DEPTH_16)
      for (int x = 0; x < p->width; x++)
        l[x] = ((const uint16_t *) row)[x] ^ inv;
    else
      for (int x = 0; x < p->width; x++)
        l[x] = row[x] ^ inv;
    z[0] = OUTSIDE;
    z[pw - 1] = OUTSIDE;
    for (int x = 1; x <= p->width; x++)
      z[x] = UNSEEN;
  }
}

/* The pixels of rows [y0, y1) into @dest by (level, raster index): one
 * counting pass of the 8 bits, or two radix passes (low byte into @tmp,
 * then high byte) of the 16, each stable; @hist: their count at each
 * level */
static void
sort_rows (cm_attr_cpu * p, int y0, int y1, int32_t * dest, int32_t * tmp,
    int32_t * hist)
{
  int passes = p->depth == CM_DEPTH_16 ? 2 : 1, pw = p->pw;
  int count = (y1 - y0) * p->width;

  memset (hist, 0, (size_t) p->levels * sizeof (int32_t));
  for (int y = y0 + 1; y <= y1; y++)
    for (int x = 1; x <= p->width; x++)
      hist[p->lev[(size_t) y * pw + x]]++;
  for (int k = 0; k < passes; k++) {
    int32_t *to = k == passes - 1 ? dest : tmp;
    int shift = 8 * k;
    size_t start[257];

    memset (start, 0, sizeof (start));
    if (k == 0) {
      for (int y = y0 + 1; y <= y1; y++)
        for (int x = 1; x <= p->width; x++)
          start[((p->lev[(size_t) y * pw + x] >> shift) & 255) + 1]++;
    } else {
      for (int i = 0; i < count; i++)
        start[((p->lev[tmp[i]] >> shift) & 255) + 1]++;
    }
    for (int b = 1; b <= 256; b++)
      start[b] += start[b - 1];
    if (k == 0) {
      for (int y = y0 + 1; y <= y1; y++)
        for (int x = 1; x <= p->width; x++) {
          int32_t i = y * pw + x;

          to[start[(p->lev[i] >> shift) & 255]++] = i;
        }
    } else {
      for (int i = 0; i < count; i++) {
        int32_t q = tmp[i];

        to[start[(p->lev[q] >> shift) & 255]++] = q;
      }
    }
  }
}

static inline int32_t
find_root (int32_t * zpar, int32_t x)
{
  /* path halving */
  while (zpar[x] != x) {
    zpar[x] = zpar[zpar[x]];
    x = zpar[x];
  }
  return x;
}

/* The tree of the @count pixels of @sorted (rows [y0, y1)): from the
 * highest key down, each pixel the parent of the tree nodes of its
 * neighbours' components in these rows, which it joins; then, root
 * first, every link made to point at a level root. With bands, a pixel
 * is marked large when the set it joins holds min_area pixels: for a
 * level root (the last of its level component to come) that is its
 * component in the band, for the others a part of theirs. */
static cm_status
build_rows (cm_attr_cpu * p, const int32_t * sorted, int count, int y0,
    int y1)
{
  int32_t *zpar = p->zpar, *parent = p->parent, *repr = p->repr;
  int32_t *size = p->size;
  uint8_t *rank = p->rank, *large = p->large;
  const uint16_t *lev = p->lev;
  int32_t lo = (y0 + 1) * p->pw, hi = (y1 + 1) * p->pw;
  int conn = p->desc.connectivity;

  for (int i = count - 1; i >= 0; i--) {
    int32_t q = sorted[i], zq = q;

    parent[q] = q;
    zpar[q] = q;
    repr[q] = q;
    rank[q] = 0;
    if (size != NULL)
      size[q] = 1;
    for (int k = 0; k < conn; k++) {
      int32_t nb = q + p->offsets[k], r;

      if (nb < lo || nb >= hi || zpar[nb] < 0)
        continue;
      r = find_root (zpar, nb);
      if (r == zq)
        continue;
      parent[repr[r]] = q;
      if (rank[zq] < rank[r]) {
        int32_t t = zq;

        zq = r;
        r = t;
      }
      zpar[r] = zq;
      rank[zq] += rank[zq] == rank[r];
      repr[zq] = q;
      if (size != NULL)
        size[zq] += size[r];
    }
    if (size != NULL)
      large[q] = (uint32_t) size[zq] >= p->desc.min_area;
    if ((i & (CANCEL_EVERY - 1)) == 0 && cm_cpu_cancelled (&p->opts))
      return CM_ERR_CANCELLED;
  }
  for (int i = 0; i < count; i++) {
    int32_t q = sorted[i], up = parent[q];

    if (up != q && lev[parent[up]] == lev[up] && parent[up] != up)
      parent[q] = parent[up];
  }
  return CM_OK;
}

/* one band: rows in, sorted, built */
static cm_status
band_build (void *data, int band, int y0, int y1)
{
  run_ctx *c = data;
  cm_attr_cpu *p = c->p;
  size_t first = (size_t) y0 * p->width;

  load_rows (p, c->src, y0, y1);
  sort_rows (p, y0, y1, p->sorted + first, p->tmp + first,
      p->hist + (size_t) band * p->levels);
  if (cm_cpu_cancelled (&p->opts))
    return CM_ERR_CANCELLED;
  return build_rows (p, p->sorted + first, (y1 - y0) * p->width, y0, y1);
}

/* ---- joining the bands (Wilkinson's connect, sequential) --------------- */

static inline int
key_below (const uint16_t * lev, int32_t a, int32_t b)
{
  return lev[a] < lev[b] || (lev[a] == lev[b] && a < b);
}

static int32_t
level_root (int32_t * parent, const uint16_t * lev, int32_t x)
{
  while (parent[x] != x && lev[parent[x]] == lev[x]) {
    int32_t up = parent[x];

    if (parent[up] != up && lev[parent[up]] == lev[x])
      parent[x] = parent[up];
    x = up;
  }
  return x;
}

/* The trees of neighbours @a and @b joined: their chains of level roots
 * merged like two sorted lists, until both are down to nodes marked
 * @large */
static void
connect (int32_t * parent, const uint16_t * lev, const uint8_t * large,
    int32_t a, int32_t b)
{
  a = level_root (parent, lev, a);
  b = level_root (parent, lev, b);
  while (a != b && !(large[a] && large[b])) {
    int32_t pa, z;

    if (key_below (lev, a, b)) {
      int32_t t = a;

      a = b;
      b = t;
    }
    pa = parent[a];
    if (pa == a) {
      parent[a] = b;
      return;
    }
    z = level_root (parent, lev, pa);
    if (z == b)
      return;
    if (key_below (lev, z, b)) {
      parent[a] = b;
      a = z;
    } else {
      a = z;
    }
  }
}

/* The band above @y (its last row) joined to the band from @y */
static void
join_bands (cm_attr_cpu * p, int y)
{
  int pw = p->pw;

  for (int x = 1; x <= p->width; x++) {
    int32_t q = y * pw + x;     /* padded row y: the frame's row y - 1 */

    for (int k = 0; k < p->desc.connectivity; k++) {
      int32_t nb = q + p->offsets[k];

      /* the neighbours in the row below */
      if (nb >= (y + 1) * pw && p->zpar[nb] != OUTSIDE)
        connect (p->parent, p->lev, p->large, q, nb);
    }
  }
}

/* one band's sorted run scattered level by level into the frame's order */
static cm_status
band_interleave (void *data, int band, int y0, int y1)
{
  run_ctx *c = data;
  cm_attr_cpu *p = c->p;
  const int32_t *from = p->sorted + (size_t) y0 * p->width;
  int32_t *mine = p->hist + (size_t) band * p->levels;
  int i = 0;

  (void) y1;
  for (int h = 0; h < p->levels; h++) {
    /* mine[h]: where this band's run of level h goes (join's prefix) */
    int32_t *to = p->tmp + mine[h];

    while (i < (y1 - y0) * p->width && p->lev[from[i]] == h)
      *to++ = from[i++];
  }
  return CM_OK;
}

cm_status
cm_attr_cpu_run (cm_attr_cpu * p, const cm_image * src,
    const cm_image * dst)
{
  int32_t *zpar, *parent, *order;
  uint32_t *area;
  uint16_t *lev, *out;
  int n, pw;
  uint32_t lambda, maxv;
  run_ctx c;
  cm_status st;

  if (p == NULL || !cm_image_pair_ok (src, dst) || src->width != p->width ||
      src->height != p->height || src->depth != p->depth)
    return CM_ERR_INVALID_ARG;
  if (cm_cpu_cancelled (&p->opts))
    return CM_ERR_CANCELLED;
  zpar = p->zpar;
  parent = p->parent;
  lev = p->lev;
  out = p->out;
  n = p->n;
  pw = p->pw;
  lambda = p->desc.min_area;
  maxv = cm_depth_max (p->depth);
  c.p = p;
  c.src = src;

  st = cm_cpu_bands (&p->opts, p->height, band_build, &c);
  if (st != CM_OK)
    return st;
  order = p->sorted;
  if (p->bands > 1) {
    /* the bands' trees joined along their borders; where each band's run
     * of each level goes in the frame's order (level, then band) */
    int32_t at = 0;

    for (int b = 1; b < p->bands; b++)
      join_bands (p, (int) ((long long) p->height * b / p->bands));
    for (int h = 0; h < p->levels; h++)
      for (int b = 0; b < p->bands; b++) {
        int32_t *cnt = p->hist + (size_t) b * p->levels + h, k = *cnt;

        *cnt = at;
        at += k;
      }
    st = cm_cpu_bands (&p->opts, p->height, band_interleave, &c);
    if (st != CM_OK)
      return st;
    order = p->tmp;
  }
  if (cm_cpu_cancelled (&p->opts))
    return CM_ERR_CANCELLED;

  /* the area: each subtree's size, leaves first (zpar is free now); with
   * bands the joins leave a forest, and a marked pixel counts as at least
   * min_area pixels (still at most its component's area: no overflow),
   * its mark carried in the top bit until its turn */
  area = (uint32_t *) zpar;
  for (int y = 1; y <= p->height; y++)
    for (int x = 1; x <= p->width; x++) {
      size_t i = (size_t) y * pw + x;

      area[i] = 1 | (p->large != NULL && p->large[i] ? AREA_MARK : 0);
    }
  for (int i = n - 1; i >= 0; i--) {
    int32_t q = order[i];
    uint32_t a = area[q];

    if (a & AREA_MARK) {
      a &= ~AREA_MARK;
      a = a < lambda ? lambda : a;
      area[q] = a;
    }
    if (parent[q] != q)
      area[parent[q]] += a;
  }

  /* the direct rule, root first: a canonical node keeps its level when
   * its component is large enough and takes its parent's result
   * otherwise; the other pixels of a level component take its result */
  for (int i = 0; i < n; i++) {
    int32_t q = order[i], up = parent[q];

    if (up != q && lev[up] == lev[q])
      out[q] = out[up];
    else if (area[q] >= lambda)
      out[q] = lev[q];
    else
      out[q] = up == q ? 0 : out[up];
  }

  if (cm_cpu_cancelled (&p->opts))
    return CM_ERR_CANCELLED;
  {
    uint16_t inv = p->desc.op == CM_ATTR_CLOSE ? (uint16_t) maxv : 0;

    for (int y = 0; y < p->height; y++) {
      uint8_t *row = (uint8_t *) dst->data + (size_t) y * dst->pitch;
      const uint16_t *o = out + (size_t) (y + 1) * pw + 1;

      if (p->depth == CM_DEPTH_16)
        for (int x = 0; x < p->width; x++)
          ((uint16_t *) row)[x] = o[x] ^ inv;
      else
        for (int x = 0; x < p->width; x++)
          row[x] = (uint8_t) (o[x] ^ inv);
    }
  }
  return CM_OK;
}
