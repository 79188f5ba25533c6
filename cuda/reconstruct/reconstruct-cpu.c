/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU backend of the reconstruction operations (reconstruct-cpu.h):
 * cm_recon_ref's operations, each built as the reference builds it (its
 * marker, its mode, its residue), on a faster engine.
 *
 * The engine is Vincent's hybrid algorithm (L. Vincent, "Morphological
 * grayscale reconstruction in image analysis: applications and efficient
 * algorithms", IEEE TIP 2(2), 1993, section V.C), as in the reference, on
 * planes of uint8_t or uint16_t padded by one sample of 0 on every side:
 * no neighbour is bounds-checked. A scan splits into a pass that folds
 * the row before (after) into each row, which vectorises, and the serial
 * run along the row. The anti-raster scan seeds the queue as Vincent's
 * does; the queue is then served highest level first (a list per level,
 * the hierarchical queue of the watershed) rather than first in, first
 * out: the result is the same (any order that serves every seed reaches
 * the one fixpoint), but a pixel is then raised once, where the FIFO
 * raises it again each time a higher value reaches it by a longer path
 * (docs/design.md, "On the CPU", has the measured difference).
 * Reconstruction by erosion is by dilation
 * of the complements, which the loads and the store take on the way in
 * and out, as the reference does. */
#include "reconstruct-cpu.h"

#include "cpu-bands.h"
#include "morph/morph-filter.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* samples a vectorised loop takes at once */
#define RC_BLOCK 64

/* the queue looks at the cancel flag once in this many pixels served */
#define RC_CHECK_EVERY 65536u

#define RC_MIN(a, b) ((a) < (b) ? (a) : (b))
#define RC_MAX(a, b) ((a) > (b) ? (a) : (b))

/* An entry of a level's list: a pixel (plane index), the next entry */
typedef struct
{
  uint32_t pix, next;
} rc_entry;

#define RC_NONE UINT32_MAX

/* The queue: a list per level (head[level], entries in the pool), served
 * from the highest, and the stack of the pixels raised to the level being
 * served; both grown by doubling when full and kept between frames */
typedef struct
{
  uint32_t *head;               /* RC_NONE: empty */
  rc_entry *pool;
  size_t n, cap;                /* entries in the pool, its size */
  uint32_t *stack;
  size_t stack_cap;
  int top;                      /* no list above it has entries */
} rc_queue;

/* How an operation's marker is made from its mask (reconstruct.h) */
typedef enum
{
  RC_MARKER_BORDER,             /* fill holes, clear border */
  RC_MARKER_SUB,                /* h-ops: the mask less h, saturated */
  RC_MARKER_IMAGE               /* open, close: the erosion or dilation */
} rc_marker;

struct cm_recon_cpu
{
  cm_recon_desc desc;           /* desc.marker.se: the morph filter's */
  const cm_cpu_opts *opts;
  int width, height;
  cm_depth depth;
  size_t stride;                /* samples between the planes' rows */
  void *j, *i;                  /* marker and mask, padded */
  void *urow[2];                /* the queue's seeds: this row, the next */
  uint8_t *flags;
  rc_queue queue;
  cm_filter *morph;             /* open, close: their marker */
  cm_image tmp;                 /* ... into this */
};

static int
rc_queue_init (rc_queue * q, size_t levels, size_t cap, size_t stack_cap)
{
  q->head = malloc (levels * sizeof (*q->head));
  q->cap = cap;
  q->stack_cap = stack_cap;
  q->pool = malloc (cap * sizeof (*q->pool));
  q->stack = malloc (stack_cap * sizeof (*q->stack));
  return q->head != NULL && q->pool != NULL && q->stack != NULL;
}

static void
rc_queue_free (rc_queue * q)
{
  free (q->head);
  free (q->pool);
  free (q->stack);
}

/* every list empty (a stopped run leaves entries behind) */
static void
rc_queue_reset (rc_queue * q, size_t levels)
{
  memset (q->head, 0xff, levels * sizeof (*q->head));
  q->n = 0;
  q->top = 0;
}

/* room for @more entries more in the pool, @stack in the stack */
static int
rc_queue_room (rc_queue * q, size_t more, size_t stack)
{
  while (q->n + more > q->cap) {
    rc_entry *v = realloc (q->pool, 2 * q->cap * sizeof (*v));

    if (v == NULL)
      return 0;
    q->pool = v;
    q->cap *= 2;
  }
  while (stack > q->stack_cap) {
    uint32_t *v = realloc (q->stack, 2 * q->stack_cap * sizeof (*v));

    if (v == NULL)
      return 0;
    q->stack = v;
    q->stack_cap *= 2;
  }
  return 1;
}

/* @pix onto the list of @level (the pool has room) */
static inline void
rc_push (rc_queue * q, uint32_t pix, uint32_t level)
{
  q->pool[q->n].pix = pix;
  q->pool[q->n].next = q->head[level];
  q->head[level] = (uint32_t) q->n++;
}

#define T uint8_t
#define SFX _u8
#include "reconstruct-cpu-planes.h"
#undef T
#undef SFX
#define T uint16_t
#define SFX _u16
#include "reconstruct-cpu-planes.h"
#undef T
#undef SFX

void
cm_recon_cpu_free (cm_recon_cpu * c)
{
  if (c == NULL)
    return;
  free (c->j);
  free (c->i);
  free (c->urow[0]);
  free (c->urow[1]);
  free (c->flags);
  rc_queue_free (&c->queue);
  cm_filter_free (c->morph);
  free (c->tmp.data);
  free (c);
}

static cm_status
plan_init (cm_recon_cpu * c)
{
  const size_t bpp = (size_t) cm_depth_bytes (c->depth);
  const size_t rows = (size_t) c->height + 2;

  c->stride = (size_t) c->width + 2;
  /* the planes' padding is 0 from here on: no pass writes it */
  c->j = calloc (c->stride * rows, bpp);
  c->i = calloc (c->stride * rows, bpp);
  c->urow[0] = malloc (c->stride * bpp);
  c->urow[1] = malloc (c->stride * bpp);
  c->flags = malloc (c->stride);
  /* the lists: an eighth of the frame, about what 1080p noise needs
   * (blobs less); the stack: a few rows (1080p noise needs one, blobs
   * ten) */
  if (c->j == NULL || c->i == NULL || c->urow[0] == NULL ||
      c->urow[1] == NULL || c->flags == NULL ||
      !rc_queue_init (&c->queue, (size_t) cm_depth_max (c->depth) + 1,
          c->stride * rows / 8 + c->stride + 8, 4 * c->stride + 1024))
    return CM_ERR_NO_MEMORY;
  if (cm_recon_se_marker (&c->desc)) {
    const cm_morph_desc md = cm_recon_marker_desc (&c->desc);
    cm_status st;

    st = cm_morph_filter_new (&c->morph, CM_BACKEND_CPU, &md, c->width,
        c->height, c->depth, c->opts);
    if (st != CM_OK)
      return st;
    if (!cm_image_host_new (&c->tmp, c->width, c->height, c->depth))
      return CM_ERR_NO_MEMORY;
  }
  return CM_OK;
}

cm_status
cm_recon_cpu_new (cm_recon_cpu ** out, const cm_recon_desc * desc,
    int width, int height, cm_depth depth, const cm_cpu_opts * opts)
{
  cm_recon_cpu *c;
  cm_status st;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!cm_recon_desc_ok (desc) || !cm_frame_ok (width, height, depth))
    return CM_ERR_INVALID_ARG;
  /* plane indices and entries (at most two a pixel) are 32-bit */
  if (((uint64_t) width + 2) * ((uint64_t) height + 2) > INT32_MAX)
    return CM_ERR_UNSUPPORTED;
  c = calloc (1, sizeof (*c));
  if (c == NULL)
    return CM_ERR_NO_MEMORY;
  c->desc = *desc;
  c->opts = opts;
  c->width = width;
  c->height = height;
  c->depth = depth;
  st = plan_init (c);
  if (st != CM_OK) {
    cm_recon_cpu_free (c);
    return st;
  }
  *out = c;
  return CM_OK;
}

cm_status
cm_recon_cpu_run (cm_recon_cpu * c, const cm_image * src,
    const cm_image * dst)
{
  const cm_recon_op op = c != NULL ? c->desc.op : CM_RECON_FILL_HOLES;
  const uint32_t maxv = c != NULL ? cm_depth_max (c->depth) : 0;
  const uint32_t hgt = c != NULL ? RC_MIN (c->desc.height, maxv) : 0;
  /* by erosion: the complements (reconstruct.h gives each op's mode) */
  const int flip = op == CM_RECON_FILL_HOLES || op == CM_RECON_CLOSE ||
      op == CM_RECON_HMIN || op == CM_RECON_HBASIN;
  /* f - g (clear border, h-dome), g - f (h-basin): mask less marker */
  const int residue = op == CM_RECON_CLEAR_BORDER || op == CM_RECON_HDOME ||
      op == CM_RECON_HBASIN;
  const rc_marker kind = op == CM_RECON_FILL_HOLES ||
      op == CM_RECON_CLEAR_BORDER ? RC_MARKER_BORDER :
      op == CM_RECON_OPEN || op == CM_RECON_CLOSE ? RC_MARKER_IMAGE :
      RC_MARKER_SUB;
  cm_status st;

  /* as the reference: dst may overlap src (src is read whole first),
   * though not start where it does */
  if (c == NULL || !cm_image_ok (src) || !cm_image_ok (dst) ||
      src->data == dst->data || src->width != c->width ||
      src->height != c->height || src->depth != c->depth ||
      dst->width != c->width || dst->height != c->height ||
      dst->depth != c->depth)
    return CM_ERR_INVALID_ARG;
  if (kind == RC_MARKER_IMAGE) {
    st = cm_filter_run (c->morph, src, &c->tmp, NULL);
    if (st != CM_OK)
      return st;
  }
  /* h-min's marker min (f + h, max), complemented, is the complement
   * less h: every h-op subtracts */
  if (c->depth == CM_DEPTH_8) {
    load_mask_u8 (c, src, flip);
    load_marker_u8 (c, kind, (uint8_t) hgt, &c->tmp, flip);
    st = reconstruct_u8 (c);
    if (st == CM_OK)
      store_u8 (c, dst, flip, residue);
  } else {
    load_mask_u16 (c, src, flip);
    load_marker_u16 (c, kind, (uint16_t) hgt, &c->tmp, flip);
    st = reconstruct_u16 (c);
    if (st == CM_OK)
      store_u16 (c, dst, flip, residue);
  }
  return st;
}
