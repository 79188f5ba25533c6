/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cm_recon_ref_mt (what the CPU backend falls back on) with
 * 2 to 16 threads against cm_recon_ref on the calling thread alone (itself
 * checked against a brute force in test-reconstruct-ref): every operation
 * (open-rec and close-rec make their marker on the threads), both
 * connectivities and depths, frames of one row or column, every input
 * kind of test-util.h (random, plateaus, all equal, blobs, mazes along
 * rows and along columns). Then the cancel flag: set before, the run stops at
 * once; set while a large maze runs, it stops with CM_ERR_CANCELLED. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "reconstruct/reconstruct.h"
#include "morph/se.h"
#include "test-count.h"
#include "core-test.h"
#include "test-util.h"

static cm_se *disk;

/* One operation on one image: threads against the calling thread */
static void
check_op (const cm_image * src, cm_recon_op op, int conn, int threads,
    const char *what)
{
  cm_image want = test_image_new (src->width, src->height, src->depth, 0);
  cm_image got = test_image_new (src->width, src->height, src->depth, 0);
  cm_cpu_opts cpu = { threads, NULL };
  cm_recon_desc d;
  cm_status s1, s2;

  memset (&d, 0, sizeof (d));
  d.op = op;
  d.connectivity = conn;
  d.height = 23;
  d.marker.op = CM_MORPH_ERODE;
  d.marker.se = disk;
  d.marker.iterations = 1;
  d.marker.border = CM_BORDER_REPLICATE;
  s1 = cm_recon_ref (&d, src, &want);
  s2 = cm_recon_ref_mt (&d, src, &got, &cpu);
  checks++;
  if (s1 != CM_OK || s2 != CM_OK)
    FAIL ("%s %s c=%d %d threads: status %d / %d", what,
        cm_recon_op_name (op), conn, threads, (int) s1, (int) s2);
  else if (!test_image_equal (&got, &want, what))
    FAIL ("%s %s c=%d %d threads: differs from one thread", what,
        cm_recon_op_name (op), conn, threads);
  test_image_free (&want);
  test_image_free (&got);
}

static void
check_image (int w, int h, cm_depth depth, test_fill_kind k, int vertical,
    test_rng * r)
{
  static const int threads[] = { 2, 3, 8, 16 };
  cm_image src = test_image_new (w, h, depth, 0);
  char what[96];

  test_image_fill_kind (&src, k, vertical, r);
  snprintf (what, sizeof (what), "%dx%d %d-bit %s%s", w, h, (int) depth,
      test_fill_name (k), vertical ? " (columns)" : "");
  for (int op = 0; op < CM_RECON_OP_COUNT; op++)
    for (int conn = 4; conn <= 8; conn += 4)
      for (int t = 0; t < N_OF (threads); t++)
        check_op (&src, (cm_recon_op) op, conn, threads[t], what);
  test_image_free (&src);
}

/* ---- the cancel flag ------------------------------------------------- */

static cm_status
fill_holes (const cm_image * src, const cm_image * dst,
    const cm_cpu_opts * cpu)
{
  cm_recon_desc d;

  memset (&d, 0, sizeof (d));
  d.op = CM_RECON_FILL_HOLES;
  d.connectivity = 8;
  return cm_recon_ref_mt (&d, src, dst, cpu);
}

static void
check_cancel (void)
{
  /* a maze along columns: the serial queue has most of the frame to do
   * (seconds) */
  cm_image src = test_image_new (2048, 2048, CM_DEPTH_8, 0);
  cm_image dst = test_image_new (2048, 2048, CM_DEPTH_8, 0);
  int cancel = 1;
  cm_cpu_opts cpu = { 4, &cancel };
  canceller c = { &cancel, 1000, 0 };
  pthread_t t;
  cm_status st;

  test_image_fill_maze (&src, 255, 40, 1, 1);
  st = fill_holes (&src, &dst, &cpu);
  checks++;
  if (st != CM_ERR_CANCELLED)
    FAIL ("cancel set before the run: status %d", (int) st);

  /* set while it runs: the run must end with CM_ERR_CANCELLED (not
   * timed here; docs/PERFORMANCE.md, "The CPU backend", has the
   * figures) */
  cancel = 0;
  if (pthread_create (&t, NULL, cancel_later, &c) != 0) {
    FAIL ("cannot start a thread");
  } else {
    st = fill_holes (&src, &dst, &cpu);
    pthread_join (t, NULL);
    checks++;
    if (st != CM_ERR_CANCELLED)
      FAIL ("cancel set while running: status %d", (int) st);
  }
  test_image_free (&src);
  test_image_free (&dst);
}

int
main (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 40}, {40, 1}, {5, 17}, {64, 64}, {97, 131}, {130, 33}
  };
  test_rng r;

  test_rng_seed (&r, 20261126);
  if (cm_se_new_disk (&disk, 2) != CM_OK) {
    fprintf (stderr, "cannot make the disk\n");
    return 1;
  }
  for (int s = 0; s < N_OF (sizes); s++)
    for (int d = 0; d < 2; d++)
      for (int k = 0; k < TEST_FILL_KINDS; k++)
        check_image (sizes[s][0], sizes[s][1], d ? CM_DEPTH_16 : CM_DEPTH_8,
            (test_fill_kind) k, (s + k) % 2, &r);
  /* larger mazes each way, 8-bit */
  check_image (515, 257, CM_DEPTH_8, TEST_FILL_MAZE_FRAMED_DARK, 0, &r);
  check_image (257, 515, CM_DEPTH_8, TEST_FILL_MAZE_FRAMED, 1, &r);
  check_cancel ();
  cm_se_free (disk);
  return test_count_report ("test-reconstruct-mt");
}
