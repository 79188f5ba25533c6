/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the structuring-element constructors of cuda/morph/se.h.
 *
 * The first byte picks a constructor; the rest is the custom mask string
 * or the numeric parameters (ints of any sign and size, the line angle as
 * raw double bits: NaN, infinities, huge). Every call must either fail
 * cleanly or give an SE that keeps the invariants of se.h: sizes within
 * the limits, origin at size/2 (lines: the offset (0,0)), as many set
 * pixels as the definition says, row and column runs covering exactly the
 * set pixels, the reflected SE the same size with the same count. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "morph/se.h"

#define CHECK(cond) do { if (!(cond)) abort (); } while (0)

static int
read_int (const uint8_t ** d, size_t * n)
{
  int32_t v = 0;

  if (*n >= 4) {
    memcpy (&v, *d, 4);
    *d += 4;
    *n -= 4;
  } else if (*n > 0) {
    v = (int8_t) ** d;
    *d += 1;
    *n -= 1;
  }
  /* mostly small values, some up to and past the limits, a few anything */
  if ((v & 0x70000000) != 0x70000000)
    v %= (v & 0x300) == 0x300 ? 1100 : 40;
  return v;
}

static void
check_runs (const cm_se * se, int axis)
{
  cm_se_run *runs = NULL;
  int count = 0, total = 0;

  CHECK (cm_se_runs (se, axis, &runs, &count) == CM_OK);
  for (int i = 0; i < count; i++) {
    CHECK (runs[i].len >= 1);
    for (int k = 0; k < runs[i].len; k++) {
      int dx = axis == 0 ? runs[i].start + k : runs[i].fixed;
      int dy = axis == 0 ? runs[i].fixed : runs[i].start + k;
      CHECK (cm_se_get (se, dx, dy) == 1);
    }
    total += runs[i].len;
  }
  CHECK (total == se->count);
  free (runs);
}

static void
check_se (const cm_se * se)
{
  int count = 0, min_dx, max_dx, min_dy, max_dy;
  cm_se *r = NULL;

  CHECK (se->width >= 1 && se->width <= CM_SE_MAX_EXTENT);
  CHECK (se->height >= 1 && se->height <= CM_SE_MAX_EXTENT);
  CHECK (se->origin_x >= 0 && se->origin_x < se->width);
  CHECK (se->origin_y >= 0 && se->origin_y < se->height);
  for (int i = 0; i < se->width * se->height; i++) {
    CHECK (se->mask[i] <= 1);
    count += se->mask[i];
  }
  CHECK (count == se->count && count >= 1);
  cm_se_bounds (se, &min_dx, &max_dx, &min_dy, &max_dy);
  CHECK (min_dx <= max_dx && min_dy <= max_dy);
  check_runs (se, 0);
  check_runs (se, 1);
  CHECK (cm_se_reflect (se, &r) == CM_OK);
  CHECK (r->count == se->count && r->width == se->width &&
      r->height == se->height);
  /* pixel by pixel for the small ones (1023 x 1023 rectangles are
   * allowed, and slow to compare every time) */
  if (se->width * se->height <= 4096)
    for (int dy = -se->height; dy <= se->height; dy++)
      for (int dx = -se->width; dx <= se->width; dx++)
        CHECK (cm_se_get (r, dx, dy) == cm_se_get (se, -dx, -dy));
  cm_se_free (r);
}

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  cm_se *se = NULL;
  cm_status st;
  int kind, a, b;

  if (size < 1)
    return 0;
  kind = data[0] % 8;
  data++;
  size--;

  if (kind == 0 || kind == 7) {
    /* the mask string, NUL-terminated copy of the input */
    char *s = malloc (size + 1);
    int ones = 0;

    memcpy (s, data, size);
    s[size] = '\0';
    st = cm_se_new_custom (&se, s);
    if (st == CM_OK) {
      for (size_t i = 0; s[i]; i++)
        ones += s[i] == '1';
      check_se (se);
      CHECK (se->count == ones);
      CHECK (se->width <= CM_SE_MAX_CUSTOM && se->height <= CM_SE_MAX_CUSTOM);
      CHECK (se->origin_x == se->width / 2 && se->origin_y == se->height / 2);
    }
    free (s);
    cm_se_free (se);
    return 0;
  }

  a = read_int (&data, &size);
  b = read_int (&data, &size);
  switch (kind) {
    case 1:
      st = cm_se_new_rect (&se, a, b);
      if (st == CM_OK)
        CHECK (se->count == a * b);
      break;
    case 2:
      st = cm_se_new_cross (&se, a, b);
      if (st == CM_OK)
        CHECK (se->count == a + b - 1);
      break;
    case 3:
      st = cm_se_new_diamond (&se, a);
      if (st == CM_OK)
        CHECK (se->count == 2 * a * (a + 1) + 1);
      break;
    case 4:
      st = cm_se_new_disk (&se, a);
      break;
    case 5:
      st = cm_se_new_octagon (&se, a);
      break;
    default:{
      double angle = 0.0;

      if (size >= 8)
        memcpy (&angle, data, 8);
      else
        angle = b / 7.0;
      st = cm_se_new_line (&se, a, angle);
      if (st == CM_OK) {
        CHECK (isfinite (angle));
        CHECK (se->count == a);
        CHECK (cm_se_get (se, 0, 0) == 1);
      }
      break;
    }
  }
  if (st == CM_OK)
    check_se (se);
  else
    CHECK (se == NULL);
  cm_se_free (se);
  return 0;
}
