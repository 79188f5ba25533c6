/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Structuring elements: rasterisation of the shapes of docs/design.md
 * into binary masks, the custom mask parser, reflection and row/column runs
 * (the decomposition the GPU planner builds its passes from). */
#include "se.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Allocates an SE with a zeroed w x h mask and the origin at the centre
 * (w/2, h/2). Sizes are checked by the callers. */
static cm_se *
se_alloc (cm_shape shape, int w, int h)
{
  cm_se *se = calloc (1, sizeof (cm_se));

  if (!se)
    return NULL;
  se->mask = calloc ((size_t) w * (size_t) h, 1);
  if (!se->mask) {
    free (se);
    return NULL;
  }
  se->shape = shape;
  se->width = w;
  se->height = h;
  se->origin_x = w / 2;
  se->origin_y = h / 2;
  return se;
}

static void
se_count (cm_se * se)
{
  int n = 0;

  for (int i = 0; i < se->width * se->height; i++)
    n += se->mask[i] != 0;
  se->count = n;
}

static int
extent_ok (int v)
{
  return v >= 1 && v <= CM_SE_MAX_EXTENT;
}

static int
radius_ok (int r)
{
  return r >= 0 && r <= CM_SE_MAX_RADIUS;
}

/* The w x h shapes: the whole box (rect), or its centre row and centre
 * column, both through the origin (cross). */
static cm_status
se_new_box (cm_se ** out, cm_shape shape, int w, int h)
{
  cm_se *se;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!extent_ok (w) || !extent_ok (h))
    return CM_ERR_INVALID_ARG;
  se = se_alloc (shape, w, h);
  if (!se)
    return CM_ERR_NO_MEMORY;
  if (shape == CM_SHAPE_RECT) {
    memset (se->mask, 1, (size_t) w * (size_t) h);
  } else {
    memset (se->mask + (size_t) (h / 2) * w, 1, (size_t) w);
    for (int r = 0; r < h; r++)
      se->mask[(size_t) r * w + w / 2] = 1;
  }
  se->param_w = w;
  se->param_h = h;
  se_count (se);
  *out = se;
  return CM_OK;
}

cm_status
cm_se_new_rect (cm_se ** out, int w, int h)
{
  return se_new_box (out, CM_SHAPE_RECT, w, h);
}

cm_status
cm_se_new_cross (cm_se ** out, int w, int h)
{
  return se_new_box (out, CM_SHAPE_CROSS, w, h);
}

/* The radius shapes: a (2r+1) x (2r+1) box with the origin in the middle
 * and a pixel set where the predicate holds for its offset. */
static cm_status
se_new_radial (cm_se ** out, cm_shape shape, int r)
{
  int n = 2 * r + 1;
  cm_se *se;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!radius_ok (r))
    return CM_ERR_INVALID_ARG;
  se = se_alloc (shape, n, n);
  if (!se)
    return CM_ERR_NO_MEMORY;
  for (int dy = -r; dy <= r; dy++) {
    for (int dx = -r; dx <= r; dx++) {
      int ax = abs (dx), ay = abs (dy), set;

      switch (shape) {
        case CM_SHAPE_DIAMOND:
          set = ax + ay <= r;
          break;
        case CM_SHAPE_DISK:
          /* exact integer test; r <= 511 keeps this far from overflow */
          set = dx * dx + dy * dy <= r * r;
          break;
        default:               /* CM_SHAPE_OCTAGON */
          set = ax + ay <= r + r / 2;
          break;
      }
      se->mask[(size_t) (dy + r) * n + (dx + r)] = (uint8_t) set;
    }
  }
  se->param_r = r;
  se_count (se);
  *out = se;
  return CM_OK;
}

cm_status
cm_se_new_diamond (cm_se ** out, int r)
{
  return se_new_radial (out, CM_SHAPE_DIAMOND, r);
}

cm_status
cm_se_new_disk (cm_se ** out, int r)
{
  return se_new_radial (out, CM_SHAPE_DISK, r);
}

cm_status
cm_se_new_octagon (cm_se ** out, int r)
{
  return se_new_radial (out, CM_SHAPE_OCTAGON, r);
}

cm_status
cm_se_new_line (cm_se ** out, int length, double angle_deg)
{
  int *ox, *oy;
  int min_x = 0, max_x = 0, min_y = 0, max_y = 0;
  double a, c, s, tn, ct;
  int half = length / 2, steep;
  cm_se *se;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!extent_ok (length) || !isfinite (angle_deg))
    return CM_ERR_INVALID_ARG;

  ox = malloc (sizeof (int) * (size_t) length);
  oy = malloc (sizeof (int) * (size_t) length);
  if (!ox || !oy) {
    free (ox);
    free (oy);
    return CM_ERR_NO_MEMORY;
  }

  /* The formula of docs/design.md, evaluated literally (no reduction
   * of the angle): kernels and tests take the offsets from this mask, so
   * whatever double rounding does near 45 degrees is decided here, once. */
  a = angle_deg * M_PI / 180.0;
  c = cos (a);
  s = sin (a);
  steep = !(fabs (c) >= fabs (s));
  tn = steep ? 0.0 : tan (a);
  ct = steep ? c / s : 0.0;     /* |s| > |c| >= 0 here, so s != 0 */
  for (int i = 0; i < length; i++) {
    int t = i - half;

    if (!steep) {
      ox[i] = t;
      oy[i] = -(int) lround (t * tn);
    } else {
      ox[i] = (int) lround (t * ct);
      oy[i] = -t;
    }
    /* t = 0 gives (0, 0), so the box always contains the origin */
    if (ox[i] < min_x)
      min_x = ox[i];
    if (ox[i] > max_x)
      max_x = ox[i];
    if (oy[i] < min_y)
      min_y = oy[i];
    if (oy[i] > max_y)
      max_y = oy[i];
  }

  /* |t| < length on the driving axis and |lround (t * ratio)| <= |t| on the
   * other (|ratio| <= 1 up to rounding), so the box fits the limits. */
  se = se_alloc (CM_SHAPE_LINE, max_x - min_x + 1, max_y - min_y + 1);
  if (!se) {
    free (ox);
    free (oy);
    return CM_ERR_NO_MEMORY;
  }
  se->origin_x = -min_x;
  se->origin_y = -min_y;
  for (int i = 0; i < length; i++)
    se->mask[(size_t) (oy[i] - min_y) * se->width + (ox[i] - min_x)] = 1;
  free (ox);
  free (oy);
  se->param_len = length;
  se->param_angle = angle_deg;
  se_count (se);
  *out = se;
  return CM_OK;
}

static int
is_blank (char ch)
{
  return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

cm_status
cm_se_new_custom (cm_se ** out, const char *mask)
{
  int rows = 0, cols = -1, cur = 0, ones = 0;
  cm_se *se;
  int i;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!mask)
    return CM_ERR_PARSE;

  /* First pass: validate and measure. A row ends at ';' or at the end of
   * the string; every row, the last included, must be non-empty and as
   * long as the first. */
  for (const char *p = mask;; p++) {
    char ch = *p;

    if (ch == '0' || ch == '1') {
      if (++cur > CM_SE_MAX_CUSTOM)
        return CM_ERR_PARSE;
      ones += ch == '1';
    } else if (ch == ';' || ch == '\0') {
      if (cur == 0 || (cols >= 0 && cur != cols))
        return CM_ERR_PARSE;
      cols = cur;
      cur = 0;
      if (++rows > CM_SE_MAX_CUSTOM)
        return CM_ERR_PARSE;
      if (ch == '\0')
        break;
    } else if (!is_blank (ch)) {
      return CM_ERR_PARSE;
    }
  }
  if (ones == 0)
    return CM_ERR_PARSE;

  se = se_alloc (CM_SHAPE_CUSTOM, cols, rows);
  if (!se)
    return CM_ERR_NO_MEMORY;
  i = 0;
  for (const char *p = mask; *p; p++) {
    if (*p == '0' || *p == '1')
      se->mask[i++] = (uint8_t) (*p == '1');
  }
  se->param_w = cols;
  se->param_h = rows;
  se_count (se);
  *out = se;
  return CM_OK;
}

cm_status
cm_se_new_from_mask (cm_se ** out, const uint8_t * mask, int width,
    int height, int origin_x, int origin_y)
{
  cm_se *se;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!mask || !extent_ok (width) || !extent_ok (height))
    return CM_ERR_INVALID_ARG;
  /* The origin must lie in the box: the planners size their halos from the
   * mask extents. */
  if (origin_x < 0 || origin_x >= width || origin_y < 0 || origin_y >= height)
    return CM_ERR_INVALID_ARG;
  se = se_alloc (CM_SHAPE_CUSTOM, width, height);
  if (!se)
    return CM_ERR_NO_MEMORY;
  for (size_t i = 0; i < (size_t) width * (size_t) height; i++)
    se->mask[i] = (uint8_t) (mask[i] != 0);
  se->origin_x = origin_x;
  se->origin_y = origin_y;
  se->param_w = width;
  se->param_h = height;
  se_count (se);
  /* an empty SE has no defined min/max */
  if (se->count == 0) {
    cm_se_free (se);
    return CM_ERR_INVALID_ARG;
  }
  *out = se;
  return CM_OK;
}

int
cm_se_ok (const cm_se * se)
{
  return se && se->mask && se->width >= 1 && se->height >= 1;
}

cm_se *
cm_se_copy (const cm_se * se)
{
  cm_se *copy;
  size_t n;

  if (!cm_se_ok (se))
    return NULL;
  n = (size_t) se->width * (size_t) se->height;
  copy = malloc (sizeof (cm_se));
  if (!copy)
    return NULL;
  *copy = *se;
  copy->mask = malloc (n);
  if (!copy->mask) {
    free (copy);
    return NULL;
  }
  memcpy (copy->mask, se->mask, n);
  return copy;
}

void
cm_se_free (cm_se * se)
{
  if (!se)
    return;
  free (se->mask);
  free (se);
}

/* Rotating the mask by 180 degrees and moving the origin to the mirrored
 * cell turns the offset (c - ox, r - oy) of every set cell into its
 * negation. Shape and parameters are kept: the reflection of a rectangle is
 * still a rectangle, but for even sizes its origin is no longer w/2, h/2,
 * so consumers must read origin_x/origin_y. */
cm_status
cm_se_reflect (const cm_se * se, cm_se ** out)
{
  cm_se *r;
  int w, h;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!cm_se_ok (se))
    return CM_ERR_INVALID_ARG;
  w = se->width;
  h = se->height;
  r = cm_se_copy (se);
  if (!r)
    return CM_ERR_NO_MEMORY;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      r->mask[(size_t) (h - 1 - y) * w + (w - 1 - x)] =
          se->mask[(size_t) y * w + x];
  r->origin_x = w - 1 - se->origin_x;
  r->origin_y = h - 1 - se->origin_y;
  *out = r;
  return CM_OK;
}

/* Mask cell at line `o`, position `i` along it: rows for axis 0, columns
 * for axis 1. */
static inline int
se_cell (const cm_se * se, int axis, int o, int i)
{
  if (axis == 0)
    return se->mask[(size_t) o * se->width + i];
  return se->mask[(size_t) i * se->width + o];
}

cm_status
cm_se_runs (const cm_se * se, int axis, cm_se_run ** runs, int *count)
{
  cm_se_run *list;
  int n = 0, outer, inner;

  if (runs)
    *runs = NULL;
  if (count)
    *count = 0;
  if (!cm_se_ok (se) || !runs ||
      !count || (axis != 0 && axis != 1))
    return CM_ERR_INVALID_ARG;

  /* Rows (axis 0): outer loop over rows, inner along the row; columns the
   * other way round. Walking outer then inner yields the runs sorted by
   * fixed, then start. At most (inner + 1) / 2 runs per line. */
  outer = axis == 0 ? se->height : se->width;
  inner = axis == 0 ? se->width : se->height;
  list = malloc (sizeof (cm_se_run) * (size_t) outer *
      (size_t) ((inner + 1) / 2));
  if (!list)
    return CM_ERR_NO_MEMORY;

  for (int o = 0; o < outer; o++) {
    int i = 0;

    while (i < inner) {
      int start;

      if (!se_cell (se, axis, o, i)) {
        i++;
        continue;
      }
      start = i;
      while (i < inner && se_cell (se, axis, o, i))
        i++;
      if (axis == 0) {
        list[n].fixed = o - se->origin_y;
        list[n].start = start - se->origin_x;
      } else {
        list[n].fixed = o - se->origin_x;
        list[n].start = start - se->origin_y;
      }
      list[n].len = i - start;
      n++;
    }
  }
  *runs = list;
  *count = n;
  return CM_OK;
}

void
cm_se_bounds (const cm_se * se, int *min_dx, int *max_dx, int *min_dy,
    int *max_dy)
{
  int x0 = 0, x1 = 0, y0 = 0, y1 = 0, any = 0;

  if (se && se->mask) {
    for (int r = 0; r < se->height; r++) {
      for (int c = 0; c < se->width; c++) {
        int dx = c - se->origin_x, dy = r - se->origin_y;

        if (!se->mask[(size_t) r * se->width + c])
          continue;
        if (!any || dx < x0)
          x0 = dx;
        if (!any || dx > x1)
          x1 = dx;
        if (!any || dy < y0)
          y0 = dy;
        if (!any || dy > y1)
          y1 = dy;
        any = 1;
      }
    }
  }
  if (min_dx)
    *min_dx = x0;
  if (max_dx)
    *max_dx = x1;
  if (min_dy)
    *min_dy = y0;
  if (max_dy)
    *max_dy = y1;
}

const char *
cm_shape_name (cm_shape shape)
{
  switch (shape) {
    case CM_SHAPE_RECT:
      return "rect";
    case CM_SHAPE_CROSS:
      return "cross";
    case CM_SHAPE_DIAMOND:
      return "diamond";
    case CM_SHAPE_DISK:
      return "disk";
    case CM_SHAPE_OCTAGON:
      return "octagon";
    case CM_SHAPE_LINE:
      return "line";
    case CM_SHAPE_CUSTOM:
      return "custom";
    default:
      return "unknown";
  }
}
