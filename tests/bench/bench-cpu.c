/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench-cpu: the CPU backend's throughput (what the elements run with
 * backend=cpu: the filters of morph-filter.h and median-filter.h, the
 * references elsewhere), on every core of this machine or --threads N.
 *
 *   bench-cpu [--width W] [--height H] [--threads N] [--runs R]
 *             [--write DIR]
 *
 * Random 8-bit frames (never zeros), the median of R runs after one
 * warm-up, in Gpx/s: erosion, dilation, opening, closing, gradient and
 * top-hat by rectangles (15x15, 101x101) and a disk of radius 7 (also by
 * the definition, cm_morph_ref_mt, for comparison), the 3x3, 5x5, 7x7 and
 * 15x15 medians, and the linear spectrum (36
 * orientations, L = 21, supremum and orientation) by cm_linspectrum_ref
 * (one thread) and cm_linspectrum_ref_mt (seconds a frame at the default
 * size; docs/bench/history.md, "The linear spectrum's CPU twin over
 * threads", used 640x480), and fill holes and opening by reconstruction
 * on blobs and noise, fill holes on a binary frame (also by the
 * reference, cm_recon_ref_mt;
 * tests/bench/bench-recon-peers.py --cpu times scikit-image and DIPlib on
 * the frames --write leaves). tests/bench/bench-cpu-opencv.py
 * runs OpenCV's equivalents of the first four on the same machine for
 * comparison.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/core-test.h"         /* now_s () */
#include "linspectrum/linspectrum.h"
#include "median/median-filter.h"
#include "morph/morph-filter.h"
#include "reconstruct/reconstruct-filter.h"
#include "morph/se.h"
#include "test-util.h"

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

typedef cm_status (*run_fn) (const void *desc, const cm_image * src,
    const cm_image * dst, const cm_cpu_opts * o);

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

/* what backend=cpu runs: the filter, made once (as the element makes it
 * once per caps) and run for every frame */
static cm_status
run_morph (const void *filter, const cm_image * src, const cm_image * dst,
    const cm_cpu_opts * o)
{
  (void) o;
  return cm_filter_run ((cm_filter *) filter, src, dst, NULL);
}

static void
bench_morph (const char *name, const cm_morph_desc * d, const cm_image * src,
    const cm_image * dst, const cm_cpu_opts * o, int runs)
{
  cm_filter *f;

  if (cm_morph_filter_new (&f, CM_BACKEND_CPU, d, src->width, src->height,
          src->depth, o) != CM_OK) {
    printf ("%-28s failed\n", name);
    return;
  }
  bench (name, run_morph, f, src, dst, o, runs);
  cm_filter_free (f);
}

static cm_status
run_morph_ref (const void *desc, const cm_image * src, const cm_image * dst,
    const cm_cpu_opts * o)
{
  return cm_morph_ref_mt (desc, src, dst, o);
}

static cm_status
run_median (const void *filter, const cm_image * src, const cm_image * dst,
    const cm_cpu_opts * o)
{
  (void) o;
  return cm_filter_run ((cm_filter *) filter, src, dst, NULL);
}

static void
bench_median (const char *name, const cm_median_desc * d,
    const cm_image * src, const cm_image * dst, const cm_cpu_opts * o,
    int runs)
{
  cm_filter *f;

  if (cm_median_filter_new (&f, CM_BACKEND_CPU, d, src->width, src->height,
          src->depth, o) != CM_OK) {
    printf ("%-28s failed\n", name);
    return;
  }
  bench (name, run_median, f, src, dst, o, runs);
  cm_filter_free (f);
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

/* Reconstruction: the filter (what backend=cpu runs, made once) and the
 * reference on the threads of @o (what it ran before) */
static cm_status
run_recon_ref (const void *desc, const cm_image * src, const cm_image * dst,
    const cm_cpu_opts * o)
{
  return cm_recon_ref_mt (desc, src, dst, o);
}

static cm_status
run_recon (const void *filter, const cm_image * src, const cm_image * dst,
    const cm_cpu_opts * o)
{
  (void) o;
  return cm_filter_run ((cm_filter *) filter, src, dst, NULL);
}

/* an 8-bit image as a binary PGM, DIR/NAME.pgm */
static void
write_pgm (const char *dir, const char *name, const cm_image * img)
{
  char path[512];
  FILE *f;

  snprintf (path, sizeof (path), "%s/%s.pgm", dir, name);
  f = fopen (path, "wb");
  if (f == NULL) {
    printf ("cannot write %s\n", path);
    return;
  }
  fprintf (f, "P5 %d %d 255\n", img->width, img->height);
  for (int y = 0; y < img->height; y++)
    fwrite ((const uint8_t *) img->data + (size_t) y * img->pitch, 1,
        (size_t) img->width, f);
  fclose (f);
}

/* @d on @frame (named @frame_name) by the filter, then the reference;
 * with @dir, the filter's result written there as FRAME-OP.pgm */
static void
bench_recon (const cm_recon_desc * d, const char *frame_name,
    const cm_image * frame, const cm_image * dst, const cm_cpu_opts * o,
    int runs, const char *dir)
{
  const char *op = d->op == CM_RECON_OPEN ? "open-rec r7" :
      cm_recon_op_name (d->op);
  cm_filter *f;
  char name[64];

  snprintf (name, sizeof (name), "%s %s", op, frame_name);
  if (cm_recon_filter_new (&f, CM_BACKEND_CPU, d, frame->width,
          frame->height, frame->depth, o) != CM_OK) {
    printf ("%-28s failed\n", name);
    return;
  }
  bench (name, run_recon, f, frame, dst, o, runs);
  cm_filter_free (f);
  if (dir != NULL) {
    snprintf (name, sizeof (name), "%s-%s", frame_name,
        cm_recon_op_name (d->op));
    write_pgm (dir, name, dst);
  }
  snprintf (name, sizeof (name), "%s %s (ref)", op, frame_name);
  bench (name, run_recon_ref, d, frame, dst, o, runs);
}

int
main (int argc, char **argv)
{
  int width = 3840, height = 2160, runs = 5;
  cm_cpu_opts o = { (int) sysconf (_SC_NPROCESSORS_ONLN), NULL };
  cm_se *rect = NULL, *rect101 = NULL, *disk = NULL;
  const char *write_dir = NULL;
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
    else if (!strcmp (argv[i], "--write"))
      write_dir = argv[i + 1];
  }
  {
    cm_image src = test_image_new (width, height, CM_DEPTH_8, 0);
    cm_image dst = test_image_new (width, height, CM_DEPTH_8, 0);
    static const cm_morph_op ops[] = { CM_MORPH_ERODE, CM_MORPH_DILATE,
      CM_MORPH_OPEN, CM_MORPH_CLOSE, CM_MORPH_GRADIENT, CM_MORPH_TOPHAT
    };
    static const int sides[] = { 3, 5, 7, 15 };
    cm_morph_desc d = { CM_MORPH_ERODE, NULL, 1, CM_BORDER_REPLICATE, 0 };
    cm_median_desc m = { 3, 3, 50, CM_BORDER_REPLICATE, 0, CM_MEDIAN_AUTO,
      0
    };
    char name[64];

    test_rng_seed (&r, 1);
    test_image_fill_random (&src, &r);
    cm_se_new_rect (&rect, 15, 15);
    cm_se_new_rect (&rect101, 101, 101);
    cm_se_new_disk (&disk, 7);
    printf ("%dx%d GRAY8, %d thread%s, median of %d runs\n", width, height,
        o.threads, o.threads == 1 ? "" : "s", runs);
    for (int i = 0; i < (int) (sizeof (ops) / sizeof (ops[0])); i++) {
      d.op = ops[i];
      d.se = rect;
      snprintf (name, sizeof (name), "%s rect 15x15", cm_morph_op_name (d.op));
      bench_morph (name, &d, &src, &dst, &o, runs);
      d.se = disk;
      snprintf (name, sizeof (name), "%s disk r7", cm_morph_op_name (d.op));
      bench_morph (name, &d, &src, &dst, &o, runs);
    }
    d.op = CM_MORPH_ERODE;
    d.se = rect101;
    bench_morph ("erode rect 101x101", &d, &src, &dst, &o, runs);
    d.se = rect;
    bench ("erode rect 15x15 (definition)", run_morph_ref, &d, &src, &dst,
        &o, runs);
    for (int i = 0; i < (int) (sizeof (sides) / sizeof (sides[0])); i++) {
      m.window_w = m.window_h = sides[i];
      snprintf (name, sizeof (name), "median %dx%d", sides[i], sides[i]);
      bench_median (name, &m, &src, &dst, &o, runs);
    }
    {
      /* 16-bit samples: the same filters on GRAY16 frames */
      cm_image src16 = test_image_new (width, height, CM_DEPTH_16, 0);
      cm_image dst16 = test_image_new (width, height, CM_DEPTH_16, 0);

      test_image_fill_random (&src16, &r);
      d.op = CM_MORPH_ERODE;
      d.se = rect;
      bench_morph ("erode rect 15x15 16-bit", &d, &src16, &dst16, &o, runs);
      d.op = CM_MORPH_OPEN;
      d.se = disk;
      bench_morph ("open disk r7 16-bit", &d, &src16, &dst16, &o, runs);
      for (int side = 3; side <= 5; side += 2) {
        m.window_w = m.window_h = side;
        snprintf (name, sizeof (name), "median %dx%d 16-bit", side, side);
        bench_median (name, &m, &src16, &dst16, &o, runs);
      }
      test_image_free (&src16);
      test_image_free (&dst16);
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
      /* fill holes and opening by reconstruction (disk r7), 8-connected,
       * on piecewise-constant blobs (holes, plateaus and objects on the
       * edge, like a part on a conveyor), on noise (the most the queue
       * does) and fill holes on the blobs thresholded (binary, what
       * scipy fills too); --write DIR: the frames and the filter's
       * results as PGM files for bench-recon-peers.py --cpu DIR */
      cm_recon_desc fill = { CM_RECON_FILL_HOLES, 8, 0,
        {CM_MORPH_ERODE, NULL, 1, CM_BORDER_REPLICATE, 0}
      };
      cm_recon_desc open = { CM_RECON_OPEN, 8, 0,
        {CM_MORPH_ERODE, disk, 1, CM_BORDER_REPLICATE, 0}
      };
      static const char *names[3] = { "blobs", "noise", "binary" };
      cm_image frames[3];

      for (int f = 0; f < 3; f++)
        frames[f] = test_image_new (width, height, CM_DEPTH_8, 0);
      test_image_fill_blobs (&frames[0], &r, 24, 20);
      test_rng_seed (&r, 2);
      test_image_fill_random (&frames[1], &r);
      for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
          test_image_set (&frames[2], x, y,
              test_image_get (&frames[0], x, y) > 127 ? 255 : 0);
      for (int f = 0; f < 3; f++) {
        if (write_dir != NULL)
          write_pgm (write_dir, names[f], &frames[f]);
        bench_recon (&fill, names[f], &frames[f], &dst, &o, runs, write_dir);
        if (f < 2)
          bench_recon (&open, names[f], &frames[f], &dst, &o, runs,
              write_dir);
        test_image_free (&frames[f]);
      }
    }
    test_image_free (&src);
    test_image_free (&dst);
  }
  cm_se_free (rect);
  cm_se_free (rect101);
  cm_se_free (disk);
  return 0;
}
