/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU reference of reconstruction and the operations built on it (see
 * reconstruct.h). Samples are widened to uint32_t planes; reconstruction
 * by erosion is reconstruction by dilation of the complements. */
#include <stdlib.h>
#include <string.h>

#include "cm-sample.h"
#include "cpu-bands.h"
#include "reconstruct.h"

/* the queue checks the cancel flag once in this many pixels */
#define QUEUE_CHECK_EVERY 65536

/* Neighbours visited before a pixel in raster order (the first half) and
 * after it (the second half): 4-connectivity uses two of each. */
static const int nb8_dx[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };
static const int nb8_dy[8] = { 0, -1, -1, -1, 0, 1, 1, 1 };
static const int nb4_dx[4] = { -1, 0, 1, 0 };
static const int nb4_dy[4] = { 0, -1, 0, 1 };

typedef struct
{
  const int *dx, *dy;
  int half;                     /* neighbours per half */
} neighbours;

static neighbours
neighbours_of (int connectivity)
{
  neighbours n;

  if (connectivity == 4) {
    n.dx = nb4_dx;
    n.dy = nb4_dy;
    n.half = 2;
  } else {
    n.dx = nb8_dx;
    n.dy = nb8_dy;
    n.half = 4;
  }
  return n;
}

/* A FIFO of pixel indices that grows when full (a pixel may be queued
 * more than once). */
typedef struct
{
  size_t *v;
  size_t cap, head, len;
} fifo;

static int
fifo_push (fifo * q, size_t p)
{
  if (q->len == q->cap) {
    size_t cap = q->cap ? q->cap * 2 : 1024;
    size_t *v = malloc (cap * sizeof (*v));

    if (!v)
      return 0;
    for (size_t i = 0; i < q->len; i++)
      v[i] = q->v[(q->head + i) % q->cap];
    free (q->v);
    q->v = v;
    q->cap = cap;
    q->head = 0;
  }
  q->v[(q->head + q->len) % q->cap] = p;
  q->len++;
  return 1;
}

static size_t
fifo_pop (fifo * q)
{
  size_t p = q->v[q->head];

  q->head = (q->head + 1) % q->cap;
  q->len--;
  return p;
}

static inline uint32_t
max_u32 (uint32_t a, uint32_t b)
{
  return a > b ? a : b;
}

static inline uint32_t
min_u32 (uint32_t a, uint32_t b)
{
  return a < b ? a : b;
}

/* One row @y of the raster scan (@first: the neighbours before, in raster
 * order) or the anti-raster scan (the neighbours after, right to left):
 * j[p] = min (max (j[p], j[those neighbours]), i[p]). Returns whether a
 * sample rose. */
static int
scan_row (uint32_t * j, const uint32_t * i, int w, int h, neighbours n,
    int y, int raster)
{
  int k0 = raster ? 0 : n.half, changed = 0;

  for (int s = 0; s < w; s++) {
    int x = raster ? s : w - 1 - s;
    size_t p = (size_t) y * w + x;
    uint32_t m = j[p], v;

    for (int k = k0; k < k0 + n.half; k++) {
      int nx = x + n.dx[k], ny = y + n.dy[k];

      if (nx >= 0 && nx < w && ny >= 0 && ny < h)
        m = max_u32 (m, j[(size_t) ny * w + nx]);
    }
    v = min_u32 (m, i[p]);
    changed |= v != j[p];
    j[p] = v;
  }
  return changed;
}

/* After the anti-raster scan of row @y: its pixels that could still
 * raise a neighbour after them start the queue. */
static cm_status
queue_row (fifo * q, const uint32_t * j, const uint32_t * i, int w, int h,
    neighbours n, int y)
{
  for (int x = w - 1; x >= 0; x--) {
    size_t p = (size_t) y * w + x;

    for (int k = n.half; k < 2 * n.half; k++) {
      int nx = x + n.dx[k], ny = y + n.dy[k];
      size_t r;

      if (nx < 0 || nx >= w || ny < 0 || ny >= h)
        continue;
      r = (size_t) ny * w + nx;
      if (j[r] < j[p] && j[r] < i[r]) {
        if (!fifo_push (q, p))
          return CM_ERR_NO_MEMORY;
        break;
      }
    }
  }
  return CM_OK;
}

/* The queue's propagation: every queued pixel raises its neighbours it
 * can, which are queued in turn, until the queue is empty. */
static cm_status
propagate (fifo * q, uint32_t * j, const uint32_t * i, int w, int h,
    neighbours n, const cm_cpu_opts * cpu)
{
  size_t pops = 0;

  while (q->len > 0) {
    size_t p = fifo_pop (q);
    int x = (int) (p % w), y = (int) (p / w);

    if (++pops % QUEUE_CHECK_EVERY == 0 && cm_cpu_cancelled (cpu))
      return CM_ERR_CANCELLED;
    for (int k = 0; k < 2 * n.half; k++) {
      int nx = x + n.dx[k], ny = y + n.dy[k];
      size_t r;

      if (nx < 0 || nx >= w || ny < 0 || ny >= h)
        continue;
      r = (size_t) ny * w + nx;
      if (j[r] < j[p] && i[r] != j[r]) {
        j[r] = min_u32 (j[p], i[r]);
        if (!fifo_push (q, r))
          return CM_ERR_NO_MEMORY;
      }
    }
  }
  return CM_OK;
}

/* Vincent (1993), hybrid algorithm: j (<= i) becomes the reconstruction
 * by dilation of j under i (w x h, rows outside not looked at). */
static cm_status
rec_dilate_hybrid (uint32_t * j, const uint32_t * i, int w, int h,
    neighbours n, const cm_cpu_opts * cpu)
{
  fifo q = { 0 };
  cm_status st = CM_OK;

  for (int y = 0; y < h && st == CM_OK; y++) {
    if (cm_cpu_cancelled (cpu))
      st = CM_ERR_CANCELLED;
    else
      scan_row (j, i, w, h, n, y, 1);
  }
  for (int y = h - 1; y >= 0 && st == CM_OK; y--) {
    if (cm_cpu_cancelled (cpu))
      st = CM_ERR_CANCELLED;
    else
      scan_row (j, i, w, h, n, y, 0);
    if (st == CM_OK)
      st = queue_row (&q, j, i, w, h, n, y);
  }
  if (st == CM_OK)
    st = propagate (&q, j, i, w, h, n, cpu);
  free (q.v);
  return st;
}

/* j becomes the reconstruction by dilation of j under i: the serial
 * hybrid, which @cpu may stop. Bands of rows reconstructed in parallel,
 * then finished across their edges by one queue, were exact but slower
 * (docs/bench/history.md, "The CPU backend beside OpenCV, 16 cores of the
 * GPU host"): the queue then carries most of what the scans would have
 * done. */
static cm_status
rec_dilate (uint32_t * j, const uint32_t * i, int w, int h, int connectivity,
    const cm_cpu_opts * cpu)
{
  size_t count = (size_t) w * h;

  for (size_t p = 0; p < count; p++)
    j[p] = min_u32 (j[p], i[p]);
  return rec_dilate_hybrid (j, i, w, h, neighbours_of (connectivity), cpu);
}

static uint32_t
depth_max (cm_depth depth)
{
  return depth == CM_DEPTH_16 ? 65535u : 255u;
}

static int
same_shape (const cm_image * a, const cm_image * b)
{
  return a->width == b->width && a->height == b->height &&
      a->depth == b->depth;
}

static void
load (const cm_image * img, uint32_t * v)
{
  for (int y = 0; y < img->height; y++) {
    const uint8_t *row = (const uint8_t *) img->data + (size_t) y * img->pitch;

    /* cm_load_sample: 16-bit rows need not start on 2 bytes */
    for (int x = 0; x < img->width; x++)
      v[(size_t) y * img->width + x] = cm_load_sample (row, x,
          cm_depth_bytes (img->depth));
  }
}

static void
store (const cm_image * img, const uint32_t * v)
{
  for (int y = 0; y < img->height; y++) {
    uint8_t *row = (uint8_t *) img->data + (size_t) y * img->pitch;

    for (int x = 0; x < img->width; x++) {
      uint32_t s = v[(size_t) y * img->width + x];

      if (img->depth == CM_DEPTH_16)
        cm_store_sample (row, x, 2, s);
      else
        row[x] = (uint8_t) s;
    }
  }
}

/* marker and mask (count values each) into their complements maxv - v */
static void
complement (uint32_t * marker, uint32_t * mask, size_t count, uint32_t maxv)
{
  for (size_t p = 0; p < count; p++) {
    marker[p] = maxv - marker[p];
    mask[p] = maxv - mask[p];
  }
}

/* By dilation (under), or by erosion (over) through the complements. */
static cm_status
reconstruct (cm_recon_mode mode, int connectivity, uint32_t * marker,
    uint32_t * mask, int w, int h, uint32_t maxv, const cm_cpu_opts * cpu)
{
  size_t count = (size_t) w * h;
  cm_status st;

  if (mode == CM_RECON_BY_DILATION)
    return rec_dilate (marker, mask, w, h, connectivity, cpu);
  complement (marker, mask, count, maxv);
  st = rec_dilate (marker, mask, w, h, connectivity, cpu);
  complement (marker, mask, count, maxv);
  return st;
}

/* Two arrays of count values, *a and *b: both, or neither and
 * CM_ERR_NO_MEMORY */
static cm_status
alloc_two (size_t count, uint32_t ** a, uint32_t ** b)
{
  *a = malloc (count * sizeof (**a));
  *b = malloc (count * sizeof (**b));
  if (*a && *b)
    return CM_OK;
  free (*a);
  free (*b);
  return CM_ERR_NO_MEMORY;
}

cm_status
cm_reconstruct_ref (cm_recon_mode mode, int connectivity,
    const cm_image * mask, const cm_image * marker)
{
  size_t count;
  uint32_t *i, *j;
  cm_status st;

  if (!cm_image_ok (mask) || !cm_image_ok (marker) ||
      !same_shape (mask, marker) || (connectivity != 4 && connectivity != 8) ||
      (mode != CM_RECON_BY_DILATION && mode != CM_RECON_BY_EROSION))
    return CM_ERR_INVALID_ARG;
  count = (size_t) mask->width * mask->height;
  if (alloc_two (count, &i, &j) != CM_OK)
    return CM_ERR_NO_MEMORY;
  load (mask, i);
  load (marker, j);
  st = reconstruct (mode, connectivity, j, i, mask->width, mask->height,
      depth_max (mask->depth), NULL);
  if (st == CM_OK)
    store (marker, j);
  free (i);
  free (j);
  return st;
}

/* The marker of open/close: the erosion (dilation) of the source by the
 * structuring element, through the morphology reference. */
static cm_status
se_marker (const cm_recon_desc * desc, const cm_image * src, uint32_t * out,
    const cm_cpu_opts * cpu)
{
  const cm_morph_desc md = cm_recon_marker_desc (desc);
  cm_image tmp;
  cm_status st;

  if (!cm_image_host_new (&tmp, src->width, src->height, src->depth))
    return CM_ERR_NO_MEMORY;
  st = cm_morph_ref_mt (&md, src, &tmp, cpu);
  if (st == CM_OK)
    load (&tmp, out);
  free (tmp.data);
  return st;
}

int
cm_recon_desc_ok (const cm_recon_desc * desc)
{
  if (desc == NULL || (int) desc->op < 0 ||
      (int) desc->op >= CM_RECON_OP_COUNT ||
      (desc->connectivity != 4 && desc->connectivity != 8))
    return 0;
  return !cm_recon_se_marker (desc) ||
      (desc->marker.se != NULL && desc->marker.iterations >= 1);
}

int
cm_recon_se_marker (const cm_recon_desc * desc)
{
  return desc->op == CM_RECON_OPEN || desc->op == CM_RECON_CLOSE;
}

cm_morph_desc
cm_recon_marker_desc (const cm_recon_desc * desc)
{
  cm_morph_desc md = desc->marker;

  md.op = desc->op == CM_RECON_OPEN ? CM_MORPH_ERODE : CM_MORPH_DILATE;
  return md;
}

cm_status
cm_recon_ref (const cm_recon_desc * desc, const cm_image * src,
    const cm_image * dst)
{
  return cm_recon_ref_mt (desc, src, dst, NULL);
}

cm_status
cm_recon_ref_mt (const cm_recon_desc * desc, const cm_image * src,
    const cm_image * dst, const cm_cpu_opts * cpu)
{
  int w, h;
  size_t count;
  uint32_t maxv, hgt, *f, *g;
  cm_recon_mode mode;
  cm_status st = CM_OK;

  if (!cm_recon_desc_ok (desc) || !cm_image_ok (src) || !cm_image_ok (dst)
      || !same_shape (src, dst) || src->data == dst->data)
    return CM_ERR_INVALID_ARG;

  w = src->width;
  h = src->height;
  count = (size_t) w * h;
  maxv = depth_max (src->depth);
  hgt = min_u32 (desc->height, maxv);
  if (alloc_two (count, &f, &g) != CM_OK)
    return CM_ERR_NO_MEMORY;
  load (src, f);

  /* the marker g and the mode that reconstructs f from it */
  switch (desc->op) {
    case CM_RECON_FILL_HOLES:
    case CM_RECON_CLEAR_BORDER:
      /* f on the outer rows and columns; inside, the value the
       * reconstruction cannot keep (max over f, 0 under it) */
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          size_t p = (size_t) y * w + x;
          int edge = x == 0 || y == 0 || x == w - 1 || y == h - 1;

          g[p] = edge ? f[p] : desc->op == CM_RECON_FILL_HOLES ? maxv : 0;
        }
      mode = desc->op == CM_RECON_FILL_HOLES ? CM_RECON_BY_EROSION :
          CM_RECON_BY_DILATION;
      break;
    case CM_RECON_OPEN:
    case CM_RECON_CLOSE:
      st = se_marker (desc, src, g, cpu);
      mode = desc->op == CM_RECON_OPEN ? CM_RECON_BY_DILATION :
          CM_RECON_BY_EROSION;
      break;
    case CM_RECON_HMAX:
    case CM_RECON_HDOME:
      for (size_t p = 0; p < count; p++)
        g[p] = f[p] > hgt ? f[p] - hgt : 0;
      mode = CM_RECON_BY_DILATION;
      break;
    default:                   /* CM_RECON_HMIN, CM_RECON_HBASIN */
      for (size_t p = 0; p < count; p++)
        g[p] = min_u32 (f[p] + hgt, maxv);
      mode = CM_RECON_BY_EROSION;
      break;
  }
  if (st == CM_OK)
    st = reconstruct (mode, desc->connectivity, g, f, w, h, maxv, cpu);
  /* the residues: f - g (clear border, h-dome), g - f (h-basin) */
  if (st == CM_OK && (desc->op == CM_RECON_CLEAR_BORDER ||
          desc->op == CM_RECON_HDOME))
    for (size_t p = 0; p < count; p++)
      g[p] = f[p] - g[p];
  if (st == CM_OK && desc->op == CM_RECON_HBASIN)
    for (size_t p = 0; p < count; p++)
      g[p] = g[p] - f[p];

  if (st == CM_OK)
    store (dst, g);
  free (f);
  free (g);
  return st;
}

const char *
cm_recon_op_name (cm_recon_op op)
{
  static const char *names[CM_RECON_OP_COUNT] = { "fill-holes",
    "clear-border", "open-rec", "close-rec", "hmax", "hmin", "hdome", "hbasin"
  };

  return (int) op >= 0 && (int) op < CM_RECON_OP_COUNT ? names[op] : "?";
}
