/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the blobs (cuda/blobs) on small images of random
 * size, depth, pitch and content under random descriptors.
 *
 * Invariants checked (any failure aborts, which the fuzzer reports):
 *  - the CPU backend (1 to 4 bands of rows) gives the reference's results
 *    and output image, bit for bit;
 *  - with every blob reported, the areas add up to the foreground, each
 *    box holds its centroid, min <= mean <= max, and the blobs come in
 *    the order of their top rows;
 *  - max_blobs: the totals do not change and the count is
 *    min (total, max_blobs). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blobs-cases.h"
#include "blobs/blobs-filter.h"
#include "fuzz-input.h"
#include "test-util.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  Bytes b = { data, size };
  const int w = 1 + (int) take (&b, 40), h = 1 + (int) take (&b, 40);
  const cm_depth depth = take (&b, 2) ? CM_DEPTH_16 : CM_DEPTH_8;
  const uint32_t max = cm_depth_max (depth);
  cm_image src = test_image_new (w, h, depth, (int) take (&b, 5));
  cm_blobs_desc d, all;
  cm_blobs_results want, every;
  cm_filter *f = NULL;
  cm_cpu_opts o = { 1 + (int) take (&b, 4), NULL };
  cm_depth od;
  cm_image want_img, got_img;
  const cm_blobs_results *got;

  /* samples: a byte each, few distinct levels so that blobs form */
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      test_image_set (&src, x, y, take (&b, 4) * (max / 3));
  memset (&d, 0, sizeof (d));
  d.threshold = take (&b, 4) * (max / 3) + take (&b, 2);
  d.invert = (int) take (&b, 2);
  d.connectivity = take (&b, 2) ? 8 : 4;
  d.min_area = take (&b, 4);
  d.max_area = take (&b, 3) ? 0 : take (&b, 50);
  d.exclude_border = (int) take (&b, 2);
  d.max_blobs = take (&b, 2) ? 0 : take (&b, 8);
  d.output = (cm_blobs_output) take (&b, 3);
  od = cm_blobs_output_depth (&d, depth);
  want_img = test_image_new (w, h, od, 0);
  got_img = test_image_new (w, h, od, (int) take (&b, 3));

  CHECK (cm_blobs_results_alloc (&want, cm_blobs_capacity (&d, w, h)) ==
      CM_OK);
  CHECK (cm_blobs_ref (&d, &src, d.output ? &want_img : NULL, &want) ==
      CM_OK);
  CHECK (cm_blobs_filter_new (&f, CM_BACKEND_CPU, &d, w, h, depth, &o) ==
      CM_OK);
  CHECK (cm_filter_run (f, &src, d.output ? &got_img : NULL, NULL) ==
      CM_OK);
  got = cm_blobs_filter_results (f);
  CHECK (blobs_results_equal (got, &want, "fuzz"));
  if (d.output)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        CHECK (test_image_get (&got_img, x, y) ==
            test_image_get (&want_img, x, y));
  cm_filter_free (f);

  /* every blob, no filter: the sums and the order */
  all = d;
  all.min_area = 1;
  all.max_area = 0;
  all.exclude_border = 0;
  all.max_blobs = 0;
  all.output = CM_BLOBS_OUTPUT_NONE;
  CHECK (cm_blobs_results_alloc (&every, cm_blobs_capacity (&all, w,
              h)) == CM_OK);
  CHECK (cm_blobs_ref (&all, &src, NULL, &every) == CM_OK);
  {
    uint64_t sum = 0;

    for (uint32_t i = 0; i < every.count; i++) {
      sum += every.area[i];
      CHECK (every.cx[i] >= every.x[i] &&
          every.cx[i] <= every.x[i] + every.width[i] - 1);
      CHECK (every.cy[i] >= every.y[i] &&
          every.cy[i] <= every.y[i] + every.height[i] - 1);
      CHECK (every.mean[i] >= every.min[i] && every.mean[i] <= every.max[i]);
      CHECK (i == 0 || every.y[i] >= every.y[i - 1]);
    }
    CHECK (sum == every.foreground && every.total == every.count);
    CHECK (want.foreground == every.foreground);
  }
  if (d.max_blobs != 0)
    CHECK (want.count == (want.total < d.max_blobs ? want.total :
            d.max_blobs));
  else
    CHECK (want.count == want.total);
  cm_blobs_results_free (&want);
  cm_blobs_results_free (&every);
  test_image_free (&src);
  test_image_free (&want_img);
  test_image_free (&got_img);
  return 0;
}
