/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench-cpu: the CPU backend's throughput (the references the elements
 * run with backend=cpu), on every core of this machine or --threads N.
 *
 *   bench-cpu [--width W] [--height H] [--threads N] [--runs R]
 *
 * Random 8-bit frames (never zeros), the median of R runs after one
 * warm-up, in Gpx/s: erosion by a 15x15 rectangle, erosion by a disk of
 * radius 7, the 3x3, 5x5 and 7x7 medians (the reference, then the fast
 * path of median-cpu.h), and the linear spectrum (36 orientations,
 * L = 21, supremum and orientation) by cm_linspectrum_ref
 * (one thread) and cm_linspectrum_ref_mt (seconds a frame at the default
 * size; docs/bench/history.md, "The linear spectrum's CPU twin over
 * threads", used 640x480), and fill holes on blobs by
 * cm_recon_ref (one thread) and cm_recon_ref_mt. tests/bench/bench-cpu-opencv.py
 * runs OpenCV's equivalents of the erosions and medians on the same
 * machine for comparison.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/core-test.h"         /* now_s () */
#include "linspectrum.h"
#include "median.h"
#include "median-cpu.h"
#include "morph.h"
#include "reconstruct.h"
#include "se.h"
#include "test-util.h"

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

typedef cm_status (*run_fn) (const void *desc, const cm_image * src,
    const cm_image * dst, const cm_cpu_opts * o);

static cm_status
run_morph (const void *desc, const cm_image * src, const cm_image * dst,
    const cm_cpu_opts * o)
{
  return cm_morph_ref_mt (desc, src, dst, o);
}

static cm_status
run_median (const void *desc, const cm_image * src, const cm_image * dst,
    const cm_cpu_opts * o)
{
  return cm_median_ref_mt (desc, src, dst, o);
}

/* The fast path, its networks built once (as the filter does) */
static cm_status
run_median_cpu (const void *plan, const cm_image * src, const cm_image * dst,
    const cm_cpu_opts * o)
{
  return cm_median_cpu_plan_run (plan, src, dst, o);
}

/* The linear spectrum's run: dst is the supremum */
typedef struct
{
  cm_linspectrum_desc desc;
  uint64_t spectrum[36];
  cm_image orient;
} spectrum_job;

static cm_status
run_spectrum_ref (const void *job, const cm_image * src, const cm_image * dst,
    const cm_cpu_opts * o)
{
  spectrum_job *j = (spectrum_job *) job;

  (void) o;
  return cm_linspectrum_ref (&j->desc, src, j->spectrum, dst, &j->orient);
}

static cm_status
run_spectrum (const void *job, const cm_image * src, const cm_image * dst,
    const cm_cpu_opts * o)
{
  spectrum_job *j = (spectrum_job *) job;

  return cm_linspectrum_ref_mt (&j->desc, src, j->spectrum, dst, &j->orient,
      o);
}

/* Reconstruction: fill holes, on the calling thread alone or on the
 * threads of @o */
static cm_status
run_fill_holes_ref (const void *desc, const cm_image * src,
    const cm_image * dst, const cm_cpu_opts * o)
{
  (void) o;
  return cm_recon_ref (desc, src, dst);
}

static cm_status
run_fill_holes (const void *desc, const cm_image * src, const cm_image * dst,
    const cm_cpu_opts * o)
{
  return cm_recon_ref_mt (desc, src, dst, o);
}

static void
bench (const char *name, run_fn fn, const void *desc, const cm_image * src,
    const cm_image * dst, const cm_cpu_opts * o, int runs)
{
  double t[64];

  if (runs > 64)
    runs = 64;
  if (fn (desc, src, dst, o) != CM_OK) {
    printf ("%-28s failed\n", name);
    return;
  }
  for (int i = 0; i < runs; i++) {
    double t0 = now_s ();

    fn (desc, src, dst, o);
    t[i] = now_s () - t0;
  }
  qsort (t, runs, sizeof (double), cmp_double);
  printf ("%-28s %8.2f ms  %7.3f Gpx/s\n", name, t[runs / 2] * 1e3,
      (double) src->width * src->height / t[runs / 2] / 1e9);
}

int
main (int argc, char **argv)
{
  int width = 3840, height = 2160, runs = 5;
  cm_cpu_opts o = { (int) sysconf (_SC_NPROCESSORS_ONLN), NULL };
  cm_se *rect = NULL, *disk = NULL;
  test_rng r;

  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp (argv[i], "--width"))
      width = atoi (argv[i + 1]);
    else if (!strcmp (argv[i], "--height"))
      height = atoi (argv[i + 1]);
    else if (!strcmp (argv[i], "--threads"))
      o.threads = atoi (argv[i + 1]);
    else if (!strcmp (argv[i], "--runs"))
      runs = atoi (argv[i + 1]);
  }
  {
    cm_image src = test_image_new (width, height, CM_DEPTH_8, 0);
    cm_image dst = test_image_new (width, height, CM_DEPTH_8, 0);
    cm_morph_desc erode_rect, erode_disk;
    cm_median_desc m3 = { 3, 3, 50, CM_BORDER_REPLICATE, 0, CM_MEDIAN_AUTO,
      0
    };

    test_rng_seed (&r, 1);
    test_image_fill_random (&src, &r);
    cm_se_new_rect (&rect, 15, 15);
    cm_se_new_disk (&disk, 7);
    erode_rect = (cm_morph_desc) { CM_MORPH_ERODE, rect, 1,
      CM_BORDER_REPLICATE, 0 };
    erode_disk = erode_rect;
    erode_disk.se = disk;
    printf ("%dx%d GRAY8, %d thread%s, median of %d runs\n", width, height,
        o.threads, o.threads == 1 ? "" : "s", runs);
    bench ("erode rect 15x15", run_morph, &erode_rect, &src, &dst, &o, runs);
    bench ("erode disk r7", run_morph, &erode_disk, &src, &dst, &o, runs);
    for (int n = 3; n <= 7; n += 2) {
      cm_median_desc m = m3;
      cm_median_cpu_plan *plan = NULL;
      char name[40];

      m.window_w = m.window_h = n;
      snprintf (name, sizeof (name), "median %dx%d (reference)", n, n);
      bench (name, run_median, &m, &src, &dst, &o, runs);
      snprintf (name, sizeof (name), "median %dx%d", n, n);
      if (cm_median_cpu_plan_new (&plan, &m, CM_DEPTH_8) == CM_OK)
        bench (name, run_median_cpu, plan, &src, &dst, &o, runs);
      cm_median_cpu_plan_free (plan);
    }
    {
      spectrum_job s = { {21, 0, 180, 5, CM_MORPH_OPEN, 1, 1}, {0},
        test_image_new (width, height, CM_DEPTH_16, 0)
      };

      bench ("linspectrum 36 L21 (1 thr)", run_spectrum_ref, &s, &src, &dst,
          &o, runs);
      bench ("linspectrum 36 L21", run_spectrum, &s, &src, &dst, &o, runs);
      test_image_free (&s.orient);
    }
    {
      /* on piecewise-constant blobs: holes, plateaus and objects on the
       * edge, like a part on a conveyor */
      cm_recon_desc fill = { CM_RECON_FILL_HOLES, 8, 0 };

      test_image_fill_blobs (&src, &r, 24, 20);
      bench ("fill-holes (1 thr)", run_fill_holes_ref, &fill, &src, &dst, &o,
          runs);
      bench ("fill-holes", run_fill_holes, &fill, &src, &dst, &o, runs);
    }
    test_image_free (&src);
    test_image_free (&dst);
  }
  cm_se_free (rect);
  cm_se_free (disk);
  return 0;
}
