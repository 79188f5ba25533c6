/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The reference of the area opening and closing, written as the
 * definition (attribute.h): for every grey level h present in the frame,
 * the components of the level set ({f >= h} opening, {f <= h} closing)
 * by a flood fill; a component of at least min_area pixels sets its
 * pixels' result to h. Levels are visited from the far end of the range
 * (the lowest for the opening), so that the last level that sets a pixel
 * is the one the definition keeps. */
#include <stdlib.h>
#include <string.h>

#include "attribute.h"

int
cm_attr_desc_ok (const cm_attr_desc * d)
{
  return d != NULL && (d->op == CM_ATTR_OPEN || d->op == CM_ATTR_CLOSE) &&
      d->attribute == CM_ATTR_AREA && d->min_area >= 1 &&
      (d->connectivity == 4 || d->connectivity == 8);
}

const char *
cm_attr_op_name (const cm_attr_desc * d)
{
  if (!cm_attr_desc_ok (d))
    return "invalid";
  return d->op == CM_ATTR_OPEN ? "area-open" : "area-close";
}

static uint32_t
sample (const cm_image * img, int x, int y)
{
  const uint8_t *row = (const uint8_t *) img->data + (size_t) y * img->pitch;

  return img->depth == CM_DEPTH_16 ? ((const uint16_t *) row)[x] : row[x];
}

static void
store (const cm_image * img, int x, int y, uint32_t v)
{
  uint8_t *row = (uint8_t *) img->data + (size_t) y * img->pitch;

  if (img->depth == CM_DEPTH_16)
    ((uint16_t *) row)[x] = (uint16_t) v;
  else
    row[x] = (uint8_t) v;
}

typedef struct
{
  const cm_image *src;
  int open;
  int conn;
  uint32_t *f;                  /* the frame, packed */
  uint32_t *result;
  uint32_t *mark;               /* the level a pixel was last visited at,
                                 * plus one */
  int *queue;
} ref_ctx;

/* x in the level set of h */
static int
in_set (const ref_ctx * c, int i, uint32_t h)
{
  return c->open ? c->f[i] >= h : c->f[i] <= h;
}

/* The component of the level set of @h holding pixel @seed, flooded into
 * c->queue; its size */
static int
flood (ref_ctx * c, int seed, uint32_t h)
{
  static const int dx[8] = { 1, -1, 0, 0, 1, 1, -1, -1 };
  static const int dy[8] = { 0, 0, 1, -1, 1, -1, 1, -1 };
  int w = c->src->width, ht = c->src->height, head = 0, tail = 0;

  c->mark[seed] = h + 1;
  c->queue[tail++] = seed;
  while (head < tail) {
    int i = c->queue[head++], x = i % w, y = i / w;

    for (int k = 0; k < c->conn; k++) {
      int nx = x + dx[k], ny = y + dy[k], j;

      if (nx < 0 || ny < 0 || nx >= w || ny >= ht)
        continue;
      j = ny * w + nx;
      if (c->mark[j] != h + 1 && in_set (c, j, h)) {
        c->mark[j] = h + 1;
        c->queue[tail++] = j;
      }
    }
  }
  return tail;
}

cm_status
cm_attr_ref (const cm_attr_desc * desc, const cm_image * src,
    const cm_image * dst)
{
  int w, h, n;
  uint32_t maxv, *present;
  ref_ctx c;

  if (!cm_attr_desc_ok (desc) || !cm_image_pair_ok (src, dst))
    return CM_ERR_INVALID_ARG;
  w = src->width;
  h = src->height;
  n = w * h;
  maxv = cm_depth_max (src->depth);
  memset (&c, 0, sizeof (c));
  c.src = src;
  c.open = desc->op == CM_ATTR_OPEN;
  c.conn = desc->connectivity;
  c.f = malloc (sizeof (uint32_t) * n);
  c.result = malloc (sizeof (uint32_t) * n);
  c.mark = calloc (n, sizeof (uint32_t));
  c.queue = malloc (sizeof (int) * n);
  present = calloc (maxv + 1, sizeof (uint32_t));
  if (!c.f || !c.result || !c.mark || !c.queue || !present) {
    free (c.f);
    free (c.result);
    free (c.mark);
    free (c.queue);
    free (present);
    return CM_ERR_NO_MEMORY;
  }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      c.f[y * w + x] = sample (src, x, y);
      present[c.f[y * w + x]] = 1;
    }
  /* no component large enough: 0 for the opening, the maximum for the
   * closing (what scikit-image gives) */
  for (int i = 0; i < n; i++)
    c.result[i] = c.open ? 0 : maxv;

  for (uint32_t k = 0; k <= maxv; k++) {
    uint32_t level = c.open ? k : maxv - k;

    if (!present[level])
      continue;
    for (int s = 0; s < n; s++) {
      int size;

      if (c.mark[s] == level + 1 || !in_set (&c, s, level))
        continue;
      size = flood (&c, s, level);
      if ((uint32_t) size >= desc->min_area)
        for (int q = 0; q < size; q++)
          c.result[c.queue[q]] = level;
    }
  }

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      store (dst, x, y, c.result[y * w + x]);
  free (c.f);
  free (c.result);
  free (c.mark);
  free (c.queue);
  free (present);
  return CM_OK;
}
