/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GPU temporal percentile == CPU reference (cm_temporal_ref), bit for bit,
 * every push of random sequences, over the whole frame.
 *
 * Every `frames` from 1 to 255 on small frames (the window growing after
 * the start, then sliding), by the kernel the plan picks and by the
 * histogram on a ring by slot and the count on a ring by sample forced
 * (so every kernel sees every window up to 32); a table
 * of windows x percentiles (0, 50, 100 and between) x both outputs x 8 and
 * 16 bits x planes and packed frames (RGBA with its alpha copied, RGBx,
 * interleaved chroma) x tunings (auto, network forced, network without
 * the pruned medians, histogram on a ring by slot, also with its
 * prefetch hint, atomics and one block an SM, and with threads of 4
 * samples, and the ring by sample), with device views at the
 * allocator's pitch or one sample in (rows that are not word aligned)
 * and run in place; resets and a new percentile in the middle of a
 * sequence; 3840x2160 at 9 frames, 1920x1080 at 25, 256x144 at 255. The
 * samples around each view (the destination's filled with noise) must come
 * back unchanged. Also: the filter of temporal-filter.h on CUDA (planes,
 * reset, a new rank), argument checks and the algorithm names.
 *
 * Exit 77 (meson SKIP) without a CUDA device; one line per failing case on
 * stderr, "N passed, M failed" at the end, exit 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "kernel-test.h"
#include "temporal-history.h"
#include "temporal/temporal-filter.h"
#include "temporal/temporal.h"
#include "test-util.h"

static int n_pass, n_fail;
static cm_stream stream;

#define FAIL(...) do { fprintf (stderr, "FAIL: " __VA_ARGS__); \
    fputc ('\n', stderr); n_fail++; } while (0)

static const double percentiles[] = { 50, 0, 100, 12.5, 37.3, 66.6, 90,
  99.9
};

typedef struct
{
  int channels, alpha, width, height;
} layout;

static const layout layouts[] = {
  {1, -1, 67, 9},               /* a plane, a row not a multiple of 4 */
  {4, 3, 33, 5},                /* RGBA */
  {4, -1, 18, 4},               /* RGBx */
  {2, -1, 21, 3},               /* interleaved chroma */
};

static const cm_temporal_tuning tunings[] = {
  {CM_TEMPORAL_AUTO, 0, 0, 0, 0, 0, 0, 0},
  {CM_TEMPORAL_NETWORK, 0, 0, 0, 0, 0, 0, 0},
  {CM_TEMPORAL_NETWORK, 0, 2, 0, 0, 0, 0, 0},   /* generic networks for
                                                   medians too */
  /* the ring by slot at any `frames`, counted per slot */
  {CM_TEMPORAL_HISTOGRAM, 0, 0, 0, 0, 0, 0, 2},
  {CM_TEMPORAL_HISTOGRAM, 0, 0, 1, 1, 1, 0, 2}, /* the prefetch hint,
                                                   atomics, one block an
                                                   SM */
  {CM_TEMPORAL_HISTOGRAM, 0, 0, 0, 0, 0, 1, 2}, /* 4 samples a thread */
  {CM_TEMPORAL_AUTO, 0, 0, 0, 0, 0, 0, 1},      /* the ring by sample at
                                                   any `frames` */
};

typedef struct
{
  int tuning;
  int view;                     /* 0: the allocator's pitch, 1: one sample in */
  int in_place, levels;
  int check_all;                /* else the first pushes, those around the
                                   window's filling and the last */
} run_opts;

/* the view (@view 1: one sample in) of an allocation two pixels wider */
static cm_image_packed
view_of (const cm_image_packed * whole, int view, int width)
{
  cm_image_packed v = *whole;

  v.width = width;
  if (view == 1)
    v.data = (uint8_t *) whole->data + cm_depth_bytes (whole->depth);
  return v;
}

static cm_status
packed_copy (const cm_image_packed * dst, const cm_image_packed * src,
    cm_copy_kind kind)
{
  return cm_copy_2d_async (dst->data, dst->pitch, src->data, src->pitch,
      (size_t) src->width * src->channels * cm_depth_bytes (src->depth),
      src->height, kind, stream);
}

/* The samples of @got outside the view equal @want's */
static int
outside_equal (const cm_image_packed * got, const cm_image_packed * want,
    int view, int width)
{
  const int per_row = got->width * got->channels;
  const int first = view == 1 ? 1 : 0;
  const int last = first + width * got->channels;

  for (int y = 0; y < got->height; y++)
    for (int s = 0; s < per_row; s++)
      if ((s < first || s >= last) &&
          cm_load_sample ((const uint8_t *) got->data + y * got->pitch, s,
              cm_depth_bytes (got->depth)) !=
          cm_load_sample ((const uint8_t *) want->data + y * want->pitch, s,
              cm_depth_bytes (want->depth)))
        return 0;
  return 1;
}

/* @pushes random frames of @l (@w x @h) through a plan of @d */
static void
run_sequence (const cm_temporal_desc * d, const layout * l, int w, int h,
    cm_depth depth, int pushes, const run_opts * o, test_rng * r)
{
  const int aw = w + 2;
  cm_image_packed hsrc = test_packed_new (aw, h, depth, l->channels, 0);
  cm_image_packed noise = test_packed_new (aw, h, depth, l->channels, 0);
  cm_image_packed got = test_packed_new (aw, h, depth, l->channels, 0);
  cm_image_packed want = test_packed_new (w, h, depth, l->channels, 0);
  cm_image_packed dsrc = { 0 }, ddst = { 0 };
  temporal_history hist = {.n = 0,.frames = d->frames };
  cm_temporal_plan *plan = NULL;
  char what[200];
  cm_status st;

  snprintf (what, sizeof (what), "frames %d p=%g %s %d-bit %dx%d x%d "
      "alpha %d tuning %d view %d%s%s", d->frames, d->percentile,
      cm_temporal_output_name (d->output), (int) depth, w, h, l->channels,
      l->alpha, o->tuning, o->view, o->in_place ? " in place" : "",
      o->levels ? " levels" : "");
  st = cm_device_packed_alloc (&dsrc, aw, h, depth, l->channels);
  if (st == CM_OK)
    st = cm_device_packed_alloc (&ddst, aw, h, depth, l->channels);
  if (st == CM_OK)
    st = cm_temporal_plan_new_tuned (&plan, d, w, h, depth,
        &tunings[o->tuning]);
  if (st != CM_OK) {
    FAIL ("%s: setup: %s", what, cm_status_string (st));
    pushes = 0;
  }
  for (int t = 0; t < pushes; t++) {
    const cm_image_packed vs = view_of (&dsrc, o->view, w);
    const cm_image_packed vd = view_of (o->in_place ? &dsrc : &ddst, o->view,
        w);
    const cm_image_packed hv = view_of (&hsrc, o->view, w);
    const cm_image_packed gv = view_of (&got, o->view, w);
    const int check = o->check_all || t < 3 || abs (t - d->frames) <= 2 ||
        t == pushes - 1;

    temporal_fill (&hsrc, r, o->levels);
    temporal_fill (&noise, r, 0);
    temporal_history_push (&hist, &hv);
    st = packed_copy (&dsrc, &hsrc, CM_COPY_H2D);
    if (st == CM_OK && !o->in_place)
      st = packed_copy (&ddst, &noise, CM_COPY_H2D);
    if (st == CM_OK)
      st = cm_temporal_plan_push (plan, &vs, &vd, stream);
    if (st == CM_OK && check)
      st = packed_copy (&got, o->in_place ? &dsrc : &ddst, CM_COPY_D2H);
    if (st == CM_OK)
      st = cm_stream_sync (stream);
    if (st != CM_OK) {
      FAIL ("%s push %d: %s", what, t, cm_status_string (st));
      break;
    }
    if (cm_temporal_plan_window (plan) != hist.n) {
      FAIL ("%s push %d: window %d, expected %d", what, t,
          cm_temporal_plan_window (plan), hist.n);
      break;
    }
    if (!check)
      continue;
    if (cm_temporal_ref (d, hist.win, hist.n, &want) != CM_OK) {
      FAIL ("%s push %d: the reference refused", what, t);
      break;
    }
    if (!temporal_equal (&gv, &want, what)) {
      FAIL ("%s push %d (window %d, %s): differs from the reference", what,
          t, hist.n, cm_temporal_plan_algorithm (plan));
      break;
    }
    if (!outside_equal (&got, o->in_place ? &hsrc : &noise, o->view, w)) {
      FAIL ("%s push %d: a sample outside the view changed", what, t);
      break;
    }
    n_pass++;
  }
  cm_temporal_plan_free (plan);
  cm_device_free (dsrc.data);
  cm_device_free (ddst.data);
  temporal_history_clear (&hist);
  free (hsrc.data);
  free (noise.data);
  free (got.data);
  free (want.data);
}

static void
check_every_frames (test_rng * r)
{
  static const layout tiny = { 1, -1, 0, 0 };

  for (int frames = 1; frames <= CM_TEMPORAL_MAX_FRAMES; frames++)
    for (int depth = 8; depth <= 16; depth += 8)
      for (int hist = 0; hist < (frames <= CM_TEMPORAL_NETWORK_MAX ? 3 : 2);
          hist++) {
        static const int small[] = { 0, 6, 3 }, large[] = { 0, 3 };
        const int tu = frames <= CM_TEMPORAL_NETWORK_MAX ? small[hist] :
            large[hist];
        const int i = frames + depth;
        cm_temporal_desc d = { frames, percentiles[i % 8],
          (cm_temporal_output) ((i / 8) % 2), 1, -1
        };
        /* auto (networks, then the ring by sample), the ring by sample
         * on small windows, the histogram on a ring by slot */
        run_opts o = { tu, frames % 3 == 0, 0,
          frames % 5 == 0 ? 3 : 0, frames <= 40
        };

        run_sequence (&d, &tiny, 13, 3, (cm_depth) depth, frames + 3, &o, r);
      }
}

static void
check_table (test_rng * r)
{
  static const int frames[] = { 1, 2, 3, 5, 9, 16, 25, 31, 32, 33, 64, 255 };
  int idx = 0;

  for (int fi = 0; fi < (int) (sizeof (frames) / sizeof (frames[0])); fi++)
    for (int pi = 0; pi < 8; pi++)
      for (int depth = 8; depth <= 16; depth += 8)
        for (int tu = 0; tu < 7; tu++, idx++) {
          const layout *l = &layouts[idx % 4];
          cm_temporal_desc d = { frames[fi], percentiles[pi],
            (cm_temporal_output) ((idx / 4) % 2), l->channels, l->alpha
          };
          run_opts o = { tu, (idx / 3) % 2, idx % 7 == 0,
            idx % 5 == 0 ? 3 : 0, frames[fi] <= 33
          };

          if (frames[fi] > CM_TEMPORAL_NETWORK_MAX && (tu == 1 || tu == 2))
            continue;
          run_sequence (&d, l, l->width, l->height, (cm_depth) depth,
              frames[fi] + 4, &o, r);
        }
}

/* resets and a new percentile and output in the middle of a sequence, on
 * every kernel family */
static void
check_reset_and_rank (test_rng * r)
{
  for (int tu = 0; tu < 7; tu += 3)
    for (int depth = 8; depth <= 16; depth += 8) {
      const layout *l = &layouts[1];
      cm_temporal_desc d = { 5, 50, CM_TEMPORAL_BACKGROUND, l->channels,
        l->alpha
      };
      const int w = l->width, h = l->height;
      cm_image_packed hsrc = test_packed_new (w, h, (cm_depth) depth, 4, 0);
      cm_image_packed got = test_packed_new (w, h, (cm_depth) depth, 4, 0);
      cm_image_packed want = test_packed_new (w, h, (cm_depth) depth, 4, 0);
      cm_image_packed dsrc = { 0 }, ddst = { 0 };
      temporal_history hist = {.n = 0,.frames = d.frames };
      cm_temporal_plan *plan = NULL;
      cm_status st;

      st = cm_device_packed_alloc (&dsrc, w, h, (cm_depth) depth, 4);
      if (st == CM_OK)
        st = cm_device_packed_alloc (&ddst, w, h, (cm_depth) depth, 4);
      if (st == CM_OK)
        st = cm_temporal_plan_new_tuned (&plan, &d, w, h, (cm_depth) depth,
            &tunings[tu]);
      for (int t = 0; st == CM_OK && t < 20; t++) {
        if (t == 7 || t == 9) {
          cm_temporal_plan_reset (plan);
          temporal_history_clear (&hist);
        }
        if (t == 13) {
          d.percentile = 20;
          d.output = CM_TEMPORAL_DIFFERENCE;
          st = cm_temporal_plan_set_rank (plan, d.percentile, d.output);
        }
        temporal_fill (&hsrc, r, 0);
        temporal_history_push (&hist, &hsrc);
        if (st == CM_OK)
          st = packed_copy (&dsrc, &hsrc, CM_COPY_H2D);
        if (st == CM_OK)
          st = cm_temporal_plan_push (plan, &dsrc, &ddst, stream);
        if (st == CM_OK)
          st = packed_copy (&got, &ddst, CM_COPY_D2H);
        if (st == CM_OK)
          st = cm_stream_sync (stream);
        if (st != CM_OK)
          break;
        cm_temporal_ref (&d, hist.win, hist.n, &want);
        if (cm_temporal_plan_window (plan) != hist.n ||
            !temporal_equal (&got, &want, "reset")) {
          FAIL ("reset/set_rank %d-bit tuning %d push %d: differs (window "
              "%d, expected %d)", depth, tu, t,
              cm_temporal_plan_window (plan), hist.n);
          break;
        }
        n_pass++;
      }
      if (st != CM_OK)
        FAIL ("reset/set_rank %d-bit tuning %d: %s", depth, tu,
            cm_status_string (st));
      cm_temporal_plan_free (plan);
      cm_device_free (dsrc.data);
      cm_device_free (ddst.data);
      temporal_history_clear (&hist);
      free (hsrc.data);
      free (got.data);
      free (want.data);
    }
}

/* Frames of a camera's size, the kernels the plan picks there */
static void
check_large (test_rng * r)
{
  static const struct
  {
    int frames, w, h, depth, channels, alpha;
  } rows[] = {
    {9, 3840, 2160, 8, 1, -1},
    {25, 1920, 1080, 16, 1, -1},
    {5, 1920, 1080, 8, 4, 3},
    {255, 256, 144, 8, 1, -1},
    {255, 160, 90, 16, 1, -1},
  };

  for (int i = 0; i < 5; i++) {
    const layout l = { rows[i].channels, rows[i].alpha, rows[i].w,
      rows[i].h
    };
    cm_temporal_desc d = { rows[i].frames, 50, (cm_temporal_output) (i % 2),
      rows[i].channels, rows[i].alpha
    };
    run_opts o = { 0, 0, 0, 0, 0 };

    run_sequence (&d, &l, l.width, l.height, (cm_depth) rows[i].depth,
        rows[i].frames + 1, &o, r);
  }
}

/* The backend-neutral filter on CUDA: the plane API, reset, set_rank */
static void
check_filter (test_rng * r)
{
  cm_temporal_desc d = { 4, 50, CM_TEMPORAL_BACKGROUND, 1, -1 };
  const int w = 37, h = 6;
  cm_image_packed hsrc = test_packed_new (w, h, CM_DEPTH_16, 1, 0);
  cm_image_packed got = test_packed_new (w, h, CM_DEPTH_16, 1, 0);
  cm_image_packed want = test_packed_new (w, h, CM_DEPTH_16, 1, 0);
  cm_image src = { 0 }, dst = { 0 };
  temporal_history hist = {.n = 0,.frames = d.frames };
  cm_filter *f = NULL;
  cm_status st;

  st = cm_device_image_alloc (&src, w, h, CM_DEPTH_16);
  if (st == CM_OK)
    st = cm_device_image_alloc (&dst, w, h, CM_DEPTH_16);
  if (st == CM_OK)
    st = cm_temporal_filter_new (&f, CM_BACKEND_CUDA, &d, w, h, CM_DEPTH_16,
        NULL);
  for (int t = 0; st == CM_OK && t < 12; t++) {
    const cm_image_packed ps = { src.data, src.pitch, w, h, CM_DEPTH_16, 1 };
    const cm_image_packed pd = { dst.data, dst.pitch, w, h, CM_DEPTH_16, 1 };

    if (t == 6) {
      cm_temporal_filter_reset (f);
      temporal_history_clear (&hist);
    }
    if (t == 8) {
      d.percentile = 100;
      d.output = CM_TEMPORAL_DIFFERENCE;
      st = cm_temporal_filter_set_rank (f, d.percentile, d.output);
    }
    temporal_fill (&hsrc, r, 0);
    temporal_history_push (&hist, &hsrc);
    if (st == CM_OK)
      st = packed_copy (&ps, &hsrc, CM_COPY_H2D);
    if (st == CM_OK)
      st = cm_filter_run (f, &src, &dst, stream);
    if (st == CM_OK)
      st = packed_copy (&got, &pd, CM_COPY_D2H);
    if (st == CM_OK)
      st = cm_stream_sync (stream);
    if (st != CM_OK)
      break;
    cm_temporal_ref (&d, hist.win, hist.n, &want);
    if (cm_temporal_filter_window (f) != hist.n ||
        !temporal_equal (&got, &want, "filter")) {
      FAIL ("CUDA filter push %d: differs (window %d, expected %d)", t,
          cm_temporal_filter_window (f), hist.n);
      break;
    }
    n_pass++;
  }
  if (st != CM_OK)
    FAIL ("CUDA filter: %s", cm_status_string (st));
  if (f != NULL && (cm_filter_backend (f) != CM_BACKEND_CUDA ||
          strncmp (cm_filter_algorithm (f), "network", 7) != 0))
    FAIL ("CUDA filter: backend %d, algorithm %s",
        (int) cm_filter_backend (f), cm_filter_algorithm (f));
  cm_filter_free (f);
  cm_device_free (src.data);
  cm_device_free (dst.data);
  temporal_history_clear (&hist);
  free (hsrc.data);
  free (got.data);
  free (want.data);
}

static void
check_arguments (void)
{
  cm_temporal_desc d = { 9, 50, CM_TEMPORAL_BACKGROUND, 1, -1 };
  cm_temporal_tuning bad_tuning = { CM_TEMPORAL_AUTO, 33, 0, 0, 0, 0, 0, 0 };
  cm_temporal_plan *plan = NULL;
  cm_image_packed a = { 0 }, b = { 0 };
  void *b_alloc;
  int ok = 1;

  ok &= cm_temporal_plan_new_tuned (&plan, &d, 8, 8, CM_DEPTH_8,
      &bad_tuning) == CM_ERR_INVALID_ARG && plan == NULL;
  ok &= cm_temporal_plan_new (&plan, &d, 8, 8, CM_DEPTH_8) == CM_OK;
  ok &= strcmp (cm_temporal_plan_algorithm (plan), "none") == 0;
  ok &= cm_device_packed_alloc (&a, 8, 8, CM_DEPTH_8, 1) == CM_OK;
  ok &= cm_device_packed_alloc (&b, 9, 8, CM_DEPTH_8, 1) == CM_OK;
  b_alloc = b.data;
  ok &= cm_temporal_plan_push (plan, &a, &b, stream) == CM_ERR_INVALID_ARG;
  b.width = 8;
  ok &= cm_temporal_plan_push (plan, &a, &b, stream) == CM_OK;
  ok &= strcmp (cm_temporal_plan_algorithm (plan), "network-2") == 0;
  b.data = (uint8_t *) a.data + 1;      /* overlaps src, not src */
  ok &= cm_temporal_plan_push (plan, &a, &b, stream) == CM_ERR_INVALID_ARG;
  ok &= cm_temporal_plan_window (plan) == 1;
  ok &= cm_stream_sync (stream) == CM_OK;
  ok &= cm_temporal_plan_ring_bytes (&d, 8, 8, CM_DEPTH_8) == 9 * 8 * 512;
  if (!ok)
    FAIL ("argument checks");
  else
    n_pass++;
  cm_temporal_plan_free (plan);
  cm_device_free (a.data);
  cm_device_free (b_alloc);
}

int
main (void)
{
  test_rng r;
  int rc = kernel_test_open (&stream);

  if (rc != 0)
    return rc;
  test_rng_seed (&r, 3838);
  check_arguments ();
  check_filter (&r);
  check_reset_and_rank (&r);
  check_table (&r);
  check_every_frames (&r);
  check_large (&r);
  return kernel_test_close (stream, n_pass, n_fail);
}
