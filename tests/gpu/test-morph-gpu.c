/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GPU morphology == CPU reference, bit for bit, over the whole image.
 *
 * Table: every op x structuring element x border x depth x image size
 * (1x1 up to 640x480 and strips longer than the largest tiles), seeded
 * random or few-level images, device views with the allocator's pitch, a
 * doubled pitch, or a one-sample offset (unaligned rows). Cases whose
 * brute-force reference would be too slow are thinned by a cost budget.
 * Every destination is pre-filled with noise and read back whole, so that
 * writes outside the destination view are caught too; the source is read
 * back and must be unchanged. Also: planes extract/insert vs the
 * reference, the algorithm each shape selects, and argument checks.
 *
 * Exit 77 (meson SKIP) without a CUDA device; one line per failing case on
 * stderr, "N passed, M failed" at the end, exit 1 on any failure.
 * CM_TEST_VERBOSE=1 prints every case; CM_TEST_DRY_RUN=1 only counts the
 * cases and the reference's cost (2: also times the reference);
 * CM_TEST_MAX_PIXELS=n skips the morphology cases of larger images;
 * CM_TEST_SAMPLE=n runs about one morphology case in n (test-util.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device.h"
#include "kernel-test.h"
#include "morph/morph.h"
#include "planes.h"
#include "morph/se.h"
#include "test-util.h"
#include "test-morph-gpu.h"

int n_fail;
static int n_pass, verbose, dry_run;
static long max_pixels;           /* CM_TEST_MAX_PIXELS: skip larger cases */
static double dry_cost;
static cm_stream stream;
cm_morph_tuning tuning;

static const char *
border_name (cm_border_mode b)
{
  static const char *names[] = { "neutral", "replicate", "reflect", "mirror",
    "constant"
  };
  return (int) b >= 0 && (int) b < CM_BORDER_MODE_COUNT ? names[b] : "?";
}

/* ---- device images with a layout ----------------------------------------
 * 0: cm_device_image_alloc's own pitch; 1: every other row of a twice as
 * tall allocation (doubled pitch); 2: one sample in from the left of a
 * two samples wider allocation (rows not aligned for pair accesses). */

static cm_image
view_of (const cm_image * alloc, int layout, int w, int h)
{
  cm_image v = *alloc;

  v.width = w;
  v.height = h;
  if (layout == 1)
    v.pitch = 2 * alloc->pitch;
  else if (layout == 2)
    v.data = (uint8_t *) alloc->data + cm_depth_bytes (alloc->depth);
  return v;
}

static void
alloc_size (int layout, int w, int h, int *aw, int *ah)
{
  *aw = layout == 2 ? w + 2 : w;
  *ah = layout == 1 ? 2 * h : h;
}

static void
copy_image (const cm_image * dst, const cm_image * src)
{
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      test_image_set (dst, x, y, test_image_get (src, x, y));
}

static void
fill_input (cm_image * img, test_rng * r, int levels)
{
  int nonzero = 0;

  if (levels > 0)
    test_image_fill_levels (img, r, levels);
  else
    test_image_fill_random (img, r);
  for (int y = 0; y < img->height && !nonzero; y++)
    for (int x = 0; x < img->width && !nonzero; x++)
      nonzero = test_image_get (img, x, y) != 0;
  if (!nonzero)
    test_image_set (img, 0, 0, cm_depth_max (img->depth));
}

/* ---- structuring elements ----------------------------------------------- */

shape shapes[MAX_SHAPES];
int n_shapes;

static void
add_shape (const char *name, cm_status st, cm_se * se, const char *algo)
{
  if (st != CM_OK || !se) {
    FAIL ("cannot build structuring element %s: %s", name,
        cm_status_string (st));
    return;
  }
  snprintf (shapes[n_shapes].name, sizeof (shapes[n_shapes].name), "%s",
      name);
  shapes[n_shapes].se = se;
  shapes[n_shapes].expect_algo = algo;
  n_shapes++;
}

#define SHAPE(name, call, algo) do { cm_se *se_ = NULL; \
    cm_status st_ = call; add_shape (name, st_, se_, algo); } while (0)

static void
build_shapes (void)
{
  static char custom[64 * 64 + 1];
  test_rng r;
  int k = 0;

  SHAPE ("rect 3x3", cm_se_new_rect (&se_, 3, 3), "rank3-stream");
  SHAPE ("rect 15x15", cm_se_new_rect (&se_, 15, 15), "vhgw-separable");
  SHAPE ("rect 63x1", cm_se_new_rect (&se_, 63, 1), "vhgw-row");
  SHAPE ("rect 1x63", cm_se_new_rect (&se_, 1, 63), "vhgw-column");
  SHAPE ("rect 255x255", cm_se_new_rect (&se_, 255, 255), "vhgw-separable");
  SHAPE ("rect 3x300", cm_se_new_rect (&se_, 3, 300), "vhgw-separable");
  SHAPE ("rect 4x6", cm_se_new_rect (&se_, 4, 6), "vhgw-separable");
  SHAPE ("rect 2x2", cm_se_new_rect (&se_, 2, 2), "vhgw-separable");
  SHAPE ("rect 5x5", cm_se_new_rect (&se_, 5, 5), "vhgw-separable");
  SHAPE ("custom 3x3 off-centre", cm_se_new_custom (&se_,
          "1110;1110;1110;0000"), "vhgw-separable");
  SHAPE ("rect 33x17", cm_se_new_rect (&se_, 33, 17), "vhgw-separable");
  SHAPE ("rect 64x64", cm_se_new_rect (&se_, 64, 64), "vhgw-separable");
  SHAPE ("rect 65x3", cm_se_new_rect (&se_, 65, 3), "vhgw-separable");
  SHAPE ("rect 1x1", cm_se_new_rect (&se_, 1, 1), NULL);
  SHAPE ("rect 200x1", cm_se_new_rect (&se_, 200, 1), "vhgw-row");
  SHAPE ("rect 300x1", cm_se_new_rect (&se_, 300, 1), "vhgw-row");
  SHAPE ("rect 257x5", cm_se_new_rect (&se_, 257, 5), "vhgw-separable");
  SHAPE ("rect 1x200", cm_se_new_rect (&se_, 1, 200), "vhgw-column");
  SHAPE ("cross 7x5", cm_se_new_cross (&se_, 7, 5), "vhgw-cross");
  SHAPE ("diamond 3", cm_se_new_diamond (&se_, 3), NULL);
  SHAPE ("disk 1", cm_se_new_disk (&se_, 1), "vhgw-cross");
  SHAPE ("disk 7", cm_se_new_disk (&se_, 7), NULL);
  SHAPE ("disk 15", cm_se_new_disk (&se_, 15), NULL);
  SHAPE ("octagon 5", cm_se_new_octagon (&se_, 5), NULL);
  SHAPE ("line 41@0", cm_se_new_line (&se_, 41, 0.0), "vhgw-row");
  /* odd rows up to 65 (8-bit) / 33 (16-bit): the doubling kernel where
   * rows are 16-byte aligned (morph-row-doubling.cu), with one vector of
   * neighbours up to 33 / 17, two beyond (also rect 63x1, rect 65x3) */
  SHAPE ("line 9@0", cm_se_new_line (&se_, 9, 0.0), "vhgw-row");
  SHAPE ("line 17@0", cm_se_new_line (&se_, 17, 0.0), "vhgw-row");
  SHAPE ("line 19@0", cm_se_new_line (&se_, 19, 0.0), "vhgw-row");
  SHAPE ("line 33@0", cm_se_new_line (&se_, 33, 0.0), "vhgw-row");
  SHAPE ("line 35@0", cm_se_new_line (&se_, 35, 0.0), "vhgw-row");
  SHAPE ("line 40@0", cm_se_new_line (&se_, 40, 0.0), "vhgw-row");
  SHAPE ("line 128@0", cm_se_new_line (&se_, 128, 0.0), "vhgw-row");
  SHAPE ("line 41@90", cm_se_new_line (&se_, 41, 90.0), "vhgw-column");
  SHAPE ("line 41@45", cm_se_new_line (&se_, 41, 45.0), "vhgw-diagonal");
  SHAPE ("line 41@135", cm_se_new_line (&se_, 41, 135.0), "vhgw-diagonal");
  SHAPE ("line 40@135", cm_se_new_line (&se_, 40, 135.0), "vhgw-diagonal");
  SHAPE ("line 200@45", cm_se_new_line (&se_, 200, 45.0), "vhgw-diagonal");
  SHAPE ("line 40@45", cm_se_new_line (&se_, 40, 45.0), "vhgw-diagonal");
  SHAPE ("line 31@30", cm_se_new_line (&se_, 31, 30.0), NULL);
  SHAPE ("line 31@70", cm_se_new_line (&se_, 31, 70.0), NULL);
  SHAPE ("line 127@10", cm_se_new_line (&se_, 127, 10.0), NULL);
  SHAPE ("custom 0110;1101;0100",
      cm_se_new_custom (&se_, "0110;1101;0100"), NULL);

  /* 63x63 random mask, about one pixel in eight set */
  test_rng_seed (&r, 6363);
  for (int y = 0; y < 63; y++) {
    for (int x = 0; x < 63; x++)
      custom[k++] = test_rng_below (&r, 8) == 0 || (x == 31 && y == 31) ?
          '1' : '0';
    custom[k++] = y < 62 ? ';' : '\0';
  }
  SHAPE ("custom 63x63 random", cm_se_new_custom (&se_, custom), NULL);
}

/* ---- one morphology case ------------------------------------------------ */

static void
case_name (const morph_case * c, char *buf, size_t size)
{
  snprintf (buf, size, "%s se='%s' border=%s", cm_morph_op_name (c->op),
      c->shape->name, border_name (c->border));
  if (c->border == CM_BORDER_CONSTANT)
    snprintf (buf + strlen (buf), size - strlen (buf), "(%u)",
        c->border_value);
  snprintf (buf + strlen (buf), size - strlen (buf),
      " depth=%d size=%dx%d iter=%d layout=%d fill=%s seed=%llu",
      (int) c->depth, c->width, c->height, c->iterations, c->layout,
      c->levels ? "levels" : "random", (unsigned long long) c->seed);
}

void
run_morph_case (const morph_case * c)
{
  const int w = c->width, h = c->height;
  char name[256];
  cm_morph_desc desc;
  cm_morph_plan *plan = NULL;
  cm_image hsrc, hexp, hsrc_back;
  cm_image dsrc_alloc = { 0 }, ddst_alloc = { 0 };
  cm_image hdst_alloc, hdst_exp, hdst_view, hexp_view, dsrc, ddst;
  int aw, ah, ok = 1;
  cm_status st;
  test_rng r;

  if (max_pixels > 0 && (long) w * h > max_pixels)
    return;
  if (!dry_run && !test_sample_keep ())
    return;
  case_name (c, name, sizeof (name));
  if (verbose)
    printf ("case %s\n", name);
  test_rng_seed (&r, c->seed);

  desc.op = c->op;
  desc.se = c->shape->se;
  desc.iterations = c->iterations;
  desc.border = c->border;
  desc.border_value = c->border_value;
  if (dry_run) {
    dry_cost += case_cost (c);
    n_pass++;
    if (dry_run == 2) {           /* time the reference alone */
      cm_image a = test_image_new (w, h, c->depth, 0);
      cm_image b = test_image_new (w, h, c->depth, 0);
      clock_t t = clock ();
      fill_input (&a, &r, c->levels);
      if (cm_morph_ref (&desc, &a, &b) != CM_OK)
        n_fail++;
      t = clock () - t;
      if (verbose || t > CLOCKS_PER_SEC / 4)
        printf ("%.2f s reference: %s\n", (double) t / CLOCKS_PER_SEC,
            name);
      test_image_free (&a);
      test_image_free (&b);
    }
    return;
  }

  hsrc = test_image_new (w, h, c->depth, 2 * cm_depth_bytes (c->depth));
  hexp = test_image_new (w, h, c->depth, 0);
  hsrc_back = test_image_new (w, h, c->depth, 0);
  alloc_size (c->layout, w, h, &aw, &ah);
  hdst_alloc = test_image_new (aw, ah, c->depth, 0);
  hdst_exp = test_image_new (aw, ah, c->depth, 0);
  if (!hsrc.data || !hexp.data || !hsrc_back.data || !hdst_alloc.data ||
      !hdst_exp.data) {
    FAIL ("%s: host allocation failed", name);
    goto out;
  }
  fill_input (&hsrc, &r, c->levels);
  test_image_fill_random (&hdst_exp, &r);       /* noise under dst */

  st = cm_morph_ref (&desc, &hsrc, &hexp);
  if (st != CM_OK) {
    FAIL ("%s: cm_morph_ref: %s", name, cm_status_string (st));
    goto out;
  }

  {
    int sw, sh;
    alloc_size (c->layout, w, h, &sw, &sh);
    st = cm_device_image_alloc (&dsrc_alloc, sw, sh, c->depth);
    if (st == CM_OK)
      st = cm_device_image_alloc (&ddst_alloc, aw, ah, c->depth);
    if (st != CM_OK) {
      FAIL ("%s: cm_device_image_alloc: %s", name, cm_status_string (st));
      goto out;
    }
  }
  dsrc = view_of (&dsrc_alloc, c->layout, w, h);
  ddst = view_of (&ddst_alloc, c->layout, w, h);
  if (image_copy_async (&dsrc, &hsrc, CM_COPY_H2D, stream) != CM_OK ||
      image_copy_async (&ddst_alloc, &hdst_exp, CM_COPY_H2D,
          stream) != CM_OK) {
    FAIL ("%s: upload failed", name);
    goto out;
  }

  st = cm_morph_plan_new_tuned (&plan, &desc, w, h, c->depth, &tuning);
  if (st != CM_OK) {
    FAIL ("%s: cm_morph_plan_new_tuned: %s", name, cm_status_string (st));
    goto out;
  }
  st = cm_morph_plan_run (plan, &dsrc, &ddst, stream);
  if (st != CM_OK) {
    FAIL ("%s: cm_morph_plan_run (%s): %s", name,
        cm_morph_plan_algorithm (plan), cm_status_string (st));
    goto out;
  }
  if (image_copy_async (&hdst_alloc, &ddst_alloc, CM_COPY_D2H,
          stream) != CM_OK ||
      image_copy_async (&hsrc_back, &dsrc, CM_COPY_D2H, stream) != CM_OK) {
    FAIL ("%s: download failed", name);
    goto out;
  }
  st = cm_stream_sync (stream);
  if (st != CM_OK) {
    FAIL ("%s: after cm_morph_plan_run (%s): %s", name,
        cm_morph_plan_algorithm (plan), cm_status_string (st));
    goto out;
  }

  /* the result in the view, then the whole allocation (nothing written
   * outside the view), then the source */
  hdst_view = view_of (&hdst_alloc, c->layout, w, h);
  hexp_view = view_of (&hdst_exp, c->layout, w, h);
  copy_image (&hexp_view, &hexp);
  {
    char what[400];
    snprintf (what, sizeof (what), "FAIL: %s [%s]", name,
        cm_morph_plan_algorithm (plan));
    ok = test_image_equal (&hdst_view, &hexp, what);
    if (ok) {
      snprintf (what, sizeof (what), "FAIL: %s [%s]: write outside the "
          "destination view (allocation coordinates)", name,
          cm_morph_plan_algorithm (plan));
      ok = test_image_equal (&hdst_alloc, &hdst_exp, what);
    }
    if (ok) {
      snprintf (what, sizeof (what), "FAIL: %s [%s]: source modified", name,
          cm_morph_plan_algorithm (plan));
      ok = test_image_equal (&hsrc_back, &hsrc, what);
    }
  }
  if (ok)
    n_pass++;
  else
    n_fail++;

out:
  cm_morph_plan_free (plan);
  cm_device_free (dsrc_alloc.data);
  cm_device_free (ddst_alloc.data);
  test_image_free (&hsrc);
  test_image_free (&hexp);
  test_image_free (&hsrc_back);
  test_image_free (&hdst_alloc);
  test_image_free (&hdst_exp);
}

/* ---- the table ---------------------------------------------------------- */

static const test_size sizes[] = {
  {1, 1}, {1, 9}, {9, 1}, {3, 2}, {37, 23}, {257, 131}, {640, 480},
  {33, 1100}, {1100, 7}
};

#define N_SIZES ((int) (sizeof (sizes) / sizeof (sizes[0])))

/* samples the brute-force reference reads */
double
case_cost (const morph_case * c)
{
  int stages = c->op == CM_MORPH_ERODE || c->op == CM_MORPH_DILATE ? 1 : 2;
  return (double) c->width * c->height * c->shape->se->count * stages *
      c->iterations;
}

#define PAIR_BUDGET 3.0e8       /* per (size, shape): reference samples  */
#define CASE_CAP 2.5e9          /* no single case above this             */
#define FULL_BELOW 2.0e6        /* cases this cheap are all run          */

uint64_t case_counter;

void
fill_case (morph_case * c, const shape * s, test_size sz, int op, int border,
    int depth16, int iterations)
{
  memset (c, 0, sizeof (*c));
  c->op = (cm_morph_op) op;
  c->shape = s;
  c->border = (cm_border_mode) border;
  c->depth = depth16 ? CM_DEPTH_16 : CM_DEPTH_8;
  c->border_value = depth16 ? 40000 : 77;
  /* now and then a value above the depth's maximum: clamped */
  if (case_counter % 11 == 5)
    c->border_value = depth16 ? 70000 : 300;
  c->width = sz.w;
  c->height = sz.h;
  c->iterations = iterations;
  c->layout = (int) (case_counter % LAYOUTS);
  c->levels = case_counter % 3 == 1 ? 3 + (int) (case_counter % 4) : 0;
  c->seed = 1000 + case_counter;
}

static void
run_table (void)
{
  const int combos = CM_MORPH_OP_COUNT * CM_BORDER_MODE_COUNT * 2;

  for (int si = 0; si < N_SIZES; si++) {
    for (int hi = 0; hi < n_shapes; hi++) {
      const shape *s = &shapes[hi];
      double spent = 0;

      /* iterations 1: all combinations while cheap, then a spread-out
       * subset (stride coprime with the count) within the budget */
      for (int j = 0; j < combos; j++) {
        int k = (j * 29 + hi * 7 + si) % combos;
        morph_case c;
        double cost;

        fill_case (&c, s, sizes[si], k % CM_MORPH_OP_COUNT,
            (k / CM_MORPH_OP_COUNT) % CM_BORDER_MODE_COUNT,
            k / (CM_MORPH_OP_COUNT * CM_BORDER_MODE_COUNT), 1);
        cost = case_cost (&c);
        if (cost > CASE_CAP)
          continue;
        if (cost > FULL_BELOW && spent + cost > PAIR_BUDGET && j >= 2)
          continue;
        spent += cost;
        case_counter++;
        run_morph_case (&c);
      }

      /* iterations 2: every op once, rotating border and depth */
      if (sizes[si].w * sizes[si].h < 4 || sizes[si].w * sizes[si].h > 40000)
        continue;
      for (int op = 0; op < CM_MORPH_OP_COUNT; op++) {
        morph_case c;

        fill_case (&c, s, sizes[si], op,
            (op + hi + si) % CM_BORDER_MODE_COUNT, (op + hi) % 2, 2);
        if (case_cost (&c) > 1.0e8)
          continue;
        case_counter++;
        run_morph_case (&c);
      }
    }
  }
}

/* ---- algorithm selection ------------------------------------------------ */

static void
check_algorithms (void)
{
  for (int i = 0; i < n_shapes; i++) {
    cm_morph_desc desc = { CM_MORPH_ERODE, shapes[i].se, 1,
      CM_BORDER_REPLICATE, 0
    };
    cm_morph_plan *plan = NULL;
    cm_status st = cm_morph_plan_new (&plan, &desc, 64, 48, CM_DEPTH_8);
    const char *algo;

    if (st != CM_OK) {
      FAIL ("plan for se='%s': %s", shapes[i].name, cm_status_string (st));
      continue;
    }
    algo = cm_morph_plan_algorithm (plan);
    printf ("se='%s' (%d offsets): %s\n", shapes[i].name,
        shapes[i].se->count, algo);
    if (shapes[i].expect_algo && strcmp (algo, shapes[i].expect_algo) != 0)
      FAIL ("se='%s' selected algorithm '%s', expected '%s'", shapes[i].name,
          algo, shapes[i].expect_algo);
    else
      n_pass++;
    cm_morph_plan_free (plan);
  }
}

/* ---- argument checks ---------------------------------------------------- */

static void
expect_status (const char *what, cm_status got, cm_status expected)
{
  if (got != expected)
    FAIL ("%s: got status %d (%s), expected %d (%s)", what, (int) got,
        cm_status_string (got), (int) expected, cm_status_string (expected));
  else
    n_pass++;
}

static void
check_arguments (void)
{
  cm_morph_desc desc = { CM_MORPH_ERODE, shapes[0].se, 1,
    CM_BORDER_REPLICATE, 0
  };
  cm_morph_plan *plan = NULL;
  cm_image a = { 0 }, b = { 0 }, small;
  char buf[128];

  expect_status ("plan_new (out NULL)",
      cm_morph_plan_new (NULL, &desc, 8, 8, CM_DEPTH_8), CM_ERR_INVALID_ARG);
  expect_status ("plan_new (width 0)",
      cm_morph_plan_new (&plan, &desc, 0, 8, CM_DEPTH_8), CM_ERR_INVALID_ARG);
  expect_status ("plan_new (depth 12)",
      cm_morph_plan_new (&plan, &desc, 8, 8, (cm_depth) 12),
      CM_ERR_INVALID_ARG);
  desc.iterations = 0;
  expect_status ("plan_new (iterations 0)",
      cm_morph_plan_new (&plan, &desc, 8, 8, CM_DEPTH_8), CM_ERR_INVALID_ARG);
  desc.iterations = 1;
  desc.op = (cm_morph_op) CM_MORPH_OP_COUNT;
  expect_status ("plan_new (bad op)",
      cm_morph_plan_new (&plan, &desc, 8, 8, CM_DEPTH_8), CM_ERR_INVALID_ARG);
  desc.op = CM_MORPH_ERODE;
  desc.border = (cm_border_mode) CM_BORDER_MODE_COUNT;
  expect_status ("plan_new (bad border)",
      cm_morph_plan_new (&plan, &desc, 8, 8, CM_DEPTH_8), CM_ERR_INVALID_ARG);
  desc.border = CM_BORDER_REPLICATE;
  desc.se = NULL;
  expect_status ("plan_new (se NULL)",
      cm_morph_plan_new (&plan, &desc, 8, 8, CM_DEPTH_8), CM_ERR_INVALID_ARG);
  desc.se = shapes[0].se;

  expect_status ("plan_new (valid)",
      cm_morph_plan_new (&plan, &desc, 8, 8, CM_DEPTH_8), CM_OK);
  if (plan && cm_device_image_alloc (&a, 8, 8, CM_DEPTH_8) == CM_OK &&
      cm_device_image_alloc (&b, 8, 8, CM_DEPTH_8) == CM_OK) {
    small = b;
    small.width = 7;
    expect_status ("plan_run (size mismatch)",
        cm_morph_plan_run (plan, &a, &small, stream), CM_ERR_INVALID_ARG);
    expect_status ("plan_run (src == dst)",
        cm_morph_plan_run (plan, &a, &a, stream), CM_ERR_INVALID_ARG);
    expect_status ("plan_run (NULL dst)",
        cm_morph_plan_run (plan, &a, NULL, stream), CM_ERR_INVALID_ARG);
    expect_status ("plan_run (valid)",
        cm_morph_plan_run (plan, &a, &b, stream), CM_OK);
    expect_status ("stream sync", cm_stream_sync (stream), CM_OK);
  } else {
    FAIL ("argument checks: allocation failed");
  }
  cm_morph_plan_free (plan);
  cm_device_free (a.data);
  cm_device_free (b.data);

  expect_status ("image_alloc (height 0)",
      cm_device_image_alloc (&a, 4, 0, CM_DEPTH_8), CM_ERR_INVALID_ARG);
  expect_status ("device_set (count)", cm_device_set (cm_device_count ()),
      CM_ERR_NO_DEVICE);
  expect_status ("device_name", cm_device_name (-1, buf, sizeof (buf)),
      CM_OK);
  if (cm_have_cuda () != 1)
    FAIL ("cm_have_cuda () != 1 in a CUDA build");
  if (strcmp (cm_status_string ((cm_status) (CM_ERR_CUDA_BASE + 2)),
          "unknown status") == 0)
    FAIL ("cm_status_string of a CUDA error gives no CUDA text");
}

/* ---- planes ------------------------------------------------------------- */

static cm_image
packed_as_image (const cm_image_packed * p)
{
  cm_image img;

  img.data = p->data;
  img.pitch = p->pitch;
  img.width = p->width * p->channels;
  img.height = p->height;
  img.depth = p->depth;
  return img;
}

/* One step of a planes case on channel @ch: @st, the status of the device
 * work and of the reference, then @got == @exp (counted); "@name @step
 * channel @ch@where" in the failure messages. FALSE when @st is not
 * CM_OK. */
static int
planes_step_check (cm_status st, const cm_image * got, const cm_image * exp,
    const char *name, const char *step, int ch, const char *where)
{
  char what[256];

  if (st != CM_OK) {
    FAIL ("%s %s channel %d: %s", name, step, ch, cm_status_string (st));
    return 0;
  }
  snprintf (what, sizeof (what), "FAIL: %.120s %s channel %d%s", name, step,
      ch, where);
  if (test_image_equal (got, exp, what))
    n_pass++;
  else
    n_fail++;
  return 1;
}

static void
run_planes_case (int w, int h, cm_depth depth, int channels, int offset,
    uint64_t seed)
{
  const int bpp = cm_depth_bytes (depth);
  cm_image_packed dalloc = { 0 }, dview;
  cm_image dplane = { 0 }, hpacked, hpacked2, hplane, hplane_got, hexp;
  cm_image dpimg;
  char name[160];
  cm_status st;
  test_rng r;

  snprintf (name, sizeof (name), "planes %dx%d depth=%d channels=%d "
      "offset=%d", w, h, (int) depth, channels, offset);
  if (verbose)
    printf ("case %s\n", name);
  test_rng_seed (&r, seed);
  hpacked = test_image_new (w * channels, h, depth, 3 * bpp);
  hpacked2 = test_image_new (w * channels, h, depth, 0);
  hplane = test_image_new (w, h, depth, bpp);
  hplane_got = test_image_new (w, h, depth, 0);
  hexp = test_image_new (w, h, depth, 0);
  fill_input (&hpacked, &r, 0);

  /* packed allocation one byte wider so that `offset` bytes fit */
  st = cm_device_packed_alloc (&dalloc, w + 1, h, depth, channels);
  if (st == CM_OK)
    st = cm_device_image_alloc (&dplane, w, h, depth);
  if (st != CM_OK) {
    FAIL ("%s: allocation: %s", name, cm_status_string (st));
    goto out;
  }
  dview = dalloc;
  dview.width = w;
  dview.data = (uint8_t *) dalloc.data + offset;
  dpimg = packed_as_image (&dview);
  if (image_copy_async (&dpimg, &hpacked, CM_COPY_H2D, stream) != CM_OK) {
    FAIL ("%s: upload failed", name);
    goto out;
  }
  for (int ch = 0; ch < channels; ch++) {
    cm_image_packed hp = { hpacked.data, hpacked.pitch, w, h, depth,
      channels
    };

    /* extract */
    st = cm_extract_channel_cuda (&dview, ch, &dplane, stream);
    if (st == CM_OK)
      st = image_copy (&hplane_got, &dplane, CM_COPY_D2H, stream);
    if (st == CM_OK)
      st = cm_extract_channel_ref (&hp, ch, &hexp);
    if (!planes_step_check (st, &hplane_got, &hexp, name, "extract", ch, ""))
      continue;

    /* insert a new plane into the device copy and the host copy */
    fill_input (&hplane, &r, 0);
    st = image_copy_async (&dplane, &hplane, CM_COPY_H2D, stream);
    if (st == CM_OK)
      st = cm_insert_channel_cuda (&dplane, ch, &dview, stream);
    if (st == CM_OK)
      st = image_copy (&hpacked2, &dpimg, CM_COPY_D2H, stream);
    if (st == CM_OK)
      st = cm_insert_channel_ref (&hplane, ch, &hp);
    planes_step_check (st, &hpacked2, &hpacked, name, "insert", ch,
        " (packed sample coordinates)");
  }

out:
  cm_device_free (dalloc.data);
  cm_device_free (dplane.data);
  test_image_free (&hpacked);
  test_image_free (&hpacked2);
  test_image_free (&hplane);
  test_image_free (&hplane_got);
  test_image_free (&hexp);
}

static void
run_planes (void)
{
  static const test_size psizes[] = { {1, 1}, {37, 23}, {257, 131} };
  uint64_t seed = 77;

  for (int i = 0; i < 3; i++)
    for (int d = 0; d < 2; d++)
      for (int ch = 1; ch <= 4; ch++)
        for (int off = 0; off < 2; off++)
          run_planes_case (psizes[i].w, psizes[i].h,
              d ? CM_DEPTH_16 : CM_DEPTH_8, ch, off, seed++);
}

/* every case against the reference: the table, then the paths the
 * automatic choice does not take (test-morph-gpu-paths.c) */
static void
run_cases (void)
{
  run_table ();
  run_tile_limits ();
  run_forced_paths ();
  run_row_pwin ();
  run_diagonals ();
  run_runs_rows ();
}

int
main (void)
{
  clock_t t0 = clock ();
  int rc;

  verbose = getenv ("CM_TEST_VERBOSE") && atoi (getenv ("CM_TEST_VERBOSE")) > 0;
  if (getenv ("CM_TEST_MAX_PIXELS"))
    max_pixels = atol (getenv ("CM_TEST_MAX_PIXELS"));
  dry_run = getenv ("CM_TEST_DRY_RUN") ? atoi (getenv ("CM_TEST_DRY_RUN"))
      : 0;
  if (dry_run) {
    /* count the table's cases and reference cost, no device needed */
    build_shapes ();
    run_cases ();
    printf ("%d cases, %.3g reference samples, %.1f s\n", n_pass, dry_cost,
        (double) (clock () - t0) / CLOCKS_PER_SEC);
    return 0;
  }
  rc = kernel_test_open (&stream);
  if (rc == 1)
    printf ("0 passed, 1 failed\n");
  if (rc != 0)
    return rc;

  build_shapes ();
  if (getenv ("CM_TEST_PART") && !strcmp (getenv ("CM_TEST_PART"), "pwin"))
    run_row_pwin ();            /* one part alone, while working on it */
  else if (getenv ("CM_TEST_PART") &&
      !strcmp (getenv ("CM_TEST_PART"), "diag"))
    run_diagonals ();
  else if (getenv ("CM_TEST_PART") &&
      !strcmp (getenv ("CM_TEST_PART"), "runs"))
    run_runs_rows ();
  else {
    check_algorithms ();
    check_arguments ();
    run_planes ();
    run_cases ();
  }

  for (int i = 0; i < n_shapes; i++)
    cm_se_free (shapes[i].se);
  cm_stream_free (stream);
  printf ("cpu time %.1f s\n", (double) (clock () - t0) / CLOCKS_PER_SEC);
  test_sample_report ();
  printf ("%d passed, %d failed\n", n_pass, n_fail);
  return n_fail ? 1 : 0;
}
