/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The bands of cpu-bands.c on a pool's threads: every row once, run after
 * run, with more or fewer rows than threads, a band's own bands (the pool
 * busy) and a cancelled run. The CPU references on many threads keep the
 * process's memory flat: run after run on 32 bands, more than the cores of any CI
 * machine, the resident size may not grow. Memory that a band thread
 * allocates itself gives it a glibc arena that outlives it (a defect seen
 * only on a 16-core host by test-faults-nodevice: +276 KiB over 1000
 * restarts of cudamedian); here every machine sees it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cpu-bands.h"

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

#define ROWS_MAX 300

typedef struct
{
  const cm_cpu_opts *opts;
  int visits[ROWS_MAX];         /* atomic */
  int nested;                   /* a band runs bands of its own */
} count_job;

static cm_status
count_band (void *data, int band, int y0, int y1)
{
  count_job *j = data;

  (void) band;
  for (int y = y0; y < y1; y++)
    __atomic_add_fetch (&j->visits[y], 1, __ATOMIC_RELAXED);
  if (j->nested && band == 0) {
    count_job inner = { j->opts, { 0 }, 0 };
    cm_status st = cm_cpu_bands (j->opts, 40, count_band, &inner);

    for (int y = 0; y < 40; y++)
      if (inner.visits[y] != 1)
        return CM_ERR_INVALID_ARG;
    return st;
  }
  if (cm_cpu_cancelled (j->opts))
    return CM_ERR_CANCELLED;
  return CM_OK;
}

/* @runs runs of @rows rows on @opts: each row visited once a run */
static void
check_runs (const cm_cpu_opts * opts, int rows, int runs, int nested)
{
  count_job *j = calloc (1, sizeof (*j));

  j->opts = opts;
  j->nested = nested;
  for (int r = 0; r < runs; r++) {
    cm_status st;

    memset (j->visits, 0, sizeof (j->visits));
    st = cm_cpu_bands (opts, rows, count_band, j);
    checks++;
    if (st != CM_OK)
      FAIL ("%d threads, %d rows, run %d: %s", opts->threads, rows, r,
          cm_status_string (st));
    for (int y = 0; y < rows; y++)
      if (j->visits[y] != 1) {
        FAIL ("%d threads, %d rows, run %d: row %d visited %d times",
            opts->threads, rows, r, y, j->visits[y]);
        break;
      }
  }
  free (j);
}

static void
test_pool (void)
{
  const int threads[] = { 2, 3, 8, 33 };

  for (size_t t = 0; t < sizeof (threads) / sizeof (threads[0]); t++) {
    cm_cpu_opts o = { threads[t], NULL, cm_cpu_pool_new (threads[t]) };
    int cancel = 1;

    checks++;
    if (o.pool == NULL)
      FAIL ("no pool of %d threads", threads[t]);
    check_runs (&o, 1, 20, 0);
    check_runs (&o, threads[t] - 1, 50, 0);
    check_runs (&o, ROWS_MAX, 2000, 0);
    check_runs (&o, ROWS_MAX, 50, 1);
    /* a cancelled run says so, and the pool serves the next one */
    o.cancel = &cancel;
    checks++;
    {
      count_job j = { &o, { 0 }, 0 };

      if (cm_cpu_bands (&o, 64, count_band, &j) != CM_ERR_CANCELLED)
        FAIL ("%d threads: a cancelled run did not say so", threads[t]);
    }
    o.cancel = NULL;
    check_runs (&o, ROWS_MAX, 10, 0);
    cm_cpu_pool_free (o.pool);
  }
  checks++;
  if (cm_cpu_pool_new (1) != NULL)
    FAIL ("a pool of one thread");
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

  test_pool ();
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
