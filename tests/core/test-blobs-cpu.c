/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The blobs: the reference (blobs-ref.c) on frames whose answer is known
 * by hand, then the CPU backend (blobs-cpu.c, through blobs-filter.h) ==
 * the reference bit for bit, statistics and output image, on the table
 * of tests/common/blobs-cases.h (random frames at every density, 50 %
 * noise, spirals, checkerboards, one blob covering the frame, no blob,
 * discs with area ties, combs; 1xN, Nx1, odd sizes; 8 and 16 bits; every
 * filter, max_blobs with ties, mask and labels, labels past 65535), its
 * first pass on 1, 2, 3 or 7 bands of rows. */
#include <stdlib.h>
#include <string.h>

#include "blobs-cases.h"
#include "blobs/blobs-filter.h"
#include "device.h"
#include "test-count.h"
#include "core-test.h"

/* the reference on a frame given as rows of '#' (foreground) and '.' */
static void
ref_of (const char *rows, int w, int h, int conn, cm_blobs_results * res)
{
  cm_image img = test_image_new (w, h, CM_DEPTH_8, 3);
  cm_blobs_desc d;

  memset (&d, 0, sizeof (d));
  d.threshold = 128;
  d.connectivity = conn;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      test_image_set (&img, x, y, rows[y * w + x] == '#' ? 200 + x : 10);
  CHECK (cm_blobs_ref (&d, &img, NULL, res) == CM_OK, "reference refused");
  test_image_free (&img);
}

static void
test_known (void)
{
  cm_blobs_results r;

  cm_blobs_results_alloc (&r, 16);
  ref_of ("##.." "...#" "#.##", 4, 3, 8, &r);
  CHECK (r.total == 3 && r.count == 3 && r.foreground == 6,
      "3 blobs: total %u count %u fg %llu", r.total, r.count,
      (unsigned long long) r.foreground);
  CHECK (r.x[0] == 0 && r.y[0] == 0 && r.width[0] == 2 && r.height[0] == 1 &&
      r.area[0] == 2 && r.cx[0] == 0.5 && r.cy[0] == 0.0, "first blob");
  CHECK (r.min[0] == 200 && r.max[0] == 201 && r.mean[0] == 200.5,
      "first blob's samples");
  CHECK (r.x[1] == 2 && r.y[1] == 1 && r.width[1] == 2 && r.height[1] == 2 &&
      r.area[1] == 3 && r.cx[1] == 8.0 / 3.0 && r.cy[1] == 5.0 / 3.0,
      "second blob (its first pixel at (3, 1))");
  CHECK (r.x[2] == 0 && r.y[2] == 2 && r.area[2] == 1, "third blob");

  ref_of ("#." ".#", 2, 2, 8, &r);
  CHECK (r.total == 1 && r.area[0] == 2, "diagonal, 8-connected: one blob");
  ref_of ("#." ".#", 2, 2, 4, &r);
  CHECK (r.total == 2 && r.x[1] == 1, "diagonal, 4-connected: two blobs");
  /* a U: the blob's first pixel is its top-left, its box the whole */
  ref_of ("#.#" "#.#" "###", 3, 3, 4, &r);
  CHECK (r.total == 1 && r.width[0] == 3 && r.height[0] == 3 &&
      r.area[0] == 7, "a U is one blob");
  /* the blob that starts first is listed first, whatever its size */
  ref_of (".#.." "...." "####", 4, 3, 8, &r);
  CHECK (r.total == 2 && r.area[0] == 1 && r.area[1] == 4, "order");
  cm_blobs_results_free (&r);
}

/* areas sum to the foreground; max_blobs keeps the largest in order */
static void
test_ref_properties (void)
{
  test_rng r;
  cm_image img = test_image_new (97, 61, CM_DEPTH_8, 0);
  cm_blobs_desc d = blobs_desc_of (0, 0);
  cm_blobs_results all, few;
  uint32_t t;

  test_rng_seed (&r, 7);
  blobs_fill (&img, BLOBS_DISCS, 40, &t, &r);
  d.threshold = t;
  d.output = CM_BLOBS_OUTPUT_NONE;
  cm_blobs_results_alloc (&all, cm_blobs_capacity (&d, 97, 61));
  cm_blobs_results_alloc (&few, 5);
  cm_blobs_ref (&d, &img, NULL, &all);
  {
    uint64_t sum = 0;

    for (uint32_t i = 0; i < all.count; i++)
      sum += all.area[i];
    CHECK (sum == all.foreground, "areas sum to %llu, foreground %llu",
        (unsigned long long) sum, (unsigned long long) all.foreground);
  }
  d.max_blobs = 5;
  cm_blobs_ref (&d, &img, NULL, &few);
  CHECK (few.count == (all.total < 5 ? all.total : 5) &&
      few.total == all.total, "max_blobs 5: count %u", few.count);
  {
    /* the smallest kept is at least every dropped one */
    uint64_t kept_min = UINT64_MAX, dropped_max = 0;
    uint32_t j = 0;

    for (uint32_t i = 0; i < few.count; i++)
      kept_min = few.area[i] < kept_min ? few.area[i] : kept_min;
    for (uint32_t i = 0; i < all.count; i++) {
      if (j < few.count && all.x[i] == few.x[j] && all.y[i] == few.y[j] &&
          all.area[i] == few.area[j]) {
        j++;
        continue;
      }
      dropped_max = all.area[i] > dropped_max ? all.area[i] : dropped_max;
    }
    CHECK (j == few.count, "the kept blobs are in the order of all");
    CHECK (kept_min >= dropped_max, "kept %llu < dropped %llu",
        (unsigned long long) kept_min, (unsigned long long) dropped_max);
  }
  cm_blobs_results_free (&all);
  cm_blobs_results_free (&few);
  test_image_free (&img);
}

/* One frame and descriptor: the CPU filter == the reference */
static void
check_cpu (blobs_kind kind, int param, int w, int h, cm_depth depth,
    int desc_index, test_rng * r)
{
  cm_image src = test_image_new (w, h, depth, 5);
  cm_blobs_desc d;
  cm_depth od;
  cm_image want_img, got_img;
  cm_blobs_results want;
  const cm_blobs_results *got;
  cm_filter *f = NULL;
  cm_cpu_opts o = { 1, NULL };
  char what[256];
  uint32_t t;
  cm_status st;

  blobs_fill (&src, kind, param, &t, r);
  d = blobs_desc_of (desc_index, t);
  od = cm_blobs_output_depth (&d, depth);
  want_img = test_image_new (w, h, od, 0);
  got_img = test_image_new (w, h, od, 7);
  blobs_case_name (what, sizeof (what), kind, param, &src, &d);
  cm_blobs_results_alloc (&want, cm_blobs_capacity (&d, w, h));
  st = cm_blobs_ref (&d, &src, d.output ? &want_img : NULL, &want);
  CHECK (st == CM_OK, "%s: reference: %s", what, cm_status_string (st));
  /* 1, 2, 3 or 7 bands of rows for the first pass */
  o.threads = (int) test_rng_below (r, 4) + 1;
  o.threads = o.threads == 4 ? 7 : o.threads;
  st = cm_blobs_filter_new (&f, CM_BACKEND_CPU, &d, w, h, depth, &o);
  CHECK (st == CM_OK, "%s: filter: %s", what, cm_status_string (st));
  if (st == CM_OK) {
    st = cm_filter_run (f, &src, d.output ? &got_img : NULL, NULL);
    CHECK (st == CM_OK, "%s: run: %s", what, cm_status_string (st));
    got = cm_blobs_filter_results (f);
    CHECK (got != NULL && blobs_results_equal (got, &want, what),
        "%s, %d threads: results", what, o.threads);
    if (d.output)
      CHECK (test_image_equal (&got_img, &want_img, what), "%s: image",
          what);
    cm_filter_free (f);
  }
  cm_blobs_results_free (&want);
  test_image_free (&src);
  test_image_free (&want_img);
  test_image_free (&got_img);
}

static void
test_table (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 37}, {37, 1}, {2, 2}, {5, 3}, {37, 23}, {64, 64},
    {100, 71}, {257, 130}, {333, 200}
  };
  test_rng r;

  test_rng_seed (&r, 36);
  for (int s = 0; s < N_OF (sizes); s++)
    for (int k = 0; k < BLOBS_KINDS; k++)
      for (int i = 0; i < BLOBS_DESCS; i++)
        for (int depth = 8; depth <= 16; depth += 8)
          check_cpu (blobs_kinds[k].kind, blobs_kinds[k].param,
              sizes[s][0], sizes[s][1], (cm_depth) depth, i, &r);
  /* larger frames, fewer descriptors */
  for (int k = 0; k < BLOBS_KINDS; k++)
    for (int i = 0; i < BLOBS_DESCS; i += 3)
      check_cpu (blobs_kinds[k].kind, blobs_kinds[k].param, 640, 480,
          CM_DEPTH_8, i, &r);
}

/* more than 65535 passing blobs: labels past it share 65535, flagged */
static void
test_labels_saturate (void)
{
  test_rng r;
  const int w = 400, h = 400;
  cm_image src = test_image_new (w, h, CM_DEPTH_8, 0);
  cm_image want_img = test_image_new (w, h, CM_DEPTH_16, 0);
  cm_image got_img = test_image_new (w, h, CM_DEPTH_16, 0);
  cm_blobs_desc d;
  cm_blobs_results want;
  cm_filter *f = NULL;

  test_rng_seed (&r, 65535);
  d = blobs_saturating (&src, &r);
  cm_blobs_results_alloc (&want, cm_blobs_capacity (&d, w, h));
  cm_blobs_ref (&d, &src, &want_img, &want);
  CHECK (want.total == 80000 && want.labels_saturated, "80000 blobs: %u",
      want.total);
  CHECK (test_image_get (&want_img, w - 1, h - 1) == 65535 &&
      test_image_get (&want_img, 0, 0) == 1, "labels saturate at 65535");
  CHECK (cm_blobs_filter_new (&f, CM_BACKEND_CPU, &d, w, h, CM_DEPTH_8,
          NULL) == CM_OK, "filter");
  CHECK (cm_filter_run (f, &src, &got_img, NULL) == CM_OK, "run");
  CHECK (blobs_results_equal (cm_blobs_filter_results (f), &want,
          "saturated"), "saturated results");
  CHECK (test_image_equal (&got_img, &want_img, "saturated"), "labels");
  cm_filter_free (f);
  cm_blobs_results_free (&want);
  test_image_free (&src);
  test_image_free (&want_img);
  test_image_free (&got_img);
}

static void
test_arguments (void)
{
  cm_blobs_desc d = blobs_desc_of (0, 128);
  cm_filter *f = (cm_filter *) 1;
  cm_image src = test_image_new (8, 8, CM_DEPTH_8, 0);
  cm_image wrong = test_image_new (8, 8, CM_DEPTH_8, 0);

  d.connectivity = 6;
  CHECK (cm_blobs_filter_new (&f, CM_BACKEND_CPU, &d, 8, 8, CM_DEPTH_8,
          NULL) == CM_ERR_INVALID_ARG && f == NULL, "connectivity 6");
  d.connectivity = 8;
  d.output = (cm_blobs_output) 3;
  CHECK (cm_blobs_filter_new (&f, CM_BACKEND_CPU, &d, 8, 8, CM_DEPTH_8,
          NULL) == CM_ERR_INVALID_ARG, "output 3");
  d.output = CM_BLOBS_OUTPUT_LABELS;
  CHECK (cm_blobs_filter_new (&f, CM_BACKEND_CPU, &d, 0, 8, CM_DEPTH_8,
          NULL) == CM_ERR_INVALID_ARG, "width 0");
  if (!cm_have_cuda ())
    CHECK (cm_blobs_filter_new (&f, CM_BACKEND_CUDA, &d, 8, 8, CM_DEPTH_8,
            NULL) == CM_ERR_NO_CUDA && f == NULL,
        "CUDA in a build without it");
  d.result_slots = CM_BLOBS_MAX_RESULT_SLOTS + 1;
  CHECK (cm_blobs_filter_new (&f, CM_BACKEND_CPU, &d, 8, 8, CM_DEPTH_8,
          NULL) == CM_ERR_INVALID_ARG, "3 result slots");
  /* the CPU keeps one result whatever the slots asked (never in flight) */
  d.result_slots = 2;
  CHECK (cm_blobs_filter_new (&f, CM_BACKEND_CPU, &d, 8, 8, CM_DEPTH_8,
          NULL) == CM_OK, "filter");
  CHECK (cm_filter_result_slots (f) == 1, "one result slot on the CPU");
  CHECK (cm_filter_use_result_slot (f, 0) == CM_OK, "slot 0");
  CHECK (cm_filter_use_result_slot (f, 1) == CM_ERR_INVALID_ARG,
      "slot 1 refused on the CPU");
  CHECK (cm_filter_result_slots (NULL) == 1, "NULL: one slot");
  CHECK (cm_filter_use_result_slot (NULL, 0) == CM_ERR_INVALID_ARG,
      "NULL filter refused");
  CHECK (cm_blobs_filter_results (f) == NULL, "no results before a run");
  /* labels are 16-bit: an 8-bit destination is refused */
  CHECK (cm_filter_run (f, &src, &wrong, NULL) == CM_ERR_INVALID_ARG,
      "8-bit labels refused");
  CHECK (cm_filter_run (f, &src, NULL, NULL) == CM_ERR_INVALID_ARG,
      "labels need a destination");
  cm_filter_free (f);
  {
    /* a cancel flag set before the run stops it */
    int cancel = 1;
    cm_cpu_opts o = { 1, &cancel };

    CHECK (cm_blobs_filter_new (&f, CM_BACKEND_CPU, &d, 8, 8, CM_DEPTH_8,
            &o) == CM_OK, "filter with a cancel flag");
    CHECK (cm_filter_run (f, &src, &wrong, NULL) == CM_ERR_INVALID_ARG,
        "8-bit labels refused");
    d.output = CM_BLOBS_OUTPUT_NONE;
    cm_filter_free (f);
    CHECK (cm_blobs_filter_new (&f, CM_BACKEND_CPU, &d, 8, 8, CM_DEPTH_8,
            &o) == CM_OK, "filter with a cancel flag");
    CHECK (cm_filter_run (f, &src, NULL, NULL) == CM_ERR_CANCELLED,
        "cancelled");
    cancel = 0;
    CHECK (cm_filter_run (f, &src, NULL, NULL) == CM_OK,
        "runs once the flag is down");
    cm_filter_free (f);
  }
  test_image_free (&src);
  test_image_free (&wrong);
}

int
main (void)
{
  test_known ();
  test_ref_properties ();
  test_table ();
  test_labels_saturate ();
  test_arguments ();
  return test_count_report ("test-blobs-cpu");
}
