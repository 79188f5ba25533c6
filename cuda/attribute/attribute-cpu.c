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
 * The closing runs on the inverted levels. */
#include <stdlib.h>
#include <string.h>

#include "attribute.h"

#define UNSEEN (-1)             /* in the frame, not added yet */
#define OUTSIDE (-2)            /* the padding ring */
#define CANCEL_EVERY 65536

struct cm_attr_cpu
{
  cm_attr_desc desc;
  int width, height;
  cm_depth depth;
  int pw;                       /* padded width */
  size_t pn;                    /* padded pixels */
  int n;                        /* frame pixels */
  uint16_t *lev;                /* padded, inverted for the closing */
  int32_t *zpar;                /* union-find links, then the area */
  int32_t *repr;                /* a union-find root's tree node */
  uint8_t *rank;                /* a union-find root's rank */
  int32_t *parent;              /* the tree (padded indices) */
  int32_t *sorted;              /* padded indices by (level, raster) */
  int32_t *tmp;                 /* the radix sort's first pass */
  uint16_t *out;                /* padded result, inverted for closing */
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
  free (p->out);
  free (p);
}

cm_status
cm_attr_cpu_new (cm_attr_cpu ** out, const cm_attr_desc * desc, int width,
    int height, cm_depth depth)
{
  cm_attr_cpu *p;
  int pw;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!cm_attr_desc_ok (desc) || width < 1 || height < 1 ||
      (depth != CM_DEPTH_8 && depth != CM_DEPTH_16) ||
      (double) (width + 2) * (height + 2) >= 2147483647.0)
    return CM_ERR_INVALID_ARG;
  p = calloc (1, sizeof (*p));
  if (p == NULL)
    return CM_ERR_NO_MEMORY;
  p->desc = *desc;
  p->width = width;
  p->height = height;
  p->depth = depth;
  pw = p->pw = width + 2;
  p->pn = (size_t) pw * (height + 2);
  p->n = width * height;
  p->lev = malloc (p->pn * sizeof (uint16_t));
  p->zpar = malloc (p->pn * sizeof (int32_t));
  p->repr = malloc (p->pn * sizeof (int32_t));
  p->rank = malloc (p->pn);
  p->parent = malloc (p->pn * sizeof (int32_t));
  p->sorted = malloc ((size_t) p->n * sizeof (int32_t));
  p->out = malloc (p->pn * sizeof (uint16_t));
  if (depth == CM_DEPTH_16)
    p->tmp = malloc ((size_t) p->n * sizeof (int32_t));
  if (!p->lev || !p->zpar || !p->repr || !p->rank || !p->parent ||
      !p->sorted || !p->out || (depth == CM_DEPTH_16 && !p->tmp)) {
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

static int
cancelled (const int *cancel)
{
  return cancel != NULL && __atomic_load_n (cancel, __ATOMIC_RELAXED);
}

/* lev and the ring of zpar, from the source */
static void
load (cm_attr_cpu * p, const cm_image * src)
{
  uint16_t inv = p->desc.op == CM_ATTR_CLOSE ?
      (uint16_t) cm_depth_max (p->depth) : 0;
  int pw = p->pw;

  for (int y = 0; y < p->height; y++) {
    const uint8_t *row = (const uint8_t *) src->data + (size_t) y *
        src->pitch;
    uint16_t *l = p->lev + (size_t) (y + 1) * pw + 1;

    if (p->depth == CM_DEPTH_16)
      for (int x = 0; x < p->width; x++)
        l[x] = ((const uint16_t *) row)[x] ^ inv;
    else
      for (int x = 0; x < p->width; x++)
        l[x] = row[x] ^ inv;
  }
  for (int x = 0; x < pw; x++) {
    p->zpar[x] = OUTSIDE;
    p->zpar[(size_t) (p->height + 1) * pw + x] = OUTSIDE;
  }
  for (int y = 1; y <= p->height; y++) {
    p->zpar[(size_t) y * pw] = OUTSIDE;
    p->zpar[(size_t) y * pw + pw - 1] = OUTSIDE;
    for (int x = 1; x <= p->width; x++)
      p->zpar[(size_t) y * pw + x] = UNSEEN;
  }
}

/* The frame's pixels in p->sorted by (level, raster index): one counting
 * pass of the 8 bits, or two radix passes (low byte, then high byte) of
 * the 16, each stable */
static void
sort_pixels (cm_attr_cpu * p)
{
  int passes = p->depth == CM_DEPTH_16 ? 2 : 1, pw = p->pw;

  for (int k = 0; k < passes; k++) {
    int32_t *dest = k == passes - 1 ? p->sorted : p->tmp;
    int shift = 8 * k;
    size_t start[257];

    memset (start, 0, sizeof (start));
    if (k == 0) {
      for (int y = 1; y <= p->height; y++)
        for (int x = 1; x <= p->width; x++)
          start[((p->lev[(size_t) y * pw + x] >> shift) & 255) + 1]++;
    } else {
      for (int i = 0; i < p->n; i++)
        start[((p->lev[p->tmp[i]] >> shift) & 255) + 1]++;
    }
    for (int b = 1; b <= 256; b++)
      start[b] += start[b - 1];
    if (k == 0) {
      for (int y = 1; y <= p->height; y++)
        for (int x = 1; x <= p->width; x++) {
          int32_t i = y * pw + x;

          dest[start[(p->lev[i] >> shift) & 255]++] = i;
        }
    } else {
      for (int i = 0; i < p->n; i++) {
        int32_t q = p->tmp[i];

        dest[start[(p->lev[q] >> shift) & 255]++] = q;
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

cm_status
cm_attr_cpu_run (cm_attr_cpu * p, const cm_image * src,
    const cm_image * dst, const int *cancel)
{
  int32_t *zpar, *parent, *sorted, *area, *repr;
  uint8_t *rank;
  uint16_t *lev, *out;
  int conn, n, pw;
  uint32_t lambda, maxv;

  if (p == NULL || !cm_image_pair_ok (src, dst) || src->width != p->width ||
      src->height != p->height || src->depth != p->depth)
    return CM_ERR_INVALID_ARG;
  zpar = p->zpar;
  repr = p->repr;
  rank = p->rank;
  parent = p->parent;
  sorted = p->sorted;
  lev = p->lev;
  out = p->out;
  conn = p->desc.connectivity;
  n = p->n;
  pw = p->pw;
  lambda = p->desc.min_area;
  maxv = cm_depth_max (p->depth);

  load (p, src);
  sort_pixels (p);
  if (cancelled (cancel))
    return CM_ERR_CANCELLED;

  /* the tree: from the highest key down, each pixel the parent of the
   * tree nodes of its neighbours' components, which it joins */
  for (int i = n - 1; i >= 0; i--) {
    int32_t q = sorted[i], zq = q;

    parent[q] = q;
    zpar[q] = q;
    repr[q] = q;
    rank[q] = 0;
    for (int k = 0; k < conn; k++) {
      int32_t nb = q + p->offsets[k], r;

      if (zpar[nb] < 0)
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
    }
    if ((i & (CANCEL_EVERY - 1)) == 0 && cancelled (cancel))
      return CM_ERR_CANCELLED;
  }

  /* the area: each subtree's size, leaves first (zpar is free now) */
  area = zpar;
  for (int i = 0; i < n; i++)
    area[sorted[i]] = 1;
  for (int i = n - 1; i > 0; i--) {
    int32_t q = sorted[i];

    area[parent[q]] += area[q];
  }

  /* the direct rule, root first: a canonical node keeps its level when
   * its component is large enough and takes its parent's result
   * otherwise; the other pixels of a level component take its result */
  for (int i = 0; i < n; i++) {
    int32_t q = sorted[i], up = parent[q];

    if (up != q && lev[up] == lev[q])
      out[q] = out[up];
    else if ((uint32_t) area[q] >= lambda)
      out[q] = lev[q];
    else
      out[q] = up == q ? 0 : out[up];
  }

  if (cancelled (cancel))
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
