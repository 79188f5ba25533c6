/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU backend of morphology (morph-cpu.h): exactly cm_morph_ref's
 * result, by row passes instead of one pass per offset of the SE.
 *
 * An erosion (dilation: the reflected SE) is a min over the runs of the
 * SE's rows: the run (dy, a, len) takes the min of the border-extended
 * source row y + dy over columns x + a .. x + a + len - 1. Each extended
 * source row gets its levels once, level j holding the min of 2^j
 * consecutive samples; a run is then the min of two level-j samples,
 * j = floor (log2 len), which overlap (the sparse table of range-minimum
 * queries). A full rectangle is separable: van Herk/Gil-Werman down the
 * columns (3 row operations a row whatever its height), then one run per
 * row; a contiguous diagonal line is the same column pass on rows read
 * along the line (morph-cpu-rows.h, diagonal_rows). The border rules extend each axis on its own (an index map, the
 * constant, or NEUTRAL's identity that never wins), which is what makes
 * the rectangle's two passes equal to the definition at the border too.
 * Composite operations apply the rule at every stage, as the reference.
 */
#include "morph-cpu.h"

#include "cm-align.h"
#include "cpu-bands.h"
#include "cm-sample.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* samples a vectorised loop takes at once (see morph-cpu-rows.h) */
#define CPU_BLOCK 64

/* per band, beyond which the chords' ring of levels is not built */
#define CPU_MAX_SCRATCH ((size_t) 64 << 20)

typedef struct
{
  int dy, a, len;
} cpu_run;

/* An SE as the fast path uses it, for erosion (B) or dilation (-B) */
typedef struct
{
  int separable;                /* a full rectangle */
  int diagonal;                 /* a contiguous line at 45 or 135 degrees */
  int step;                     /* diagonal: the column's move a row */
  int dy0, h;                   /* rows dy0 .. dy0 + h - 1 */
  int a, len;                   /* separable: every row's run */
  cpu_run *runs;                /* chords: every run, by dy */
  int n_runs;
  int pad_l, pad_r, k;          /* columns beyond each side, top level */
} cpu_shape;

static inline int
cpu_log2 (int n)
{
  int j = 0;

  while ((2 << j) <= n)
    j++;
  return j;
}

#define T uint8_t
#define SFX _u8
#include "morph-cpu-rows.h"
#undef T
#undef SFX
#define T uint16_t
#define SFX _u16
#include "morph-cpu-rows.h"
#undef T
#undef SFX

/* @s from @se's row runs, reflected for a dilation. */
static cm_status
shape_init (cpu_shape * s, const cm_se * se, int reflect)
{
  cm_se_run *runs;
  int n, max_len = 1;
  cm_status st;

  memset (s, 0, sizeof (*s));
  st = cm_se_runs (se, 0, &runs, &n);
  if (st != CM_OK)
    return st;
  if (n == 0) {
    free (runs);
    return CM_ERR_INVALID_ARG;
  }
  s->runs = malloc (sizeof (cpu_run) * (size_t) n);
  if (s->runs == NULL) {
    free (runs);
    return CM_ERR_NO_MEMORY;
  }
  s->n_runs = n;
  for (int i = 0; i < n; i++) {
    cpu_run *r = &s->runs[i];

    r->len = runs[i].len;
    r->dy = reflect ? -runs[i].fixed : runs[i].fixed;
    r->a = reflect ? -(runs[i].start + runs[i].len - 1) : runs[i].start;
    if (r->len > max_len)
      max_len = r->len;
    if (i == 0 || r->dy < s->dy0)
      s->dy0 = r->dy;
    if (i == 0 || -r->a > s->pad_l)
      s->pad_l = -r->a;
    if (i == 0 || r->a + r->len - 1 > s->pad_r)
      s->pad_r = r->a + r->len - 1;
  }
  free (runs);
  for (int i = 0; i < n; i++)
    if (s->runs[i].dy - s->dy0 + 1 > s->h)
      s->h = s->runs[i].dy - s->dy0 + 1;
  s->pad_l = s->pad_l > 0 ? s->pad_l : 0;
  s->pad_r = s->pad_r > 0 ? s->pad_r : 0;
  s->k = cpu_log2 (max_len);
  /* a full rectangle: one run a row, all alike */
  s->separable = se->count == se->width * se->height && n == se->height;
  s->a = s->runs[0].a;
  s->len = s->runs[0].len;
  /* one sample a row, each a column to the side of the one above it */
  if (!s->separable && n == s->h && n >= 2 && max_len == 1) {
    int step = 0, first = 0, ok = 1;

    for (int i = 0; i < n; i++)
      if (s->runs[i].dy == s->dy0)
        first = i;
    for (int i = 0; i < n && ok; i++) {
      int d = s->runs[i].dy - s->dy0, da = s->runs[i].a - s->runs[first].a;

      if (d == 1)
        step = da;
      ok = d == 0 || da == d || da == -d;
    }
    for (int i = 0; i < n && ok; i++)
      ok = s->runs[i].a - s->runs[first].a ==
          step * (s->runs[i].dy - s->dy0);
    if (ok && (step == 1 || step == -1)) {
      s->diagonal = 1;
      s->step = step;
      s->a = s->runs[first].a;
    }
  }
  return CM_OK;
}

/* scratch samples of one band */
static size_t
shape_scratch (const cpu_shape * s, int width)
{
  size_t stride = (size_t) (s->pad_l + width + s->pad_r);

  if (s->separable)
    return (size_t) (s->h + 2) * width + stride * (size_t) (s->k + 1);
  if (s->diagonal)                      /* h + 2 rows of w + h, the fill */
    return (size_t) (s->h + 2) * (size_t) (width + s->h) + width;
  /* h ints (counted as samples: enough for either depth), the fill row,
   * the ring */
  return cm_align64 ((size_t) s->h * sizeof (int)) + cm_align64 (width) +
      (size_t) s->h * stride * (size_t) (s->k + 1);
}

/* ---- stages --------------------------------------------------------- */

struct cm_morph_cpu
{
  cm_morph_desc desc;           /* desc.se is se */
  cm_se *se;
  const cm_cpu_opts *opts;
  int width, height;
  cm_depth depth;
  cpu_shape ero, dil;
  void **scratch;               /* per band */
  int bands;
  cm_image tmp[3];              /* iterations' ping-pong, a composite's half */
};

typedef cm_morph_cpu cpu_ctx;

typedef struct
{
  const cpu_ctx *c;
  const cpu_shape *s;
  int is_min;
  const cm_image *in, *out;
} cpu_stage;

static cm_status
stage_band (void *data, int band, int y0, int y1)
{
  const cpu_stage *st = data;
  const cm_morph_desc *d = &st->c->desc;
  const uint32_t maxv = cm_depth_max (st->in->depth);
  uint32_t fill = d->border == CM_BORDER_CONSTANT ?
      (d->border_value < maxv ? d->border_value : maxv) :
      (st->is_min ? maxv : 0);
  void *scratch = st->c->scratch[band];
  int cancelled = 0;

  if (st->in->depth == CM_DEPTH_8)
    shape_rows_u8 (st->s, st->is_min, d->border, (uint8_t) fill, st->in,
        st->out, y0, y1, scratch, st->c->opts, &cancelled);
  else
    shape_rows_u16 (st->s, st->is_min, d->border, (uint16_t) fill, st->in,
        st->out, y0, y1, scratch, st->c->opts, &cancelled);
  return cancelled ? CM_ERR_CANCELLED : CM_OK;
}

/* One erosion (is_min) or dilation of @in into @out; 0 when cancelled */
static int
stage (const cpu_ctx * c, int is_min, const cm_image * in,
    const cm_image * out)
{
  cpu_stage s = { c, is_min ? &c->ero : &c->dil, is_min, in, out };

  return cm_cpu_bands (c->opts, in->height, stage_band, &s) == CM_OK;
}

/* `iterations` stages, the last into @out, the others ping-pong between
 * tmp[0] and tmp[1]; 0 when cancelled */
static int
repeat (const cpu_ctx * c, int is_min, const cm_image * src,
    const cm_image * out)
{
  const cm_image *in = src;

  for (int i = 0; i < c->desc.iterations; i++) {
    const cm_image *o = i == c->desc.iterations - 1 ? out : &c->tmp[i % 2];

    if (!stage (c, is_min, in, o))
      return 0;
    in = o;
  }
  return 1;
}

/* dst = max (dst - b, 0), or max (b - dst, 0) when @from */
static void
saturating_diff (const cm_image * dst, const cm_image * b, int from)
{
  for (int y = 0; y < dst->height; y++) {
    const void *rb = (const uint8_t *) b->data + (size_t) y * b->pitch;
    void *rd = (uint8_t *) dst->data + (size_t) y * dst->pitch;

    if (dst->depth == CM_DEPTH_8)
      row_sub_u8 (rd, rb, dst->width, from);
    else
      row_sub_u16 (rd, rb, dst->width, from);
  }
}

void
cm_morph_cpu_free (cm_morph_cpu * c)
{
  if (c == NULL)
    return;
  free (c->ero.runs);
  free (c->dil.runs);
  if (c->scratch != NULL)
    for (int i = 0; i < c->bands; i++)
      free (c->scratch[i]);
  free (c->scratch);
  for (int i = 0; i < 3; i++)
    free (c->tmp[i].data);
  cm_se_free (c->se);
  free (c);
}

/* 16-bit rows are read and written as uint16_t */
static int
aligned_for (const cm_image * img)
{
  size_t b = (size_t) cm_depth_bytes (img->depth);

  return (uintptr_t) img->data % b == 0 && img->pitch % b == 0;
}

static cm_status
plan_init (cm_morph_cpu * c, const cm_morph_desc * desc)
{
  const size_t bpp = (size_t) cm_depth_bytes (c->depth);
  size_t need;
  cm_status st;

  c->se = cm_se_copy (desc->se);
  if (c->se == NULL)
    return CM_ERR_NO_MEMORY;
  c->desc = *desc;
  c->desc.se = c->se;
  st = shape_init (&c->ero, c->se, 0);
  if (st == CM_OK)
    st = shape_init (&c->dil, c->se, 1);
  if (st != CM_OK)
    return st;
  need = shape_scratch (&c->ero, c->width);
  if (shape_scratch (&c->dil, c->width) > need)
    need = shape_scratch (&c->dil, c->width);
  if (need * bpp > CPU_MAX_SCRATCH)
    return CM_ERR_UNSUPPORTED;
  c->bands = cm_cpu_band_count (c->opts, c->height);
  c->scratch = calloc ((size_t) c->bands, sizeof (void *));
  if (c->scratch == NULL)
    return CM_ERR_NO_MEMORY;
  for (int i = 0; i < c->bands; i++)
    if ((c->scratch[i] = malloc (need * bpp)) == NULL)
      return CM_ERR_NO_MEMORY;
  for (int i = 0; i < 3; i++) {
    int needed = i < 2 ? desc->iterations > 1 :
        desc->op != CM_MORPH_ERODE && desc->op != CM_MORPH_DILATE;

    if (!needed)
      continue;
    if (!cm_image_host_new (&c->tmp[i], c->width, c->height, c->depth))
      return CM_ERR_NO_MEMORY;
  }
  return CM_OK;
}

cm_status
cm_morph_cpu_new (cm_morph_cpu ** out, const cm_morph_desc * desc,
    int width, int height, cm_depth depth, const cm_cpu_opts * opts)
{
  cm_morph_cpu *c;
  cm_status st;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!cm_morph_desc_ok (desc) || !cm_frame_ok (width, height, depth))
    return CM_ERR_INVALID_ARG;
  c = calloc (1, sizeof (*c));
  if (c == NULL)
    return CM_ERR_NO_MEMORY;
  c->opts = opts;
  c->width = width;
  c->height = height;
  c->depth = depth;
  st = plan_init (c, desc);
  if (st != CM_OK) {
    cm_morph_cpu_free (c);
    return st;
  }
  *out = c;
  return CM_OK;
}

cm_status
cm_morph_cpu_run (cm_morph_cpu * c, const cm_image * src,
    const cm_image * dst)
{
  const cm_morph_desc *desc;
  int ok = 1, opening;

  if (c == NULL || !cm_image_pair_ok (src, dst) || src->width != c->width ||
      src->height != c->height || src->depth != c->depth)
    return CM_ERR_INVALID_ARG;
  if (!aligned_for (src) || !aligned_for (dst))
    return CM_ERR_UNSUPPORTED;
  desc = &c->desc;
  switch (desc->op) {
    case CM_MORPH_ERODE:
    case CM_MORPH_DILATE:
      ok = repeat (c, desc->op == CM_MORPH_ERODE, src, dst);
      break;
    case CM_MORPH_OPEN:
    case CM_MORPH_TOPHAT:
    case CM_MORPH_CLOSE:
    case CM_MORPH_BLACKHAT:
      opening = desc->op == CM_MORPH_OPEN || desc->op == CM_MORPH_TOPHAT;
      ok = repeat (c, opening, src, &c->tmp[2]) &&
          repeat (c, !opening, &c->tmp[2], dst);
      /* top-hat: src - open; black-hat: close - src */
      if (ok && desc->op == CM_MORPH_TOPHAT)
        saturating_diff (dst, src, 1);
      if (ok && desc->op == CM_MORPH_BLACKHAT)
        saturating_diff (dst, src, 0);
      break;
    case CM_MORPH_GRADIENT:
      ok = repeat (c, 0, src, dst) && repeat (c, 1, src, &c->tmp[2]);
      if (ok)
        saturating_diff (dst, &c->tmp[2], 0);
      break;
  }
  return ok ? CM_OK : CM_ERR_CANCELLED;
}

const char *
cm_morph_cpu_algorithm (const cm_morph_cpu * c)
{
  if (c == NULL)
    return "none";
  if (c->ero.diagonal)
    return "cpu-diagonal";
  return c->ero.separable ? "cpu-separable" : "cpu-chords";
}
