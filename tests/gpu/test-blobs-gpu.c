/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GPU blobs (blobs.cu) == the reference (blobs-ref.c), bit for bit: the
 * totals, every reported blob's statistics (cx, cy and mean compared as
 * bits) and the mask or labels over the whole frame.
 *
 * Table: the frames of tests/common/blobs-cases.h (random frames at every
 * density, 50 % noise, spirals, checkerboards where 4 and 8 differ, one
 * blob covering the frame, no blob, discs with area ties, combs whose
 * teeth join only at their foot) from 1x1 to 640x480 (1xN, Nx1, sizes off
 * the tiles), 8 and 16 bits, under every descriptor of the table (filters,
 * max_blobs with ties, mask, labels); each frame also under odd tunings
 * (short, uneven and tall tiles: other tile roots, other records), from
 * sources one sample into their allocation and at its start (the tiles
 * load four samples at once where aligned); the destination one sample
 * in and pre-filled with noise.
 * Then 1080p and 4K frames (50 % noise, discs, spiral), more than 65535
 * labels, a plan run twice, argument checks.
 *
 * CM_TEST_SAMPLE=n runs about one table case in n and not the large
 * frames (compute-sanitizer). Exit 77 (meson SKIP) without a CUDA device;
 * one line per failing case on stderr, "N passed, M failed" at the end,
 * exit 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobs-cases.h"
#include "blobs/blobs-filter.h"
#include "device.h"
#include "kernel-test.h"

static int n_pass, n_fail;
static cm_stream stream;

#define FAIL(...) do { fprintf (stderr, "FAIL: " __VA_ARGS__); \
    fputc ('\n', stderr); n_fail++; } while (0)

/* a tuning and the layout of the source view it runs on
 * (kernel-test.h): the tiles load four samples at once where the view is
 * aligned (layout 0), one at a time where not (layout 1) */
static const struct
{
  cm_blobs_tuning tuning;
  int src_layout;
} tunings[] = {
  {{0, 0, 0, 0}, 1},            /* the defaults */
  {{16, 0, 2, 0}, 0},           /* the tallest tiles, finds that read */
  {{5, 0, 1, 0}, 1},            /* uneven tiles, finds that halve */
  {{1, 0, 2, 1}, 1},            /* a row each, plain launches */
  {{0, 0, 0, 0}, 0},            /* the defaults, aligned */
};

#define N_TUNINGS ((int) (sizeof (tunings) / sizeof (tunings[0])))

/* @src (host) under @d with each tuning of @mask against the reference */
static void
check_frame (const cm_image * src, const cm_blobs_desc * d, unsigned mask,
    const char *name)
{
  const int w = src->width, h = src->height;
  const cm_depth od = cm_blobs_output_depth (d, src->depth);
  cm_image want_img = test_image_new (w, h, od, 0);
  cm_image got_whole = test_image_new (w + 2, h, od, 0);
  cm_image noise = test_image_new (w + 2, h, od, 0);
  cm_image src_whole[2];         /* by source layout (kernel-test.h) */
  cm_blobs_results want;
  kernel_test_image ds[2], dd;
  int made = 0;
  test_rng r;
  char what[400];

  test_rng_seed (&r, (uint64_t) w * 7919u + h);
  test_image_fill_random (&noise, &r);
  for (int l = 0; l < 2; l++) {
    cm_image v;

    src_whole[l] = test_image_new (w + 2, h, src->depth, 0);
    test_image_fill_random (&src_whole[l], &r);
    v = kernel_test_host_view (&src_whole[l], l, w);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        test_image_set (&v, x, y, test_image_get (src, x, y));
  }
  cm_blobs_results_alloc (&want, cm_blobs_capacity (d, w, h));
  if (cm_blobs_ref (d, src, d->output ? &want_img : NULL, &want) != CM_OK) {
    FAIL ("%s: reference refused", name);
    goto out;
  }
  for (; made < 2; made++)
    if (!kernel_test_image_new (&ds[made], w, h, src->depth, made))
      break;
  if (made < 2 || !kernel_test_image_new (&dd, w, h, od, 1)) {
    FAIL ("%s: device allocation", name);
    goto out;
  }
  for (int l = 0; l < 2; l++)
    image_copy (&ds[l].alloc, &src_whole[l], CM_COPY_H2D, stream);
  for (int t = 0; t < N_TUNINGS; t++) {
    cm_blobs_plan *plan = NULL;
    const cm_blobs_results *got;
    cm_status st;
    int ok = 1;

    if (!(mask & (1u << t)))
      continue;
    snprintf (what, sizeof (what), "%s tuning %d (source layout %d)", name,
        t, tunings[t].src_layout);
    st = cm_blobs_plan_new_tuned (&plan, d, w, h, src->depth,
        &tunings[t].tuning);
    if (st != CM_OK) {
      FAIL ("%s: plan: %s", what, cm_status_string (st));
      continue;
    }
    image_copy (&dd.alloc, &noise, CM_COPY_H2D, stream);
    st = kernel_test_synced (cm_blobs_plan_run (plan,
            &ds[tunings[t].src_layout].view,
            d->output ? &dd.view : NULL, stream), stream);
    if (st != CM_OK) {
      FAIL ("%s: run: %s", what, cm_status_string (st));
      cm_blobs_plan_free (plan);
      continue;
    }
    got = cm_blobs_plan_results (plan);
    ok = got != NULL && blobs_results_equal (got, &want, what);
    if (ok) {
      image_copy (&got_whole, &dd.alloc, CM_COPY_D2H, stream);
      for (int y = 0; ok && y < h; y++)
        for (int x = 0; x < w + 2; x++) {
          const uint32_t g = test_image_get (&got_whole, x, y);
          const uint32_t e = x == 0 || x == w + 1 || !d->output ?
              test_image_get (&noise, x, y) :
              test_image_get (&want_img, x - 1, y);

          if (g != e) {
            fprintf (stderr, "%s: image at (%d, %d): got %u expected %u\n",
                what, x - 1, y, g, e);
            ok = 0;
            break;
          }
        }
    }
    if (ok)
      n_pass++;
    else
      FAIL ("%s", what);
    cm_blobs_plan_free (plan);
  }
  cm_device_free (dd.alloc.data);
out:
  for (int l = 0; l < made; l++)
    cm_device_free (ds[l].alloc.data);
  for (int l = 0; l < 2; l++)
    test_image_free (&src_whole[l]);
  cm_blobs_results_free (&want);
  test_image_free (&want_img);
  test_image_free (&got_whole);
  test_image_free (&noise);
}

/* a frame of @kind under descriptor @di */
static void
check_case (blobs_kind kind, int param, int w, int h, cm_depth depth,
    int di, unsigned mask, test_rng * r)
{
  cm_image src = test_image_new (w, h, depth, 0);
  cm_blobs_desc d;
  char name[300];
  uint32_t t;

  blobs_fill (&src, kind, param, &t, r);
  d = blobs_desc_of (di, t);
  blobs_case_name (name, sizeof (name), kind, param, &src, &d);
  check_frame (&src, &d, mask, name);
  test_image_free (&src);
}

static void
test_table (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 45}, {45, 1}, {2, 2}, {5, 3}, {31, 33}, {33, 31},
    {65, 7}, {100, 71}, {257, 130}, {640, 480}
  };
  test_rng r;

  test_rng_seed (&r, 3636);
  for (int s = 0; s < (int) (sizeof (sizes) / sizeof (sizes[0])); s++)
    for (int k = 0; k < BLOBS_KINDS; k++)
      for (int i = 0; i < BLOBS_DESCS; i++)
        for (int depth = 8; depth <= 16; depth += 8) {
          const int w = sizes[s][0], h = sizes[s][1];
          const unsigned mask = w * h <= 5000 ? 0x1fu :
              1u | (1u << (1 + (k + i + s) % 4));

          if (!test_sample_keep ())
            continue;
          check_case (blobs_kinds[k].kind, blobs_kinds[k].param, w, h,
              (cm_depth) depth, i, mask, &r);
        }
}

/* the sizes the element sees */
static void
test_large (void)
{
  test_rng r;

  test_rng_seed (&r, 1080);
  /* each also from an aligned source (tuning 4) */
  for (int i = 0; i < BLOBS_DESCS; i++)
    check_case (BLOBS_RANDOM, 50, 1920, 1080, CM_DEPTH_8, i,
        1u | 16u, &r);
  check_case (BLOBS_DISCS, 3000, 1920, 1080, CM_DEPTH_16, 4,
      1u | 4u | 16u, &r);
  check_case (BLOBS_SPIRAL, 0, 1920, 1080, CM_DEPTH_8, 1, 1u | 2u | 16u, &r);
  check_case (BLOBS_RANDOM, 50, 3840, 2160, CM_DEPTH_8, 0, 1u | 4u | 16u,
      &r);
  check_case (BLOBS_RANDOM, 50, 3840, 2160, CM_DEPTH_8, 3, 1u | 16u, &r);
  check_case (BLOBS_RANDOM, 70, 3840, 2160, CM_DEPTH_16, 4, 1u | 16u, &r);
  check_case (BLOBS_DISCS, 20000, 3840, 2160, CM_DEPTH_8, 4, 1u | 16u, &r);
  check_case (BLOBS_SPIRAL, 0, 3840, 2160, CM_DEPTH_8, 0, 1u | 4u | 16u,
      &r);
  check_case (BLOBS_FULL, 0, 3840, 2160, CM_DEPTH_8, 2, 1u | 16u, &r);
}

/* The selection's cut (blobs.cu, steps 5 to 9) over blob blocks: frames
 * of exactly @n blobs, twelve squares of 4,096 and 4,900 pixels (the
 * histogram's top bin, so that a cut of 7 falls among their exact areas)
 * and single pixels, from one blob block to 40 of them, with counts
 * around 16 blocks (where a one-block selection tried on 2026-12-06
 * handed over to the grid); cuts in the top bin, among the single pixels
 * (ties by the thousand) and none. */
static void
test_selection_ways (void)
{
  static const uint32_t counts[] = { 13, 16383, 16384, 16385, 40000 };
  static const uint32_t max_blobs[] = { 7, 20, 0 };
  const int w = 1200, h = 300, top = 152;
  test_rng r;

  test_rng_seed (&r, 16384);
  for (int c = 0; c < (int) (sizeof (counts) / sizeof (counts[0])); c++) {
    cm_image src = test_image_new (w, h, CM_DEPTH_8, 0);
    uint8_t *on = (uint8_t *) calloc ((size_t) w * h, 1);
    uint32_t singles = counts[c] - 12;
    char name[120];

    for (int q = 0; q < 12; q++) {
      const int side = q % 3 == 0 ? 70 : 64;
      const int x0 = (q % 6) * 180, y0 = (q / 6) * 76;

      for (int y = y0; y < y0 + side; y++)
        for (int x = x0; x < x0 + side; x++)
          on[(size_t) y * w + x] = 1;
    }
    for (int y = top; y < h && singles > 0; y += 2)
      for (int x = 0; x < w && singles > 0; x += 2, singles--)
        on[(size_t) y * w + x] = 1;
    blobs_paint (&src, on, 128, &r);
    for (int m = 0; m < (int) (sizeof (max_blobs) / sizeof (max_blobs[0]));
        m++) {
      cm_blobs_desc d = blobs_desc_of (0, 128);

      d.max_blobs = max_blobs[m];
      snprintf (name, sizeof (name), "%u blobs, max %u", counts[c],
          max_blobs[m]);
      check_frame (&src, &d, 1u, name);
    }
    free (on);
    test_image_free (&src);
  }
}

/* more than 65535 passing blobs: labels past it share 65535 */
static void
test_saturated (void)
{
  test_rng r;
  cm_image src = test_image_new (400, 400, CM_DEPTH_8, 0);
  cm_blobs_desc d;

  test_rng_seed (&r, 65536);
  d = blobs_saturating (&src, &r);
  check_frame (&src, &d, 1u | 16u, "80000 labels");
  d.max_blobs = 70000;
  d.min_area = 1;
  check_frame (&src, &d, 2u | 16u, "80000 labels, 70000 reported");
  test_image_free (&src);
}

/* one plan, frames of different content one after the other */
static void
test_rerun (void)
{
  test_rng r;
  const int w = 300, h = 200;
  cm_image a = test_image_new (w, h, CM_DEPTH_8, 0);
  cm_image b = test_image_new (w, h, CM_DEPTH_8, 0);
  cm_blobs_desc d = blobs_desc_of (4, 128);
  cm_blobs_results want;
  cm_blobs_plan *plan = NULL;
  kernel_test_image da;
  uint32_t t;
  int ok = 1;

  test_rng_seed (&r, 2);
  blobs_fill (&a, BLOBS_RANDOM, 40, &t, &r);
  blobs_fill (&b, BLOBS_RANDOM, 40, &t, &r);
  d.threshold = t;
  d.output = CM_BLOBS_OUTPUT_NONE;
  cm_blobs_results_alloc (&want, cm_blobs_capacity (&d, w, h));
  if (cm_blobs_plan_new (&plan, &d, w, h, CM_DEPTH_8) != CM_OK ||
      !kernel_test_image_new (&da, w, h, CM_DEPTH_8, 1)) {
    FAIL ("rerun: setup");
    return;
  }
  for (int i = 0; i < 4; i++) {
    const cm_image *f = i % 2 ? &b : &a;

    cm_blobs_ref (&d, f, NULL, &want);
    image_copy (&da.view, f, CM_COPY_H2D, stream);
    if (cm_blobs_plan_run (plan, &da.view, NULL, stream) != CM_OK ||
        cm_stream_sync (stream) != CM_OK ||
        !blobs_results_equal (cm_blobs_plan_results (plan), &want, "rerun"))
      ok = 0;
  }
  if (ok)
    n_pass++;
  else
    FAIL ("a plan run again on other frames");
  cm_blobs_plan_free (plan);
  cm_device_free (da.alloc.data);
  cm_blobs_results_free (&want);
  test_image_free (&a);
  test_image_free (&b);
}

/* Two result slots (frames in flight): two frames queued back to back
 * into slots 0 and 1, one synchronisation, then each slot holds its own
 * frame's results; again with the slots swapped, through the plan and
 * through the filter API. */
static void
test_result_slots (void)
{
  test_rng r;
  const int w = 257, h = 131;
  cm_image a = test_image_new (w, h, CM_DEPTH_8, 0);
  cm_image b = test_image_new (w, h, CM_DEPTH_8, 0);
  cm_blobs_desc d = blobs_desc_of (4, 128);
  cm_blobs_results want[2];
  cm_blobs_plan *plan = NULL;
  cm_filter *f = NULL;
  kernel_test_image da, db;
  uint32_t t;
  int ok = 1;

  test_rng_seed (&r, 31);
  blobs_fill (&a, BLOBS_RANDOM, 45, &t, &r);
  blobs_fill (&b, BLOBS_DISCS, 30, &t, &r);
  d.threshold = t;
  d.output = CM_BLOBS_OUTPUT_NONE;
  d.max_blobs = 20;
  d.result_slots = 2;
  for (int i = 0; i < 2; i++) {
    cm_blobs_results_alloc (&want[i], cm_blobs_capacity (&d, w, h));
    cm_blobs_ref (&d, i ? &b : &a, NULL, &want[i]);
  }
  if (cm_blobs_plan_new (&plan, &d, w, h, CM_DEPTH_8) != CM_OK ||
      cm_blobs_filter_new (&f, CM_BACKEND_CUDA, &d, w, h, CM_DEPTH_8,
          NULL) != CM_OK || !kernel_test_image_new (&da, w, h, CM_DEPTH_8, 1)
      || !kernel_test_image_new (&db, w, h, CM_DEPTH_8, 1)) {
    FAIL ("result slots: setup");
    return;
  }
  image_copy (&da.view, &a, CM_COPY_H2D, stream);
  image_copy (&db.view, &b, CM_COPY_H2D, stream);
  ok = cm_filter_result_slots (f) == 2;
  for (int swap = 0; swap < 2; swap++) {
    /* frame a into slot swap, frame b into the other, then one sync */
    for (int i = 0; i < 2; i++) {
      const cm_image *src = i ? &db.view : &da.view;
      int slot = i ^ swap;

      ok = ok && cm_blobs_plan_use_slot (plan, slot) == CM_OK &&
          cm_blobs_plan_run (plan, src, NULL, stream) == CM_OK &&
          cm_filter_use_result_slot (f, slot) == CM_OK &&
          cm_filter_run (f, src, NULL, stream) == CM_OK;
    }
    ok = ok && cm_stream_sync (stream) == CM_OK;
    for (int i = 0; ok && i < 2; i++) {
      ok = cm_blobs_plan_use_slot (plan, i ^ swap) == CM_OK &&
          blobs_results_equal (cm_blobs_plan_results (plan), &want[i],
          "plan slot") && cm_filter_use_result_slot (f, i ^ swap) == CM_OK &&
          blobs_results_equal (cm_blobs_filter_results (f), &want[i],
          "filter slot");
    }
  }
  /* no third slot; a plan of one slot has slot 0 only */
  ok = ok && cm_blobs_plan_use_slot (plan, 2) == CM_ERR_INVALID_ARG &&
      cm_blobs_plan_use_slot (plan, -1) == CM_ERR_INVALID_ARG &&
      cm_filter_use_result_slot (f, 2) == CM_ERR_INVALID_ARG;
  cm_blobs_plan_free (plan);
  d.result_slots = 1;
  ok = ok && cm_blobs_plan_new (&plan, &d, w, h, CM_DEPTH_8) == CM_OK &&
      cm_blobs_plan_use_slot (plan, 1) == CM_ERR_INVALID_ARG &&
      cm_blobs_plan_use_slot (plan, 0) == CM_OK;
  if (ok)
    n_pass++;
  else
    FAIL ("two result slots, two frames in flight");
  cm_blobs_plan_free (plan);
  cm_filter_free (f);
  cm_device_free (da.alloc.data);
  cm_device_free (db.alloc.data);
  for (int i = 0; i < 2; i++)
    cm_blobs_results_free (&want[i]);
  test_image_free (&a);
  test_image_free (&b);
}

/* the backend-neutral API on CUDA: results once the stream is synced */
static void
test_filter_api (void)
{
  test_rng r;
  const int w = 123, h = 77;
  cm_image src = test_image_new (w, h, CM_DEPTH_16, 0);
  cm_image want_img = test_image_new (w, h, CM_DEPTH_16, 0);
  cm_image got_img = test_image_new (w, h, CM_DEPTH_16, 0);
  cm_blobs_desc d = blobs_desc_of (2, 0);
  cm_blobs_results want;
  cm_filter *f = NULL;
  cm_image ds, dd;
  uint32_t t;
  int ok;

  test_rng_seed (&r, 77);
  blobs_fill (&src, BLOBS_DISCS, 60, &t, &r);
  d.threshold = t;
  cm_blobs_results_alloc (&want, cm_blobs_capacity (&d, w, h));
  cm_blobs_ref (&d, &src, &want_img, &want);
  if (cm_blobs_filter_new (&f, CM_BACKEND_CUDA, &d, w, h, CM_DEPTH_16,
          NULL) != CM_OK || cm_device_image_alloc (&ds, w, h,
          CM_DEPTH_16) != CM_OK || cm_device_image_alloc (&dd, w, h,
          CM_DEPTH_16) != CM_OK) {
    FAIL ("filter API: setup");
    return;
  }
  ok = cm_blobs_filter_results (f) == NULL &&
      cm_filter_backend (f) == CM_BACKEND_CUDA;
  image_copy (&ds, &src, CM_COPY_H2D, stream);
  ok = ok && cm_filter_run (f, &ds, &dd, stream) == CM_OK &&
      cm_stream_sync (stream) == CM_OK &&
      blobs_results_equal (cm_blobs_filter_results (f), &want, "filter");
  image_copy (&got_img, &dd, CM_COPY_D2H, stream);
  ok = ok && test_image_equal (&got_img, &want_img, "filter labels");
  if (ok)
    n_pass++;
  else
    FAIL ("the filter API on CUDA");
  cm_filter_free (f);
  cm_device_free (ds.data);
  cm_device_free (dd.data);
  cm_blobs_results_free (&want);
  test_image_free (&src);
  test_image_free (&want_img);
  test_image_free (&got_img);
}

static void
test_arguments (void)
{
  cm_blobs_plan *plan = (cm_blobs_plan *) 1;
  cm_blobs_desc d = blobs_desc_of (0, 128);
  cm_blobs_tuning bad = { 17, 0, 0, 0 }, bad_steps = { 0, -1, 0, 0 };
  cm_blobs_tuning bad_finds = { 0, 0, 3, 0 };
  cm_image a, b;
  int expected = 0, got = 0;

#define EXPECT_REFUSED(call) do { expected++; \
    if ((call) != CM_ERR_INVALID_ARG) FAIL ("accepted: %s", #call); \
    else got++; } while (0)

  EXPECT_REFUSED (cm_blobs_plan_new (NULL, &d, 4, 4, CM_DEPTH_8));
  EXPECT_REFUSED (cm_blobs_plan_new (&plan, NULL, 4, 4, CM_DEPTH_8));
  if (plan != NULL)
    FAIL ("a refused plan must leave *out NULL");
  EXPECT_REFUSED (cm_blobs_plan_new (&plan, &d, 0, 4, CM_DEPTH_8));
  EXPECT_REFUSED (cm_blobs_plan_new (&plan, &d, 4, 4, (cm_depth) 12));
  EXPECT_REFUSED (cm_blobs_plan_new_tuned (&plan, &d, 4, 4, CM_DEPTH_8,
          &bad));
  EXPECT_REFUSED (cm_blobs_plan_new_tuned (&plan, &d, 4, 4, CM_DEPTH_8,
          &bad_steps));
  EXPECT_REFUSED (cm_blobs_plan_new_tuned (&plan, &d, 4, 4, CM_DEPTH_8,
          &bad_finds));
  d.connectivity = 6;
  EXPECT_REFUSED (cm_blobs_plan_new (&plan, &d, 4, 4, CM_DEPTH_8));
  d.connectivity = 8;
  d.result_slots = CM_BLOBS_MAX_RESULT_SLOTS + 1;
  EXPECT_REFUSED (cm_blobs_plan_new (&plan, &d, 4, 4, CM_DEPTH_8));
  d.result_slots = -1;
  EXPECT_REFUSED (cm_blobs_plan_new (&plan, &d, 4, 4, CM_DEPTH_8));
  d.result_slots = 0;
  if (cm_blobs_plan_new (&plan, &d, 8, 8, CM_DEPTH_8) != CM_OK ||
      cm_device_image_alloc (&a, 8, 8, CM_DEPTH_8) != CM_OK ||
      cm_device_image_alloc (&b, 8, 8, CM_DEPTH_16) != CM_OK) {
    FAIL ("argument checks: setup");
    return;
  }
  EXPECT_REFUSED (cm_blobs_plan_run (plan, &a, &a, stream));   /* 8-bit */
  EXPECT_REFUSED (cm_blobs_plan_run (plan, &a, NULL, stream));
  EXPECT_REFUSED (cm_blobs_plan_run (plan, &b, &b, stream));
  EXPECT_REFUSED (cm_blobs_plan_run (NULL, &a, &b, stream));
  cm_blobs_plan_free (plan);
  cm_blobs_plan_free (NULL);
  cm_device_free (a.data);
  cm_device_free (b.data);
  if (got == expected)
    n_pass++;
#undef EXPECT_REFUSED
}

int
main (void)
{
  int rc = kernel_test_open (&stream);

  if (rc != 0)
    return rc;
  test_arguments ();
  test_table ();
  test_sample_report ();
  /* the large frames: not under a sampled (sanitizer) run */
  if (test_shard_keep (0) && getenv ("CM_TEST_SAMPLE") == NULL) {
    test_large ();
    test_selection_ways ();
    test_saturated ();
    test_rerun ();
    test_result_slots ();
    test_filter_api ();
  }
  return kernel_test_close (stream, n_pass, n_fail);
}
