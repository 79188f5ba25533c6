/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench-median: throughput of the CUDA median / rank plans
 * (cm_median_plan_run) on random frames, NVIDIA NPP's median filter
 * (nppiFilterMedian_8u/16u_C1R_Ctx) timed side by side in the same run
 * where the build found NPP (CM_HAVE_NPP).
 *
 *   bench-median [--width W] [--height H] [--depth 8|16|both] [--runs N]
 *                [--warmup K] [--windows 3,5,7,...] [--percentile P]
 *                [--algorithm auto|network|histogram|all]
 *                [--border replicate|reflect|mirror|constant]
 *                [--npp-max-window N] [--csv FILE] [--device ID]
 *                [--compare-old 0|1] [--variants K1,K2,...]
 *                [--timing gated|call]
 *
 * --variants net3,hist16-walk-b16 also times, next to each plan, the
 * plans made with those variants (cm_median_tuning, median.h: net3 = the
 * 3 x 3 shared-memory network instead of the 3 x 3 stream,
 * hist16-walk-b16 = the 16-bit sliding histogram with a band of 16,
 * hist16-walk = the default, net-wide and net-narrow = the square
 * networks' wide or narrow tiles), in rows whose requested algorithm ends in
 * "-K"; a variant that chooses the same kernel as the default gets no
 * row. --compare-old 1 is --variants old: "old" is what remains of the
 * previous kernels, the 3 x 3 network (the first 16-bit histograms are
 * deleted), in rows ending in "-old".
 *
 * Every figure is the median of N (>= 20) runs, each timed with a pair of
 * CUDA events on one stream after K warm-up runs; Gpx/s is width * height /
 * time. Kernel time only (the frames stay on the device): by default the
 * events sit behind a gate kernel so that the host's launch work is not
 * counted (bench-common.cuh); --timing call times each call's latency on
 * an idle stream, as the tables before 2026-11-24 did.
 *
 * NPP does no border handling: it reads the whole window, so it runs on an
 * ROI of exactly width x height inside a source with a margin of the
 * window's reach on every side, the margin filled by replicating the frame
 * (so NPP's output should equal ours with border=replicate: the "npp ==" 
 * column counts differing pixels when the border is replicate and the
 * percentile 50). NPP's median filter gets its scratch from
 * nppiFilterMedianGetBufferSize_*_C1R_Ctx. Large NPP windows are very slow
 * (0.01 Gpx/s at 31x31 on an H200): --npp-max-window (default 31) skips
 * the larger ones, and an NPP case whose first run exceeds 0.5 s is timed
 * over 5 runs only (the run count is printed).
 * This is a benchmark, not a test: it is not registered with meson test. */

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

#include "median/median.h"

#include "bench-common.cuh"
#if BENCH_NPP
#include <nppi_filtering_functions.h>
#endif

/* ---- options ------------------------------------------------------------ */

struct bench_opts : bench_frame_opts
{
  int depths[2] = { 8, 16 };
  int ndepths = 2;
  std::vector<int> windows = { 3, 5, 7, 9, 11, 15, 21, 31, 63 };
  double percentile = 50;
  int algorithms[3] = { CM_MEDIAN_AUTO, 0, 0 };
  int nalgorithms = 1;
  int npp_max_window = 31;
  int compare_old = 0;
  std::vector<std::string> variants;    /* names of bench_variant () */

  bench_opts () : bench_frame_opts (CM_BORDER_REPLICATE) { }
};

/* The tuning of a variant name; false for an unknown name */
static bool
bench_variant (const std::string & name, cm_median_tuning * t)
{
  memset (t, 0, sizeof (*t));
  if (name == "old" || name == "net3")
    t->network3_shared = 1;
  else if (name == "hist16-walk-b16")
    t->hist16_band = 16;
  else if (name == "net-wide")
    t->network_tiles = CM_MEDIAN_TILES_WIDE;
  else if (name == "net-narrow")
    t->network_tiles = CM_MEDIAN_TILES_NARROW;
  else if (name != "hist16-walk")
    return false;
  return true;
}

static void
usage (const char *argv0)
{
  fprintf (stderr,
      "usage: %s [--width W] [--height H] [--depth 8|16|both] [--runs N]\n"
      "          [--warmup K] [--windows 3,5,7,...] [--percentile P]\n"
      "          [--algorithm auto|network|histogram|all]\n"
      "          [--border replicate|reflect|mirror|constant]\n"
      "          [--npp-max-window N] [--csv FILE] [--device ID]\n"
      "          [--compare-old 0|1] [--variants K1,K2,...]\n"
      "          [--timing gated|call]\n"
      "  --timing gated       device time of each run (default); call:\n"
      "                       the latency of each call on an idle stream\n"
      "  --runs N             timed runs per case, median reported (>= 20)\n"
      "  --algorithm all      auto, network and histogram (a forced\n"
      "                       network may be unsupported: reported as such)\n"
      "  --npp-max-window N   time NPP only for windows of side <= N\n"
      "  --compare-old 1      also time the previous 3 x 3 kernel (the\n"
      "                       shared-memory network), rows \"...-old\"\n"
      "  --variants K1,K2     also time the variants K1, K2, ...: net3,\n"
      "                       hist16-walk, hist16-walk-b16\n",
      argv0);
}

/* one option of this benchmark with its value: 0 when unknown or bad */
static int
parse_opt (const char *a, const char *v, bench_opts * o)
{
  if (!strcmp (a, "--depth")) {
    if (!strcmp (v, "both")) {
      o->ndepths = 2;
      o->depths[0] = 8;
      o->depths[1] = 16;
    } else if (!strcmp (v, "8") || !strcmp (v, "16")) {
      o->ndepths = 1;
      o->depths[0] = atoi (v);
    } else {
      fprintf (stderr, "--depth must be 8, 16 or both\n");
      return 0;
    }
  } else if (!strcmp (a, "--windows")) {
    o->windows.clear ();
    for (const char *p = v; *p;) {
      int w = atoi (p);
      if (w < 1 || w % 2 == 0 || w > CM_MEDIAN_MAX_WINDOW) {
        fprintf (stderr, "bad window '%s' (odd, 1..%d)\n", p,
            CM_MEDIAN_MAX_WINDOW);
        return 0;
      }
      o->windows.push_back (w);
      p = strchr (p, ',');
      if (!p)
        break;
      p++;
    }
  } else if (!strcmp (a, "--percentile"))
    o->percentile = atof (v);
  else if (!strcmp (a, "--algorithm")) {
    if (!strcmp (v, "all")) {
      o->nalgorithms = 3;
      o->algorithms[0] = CM_MEDIAN_AUTO;
      o->algorithms[1] = CM_MEDIAN_NETWORK;
      o->algorithms[2] = CM_MEDIAN_HISTOGRAM;
    } else {
      int found = 0;
      for (int k = 0; k < CM_MEDIAN_ALGORITHM_COUNT; k++)
        if (!strcmp (v, cm_median_algorithm_name ((cm_median_algorithm) k))) {
          o->nalgorithms = 1;
          o->algorithms[0] = k;
          found = 1;
        }
      if (!found) {
        fprintf (stderr, "unknown algorithm '%s'\n", v);
        return 0;
      }
    }
  } else if (!strcmp (a, "--npp-max-window"))
    o->npp_max_window = atoi (v);
  else if (!strcmp (a, "--compare-old"))
    o->compare_old = atoi (v) != 0;
  else if (!strcmp (a, "--variants")) {
    o->variants.clear ();
    for (const char *p = v; *p;) {
      const char *e = strchr (p, ',');
      std::string k = e ? std::string (p, e - p) : std::string (p);
      cm_median_tuning t;
      if (!k.empty () && !bench_variant (k, &t)) {
        fprintf (stderr, "unknown variant '%s' (net3, hist16-walk, "
            "hist16-walk-b16)\n", k.c_str ());
        return 0;
      }
      if (!k.empty ())
        o->variants.push_back (k);
      if (!e)
        break;
      p = e + 1;
    }
  } else {
    fprintf (stderr, "unknown option '%s'\n", a);
    return 0;
  }
  return 1;
}

static int
parse_opts (int argc, char **argv, bench_opts * o)
{
  if (!bench_parse_opts (argc, argv, o, usage, parse_opt))
    return 0;
  if (!(o->percentile >= 0 && o->percentile <= 100)) {
    fprintf (stderr, "bad percentile\n");
    return 0;
  }
  return 1;
}

/* ---- timing ------------------------------------------------------------- */

/* bench_timer and time_median (): bench-common.cuh */

/* a host frame of random samples (row-major, no padding) */
static std::vector<uint8_t>
random_frame (int width, int height, int bps)
{
  std::vector<uint8_t> host ((size_t) width * height * bps);
  const uint32_t vmax = bps == 1 ? 255 : 65535;
  for (size_t i = 0; i < (size_t) width * height; i++) {
    uint32_t v = bench_rng_next () % (vmax + 1);
    if (bps == 1)
      host[i] = (uint8_t) v;
    else {
      uint16_t s = (uint16_t) v;
      memcpy (&host[2 * i], &s, 2);
    }
  }
  return host;
}

/* ---- NPP ---------------------------------------------------------------- */

#if BENCH_NPP
/* NPP 12 and 13 differ in the buffer-size type: let the compiler pick. */
template <typename T, typename... A>
static NppStatus
npp_buffer_size (NppStatus (*fn) (NppiSize, NppiSize, T *, A...),
    NppiSize roi, NppiSize mask, size_t *size, NppStreamContext ctx)
{
  T v = 0;
  NppStatus s = fn (roi, mask, &v, ctx);
  *size = (size_t) v;
  return s;
}

/* npp_context (): bench-common.cuh */
#endif

/* ---- main --------------------------------------------------------------- */

int
main (int argc, char **argv)
{
  bench_opts o;
  const cudaDeviceProp prop = bench_start (argc, argv, &o, parse_opts, usage);
  printf ("frame: %dx%d random, percentile %g, border %d, median of %d "
      "runs after %d warm-up\n", o.width, o.height, o.percentile,
      (int) o.border, o.runs, o.warmup);

  bench_timer t;
  bench_timer_init (t, o.timing_call);
  printf ("timing: %s\n", bench_timing_name (t));

  FILE *csv = NULL;
  if (o.csv && !(csv = bench_csv_open (o.csv, "device,width,height,depth,"
              "window,percentile,border,requested,algorithm,ms,gpx_s,"
              "npp_ms,npp_gpx_s,npp_runs,npp_mismatches\n")))
    return 1;

  const double mpx = (double) o.width * o.height / 1e6;
  int failures = 0;
  for (int di = 0; di < o.ndepths; di++) {
    const cm_depth depth = o.depths[di] == 16 ? CM_DEPTH_16 : CM_DEPTH_8;
    const int bps = cm_depth_bytes (depth);
    const size_t row = (size_t) o.width * bps;
    std::vector<uint8_t> frame = random_frame (o.width, o.height, bps);
    cm_image src, dst;

    memset (&src, 0, sizeof (src));
    src.width = o.width;
    src.height = o.height;
    src.depth = depth;
    dst = src;
    CK (cudaMallocPitch (&src.data, &src.pitch, row, o.height));
    CK (cudaMallocPitch (&dst.data, &dst.pitch, row, o.height));
    CK (cudaMemcpy2D (src.data, src.pitch, frame.data (), row, row,
            o.height, cudaMemcpyHostToDevice));

    double copy_ms = time_median (t, o.warmup, o.runs, [&]() {
          return cudaMemcpy2DAsync (dst.data, dst.pitch, src.data,
              src.pitch, row, o.height, cudaMemcpyDeviceToDevice,
              t.stream) == cudaSuccess;
        });
    printf ("\n%d-bit: copy floor (cudaMemcpy2DAsync D2D) %.4f ms, %.1f "
        "Gpx/s, %.0f GB/s read+write\n", o.depths[di], copy_ms,
        mpx / copy_ms, 2.0 * mpx * bps / copy_ms);

#if BENCH_NPP
    /* NPP source: the frame with a replicated margin of the largest window
     * NPP times, so that NPP's ROI is the frame itself */
    int margin = 0;
    for (int w : o.windows)
      if (w <= o.npp_max_window)
        margin = std::max (margin, w / 2);
    const int nw = o.width + 2 * margin, nh = o.height + 2 * margin;
    std::vector<uint8_t> padded ((size_t) nw * nh * bps);
    for (int y = 0; y < nh; y++) {
      int sy = std::min (std::max (y - margin, 0), o.height - 1);
      for (int x = 0; x < nw; x++) {
        int sx = std::min (std::max (x - margin, 0), o.width - 1);
        memcpy (&padded[((size_t) y * nw + x) * bps],
            &frame[((size_t) sy * o.width + sx) * bps], bps);
      }
    }
    void *npp_src = NULL, *npp_dst = NULL;
    size_t npp_spitch = 0, npp_dpitch = 0;
    CK (cudaMallocPitch (&npp_src, &npp_spitch, (size_t) nw * bps, nh));
    CK (cudaMallocPitch (&npp_dst, &npp_dpitch, row, o.height));
    CK (cudaMemcpy2D (npp_src, npp_spitch, padded.data (), (size_t) nw *
            bps, (size_t) nw * bps, nh, cudaMemcpyHostToDevice));
    NppStreamContext ctx;
    npp_context (&ctx, t.stream);
    printf ("NPP: nppiFilterMedian_%s_C1R_Ctx on a %dx%d ROI inside a "
        "source with a replicated margin of %d, windows up to %d "
        "(--npp-max-window)\n", bps == 1 ? "8u" : "16u", o.width, o.height,
        margin, o.npp_max_window);
#endif

    printf ("%-7s %-21s %-22s %10s %9s %10s %9s %6s %9s\n", "window",
        "requested", "algorithm", "ms", "Gpx/s", "NPP ms", "NPP Gpx/s",
        "runs", "npp ==");
    for (int w : o.windows) {
      /* NPP once per window, our algorithms next to it */
      double nms = -1;
      int nruns = 0;
      long mismatches = -1;
      char npp_ms[32] = "-", npp_gpx[32] = "-", npp_runs[16] = "-";
#if BENCH_NPP
      if (w <= o.npp_max_window && w > 1) {
        NppiSize roi = { o.width, o.height };
        NppiSize mask = { w, w };
        NppiPoint anchor = { w / 2, w / 2 };
        size_t bsize = 0;
        NppStatus s;
        const uint8_t *nsrc = (const uint8_t *) npp_src +
            (size_t) margin * npp_spitch + (size_t) margin * bps;
        if (bps == 1)
          s = npp_buffer_size (nppiFilterMedianGetBufferSize_8u_C1R_Ctx, roi,
              mask, &bsize, ctx);
        else
          s = npp_buffer_size (nppiFilterMedianGetBufferSize_16u_C1R_Ctx,
              roi, mask, &bsize, ctx);
        Npp8u *buf = NULL;
        if (s == NPP_SUCCESS)
          CK (cudaMalloc ((void **) &buf, bsize ? bsize : 1));
        NppStatus last = s;
        auto fn = [&]() {
          if (bps == 1)
            last = nppiFilterMedian_8u_C1R_Ctx ((const Npp8u *) nsrc,
                (Npp32s) npp_spitch, (Npp8u *) npp_dst, (Npp32s) npp_dpitch,
                roi, mask, anchor, buf, ctx);
          else
            last = nppiFilterMedian_16u_C1R_Ctx ((const Npp16u *) nsrc,
                (Npp32s) npp_spitch, (Npp16u *) npp_dst,
                (Npp32s) npp_dpitch, roi, mask, anchor, buf, ctx);
          return last >= NPP_SUCCESS;   /* warnings are > 0 */
        };
        if (s == NPP_SUCCESS) {
          double first = 0;
          /* probe one run to size the run count */
          nms = time_median (t, 1, 1, fn, &first);
          nruns = first > 500.0 ? 5 : o.runs;
          if (nms >= 0)
            nms = time_median (t, first > 500.0 ? 1 : o.warmup, nruns, fn);
        }
        if (nms >= 0) {
          snprintf (npp_ms, sizeof (npp_ms), "%.4f", nms);
          snprintf (npp_gpx, sizeof (npp_gpx), "%.2f", mpx / nms);
          snprintf (npp_runs, sizeof (npp_runs), "%d", nruns);
        } else {
          snprintf (npp_ms, sizeof (npp_ms), "failed:%d", (int) last);
        }
        CK (cudaStreamSynchronize (t.stream));
        cudaFree (buf);
      } else if (w > 1)
        snprintf (npp_ms, sizeof (npp_ms), "skipped");
#endif
      /* rows of one algorithm: the default kernels, then "old", then the
       * variants (bench_variant) */
      std::vector<std::string> kernels (1, std::string ());
      if (o.compare_old)
        kernels.push_back ("old");
      kernels.insert (kernels.end (), o.variants.begin (), o.variants.end ());
      const int nk = (int) kernels.size ();
      for (int ri = 0; ri < o.nalgorithms * nk; ri++) {
        const int ai = ri / nk;
        const int old = ri % nk;        /* 0: the default kernels */
        static char new_algo[64];
        cm_median_desc d;
        memset (&d, 0, sizeof (d));
        d.window_w = d.window_h = w;
        d.percentile = o.percentile;
        d.border = o.border;
        d.border_value = 0;
        d.algorithm = (cm_median_algorithm) o.algorithms[ai];
        char req[48];
        char wname[16];
        snprintf (req, sizeof (req), "%s%s%s",
            cm_median_algorithm_name (d.algorithm), old ? "-" : "",
            kernels[old].c_str ());
        snprintf (wname, sizeof (wname), "%dx%d", w, w);

        cm_median_plan *plan = NULL;
        cm_median_tuning tuning;
        memset (&tuning, 0, sizeof (tuning));
        if (old)
          bench_variant (kernels[old], &tuning);
        cm_status st = cm_median_plan_new_tuned (&plan, &d, o.width,
            o.height, depth, &tuning);
        if (!old)
          new_algo[0] = 0;
        if (st == CM_OK && old &&
            !strcmp (cm_median_plan_algorithm (plan), new_algo)) {
          cm_median_plan_free (plan);   /* the same kernel: no row */
          continue;
        }
        if (st == CM_OK && !old)
          snprintf (new_algo, sizeof (new_algo), "%s",
              cm_median_plan_algorithm (plan));
        if (st == CM_ERR_UNSUPPORTED) {
          printf ("%-7s %-10s %-18s (not supported by this algorithm)\n",
              wname, req, "-");
          continue;
        }
        if (st != CM_OK) {
          printf ("%-7s %-10s plan failed: %s\n", wname, req,
              cm_status_string (st));
          failures++;
          continue;
        }
        const char *algo = cm_median_plan_algorithm (plan);
        cm_status run_st = CM_OK;
        double ms = time_median (t, o.warmup, o.runs, [&]() {
              run_st = cm_median_plan_run (plan, &src, &dst, t.stream);
              return run_st == CM_OK;
            });
        if (ms < 0) {
          printf ("%-7s %-10s %-18s run failed: %s\n", wname, req, algo,
              cm_status_string (run_st));
          failures++;
          cm_median_plan_free (plan);
          continue;
        }
#if BENCH_NPP
        /* same samples, same definition: compare with NPP's last output */
        mismatches = -1;
        if (nms >= 0 && o.border == CM_BORDER_REPLICATE &&
            cm_median_rank (&d) == (w * w - 1) / 2) {
          std::vector<uint8_t> a (row * o.height), b (row * o.height);
          CK (cudaStreamSynchronize (t.stream));
          CK (cudaMemcpy2D (a.data (), row, dst.data, dst.pitch, row,
                  o.height, cudaMemcpyDeviceToHost));
          CK (cudaMemcpy2D (b.data (), row, npp_dst, npp_dpitch, row,
                  o.height, cudaMemcpyDeviceToHost));
          mismatches = 0;
          for (size_t i = 0; i < (size_t) o.width * o.height; i++)
            mismatches += memcmp (&a[i * bps], &b[i * bps], bps) != 0;
        }
#endif
        char mm[24] = "-";
        if (mismatches >= 0)
          snprintf (mm, sizeof (mm), "%ld", mismatches);
        printf ("%-7s %-21s %-22s %10.4f %9.1f %10s %9s %6s %9s\n", wname,
            req, algo, ms, mpx / ms, ri == 0 ? npp_ms : "",
            ri == 0 ? npp_gpx : "", ri == 0 ? npp_runs : "", mm);
        fflush (stdout);
        if (csv) {
          fprintf (csv, "\"%s\",%d,%d,%d,%d,%g,%d,%s,%s,%.5f,%.3f,",
              prop.name, o.width, o.height, o.depths[di], w, o.percentile,
              (int) o.border, req, algo, ms, mpx / ms);
          if (nms >= 0)
            fprintf (csv, "%.5f,%.4f,%d,", nms, mpx / nms, nruns);
          else
            fprintf (csv, ",,,");
          if (mismatches >= 0)
            fprintf (csv, "%ld\n", mismatches);
          else
            fprintf (csv, "\n");
        }
        cm_median_plan_free (plan);
      }
    }
#if BENCH_NPP
    cudaFree (npp_src);
    cudaFree (npp_dst);
#endif
    cudaFree (src.data);
    cudaFree (dst.data);
  }
  if (csv)
    fclose (csv);
  bench_timer_free (t);
  return failures ? 1 : 0;
}
