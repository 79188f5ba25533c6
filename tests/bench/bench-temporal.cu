/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench-temporal: device time of one push of the temporal percentile
 * (cm_temporal_plan_push: the current frame into the ring and the output
 * of its window) on random frames, each row beside its memory floor.
 *
 *   bench-temporal [--width W] [--height H] [--runs N] [--warmup K]
 *                  [--frames 5,9,25,255] [--depth 8|16|both]
 *                  [--percentile P] [--output background|difference]
 *                  [--channels 1|4] [--sweep] [--by-slot] [--no-check]
 *                  [--frames-file RAW --dump RAW] [--timing gated|call]
 *
 * Each row: a plan of `frames`, the window filled first (so the rows time
 * the steady state, n = frames), then K warm-up pushes and the median of
 * N timed pushes (CUDA events behind the gate, bench-common.cuh). Pushes
 * cycle through 16 random source frames already on the device (the ring
 * holds `frames` distinct copies whatever their count).
 *
 * The floor of a row: the bytes a window's pass must move, the current
 * frame read, n - 1 ring frames read, the ring slot and the output written
 * ((n + 2) frames), at the copy bandwidth measured in the same run (a
 * 1 GiB device-to-device copy, read + write; a frame-sized copy would run
 * from L2). "x floor" is the time over it.
 *
 * --sweep adds rows with a kernel or ring layout forced: the networks
 * (and without the pruned median) up to 32 frames, the ring by sample
 * (above 32 frames the default: a thread reads its sample's slots side by
 * side) on small windows too, and the ring by slot with the histogram of
 * one or of 4 samples a thread at any size.
 * --by-slot adds, beside each window above 32 frames, the row of the ring
 * laid out by slot (the histogram of temporal-hist.cu), unchecked.
 * Rows are checked (unless --no-check): after the timed pushes, rows of
 * the last output against cm_temporal_ref over the same window, computed
 * on the host from the source frames (the first 4 rows and 4 rows in the
 * middle); the sweep's rows up to 64 frames (the GPU test checks every
 * kernel variant).
 * --frames-file RAW: the source frames read from a raw file (frames of
 * W x H samples at the depth, back to back: bench-temporal-peers.py
 * writes one) instead of random ones; --dump RAW then writes the output
 * of one more window: the file's frames pushed in order after a reset,
 * the last output (for the peers' check).
 * This is a benchmark, not a test: it is not registered with meson test. */

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "bench-common.cuh"
#include "temporal/temporal.h"

#define SOURCES 16

struct bench_opts : bench_frame_opts
{
  std::vector<int> frames = { 5, 9, 25, 255 };
  int depths[2] = { 8, 16 };
  int ndepths = 2;
  double percentile = 50;
  cm_temporal_output output = CM_TEMPORAL_BACKGROUND;
  int channels = 1;
  int sweep = 0, check = 1, by_slot = 0;
  const char *frames_file = NULL, *dump = NULL;

  bench_opts () : bench_frame_opts (CM_BORDER_REPLICATE) { }
};

static void
usage (const char *argv0)
{
  fprintf (stderr, "usage: %s [--width W] [--height H] [--runs N] "
      "[--warmup K] [--frames 5,9,25,255] [--depth 8|16|both] "
      "[--percentile P] [--output background|difference] "
      "[--channels 1|4] [--sweep] [--by-slot] [--no-check] [--frames-file RAW "
      "--dump RAW] [--timing gated|call]\n", argv0);
}

static int
flag (const char *a, bench_opts * o)
{
  if (!strcmp (a, "--sweep"))
    o->sweep = 1;
  else if (!strcmp (a, "--by-slot"))
    o->by_slot = 1;
  else if (!strcmp (a, "--no-check"))
    o->check = 0;
  else
    return 0;
  return 1;
}

static int
opt (const char *a, const char *v, bench_opts * o)
{
  if (!strcmp (a, "--frames")) {
    o->frames.clear ();
    for (const char *s = v; *s; s = strchr (s, ',') ? strchr (s, ',') + 1 :
        s + strlen (s))
      o->frames.push_back (atoi (s));
  } else if (!strcmp (a, "--depth")) {
    if (!strcmp (v, "both"))
      o->ndepths = 2;
    else {
      o->depths[0] = atoi (v);
      o->ndepths = 1;
    }
  } else if (!strcmp (a, "--percentile"))
    o->percentile = atof (v);
  else if (!strcmp (a, "--output"))
    o->output = !strcmp (v, "difference") ? CM_TEMPORAL_DIFFERENCE :
        CM_TEMPORAL_BACKGROUND;
  else if (!strcmp (a, "--channels"))
    o->channels = atoi (v);
  else if (!strcmp (a, "--frames-file"))
    o->frames_file = v;
  else if (!strcmp (a, "--dump"))
    o->dump = v;
  else {
    fprintf (stderr, "unknown option %s\n", a);
    return 0;
  }
  return 1;
}

static int
parse (int argc, char **argv, bench_opts * o)
{
  return bench_parse_opts (argc, argv, o, usage, opt, flag);
}

/* ---- frames ------------------------------------------------------------- */

struct source_frames
{
  std::vector<std::vector<uint8_t>> host;       /* rows packed */
  std::vector<cm_image_packed> dev;
};

static cm_image_packed
host_view (const std::vector<uint8_t> &f, const cm_image_packed &like,
    int y0, int rows)
{
  cm_image_packed v = like;
  const size_t row = (size_t) like.width * like.channels *
      cm_depth_bytes (like.depth);

  v.data = (void *) (f.data () + (size_t) y0 * row);
  v.pitch = row;
  v.height = rows;
  return v;
}

/* random frames, or those of the raw file (false when it is short) */
static bool
make_sources (const bench_opts &o, cm_depth depth, source_frames &s)
{
  const size_t bytes = (size_t) o.width * o.height * o.channels *
      cm_depth_bytes (depth);
  FILE *f = o.frames_file ? fopen (o.frames_file, "rb") : NULL;

  if (o.frames_file && !f) {
    perror (o.frames_file);
    return false;
  }
  for (int i = 0; i < (f ? 256 : SOURCES); i++) {
    std::vector<uint8_t> fr (bytes);

    if (f) {
      if (fread (fr.data (), 1, bytes, f) != bytes)
        break;
    } else
      for (size_t b = 0; b < bytes; b += 4) {
        const uint32_t r = bench_rng_next ();

        memcpy (&fr[b], &r, bytes - b < 4 ? bytes - b : 4);
      }
    s.host.push_back (std::move (fr));
  }
  if (f)
    fclose (f);
  if (s.host.empty ())
    return false;
  for (auto &fr : s.host) {
    cm_image_packed d;

    memset (&d, 0, sizeof (d));
    d.width = o.width;
    d.height = o.height;
    d.depth = depth;
    d.channels = o.channels;
    d.pitch = (size_t) o.width * o.channels * cm_depth_bytes (depth);
    CK (cudaMalloc (&d.data, d.pitch * o.height));
    CK (cudaMemcpy (d.data, fr.data (), fr.size (), cudaMemcpyHostToDevice));
    s.dev.push_back (d);
  }
  return true;
}

static void
free_sources (source_frames &s)
{
  for (auto &d : s.dev)
    cudaFree (d.data);
  s.dev.clear ();
  s.host.clear ();
}

/* ---- one row ------------------------------------------------------------ */

struct row_result
{
  double us, floor_us;
  const char *algorithm;
  int checked;                  /* 1 equal, 0 differs, -1 not checked */
};

/* Rows [y0, y0 + rows) of @out (device) against the reference of the
 * window of the last @n pushes, whose sources were @order */
static int
check_rows (const bench_opts &o, const cm_temporal_desc &d,
    const source_frames &s, const std::vector<int> &order, int n,
    const cm_image_packed &out, int y0, int rows)
{
  std::vector<cm_image_packed> win;
  const size_t row = (size_t) o.width * o.channels *
      cm_depth_bytes (out.depth);
  std::vector<uint8_t> got (row * rows), want (row * rows);

  for (int i = (int) order.size () - n; i < (int) order.size (); i++)
    win.push_back (host_view (s.host[order[i]], out, y0, rows));
  cm_image_packed w = host_view (want, out, 0, rows);
  if (cm_temporal_ref (&d, win.data (), n, &w) != CM_OK)
    return 0;
  CK (cudaMemcpy2D (got.data (), row, (uint8_t *) out.data + y0 * out.pitch,
          out.pitch, row, rows, cudaMemcpyDeviceToHost));
  return memcmp (got.data (), want.data (), got.size ()) == 0;
}

static row_result
run_row (const bench_opts &o, bench_timer &t, cm_depth depth, int frames,
    const cm_temporal_tuning &tuning, source_frames &s, double gbps,
    int check)
{
  const cm_temporal_desc d = { frames, o.percentile, o.output, o.channels,
    o.channels == 4 ? 3 : -1
  };
  row_result r = { -1, 0, "failed", -1 };
  cm_temporal_plan *plan = NULL;
  cm_image_packed out = s.dev[0];
  std::vector<int> order;
  size_t cursor = 0;

  if (cm_temporal_plan_new_tuned (&plan, &d, o.width, o.height, depth,
          &tuning) != CM_OK) {
    fprintf (stderr, "frames %d: no plan (ring of %zu bytes)\n", frames,
        cm_temporal_plan_ring_bytes (&d, o.width, o.height, depth));
    return r;
  }
  CK (cudaMalloc (&out.data, out.pitch * o.height));
  auto push = [&]() {
    const int i = (int) (cursor++ % s.dev.size ());

    order.push_back (i);
    return cm_temporal_plan_push (plan, &s.dev[i], &out, t.stream) == CM_OK;
  };
  for (int i = 0; i < frames; i++)
    push ();
  r.us = 1000.0 * time_median (t, o.warmup, o.runs, push);
  r.algorithm = cm_temporal_plan_algorithm (plan);
  r.floor_us = (frames + 2.0) * cm_temporal_frame_bytes (o.width, o.height,
      depth, o.channels) / (gbps * 1e3);
  CK (cudaStreamSynchronize (t.stream));
  if (check && r.us > 0) {
    const int n = cm_temporal_plan_window (plan);
    const int rows = o.height < 4 ? o.height : 4;

    r.checked = check_rows (o, d, s, order, n, out, 0, rows) &&
        check_rows (o, d, s, order, n, out, o.height / 2 - rows / 2 >= 0 ?
        o.height / 2 - rows / 2 : 0, rows);
  }
  if (o.dump && r.us > 0) {
    /* the file's frames in order after a reset: one known window */
    const int n = (int) s.dev.size () < frames ? (int) s.dev.size () : frames;
    std::vector<uint8_t> host (out.pitch * o.height);
    FILE *f = fopen (o.dump, "wb");

    cm_temporal_plan_reset (plan);
    for (int i = 0; i < n; i++)
      cm_temporal_plan_push (plan, &s.dev[i], &out, t.stream);
    CK (cudaStreamSynchronize (t.stream));
    CK (cudaMemcpy (host.data (), out.data, host.size (),
            cudaMemcpyDeviceToHost));
    if (f) {
      fwrite (host.data (), 1, host.size (), f);
      fclose (f);
      printf ("(the output of a window of %d frames written to %s)\n", n,
          o.dump);
    } else
      perror (o.dump);
  }
  cudaFree (out.data);
  cm_temporal_plan_free (plan);
  return r;
}

/* read + write bandwidth of a 1 GiB device-to-device copy, GB/s */
static double
copy_bandwidth (bench_timer &t, int warmup, int runs)
{
  const size_t bytes = (size_t) 1 << 30;
  void *a, *b;

  CK (cudaMalloc (&a, bytes));
  CK (cudaMalloc (&b, bytes));
  CK (cudaMemset (a, 1, bytes));
  double ms = time_median (t, warmup, runs, [&]() {
        return cudaMemcpyAsync (b, a, bytes, cudaMemcpyDeviceToDevice,
            t.stream) == cudaSuccess;
      });
  cudaFree (a);
  cudaFree (b);
  return 2.0 * bytes / (ms * 1e6);
}

static void
print_row (const char *what, int depth, int frames, const row_result &r,
    const char *target)
{
  printf ("| %d | %d | %s | %s | %.1f | %.1f | %.2f | %s | %s |\n", depth,
      frames, what, r.algorithm, r.us, r.floor_us,
      r.us > 0 ? r.us / r.floor_us : 0.0, target,
      r.checked < 0 ? "-" : r.checked ? "yes" : "NO");
}

int
main (int argc, char **argv)
{
  bench_opts o;
  bench_timer t;

  bench_start (argc, argv, &o, parse, usage);
  if (o.channels != 1 && o.channels != 4) {
    usage (argv[0]);
    return 2;
  }
  bench_timer_init (t, o.timing_call);
  const double gbps = copy_bandwidth (t, 3, 21);

  printf ("timing: %s\n", bench_timing_name (t));
  printf ("frame %dx%d x%d channel(s), percentile %g, output %s, median of "
      "%d pushes after %d warm-up pushes, the window full\n", o.width,
      o.height, o.channels, o.percentile, cm_temporal_output_name (o.output),
      o.runs, o.warmup);
  printf ("copy bandwidth (1 GiB device to device, read + write): %.0f GB/s;"
      " floor = (frames + 2) frames at that rate\n\n", gbps);
  printf ("| depth | frames | kernel asked | kernel | us / push | floor us "
      "| x floor | target us | equals reference |\n");
  printf ("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int di = 0; di < o.ndepths; di++) {
    const cm_depth depth = (cm_depth) o.depths[di];
    source_frames s;

    if (!make_sources (o, depth, s)) {
      fprintf (stderr, "no source frames\n");
      return 1;
    }
    for (int frames : o.frames) {
      const cm_temporal_tuning tuning = { CM_TEMPORAL_AUTO, 0, 0, 0, 0, 0, 0,
        0
      };
      /* the issue's targets, 3840x2160 8-bit; 16-bit within 2x */
      const double target8 = frames <= 5 ? 40 : frames <= 9 ? 60 :
          frames <= 25 ? 150 : 1500;
      char target[32];

      if (frames < 1 || frames > CM_TEMPORAL_MAX_FRAMES)
        continue;
      snprintf (target, sizeof (target), "%.0f", depth == CM_DEPTH_8 ?
          target8 : 2 * target8);
      print_row ("auto", (int) depth, frames,
          run_row (o, t, depth, frames, tuning, s, gbps, o.check), target);
      if (o.by_slot && frames > CM_TEMPORAL_NETWORK_MAX) {
        const cm_temporal_tuning slot = { CM_TEMPORAL_HISTOGRAM, 0, 0, 0, 0,
          0, 0, 2
        };

        print_row ("ring by slot, histogram", (int) depth, frames,
            run_row (o, t, depth, frames, slot, s, gbps, 0), target);
      }
    }
    if (o.sweep) {
      static const struct
      {
        const char *what;
        cm_temporal_tuning tuning;
        int min_frames, max_frames;
      } forced[] = {
        {"network", {CM_TEMPORAL_NETWORK, 0, 0, 0, 0, 0, 0, 0}, 1, 32},
        {"network unpruned", {CM_TEMPORAL_NETWORK, 0, 2, 0, 0, 0, 0, 0}, 16,
          32},
        {"ring by sample", {CM_TEMPORAL_AUTO, 0, 0, 0, 0, 0, 0, 1}, 1, 32},
        {"ring by slot, histogram", {CM_TEMPORAL_HISTOGRAM, 0, 0, 0, 0, 0,
              0, 2}, 1, 255},
        {"ring by slot, histogram x4", {CM_TEMPORAL_HISTOGRAM, 0, 0, 0, 0, 0,
              1, 2}, 64, 255},
      };
      for (int frames : { 9, 16, 25, 32, 64, 255 })
        for (const auto &f : forced)
          if (frames >= f.min_frames && frames <= f.max_frames)
            print_row (f.what, (int) depth, frames,
                run_row (o, t, depth, frames, f.tuning, s, gbps,
                    o.check && frames <= 64), "-");
    }
    free_sources (s);
  }
  bench_timer_free (t);
  return 0;
}
