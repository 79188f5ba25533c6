/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Structuring elements: rasterisation of every shape against the formulas
 * of docs/design.md (evaluated here, independently of se.c), the
 * impulse response of a dilation, decompositions that must recombine, runs,
 * reflection, the custom mask parser and parameter validation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "morph/morph.h"
#include "morph/se.h"
#include "core-test.h"
#include "test-count.h"
#include "test-util.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---------------------------------------------------------------------- */
/* SE specifications shared by the tests below */

typedef struct
{
  cm_shape shape;
  int a, b;                     /* w, h / r / length */
  double angle;
  const char *custom;
} se_spec;

static cm_status
spec_new (const se_spec * sp, cm_se ** out)
{
  switch (sp->shape) {
    case CM_SHAPE_RECT:
      return cm_se_new_rect (out, sp->a, sp->b);
    case CM_SHAPE_CROSS:
      return cm_se_new_cross (out, sp->a, sp->b);
    case CM_SHAPE_DIAMOND:
      return cm_se_new_diamond (out, sp->a);
    case CM_SHAPE_DISK:
      return cm_se_new_disk (out, sp->a);
    case CM_SHAPE_OCTAGON:
      return cm_se_new_octagon (out, sp->a);
    case CM_SHAPE_LINE:
      return cm_se_new_line (out, sp->a, sp->angle);
    default:
      return cm_se_new_custom (out, sp->custom);
  }
}

static void
spec_name (const se_spec * sp, char *buf, size_t size)
{
  switch (sp->shape) {
    case CM_SHAPE_RECT:
    case CM_SHAPE_CROSS:
      snprintf (buf, size, "%s %dx%d", cm_shape_name (sp->shape), sp->a,
          sp->b);
      break;
    case CM_SHAPE_LINE:
      snprintf (buf, size, "line %d@%g", sp->a, sp->angle);
      break;
    case CM_SHAPE_CUSTOM:
      snprintf (buf, size, "custom \"%s\"", sp->custom);
      break;
    default:
      snprintf (buf, size, "%s r=%d", cm_shape_name (sp->shape), sp->a);
      break;
  }
}

static const int radii[] = { 0, 1, 2, 3, 7, 15 };
static const double line_angles[] =
    { 0, 45, 90, 135, 180, 30, 60, -20, 200, 0.5, 89.9 };
static const int line_lengths[] = { 1, 2, 3, 8, 41, 127 };
static const int box_sizes[][2] = {
  {1, 1}, {3, 3}, {4, 2}, {1, 5}, {6, 1}, {5, 6}, {2, 2}, {7, 4}, {9, 9}
};
static const char *customs[] = {
  "010;111;010", "0110;1101;0100", "1", "001;000;100", "11;10;01;11",
  "0001000"
};

/* All the shapes above as one list (built once in main) */
static se_spec all_specs[256];
static int n_specs;

static void
build_specs (void)
{
  for (int i = 0; i < N_OF (box_sizes); i++) {
    all_specs[n_specs++] = (se_spec) {
    CM_SHAPE_RECT, box_sizes[i][0], box_sizes[i][1], 0, NULL};
    all_specs[n_specs++] = (se_spec) {
    CM_SHAPE_CROSS, box_sizes[i][0], box_sizes[i][1], 0, NULL};
  }
  for (int i = 0; i < N_OF (radii); i++) {
    all_specs[n_specs++] = (se_spec) {
    CM_SHAPE_DIAMOND, radii[i], 0, 0, NULL};
    all_specs[n_specs++] = (se_spec) {
    CM_SHAPE_DISK, radii[i], 0, 0, NULL};
    all_specs[n_specs++] = (se_spec) {
    CM_SHAPE_OCTAGON, radii[i], 0, 0, NULL};
  }
  for (int i = 0; i < N_OF (line_angles); i++)
    for (int j = 0; j < N_OF (line_lengths); j++)
      all_specs[n_specs++] = (se_spec) {
      CM_SHAPE_LINE, line_lengths[j], 0, line_angles[i], NULL};
  for (int i = 0; i < N_OF (customs); i++)
    all_specs[n_specs++] = (se_spec) {
    CM_SHAPE_CUSTOM, 0, 0, 0, customs[i]};
}

/* ---------------------------------------------------------------------- */
/* Rasterisation against the formulas */

/* Set pixel of a box/radius shape at offset (dx, dy), from the formulas */
static int
formula_cell (const se_spec * sp, int dx, int dy)
{
  int w = sp->a, h = sp->b, r = sp->a;
  int ax = abs (dx), ay = abs (dy);

  switch (sp->shape) {
    case CM_SHAPE_RECT:
      return dx >= -(w / 2) && dx <= w - 1 - w / 2 && dy >= -(h / 2) &&
          dy <= h - 1 - h / 2;
    case CM_SHAPE_CROSS:
      return (dy == 0 && dx >= -(w / 2) && dx <= w - 1 - w / 2) ||
          (dx == 0 && dy >= -(h / 2) && dy <= h - 1 - h / 2);
    case CM_SHAPE_DIAMOND:
      return ax + ay <= r;
    case CM_SHAPE_DISK:
      return (long) dx *dx + (long) dy *dy <= (long) r *r;
    case CM_SHAPE_OCTAGON:
      return ax <= r && ay <= r && ax + ay <= r + r / 2;
    default:
      return 0;
  }
}

static void
check_box_shape (const se_spec * sp, const char *name)
{
  cm_se *se = NULL;
  cm_status st = spec_new (sp, &se);
  int radial = sp->shape != CM_SHAPE_RECT && sp->shape != CM_SHAPE_CROSS;
  int ew = radial ? 2 * sp->a + 1 : sp->a;
  int eh = radial ? 2 * sp->a + 1 : sp->b;
  int count = 0;

  checks++;
  if (st != CM_OK || !se) {
    FAIL ("%s: constructor returned %d", name, (int) st);
    return;
  }
  if (se->shape != sp->shape || se->width != ew || se->height != eh ||
      se->origin_x != ew / 2 || se->origin_y != eh / 2) {
    FAIL ("%s: shape %d size %dx%d origin (%d,%d), expected %dx%d (%d,%d)",
        name, (int) se->shape, se->width, se->height, se->origin_x,
        se->origin_y, ew, eh, ew / 2, eh / 2);
    cm_se_free (se);
    return;
  }
  if (radial ? se->param_r != sp->a : (se->param_w != sp->a ||
          se->param_h != sp->b))
    FAIL ("%s: parameters not recorded", name);
  for (int r = 0; r < eh; r++) {
    for (int c = 0; c < ew; c++) {
      int dx = c - ew / 2, dy = r - eh / 2;
      int want = formula_cell (sp, dx, dy);
      int got = se->mask[r * ew + c];

      count += want;
      if (got != want) {
        FAIL ("%s: offset (%d,%d) is %d, expected %d", name, dx, dy, got,
            want);
        cm_se_free (se);
        return;
      }
    }
  }
  if (se->count != count)
    FAIL ("%s: count %d, expected %d", name, se->count, count);
  cm_se_free (se);
}

/* The line formula of docs/design.md, written out again. The angle
 * conversion and the ratio are computed as se.c documents (deg * pi / 180,
 * cot = cos / sin), since the result must match to the last bit. */
static void
formula_line (int len, double angle, int *ox, int *oy)
{
  double a = angle * M_PI / 180.0;

  for (int i = 0; i < len; i++) {
    int t = i - len / 2;

    if (fabs (cos (a)) >= fabs (sin (a))) {
      ox[i] = t;
      oy[i] = -(int) lround (t * tan (a));
    } else {
      ox[i] = (int) lround (t * (cos (a) / sin (a)));
      oy[i] = -t;
    }
  }
}

static void
check_line_offsets (const cm_se * se, const char *name, int len,
    const int *ox, const int *oy)
{
  int x0 = 0, x1 = 0, y0 = 0, y1 = 0;

  for (int i = 0; i < len; i++) {
    x0 = ox[i] < x0 ? ox[i] : x0;
    x1 = ox[i] > x1 ? ox[i] : x1;
    y0 = oy[i] < y0 ? oy[i] : y0;
    y1 = oy[i] > y1 ? oy[i] : y1;
    if (!cm_se_get (se, ox[i], oy[i])) {
      FAIL ("%s: offset (%d,%d) not set", name, ox[i], oy[i]);
      return;
    }
  }
  if (se->count != len)
    FAIL ("%s: count %d, expected %d", name, se->count, len);
  if (se->width != x1 - x0 + 1 || se->height != y1 - y0 + 1 ||
      se->origin_x != -x0 || se->origin_y != -y0)
    FAIL ("%s: box %dx%d origin (%d,%d), expected %dx%d (%d,%d)", name,
        se->width, se->height, se->origin_x, se->origin_y, x1 - x0 + 1,
        y1 - y0 + 1, -x0, -y0);
}

static void
check_line (int len, double angle)
{
  char name[64];
  cm_se *se = NULL;
  int *ox = malloc (sizeof (int) * len), *oy = malloc (sizeof (int) * len);
  int set = 0;

  snprintf (name, sizeof (name), "line %d@%g", len, angle);
  checks++;
  if (cm_se_new_line (&se, len, angle) != CM_OK || !se) {
    FAIL ("%s: constructor failed", name);
    goto out;
  }
  if (se->shape != CM_SHAPE_LINE || se->param_len != len ||
      se->param_angle != angle)
    FAIL ("%s: shape/parameters not recorded", name);
  formula_line (len, angle, ox, oy);
  check_line_offsets (se, name, len, ox, oy);
  for (int i = 0; i < se->width * se->height; i++)
    set += se->mask[i];
  if (set != len)
    FAIL ("%s: %d mask pixels set, expected %d", name, set, len);
out:
  cm_se_free (se);
  free (ox);
  free (oy);
}

/* Lines small enough to rasterise by hand (no floating point involved in
 * the expectation): they pin down the orientation conventions. */
typedef struct
{
  int len;
  double angle;
  int off[7][2];
} hand_line;

static const hand_line hand_lines[] = {
  {3, 0, {{-1, 0}, {0, 0}, {1, 0}}},
  {4, 0, {{-2, 0}, {-1, 0}, {0, 0}, {1, 0}}},
  {3, 180, {{-1, 0}, {0, 0}, {1, 0}}},
  {3, 90, {{0, 1}, {0, 0}, {0, -1}}},
  {4, 90, {{0, 2}, {0, 1}, {0, 0}, {0, -1}}},
  {3, 45, {{-1, 1}, {0, 0}, {1, -1}}},
  {3, 135, {{-1, -1}, {0, 0}, {1, 1}}},
  {5, 30, {{-2, 1}, {-1, 1}, {0, 0}, {1, -1}, {2, -1}}},
  {5, 60, {{-1, 2}, {-1, 1}, {0, 0}, {1, -1}, {1, -2}}},
  {7, -20, {{-3, -1}, {-2, -1}, {-1, 0}, {0, 0}, {1, 0}, {2, 1}, {3, 1}}},
  /* Diagonals of even length. In double precision |cos| > |sin| at 45 and
   * 225 degrees but |cos| < |sin| at 135 and 315, so 135 takes the cot
   * branch: (lround (-t), -t) = (-t, -t), t = -2 .. 1, not (t, t). */
  {4, 45, {{-2, 2}, {-1, 1}, {0, 0}, {1, -1}}},
  {4, 225, {{-2, 2}, {-1, 1}, {0, 0}, {1, -1}}},
  {4, 135, {{2, 2}, {1, 1}, {0, 0}, {-1, -1}}},
  {4, 315, {{2, 2}, {1, 1}, {0, 0}, {-1, -1}}},
  /* Exact halves: these angles give tan = 0.5, 0.25, 0.75 and cot = -0.5
   * exactly in double, and lround must round them away from zero. */
  {5, 26.56505117707799, {{-2, 1}, {-1, 1}, {0, 0}, {1, -1}, {2, -1}}},
  {5, 14.03624346792648, {{-2, 1}, {-1, 0}, {0, 0}, {1, 0}, {2, -1}}},
  {5, 36.86989764584402, {{-2, 2}, {-1, 1}, {0, 0}, {1, -1}, {2, -2}}},
  {3, 116.56505117707799, {{1, 1}, {0, 0}, {-1, -1}}},
};

static void
check_hand_lines (void)
{
  for (int i = 0; i < N_OF (hand_lines); i++) {
    const hand_line *hl = &hand_lines[i];
    int ox[7], oy[7];
    char name[64];
    cm_se *se = NULL;

    snprintf (name, sizeof (name), "hand line %d@%g", hl->len, hl->angle);
    checks++;
    if (cm_se_new_line (&se, hl->len, hl->angle) != CM_OK) {
      FAIL ("%s: constructor failed", name);
      continue;
    }
    for (int k = 0; k < hl->len; k++) {
      ox[k] = hl->off[k][0];
      oy[k] = hl->off[k][1];
    }
    check_line_offsets (se, name, hl->len, ox, oy);
    cm_se_free (se);
  }
}

static void
check_custom_shape (const char *str, const char *name)
{
  cm_se *se = NULL;
  int rows = 1, cols = 0, i = 0, ones = 0;

  checks++;
  if (cm_se_new_custom (&se, str) != CM_OK) {
    FAIL ("%s: rejected", name);
    return;
  }
  for (const char *p = str; *p && *p != ';'; p++)
    cols += *p == '0' || *p == '1';
  for (const char *p = str; *p; p++)
    rows += *p == ';';
  if (se->shape != CM_SHAPE_CUSTOM || se->width != cols ||
      se->height != rows || se->origin_x != cols / 2 ||
      se->origin_y != rows / 2) {
    FAIL ("%s: size %dx%d origin (%d,%d), expected %dx%d (%d,%d)", name,
        se->width, se->height, se->origin_x, se->origin_y, cols, rows,
        cols / 2, rows / 2);
    cm_se_free (se);
    return;
  }
  for (const char *p = str; *p; p++) {
    if (*p != '0' && *p != '1')
      continue;
    if (se->mask[i] != (*p == '1'))
      FAIL ("%s: cell %d is %d", name, i, se->mask[i]);
    ones += *p == '1';
    i++;
  }
  if (se->count != ones)
    FAIL ("%s: count %d, expected %d", name, se->count, ones);
  cm_se_free (se);
}

/* ---------------------------------------------------------------------- */
/* Impulse responses and decompositions, through the CPU reference */

/* Square 8-bit image, black but for a 255 pixel at its centre */
static cm_image
impulse_new (int size)
{
  cm_image img = test_image_new (size, size, CM_DEPTH_8, 0);
  test_image_fill (&img, 0);
  test_image_set (&img, size / 2, size / 2, 255);
  return img;
}

/* dst = dilation of src by se, neutral border */
static int
dilate (const cm_se * se, const cm_image * src, const cm_image * dst,
    const char *name)
{
  cm_morph_desc d = { CM_MORPH_DILATE, se, 1, CM_BORDER_NEUTRAL, 0 };
  cm_status st = cm_morph_ref (&d, src, dst);

  if (st != CM_OK)
    FAIL ("%s: cm_morph_ref returned %d", name, (int) st);
  return st == CM_OK;
}

/* img == 255 exactly on the offsets of se placed at (cx, cy), when
 * reflected = 0; on the negated offsets when reflected = 1. */
static int
equals_placed (const cm_image * img, const cm_se * se, int reflected,
    const char *name)
{
  int cx = img->width / 2, cy = img->height / 2;
  int sign = reflected ? -1 : 1;

  for (int y = 0; y < img->height; y++) {
    for (int x = 0; x < img->width; x++) {
      uint32_t want =
          cm_se_get (se, sign * (x - cx), sign * (y - cy)) ? 255 : 0;
      uint32_t got = test_image_get (img, x, y);

      if (got != want) {
        FAIL ("%s: at offset (%d,%d) got %u expected %u", name, x - cx,
            y - cy, got, want);
        return 0;
      }
    }
  }
  return 1;
}

static void
check_impulse (const se_spec * sp, const char *name)
{
  cm_se *se = NULL;
  cm_image src, dst;
  int size;
  cm_morph_desc ero;

  if (spec_new (sp, &se) != CM_OK)
    return;                     /* reported by the rasterisation checks */
  size = 2 * (se->width > se->height ? se->width : se->height) + 1;
  src = impulse_new (size);
  dst = test_image_new (size, size, CM_DEPTH_8, 3);

  /* dilation of an impulse = the SE at the impulse */
  checks++;
  if (dilate (se, &src, &dst, name))
    equals_placed (&dst, se, 0, name);

  /* erosion of an inverted impulse = the reflected SE, in the dark */
  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++)
      test_image_set (&src, x, y, 255 - test_image_get (&src, x, y));
  ero = (cm_morph_desc) {
  CM_MORPH_ERODE, se, 1, CM_BORDER_NEUTRAL, 0};
  checks++;
  if (cm_morph_ref (&ero, &src, &dst) == CM_OK) {
    for (int y = 0; y < size; y++)
      for (int x = 0; x < size; x++)
        test_image_set (&dst, x, y, 255 - test_image_get (&dst, x, y));
    equals_placed (&dst, se, 1, name);
  } else {
    FAIL ("%s: erosion failed", name);
  }
  test_image_free (&src);
  test_image_free (&dst);
  cm_se_free (se);
}

/* impulse dilated by a then by b must equal the SE `whole` */
static void
check_recombine (const cm_se * a, const cm_se * b, const cm_se * whole,
    const char *name)
{
  int size = 2 * (whole->width > whole->height ? whole->width :
      whole->height) + 3;
  cm_image src = impulse_new (size);
  cm_image mid = test_image_new (size, size, CM_DEPTH_8, 0);
  cm_image dst = test_image_new (size, size, CM_DEPTH_8, 0);

  checks++;
  if (dilate (a, &src, &mid, name) && dilate (b, &mid, &dst, name))
    equals_placed (&dst, whole, 0, name);
  test_image_free (&src);
  test_image_free (&mid);
  test_image_free (&dst);
}

static void
check_octagon_decomposition (void)
{
  const int rs[] = { 0, 1, 2, 3, 4, 5, 7, 8, 15 };

  for (int i = 0; i < N_OF (rs); i++) {
    int r = rs[i], half = r / 2;
    cm_se *sq = NULL, *dia = NULL, *oct = NULL;
    char name[64];

    snprintf (name, sizeof (name), "octagon %d = square %d (+) diamond %d",
        r, half, (r + 1) / 2);
    if (cm_se_new_rect (&sq, 2 * half + 1, 2 * half + 1) == CM_OK &&
        cm_se_new_diamond (&dia, (r + 1) / 2) == CM_OK &&
        cm_se_new_octagon (&oct, r) == CM_OK)
      check_recombine (sq, dia, oct, name);
    else
      FAIL ("%s: constructors failed", name);
    cm_se_free (sq);
    cm_se_free (dia);
    cm_se_free (oct);
  }
}

/* A rectangle is a column dilated by a row. The row is the 0 degree line
 * (same offsets as rect w x 1 for any w). A 90 degree line has dy = -t,
 * which for even lengths is the reflection of the rect 1 x h column, so it
 * is only a factor for odd h; the even case is checked to be exactly that
 * reflection. */
static void
check_rect_decomposition (void)
{
  for (int w = 1; w <= 8; w++) {
    for (int h = 1; h <= 7; h++) {
      cm_se *col = NULL, *vline = NULL, *hline = NULL, *rect = NULL;
      cm_se *rcol = NULL;
      char name[80];

      snprintf (name, sizeof (name), "rect %dx%d = rect 1x%d (+) line %d@0",
          w, h, h, w);
      if (cm_se_new_rect (&col, 1, h) != CM_OK ||
          cm_se_new_line (&vline, h, 90) != CM_OK ||
          cm_se_new_line (&hline, w, 0) != CM_OK ||
          cm_se_new_rect (&rect, w, h) != CM_OK ||
          cm_se_reflect (col, &rcol) != CM_OK) {
        FAIL ("%s: constructors failed", name);
      } else {
        check_recombine (col, hline, rect, name);
        if (h % 2) {
          snprintf (name, sizeof (name), "rect %dx%d = line %d@90 (+) "
              "line %d@0", w, h, h, w);
          check_recombine (vline, hline, rect, name);
        } else {
          checks++;
          if (vline->width != 1 || vline->height != h ||
              vline->origin_y != rcol->origin_y ||
              memcmp (vline->mask, rcol->mask, h) != 0)
            FAIL ("line %d@90 is not the reflected rect 1x%d", h, h);
        }
      }
      cm_se_free (col);
      cm_se_free (vline);
      cm_se_free (hline);
      cm_se_free (rect);
      cm_se_free (rcol);
    }
  }
}

/* ---------------------------------------------------------------------- */
/* Runs, reflection, bounds */

static void
check_runs (const cm_se * se, const char *name)
{
  for (int axis = 0; axis < 2; axis++) {
    cm_se_run *runs = NULL;
    int n = -1, total = 0;
    uint8_t *m = calloc ((size_t) se->width * se->height, 1);

    checks++;
    if (cm_se_runs (se, axis, &runs, &n) != CM_OK || n < 1) {
      FAIL ("%s: runs axis %d failed", name, axis);
      free (m);
      continue;
    }
    for (int i = 0; i < n; i++) {
      const cm_se_run *ru = &runs[i];

      if (ru->len < 1) {
        FAIL ("%s: axis %d run %d has length %d", name, axis, i, ru->len);
        break;
      }
      /* sorted by fixed then start, and maximal (never touching the next
       * run on the same line) */
      if (i > 0 && (runs[i - 1].fixed > ru->fixed ||
              (runs[i - 1].fixed == ru->fixed &&
                  runs[i - 1].start + runs[i - 1].len >= ru->start))) {
        FAIL ("%s: axis %d runs %d and %d unsorted or not maximal", name,
            axis, i - 1, i);
        break;
      }
      for (int k = 0; k < ru->len; k++) {
        int dx = axis == 0 ? ru->start + k : ru->fixed;
        int dy = axis == 0 ? ru->fixed : ru->start + k;
        int c = dx + se->origin_x, r = dy + se->origin_y;

        if (c < 0 || r < 0 || c >= se->width || r >= se->height) {
          FAIL ("%s: axis %d run %d leaves the mask", name, axis, i);
          goto next;
        }
        m[r * se->width + c]++;
        total++;
      }
    }
    if (total != se->count ||
        memcmp (m, se->mask, (size_t) se->width * se->height) != 0)
      FAIL ("%s: axis %d runs do not recombine to the mask", name, axis);
  next:
    free (runs);
    free (m);
  }
}

static void
check_reflect (const cm_se * se, const char *name)
{
  cm_se *r1 = NULL, *r2 = NULL;
  int x0, x1, y0, y1, rx0, rx1, ry0, ry1;

  checks++;
  if (cm_se_reflect (se, &r1) != CM_OK || cm_se_reflect (r1, &r2) != CM_OK) {
    FAIL ("%s: reflect failed", name);
    goto out;
  }
  for (int dy = -se->height; dy <= se->height; dy++)
    for (int dx = -se->width; dx <= se->width; dx++)
      if (cm_se_get (r1, dx, dy) != cm_se_get (se, -dx, -dy)) {
        FAIL ("%s: reflected offset (%d,%d) wrong", name, dx, dy);
        goto out;
      }
  if (r1->count != se->count)
    FAIL ("%s: reflected count %d", name, r1->count);
  if (r2->width != se->width || r2->height != se->height ||
      r2->origin_x != se->origin_x || r2->origin_y != se->origin_y ||
      r2->count != se->count ||
      memcmp (r2->mask, se->mask, (size_t) se->width * se->height) != 0)
    FAIL ("%s: reflect twice is not the identity", name);

  cm_se_bounds (se, &x0, &x1, &y0, &y1);
  cm_se_bounds (r1, &rx0, &rx1, &ry0, &ry1);
  if (rx0 != -x1 || rx1 != -x0 || ry0 != -y1 || ry1 != -y0)
    FAIL ("%s: reflected bounds do not negate", name);
out:
  cm_se_free (r1);
  cm_se_free (r2);
}

static void
check_bounds (const cm_se * se, const char *name)
{
  int x0 = 1 << 20, x1 = -(1 << 20), y0 = 1 << 20, y1 = -(1 << 20);
  int bx0, bx1, by0, by1;

  for (int dy = -se->height; dy <= se->height; dy++)
    for (int dx = -se->width; dx <= se->width; dx++)
      if (cm_se_get (se, dx, dy)) {
        x0 = dx < x0 ? dx : x0;
        x1 = dx > x1 ? dx : x1;
        y0 = dy < y0 ? dy : y0;
        y1 = dy > y1 ? dy : y1;
      }
  cm_se_bounds (se, &bx0, &bx1, &by0, &by1);
  checks++;
  if (bx0 != x0 || bx1 != x1 || by0 != y0 || by1 != y1)
    FAIL ("%s: bounds [%d,%d]x[%d,%d], expected [%d,%d]x[%d,%d]", name, bx0,
        bx1, by0, by1, x0, x1, y0, y1);
}

static void
check_copy (const cm_se * se, const char *name)
{
  cm_se *c = cm_se_copy (se);

  checks++;
  if (!c || c->mask == se->mask || c->shape != se->shape ||
      c->width != se->width || c->height != se->height ||
      c->origin_x != se->origin_x || c->origin_y != se->origin_y ||
      c->count != se->count ||
      memcmp (c->mask, se->mask, (size_t) se->width * se->height) != 0)
    FAIL ("%s: copy differs", name);
  cm_se_free (c);
}

/* ---------------------------------------------------------------------- */
/* Parser and validation */

static void
check_parser (void)
{
  static const char *valid[] = {
    "010;111;010", " 0 1 0 ; 1 1 1 ;0 1 0 ", "1", "0110;1101;0100",
    "1 1 1", "0;1;0;0", "  1  "
  };
  static const char *invalid[] = {
    "", "012", "11;1", ";", "abc", "000;000", "0", "1;", ";1", "1;;1",
    "1,1", "   ", "1 1;1 x", "10;01;", "2", "1;0 1"
  };
  char *big;
  cm_se *se;

  for (int i = 0; i < N_OF (valid); i++) {
    char name[64];
    snprintf (name, sizeof (name), "custom \"%s\"", valid[i]);
    check_custom_shape (valid[i], name);
  }
  for (int i = 0; i < N_OF (invalid); i++) {
    cm_status st;

    se = (cm_se *) & st;        /* must be reset to NULL */
    st = cm_se_new_custom (&se, invalid[i]);
    checks++;
    if (st != CM_ERR_PARSE || se != NULL)
      FAIL ("custom \"%s\": returned %d, expected CM_ERR_PARSE", invalid[i],
          (int) st);
  }
  checks++;
  se = NULL;
  if (cm_se_new_custom (&se, NULL) != CM_ERR_PARSE)
    FAIL ("custom NULL: not CM_ERR_PARSE");
  if (cm_se_new_custom (NULL, "1") != CM_ERR_INVALID_ARG)
    FAIL ("custom with NULL out: not CM_ERR_INVALID_ARG");

  /* 255 columns / rows pass, 256 do not */
  big = malloc (2 * 300 + 1);
  for (int n = 255; n <= 256; n++) {
    cm_status want = n == 255 ? CM_OK : CM_ERR_PARSE;
    cm_status st;

    memset (big, '1', (size_t) n);
    big[n] = '\0';
    st = cm_se_new_custom (&se, big);
    checks++;
    if (st != want || (st == CM_OK && (se->width != n || se->height != 1)))
      FAIL ("custom of %d columns: returned %d", n, (int) st);
    cm_se_free (se);

    for (int i = 0; i < n; i++) {
      big[2 * i] = i == n / 2 ? '1' : '0';
      big[2 * i + 1] = ';';
    }
    big[2 * n - 1] = '\0';
    st = cm_se_new_custom (&se, big);
    checks++;
    if (st != want || (st == CM_OK && (se->width != 1 || se->height != n ||
                se->count != 1)))
      FAIL ("custom of %d rows: returned %d", n, (int) st);
    cm_se_free (se);
  }
  free (big);
}

typedef struct
{
  const char *what;
  cm_shape shape;
  int a, b;
  double angle;
} bad_param;

static void
check_validation (void)
{
  const bad_param bad[] = {
    {"rect 0x1", CM_SHAPE_RECT, 0, 1, 0},
    {"rect 1x0", CM_SHAPE_RECT, 1, 0, 0},
    {"rect -3x3", CM_SHAPE_RECT, -3, 3, 0},
    {"rect 1024x1", CM_SHAPE_RECT, 1024, 1, 0},
    {"rect 1x1024", CM_SHAPE_RECT, 1, 1024, 0},
    {"cross 0x3", CM_SHAPE_CROSS, 0, 3, 0},
    {"cross 3x-1", CM_SHAPE_CROSS, 3, -1, 0},
    {"cross 1024x3", CM_SHAPE_CROSS, 1024, 3, 0},
    {"diamond -1", CM_SHAPE_DIAMOND, -1, 0, 0},
    {"diamond 512", CM_SHAPE_DIAMOND, 512, 0, 0},
    {"disk -1", CM_SHAPE_DISK, -1, 0, 0},
    {"disk 512", CM_SHAPE_DISK, 512, 0, 0},
    {"octagon -5", CM_SHAPE_OCTAGON, -5, 0, 0},
    {"octagon 512", CM_SHAPE_OCTAGON, 512, 0, 0},
    {"line 0", CM_SHAPE_LINE, 0, 0, 0},
    {"line -1", CM_SHAPE_LINE, -1, 0, 0},
    {"line 1024", CM_SHAPE_LINE, 1024, 0, 0},
    {"line NaN", CM_SHAPE_LINE, 5, 0, NAN},
    {"line +inf", CM_SHAPE_LINE, 5, 0, INFINITY},
    {"line -inf", CM_SHAPE_LINE, 5, 0, -INFINITY},
  };
  const se_spec good[] = {
    {CM_SHAPE_RECT, 1023, 1, 0, NULL},
    {CM_SHAPE_CROSS, 1, 1023, 0, NULL},
    {CM_SHAPE_DISK, 511, 0, 0, NULL},
    {CM_SHAPE_LINE, 1023, 0, 33.3, NULL},
    {CM_SHAPE_LINE, 1023, 0, 45, NULL},
    {CM_SHAPE_LINE, 1, 0, -1e300, NULL},
  };
  uint8_t mask[6] = { 0, 1, 0, 1, 1, 0 };
  uint8_t zero[4] = { 0 };
  cm_se *se;

  for (int i = 0; i < N_OF (bad); i++) {
    se_spec sp = { bad[i].shape, bad[i].a, bad[i].b, bad[i].angle, NULL };
    cm_status st;

    se = (cm_se *) & st;        /* must be reset to NULL */
    st = spec_new (&sp, &se);
    checks++;
    if (st != CM_ERR_INVALID_ARG || se != NULL) {
      FAIL ("%s: returned %d, expected CM_ERR_INVALID_ARG", bad[i].what,
          (int) st);
      if (st == CM_OK)
        cm_se_free (se);
    }
  }
  for (int i = 0; i < N_OF (good); i++) {
    char name[64];

    spec_name (&good[i], name, sizeof (name));
    checks++;
    se = NULL;
    if (spec_new (&good[i], &se) != CM_OK || !se)
      FAIL ("%s: limit value rejected", name);
    else if (good[i].shape == CM_SHAPE_LINE && se->count != good[i].a)
      FAIL ("%s: count %d", name, se->count);
    cm_se_free (se);
  }

  checks++;
  if (cm_se_new_rect (NULL, 3, 3) != CM_ERR_INVALID_ARG ||
      cm_se_new_line (NULL, 3, 0) != CM_ERR_INVALID_ARG ||
      cm_se_new_disk (NULL, 3) != CM_ERR_INVALID_ARG)
    FAIL ("NULL out pointer accepted");

  /* from_mask: copied, normalised, origin kept; empty masks and origins
   * outside the box refused */
  checks++;
  mask[4] = 7;
  if (cm_se_new_from_mask (&se, mask, 3, 2, 0, 1) != CM_OK ||
      se->width != 3 || se->height != 2 || se->origin_x != 0 ||
      se->origin_y != 1 || se->count != 3 || se->mask == mask ||
      !cm_se_get (se, 1, -1) || !cm_se_get (se, 0, 0) ||
      !cm_se_get (se, 1, 0) || se->mask[4] != 1)
    FAIL ("from_mask 3x2: wrong SE");
  else
    cm_se_free (se);
  checks++;
  if (cm_se_new_from_mask (&se, zero, 2, 2, 1, 1) != CM_ERR_INVALID_ARG ||
      cm_se_new_from_mask (&se, mask, 3, 2, 3, 0) != CM_ERR_INVALID_ARG ||
      cm_se_new_from_mask (&se, mask, 3, 2, 0, -1) != CM_ERR_INVALID_ARG ||
      cm_se_new_from_mask (&se, NULL, 3, 2, 0, 0) != CM_ERR_INVALID_ARG ||
      cm_se_new_from_mask (&se, mask, 0, 2, 0, 0) != CM_ERR_INVALID_ARG)
    FAIL ("from_mask: bad arguments accepted");

  checks++;
  if (cm_se_reflect (NULL, &se) != CM_ERR_INVALID_ARG ||
      cm_se_runs (NULL, 0, NULL, NULL) != CM_ERR_INVALID_ARG ||
      cm_se_copy (NULL) != NULL)
    FAIL ("NULL SE accepted");
  cm_se_free (NULL);
  if (cm_se_new_rect (&se, 3, 3) == CM_OK) {
    cm_se_run *runs;
    int n;

    checks++;
    if (cm_se_runs (se, 2, &runs, &n) != CM_ERR_INVALID_ARG)
      FAIL ("runs: axis 2 accepted");
    cm_se_free (se);
  }
}

int
main (void)
{
  build_specs ();

  for (int i = 0; i < n_specs; i++) {
    const se_spec *sp = &all_specs[i];
    char name[80];
    cm_se *se = NULL;

    spec_name (sp, name, sizeof (name));
    if (sp->shape == CM_SHAPE_LINE)
      check_line (sp->a, sp->angle);
    else if (sp->shape == CM_SHAPE_CUSTOM)
      check_custom_shape (sp->custom, name);
    else
      check_box_shape (sp, name);

    check_impulse (sp, name);
    if (spec_new (sp, &se) == CM_OK) {
      check_runs (se, name);
      check_reflect (se, name);
      check_bounds (se, name);
      check_copy (se, name);
      cm_se_free (se);
    }
  }
  check_hand_lines ();
  check_octagon_decomposition ();
  check_rect_decomposition ();
  check_parser ();
  check_validation ();
  CHECK_NAMES ("shape", cm_shape, cm_shape_name, "rect", "cross", "diamond",
      "disk", "octagon", "line", "custom");

  if (failures) {
    fprintf (stderr, "test-se: %d of %d checks failed\n", failures, checks);
    return 1;
  }
  printf ("test-se: %d checks passed (%d shapes)\n", checks, n_specs);
  return 0;
}
