/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GPU area opening and closing == the reference (attribute-ref.c), bit
 * for bit, over the whole frame.
 *
 * Table: both operations x 4/8-connectivity x 8/16-bit x every frame kind
 * of attribute-frames.h (smooth hills, noise, staircases along rows,
 * columns and rings, flat, few levels, blobs, specks) x frames from 1x1,
 * 1xN and Nx1 to sizes off the tile's multiples, min_area from 1 to more
 * than the frame holds (half of them a frame, in turn), under the
 * defaults and two more tunings a case, in turn (tiles of 1, 4, 16, 32,
 * 64 and 128 rows; no tiles: every edge merged in global memory).
 * Device views with the allocator's pitch or one sample in; the
 * destination pre-filled with noise and read back whole (nothing written
 * outside the view), the source read back unchanged; each plan runs two
 * frames. Large frames (1920x1080 and 3840x2160) against the CPU
 * backend, which tests/core holds equal to the reference, each run three
 * times (the merges race differently every time). Also: argument checks.
 *
 * Exit 77 (meson SKIP) without a CUDA device; one line per failing case
 * on stderr, "N passed, M failed" at the end, exit 1 on any failure.
 * CM_TEST_VERBOSE=1 prints every case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attribute/attribute.h"
#include "attribute/attribute-filter.h"
#include "attribute-frames.h"
#include "device.h"
#include "kernel-test.h"
#include "test-util.h"

static int n_pass, n_fail, verbose;
static cm_stream stream;

#define FAIL(...) do { fprintf (stderr, "FAIL: " __VA_ARGS__); \
    fputc ('\n', stderr); n_fail++; } while (0)

/* rows of the tiles; no tiles; stop after */
static const cm_attr_tuning tunings[] = {
  {0, 0, 0},                    /* the defaults: rows by min_area */
  {1, 0, 0},                    /* one-row tiles: every row joined on seams */
  {4, 0, 0},                    /* short tiles: most edges on seams */
  {0, 1, 0},                    /* no tiles: every edge in global memory */
  {128, 0, 0},                  /* the largest tile */
  {32, 0, 0},
  {64, 0, 0},
  {16, 0, 0},                   /* the defaults' for small min_area on
                                 * frames of few tiles */
};

#define N_TUNINGS ((int) (sizeof (tunings) / sizeof (tunings[0])))

/* @frames sources of one size through a plan of each tuning in @mask,
 * each against the oracle (the reference, or with @use_cpu the CPU
 * backend), @repeat runs a frame */
/* the CPU backend as the oracle: on 8 threads (tests/core holds it equal
 * to the reference on any number) */
static const cm_cpu_opts oracle_threads = { 8, NULL };

/* The oracle's result of @d on @src into @want: the reference, or with
 * @use_cpu the CPU backend */
static cm_status
oracle (const cm_attr_desc * d, const cm_image * src, const cm_image * want,
    int use_cpu)
{
  cm_attr_cpu *cpu = NULL;
  cm_status st;

  if (!use_cpu)
    return cm_attr_ref (d, src, want);
  st = cm_attr_cpu_new (&cpu, d, src->width, src->height, src->depth,
      &oracle_threads);
  if (st == CM_OK)
    st = cm_attr_cpu_run (cpu, src, want);
  cm_attr_cpu_free (cpu);
  return st;
}

/* @frames sources of one size through a plan of each tuning in @mask,
 * each against the oracle (the reference, or with @use_cpu the CPU
 * backend), @repeat runs a frame */
static void
check_case (const cm_attr_desc * d, cm_image * srcs, int frames,
    int layout, unsigned mask, int use_cpu, int repeat, const char *name)
{
  int w = srcs[0].width, h = srcs[0].height;
  cm_depth depth = srcs[0].depth;
  const int aw = w + 2;
  cm_image src_whole[2], want[2];

  cm_image dst_whole = test_image_new (aw, h, depth, 0);
  cm_image noise = test_image_new (aw, h, depth, 0);
  kernel_test_image ds, dd;
  test_rng r;
  char what[300];
  int have_dev = 0;

  memset (src_whole, 0, sizeof (src_whole));
  memset (want, 0, sizeof (want));
  test_rng_seed (&r, (uint64_t) w * 7919 + h);
  test_image_fill_random (&noise, &r);
  for (int f = 0; f < frames; f++) {
    cm_image src;

    src_whole[f] = test_image_new (aw, h, depth, 0);
    want[f] = test_image_new (w, h, depth, 0);
    test_image_fill_random (&src_whole[f], &r);
    src = kernel_test_host_view (&src_whole[f], layout, w);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        test_image_set (&src, x, y, test_image_get (&srcs[f], x, y));
    if (oracle (d, &src, &want[f], use_cpu) != CM_OK) {
      FAIL ("%s: oracle refused", name);
      goto out;
    }
  }
  if (!kernel_test_images_new (&ds, &dd, w, h, depth, depth, layout)) {
    FAIL ("device allocation %dx%d", w, h);
    goto out;
  }
  have_dev = 1;
  for (int t = 0; t < N_TUNINGS; t++) {
    cm_attr_plan *plan = NULL;
    cm_status st;

    if (!(mask & (1u << t)))
      continue;
    st = cm_attr_plan_new_tuned (&plan, d, w, h, depth, &tunings[t]);
    if (st != CM_OK) {
      FAIL ("%s %dx%d tuning %d: plan: %s", name, w, h, t,
          cm_status_string (st));
      continue;
    }
    for (int f = 0; f < frames; f++) {
      int ok = 1;

      image_copy_async (&ds.alloc, &src_whole[f], CM_COPY_H2D, stream);
      for (int rep = 0; rep < repeat && ok; rep++) {
        snprintf (what, sizeof (what), "%s conn %d min_area %u %dx%d "
            "%d-bit %s layout %d tuning %d frame %d run %d",
            cm_attr_op_name (d), d->connectivity, d->min_area, w, h, depth,
            name, layout, t, f, rep);
        image_copy_async (&dd.alloc, &noise, CM_COPY_H2D, stream);
        st = kernel_test_synced (cm_attr_plan_run (plan, &ds.view, &dd.view,
                stream), stream);
        if (st != CM_OK) {
          FAIL ("%s: run: %s", what, cm_status_string (st));
          ok = 0;
          break;
        }
        ok = kernel_test_output_ok (&dd, &dst_whole, &want[f], &noise,
            layout, stream, what);
      }
      if (ok)
        ok = kernel_test_source_unchanged (&ds, &src_whole[f], stream);
      if (ok)
        n_pass++;
      else
        FAIL ("%s", what);
      if (verbose)
        printf ("%s: %s\n", ok ? "ok" : "FAIL", what);
    }
    cm_attr_plan_free (plan);
  }
out:
  if (have_dev) {
    cm_device_free (ds.alloc.data);
    cm_device_free (dd.alloc.data);
  }
  for (int f = 0; f < frames; f++) {
    test_image_free (&src_whole[f]);
    test_image_free (&want[f]);
  }
  test_image_free (&dst_whole);
  test_image_free (&noise);
}

static void
test_table (void)
{
  static const int sizes[][2] = { {1, 1}, {1, 45}, {77, 1}, {2, 3},
  {31, 33}, {32, 32}, {65, 34}, {97, 71}
  };
  static const uint32_t areas[] = { 1, 2, 5, 64, 1000 };
  test_rng r;
  int index = 0;

  test_rng_seed (&r, 3737);
  for (int s = 0; s < (int) (sizeof (sizes) / sizeof (sizes[0])); s++)
    for (int depth = 8; depth <= 16; depth += 8)
      for (int k = 0; k < ATTR_FRAME_KINDS; k++) {
        int w = sizes[s][0], h = sizes[s][1];
        cm_image srcs[2];

        for (int i = 0; i < 2; i++) {
          srcs[i] = test_image_new (w, h, (cm_depth) depth, 0);
          attr_frame_fill (&srcs[i], (attr_frame_kind) k, &r);
        }
        for (int op = 0; op < CM_ATTR_OP_COUNT; op++)
          for (int conn = 4; conn <= 8; conn += 4)
            for (int a = 0; a < 6; a++) {
              cm_attr_desc d = { (cm_attr_op) op, CM_ATTR_AREA,
                a < 5 ? areas[a] : (uint32_t) (w * h + 1), conn
              };
              /* the defaults and two other tunings, in turn */
              unsigned mask = 1u | 1u << (1 + index % (N_TUNINGS - 1)) |
                  1u << (1 + (index / (N_TUNINGS - 1)) % (N_TUNINGS - 1));

              /* half the areas, in turn, for each frame and operation */
              if ((a + op + conn / 4 + k + s) % 2)
                continue;
              index++;
              if (!test_sample_keep ())
                continue;
              /* the reference up to 2500 pixels, the CPU backend above */
              check_case (&d, srcs, 2, index % 2, mask, w * h > 2500, 1,
                  attr_frame_name ((attr_frame_kind) k));
            }
        for (int i = 0; i < 2; i++)
          test_image_free (&srcs[i]);
      }
}

/* frames of a video's size against the CPU backend, three runs each */
static void
test_large (void)
{
  static const int sizes[][2] = { {1920, 1080}, {3840, 2160} };
  test_rng r;

  test_rng_seed (&r, 99);
  for (int s = 0; s < 2; s++)
    for (int k = 0; k < ATTR_FRAME_KINDS; k++)
      for (int depth = 8; depth <= 16; depth += 8) {
        int w = sizes[s][0], h = sizes[s][1];
        cm_image src;

        /* the 4K frame: hills, noise and specks, 8-bit */
        if (s == 1 && (depth == 16 || (k != ATTR_FRAME_HILLS &&
                    k != ATTR_FRAME_NOISE && k != ATTR_FRAME_SPECKS)))
          continue;
        src = test_image_new (w, h, (cm_depth) depth, 0);
        attr_frame_fill (&src, (attr_frame_kind) k, &r);
        for (int op = 0; op < CM_ATTR_OP_COUNT; op++) {
          cm_attr_desc d = { (cm_attr_op) op, CM_ATTR_AREA,
            op ? 1000 : 64, k % 2 ? 4 : 8
          };
          /* 1080p: hills and 8-bit noise under every tuning, 16-bit noise
           * (slow without tiles) under the defaults, the rest under the
           * defaults and tiles of 32 and 128 rows; 4K: the defaults */
          unsigned mask = s == 1 ? 0x1 : k == ATTR_FRAME_HILLS ||
              (k == ATTR_FRAME_NOISE && depth == 8) ? (1u << N_TUNINGS) - 1 :
              k == ATTR_FRAME_NOISE ? 0x1 : 0x31;

          if (test_sample_keep ())
            check_case (&d, &src, 1, k % 2, mask, 1, 3,
                attr_frame_name ((attr_frame_kind) k));
        }
        test_image_free (&src);
      }
}

static void
test_arguments (void)
{
  cm_attr_desc ok = { CM_ATTR_OPEN, CM_ATTR_AREA, 10, 8 };
  cm_attr_desc bad = ok;
  cm_attr_tuning odd = { 3, 0, 0 }, negative = { -4, 0, 0 };
  cm_attr_tuning big = { 256, 0, 0 };
  cm_attr_plan *p = (cm_attr_plan *) 1;
  cm_filter *f = NULL;
  kernel_test_image a, b;
  int fails = n_fail;

  bad.connectivity = 5;
  if (cm_attr_plan_new (&p, &bad, 8, 8, CM_DEPTH_8) != CM_ERR_INVALID_ARG ||
      p != NULL)
    FAIL ("plan took connectivity 5");
  bad = ok;
  bad.min_area = 0;
  if (cm_attr_plan_new (&p, &bad, 8, 8, CM_DEPTH_8) != CM_ERR_INVALID_ARG)
    FAIL ("plan took min_area 0");
  if (cm_attr_plan_new_tuned (&p, &ok, 8, 8, CM_DEPTH_8, &odd) !=
      CM_ERR_INVALID_ARG)
    FAIL ("plan took 3-row tiles");
  if (cm_attr_plan_new_tuned (&p, &ok, 8, 8, CM_DEPTH_8, &negative) !=
      CM_ERR_INVALID_ARG)
    FAIL ("plan took -4-row tiles");
  if (cm_attr_plan_new_tuned (&p, &ok, 8, 8, CM_DEPTH_8, &big) !=
      CM_ERR_INVALID_ARG)
    FAIL ("plan took 256-row tiles");
  if (cm_attr_plan_new (&p, &ok, 0, 8, CM_DEPTH_8) != CM_ERR_INVALID_ARG)
    FAIL ("plan took width 0");
  if (!kernel_test_image_new (&a, 8, 8, CM_DEPTH_8, 0) ||
      !kernel_test_image_new (&b, 8, 7, CM_DEPTH_8, 0)) {
    FAIL ("device allocation");
    return;
  }
  if (cm_attr_plan_new (&p, &ok, 8, 8, CM_DEPTH_8) != CM_OK)
    FAIL ("plan 8x8");
  else {
    if (cm_attr_plan_run (p, &a.view, &b.view, stream) != CM_ERR_INVALID_ARG)
      FAIL ("run on another size");
    if (cm_attr_plan_run (p, &a.view, &a.view, stream) != CM_ERR_INVALID_ARG)
      FAIL ("run in place");
    cm_attr_plan_free (p);
  }
  if (cm_attr_filter_new (&f, CM_BACKEND_CUDA, &ok, 8, 8, CM_DEPTH_8,
          NULL) != CM_OK || cm_filter_backend (f) != CM_BACKEND_CUDA)
    FAIL ("CUDA filter");
  cm_filter_free (f);
  cm_device_free (a.alloc.data);
  cm_device_free (b.alloc.data);
  if (n_fail == fails)
    n_pass++;
}

int
main (void)
{
  int rc = kernel_test_open_verbose (&stream, &verbose);

  if (rc != 0)
    return rc;
  test_arguments ();
  test_table ();
  test_large ();
  test_sample_report ();
  return kernel_test_close (stream, n_pass, n_fail);
}
