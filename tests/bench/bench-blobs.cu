/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Blobs benchmark: device time of cm_blobs_plan_run (CUDA events behind
 * the gate, warm-up, median of --runs), the labels and every blob's
 * statistics with the results in pinned host memory, on photographs
 * tiled to the frame (8-bit PGM files given with --image, thresholded at
 * --threshold), 50 % noise (the worst case: the most blobs and merges)
 * and a spiral (one blob of many turns), at 3840x2160 and 1920x1080
 * (or --size). Each frame: 8-connectivity with the element's defaults
 * (max_blobs 256, no output), 8-connectivity with every blob reported
 * and the labels written, and 4-connectivity; with --check the results
 * are compared with the reference (blobs-ref.c).
 *
 * NPP side by side on the same binary frame (thresholded on the host, not
 * timed): nppiLabelMarkersUF_8u32u_C1R (labels only, no statistics: NPP
 * has none), and with nppiCompressMarkerLabelsUF_32u_C1IR (consecutive
 * labels; it returns their count to the host, so that pair is timed as a
 * call). NPP labels regions of equal value, the background's too.
 * --steps: the time of each step of blobs.cu (differences of runs that
 * stop after it), under the every-blob-with-labels variant and the
 * 4-connected one. --dump DIR: each frame as DIR/<image>-<size>.pgm and
 * our areas of its blobs (all of them, in the order) as
 * DIR/<image>-<size>.areas (8-connectivity) and .areas4
 * (4-connectivity), which bench-blobs-peers.py compares with its
 * peers'. NPP's columns: 8-connected labels (nppiNormInf) on the
 * 8-connectivity rows, 4-connected (nppiNormL1) on the 4-connectivity
 * row.
 *
 * --tunings: the element's defaults also under other tunings (tiles of
 * 4 or 16 rows; the merge's finds halving or reading only, whatever
 * the L2; plain launches). --timing call: every column in call latency
 * (events around each call on an idle stream, the host's launches
 * included), as NPP's label+compress column always is, for a
 * like-for-like ratio with it.
 *
 * --streams S: device throughput instead of one run's time, as S
 * pipelines in one process load the device: S plans, each on its own
 * stream and its own copy of the frame, 32 frames queued on each behind
 * the gate; the interval from the gate's opening to the last stream's end
 * divided by the S x 32 frames is the device time a frame costs among
 * them (median of 5, after a warm-up), under the defaults and with plain
 * launches (with --tunings also tiles of 4 and 16 rows), and with
 * --steps step by step (each step's share of that cost: differences of
 * runs that stop after it); --timing call does not apply to it.
 *
 *   bench-blobs [--image a.pgm ...] [--size WxH] [--threshold 128]
 *               [--runs 31] [--check] [--steps] [--tunings] [--dump DIR]
 *               [--timing gated|call] [--streams S] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "bench-common.cuh"
#include "blobs/blobs.h"
#include "device.h"
extern "C" {
#include "blobs-cases.h"
#include "test-util.h"
}
#if BENCH_NPP
#include <nppi.h>
#endif

/* the image tiled over @w x @h */
static cm_image
tiled (const bench_photo &img, int w, int h)
{
  cm_image f = test_image_new (w, h, CM_DEPTH_8, 0);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      ((uint8_t *) f.data)[(size_t) y * f.pitch + x] =
          img.px[(size_t) (y % img.h) * img.w + x % img.w];
  return f;
}

struct variant
{
  const char *what;
  int conn;
  uint32_t max_blobs;
  cm_blobs_output output;
  cm_blobs_tuning tuning;
};

/* the element's defaults first; then every blob with the labels; then
 * 4-connectivity; then the defaults under other tunings */
static const variant variants[] = {
  {"8-conn, max 256", 8, 256, CM_BLOBS_OUTPUT_NONE, {0, 0, 0, 0}},
  {"8-conn, all + labels", 8, 0, CM_BLOBS_OUTPUT_LABELS, {0, 0, 0, 0}},
  {"4-conn, max 256", 4, 256, CM_BLOBS_OUTPUT_NONE, {0, 0, 0, 0}},
  {"8-conn, max 256, tiles of 4 rows", 8, 256, CM_BLOBS_OUTPUT_NONE,
      {4, 0, 0, 0}},
  {"8-conn, max 256, tiles of 16 rows", 8, 256, CM_BLOBS_OUTPUT_NONE,
      {16, 0, 0, 0}},
  /* the merge's finds forced either way (the plan chooses by the L2) */
  {"8-conn, max 256, merge halving", 8, 256, CM_BLOBS_OUTPUT_NONE,
      {0, 0, 1, 0}},
  {"8-conn, max 256, merge reading only", 8, 256, CM_BLOBS_OUTPUT_NONE,
      {0, 0, 2, 0}},
  {"8-conn, max 256, plain launches", 8, 256, CM_BLOBS_OUTPUT_NONE,
      {0, 0, 0, 1}},
};

/* The plan's description of @v at threshold @thr */
static cm_blobs_desc
desc_of (const variant &v, uint32_t thr)
{
  cm_blobs_desc d;

  memset (&d, 0, sizeof (d));
  d.threshold = thr;
  d.connectivity = v.conn;
  d.min_area = 1;
  d.max_blobs = v.max_blobs;
  d.output = v.output;
  return d;
}

/* DIR/<name>-<w>x<h>.pgm: the frame; <suffix>: "threshold T total N",
 * then the N areas in the order */
static void
dump_frame (const char *dir, const std::string &name, const cm_image *f,
    uint32_t threshold, const cm_blobs_results *res, const char *suffix)
{
  std::string base = std::string (dir) + "/" + name + "-" +
      std::to_string (f->width) + "x" + std::to_string (f->height);
  FILE *o;

  for (char &c : base)
    if (c == ' ' || c == '%')
      c = '_';
  o = fopen ((base + ".pgm").c_str (), "wb");
  if (o) {
    fprintf (o, "P5 %d %d 255\n", f->width, f->height);
    for (int y = 0; y < f->height; y++)
      fwrite ((const uint8_t *) f->data + (size_t) y * f->pitch, 1,
          f->width, o);
    fclose (o);
  }
  o = fopen ((base + suffix).c_str (), "w");
  if (o) {
    fprintf (o, "threshold %u total %u\n", threshold, res->total);
    for (uint32_t i = 0; i < res->count; i++)
      fprintf (o, "%llu\n", (unsigned long long) res->area[i]);
    fclose (o);
  }
}

/* dump_frame of every blob of @src (device) at @connectivity, into
 * .areas<connectivity> */
static void
dump_all (const char *dir, const std::string &name, const cm_image *f,
    const cm_image *src, uint32_t threshold, int connectivity,
    cudaStream_t stream)
{
  cm_blobs_desc d;
  cm_blobs_plan *plan = NULL;
  const std::string suffix = ".areas" + std::to_string (connectivity);

  memset (&d, 0, sizeof (d));
  d.threshold = threshold;
  d.connectivity = connectivity;
  if (cm_blobs_plan_new (&plan, &d, f->width, f->height, CM_DEPTH_8) !=
      CM_OK || cm_blobs_plan_run (plan, src, NULL, stream) != CM_OK)
    return;
  CK (cudaStreamSynchronize (stream));
  dump_frame (dir, name, f, threshold, cm_blobs_plan_results (plan),
      suffix.c_str ());
  cm_blobs_plan_free (plan);
}

static const char *step_names[] = {
  "label tiles", "merge tiles", "tile roots compressed", "rank roots",
  "filters", "cut", "count cut", "places", "results", "output"
};
#define NSTEPS ((int) (sizeof (step_names) / sizeof (step_names[0])))

#define THROUGHPUT_FRAMES 32    /* queued on each stream a measurement   */

/* --streams: the device time (us) a frame of @src costs when @nstreams
 * plans of @d under @tu run it at once, each on its own stream and copy
 * of the frame (module comment); < 0 when a plan is refused */
static double
throughput_us (bench_timer &t, const cm_blobs_desc &d,
    const cm_blobs_tuning &tu, const cm_image &src, int nstreams)
{
  const int w = src.width, h = src.height;
  std::vector<cm_blobs_plan *> plans (nstreams, nullptr);
  std::vector<cudaStream_t> streams (nstreams);
  std::vector<cudaEvent_t> done (nstreams);
  std::vector<cm_image> srcs;
  cudaEvent_t go;
  bool ok = true;
  double ms = -1;

  CK (cudaEventCreateWithFlags (&go, cudaEventDisableTiming));
  for (int s = 0; s < nstreams; s++) {
    ok = ok && cm_blobs_plan_new_tuned (&plans[s], &d, w, h, CM_DEPTH_8,
        &tu) == CM_OK;
    CK (cudaStreamCreateWithFlags (&streams[s], cudaStreamNonBlocking));
    CK (cudaEventCreateWithFlags (&done[s], cudaEventDisableTiming));
    srcs.push_back (bench_device_image (w, h, CM_DEPTH_8));
    CK (cudaMemcpy2D (srcs[s].data, srcs[s].pitch, src.data, src.pitch,
            (size_t) w, (size_t) h, cudaMemcpyDeviceToDevice));
  }
  /* one measurement: the streams start behind the timer's stream (so
   * behind its gate) and it waits for their ends */
  if (ok)
    ms = time_median (t, 1, 5, [&] () {
          bool run_ok = cudaEventRecord (go, t.stream) == cudaSuccess;

          for (int s = 0; s < nstreams; s++)
            CK (cudaStreamWaitEvent (streams[s], go, 0));
          for (int f = 0; run_ok && f < THROUGHPUT_FRAMES; f++)
            for (int s = 0; run_ok && s < nstreams; s++)
              run_ok = cm_blobs_plan_run (plans[s], &srcs[s], NULL,
                  streams[s]) == CM_OK;
          for (int s = 0; s < nstreams; s++) {
            CK (cudaEventRecord (done[s], streams[s]));
            CK (cudaStreamWaitEvent (t.stream, done[s], 0));
          }
          return run_ok;}, NULL, 0);
  for (int s = 0; s < nstreams; s++) {
    cm_blobs_plan_free (plans[s]);
    CK (cudaStreamDestroy (streams[s]));
    CK (cudaEventDestroy (done[s]));
    cm_device_free (srcs[s].data);
  }
  CK (cudaEventDestroy (go));
  return ms < 0 ? -1 : 1e3 * ms / ((double) nstreams * THROUGHPUT_FRAMES);
}

/* --streams: the throughput rows of a frame (module comment): the
 * defaults and plain launches, and with @tunings the other tiles */
static void
throughput_rows (bench_timer &t, const std::string &name, const cm_image &src,
    uint32_t thr, int nstreams, int steps, int tunings)
{
  /* the defaults, plain launches; then tiles of 4 and 16 rows */
  static const variant *const which[] = { &variants[0], &variants[7],
    &variants[3], &variants[4]
  };
  const int n = tunings ? 4 : 2;

  for (int i = 0; i < n; i++) {
    const variant *v = which[i];
    const cm_blobs_desc d = desc_of (*v, thr);
    double one, many;

    one = throughput_us (t, d, v->tuning, src, 1);
    many = throughput_us (t, d, v->tuning, src, nstreams);
    printf ("| %s | %dx%d | %s | %.1f | %.1f |", name.c_str (), src.width,
        src.height, v->what, one, many);
    if (steps) {
      double prev = 0;

      for (int k = 1; k < NSTEPS; k++) {      /* no output image here */
        cm_blobs_tuning tu = v->tuning;
        double us;

        tu.steps = k;
        us = throughput_us (t, d, tu, src, nstreams);
        printf ("%s %s %.1f", k > 1 ? "," : "", step_names[k - 1],
            us - prev);
        prev = us;
      }
    }
    printf (" |\n");
    fflush (stdout);
  }
}

int
main (int argc, char **argv)
{
  std::vector<bench_photo> images;
  std::vector<std::pair<int, int>> sizes = { {3840, 2160}, {1920, 1080} };
  int runs = 31, check = 0, steps = 0, tunings = 0, call = 0, streams = 0;
  const char *dump = NULL;
  uint32_t threshold = 128;
  cudaDeviceProp prop;
  bench_timer t;

  for (int i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--image") && i + 1 < argc) {
      if (!bench_add_photo (argv[++i], images))
        return 2;
    } else if (!strcmp (argv[i], "--size") && i + 1 < argc) {
      int w, h;

      if (sscanf (argv[++i], "%dx%d", &w, &h) != 2 || w < 1 || h < 1)
        return 2;
      sizes = { {w, h} };
    } else if (!strcmp (argv[i], "--runs") && i + 1 < argc) {
      runs = atoi (argv[++i]);
    } else if (!strcmp (argv[i], "--threshold") && i + 1 < argc) {
      threshold = (uint32_t) atoi (argv[++i]);
    } else if (!strcmp (argv[i], "--check")) {
      check = 1;
    } else if (!strcmp (argv[i], "--steps")) {
      steps = 1;
    } else if (!strcmp (argv[i], "--tunings")) {
      tunings = 1;
    } else if (!strcmp (argv[i], "--dump") && i + 1 < argc) {
      dump = argv[++i];
    } else if (!strcmp (argv[i], "--timing") && i + 1 < argc) {
      if ((call = bench_parse_timing (argv[++i])) < 0)
        return 2;
    } else if (!strcmp (argv[i], "--streams") && i + 1 < argc) {
      if ((streams = atoi (argv[++i])) < 1 || streams > 64)
        return 2;
    } else {
      fprintf (stderr, "usage: %s [--image a.pgm ...] [--size WxH] "
          "[--threshold T] [--runs N] [--check] [--steps] [--tunings] "
          "[--dump DIR] [--timing gated|call] [--streams S]\n",
          argv[0]);
      return 2;
    }
  }
  if (runs < 20)
    runs = 20;
  if (int rc = bench_open_device (0, &prop))
    return rc;
  bench_timer_init (t, call);
  {
    bench_photo noise, spiral;
    test_rng r;

    /* 50 % noise at the threshold 128 */
    noise.name = "noise 50%";
    spiral.name = "spiral";
    noise.w = spiral.w = 3840;
    noise.h = spiral.h = 2160;
    noise.px.resize ((size_t) 3840 * 2160);
    test_rng_seed (&r, 50);
    for (auto &v : noise.px)
      v = (uint8_t) test_rng_next (&r);
    images.push_back (noise);
    images.push_back (spiral);
  }

  printf ("timing: %s\nmedian of %d runs after 5 warm-up runs; photographs "
      "thresholded at >= %u, noise at >= 128; statistics of every blob, "
      "results in pinned host memory\n\n", bench_timing_name (t), runs,
      threshold);
  if (streams) {
    printf ("device throughput: %d frames queued on each stream behind the "
        "gate, the gate's opening to the last stream's end over the "
        "frames, median of 5 after a warm-up\n\n", THROUGHPUT_FRAMES);
    printf ("| image | size | variant | us a frame, 1 stream | us a frame, "
        "%d streams%s |\n| --- | --- | --- | --- | --- |\n", streams,
        steps ? " (and its steps)" : "");
  } else {
    printf ("| image | size | variant | blobs (total) | ms | Gpx/s | NPP "
        "label ms | NPP label+compress ms (call) |%s\n",
        check ? " equals CPU |" : "");
    printf ("| --- | --- | --- | --- | --- | --- | --- | --- |%s\n",
        check ? " --- |" : "");
  }

  for (auto &sz : sizes)
    for (const bench_photo &img : images) {
      const int w = sz.first, h = sz.second;
      cm_image hf;
      const uint32_t thr = img.name == "noise 50%" || img.name == "spiral" ?
          128 : threshold;

      if (img.name == "spiral") {
        hf = test_image_new (w, h, CM_DEPTH_8, 0);
        /* a spiral of laps a pixel apart, as in the tests */
        std::vector<uint8_t> on ((size_t) w * h, 0);

        blobs_fill_spiral (on.data (), w, h);
        for (size_t i = 0; i < on.size (); i++)
          ((uint8_t *) hf.data)[i] = on[i] ? 200 : 20;
      } else {
        hf = tiled (img, w, h);
      }
      cm_image src = bench_device_image (w, h, CM_DEPTH_8);
      cm_image dst = bench_device_image (w, h, CM_DEPTH_16);

      bench_copy_image (src, hf, cudaMemcpyHostToDevice);
      if (streams) {
        throughput_rows (t, img.name, src, thr, streams, steps, tunings);
        cm_device_free (src.data);
        cm_device_free (dst.data);
        test_image_free (&hf);
        continue;
      }

      /* NPP on the binary frame */
      double npp_ms = -1, npp_c_ms = -1, npp4_ms = -1, npp4_c_ms = -1;
#if BENCH_NPP
      {
        std::vector<uint8_t> bin ((size_t) w * h);
        Npp8u *nsrc, *buf, *cbuf;
        Npp32u *lab;
        int bsize = 0, csize = 0, count = 0;
        const NppiSize roi = { w, h };
        NppStreamContext ctx;

        for (int y = 0; y < h; y++)
          for (int x = 0; x < w; x++)
            bin[(size_t) y * w + x] = ((uint8_t *) hf.data)[(size_t) y *
                hf.pitch + x] >= thr ? 255 : 0;
        npp_context (&ctx, t.stream);
        CK (cudaMalloc (&nsrc, (size_t) w * h));
        CK (cudaMalloc (&lab, (size_t) w * h * 4));
        CK (cudaMemcpy (nsrc, bin.data (), bin.size (),
                cudaMemcpyHostToDevice));
        if (nppiLabelMarkersUFGetBufferSize_32u_C1R (roi, &bsize) ==
            NPP_SUCCESS && nppiCompressMarkerLabelsGetBufferSize_32u_C1R (w *
                h, &csize) == NPP_SUCCESS) {
          CK (cudaMalloc (&buf, bsize));
          CK (cudaMalloc (&cbuf, csize));
          /* under @norm: the labels alone, then with their compression */
          auto time_labels = [&] (NppiNorm norm, double *label_ms,
              double *compressed_ms) {
            *label_ms = time_median (t, 5, runs, [&] () {
                  return nppiLabelMarkersUF_8u32u_C1R_Ctx (nsrc, w, lab,
                      w * 4, roi, norm, buf, ctx) == NPP_SUCCESS;});
            *compressed_ms = time_median (t, 5, runs, [&] () {
                  return nppiLabelMarkersUF_8u32u_C1R_Ctx (nsrc, w, lab,
                      w * 4, roi, norm, buf, ctx) == NPP_SUCCESS &&
                  nppiCompressMarkerLabelsUF_32u_C1IR_Ctx (lab, w * 4, roi,
                      w * h, &count, cbuf, ctx) == NPP_SUCCESS;}, NULL, 1);
          };

          time_labels (nppiNormInf, &npp_ms, &npp_c_ms);      /* 8-connected */
          time_labels (nppiNormL1, &npp4_ms, &npp4_c_ms);     /* 4-connected */
          CK (cudaFree (buf));
          CK (cudaFree (cbuf));
        }
        CK (cudaFree (nsrc));
        CK (cudaFree (lab));
      }
#endif

      for (const variant &v : variants) {
        if (!tunings && &v - variants >= 3)
          break;
        const cm_blobs_desc d = desc_of (v, thr);
        cm_blobs_plan *plan = NULL;
        const char *eq = "";
        double ms;

        if (cm_blobs_plan_new_tuned (&plan, &d, w, h, CM_DEPTH_8,
                &v.tuning) != CM_OK) {
          fprintf (stderr, "plan refused\n");
          return 1;
        }
        const cm_image *out = v.output ? &dst : NULL;

        ms = time_median (t, 5, runs, [&] () {
              return cm_blobs_plan_run (plan, &src, out, t.stream) ==
              CM_OK;});
        CK (cudaStreamSynchronize (t.stream));
        const cm_blobs_results *res = cm_blobs_plan_results (plan);
        const uint32_t total = res->total;

        if (check) {
          cm_blobs_results want;

          cm_blobs_results_alloc (&want, cm_blobs_capacity (&d, w, h));
          if (v.output) {
            cm_image wi = test_image_new (w, h, CM_DEPTH_16, 0);
            cm_image gi = test_image_new (w, h, CM_DEPTH_16, 0);

            bench_copy_image (gi, dst, cudaMemcpyDeviceToHost);
            eq = cm_blobs_ref (&d, &hf, &wi, &want) == CM_OK &&
                blobs_results_equal (res, &want, img.name.c_str ()) &&
                test_image_equal (&gi, &wi, "labels") ? " yes |" : " NO |";
            test_image_free (&wi);
            test_image_free (&gi);
          } else {
            eq = cm_blobs_ref (&d, &hf, NULL, &want) == CM_OK &&
                blobs_results_equal (res, &want, img.name.c_str ()) ?
                " yes |" : " NO |";
          }
          cm_blobs_results_free (&want);
        }
        printf ("| %s | %dx%d | %s | %u | %.3f | %.1f | %.3f | %.3f |%s\n",
            img.name.c_str (), w, h, v.what, total, ms,
            (double) w * h / (ms * 1e6), v.conn == 4 ? npp4_ms : npp_ms,
            v.conn == 4 ? npp4_c_ms : npp_c_ms, eq);
        fflush (stdout);
        if (dump && &v == &variants[1])
          dump_frame (dump, img.name, &hf, thr, res, ".areas");
        if (dump && &v == &variants[2])
          dump_all (dump, img.name, &hf, &src, thr, 4, t.stream);

        if (steps && (&v == &variants[1] || &v == &variants[2])) {
          double prev = 0;

          printf ("| | | steps: ");
          for (int k = 1; k <= NSTEPS; k++) {
            cm_blobs_plan *sp = NULL;
            cm_blobs_tuning tu = v.tuning;
            double sms;

            tu.steps = k;
            if (cm_blobs_plan_new_tuned (&sp, &d, w, h, CM_DEPTH_8, &tu) !=
                CM_OK)
              break;
            sms = time_median (t, 3, runs, [&] () {
                  return cm_blobs_plan_run (sp, &src, out, t.stream) ==
                  CM_OK;});
            printf ("%s %.3f%s", step_names[k - 1], sms - prev,
                k < NSTEPS ? ", " : "");
            prev = sms;
            cm_blobs_plan_free (sp);
          }
          printf (" | | | | | |%s\n", check ? " |" : "");
        }
        cm_blobs_plan_free (plan);
      }
      cm_device_free (src.data);
      cm_device_free (dst.data);
      test_image_free (&hf);
    }
  bench_timer_free (t);
  return 0;
}
