/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cm_morph_ref against a second, deliberately naive implementation written
 * here from docs/design.md: the image is first copied into a large
 * buffer whose margin is filled by the border rule (index folding done
 * step by step, not by the modular formulas of cm-border.h), then every
 * output is the min/max over the mask cells. Plus algebraic properties
 * (anti-extensivity, idempotence, duality) and argument checks. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "morph/morph.h"
#include "morph/se.h"
#include "core-test.h"
#include "test-count.h"
#include "test-util.h"

static const char *border_names[CM_BORDER_MODE_COUNT] = {
  "neutral", "replicate", "reflect", "mirror", "constant"
};

/* ---------------------------------------------------------------------- */
/* The brute-force twin, on plain int planes */

typedef struct
{
  int w, h;
  int *v;
} plane;

static plane
plane_new (int w, int h)
{
  plane p = { w, h, calloc ((size_t) w * h, sizeof (int)) };
  return p;
}

static plane
plane_from_image (const cm_image * img)
{
  plane p = plane_new (img->width, img->height);
  for (int y = 0; y < p.h; y++)
    for (int x = 0; x < p.w; x++)
      p.v[y * p.w + x] = (int) test_image_get (img, x, y);
  return p;
}

/* One erosion (is_min) or dilation of f by se with the border rule:
 * erosion min_b f(x + b), dilation max_b f(x - b), b over the set cells. */
static plane
brute_extreme (const plane * f, const cm_se * se, int is_min,
    cm_border_mode border, int cval, int maxv)
{
  /* margin wide enough for any offset of the mask */
  int mx = se->width, my = se->height;
  int pw = f->w + 2 * mx, ph = f->h + 2 * my;
  int outside = border == CM_BORDER_CONSTANT ? cval : (is_min ? maxv : 0);
  int *pad = malloc (sizeof (int) * (size_t) pw * ph);
  plane out = plane_new (f->w, f->h);
  int sign = is_min ? 1 : -1;

  for (int j = 0; j < ph; j++) {
    for (int i = 0; i < pw; i++) {
      int x = i - mx, y = j - my;
      int inside = x >= 0 && x < f->w && y >= 0 && y < f->h;

      if (inside)
        pad[j * pw + i] = f->v[y * f->w + x];
      else if (border == CM_BORDER_NEUTRAL || border == CM_BORDER_CONSTANT)
        pad[j * pw + i] = outside;
      else
        pad[j * pw + i] = f->v[test_border_fold (border, y, f->h) * f->w +
            test_border_fold (border, x, f->w)];
    }
  }

  for (int y = 0; y < f->h; y++) {
    for (int x = 0; x < f->w; x++) {
      int acc = is_min ? maxv : 0;

      for (int r = 0; r < se->height; r++) {
        for (int c = 0; c < se->width; c++) {
          int dx = c - se->origin_x, dy = r - se->origin_y, v;

          if (!se->mask[r * se->width + c])
            continue;
          v = pad[(y + sign * dy + my) * pw + (x + sign * dx + mx)];
          acc = is_min ? (v < acc ? v : acc) : (v > acc ? v : acc);
        }
      }
      out.v[y * f->w + x] = acc;
    }
  }
  free (pad);
  return out;
}

static plane
brute_repeat (const plane * f, const cm_se * se, int is_min, int n,
    cm_border_mode border, int cval, int maxv)
{
  plane cur = brute_extreme (f, se, is_min, border, cval, maxv);

  for (int i = 1; i < n; i++) {
    plane next = brute_extreme (&cur, se, is_min, border, cval, maxv);
    free (cur.v);
    cur = next;
  }
  return cur;
}

/* a = max (a - b, 0) */
static void
plane_sub (plane * a, const plane * b)
{
  for (int i = 0; i < a->w * a->h; i++)
    a->v[i] = a->v[i] > b->v[i] ? a->v[i] - b->v[i] : 0;
}

static plane
brute_morph (const plane * f, cm_morph_op op, const cm_se * se, int n,
    cm_border_mode border, uint32_t value, int maxv)
{
  int cval = value > (uint32_t) maxv ? maxv : (int) value;
  plane a, b;

  switch (op) {
    case CM_MORPH_ERODE:
      return brute_repeat (f, se, 1, n, border, cval, maxv);
    case CM_MORPH_DILATE:
      return brute_repeat (f, se, 0, n, border, cval, maxv);
    case CM_MORPH_OPEN:
    case CM_MORPH_TOPHAT:
    case CM_MORPH_CLOSE:
    case CM_MORPH_BLACKHAT:{
      /* opening: n erosions, then n dilations; closing: the dual */
      int opening = op == CM_MORPH_OPEN || op == CM_MORPH_TOPHAT;

      a = brute_repeat (f, se, opening, n, border, cval, maxv);
      b = brute_repeat (&a, se, !opening, n, border, cval, maxv);
      free (a.v);
      if (op == CM_MORPH_TOPHAT) {
        a = plane_new (f->w, f->h);
        memcpy (a.v, f->v, sizeof (int) * (size_t) f->w * f->h);
        plane_sub (&a, &b);
        free (b.v);
        return a;
      }
      if (op == CM_MORPH_BLACKHAT)
        plane_sub (&b, f);
      return b;
    }
    default:                   /* gradient */
      a = brute_repeat (f, se, 0, n, border, cval, maxv);
      b = brute_repeat (f, se, 1, n, border, cval, maxv);
      plane_sub (&a, &b);
      free (b.v);
      return a;
  }
}

/* ---------------------------------------------------------------------- */
/* Helpers around cm_image */

/* The padding bytes of every row still hold test_image_new's 0xA5 */
static int
padding_intact (const cm_image * img)
{
  size_t used = (size_t) img->width * cm_depth_bytes (img->depth);

  for (int y = 0; y < img->height; y++) {
    const uint8_t *row = (const uint8_t *) img->data + y * img->pitch;
    for (size_t i = used; i < img->pitch; i++)
      if (row[i] != 0xA5)
        return 0;
  }
  return 1;
}

static cm_image
image_from_plane (const plane * p, cm_depth depth)
{
  cm_image img = test_image_new (p->w, p->h, depth, 0);
  for (int y = 0; y < p->h; y++)
    for (int x = 0; x < p->w; x++)
      test_image_set (&img, x, y, (uint32_t) p->v[y * p->w + x]);
  return img;
}

static cm_image
image_copy (const cm_image * src, int extra_pitch)
{
  cm_image img = test_image_new (src->width, src->height, src->depth,
      extra_pitch);
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      test_image_set (&img, x, y, test_image_get (src, x, y));
  return img;
}

static void
complement (const cm_image * img)
{
  uint32_t m = cm_depth_max (img->depth);
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      test_image_set (img, x, y, m - test_image_get (img, x, y));
}

static int
run_ref (cm_morph_op op, const cm_se * se, int n, cm_border_mode border,
    uint32_t value, const cm_image * src, const cm_image * dst,
    const char *name)
{
  cm_morph_desc d = { op, se, n, border, value };
  cm_status st = cm_morph_ref (&d, src, dst);

  if (st != CM_OK)
    FAIL ("%s: cm_morph_ref returned %d", name, (int) st);
  return st == CM_OK;
}

/* ---------------------------------------------------------------------- */
/* The matrix */

typedef struct
{
  const char *name;
  cm_shape shape;
  int a, b;
  double angle;
  const char *custom;
} shape_row;

static const shape_row shapes[] = {
  {"rect 3x3", CM_SHAPE_RECT, 3, 3, 0, NULL},
  {"rect 5x1", CM_SHAPE_RECT, 5, 1, 0, NULL},
  {"rect 1x4", CM_SHAPE_RECT, 1, 4, 0, NULL},
  {"cross 5x3", CM_SHAPE_CROSS, 5, 3, 0, NULL},
  {"diamond 2", CM_SHAPE_DIAMOND, 2, 0, 0, NULL},
  {"disk 3", CM_SHAPE_DISK, 3, 0, 0, NULL},
  {"octagon 4", CM_SHAPE_OCTAGON, 4, 0, 0, NULL},
  {"line 7@0", CM_SHAPE_LINE, 7, 0, 0, NULL},
  {"line 9@90", CM_SHAPE_LINE, 9, 0, 90, NULL},
  {"line 6@45", CM_SHAPE_LINE, 6, 0, 45, NULL},
  {"line 11@30", CM_SHAPE_LINE, 11, 0, 30, NULL},
  {"line 8@135", CM_SHAPE_LINE, 8, 0, 135, NULL},
  {"custom 0110;1101;0100", CM_SHAPE_CUSTOM, 0, 0, 0, "0110;1101;0100"},
};

static cm_se *
shape_new (const shape_row * s)
{
  cm_se *se = NULL;
  cm_status st;

  switch (s->shape) {
    case CM_SHAPE_RECT:
      st = cm_se_new_rect (&se, s->a, s->b);
      break;
    case CM_SHAPE_CROSS:
      st = cm_se_new_cross (&se, s->a, s->b);
      break;
    case CM_SHAPE_DIAMOND:
      st = cm_se_new_diamond (&se, s->a);
      break;
    case CM_SHAPE_DISK:
      st = cm_se_new_disk (&se, s->a);
      break;
    case CM_SHAPE_OCTAGON:
      st = cm_se_new_octagon (&se, s->a);
      break;
    case CM_SHAPE_LINE:
      st = cm_se_new_line (&se, s->a, s->angle);
      break;
    default:
      st = cm_se_new_custom (&se, s->custom);
      break;
  }
  return st == CM_OK ? se : NULL;
}

static const int sizes[][2] = {
  {1, 1}, {1, 7}, {9, 1}, {2, 3}, {13, 11}, {31, 17}, {77, 5}
};
static const int pitches[] = { 0, 3 };
static const cm_depth depths[] = { CM_DEPTH_8, CM_DEPTH_16 };

static uint32_t
constant_for (cm_depth depth)
{
  return depth == CM_DEPTH_16 ? 40000 : 77;
}

/* One cell of the matrix: cm_morph_ref == brute force, src untouched, the
 * padding of dst untouched. */
static void
check_case (cm_morph_op op, const shape_row * s, const cm_se * se,
    cm_border_mode border, uint32_t value, cm_depth depth, int w, int h,
    int extra, int iterations, int levels, uint64_t seed)
{
  char name[200];
  test_rng rng;
  cm_image src = test_image_new (w, h, depth, extra);
  cm_image dst = test_image_new (w, h, depth, extra);
  cm_image orig, want;
  plane f, expect;

  snprintf (name, sizeof (name), "%s %s border=%s(%u) depth=%d %dx%d "
      "pitch+%d iter=%d fill=%s seed=%llu", cm_morph_op_name (op), s->name,
      border_names[border], value, (int) depth, w, h, extra, iterations,
      levels ? "levels" : "random", (unsigned long long) seed);

  test_rng_seed (&rng, seed);
  if (levels)
    test_image_fill_levels (&src, &rng, 3);
  else
    test_image_fill_random (&src, &rng);
  orig = image_copy (&src, 0);
  f = plane_from_image (&src);
  expect = brute_morph (&f, op, se, iterations, border, value,
      (int) cm_depth_max (depth));
  want = image_from_plane (&expect, depth);

  checks++;
  if (run_ref (op, se, iterations, border, value, &src, &dst, name)) {
    if (!test_image_equal (&dst, &want, name))
      failures++;
    else if (!padding_intact (&dst))
      FAIL ("%s: padding of dst written", name);
    else if (!test_image_equal (&src, &orig, name))
      FAIL ("%s: src modified", name);
  }
  free (f.v);
  free (expect.v);
  test_image_free (&src);
  test_image_free (&dst);
  test_image_free (&orig);
  test_image_free (&want);
}

static void
check_matrix (void)
{
  uint64_t seed = 1;

  for (int si = 0; si < N_OF (shapes); si++) {
    cm_se *se = shape_new (&shapes[si]);

    if (!se) {
      FAIL ("%s: constructor failed", shapes[si].name);
      continue;
    }
    for (int op = 0; op < CM_MORPH_OP_COUNT; op++)
      for (int b = 0; b < CM_BORDER_MODE_COUNT; b++)
        for (int di = 0; di < N_OF (depths); di++)
          for (int zi = 0; zi < N_OF (sizes); zi++)
            for (int pi = 0; pi < N_OF (pitches); pi++)
              for (int levels = 0; levels < 2; levels++) {
                int w = sizes[zi][0], h = sizes[zi][1];

                check_case ((cm_morph_op) op, &shapes[si], se,
                    (cm_border_mode) b, constant_for (depths[di]),
                    depths[di], w, h, pitches[pi], 1, levels, seed++);
                /* two iterations on a subset: small and mid sizes, the
                 * padded pitch, random data */
                if ((zi == 3 || zi == 4) && pi == 1 && !levels)
                  check_case ((cm_morph_op) op, &shapes[si], se,
                      (cm_border_mode) b, constant_for (depths[di]),
                      depths[di], w, h, pitches[pi], 2, levels, seed++);
              }
    cm_se_free (se);
  }

  /* a constant above the depth's range is clamped to its maximum */
  {
    cm_se *se = shape_new (&shapes[0]);
    check_case (CM_MORPH_ERODE, &shapes[0], se, CM_BORDER_CONSTANT, 300,
        CM_DEPTH_8, 13, 11, 3, 1, 0, seed++);
    check_case (CM_MORPH_DILATE, &shapes[0], se, CM_BORDER_CONSTANT, 300,
        CM_DEPTH_8, 13, 11, 3, 1, 0, seed++);
    check_case (CM_MORPH_CLOSE, &shapes[0], se, CM_BORDER_CONSTANT, 70000,
        CM_DEPTH_16, 13, 11, 3, 1, 0, seed++);
    /* three iterations, once */
    check_case (CM_MORPH_GRADIENT, &shapes[0], se, CM_BORDER_MIRROR, 0,
        CM_DEPTH_16, 31, 17, 3, 3, 0, seed++);
    cm_se_free (se);
  }
}

/* ---------------------------------------------------------------------- */
/* Properties */

/* open <= f <= close with the neutral border when the SE holds its
 * origin; open and close idempotent (the neutral rule keeps erosion and
 * dilation an adjunction on the image domain). */
static void
check_order_and_idempotence (void)
{
  uint64_t seed = 1000000;

  for (int si = 0; si < N_OF (shapes); si++) {
    cm_se *se = shape_new (&shapes[si]);

    if (!se)
      continue;
    for (int di = 0; di < N_OF (depths); di++) {
      for (int zi = 0; zi < N_OF (sizes); zi++) {
        for (int n = 1; n <= 2; n++) {
          int w = sizes[zi][0], h = sizes[zi][1];
          cm_image f = test_image_new (w, h, depths[di], 1);
          cm_image o = test_image_new (w, h, depths[di], 0);
          cm_image c = test_image_new (w, h, depths[di], 0);
          cm_image oo = test_image_new (w, h, depths[di], 0);
          cm_image cc = test_image_new (w, h, depths[di], 0);
          test_rng rng;
          char name[160];

          snprintf (name, sizeof (name), "%s depth=%d %dx%d iter=%d",
              shapes[si].name, (int) depths[di], w, h, n);
          test_rng_seed (&rng, seed++);
          test_image_fill_random (&f, &rng);
          checks++;
          if (run_ref (CM_MORPH_OPEN, se, n, CM_BORDER_NEUTRAL, 0, &f, &o,
                  name)
              && run_ref (CM_MORPH_CLOSE, se, n, CM_BORDER_NEUTRAL, 0, &f,
                  &c, name)
              && run_ref (CM_MORPH_OPEN, se, n, CM_BORDER_NEUTRAL, 0, &o,
                  &oo, name)
              && run_ref (CM_MORPH_CLOSE, se, n, CM_BORDER_NEUTRAL, 0, &c,
                  &cc, name)) {
            char what[200];

            if (cm_se_get (se, 0, 0)) {
              for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                  uint32_t v = test_image_get (&f, x, y);
                  if (test_image_get (&o, x, y) > v ||
                      test_image_get (&c, x, y) < v) {
                    FAIL ("%s: open <= f <= close fails at (%d,%d)", name,
                        x, y);
                    goto done;
                  }
                }
            }
            snprintf (what, sizeof (what), "open(open f) == open f %s",
                name);
            if (!test_image_equal (&oo, &o, what))
              failures++;
            snprintf (what, sizeof (what), "close(close f) == close f %s",
                name);
            if (!test_image_equal (&cc, &c, what))
              failures++;
          }
        done:
          test_image_free (&f);
          test_image_free (&o);
          test_image_free (&c);
          test_image_free (&oo);
          test_image_free (&cc);
        }
      }
    }
    cm_se_free (se);
  }
}

/* Complement c(f) = max - f: erode_B(c f) = c dilate_-B(f),
 * dilate_B(c f) = c erode_-B(f), open_B(c f) = c close_-B(f), for every
 * border rule that commutes with the complement (the index maps, neutral,
 * and a constant v against max - v). */
static void
check_duality (void)
{
  const cm_morph_op pairs[][2] = {
    {CM_MORPH_ERODE, CM_MORPH_DILATE},
    {CM_MORPH_DILATE, CM_MORPH_ERODE},
    {CM_MORPH_OPEN, CM_MORPH_CLOSE},
    {CM_MORPH_CLOSE, CM_MORPH_OPEN},
  };
  uint64_t seed = 2000000;

  for (int si = 0; si < N_OF (shapes); si++) {
    cm_se *se = shape_new (&shapes[si]), *rse = NULL;

    if (!se || cm_se_reflect (se, &rse) != CM_OK) {
      FAIL ("%s: SE or reflection failed", shapes[si].name);
      cm_se_free (se);
      continue;
    }
    for (int b = 0; b < CM_BORDER_MODE_COUNT; b++) {
      for (int di = 0; di < N_OF (depths); di++) {
        for (int pi = 0; pi < N_OF (pairs); pi++) {
          const int w = 13, h = 11;
          cm_depth depth = depths[di];
          uint32_t v = constant_for (depth), m = cm_depth_max (depth);
          cm_image f = test_image_new (w, h, depth, 3);
          cm_image cf = test_image_new (w, h, depth, 0);
          cm_image lhs = test_image_new (w, h, depth, 0);
          cm_image rhs = test_image_new (w, h, depth, 3);
          test_rng rng;
          char name[200];

          snprintf (name, sizeof (name), "duality %s(c f) == c %s_-B(f) "
              "%s border=%s depth=%d", cm_morph_op_name (pairs[pi][0]),
              cm_morph_op_name (pairs[pi][1]), shapes[si].name,
              border_names[b], (int) depth);
          test_rng_seed (&rng, seed++);
          test_image_fill_random (&f, &rng);
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
              test_image_set (&cf, x, y, m - test_image_get (&f, x, y));
          checks++;
          if (run_ref (pairs[pi][0], se, 1, (cm_border_mode) b, v, &cf,
                  &lhs, name)
              && run_ref (pairs[pi][1], rse, 1, (cm_border_mode) b, m - v,
                  &f, &rhs, name)) {
            complement (&rhs);
            if (!test_image_equal (&lhs, &rhs, name))
              failures++;
          }
          test_image_free (&f);
          test_image_free (&cf);
          test_image_free (&lhs);
          test_image_free (&rhs);
        }
      }
    }
    cm_se_free (se);
    cm_se_free (rse);
  }
}

/* On an image one pixel wide every column index maps to 0 under the index
 * rules (n == 1), so a horizontal SE changes nothing; on a 1x1 image any SE
 * is the identity. */
static void
check_one_pixel_wide (void)
{
  const cm_border_mode maps[] =
      { CM_BORDER_REPLICATE, CM_BORDER_REFLECT, CM_BORDER_MIRROR };
  const shape_row *horiz[] = { &shapes[1], &shapes[7] };        /* 5x1, 7@0 */
  uint64_t seed = 3000000;

  for (int mi = 0; mi < N_OF (maps); mi++) {
    for (int di = 0; di < N_OF (depths); di++) {
      for (int op = 0; op < CM_MORPH_OP_COUNT; op++) {
        for (int k = 0; k < N_OF (horiz) + N_OF (shapes); k++) {
          const shape_row *s = k < N_OF (horiz) ? horiz[k] :
              &shapes[k - N_OF (horiz)];
          int w = 1, h = k < N_OF (horiz) ? 7 : 1;
          cm_se *se = shape_new (s);
          cm_image f = test_image_new (w, h, depths[di], 3);
          cm_image out = test_image_new (w, h, depths[di], 3);
          cm_image want = test_image_new (w, h, depths[di], 0);
          test_rng rng;
          char name[160];

          snprintf (name, sizeof (name), "%s %s on %dx%d border=%s "
              "depth=%d", cm_morph_op_name ((cm_morph_op) op), s->name, w,
              h, border_names[maps[mi]], (int) depths[di]);
          test_rng_seed (&rng, seed++);
          test_image_fill_random (&f, &rng);
          /* identity for erode/dilate/open/close, zero for the rest */
          for (int y = 0; y < h; y++)
            test_image_set (&want, 0, y, op <= CM_MORPH_CLOSE ?
                test_image_get (&f, 0, y) : 0);
          checks++;
          if (se && run_ref ((cm_morph_op) op, se, 1, maps[mi], 0, &f, &out,
                  name) && !test_image_equal (&out, &want, name))
            failures++;
          cm_se_free (se);
          test_image_free (&f);
          test_image_free (&out);
          test_image_free (&want);
        }
      }
    }
  }
}

/* rank_extreme as documented: offsets as given, no reflection. */
static void
check_rank_extreme (void)
{
  uint64_t seed = 4000000;

  for (int si = 0; si < N_OF (shapes); si++) {
    cm_se *se = shape_new (&shapes[si]), *rse = NULL;

    if (!se || cm_se_reflect (se, &rse) != CM_OK) {
      cm_se_free (se);
      continue;
    }
    for (int b = 0; b < CM_BORDER_MODE_COUNT; b++) {
      for (int is_min = 0; is_min < 2; is_min++) {
        cm_image f = test_image_new (31, 17, CM_DEPTH_16, 3);
        cm_image got = test_image_new (31, 17, CM_DEPTH_16, 1);
        cm_image want = test_image_new (31, 17, CM_DEPTH_16, 0);
        test_rng rng;
        char name[160];
        cm_status st;

        snprintf (name, sizeof (name), "rank_extreme %s %s border=%s",
            is_min ? "min" : "max", shapes[si].name, border_names[b]);
        test_rng_seed (&rng, seed++);
        test_image_fill_random (&f, &rng);
        checks++;
        st = cm_morph_ref_rank_extreme (se, is_min, (cm_border_mode) b,
            40000, &f, &got);
        /* min by B is the erosion by B; max by B is the dilation by -B */
        if (st != CM_OK)
          FAIL ("%s: returned %d", name, (int) st);
        else if (run_ref (is_min ? CM_MORPH_ERODE : CM_MORPH_DILATE,
                is_min ? se : rse, 1, (cm_border_mode) b, 40000, &f, &want,
                name) && !test_image_equal (&got, &want, name))
          failures++;
        test_image_free (&f);
        test_image_free (&got);
        test_image_free (&want);
      }
    }
    cm_se_free (se);
    cm_se_free (rse);
  }
}

/* ---------------------------------------------------------------------- */
/* Bad arguments */

static void
expect_invalid (const cm_morph_desc * d, const cm_image * src,
    const cm_image * dst, const char *what)
{
  cm_status st = cm_morph_ref (d, src, dst);

  checks++;
  if (st != CM_ERR_INVALID_ARG)
    FAIL ("bad argument (%s): returned %d, expected CM_ERR_INVALID_ARG",
        what, (int) st);
}

static void
check_bad_args (void)
{
  cm_se *se = NULL, empty;
  uint8_t zero = 0;
  cm_image a = test_image_new (8, 6, CM_DEPTH_8, 2);
  cm_image b = test_image_new (8, 6, CM_DEPTH_8, 2);
  cm_image t;
  cm_morph_desc d, good;

  cm_se_new_rect (&se, 3, 3);
  good = (cm_morph_desc) {
  CM_MORPH_OPEN, se, 1, CM_BORDER_REFLECT, 0};
  test_image_fill (&a, 9);

  checks++;
  if (cm_morph_ref (&good, &a, &b) != CM_OK)
    FAIL ("valid arguments refused");

  expect_invalid (NULL, &a, &b, "NULL desc");
  expect_invalid (&good, NULL, &b, "NULL src");
  expect_invalid (&good, &a, NULL, "NULL dst");
  d = good;
  d.se = NULL;
  expect_invalid (&d, &a, &b, "NULL se");
  d = good;
  d.iterations = 0;
  expect_invalid (&d, &a, &b, "iterations 0");
  d.iterations = -2;
  expect_invalid (&d, &a, &b, "iterations -2");
  d = good;
  d.op = (cm_morph_op) CM_MORPH_OP_COUNT;
  expect_invalid (&d, &a, &b, "op out of range");
  d.op = (cm_morph_op) - 1;
  expect_invalid (&d, &a, &b, "op -1");
  d = good;
  d.border = (cm_border_mode) CM_BORDER_MODE_COUNT;
  expect_invalid (&d, &a, &b, "border out of range");
  d = good;
  empty = *se;
  empty.mask = &zero;
  empty.width = empty.height = 1;
  empty.origin_x = empty.origin_y = 0;
  d.se = &empty;
  expect_invalid (&d, &a, &b, "empty SE");

  expect_invalid (&good, &a, &a, "src == dst");
  t = b;
  t.width = 7;
  expect_invalid (&good, &a, &t, "width mismatch");
  t = b;
  t.height = 5;
  expect_invalid (&good, &a, &t, "height mismatch");
  t = b;
  t.depth = CM_DEPTH_16;
  t.pitch = 16;
  expect_invalid (&good, &a, &t, "depth mismatch");
  t = b;
  t.data = NULL;
  expect_invalid (&good, &a, &t, "NULL data");
  t = b;
  t.pitch = 7;
  expect_invalid (&good, &a, &t, "pitch < width");
  t = a;
  t.width = 0;
  {
    cm_image u = b;
    u.width = 0;
    expect_invalid (&good, &t, &u, "width 0");
    t = a;
    t.height = 0;
    u = b;
    u.height = 0;
    expect_invalid (&good, &t, &u, "height 0");
  }
  t = a;
  t.depth = (cm_depth) 12;
  {
    cm_image u = b;
    u.depth = (cm_depth) 12;
    expect_invalid (&good, &t, &u, "depth 12");
  }
  /* dst overlapping src: the second row of a */
  t = a;
  t.data = (uint8_t *) a.data + a.pitch;
  t.height = 5;
  {
    cm_image u = a;
    u.height = 5;
    expect_invalid (&good, &u, &t, "overlapping images");
  }

  checks++;
  if (cm_morph_ref_rank_extreme (NULL, 1, CM_BORDER_NEUTRAL, 0, &a,
          &b) != CM_ERR_INVALID_ARG
      || cm_morph_ref_rank_extreme (se, 1, (cm_border_mode) 9, 0, &a,
          &b) != CM_ERR_INVALID_ARG
      || cm_morph_ref_rank_extreme (se, 1, CM_BORDER_NEUTRAL, 0, &a,
          NULL) != CM_ERR_INVALID_ARG)
    FAIL ("rank_extreme accepted bad arguments");

  test_image_free (&a);
  test_image_free (&b);
  cm_se_free (se);
}

/* ---------------------------------------------------------------------- */
/* Threads and cancellation (cm_morph_ref_mt) */

/* The same result on any number of threads, for every operation. */
static void
check_threads (void)
{
  static const int thread_counts[] = { 2, 3, 7, 64 };
  test_rng r;
  cm_se *se = NULL;

  test_rng_seed (&r, 77);
  if (cm_se_new_disk (&se, 3) != CM_OK) {
    FAIL ("cannot make a disk");
    return;
  }
  for (int op = 0; op < CM_MORPH_OP_COUNT; op++) {
    for (int di = 0; di < 2; di++) {
      cm_morph_desc d = { (cm_morph_op) op, se, 1 + op % 3,
        (cm_border_mode) (op % CM_BORDER_MODE_COUNT), 77
      };
      cm_image src = test_image_new (61, 37, depths[di], 3);
      cm_image want = test_image_new (61, 37, depths[di], 0);

      test_image_fill_random (&src, &r);
      if (cm_morph_ref (&d, &src, &want) != CM_OK) {
        FAIL ("%s: reference failed", cm_morph_op_name (d.op));
        continue;
      }
      for (size_t t = 0; t < N_OF (thread_counts); t++) {
        cm_image got = test_image_new (61, 37, depths[di], 1);
        cm_cpu_opts o = { thread_counts[t], NULL };
        char what[96];

        snprintf (what, sizeof (what), "%s %d-bit on %d threads",
            cm_morph_op_name (d.op), depths[di], o.threads);
        checks++;
        if (cm_morph_ref_mt (&d, &src, &got, &o) != CM_OK)
          FAIL ("%s: failed", what);
        else if (!test_image_equal (&got, &want, what))
          failures++;
        test_image_free (&got);
      }
      test_image_free (&src);
      test_image_free (&want);
    }
  }
  cm_se_free (se);
}

/* A flag set before the run stops it at once; one set from another thread
 * during a run of seconds stops it within a few rows. */
static void
check_cancel (void)
{
  cm_se *se = NULL;
  cm_image src = test_image_new (1024, 512, CM_DEPTH_8, 0);
  cm_image dst = test_image_new (1024, 512, CM_DEPTH_8, 0);
  test_rng r;
  int flag = 1;
  cm_cpu_opts o = { 2, &flag };
  cm_morph_desc d;
  canceller c = { &flag, 100000, 0 };
  pthread_t tid;
  double t0, took;
  cm_status st;

  test_rng_seed (&r, 78);
  test_image_fill_random (&src, &r);
  if (cm_se_new_disk (&se, 150) != CM_OK) {
    FAIL ("cannot make a disk");
    return;
  }
  d = (cm_morph_desc) { CM_MORPH_OPEN, se, 4, CM_BORDER_NEUTRAL, 0 };
  checks++;
  if (cm_morph_ref_mt (&d, &src, &dst, &o) != CM_ERR_CANCELLED)
    FAIL ("a run with the flag set was not cancelled");

  /* uncancelled, this is 8 stages of a 301x301 disk over 0.5 Mpixel:
   * tens of seconds */
  flag = 0;
  checks++;
  pthread_create (&tid, NULL, cancel_later, &c);
  t0 = now_s ();
  st = cm_morph_ref_mt (&d, &src, &dst, &o);
  took = now_s () - t0;
  pthread_join (tid, NULL);
  if (st != CM_ERR_CANCELLED)
    FAIL ("a run cancelled after 0.1 s returned %d", (int) st);
  else if (took > 0.1 + 0.1)
    FAIL ("a run cancelled after 0.1 s stopped only after %.3f s", took);
  test_image_free (&src);
  test_image_free (&dst);
  cm_se_free (se);
}

int
main (void)
{
  CHECK_NAMES ("op", cm_morph_op, cm_morph_op_name, "erode", "dilate", "open",
      "close", "tophat", "blackhat", "gradient");
  check_bad_args ();
  check_matrix ();
  check_order_and_idempotence ();
  check_duality ();
  check_one_pixel_wide ();
  check_rank_extreme ();
  check_threads ();
  check_cancel ();

  return test_count_report ("test-morph-ref");
}
