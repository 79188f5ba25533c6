/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU reference of grey-level morphology, written as the definitions of
 * docs/design.md: every output sample is the min (max) over the set
 * offsets of the SE of the border-extended input. It is the oracle of every
 * test and the CPU backend of the elements, so it is organised to stay
 * cheap without changing what it computes:
 *
 *  - the offset list is extracted from the mask once per call;
 *  - an output row is accumulated offset by offset (acc[x] = min (acc[x],
 *    f_b (x + dx, y + dy)) for all x), so the in-range part of every row is
 *    a plain loop the compiler vectorises, and the border rule is evaluated
 *    only for the samples that fall outside the image. */
#include "morph.h"

#include "cpu-bands.h"
#include "cm-sample.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
  int dx, dy;
} ref_offset;

static inline const uint8_t *
row_ptr (const cm_image * img, int y)
{
  return (const uint8_t *) img->data + (size_t) y * img->pitch;
}

static int
border_ok (cm_border_mode b)
{
  return (int) b >= 0 && (int) b < CM_BORDER_MODE_COUNT;
}

int
cm_morph_desc_ok (const cm_morph_desc * desc)
{
  return desc != NULL && desc->se != NULL && desc->iterations >= 1 &&
      border_ok (desc->border) && (int) desc->op >= 0 &&
      (int) desc->op < CM_MORPH_OP_COUNT;
}

/* The set offsets of se, negated when `negate` (the reflected SE -B).
 * CM_ERR_INVALID_ARG for a malformed or empty SE. */
static cm_status
offsets_new (const cm_se * se, int negate, ref_offset ** out, int *count)
{
  ref_offset *list;
  int n = 0;

  *out = NULL;
  *count = 0;
  if (!cm_se_ok (se))
    return CM_ERR_INVALID_ARG;
  for (size_t i = 0; i < (size_t) se->width * (size_t) se->height; i++)
    n += se->mask[i] != 0;
  if (n == 0)
    return CM_ERR_INVALID_ARG;
  list = malloc (sizeof (ref_offset) * (size_t) n);
  if (!list)
    return CM_ERR_NO_MEMORY;
  n = 0;
  for (int r = 0; r < se->height; r++) {
    for (int c = 0; c < se->width; c++) {
      if (!se->mask[(size_t) r * se->width + c])
        continue;
      list[n].dx = negate ? se->origin_x - c : c - se->origin_x;
      list[n].dy = negate ? se->origin_y - r : r - se->origin_y;
      n++;
    }
  }
  *out = list;
  *count = n;
  return CM_OK;
}

/* a[i] = min/max (a[i], r[i]) for i in [0, n), 8 or 16-bit r */
static inline void
min_u8 (uint16_t * restrict a, const uint8_t * restrict r, int n)
{
  for (int i = 0; i < n; i++)
    a[i] = r[i] < a[i] ? r[i] : a[i];
}

static inline void
max_u8 (uint16_t * restrict a, const uint8_t * restrict r, int n)
{
  for (int i = 0; i < n; i++)
    a[i] = r[i] > a[i] ? r[i] : a[i];
}

static inline void
min_u16 (uint16_t * restrict a, const uint8_t * restrict r, int n)
{
  for (int i = 0; i < n; i++) {
    uint16_t v;
    memcpy (&v, r + 2 * i, 2);
    a[i] = v < a[i] ? v : a[i];
  }
}

static inline void
max_u16 (uint16_t * restrict a, const uint8_t * restrict r, int n)
{
  for (int i = 0; i < n; i++) {
    uint16_t v;
    memcpy (&v, r + 2 * i, 2);
    a[i] = v > a[i] ? v : a[i];
  }
}

/* Blocks of a fixed length: with a constant trip count GCC vectorises
 * these loops at -O2 too (its default cost model there refuses loops that
 * would need a scalar epilogue), several times faster on 1080p frames
 * (docs/bench/history.md, "Figures moved from code comments"). */
#define ACC_BLOCK 32

#define ACC_BLOCKED(fn, a, r, n, bpp) do { \
    int nb_ = (n) - (n) % ACC_BLOCK; \
    for (int i_ = 0; i_ < nb_; i_ += ACC_BLOCK) \
      fn ((a) + i_, (r) + (ptrdiff_t) i_ * (bpp), ACC_BLOCK); \
    fn ((a) + nb_, (r) + (ptrdiff_t) nb_ * (bpp), (n) - nb_); \
  } while (0)

/* acc[x] = min/max (acc[x], row[x + dx]) for x in [x0, x1), all of whose
 * x + dx lie in the row */
static void
acc_row (uint16_t * acc, const uint8_t * row, int dx, int x0, int x1,
    int bpp, int is_min)
{
  int n = x1 - x0;
  uint16_t *a = acc + x0;
  const uint8_t *r;

  if (n <= 0)
    return;
  r = row + (ptrdiff_t) (x0 + dx) * bpp;
  if (bpp == 1) {
    if (is_min)
      ACC_BLOCKED (min_u8, a, r, n, 1);
    else
      ACC_BLOCKED (max_u8, a, r, n, 1);
  } else {
    if (is_min)
      ACC_BLOCKED (min_u16, a, r, n, 2);
    else
      ACC_BLOCKED (max_u16, a, r, n, 2);
  }
}

static void
acc_value (uint16_t * acc, uint16_t v, int x0, int x1, int is_min)
{
  if (is_min) {
    for (int x = x0; x < x1; x++)
      acc[x] = v < acc[x] ? v : acc[x];
  } else {
    for (int x = x0; x < x1; x++)
      acc[x] = v > acc[x] ? v : acc[x];
  }
}

/* Out-of-range columns [x0, x1) of offset dx, source row `row`: the
 * constant for CONSTANT, nothing for NEUTRAL (its value never wins), the
 * mapped column otherwise. */
static void
acc_border (uint16_t * acc, const uint8_t * row, int x0, int x1, int dx,
    int width, int bpp, int is_min, cm_border_mode border, uint16_t cval)
{
  if (border == CM_BORDER_NEUTRAL)
    return;
  if (border == CM_BORDER_CONSTANT) {
    acc_value (acc, cval, x0, x1, is_min);
    return;
  }
  for (int x = x0; x < x1; x++) {
    uint16_t v =
        (uint16_t) cm_load_sample (row, cm_border_map (border, x + dx, width),
        bpp);
    if (is_min ? v < acc[x] : v > acc[x])
      acc[x] = v;
  }
}

/* One erosion (is_min) or dilation (!is_min): out(x, y) = min/max over the
 * offsets of f_b (x + dx, y + dy). acc holds src->width samples. */
/* Rows [y0, y1) of one erosion or dilation (below); returns 0 when
 * @cancel was set before it finished. */
static int
extreme_rows (const ref_offset * offs, int n, int is_min,
    cm_border_mode border, uint32_t border_value, const cm_image * src,
    const cm_image * dst, uint16_t * acc, int y0, int y1,
    const cm_cpu_opts * opts)
{
  const int w = src->width, h = src->height;
  const int bpp = cm_depth_bytes (src->depth);
  const uint32_t maxv = cm_depth_max (src->depth);
  const uint16_t cval =
      (uint16_t) (border_value < maxv ? border_value : maxv);
  /* the identity of min/max, which is also what NEUTRAL contributes */
  const uint16_t init = (uint16_t) (is_min ? maxv : 0);

  for (int y = y0; y < y1; y++) {
    uint8_t *out = (uint8_t *) dst->data + (size_t) y * dst->pitch;

    if (cm_cpu_cancelled (opts))
      return 0;
    for (int x = 0; x < w; x++)
      acc[x] = init;

    for (int k = 0; k < n; k++) {
      int dx = offs[k].dx, sy = y + offs[k].dy;
      int x0, x1;
      const uint8_t *row;

      if (sy < 0 || sy >= h) {
        /* the whole row lies outside */
        if (border == CM_BORDER_NEUTRAL)
          continue;
        if (border == CM_BORDER_CONSTANT) {
          acc_value (acc, cval, 0, w, is_min);
          continue;
        }
        sy = cm_border_map (border, sy, h);
      }
      row = row_ptr (src, sy);

      /* x + dx is in range for x in [x0, x1) */
      x0 = -dx < 0 ? 0 : (-dx > w ? w : -dx);
      x1 = w - dx > w ? w : w - dx;
      if (x1 < x0)
        x1 = x0;
      acc_border (acc, row, 0, x0, dx, w, bpp, is_min, border, cval);
      acc_row (acc, row, dx, x0, x1, bpp, is_min);
      acc_border (acc, row, x1, w, dx, w, bpp, is_min, border, cval);
    }

    if (bpp == 1) {
      for (int x = 0; x < w; x++)
        out[x] = (uint8_t) acc[x];
    } else {
      /* acc holds host-order uint16 samples: the row is a plain copy */
      memcpy (out, acc, 2 * (size_t) w);
    }
  }
  return 1;
}

/* One erosion (is_min) or dilation (!is_min) of every row. */
static void
extreme_run (const ref_offset * offs, int n, int is_min, cm_border_mode border,
    uint32_t border_value, const cm_image * src, const cm_image * dst,
    uint16_t * acc)
{
  extreme_rows (offs, n, is_min, border, border_value, src, dst, acc, 0,
      src->height, NULL);
}

cm_status
cm_morph_ref_rank_extreme (const cm_se * se, int is_min,
    cm_border_mode border, uint32_t border_value, const cm_image * src,
    const cm_image * dst)
{
  ref_offset *offs;
  uint16_t *acc;
  cm_status st;
  int n;

  if (!border_ok (border) || !cm_image_pair_ok (src, dst))
    return CM_ERR_INVALID_ARG;
  st = offsets_new (se, 0, &offs, &n);
  if (st != CM_OK)
    return st;
  acc = malloc (sizeof (uint16_t) * (size_t) src->width);
  if (!acc) {
    free (offs);
    return CM_ERR_NO_MEMORY;
  }
  extreme_run (offs, n, is_min != 0, border, border_value, src, dst, acc);
  free (acc);
  free (offs);
  return CM_OK;
}

/* State of one cm_morph_ref call: offsets of B (erosion) and -B
 * (dilation), the row accumulator and the host temporaries. */
typedef struct
{
  const cm_morph_desc *desc;
  ref_offset *ero, *dil;
  int n_ero, n_dil;
  uint16_t *acc;                /* width samples per band */
  cm_image tmp[3];
  const cm_cpu_opts *opts;
} ref_ctx;

/* One erosion or dilation of a stage, for cm_cpu_bands. */
typedef struct
{
  const ref_ctx *c;
  const ref_offset *offs;
  int n, is_min;
  const cm_image *in, *out;
} ref_stage;

static cm_status
stage_band (void *data, int band, int y0, int y1)
{
  const ref_stage *s = data;
  const cm_morph_desc *d = s->c->desc;

  return extreme_rows (s->offs, s->n, s->is_min, d->border, d->border_value,
      s->in, s->out, s->c->acc + (size_t) band * s->in->width, y0, y1,
      s->c->opts) ? CM_OK : CM_ERR_CANCELLED;
}

/* One erosion or dilation of @in into @out, its rows split among the
 * threads; 0 when cancelled. */
static int
stage (const ref_ctx * c, int is_min, const cm_image * in,
    const cm_image * out)
{
  ref_stage s = { c, is_min ? c->ero : c->dil, is_min ? c->n_ero : c->n_dil,
    is_min, in, out
  };

  return cm_cpu_bands (c->opts, in->height, stage_band, &s) == CM_OK;
}

/* `iterations` erosions (is_min) or dilations of src, the last one written
 * to out. Intermediate results ping-pong between tmp[0] and tmp[1].
 * Returns 0 when cancelled. */
static int
repeat (ref_ctx * c, int is_min, const cm_image * src, const cm_image * out)
{
  const cm_morph_desc *d = c->desc;
  const cm_image *in = src;

  for (int i = 0; i < d->iterations; i++) {
    const cm_image *o = i == d->iterations - 1 ? out : &c->tmp[i % 2];

    if (!stage (c, is_min, in, o))
      return 0;
    in = o;
  }
  return 1;
}

/* dst = max (a - b, 0), sample by sample; dst may be a or b. */
static void
saturating_diff (const cm_image * a, const cm_image * b, const cm_image * dst)
{
  const int bpp = cm_depth_bytes (dst->depth);

  for (int y = 0; y < dst->height; y++) {
    const uint8_t *ra = row_ptr (a, y), *rb = row_ptr (b, y);
    uint8_t *rd = (uint8_t *) dst->data + (size_t) y * dst->pitch;

    for (int x = 0; x < dst->width; x++) {
      uint32_t va = cm_load_sample (ra, x, bpp), vb = cm_load_sample (rb, x, bpp);
      cm_store_sample (rd, x, bpp, va > vb ? va - vb : 0);
    }
  }
}

static void
ctx_clear (ref_ctx * c)
{
  free (c->ero);
  free (c->dil);
  free (c->acc);
  for (int i = 0; i < 3; i++)
    free (c->tmp[i].data);
}

cm_status
cm_morph_ref (const cm_morph_desc * desc, const cm_image * src,
    const cm_image * dst)
{
  return cm_morph_ref_mt (desc, src, dst, NULL);
}

cm_status
cm_morph_ref_mt (const cm_morph_desc * desc, const cm_image * src,
    const cm_image * dst, const cm_cpu_opts * opts)
{
  ref_ctx c;
  cm_status st;
  int need_pp, need_half, opening, ok = 1;

  if (!cm_morph_desc_ok (desc) || !cm_image_pair_ok (src, dst))
    return CM_ERR_INVALID_ARG;

  memset (&c, 0, sizeof (c));
  c.desc = desc;
  c.opts = opts;
  st = offsets_new (desc->se, 0, &c.ero, &c.n_ero);
  if (st == CM_OK)
    st = offsets_new (desc->se, 1, &c.dil, &c.n_dil);
  if (st != CM_OK) {
    ctx_clear (&c);
    return st;
  }

  /* tmp[0], tmp[1]: ping-pong of the iterations; tmp[2]: the first half of
   * a composite (erosion of open, dilation of close, erosion of gradient).
   * Top-hat and black-hat compute open/close into dst and subtract in
   * place, so they need no more. */
  need_pp = desc->iterations > 1;
  need_half = desc->op != CM_MORPH_ERODE && desc->op != CM_MORPH_DILATE;
  c.acc = malloc (sizeof (uint16_t) * (size_t) src->width *
      (size_t) cm_cpu_band_count (opts, src->height));
  if (!c.acc) {
    ctx_clear (&c);
    return CM_ERR_NO_MEMORY;
  }
  for (int i = 0; i < 3; i++) {
    if (i < 2 ? !need_pp : !need_half)
      continue;
    if (!cm_image_host_new (&c.tmp[i], src->width, src->height,
            src->depth)) {
      ctx_clear (&c);
      return CM_ERR_NO_MEMORY;
    }
  }

  switch (desc->op) {
    case CM_MORPH_ERODE:
    case CM_MORPH_DILATE:
      ok = repeat (&c, desc->op == CM_MORPH_ERODE, src, dst);
      break;
    case CM_MORPH_OPEN:
    case CM_MORPH_TOPHAT:
    case CM_MORPH_CLOSE:
    case CM_MORPH_BLACKHAT:
      /* opening: erode, then dilate; closing: the other way round */
      opening = desc->op == CM_MORPH_OPEN || desc->op == CM_MORPH_TOPHAT;
      ok = repeat (&c, opening, src, &c.tmp[2]) &&
          repeat (&c, !opening, &c.tmp[2], dst);
      if (ok && desc->op == CM_MORPH_TOPHAT)
        saturating_diff (src, dst, dst);
      if (ok && desc->op == CM_MORPH_BLACKHAT)
        saturating_diff (dst, src, dst);
      break;
    case CM_MORPH_GRADIENT:
      ok = repeat (&c, 0, src, dst) && repeat (&c, 1, src, &c.tmp[2]);
      if (ok)
        saturating_diff (dst, &c.tmp[2], dst);
      break;
  }
  ctx_clear (&c);
  return ok ? CM_OK : CM_ERR_CANCELLED;
}

const char *
cm_morph_op_name (cm_morph_op op)
{
  switch (op) {
    case CM_MORPH_ERODE:
      return "erode";
    case CM_MORPH_DILATE:
      return "dilate";
    case CM_MORPH_OPEN:
      return "open";
    case CM_MORPH_CLOSE:
      return "close";
    case CM_MORPH_TOPHAT:
      return "tophat";
    case CM_MORPH_BLACKHAT:
      return "blackhat";
    case CM_MORPH_GRADIENT:
      return "gradient";
    default:
      return "unknown";
  }
}
