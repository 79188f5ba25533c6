/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cm_reconstruct_ref and cm_recon_ref against a brute force written here
 * from the definition: a geodesic dilation (erosion) by the unit
 * neighbourhood, min (max) with the mask, repeated until a pass changes
 * nothing, with the passes counted. Random images of both depths and
 * sizes from 1x1, plateaus, all-equal frames, 1-pixel-wide and -high
 * frames, serpentine mazes whose one corridor winds through the whole
 * frame (the worst case for propagation), both connectivities; then
 * properties of the operations and argument checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reconstruct/reconstruct.h"
#include "morph/se.h"
#include "test-count.h"
#include "test-util.h"

/* ---------------------------------------------------------------------- */
/* The brute force, on the images themselves (test_image_get/set) */

/* One geodesic step of @g under (by_erosion: over) @f, Jacobi style (from
 * a copy), into @g. Returns whether anything changed. */
static int
geodesic_step (int by_erosion, int conn, const cm_image * f, cm_image * g,
    cm_image * prev)
{
  int changed = 0;

  for (int y = 0; y < g->height; y++)
    for (int x = 0; x < g->width; x++)
      test_image_set (prev, x, y, test_image_get (g, x, y));
  for (int y = 0; y < g->height; y++) {
    for (int x = 0; x < g->width; x++) {
      uint32_t m = test_image_get (prev, x, y), v;

      for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
          int nx = x + dx, ny = y + dy;
          uint32_t s;

          if (conn == 4 && dx != 0 && dy != 0)
            continue;
          if (nx < 0 || ny < 0 || nx >= g->width || ny >= g->height)
            continue;
          s = test_image_get (prev, nx, ny);
          m = by_erosion ? (s < m ? s : m) : (s > m ? s : m);
        }
      }
      v = test_image_get (f, x, y);
      m = by_erosion ? (m > v ? m : v) : (m < v ? m : v);
      if (m != test_image_get (prev, x, y))
        changed = 1;
      test_image_set (g, x, y, m);
    }
  }
  return changed;
}

/* Brute-force reconstruction of @g (clamped to @f's side first); returns
 * the passes until one changed nothing. */
static int
brute_reconstruct (int by_erosion, int conn, const cm_image * f,
    cm_image * g)
{
  cm_image prev = test_image_new (g->width, g->height, g->depth, 0);
  int passes = 0;

  for (int y = 0; y < g->height; y++)
    for (int x = 0; x < g->width; x++) {
      uint32_t a = test_image_get (g, x, y), b = test_image_get (f, x, y);

      test_image_set (g, x, y, by_erosion ? (a > b ? a : b) :
          (a < b ? a : b));
    }
  do
    passes++;
  while (geodesic_step (by_erosion, conn, f, g, &prev));
  test_image_free (&prev);
  return passes;
}

/* The operations from their definitions in reconstruct.h. */
static void
brute_op (const cm_recon_desc * d, const cm_image * f, cm_image * out)
{
  int w = f->width, h = f->height;
  uint32_t maxv = cm_depth_max (f->depth);
  uint32_t hgt = d->height < maxv ? d->height : maxv;
  cm_image g = test_image_new (w, h, f->depth, 3);

  switch (d->op) {
    case CM_RECON_FILL_HOLES:
    case CM_RECON_CLEAR_BORDER:
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          int edge = x == 0 || y == 0 || x == w - 1 || y == h - 1;

          test_image_set (&g, x, y, edge ? test_image_get (f, x, y) :
              d->op == CM_RECON_FILL_HOLES ? maxv : 0);
        }
      brute_reconstruct (d->op == CM_RECON_FILL_HOLES, d->connectivity, f,
          &g);
      break;
    case CM_RECON_OPEN:
    case CM_RECON_CLOSE:{
      cm_morph_desc md = d->marker;

      md.op = d->op == CM_RECON_OPEN ? CM_MORPH_ERODE : CM_MORPH_DILATE;
      if (cm_morph_ref (&md, f, &g) != CM_OK)
        FAIL ("marker erosion/dilation failed");
      brute_reconstruct (d->op == CM_RECON_CLOSE, d->connectivity, f, &g);
      break;
    }
    case CM_RECON_HMAX:
    case CM_RECON_HDOME:
    case CM_RECON_HMIN:
    case CM_RECON_HBASIN:{
      /* the marker f - h under f (maxima) or f + h over f (minima),
       * saturated */
      int minima = d->op == CM_RECON_HMIN || d->op == CM_RECON_HBASIN;

      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          uint32_t v = test_image_get (f, x, y);

          test_image_set (&g, x, y, minima ? (v + hgt < maxv ? v + hgt :
                  maxv) : (v > hgt ? v - hgt : 0));
        }
      brute_reconstruct (minima, d->connectivity, f, &g);
      break;
    }
  }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint32_t v = test_image_get (f, x, y), r = test_image_get (&g, x, y);

      if (d->op == CM_RECON_CLEAR_BORDER || d->op == CM_RECON_HDOME)
        r = v - r;
      else if (d->op == CM_RECON_HBASIN)
        r = r - v;
      test_image_set (out, x, y, r);
    }
  test_image_free (&g);
}

/* ---------------------------------------------------------------------- */
/* Inputs */

typedef enum
{
  FILL_RANDOM, FILL_PLATEAUS, FILL_EQUAL, FILL_MAZE
} fill_kind;

static const char *fill_names[] = { "random", "plateaus", "equal", "maze" };

static void
fill (cm_image * img, fill_kind k, test_rng * r)
{
  uint32_t maxv = cm_depth_max (img->depth);

  switch (k) {
    case FILL_RANDOM:
      test_image_fill_random (img, r);
      break;
    case FILL_PLATEAUS:
      test_image_fill_levels (img, r, 3);
      break;
    case FILL_EQUAL:
      test_image_fill (img, test_rng_below (r, maxv + 1));
      break;
    case FILL_MAZE:
      test_image_fill_maze (img, test_rng_below (r, maxv / 4), maxv / 2 +
          test_rng_below (r, maxv / 2), test_rng_below (r, 2), 0);
      break;
  }
}

/* ---------------------------------------------------------------------- */
/* Reconstruction itself */

/* One check: the call returned CM_OK and its result got equals want */
static void
check_result (cm_status st, const cm_image * got, const cm_image * want,
    const char *what)
{
  checks++;
  if (st != CM_OK)
    FAIL ("%s: failed", what);
  else if (!test_image_equal (got, want, what))
    failures++;
}

static void
check_reconstruct (int w, int h, cm_depth depth, fill_kind kind, int conn,
    cm_recon_mode mode, test_rng * r)
{
  cm_image f = test_image_new (w, h, depth, 5);
  cm_image g = test_image_new (w, h, depth, 1);
  cm_image want = test_image_new (w, h, depth, 0);
  char what[160];
  int passes;

  fill (&f, kind, r);
  if (kind == FILL_MAZE) {
    /* one seed at the corridor's start, nothing elsewhere (by dilation);
     * by erosion, the dual */
    test_image_fill (&g, mode == CM_RECON_BY_DILATION ? 0 :
        cm_depth_max (depth));
    test_image_set (&g, 0, 0, test_image_get (&f, 0, 0));
  } else {
    test_image_fill_random (&g, r);
  }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      test_image_set (&want, x, y, test_image_get (&g, x, y));
  passes = brute_reconstruct (mode == CM_RECON_BY_EROSION, conn, &f, &want);

  snprintf (what, sizeof (what), "reconstruct by %s, %dx%d %d-bit %s, "
      "%d-connected (%d brute-force passes)", mode == CM_RECON_BY_DILATION ?
      "dilation" : "erosion", w, h, depth, fill_names[kind], conn, passes);
  check_result (cm_reconstruct_ref (mode, conn, &f, &g), &g, &want, what);
  test_image_free (&f);
  test_image_free (&g);
  test_image_free (&want);
}

/* A large maze without the brute force: a seed at the corridor's start
 * must flood the whole corridor, which then equals the mask. */
static void
check_large_maze (int w, int h, int conn)
{
  cm_image f = test_image_new (w, h, CM_DEPTH_8, 0);
  cm_image g = test_image_new (w, h, CM_DEPTH_8, 0);
  char what[96];

  test_image_fill_maze (&f, 0, 200, 0, 0);
  test_image_fill (&g, 0);
  test_image_set (&g, 0, 0, 200);
  snprintf (what, sizeof (what), "maze %dx%d, %d-connected", w, h, conn);
  check_result (cm_reconstruct_ref (CM_RECON_BY_DILATION, conn, &f, &g), &g,
      &f, what);
  test_image_free (&f);
  test_image_free (&g);
}

/* ---------------------------------------------------------------------- */
/* The operations */

static const char *op_names[CM_RECON_OP_COUNT] = {
  "fill-holes", "clear-border", "open-rec", "close-rec", "hmax", "hmin",
  "hdome", "hbasin"
};

static void
check_op (cm_recon_op op, int w, int h, cm_depth depth, fill_kind kind,
    int conn, uint32_t hgt, const cm_se * se, test_rng * r)
{
  cm_recon_desc d = { 0 };
  cm_image f = test_image_new (w, h, depth, 2);
  cm_image got = test_image_new (w, h, depth, 4);
  cm_image want = test_image_new (w, h, depth, 0);
  char what[160];

  d.op = op;
  d.connectivity = conn;
  d.height = hgt;
  d.marker.se = se;
  d.marker.iterations = 1;
  d.marker.border = CM_BORDER_NEUTRAL;
  fill (&f, kind, r);
  brute_op (&d, &f, &want);
  snprintf (what, sizeof (what), "%s, %dx%d %d-bit %s, %d-connected, h %u",
      op_names[op], w, h, depth, fill_names[kind], conn, hgt);
  check_result (cm_recon_ref (&d, &f, &got), &got, &want, what);

  /* properties: fill-holes is extensive and idempotent; an h-dome is
   * never higher than h */
  if (op == CM_RECON_FILL_HOLES) {
    cm_image again = test_image_new (w, h, depth, 0);

    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        if (test_image_get (&got, x, y) < test_image_get (&f, x, y)) {
          FAIL ("%s: not extensive at (%d, %d)", what, x, y);
          y = h;
          break;
        }
    if (cm_recon_ref (&d, &got, &again) != CM_OK ||
        !test_image_equal (&again, &got, "fill-holes twice"))
      FAIL ("%s: not idempotent", what);
    test_image_free (&again);
  } else if (op == CM_RECON_HDOME) {
    uint32_t lim = hgt < cm_depth_max (depth) ? hgt : cm_depth_max (depth);

    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        if (test_image_get (&got, x, y) > lim) {
          FAIL ("%s: dome of %u > h at (%d, %d)", what,
              test_image_get (&got, x, y), x, y);
          y = h;
          break;
        }
  }
  test_image_free (&f);
  test_image_free (&got);
  test_image_free (&want);
}

static void
check_arguments (void)
{
  cm_image a = test_image_new (8, 8, CM_DEPTH_8, 0);
  cm_image b = test_image_new (8, 7, CM_DEPTH_8, 0);
  cm_image c = test_image_new (8, 8, CM_DEPTH_16, 0);
  cm_image d8 = test_image_new (8, 8, CM_DEPTH_8, 0);
  cm_recon_desc d = { CM_RECON_HMAX, 8, 10, { 0 } };

  checks++;
  if (cm_reconstruct_ref (CM_RECON_BY_DILATION, 6, &a, &d8) !=
      CM_ERR_INVALID_ARG)
    FAIL ("connectivity 6 accepted");
  if (cm_reconstruct_ref (CM_RECON_BY_DILATION, 8, &a, &b) !=
      CM_ERR_INVALID_ARG)
    FAIL ("different sizes accepted");
  if (cm_reconstruct_ref (CM_RECON_BY_DILATION, 8, &a, &c) !=
      CM_ERR_INVALID_ARG)
    FAIL ("different depths accepted");
  if (cm_reconstruct_ref ((cm_recon_mode) 2, 8, &a, &d8) !=
      CM_ERR_INVALID_ARG)
    FAIL ("mode 2 accepted");
  if (cm_recon_ref (&d, &a, &a) != CM_ERR_INVALID_ARG)
    FAIL ("dst == src accepted");
  d.op = (cm_recon_op) CM_RECON_OP_COUNT;
  if (cm_recon_ref (&d, &a, &d8) != CM_ERR_INVALID_ARG)
    FAIL ("op %d accepted", CM_RECON_OP_COUNT);
  d.op = CM_RECON_OPEN;
  if (cm_recon_ref (&d, &a, &d8) != CM_ERR_INVALID_ARG)
    FAIL ("open-rec without a structuring element accepted");
  if (cm_recon_ref (NULL, &a, &d8) != CM_ERR_INVALID_ARG)
    FAIL ("NULL desc accepted");
  test_image_free (&a);
  test_image_free (&b);
  test_image_free (&c);
  test_image_free (&d8);
}

int
main (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 9}, {9, 1}, {2, 2}, {3, 5}, {17, 13}, {40, 31}, {64, 3}
  };
  const cm_depth depths[] = { CM_DEPTH_8, CM_DEPTH_16 };
  test_rng r;
  cm_se *se = NULL;

  test_rng_seed (&r, 20261125);
  for (size_t s = 0; s < sizeof (sizes) / sizeof (sizes[0]); s++)
    for (int di = 0; di < 2; di++)
      for (int k = FILL_RANDOM; k <= FILL_MAZE; k++)
        for (int conn = 4; conn <= 8; conn += 4)
          for (int m = 0; m < 2; m++)
            check_reconstruct (sizes[s][0], sizes[s][1], depths[di],
                (fill_kind) k, conn, (cm_recon_mode) m, &r);
  /* mazes for the brute force: the corridor is about half the pixels */
  for (int conn = 4; conn <= 8; conn += 4) {
    check_reconstruct (33, 33, CM_DEPTH_8, FILL_MAZE, conn,
        CM_RECON_BY_DILATION, &r);
    check_reconstruct (31, 45, CM_DEPTH_16, FILL_MAZE, conn,
        CM_RECON_BY_EROSION, &r);
    check_large_maze (1027, 769, conn);
  }

  if (cm_se_new_disk (&se, 2) != CM_OK) {
    fprintf (stderr, "cannot make a disk\n");
    return 1;
  }
  for (int op = 0; op < CM_RECON_OP_COUNT; op++)
    for (size_t s = 0; s < sizeof (sizes) / sizeof (sizes[0]); s++)
      for (int di = 0; di < 2; di++)
        for (int k = FILL_RANDOM; k <= FILL_MAZE; k++)
          for (int conn = 4; conn <= 8; conn += 4) {
            uint32_t hgt = test_rng_below (&r, 3) == 0 ? 70000 :
                test_rng_below (&r, di ? 20000 : 120);

            check_op ((cm_recon_op) op, sizes[s][0], sizes[s][1],
                depths[di], (fill_kind) k, conn, hgt, se, &r);
          }
  cm_se_free (se);
  check_arguments ();

  return test_count_report ("test-reconstruct-ref");
}
