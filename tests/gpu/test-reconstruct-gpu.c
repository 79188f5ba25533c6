/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GPU reconstruction == CPU twin (reconstruct-ref.c), bit for bit, over
 * the whole frame.
 *
 * Table: the eight operations x 4/8-connectivity x 8/16-bit x frames from
 * 1x1 to 3840x2160 (strips one pixel wide or high, sizes off every warp
 * and band multiple), filled with random noise, few-level plateaus, one
 * value, piecewise-constant blobs, and serpentine mazes, framed or not,
 * along rows or columns (a single corridor from the border through half
 * the frame: the longest propagation there is). Device views with the
 * allocator's pitch or one sample in (unaligned rows); the destination is
 * pre-filled with noise and read back whole, the source read back
 * unchanged. Each frame also runs under odd tunings (one-row bands, bands
 * taller than the frame, one block per SM, rows through the chunk staging
 * that frames too wide for shared memory take) that change which warp
 * does what and in which order. The pass count must be reported (>= 1).
 * Also: argument checks.
 *
 * Exit 77 (meson SKIP) without a CUDA device; one line per failing case on
 * stderr, "N passed, M failed" at the end, exit 1 on any failure.
 * CM_TEST_VERBOSE=1 prints every case with its pass count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "kernel-test.h"
#include "reconstruct/reconstruct.h"
#include "morph/se.h"
#include "test-util.h"

static int n_pass, n_fail, verbose;
static cm_stream stream;
static cm_se *disk3, *line7, *ring;   /* ring: no origin, so the marker
                                         * of open/close crosses the mask */

#define FAIL(...) do { fprintf (stderr, "FAIL: " __VA_ARGS__); \
    fputc ('\n', stderr); n_fail++; } while (0)

static const cm_recon_tuning tunings[] = {
  {0, 0, 0},                    /* the defaults: rows in shared memory */
  {1, 0, 1},                    /* one-row bands, rows in chunks */
  {100000, 1, 0},               /* one band, one block per SM */
  {7, 1, 1},
};

#define N_TUNINGS ((int) (sizeof (tunings) / sizeof (tunings[0])))

/* One frame: every tuning in @tuning_mask against the CPU twin. */
static void
check_case (cm_recon_op op, int conn, int w, int h, cm_depth depth,
    test_fill_kind kind, int vertical, int layout, unsigned tuning_mask,
    test_rng * r)
{
  cm_recon_desc d;
  const int aw = w + 2;
  cm_image src_whole = test_image_new (aw, h, depth, 0);
  cm_image dst_whole = test_image_new (aw, h, depth, 0);
  cm_image noise = test_image_new (aw, h, depth, 0);
  cm_image src, want = test_image_new (w, h, depth, 0);
  kernel_test_image ds, dd;
  char what[256];

  memset (&d, 0, sizeof (d));
  d.op = op;
  d.connectivity = conn;
  d.height = test_rng_below (r, 3) == 0 ? 0 :
      test_rng_below (r, cm_depth_max (depth) / 3 + 2);
  d.marker.se = test_rng_below (r, 3) == 0 ? disk3 :
      test_rng_below (r, 2) ? line7 : ring;
  d.marker.iterations = 1 + (int) test_rng_below (r, 2);
  d.marker.border = (cm_border_mode) test_rng_below (r, CM_BORDER_MODE_COUNT);
  d.marker.border_value = test_rng_below (r, cm_depth_max (depth) + 1);

  test_image_fill_random (&src_whole, r);
  test_image_fill_random (&noise, r);
  src = kernel_test_host_view (&src_whole, layout, w);
  test_image_fill_kind (&src, kind, vertical, r);

  if (cm_recon_ref (&d, &src, &want) != CM_OK) {
    FAIL ("CPU twin refused %s", cm_recon_op_name (op));
    goto out;
  }
  if (!kernel_test_images_new (&ds, &dd, w, h, depth, depth, layout)) {
    FAIL ("device allocation %dx%d", w, h);
    goto out;
  }
  image_copy_async (&ds.alloc, &src_whole, CM_COPY_H2D, stream);

  for (int t = 0; t < N_TUNINGS; t++) {
    cm_recon_plan *plan = NULL;
    cm_status st;
    int ok, passes;

    if (!(tuning_mask & (1u << t)))
      continue;
    snprintf (what, sizeof (what), "%s %d-connected h=%u %dx%d %d-bit %s%s "
        "layout %d tuning %d", cm_recon_op_name (op), conn, d.height, w, h,
        depth, test_fill_name (kind), vertical ? " (columns)" : "", layout, t);
    st = cm_recon_plan_new_tuned (&plan, &d, w, h, depth, &tunings[t]);
    if (st != CM_OK) {
      FAIL ("%s: plan: %s", what, cm_status_string (st));
      continue;
    }
    image_copy_async (&dd.alloc, &noise, CM_COPY_H2D, stream);
    st = kernel_test_synced (cm_recon_plan_run (plan, &ds.view, &dd.view,
            stream), stream);
    if (st != CM_OK) {
      FAIL ("%s: run: %s", what, cm_status_string (st));
      cm_recon_plan_free (plan);
      continue;
    }
    passes = cm_recon_plan_passes (plan);
    ok = kernel_test_output_ok (&dd, &dst_whole, &want, &noise, layout,
        stream, what);
    if (ok && passes < 1) {
      fprintf (stderr, "%s: %d passes reported\n", what, passes);
      ok = 0;
    }
    if (ok)
      ok = kernel_test_source_unchanged (&ds, &src_whole, stream);
    if (ok)
      n_pass++;
    else
      FAIL ("%s", what);
    if (verbose)
      printf ("%s: %s, %d passes\n", ok ? "ok" : "FAIL", what, passes);
    cm_recon_plan_free (plan);
  }
  cm_device_free (ds.alloc.data);
  cm_device_free (dd.alloc.data);
out:
  test_image_free (&src_whole);
  test_image_free (&dst_whole);
  test_image_free (&noise);
  test_image_free (&want);
}

static void
test_table (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 45}, {45, 1}, {2, 2}, {3, 3}, {31, 33}, {33, 31}, {65, 7},
    {130, 97}, {257, 129}, {640, 480},
  };
  test_rng r;

  test_rng_seed (&r, 19);
  for (size_t s = 0; s < sizeof (sizes) / sizeof (sizes[0]); s++)
    for (int op = 0; op < CM_RECON_OP_COUNT; op++)
      for (int conn = 4; conn <= 8; conn += 4)
        for (int depth = 8; depth <= 16; depth += 8)
          for (int k = 0; k < TEST_FILL_KINDS; k++) {
            const int w = sizes[s][0], h = sizes[s][1];
            /* every tuning on small frames, the defaults and one more
             * on the larger */
            const unsigned mask = w * h <= 4096 ? 0xfu :
                1u | (1u << (1 + (op + k) % 3));

            check_case ((cm_recon_op) op, conn, w, h, (cm_depth) depth,
                (test_fill_kind) k, (op + k + conn) % 2, (op + s) % 2, mask,
                &r);
          }
}

/* Frames of the sizes the element sees, and the 4K mazes. */
static void
test_large (void)
{
  test_rng r;

  test_rng_seed (&r, 1919);
  for (int op = 0; op < CM_RECON_OP_COUNT; op++)
    for (int conn = 4; conn <= 8; conn += 4) {
      check_case ((cm_recon_op) op, conn, 1920, 1080, CM_DEPTH_8,
          TEST_FILL_BLOBS, 0, 0, 1u | 2u, &r);
      check_case ((cm_recon_op) op, conn, 1920, 1080, CM_DEPTH_16,
          TEST_FILL_RANDOM, 0, 1, 1u, &r);
    }
  check_case (CM_RECON_FILL_HOLES, 8, 3840, 2160, CM_DEPTH_8,
      TEST_FILL_BLOBS, 0, 0, 1u, &r);
  check_case (CM_RECON_OPEN, 8, 3840, 2160, CM_DEPTH_16, TEST_FILL_BLOBS, 0,
      0, 1u, &r);
  check_case (CM_RECON_FILL_HOLES, 8, 3840, 2160, CM_DEPTH_8,
      TEST_FILL_MAZE_FRAMED_DARK, 0, 0, 1u, &r);
  check_case (CM_RECON_CLEAR_BORDER, 4, 3840, 2160, CM_DEPTH_16,
      TEST_FILL_MAZE_FRAMED, 1, 1, 1u, &r);
}

static void
test_arguments (void)
{
  cm_recon_plan *plan = (cm_recon_plan *) 1;
  cm_recon_desc d;
  cm_recon_tuning bad = { -1, 0, 0 };
  cm_image a, b;
  int expected_failures = 0, got_failures = 0;

  memset (&d, 0, sizeof (d));
  d.op = CM_RECON_FILL_HOLES;
  d.connectivity = 8;

#define EXPECT_REFUSED(call) do { expected_failures++; \
    if ((call) != CM_ERR_INVALID_ARG) FAIL ("accepted: %s", #call); \
    else got_failures++; } while (0)

  EXPECT_REFUSED (cm_recon_plan_new (NULL, &d, 4, 4, CM_DEPTH_8));
  EXPECT_REFUSED (cm_recon_plan_new (&plan, NULL, 4, 4, CM_DEPTH_8));
  if (plan != NULL)
    FAIL ("a refused plan must leave *out NULL");
  EXPECT_REFUSED (cm_recon_plan_new (&plan, &d, 0, 4, CM_DEPTH_8));
  EXPECT_REFUSED (cm_recon_plan_new (&plan, &d, 4, 4, (cm_depth) 12));
  d.connectivity = 6;
  EXPECT_REFUSED (cm_recon_plan_new (&plan, &d, 4, 4, CM_DEPTH_8));
  d.connectivity = 4;
  d.op = CM_RECON_OPEN;         /* no structuring element */
  EXPECT_REFUSED (cm_recon_plan_new (&plan, &d, 4, 4, CM_DEPTH_8));
  d.op = (cm_recon_op) CM_RECON_OP_COUNT;
  EXPECT_REFUSED (cm_recon_plan_new (&plan, &d, 4, 4, CM_DEPTH_8));
  d.op = CM_RECON_HMAX;
  EXPECT_REFUSED (cm_recon_plan_new_tuned (&plan, &d, 4, 4, CM_DEPTH_8,
          &bad));

  if (cm_recon_plan_new (&plan, &d, 8, 8, CM_DEPTH_8) != CM_OK ||
      cm_device_image_alloc (&a, 8, 8, CM_DEPTH_8) != CM_OK ||
      cm_device_image_alloc (&b, 9, 8, CM_DEPTH_8) != CM_OK) {
    FAIL ("argument checks: setup");
    return;
  }
  EXPECT_REFUSED (cm_recon_plan_run (plan, &a, &a, stream));
  EXPECT_REFUSED (cm_recon_plan_run (plan, &a, &b, stream));
  EXPECT_REFUSED (cm_recon_plan_run (NULL, &a, &a, stream));
  cm_recon_plan_free (plan);
  cm_recon_plan_free (NULL);
  cm_device_free (a.data);
  cm_device_free (b.data);
  if (got_failures == expected_failures)
    n_pass++;
#undef EXPECT_REFUSED
}

int
main (void)
{
  int rc = kernel_test_open_verbose (&stream, &verbose);

  if (rc != 0)
    return rc;
  if (cm_se_new_disk (&disk3, 3) != CM_OK ||
      cm_se_new_line (&line7, 7, 30.0) != CM_OK ||
      cm_se_new_custom (&ring, "00100;01110;11011;01110;00100") != CM_OK) {
    fprintf (stderr, "cannot build the structuring elements\n");
    return 1;
  }

  test_arguments ();
  test_table ();
  test_large ();

  cm_se_free (disk3);
  cm_se_free (line7);
  cm_se_free (ring);
  return kernel_test_close (stream, n_pass, n_fail);
}
