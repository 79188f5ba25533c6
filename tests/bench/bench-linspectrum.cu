/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Benchmark of the linear spectrum plan (linspectrum.h; paper 000, Karas
 * et al., Table 2 and Figs. 9-10): device time of cm_linspectrum_plan_run
 * (memsets, transposition, the stream kernel, the supremum finalisation
 * and the spectrum download, all on one stream) with CUDA events, after
 * warm-up, median of 25 runs; the events sit behind a gate kernel so that
 * the host's launch work is not counted (bench-common.cuh), unless
 * --timing call (each call's latency on an idle stream, the method of the
 * tables before 2026-11-24).
 *
 *  - 640x640, 1920x1080, 3840x2160 random 8-bit images, lengths 11, 41,
 *    101, 251, 180 orientations (0..180 step 1): spectrum only, and with
 *    supremum + orientation images;
 *    with the ratio of each time to the L = 11 time of the same size and
 *    outputs (column vs_L11: issue 4 wants <= 1.3 up to L = 251);
 *    and the supremum + orientation rows again with the sink that reads
 *    its word at each step ("sup+ori-nopf": cm_linspectrum_tuning
 *    .sup_reads_ahead = -1, the sink before run 3);
 *  - one opening (a single orientation) at 0, 30, 45, 60, 90 and 120
 *    degrees, L = 41 (all lengths at 30 degrees), spectrum only and with
 *    the supremum image (= the opened image), in Gpx/s (target >= 100 at
 *    3840x2160), by the one-orientation path ("opening-Xdeg": the sheared
 *    tile up to L = 63, else the stream kernel), by its stream kernel
 *    ("opening-Xdeg-stream": sheared_max = -1) and by the general kernel
 *    ("opening-Xdeg-gen": general_kernel = 1);
 *  - the CPU reference on 640x640, length 41, 180 orientations, once
 *    (the paper's Table 2 row "D15/D47": 640x640, 180 angles), and the
 *    GPU spectrum checked against it.
 *
 *  - --openings: only one opening at 3840x2160, every 7.5 degrees, five
 *    lengths, and a sweep of the sheared tile's rows per block.
 *
 * Usage: bench-linspectrum [--csv FILE] [--quick] [--openings]
 *                          [--timing gated|call] [tuning options]
 *
 * The tuning options fill the cm_linspectrum_tuning of every plan (the
 * rows above that time a variant change its one field): --wpb 1|2|4,
 * --zone-length N, --general-kernel, --sup-reads-ahead -1|0|1,
 * --single-target N, --sheared-max N (-1: never), --sheared-tile N,
 * --items-major (linspectrum.h; they replace the CM_LINSPECTRUM_*
 * environment variables of the earlier library). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#include "device.h"
#include "linspectrum/linspectrum.h"

#include "bench-common.cuh"

#define RUNS 25
#define WARMUP 3

static FILE *csv;
static bench_timer timer;
/* every plan's tuning (options), the variants' one field changed */
static cm_linspectrum_tuning base_tuning;
static char device_name[256];

#define CUDA_OK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
      fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
          cudaGetErrorString (e_)); exit (1); } } while (0)

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static void
fill_random (uint8_t * p, size_t n, uint64_t seed)
{
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;

  for (size_t i = 0; i < n; i++) {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    p[i] = (uint8_t) ((s * 0x2545F4914F6CDD1Dull) >> 56);
  }
}

typedef struct
{
  double median_ms, min_ms;
  char plan[128];
  int ok;
} timing;

/* median device time of plan_run for desc on the device image src */
static timing
time_plan (const cm_linspectrum_desc * d, const cm_linspectrum_tuning * tn,
    const cm_image * src, cudaStream_t s, uint64_t * spectrum_out)
{
  timing t;
  cm_linspectrum_plan *plan = NULL;
  cm_image sup = {}, ori = {};
  std::vector < float >ms;
  cm_status st;

  memset (&t, 0, sizeof (t));
  st = cm_linspectrum_plan_new_tuned (&plan, d, src->width, src->height,
      src->depth, tn);
  if (st != CM_OK) {
    fprintf (stderr, "plan_new: %s\n", cm_status_string (st));
    return t;
  }
  snprintf (t.plan, sizeof (t.plan), "%s",
      cm_linspectrum_plan_describe (plan));
  if (d->want_supremum)
    cm_device_image_alloc (&sup, src->width, src->height, src->depth);
  if (d->want_orientation)
    cm_device_image_alloc (&ori, src->width, src->height, CM_DEPTH_16);
  for (int r = 0; r < WARMUP + RUNS; r++) {
    float m = 0;
    const int gated = !timer.call && r >= WARMUP;
    const int timeouts = *timer.gate_timeouts;

    if (gated)
      bench_gate_close (timer);
    CUDA_OK (cudaEventRecord (timer.start, s));
    st = cm_linspectrum_plan_run (plan, src, &sup, &ori, s);
    CUDA_OK (cudaEventRecord (timer.stop, s));
    if (gated)
      bench_gate_open (timer);
    CUDA_OK (cudaEventSynchronize (timer.stop));
    if (st != CM_OK) {
      fprintf (stderr, "plan_run: %s\n", cm_status_string (st));
      goto out;
    }
    if (gated && bench_gate_gave_up (timer, timeouts)) {
      fprintf (stderr, "timing gate gave up: plan_run waits on the device\n");
      goto out;
    }
    CUDA_OK (cudaEventElapsedTime (&m, timer.start, timer.stop));
    if (r >= WARMUP)
      ms.push_back (m);
  }
  std::sort (ms.begin (), ms.end ());
  t.median_ms = ms[ms.size () / 2];
  t.min_ms = ms[0];
  t.ok = 1;
  if (spectrum_out)
    memcpy (spectrum_out, cm_linspectrum_plan_spectrum (plan),
        sizeof (uint64_t) * cm_linspectrum_plan_count (plan));
out:
  if (sup.data)
    cm_device_free (sup.data);
  if (ori.data)
    cm_device_free (ori.data);
  cm_linspectrum_plan_free (plan);
  return t;
}

/* vs: the time over the L = 11 time of the same case, 0 for none */
static void
report (const char *what, int w, int h, int L, int n, const char *outputs,
    const timing * t, double gpx, double vs)
{
  char ratio[32] = "";

  if (vs > 0)
    snprintf (ratio, sizeof (ratio), "%.3f", vs);
  printf ("%-16s %4dx%-4d L=%-3d n=%-3d %-12s %9.3f ms (min %8.3f) "
      "%8.1f Gpx/s %s%-6s [%s]\n", what, w, h, L, n, outputs, t->median_ms,
      t->min_ms, gpx, vs > 0 ? "x" : " ", ratio, t->plan);
  if (csv)
    fprintf (csv, "\"%s\",%s,%d,%d,%d,%d,%s,%.4f,%.4f,%.2f,\"%s\",%s\n",
        device_name, what, w, h, L, n, outputs, t->median_ms, t->min_ms,
        gpx, t->plan, ratio);
}

/* one opening at angle deg: spectrum only, then with the opened image */
static void
bench_opening (double deg, int L, const cm_image * src, cudaStream_t s)
{
  size_t npix = (size_t) src->width * src->height;
  char what[32];

  /* the one-orientation path as the plan chooses it, its stream kernel
   * (no sheared tile), then the general kernel */
  for (int variant = 0; variant < 3; variant++) {
    static const char *const suffix[] = { "", "-stream", "-gen" };
    cm_linspectrum_tuning tn = base_tuning;

    snprintf (what, sizeof (what), "opening-%gdeg%s", deg, suffix[variant]);
    tn.general_kernel = variant == 2;
    if (variant == 1)
      tn.sheared_max = -1;
    for (int want = 0; want < 2; want++) {
      cm_linspectrum_desc d = { L, deg, deg + 0.5, 1, CM_MORPH_OPEN, want,
        0
      };
      timing t = time_plan (&d, &tn, src, s, NULL);

      if (t.ok)
        report (what, src->width, src->height, L, 1,
            want ? "supremum" : "spectrum", &t,
            (double) npix / (t.median_ms * 1e6), 0);
    }
  }
}

/* --openings: 3840x2160 only, with the opened image: one orientation at
 * every 7.5 degrees (L = 41) by the plan's default path; L = 11, 41, 48,
 * 56, 64, 101, 127, 251 at 30 and 90 degrees by the sheared tile and by the
 * stream kernel (where the plan switches); the sheared tile's output rows
 * per block (sheared_tile) at 30 and 90 degrees, L = 41 */
static void
bench_openings_only (const cm_image * src, cudaStream_t s)
{
  const size_t npix = (size_t) src->width * src->height;
  static const int lengths[] = { 11, 41, 48, 56, 64, 101, 127, 251 };
  static const int tiles[] = { 64, 128, 192, 256, 384, 512 };

  for (int i = 0; i < 24; i++) {
    const double deg = 7.5 * i;
    cm_linspectrum_desc d = { 41, deg, deg + 0.5, 1, CM_MORPH_OPEN, 1, 0 };
    timing t = time_plan (&d, &base_tuning, src, s, NULL);

    if (t.ok)
      report ("opening", src->width, src->height, 41, 1, "supremum", &t,
          (double) npix / (t.median_ms * 1e6), 0);
  }
  /* each length by the sheared tile (forced) and by the stream kernel */
  for (int li = 0; li < 8; li++)
    for (int k = 0; k < 4; k++) {
      const double deg = (k & 1) ? 90 : 30;
      cm_linspectrum_desc d = { lengths[li], deg, deg + 0.5, 1,
        CM_MORPH_OPEN, 1, 0
      };
      cm_linspectrum_tuning tn = base_tuning;
      timing t;

      tn.sheared_max = k < 2 ? CM_LINSPECTRUM_MAX_LENGTH : -1;
      t = time_plan (&d, &tn, src, s, NULL);
      if (t.ok)
        report (k < 2 ? "opening-sheared" : "opening-stream", src->width,
            src->height, lengths[li], 1, "supremum", &t,
            (double) npix / (t.median_ms * 1e6), 0);
    }
  for (int ti = 0; ti < 6; ti++)
    for (int k = 0; k < 2; k++) {
      const double deg = k ? 90 : 30;
      cm_linspectrum_desc d = { 41, deg, deg + 0.5, 1, CM_MORPH_OPEN, 1, 0 };
      cm_linspectrum_tuning tn = base_tuning;
      timing t;

      tn.sheared_tile = tiles[ti];
      t = time_plan (&d, &tn, src, s, NULL);
      if (t.ok)
        report ("opening-tile", src->width, src->height, 41, 1, "supremum",
            &t, (double) npix / (t.median_ms * 1e6), 0);
    }
}

/* The tuning options with a number */
static const bench_int_opt<cm_linspectrum_tuning> tuning_ints[] = {
  {"--wpb", &cm_linspectrum_tuning::warps_per_block},
  {"--zone-length", &cm_linspectrum_tuning::zone_length},
  {"--sup-reads-ahead", &cm_linspectrum_tuning::sup_reads_ahead},
  {"--single-target", &cm_linspectrum_tuning::single_target},
  {"--sheared-max", &cm_linspectrum_tuning::sheared_max},
  {"--sheared-tile", &cm_linspectrum_tuning::sheared_tile},
};

int
main (int argc, char **argv)
{
  static const int sizes[][2] = { {640, 640}, {1920, 1080}, {3840, 2160} };
  static const int lengths[] = { 11, 41, 101, 251 };
  int quick = 0, openings = 0, timing_call = 0;
  cudaStream_t s;

  for (int i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--csv") && i + 1 < argc) {
      csv = fopen (argv[++i], "w");
      if (!csv) {
        perror (argv[i]);
        return 1;
      }
    } else if (!strcmp (argv[i], "--quick"))
      quick = 1;
    else if (!strcmp (argv[i], "--openings"))
      openings = 1;
    else if (!strcmp (argv[i], "--timing") && i + 1 < argc &&
        (timing_call = bench_parse_timing (argv[i + 1])) >= 0)
      i++;
    else if (!strcmp (argv[i], "--general-kernel"))
      base_tuning.general_kernel = 1;
    else if (!strcmp (argv[i], "--items-major"))
      base_tuning.items_major = 1;
    else if (i + 1 < argc && bench_parse_int_opt (tuning_ints, argv[i],
            argv[i + 1], &base_tuning))
      i++;
    else {
      fprintf (stderr, "usage: %s [--csv FILE] [--quick] [--openings] "
          "[--timing gated|call] [--wpb 1|2|4] [--zone-length N]\n"
          "          [--general-kernel] [--sup-reads-ahead -1|0|1]\n"
          "          [--single-target N] [--sheared-max N] "
          "[--sheared-tile N] [--items-major]\n", argv[0]);
      return 2;
    }
  }
  if (cm_device_count () == 0) {
    fprintf (stderr, "no CUDA device\n");
    return 77;
  }
  cm_device_set (-1);
  cm_device_name (-1, device_name, sizeof (device_name));
  printf ("device: %s\n", device_name);
  if (csv)
    fprintf (csv, "device,case,width,height,length,orientations,outputs,"
        "median_ms,min_ms,gpx_per_s,plan,vs_L11\n");
  bench_timer_init (timer, timing_call);
  s = timer.stream;
  printf ("timing: %s\n", bench_timing_name (timer));

  for (int si = openings ? 2 : 0; si < 3; si++) {
    int w = sizes[si][0], h = sizes[si][1];
    size_t npix = (size_t) w * h;
    uint8_t *host = (uint8_t *) malloc (npix);
    cm_image src = {};

    fill_random (host, npix, 42 + si);
    if (cm_device_image_alloc (&src, w, h, CM_DEPTH_8) != CM_OK) {
      fprintf (stderr, "device_image_alloc %dx%d failed\n", w, h);
      return 1;
    }
    CUDA_OK (cudaMemcpy2D (src.data, src.pitch, host, (size_t) w, (size_t) w,
            (size_t) h, cudaMemcpyHostToDevice));
    if (openings) {
      bench_openings_only (&src, s);
      cm_device_free (src.data);
      free (host);
      continue;
    }

    {
      double base[3] = { 0, 0, 0 };

      for (int li = 0; li < 4; li++) {
        int L = lengths[li];

        if (quick && L != 41)
          continue;
        for (int want = 0; want < 2; want++) {
          cm_linspectrum_desc d = { L, 0, 180, 1, CM_MORPH_OPEN, want, want };
          timing t = time_plan (&d, &base_tuning, &src, s, NULL);

          if (!t.ok)
            continue;
          if (L == 11)
            base[want] = t.median_ms;
          report ("spectrum-180", w, h, L, 180,
              want ? "sup+orient" : "spectrum", &t,
              (double) npix * 180 / (t.median_ms * 1e6),
              base[want] > 0 ? t.median_ms / base[want] : 0);
        }
        {
          /* the supremum sink without its reads ahead (the previous one) */
          cm_linspectrum_desc d = { L, 0, 180, 1, CM_MORPH_OPEN, 1, 1 };
          cm_linspectrum_tuning tn = base_tuning;
          timing t;

          tn.sup_reads_ahead = -1;
          t = time_plan (&d, &tn, &src, s, NULL);
          if (L == 11)
            base[2] = t.median_ms;
          if (t.ok)
            report ("spectrum-180", w, h, L, 180, "sup+ori-nopf", &t,
                (double) npix * 180 / (t.median_ms * 1e6),
                base[2] > 0 ? t.median_ms / base[2] : 0);
        }
        bench_opening (30, L, &src, s);
      }
    }
    for (int ai = 0; ai < 6; ai++) {
      static const double angles[] = { 0, 30, 45, 60, 90, 120 };

      if (angles[ai] != 30 && !(quick && si != 2))
        bench_opening (angles[ai], 41, &src, s);
    }

    if (si == 0) {
      /* paper 000 Table 2: 640x640, 180 orientations; CPU reference once */
      cm_linspectrum_desc d = { 41, 0, 180, 1, CM_MORPH_OPEN, 0, 0 };
      cm_image hsrc = { host, (size_t) w, w, h, CM_DEPTH_8 };
      uint64_t cpu[180], gpu[180];
      double t0 = now_s (), cpu_ms;
      timing t;

      cm_linspectrum_ref (&d, &hsrc, cpu, NULL, NULL);
      cpu_ms = (now_s () - t0) * 1e3;
      t = time_plan (&d, &base_tuning, &src, s, gpu);
      printf ("table2 640x640 L=41 180 orientations: CPU reference %.1f ms, "
          "GPU %.3f ms, speed-up %.0fx, spectra %s\n", cpu_ms, t.median_ms,
          cpu_ms / t.median_ms,
          t.ok && !memcmp (cpu, gpu, sizeof (cpu)) ? "equal" : "DIFFER");
      if (csv)
        fprintf (csv, "\"%s\",cpu-reference,%d,%d,41,180,spectrum,%.4f,"
            "%.4f,%.4f,\"cm_linspectrum_ref\"\n", device_name, w, h, cpu_ms,
            cpu_ms, (double) npix * 180 / (cpu_ms * 1e6));
    }
    cm_device_free (src.data);
    free (host);
  }
  bench_timer_free (timer);
  if (csv)
    fclose (csv);
  return 0;
}
