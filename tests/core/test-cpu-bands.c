/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU references on many threads (cpu-bands.c) keep the process's
 * memory flat: run after run on 32 bands, more than the cores of any CI
 * machine, the resident size may not grow. Memory that a band thread
 * allocates itself gives it a glibc arena that outlives it (a defect seen
 * only on a 16-core host by test-faults-nodevice: +276 KiB over 1000
 * restarts of cudamedian); here every machine sees it. */
#include <stdlib.h>
#include <unistd.h>

#include "median/median.h"
#include "morph/morph.h"
#include "morph/se.h"
#include "test-count.h"
#include "test-util.h"

static long
rss_kib (void)
{
  unsigned long size = 0, resident = 0;
  FILE *f = fopen ("/proc/self/statm", "r");

  if (f == NULL)
    return -1;
  if (fscanf (f, "%lu %lu", &size, &resident) != 2)
    resident = 0;
  fclose (f);
  return (long) (resident * (unsigned long) sysconf (_SC_PAGESIZE) / 1024);
}

int
main (void)
{
  const int runs = 400;
  cm_cpu_opts o = { 32, NULL };
  cm_median_desc md = { 5, 5, 50, CM_BORDER_REPLICATE, 0, CM_MEDIAN_AUTO,
    0
  };
  cm_image src16 = test_image_new (64, 48, CM_DEPTH_16, 0);
  cm_image dst16 = test_image_new (64, 48, CM_DEPTH_16, 0);
  cm_image src8 = test_image_new (64, 48, CM_DEPTH_8, 0);
  cm_image dst8 = test_image_new (64, 48, CM_DEPTH_8, 0);
  cm_se *se = NULL;
  cm_morph_desc d;
  test_rng r;
  long before, after;

  if (rss_kib () < 0) {
    printf ("SKIP: no /proc/self/statm\n");
    return TEST_SKIP;
  }
  test_rng_seed (&r, 5);
  test_image_fill_random (&src16, &r);
  test_image_fill_random (&src8, &r);
  cm_se_new_rect (&se, 5, 5);
  d = (cm_morph_desc) { CM_MORPH_OPEN, se, 2, CM_BORDER_REPLICATE, 0 };
  /* warm-up on the bands: what the process keeps anyway (the high-water
   * mark of the heap, cached thread stacks) is resident before the
   * measurement; a leak or an arena per thread keeps growing after it */
  for (int i = 0; i < 20; i++) {
    cm_median_ref_mt (&md, &src16, &dst16, &o);
    cm_morph_ref_mt (&d, &src8, &dst8, &o);
  }

  before = rss_kib ();
  for (int i = 0; i < runs; i++) {
    checks++;
    if (cm_median_ref_mt (&md, &src16, &dst16, &o) != CM_OK ||
        cm_morph_ref_mt (&d, &src8, &dst8, &o) != CM_OK)
      FAIL ("run %d failed", i);
  }
  after = rss_kib ();
  printf ("%d runs of a 16-bit median and an 8-bit opening on %d bands: "
      "RSS %ld KiB -> %ld KiB (%+ld KiB)\n", runs, o.threads, before, after,
      after - before);
  checks++;
  if (after - before > 256)
    FAIL ("the resident size grew by %ld KiB over %d runs on %d bands "
        "(allowed 256)", after - before, runs, o.threads);

  cm_se_free (se);
  test_image_free (&src16);
  test_image_free (&dst16);
  test_image_free (&src8);
  test_image_free (&dst8);
  return test_count_report ("test-cpu-bands");
}
