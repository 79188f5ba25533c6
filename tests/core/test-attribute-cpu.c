/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Area opening and closing: the reference (cuda/attribute/attribute-ref.c)
 * against results of scikit-image's morphology.area_opening and
 * area_closing written down here, then the CPU backend
 * (attribute-cpu.c) and the backend-neutral filter against the
 * reference, bit for bit: both operations and connectivities, 8 and 16
 * bits, every frame kind of attribute-frames.h (smooth hills, noise,
 * staircases along rows, columns and rings, flat, few levels, blobs,
 * specks), frames from 1x1, 1xN and Nx1 up with tight and padded
 * pitches, min_area from 1 to more than the frame holds, on 1 to 7
 * threads (bands of rows joined); each plan run on several frames.
 * Then argument checks and the cancel flag. First the CUDA plan's
 * default tile heights (host code). */
#include <stdlib.h>

#include "attribute/attribute-filter.h"
#include "attribute-frames.h"
#include "core-test.h"
#include "test-count.h"
#include "test-util.h"

/* a 6x5 frame and scikit-image 0.26's results, connectivity 1 (4) */
static const uint8_t sk_src[5][6] = {
  {3, 3, 4, 5, 1, 1}, {5, 5, 2, 2, 5, 3}, {2, 5, 2, 3, 4, 3},
  {1, 1, 5, 4, 5, 3}, {5, 2, 3, 4, 1, 2}
};

static const uint8_t sk_open3[5][6] = {
  {3, 3, 3, 3, 1, 1}, {5, 5, 2, 2, 4, 3}, {2, 5, 2, 3, 4, 3},
  {1, 1, 4, 4, 4, 3}, {2, 2, 3, 4, 1, 2}
};

static const uint8_t sk_close3[5][6] = {
  {4, 4, 4, 5, 3, 3}, {5, 5, 2, 2, 5, 3}, {2, 5, 2, 3, 4, 3},
  {2, 2, 5, 4, 5, 3}, {5, 2, 3, 4, 3, 3}
};

static cm_attr_desc
desc_of (cm_attr_op op, uint32_t min_area, int conn)
{
  cm_attr_desc d = { op, CM_ATTR_AREA, min_area, conn };

  return d;
}

static void
check_fixture (void)
{
  cm_image src = test_image_new (6, 5, CM_DEPTH_8, 3);
  cm_image dst = test_image_new (6, 5, CM_DEPTH_8, 1);
  /* min_area, op, the value everywhere (0: the fixture's table) */
  static const struct
  {
    uint32_t min_area;
    cm_attr_op op;
    int all;
  } cases[] = {
    {3, CM_ATTR_OPEN, -1}, {3, CM_ATTR_CLOSE, -1},
    {30, CM_ATTR_OPEN, 1}, {30, CM_ATTR_CLOSE, 5},
    {31, CM_ATTR_OPEN, 0}, {31, CM_ATTR_CLOSE, 255},
    {1, CM_ATTR_OPEN, -2}, {1, CM_ATTR_CLOSE, -2},
  };

  for (int y = 0; y < 5; y++)
    for (int x = 0; x < 6; x++)
      test_image_set (&src, x, y, sk_src[y][x]);
  for (int c = 0; c < N_OF (cases); c++) {
    cm_attr_desc d = desc_of (cases[c].op, cases[c].min_area, 4);
    int bad = 0;

    CHECK (cm_attr_ref (&d, &src, &dst) == CM_OK, "fixture ref");
    for (int y = 0; y < 5; y++)
      for (int x = 0; x < 6; x++) {
        uint32_t want = cases[c].all >= 0 ? (uint32_t) cases[c].all :
            cases[c].all == -2 ? sk_src[y][x] : cases[c].op == CM_ATTR_OPEN ?
            sk_open3[y][x] : sk_close3[y][x];

        bad += test_image_get (&dst, x, y) != want;
      }
    CHECK (bad == 0, "fixture %s min_area %u: %d pixels differ from "
        "scikit-image", cm_attr_op_name (&d), cases[c].min_area, bad);
  }
  test_image_free (&src);
  test_image_free (&dst);
}

/* @frames frames of one size through one CPU plan and one filter on
 * @threads threads (bands of at least 32 rows), each against the
 * reference */
static void
check_plan (const cm_attr_desc * d, cm_image * srcs, int frames,
    int threads, const char *what)
{
  const cm_image *s0 = &srcs[0];
  cm_image want = test_image_new (s0->width, s0->height, s0->depth, 0);
  cm_image got = test_image_new (s0->width, s0->height, s0->depth, 5);
  cm_attr_cpu *p = NULL;
  cm_filter *f = NULL;
  cm_cpu_opts opts = { threads, NULL };
  char msg[200];

  CHECK (cm_attr_cpu_new (&p, d, s0->width, s0->height, s0->depth,
          &opts) == CM_OK, "%s: plan", what);
  CHECK (cm_attr_filter_new (&f, CM_BACKEND_CPU, d, s0->width, s0->height,
          s0->depth, &opts) == CM_OK, "%s: filter", what);
  for (int i = 0; i < frames && p && f; i++) {
    CHECK (cm_attr_ref (d, &srcs[i], &want) == CM_OK, "%s: ref", what);
    test_image_fill (&got, 0x5a5a);
    snprintf (msg, sizeof (msg), "%s threads %d frame %d", what, threads,
        i);
    CHECK (cm_attr_cpu_run (p, &srcs[i], &got) == CM_OK, "%s: run", msg);
    CHECK (test_image_equal (&got, &want, msg), "%s: cpu != ref", msg);
    test_image_fill (&got, 0xa5a5);
    CHECK (cm_filter_run (f, &srcs[i], &got, NULL) == CM_OK,
        "%s: filter run", msg);
    CHECK (test_image_equal (&got, &want, msg), "%s: filter != ref", msg);
  }
  cm_filter_free (f);
  cm_attr_cpu_free (p);
  test_image_free (&want);
  test_image_free (&got);
}

static void
check_table (void)
{
  /* the tall ones cut into bands of 32 rows or more on threads */
  static const int sizes[][2] = { {1, 1}, {1, 37}, {53, 1}, {2, 2},
  {7, 5}, {33, 17}, {64, 48}, {97, 71}, {1, 150}, {5, 230}, {40, 100}
  };
  static const uint32_t areas[] = { 1, 2, 3, 7, 64, 1000 };
  test_rng r;

  test_rng_seed (&r, 37);
  for (int s = 0; s < N_OF (sizes); s++)
    for (int depth = 8; depth <= 16; depth += 8)
      for (int k = 0; k < ATTR_FRAME_KINDS; k++) {
        int w = sizes[s][0], h = sizes[s][1];
        cm_image srcs[2];
        char what[160];

        /* the reference is O(pixels x levels present): 16-bit frames with
         * a level a pixel or so stay small */
        if (depth == 16 && w * h > 1200 && k != ATTR_FRAME_FLAT &&
            k != ATTR_FRAME_LEVELS && k != ATTR_FRAME_SPECKS)
          continue;
        for (int i = 0; i < 2; i++) {
          srcs[i] = test_image_new (w, h, (cm_depth) depth, i * 3);
          attr_frame_fill (&srcs[i], (attr_frame_kind) k, &r);
        }
        for (int op = 0; op < CM_ATTR_OP_COUNT; op++)
          for (int conn = 4; conn <= 8; conn += 4)
            for (int a = 0; a < N_OF (areas) + 2; a++) {
              /* and the frame's size, and one more */
              uint32_t min_area = a < N_OF (areas) ? areas[a] :
                  (uint32_t) (w * h + a - N_OF (areas));
              cm_attr_desc d = desc_of ((cm_attr_op) op, min_area, conn);

              snprintf (what, sizeof (what), "%dx%d %d-bit %s %s conn %d "
                  "min_area %u", w, h, depth, attr_frame_name (k),
                  cm_attr_op_name (&d), conn, min_area);
              check_plan (&d, srcs, 2, 1 + (a % 3) * 2, what);
            }
        for (int i = 0; i < 2; i++)
          test_image_free (&srcs[i]);
      }
}

/* one larger frame of each kind (a photograph's size class) */
static void
check_large (void)
{
  test_rng r;

  test_rng_seed (&r, 1037);
  for (int k = 0; k < ATTR_FRAME_KINDS; k++)
    for (int depth = 8; depth <= 16; depth += 8) {
      int w = 320, h = 200;
      cm_image src;

      if (depth == 16)
        w = 12, h = 100;
      src = test_image_new (w, h, (cm_depth) depth, 2);
      attr_frame_fill (&src, (attr_frame_kind) k, &r);
      for (int op = 0; op < CM_ATTR_OP_COUNT; op++) {
        cm_attr_desc d = desc_of ((cm_attr_op) op, k % 2 ? 64 : 1000,
            k % 3 ? 8 : 4);
        char what[160];

        snprintf (what, sizeof (what), "%dx%d %d-bit %s %s conn %d "
            "min_area %u", w, h, depth, attr_frame_name (k),
            cm_attr_op_name (&d), d.connectivity, d.min_area);
        for (int threads = 1; threads <= 7; threads += 3)
          check_plan (&d, &src, 1, threads, what);
      }
      test_image_free (&src);
    }
}

static void
check_arguments (void)
{
  cm_image a = test_image_new (8, 6, CM_DEPTH_8, 0);
  cm_image b = test_image_new (8, 6, CM_DEPTH_8, 0);
  cm_image c = test_image_new (8, 5, CM_DEPTH_8, 0);
  cm_attr_desc ok = desc_of (CM_ATTR_OPEN, 5, 8);
  cm_attr_desc bad[4] = { ok, ok, ok, ok };
  cm_attr_cpu *p = (cm_attr_cpu *) 1;
  cm_filter *f = (cm_filter *) 1;
  int cancel = 1;
  cm_cpu_opts cancelling = { 2, &cancel };

  bad[0].min_area = 0;
  bad[1].connectivity = 6;
  bad[2].op = (cm_attr_op) 2;
  bad[3].attribute = (cm_attr_kind) 1;
  test_image_fill (&a, 9);
  for (int i = 0; i < N_OF (bad); i++) {
    CHECK (!cm_attr_desc_ok (&bad[i]), "bad desc %d accepted", i);
    CHECK (cm_attr_ref (&bad[i], &a, &b) == CM_ERR_INVALID_ARG,
        "ref took bad desc %d", i);
    CHECK (cm_attr_cpu_new (&p, &bad[i], 8, 6, CM_DEPTH_8, NULL) ==
        CM_ERR_INVALID_ARG && p == NULL, "plan took bad desc %d", i);
    CHECK (cm_attr_filter_new (&f, CM_BACKEND_CPU, &bad[i], 8, 6,
            CM_DEPTH_8, NULL) == CM_ERR_INVALID_ARG && f == NULL,
        "filter took bad desc %d", i);
  }
  CHECK (strcmp (cm_attr_op_name (&bad[0]), "invalid") == 0, "bad name");
  CHECK (cm_attr_ref (&ok, &a, &a) == CM_ERR_INVALID_ARG, "in place");
  CHECK (cm_attr_ref (&ok, &a, &c) == CM_ERR_INVALID_ARG, "sizes differ");
  CHECK (cm_attr_cpu_new (&p, &ok, 0, 6, CM_DEPTH_8, NULL) ==
      CM_ERR_INVALID_ARG, "width 0");
  CHECK (cm_attr_cpu_new (&p, &ok, 8, 6, CM_DEPTH_8, &cancelling) == CM_OK,
      "plan");
  CHECK (cm_attr_cpu_run (p, &a, &c) == CM_ERR_INVALID_ARG,
      "run on another size");
  CHECK (cm_attr_cpu_run (p, &a, &b) == CM_ERR_CANCELLED,
      "cancel flag set before");
  cancel = 0;
  CHECK (cm_attr_cpu_run (p, &a, &b) == CM_OK &&
      test_image_get (&b, 3, 3) == 9, "a run after a cancelled one");
  cm_attr_cpu_free (p);
  CHECK (cm_attr_filter_new (&f, CM_BACKEND_CPU, &ok, 8, 6, CM_DEPTH_8,
          NULL) == CM_OK && cm_filter_backend (f) == CM_BACKEND_CPU,
      "cpu filter");
  CHECK (cm_filter_run (f, &a, &c, NULL) == CM_ERR_INVALID_ARG,
      "filter on another size");
  cm_filter_free (f);
  test_image_free (&a);
  test_image_free (&b);
  test_image_free (&c);
}

/* The CUDA plan's default tile heights (attribute-tiles.c): twice
 * min_area pixels, halved where the tiles would not fill the device
 * twice over (an H100: 132 SMs of 8 blocks) and the half keeps twice
 * min_area */
static void
check_tile_rows (void)
{
  static const struct
  {
    uint32_t min_area;
    int w, h, resident, rows;
  } cases[] = {
    {1, 1920, 1080, 0, 32}, {64, 3840, 2160, 0, 32},
    {512, 100, 100, 0, 32}, {513, 100, 100, 0, 64},
    {1024, 100, 100, 0, 64}, {1025, 100, 100, 0, 128},
    /* 1080p: 2,040 tiles of 32 rows, under two waves of 1,056 */
    {64, 1920, 1080, 1056, 16}, {256, 1920, 1080, 1056, 16},
    {257, 1920, 1080, 1056, 32}, {1000, 1920, 1080, 1056, 64},
    {2000, 1920, 1080, 1056, 128},
    /* 4K: 8,160 tiles of 32 rows, 4,080 of 64 */
    {64, 3840, 2160, 1056, 32}, {1000, 3840, 2160, 1056, 64},
    /* two waves exactly: not halved */
    {64, 1920, 1056, 990, 32}, {64, 1920, 1056, 991, 16},
    {64, 1, 1, 1056, 16}, {1, 1, 1, 1, 16},
  };

  for (size_t i = 0; i < sizeof (cases) / sizeof (cases[0]); i++) {
    int rows = cm_attr_tile_rows (cases[i].min_area, cases[i].w,
        cases[i].h, cases[i].resident);

    CHECK (rows == cases[i].rows, "tile rows for min_area %u, %dx%d, %d "
        "resident: %d, not %d", cases[i].min_area, cases[i].w, cases[i].h,
        cases[i].resident, rows, cases[i].rows);
  }
}

int
main (void)
{
  check_tile_rows ();
  check_fixture ();
  check_arguments ();
  check_table ();
  check_large ();
  return test_count_report ("test-attribute-cpu");
}
