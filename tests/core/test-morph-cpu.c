/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU backend of morphology (cuda/morph/morph-cpu.c) against the
 * definition (cm_morph_ref), bit for bit: every operation, border rule
 * and depth, rectangles (separable), every other shape (the runs of its
 * rows), lines at several angles, custom masks with holes and off the
 * centre, frames from 1x1 up with padded pitches, one and two threads,
 * random samples and few levels (ties); and a run stopped by its cancel
 * flag. */
#include <pthread.h>
#include <stdlib.h>

#include "core-test.h"
#include "morph/morph-cpu.h"
#include "morph/se.h"
#include "test-count.h"
#include "test-util.h"

typedef struct
{
  const char *name;
  cm_se *se;
  const char *algorithm;        /* at width 64 */
} shape;

static shape shapes[32];
static int n_shapes;

static void
add (const char *name, cm_status st, cm_se * se, const char *algorithm)
{
  CHECK (st == CM_OK, "se %s: %s", name, cm_status_string (st));
  if (st != CM_OK)
    return;
  shapes[n_shapes].name = name;
  shapes[n_shapes].se = se;
  shapes[n_shapes].algorithm = algorithm;
  n_shapes++;
}

static void
build_shapes (void)
{
  cm_se *se;

#define ADD(name, call, algo) do { cm_status st_ = call; add (name, st_, se, \
        algo); } while (0)
  ADD ("rect 3x3", cm_se_new_rect (&se, 3, 3), "cpu-separable");
  ADD ("rect 15x15", cm_se_new_rect (&se, 15, 15), "cpu-separable");
  ADD ("rect 4x6", cm_se_new_rect (&se, 4, 6), "cpu-separable");
  ADD ("rect 2x2", cm_se_new_rect (&se, 2, 2), "cpu-separable");
  ADD ("rect 1x1", cm_se_new_rect (&se, 1, 1), "cpu-separable");
  ADD ("rect 63x1", cm_se_new_rect (&se, 63, 1), "cpu-separable");
  ADD ("rect 1x40", cm_se_new_rect (&se, 1, 40), "cpu-separable");
  ADD ("rect 33x17", cm_se_new_rect (&se, 33, 17), "cpu-separable");
  ADD ("cross 7x5", cm_se_new_cross (&se, 7, 5), "cpu-chords");
  ADD ("diamond 3", cm_se_new_diamond (&se, 3), "cpu-chords");
  ADD ("disk 1", cm_se_new_disk (&se, 1), "cpu-chords");
  ADD ("disk 7", cm_se_new_disk (&se, 7), "cpu-chords");
  ADD ("disk 15", cm_se_new_disk (&se, 15), "cpu-chords");
  ADD ("octagon 5", cm_se_new_octagon (&se, 5), "cpu-chords");
  ADD ("line 41@0", cm_se_new_line (&se, 41, 0), "cpu-separable");
  ADD ("line 41@90", cm_se_new_line (&se, 41, 90), "cpu-separable");
  ADD ("line 15@30", cm_se_new_line (&se, 15, 30), "cpu-chords");
  ADD ("line 21@120", cm_se_new_line (&se, 21, 120), "cpu-chords");
  ADD ("line 9@45", cm_se_new_line (&se, 9, 45), "cpu-diagonal");
  ADD ("line 41@135", cm_se_new_line (&se, 41, 135), "cpu-diagonal");
  ADD ("line 2@45", cm_se_new_line (&se, 2, 45), "cpu-diagonal");
  ADD ("line 127@225", cm_se_new_line (&se, 127, 225), "cpu-diagonal");
  ADD ("custom off-centre", cm_se_new_custom (&se, "110;011;001"),
      "cpu-chords");
  ADD ("custom holes", cm_se_new_custom (&se, "10101;01010;10101"),
      "cpu-chords");
  ADD ("custom one corner", cm_se_new_custom (&se, "0000;0000;0001"),
      "cpu-chords");
#undef ADD
}

/* One case: the fast path equals the reference */
static void
check_case (const shape * s, cm_morph_op op, cm_border_mode border,
    cm_depth depth, int iterations, const cm_image * src, int threads)
{
  cm_morph_desc d = { op, s->se, iterations, border,
    depth == CM_DEPTH_8 ? 77 : 40000
  };
  cm_cpu_opts opts = { threads, NULL };
  cm_image got = test_image_new (src->width, src->height, depth,
      depth == CM_DEPTH_8 ? 5 : 6);
  cm_image exp = test_image_new (src->width, src->height, depth, 0);
  cm_morph_cpu *p = NULL;
  cm_status st;
  char what[256];

  st = cm_morph_cpu_new (&p, &d, src->width, src->height, depth, &opts);
  if (st == CM_OK)
    st = cm_morph_cpu_run (p, src, &got);
  /* the plan's own copy of the SE: the caller's may go */
  if (st == CM_OK && p != NULL && strcmp (cm_morph_cpu_algorithm (p),
          s->algorithm) != 0 && src->width == 64)
    FAIL ("%s: %s, expected %s", s->name, cm_morph_cpu_algorithm (p),
        s->algorithm);
  cm_morph_cpu_free (p);
  CHECK (st == CM_OK, "%s %s border %d depth %d: %s", s->name,
      cm_morph_op_name (op), (int) border, (int) depth,
      cm_status_string (st));
  if (st == CM_OK && cm_morph_ref (&d, src, &exp) == CM_OK) {
    snprintf (what, sizeof (what), "%s %s x%d border %d %d-bit %dx%d, %d "
        "threads", s->name, cm_morph_op_name (op), iterations, (int) border,
        depth == CM_DEPTH_8 ? 8 : 16, src->width, src->height, threads);
    checks++;
    if (!test_image_equal (&got, &exp, what))
      failures++;
  }
  test_image_free (&got);
  test_image_free (&exp);
}

static void
check_all (void)
{
  static const struct
  {
    int w, h;
  } sizes[] = { {1, 1}, {1, 17}, {19, 1}, {2, 2}, {31, 23}, {64, 48} };
  test_rng rng;

  test_rng_seed (&rng, 2026);
  for (int si = 0; si < N_OF (sizes); si++) {
    for (int di = 0; di < 2; di++) {
      cm_depth depth = di ? CM_DEPTH_16 : CM_DEPTH_8;
      cm_image src = test_image_new (sizes[si].w, sizes[si].h, depth,
          di ? 2 : 3);

      if (si % 2)
        test_image_fill_levels (&src, &rng, 4);
      else
        test_image_fill_random (&src, &rng);
      for (int hi = 0; hi < n_shapes; hi++)
        for (int op = 0; op < CM_MORPH_OP_COUNT; op++)
          for (int b = 0; b < CM_BORDER_MODE_COUNT; b++)
            check_case (&shapes[hi], (cm_morph_op) op, (cm_border_mode) b,
                depth, 1 + (op + b + hi) % 3 / 2, &src, 1 + (op + b) % 2);
      test_image_free (&src);
    }
  }
}

/* 16-bit rows that do not start on 2 bytes go to the reference */
static void
check_unaligned (void)
{
  cm_morph_desc d = { CM_MORPH_ERODE, shapes[0].se, 1, CM_BORDER_NEUTRAL, 0 };
  cm_image src = test_image_new (9, 7, CM_DEPTH_16, 1);
  cm_image dst = test_image_new (9, 7, CM_DEPTH_16, 0);
  cm_morph_cpu *p = NULL;

  CHECK (cm_morph_cpu_new (&p, &d, 9, 7, CM_DEPTH_16, NULL) == CM_OK &&
      cm_morph_cpu_run (p, &src, &dst) == CM_ERR_UNSUPPORTED,
      "16-bit rows on odd pitches taken");
  cm_morph_cpu_free (p);
  test_image_free (&src);
  test_image_free (&dst);
}

/* a large frame stops once its cancel flag is set */
static void
check_cancel (void)
{
  cm_morph_desc d = { CM_MORPH_OPEN, shapes[12].se, 8, CM_BORDER_REPLICATE,
    0
  };
  int flag = 0;
  cm_cpu_opts opts = { 2, &flag };
  cm_image src = test_image_new (1920, 1080, CM_DEPTH_8, 0);
  cm_image dst = test_image_new (1920, 1080, CM_DEPTH_8, 0);
  canceller c = { &flag, 2000, 0 };
  cm_morph_cpu *p = NULL;
  pthread_t t;
  cm_status st;
  double done;

  CHECK (cm_morph_cpu_new (&p, &d, 1920, 1080, CM_DEPTH_8, &opts) == CM_OK,
      "plan");
  pthread_create (&t, NULL, cancel_later, &c);
  st = cm_morph_cpu_run (p, &src, &dst);
  done = now_s ();
  pthread_join (t, NULL);
  CHECK (st == CM_ERR_CANCELLED, "not cancelled: %s", cm_status_string (st));
  CHECK (done - c.set_at < 0.05, "stopped %.3f s after the flag",
      done - c.set_at);
  cm_morph_cpu_free (p);
  test_image_free (&src);
  test_image_free (&dst);
}

int
main (void)
{
  build_shapes ();
  check_all ();
  check_unaligned ();
  check_cancel ();
  for (int i = 0; i < n_shapes; i++)
    cm_se_free (shapes[i].se);
  return test_count_report ("test-morph-cpu");
}
