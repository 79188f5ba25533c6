/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The temporal percentile on the CPU: the reference (cm_temporal_ref)
 * against hand-made windows and cudamedian's rank, then the CPU backend
 * (cm_temporal_filter_new on CM_BACKEND_CPU) against the reference, bit for
 * bit, on random sequences: every `frames` from 1 to 255 (small frames,
 * the window growing after the start and then sliding), percentiles 0,
 * 50, 100 and between, both outputs, 8 and 16 bits, planes and packed
 * frames (RGBA with its alpha copied, RGBx, two-channel chroma), padded
 * pitches, few-level frames (ties), 1 and 3 threads, in place; resets and
 * a new percentile in the middle of a sequence, the plane API, a
 * cancelled push, argument checks. */
#include <math.h>
#include <stdlib.h>

#include "core-test.h"
#include "median/median.h"
#include "temporal/temporal-filter.h"
#include "temporal-history.h"
#include "test-count.h"
#include "test-util.h"
#include "device.h"

static const double percentiles[] = { 50, 0, 100, 12.5, 37.3, 66.6, 90,
  99.9
};

typedef struct
{
  int channels, alpha, width, height, extra;
} layout;

static const layout layouts[] = {
  {1, -1, 13, 7, 3},            /* a plane, padded pitch */
  {4, 3, 9, 4, 0},              /* RGBA */
  {4, -1, 6, 3, 4},             /* RGBx */
  {2, -1, 5, 3, 1},             /* interleaved chroma */
};

/* ---- the reference on hand-made windows ---------------------------------- */

static void
check_reference_by_hand (void)
{
  static const uint8_t v[4] = { 10, 200, 50, 120 };
  cm_temporal_desc d = { 4, 50, CM_TEMPORAL_BACKGROUND, 1, -1 };
  cm_image_packed win[4], out = test_packed_new (1, 1, CM_DEPTH_8, 1, 0);
  /* 4 samples, p = 50: rank floor (1.5 + 0.5) = 2: 10 50 [120] 200 */
  static const struct
  {
    double p;
    int n;
    cm_temporal_output o;
    uint32_t want;
  } rows[] = {
    {50, 4, CM_TEMPORAL_BACKGROUND, 120}, {0, 4, CM_TEMPORAL_BACKGROUND, 10},
    {100, 4, CM_TEMPORAL_BACKGROUND, 200}, {50, 3, CM_TEMPORAL_BACKGROUND, 50},
    {50, 1, CM_TEMPORAL_BACKGROUND, 10}, {50, 4, CM_TEMPORAL_DIFFERENCE, 0},
    {50, 3, CM_TEMPORAL_DIFFERENCE, 0}, {0, 3, CM_TEMPORAL_DIFFERENCE, 40},
    {100, 2, CM_TEMPORAL_DIFFERENCE, 0}, {0, 2, CM_TEMPORAL_DIFFERENCE, 190},
    {16, 4, CM_TEMPORAL_BACKGROUND, 10}, {17, 4, CM_TEMPORAL_BACKGROUND, 50},
  };

  for (int i = 0; i < 4; i++) {
    win[i] = test_packed_new (1, 1, CM_DEPTH_8, 1, 0);
    test_packed_set (&win[i], 0, 0, 0, v[i]);
  }
  for (int i = 0; i < N_OF (rows); i++) {
    cm_status st;

    d.percentile = rows[i].p;
    d.output = rows[i].o;
    st = cm_temporal_ref (&d, win, rows[i].n, &out);
    CHECK (st == CM_OK && test_packed_get (&out, 0, 0, 0) == rows[i].want,
        "reference row %d: status %d, got %u expected %u", i, (int) st,
        test_packed_get (&out, 0, 0, 0), rows[i].want);
  }
  /* the rank is cudamedian's: a window of n x 1 */
  for (int n = 1; n <= 255; n += 2)
    for (int i = 0; i < N_OF (percentiles); i++) {
      cm_median_desc md = { n, 1, percentiles[i], CM_BORDER_REPLICATE, 0,
        CM_MEDIAN_AUTO, 0
      };
      cm_temporal_desc td = { 255, percentiles[i], CM_TEMPORAL_BACKGROUND, 1,
        -1
      };

      CHECK (cm_temporal_rank (&td, n) == cm_median_rank (&md),
          "rank n=%d p=%g: %d, cudamedian %d", n, percentiles[i],
          cm_temporal_rank (&td, n), cm_median_rank (&md));
    }
  for (int i = 0; i < 4; i++)
    free (win[i].data);
  free (out.data);
}

/* ---- sequences through the CPU backend ---------------------------------- */

typedef struct
{
  int threads, in_place, levels;
  int check_all;                /* else the first pushes, those around the
                                   window's filling and the last */
} run_opts;

/* @pushes random frames of layout @l through a CPU filter of @d, each
 * output checked against the reference of the window */
static void
run_sequence (const cm_temporal_desc * d, const layout * l, cm_depth depth,
    int pushes, const run_opts * o, test_rng * r)
{
  cm_image_packed src = test_packed_new (l->width, l->height, depth,
      l->channels, l->extra);
  cm_image_packed dst = test_packed_new (l->width, l->height, depth,
      l->channels, l->extra + 2);
  cm_image_packed want = test_packed_new (l->width, l->height, depth,
      l->channels, 0);
  cm_cpu_opts cpu = { o->threads, NULL };
  temporal_history h = {.n = 0,.frames = d->frames };
  cm_filter *f = NULL;
  char what[160];
  cm_status st;

  snprintf (what, sizeof (what), "frames %d p=%g %s %d-bit %dx%d x%d "
      "alpha %d, %d thr%s%s", d->frames, d->percentile,
      cm_temporal_output_name (d->output), (int) depth, l->width, l->height,
      l->channels, l->alpha, o->threads, o->in_place ? ", in place" : "",
      o->levels ? ", levels" : "");
  st = cm_temporal_filter_new (&f, CM_BACKEND_CPU, d, l->width, l->height,
      depth, &cpu);
  CHECK (st == CM_OK, "%s: filter: %s", what, cm_status_string (st));
  for (int t = 0; t < pushes && st == CM_OK; t++) {
    const cm_image_packed *out = o->in_place ? &src : &dst;

    temporal_fill (&src, r, o->levels);
    temporal_history_push (&h, &src);
    st = cm_filter_run_packed (f, &src, out, NULL);
    CHECK (st == CM_OK, "%s push %d: %s", what, t, cm_status_string (st));
    CHECK (cm_temporal_filter_window (f) == h.n, "%s push %d: window %d, "
        "expected %d", what, t, cm_temporal_filter_window (f), h.n);
    if (st != CM_OK || !(o->check_all || t < 3 || abs (t - d->frames) <= 2
            || t == pushes - 1))
      continue;
    st = cm_temporal_ref (d, h.win, h.n, &want);
    CHECK (st == CM_OK, "%s push %d: reference: %s", what, t,
        cm_status_string (st));
    checks++;
    if (!temporal_equal (out, &want, what))
      FAIL ("%s push %d (window %d): differs from the reference", what, t,
          h.n);
  }
  cm_filter_free (f);
  temporal_history_clear (&h);
  free (src.data);
  free (dst.data);
  free (want.data);
}

/* Every frames 1 .. 255 on small planes, the window filled and slid */
static void
check_every_frames (test_rng * r)
{
  static const layout tiny = { 1, -1, 4, 2, 1 };

  for (int frames = 1; frames <= CM_TEMPORAL_MAX_FRAMES; frames++)
    for (int depth = 8; depth <= 16; depth += 8) {
      const int i = frames + depth;
      cm_temporal_desc d = { frames, percentiles[i % N_OF (percentiles)],
        (cm_temporal_output) ((i / N_OF (percentiles)) % 2), 1, -1
      };
      run_opts o = { 1 + frames % 2, 0, 0, frames <= 40 };

      run_sequence (&d, &tiny, (cm_depth) depth, frames + 3, &o, r);
    }
}

/* A table of windows x percentiles x depths, the layouts, outputs,
 * threads, ties and in-place runs in turn */
static void
check_table (test_rng * r)
{
  static const int frames[] = { 1, 2, 3, 4, 5, 8, 9, 16, 25, 31, 33, 64,
    255
  };
  int idx = 0;

  for (int fi = 0; fi < N_OF (frames); fi++)
    for (int pi = 0; pi < N_OF (percentiles); pi++)
      for (int depth = 8; depth <= 16; depth += 8, idx++) {
        const layout *l = &layouts[idx % N_OF (layouts)];
        cm_temporal_desc d = { frames[fi], percentiles[pi],
          (cm_temporal_output) ((idx / 4) % 2), l->channels, l->alpha
        };
        run_opts o = { 1 + 2 * (idx % 2), idx % 5 == 0,
          idx % 3 == 0 ? 4 : 0, frames[fi] <= 33
        };

        run_sequence (&d, l, (cm_depth) depth, frames[fi] + 4, &o, r);
      }
}

/* A reset, then a new percentile and output, in the middle of a sequence */
static void
check_reset_and_rank (test_rng * r)
{
  const layout *l = &layouts[1];
  cm_temporal_desc d = { 5, 50, CM_TEMPORAL_BACKGROUND, l->channels,
    l->alpha
  };
  cm_image_packed src = test_packed_new (l->width, l->height, CM_DEPTH_8,
      l->channels, 0);
  cm_image_packed dst = test_packed_new (l->width, l->height, CM_DEPTH_8,
      l->channels, 0);
  cm_image_packed want = test_packed_new (l->width, l->height, CM_DEPTH_8,
      l->channels, 0);
  temporal_history h = {.n = 0,.frames = d.frames };
  cm_filter *f = NULL;

  CHECK (cm_temporal_filter_new (&f, CM_BACKEND_CPU, &d, l->width,
          l->height, CM_DEPTH_8, NULL) == CM_OK, "reset: filter");
  CHECK (cm_temporal_filter_window (f) == 0, "window before a push");
  for (int t = 0; f && t < 20; t++) {
    if (t == 7 || t == 9) {
      cm_temporal_filter_reset (f);
      temporal_history_clear (&h);
      CHECK (cm_temporal_filter_window (f) == 0, "window after a reset");
    }
    if (t == 13) {
      d.percentile = 20;
      d.output = CM_TEMPORAL_DIFFERENCE;
      CHECK (cm_temporal_filter_set_rank (f, d.percentile, d.output) ==
          CM_OK, "set_rank");
    }
    temporal_fill (&src, r, 0);
    temporal_history_push (&h, &src);
    CHECK (cm_filter_run_packed (f, &src, &dst, NULL) == CM_OK,
        "reset: push %d", t);
    CHECK (cm_temporal_filter_window (f) == h.n, "reset: push %d: window "
        "%d, expected %d", t, cm_temporal_filter_window (f), h.n);
    cm_temporal_ref (&d, h.win, h.n, &want);
    checks++;
    if (!temporal_equal (&dst, &want, "reset"))
      FAIL ("reset/set_rank: push %d differs", t);
  }
  CHECK (f == NULL || cm_temporal_filter_set_rank (f, 101,
          CM_TEMPORAL_BACKGROUND) == CM_ERR_INVALID_ARG, "set_rank 101");
  cm_filter_free (f);
  temporal_history_clear (&h);
  free (src.data);
  free (dst.data);
  free (want.data);
}

/* The plane API gives the packed one's output; a cancelled push leaves the
 * history as it was */
static void
check_planes_and_cancel (test_rng * r)
{
  cm_temporal_desc d = { 3, 50, CM_TEMPORAL_BACKGROUND, 1, -1 };
  cm_image src = test_image_new (11, 5, CM_DEPTH_16, 2);
  cm_image dst = test_image_new (11, 5, CM_DEPTH_16, 0);
  cm_image_packed ps = { src.data, src.pitch, 11, 5, CM_DEPTH_16, 1 };
  cm_image_packed pd = { dst.data, dst.pitch, 11, 5, CM_DEPTH_16, 1 };
  cm_image_packed want = test_packed_new (11, 5, CM_DEPTH_16, 1, 0);
  temporal_history h = {.n = 0,.frames = d.frames };
  int cancel = 0;
  cm_cpu_opts cpu = { 2, &cancel };
  cm_filter *f = NULL;

  CHECK (cm_temporal_filter_new (&f, CM_BACKEND_CPU, &d, 11, 5, CM_DEPTH_16,
          &cpu) == CM_OK, "planes: filter");
  for (int t = 0; f && t < 6; t++) {
    temporal_fill (&ps, r, 0);
    if (t == 2) {
      cancel = 1;
      CHECK (cm_filter_run (f, &src, &dst, NULL) ==
          CM_ERR_CANCELLED, "cancelled push");
      CHECK (cm_temporal_filter_window (f) == h.n, "window after a "
          "cancelled push: %d, expected %d", cm_temporal_filter_window (f),
          h.n);
      cancel = 0;
      temporal_fill (&ps, r, 0);
    }
    temporal_history_push (&h, &ps);
    CHECK (cm_filter_run (f, &src, &dst, NULL) == CM_OK,
        "planes: push %d", t);
    cm_temporal_ref (&d, h.win, h.n, &want);
    checks++;
    if (!temporal_equal (&pd, &want, "planes"))
      FAIL ("planes: push %d differs", t);
  }
  cm_filter_free (f);
  temporal_history_clear (&h);
  test_image_free (&src);
  test_image_free (&dst);
  free (want.data);
}

static void
check_arguments (void)
{
  static const cm_temporal_desc bad[] = {
    {0, 50, CM_TEMPORAL_BACKGROUND, 1, -1},
    {256, 50, CM_TEMPORAL_BACKGROUND, 1, -1},
    {5, -1, CM_TEMPORAL_BACKGROUND, 1, -1},
    {5, 100.5, CM_TEMPORAL_BACKGROUND, 1, -1},
    {5, 50, (cm_temporal_output) 2, 1, -1},
    {5, 50, CM_TEMPORAL_BACKGROUND, 0, -1},
    {5, 50, CM_TEMPORAL_BACKGROUND, 5, -1},
    {5, 50, CM_TEMPORAL_BACKGROUND, 4, 4},
    {5, 50, CM_TEMPORAL_BACKGROUND, 4, -2},
  };
  cm_temporal_desc good = { 5, 50, CM_TEMPORAL_BACKGROUND, 4, 3 };
  cm_temporal_desc nan_desc = good;
  cm_filter *f = (cm_filter *) & good;
  cm_image_packed a = test_packed_new (4, 3, CM_DEPTH_8, 4, 0);
  cm_image_packed b = test_packed_new (5, 3, CM_DEPTH_8, 4, 0);
  cm_image plane = test_image_new (4, 3, CM_DEPTH_8, 0);

  nan_desc.percentile = NAN;
  for (int i = 0; i < N_OF (bad); i++)
    CHECK (cm_temporal_desc_check (&bad[i]) == CM_ERR_INVALID_ARG &&
        cm_temporal_filter_new (&f, CM_BACKEND_CPU, &bad[i], 4, 3,
            CM_DEPTH_8, NULL) == CM_ERR_INVALID_ARG && f == NULL,
        "bad descriptor %d taken", i);
  CHECK (cm_temporal_desc_check (&nan_desc) == CM_ERR_INVALID_ARG,
      "NaN percentile taken");
  CHECK (cm_temporal_filter_new (&f, CM_BACKEND_CPU, &good, 0, 3,
          CM_DEPTH_8, NULL) == CM_ERR_INVALID_ARG, "width 0 taken");
  CHECK (cm_temporal_rank (&good, 0) == -1 && cm_temporal_rank (&good, 6)
      == -1 && cm_temporal_rank (&good, 5) == 2, "rank out of the window");
  CHECK (cm_temporal_frame_bytes (3840, 2160, CM_DEPTH_16, 4) ==
      3840u * 2160u * 8u, "frame bytes");
  CHECK (cm_temporal_filter_ring_bytes (CM_BACKEND_CPU, &good, 3840, 2160,
          CM_DEPTH_8) >= 5 * cm_temporal_frame_bytes (3840, 2160,
          CM_DEPTH_8, 4), "CPU ring bytes");
  /* 548 GB: refused whatever the machine's overcommit (a calloc that
   * succeeds there is killed at the first frame's writes) */
  {
    cm_temporal_desc huge = { 255, 50, CM_TEMPORAL_BACKGROUND, 1, -1 };

    CHECK (cm_temporal_filter_new (&f, CM_BACKEND_CPU, &huge, 32768, 32768,
            CM_DEPTH_16, NULL) == CM_ERR_NO_MEMORY && f == NULL,
        "a ring larger than the machine's memory taken");
  }
  CHECK (cm_temporal_filter_ring_bytes (CM_BACKEND_CUDA, &good, 3840, 2160,
          CM_DEPTH_8) == 5u * 2160u * 15360u, "CUDA ring bytes");
  CHECK (cm_temporal_filter_new (&f, CM_BACKEND_CPU, &good, 4, 3,
          CM_DEPTH_8, NULL) == CM_OK, "good descriptor refused");
  CHECK (cm_filter_run_packed (f, &a, &b, NULL) ==
      CM_ERR_INVALID_ARG, "sizes that differ taken");
  CHECK (cm_filter_run (f, &plane, &plane, NULL) ==
      CM_ERR_INVALID_ARG, "a plane for four channels taken");
  CHECK (cm_filter_run_packed (f, &a, &a, NULL) == CM_OK,
      "in place refused");
  CHECK (strcmp (cm_filter_algorithm (f), "cpu-bitwise") == 0,
      "CPU algorithm named %s", cm_filter_algorithm (f));
  cm_filter_free (f);
  if (!cm_have_cuda ()) {
    f = (cm_filter *) & good;
    CHECK (cm_temporal_filter_new (&f, CM_BACKEND_CUDA, &good, 4, 3,
            CM_DEPTH_8, NULL) == CM_ERR_NO_CUDA && f == NULL,
        "CUDA filter without CUDA");
  }
  free (a.data);
  free (b.data);
  test_image_free (&plane);
}

int
main (void)
{
  test_rng r;

  test_rng_seed (&r, 38);
  check_reference_by_hand ();
  check_arguments ();
  check_reset_and_rank (&r);
  check_planes_and_cancel (&r);
  check_table (&r);
  check_every_frames (&r);
  return test_count_report ("test-temporal-cpu");
}
