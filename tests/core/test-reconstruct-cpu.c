/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU backend of reconstruction (cuda/reconstruct/reconstruct-cpu.c)
 * against cm_recon_ref (itself checked against a brute force in
 * test-reconstruct-ref), bit for bit: every operation, both
 * connectivities and depths, 1 and 2 threads, frames from 1x1 (one row,
 * one column) up with tight, odd and padded pitches, every input kind of
 * test-util.h (random, plateaus, all equal, blobs, mazes along rows and
 * columns), heights of 0, some and more than the depth holds, markers of
 * open-rec and close-rec by a disk and by a rectangle off the centre
 * with a constant border; each plan run on several frames (its queue and
 * planes kept between them). Then the cancel flag on a large noise frame:
 * set before, the run stops at once; set while it runs, it stops soon
 * after, and the plan then runs the next frame right. */
#include <pthread.h>
#include <stdlib.h>

#include "core-test.h"
#include "reconstruct/reconstruct-cpu.h"
#include "morph/se.h"
#include "test-count.h"
#include "test-util.h"

/* a disk; a rectangle off the centre, the origin outside it */
static cm_se *disk, *rect;

/* A descriptor of @op; @variant picks the height and the marker's SE */
static cm_recon_desc
desc_of (cm_recon_op op, int conn, int variant)
{
  static const uint32_t heights[] = { 23, 0, 70000 };
  cm_recon_desc d;

  memset (&d, 0, sizeof (d));
  d.op = op;
  d.connectivity = conn;
  d.height = heights[variant % N_OF (heights)];
  d.marker.iterations = 1;
  if (variant % 2 == 0) {
    d.marker.se = disk;
    d.marker.border = CM_BORDER_REPLICATE;
  } else {
    /* off the centre, no origin: the marker is not under the mask */
    d.marker.se = rect;
    d.marker.iterations = 2;
    d.marker.border = CM_BORDER_CONSTANT;
    d.marker.border_value = 7;
  }
  return d;
}

/* @frames images (the same size and depth) through one plan of @d */
static void
check_plan (const cm_recon_desc * d, cm_image * srcs, int frames,
    int threads, const char *what)
{
  const cm_image *s0 = &srcs[0];
  cm_image want = test_image_new (s0->width, s0->height, s0->depth, 0);
  cm_image got = test_image_new (s0->width, s0->height, s0->depth, 1);
  cm_cpu_opts cpu = { threads, NULL };
  cm_recon_cpu *p = NULL;
  cm_status st;

  st = cm_recon_cpu_new (&p, d, s0->width, s0->height, s0->depth, &cpu);
  CHECK (st == CM_OK, "%s %s c=%d: plan: %s", what, cm_recon_op_name (d->op),
      d->connectivity, cm_status_string (st));
  for (int k = 0; k < frames && st == CM_OK; k++) {
    cm_status s1 = cm_recon_ref (d, &srcs[k], &want);
    cm_status s2 = cm_recon_cpu_run (p, &srcs[k], &got);

    checks++;
    if (s1 != CM_OK || s2 != CM_OK)
      FAIL ("%s %s c=%d h=%u %d thr frame %d: status %d / %d", what,
          cm_recon_op_name (d->op), d->connectivity, d->height, threads, k,
          (int) s1, (int) s2);
    else if (!test_image_equal (&got, &want, what))
      FAIL ("%s %s c=%d h=%u %d thr frame %d: differs from cm_recon_ref",
          what, cm_recon_op_name (d->op), d->connectivity, d->height,
          threads, k);
  }
  cm_recon_cpu_free (p);
  test_image_free (&want);
  test_image_free (&got);
}

/* Every operation on @frames images of kind @k (and a random one) */
static void
check_kind (int w, int h, cm_depth depth, test_fill_kind k, int vertical,
    int extra_pitch, test_rng * r)
{
  cm_image srcs[2];
  char what[112];

  for (int f = 0; f < 2; f++) {
    srcs[f] = test_image_new (w, h, depth, extra_pitch);
    if (f == 0)
      test_image_fill_kind (&srcs[f], k, vertical, r);
    else
      test_image_fill_levels (&srcs[f], r, 5);
  }
  snprintf (what, sizeof (what), "%dx%d %d-bit pitch+%d %s%s", w, h,
      (int) depth, extra_pitch, test_fill_name (k),
      vertical ? " (columns)" : "");
  for (int op = 0; op < CM_RECON_OP_COUNT; op++)
    for (int conn = 4; conn <= 8; conn += 4) {
      const int variant = (int) test_rng_below (r, 6);
      cm_recon_desc d = desc_of ((cm_recon_op) op, conn, variant);

      check_plan (&d, srcs, 2, 1 + (variant + op) % 2, what);
    }
  for (int f = 0; f < 2; f++)
    test_image_free (&srcs[f]);
}

/* ---- the cancel flag ------------------------------------------------- */

static cm_status
fill_holes (cm_recon_cpu * p, const cm_image * src, const cm_image * dst)
{
  return cm_recon_cpu_run (p, src, dst);
}

static void
check_cancel (void)
{
  /* noise: the scans leave most of the frame to the queue */
  const int w = 4096, h = 3072;
  cm_image src = test_image_new (w, h, CM_DEPTH_16, 0);
  cm_image dst = test_image_new (w, h, CM_DEPTH_16, 0);
  cm_image want = test_image_new (w, h, CM_DEPTH_16, 0);
  int cancel = 1;
  cm_cpu_opts cpu = { 2, &cancel };
  cm_recon_desc d;
  cm_recon_cpu *p = NULL;
  test_rng r;
  double t0, full;
  int stopped = 0;
  cm_status st;

  test_rng_seed (&r, 4242);
  test_image_fill_random (&src, &r);
  memset (&d, 0, sizeof (d));
  d.op = CM_RECON_FILL_HOLES;
  d.connectivity = 8;
  st = cm_recon_cpu_new (&p, &d, w, h, CM_DEPTH_16, &cpu);
  CHECK (st == CM_OK, "cancel: plan: %s", cm_status_string (st));
  if (st != CM_OK)
    goto out;
  st = fill_holes (p, &src, &dst);
  CHECK (st == CM_ERR_CANCELLED, "cancel set before the run: status %d",
      (int) st);

  /* a whole run (its result: what the run after a stopped one gives) */
  cancel = 0;
  t0 = now_s ();
  st = fill_holes (p, &src, &want);
  full = now_s () - t0;
  CHECK (st == CM_OK, "cancel: a whole run: status %d", (int) st);

  /* set at a quarter, then an eighth ... of a whole run's time: the run
   * ends with CM_ERR_CANCELLED soon after; one that finished before
   * the flag was set (a loaded machine) tries a shorter delay */
  for (int k = 2; k < 8 && !stopped; k++) {
    canceller c = { &cancel, (unsigned) (full * 1e6) >> k, 0 };
    pthread_t t;
    double end;

    cancel = 0;
    if (pthread_create (&t, NULL, cancel_later, &c) != 0) {
      FAIL ("cannot start a thread");
      break;
    }
    st = fill_holes (p, &src, &dst);
    end = now_s ();
    pthread_join (t, NULL);
    if (st == CM_OK && c.set_at >= end)
      continue;
    stopped = 1;
    CHECK (st == CM_ERR_CANCELLED, "cancel set while running: status %d",
        (int) st);
    /* a row, or 65536 pops, is well under a millisecond */
    CHECK (end - c.set_at < 0.1, "cancel: stopped %.1f ms after the flag",
        (end - c.set_at) * 1e3);
  }
  CHECK (stopped, "cancel: every run ended before its flag was set");

  /* the plan after a stopped run: the next frame is right (a whole run
   * is checked against the reference above, on smaller frames) */
  cancel = 0;
  st = fill_holes (p, &src, &dst);
  CHECK (st == CM_OK && test_image_equal (&dst, &want, "after a cancel"),
      "cancel: the run after a stopped one differs (status %d)", (int) st);
out:
  cm_recon_cpu_free (p);
  test_image_free (&src);
  test_image_free (&dst);
  test_image_free (&want);
}

/* ---- arguments --------------------------------------------------------- */

static void
check_args (void)
{
  cm_recon_desc d = desc_of (CM_RECON_FILL_HOLES, 8, 0);
  cm_image a = test_image_new (8, 8, CM_DEPTH_8, 0);
  cm_image b = test_image_new (8, 9, CM_DEPTH_8, 0);
  cm_recon_cpu *p = NULL;

  d.connectivity = 6;
  CHECK (cm_recon_cpu_new (&p, &d, 8, 8, CM_DEPTH_8, NULL) ==
      CM_ERR_INVALID_ARG && p == NULL, "connectivity 6 accepted");
  d.connectivity = 8;
  d.op = CM_RECON_OPEN;
  d.marker.se = NULL;
  CHECK (cm_recon_cpu_new (&p, &d, 8, 8, CM_DEPTH_8, NULL) ==
      CM_ERR_INVALID_ARG, "open-rec without an SE accepted");
  d = desc_of (CM_RECON_HMAX, 4, 0);
  CHECK (cm_recon_cpu_new (&p, &d, 0, 8, CM_DEPTH_8, NULL) ==
      CM_ERR_INVALID_ARG, "a width of 0 accepted");
  CHECK (cm_recon_cpu_new (&p, &d, 8, 8, CM_DEPTH_8, NULL) == CM_OK,
      "a plan of 8x8");
  CHECK (cm_recon_cpu_run (p, &a, &b) == CM_ERR_INVALID_ARG,
      "a dst of another size accepted");
  CHECK (cm_recon_cpu_run (p, &a, &a) == CM_ERR_INVALID_ARG,
      "dst == src accepted");
  cm_recon_cpu_free (p);
  test_image_free (&a);
  test_image_free (&b);
}

int
main (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 2}, {2, 1}, {1, 40}, {40, 1}, {2, 2}, {3, 3}, {5, 17},
    {64, 64}, {97, 131}, {130, 33}, {300, 201}
  };
  test_rng r;

  test_rng_seed (&r, 20270114);
  if (cm_se_new_disk (&disk, 2) != CM_OK ||
      cm_se_new_custom (&rect, "00000;00000;00111;00111") != CM_OK) {
    fprintf (stderr, "cannot make the SEs\n");
    return 1;
  }
  for (int s = 0; s < N_OF (sizes); s++)
    for (int dp = 0; dp < 2; dp++)
      for (int k = 0; k < TEST_FILL_KINDS; k++)
        check_kind (sizes[s][0], sizes[s][1], dp ? CM_DEPTH_16 : CM_DEPTH_8,
            (test_fill_kind) k, (s + k) % 2, (s + k + dp) % 3 == 0 ? 0 :
            (s + k) % 3 == 1 ? 1 : 6, &r);
  /* larger mazes each way, the queue's worst case */
  check_kind (515, 257, CM_DEPTH_8, TEST_FILL_MAZE_FRAMED_DARK, 0, 3, &r);
  check_kind (257, 515, CM_DEPTH_16, TEST_FILL_MAZE_FRAMED, 1, 1, &r);
  check_kind (640, 480, CM_DEPTH_16, TEST_FILL_RANDOM, 0, 0, &r);
  check_args ();
  check_cancel ();
  cm_se_free (disk);
  cm_se_free (rect);
  return test_count_report ("test-reconstruct-cpu");
}
