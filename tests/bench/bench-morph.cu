/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench-morph: throughput of the CUDA morphology plans (cm_morph_plan_run)
 * on random frames, with NVIDIA NPP's general erosion/dilation timed side
 * by side where the build found NPP (CM_HAVE_NPP).
 *
 *   bench-morph [--width W] [--height H] [--depth 8|16] [--runs N]
 *               [--warmup K] [--filter SUBSTRING] [--csv FILE]
 *               [--border neutral|replicate|reflect|mirror|constant]
 *               [--npp-max-mask N] [--device ID] [--compare]
 *               [--timing gated|call] [--paths auto|legacy]
 *               [--rows auto|tile|pwin] [--vtile N] [--htile N]
 *               [--cmax N] [--diag grid,checked,flip] [--pwin-parts N]
 *               [--no-pdl]
 *
 * Every figure is the median of N (>= 20) runs, each timed with a pair of
 * CUDA events on one stream after K warm-up runs: by default the device
 * time of the run (the events behind a gate kernel, bench-common.cuh), with
 * the call latency on an idle stream (host work included, the only figure
 * of the tables before 2026-11-24) in the "call ms" column; --timing call
 * makes the call latency the main figure. Gpx/s is width * height / time.
 * NPP's erode/dilate read the mask's whole window and do no border
 * handling: it gets a source with a margin of the mask's
 * reach on every side and an ROI of exactly width x height, so it is timed
 * on the same pixel count. It is the general masked filter (no rectangle
 * fast path) and its dilation does not reflect the mask, which changes
 * nothing for the symmetric masks timed here except the lines' direction.
 * --compare adds, under every case whose plan takes a new path, a row
 * "(legacy)" timed on the path the plan took before it (--paths legacy,
 * cm_morph_tuning in cuda/morph/morph.h): the separable passes for the
 * centred 3 x 3, the per-lane line kernel for diagonals. The other
 * options fill the plans' cm_morph_tuning (every plan, the compared ones
 * included): --paths legacy for every plan (then --compare adds nothing),
 * --rows tile|pwin the row kernel, --vtile/--htile the tiles of the
 * vertical and horizontal passes, --cmax the chunk cap, --diag the
 * diagonals' tile layout, store checks and strip order, --pwin-parts the
 * parts per row of the two-window kernel, --no-pdl plain launches. They
 * replace the environment variables of the records in docs/bench/history.md
 * (the mapping is there, "Benchmark options for the former environment").
 * This is a benchmark, not a test: it is not registered with meson test. */

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "device.h"
#include "morph/morph.h"
#include "morph/se.h"

#include "bench-common.cuh"
#if BENCH_NPP
#include <nppi_morphological_operations.h>
#endif

/* ---- options ------------------------------------------------------------ */

struct bench_opts : bench_frame_opts
{
  cm_depth depth = CM_DEPTH_8;
  const char *filter = NULL;
  long npp_max_mask = 4096;
  int compare = 0;
  cm_morph_tuning tuning = { };

  bench_opts () : bench_frame_opts (CM_BORDER_NEUTRAL) { }
};

static void
usage (const char *argv0)
{
  fprintf (stderr,
      "usage: %s [--width W] [--height H] [--depth 8|16] [--runs N]\n"
      "          [--warmup K] [--filter SUBSTRING] [--csv FILE]\n"
      "          [--border neutral|replicate|reflect|mirror|constant]\n"
      "          [--npp-max-mask N] [--device ID] [--compare]\n"
      "          [--timing gated|call] [--paths auto|legacy]\n"
      "          [--rows auto|tile|pwin] [--vtile N] [--htile N] [--cmax N]\n"
      "          [--diag grid,checked,flip] [--pwin-parts N] [--no-pdl]\n"
      "  --runs N          timed runs per case, median reported (>= 20)\n"
      "  --compare         also time the former path (--paths legacy) of\n"
      "                    every case whose plan takes a new one\n"
      "  --npp-max-mask N  time NPP only for masks of <= N pixels\n"
      "                    (NPP's cost grows with the mask area)\n"
      "  --timing gated     device time of each run (default); call: the\n"
      "                    latency of each call on an idle stream\n"
      "  --paths legacy    the former paths (3x3 separable, diagonals by\n"
      "                    the per-lane line kernel) for every plan\n"
      "  --rows tile|pwin  every row on the vHGW tile kernel, or on the\n"
      "                    two-window kernel wherever it applies\n"
      "  --vtile N         rows per block of the vertical, diagonal passes\n"
      "  --htile N         columns per block of the horizontal tile pass\n"
      "  --cmax N          cap on the chunk C (64: diagonals take C = 64)\n"
      "  --diag LIST       diagonals: grid (tiles on the fixed grid of rows),\n"
      "                    checked (checked stores everywhere), flip (other\n"
      "                    order of strips), comma-separated\n"
      "  --pwin-parts N    parts per row of the two-window kernel\n"
      "  --no-pdl          no programmatic dependent launches\n", argv0);
}

/* the tuning options with a value: 1 when taken */
static int
parse_tuning (const char *a, const char *v, cm_morph_tuning * t)
{
  static const bench_int_opt<cm_morph_tuning> ints[] = {
    {"--vtile", &cm_morph_tuning::vtile},
    {"--htile", &cm_morph_tuning::htile},
    {"--cmax", &cm_morph_tuning::cmax},
    {"--pwin-parts", &cm_morph_tuning::pwin_parts},
    {"--runs-rows", &cm_morph_tuning::runs_rows},
  };

  if (!strcmp (a, "--paths")) {
    if (strcmp (v, "auto") && strcmp (v, "legacy"))
      return 0;
    t->paths = strcmp (v, "legacy") ? CM_MORPH_PATHS_AUTO :
        CM_MORPH_PATHS_LEGACY;
  } else if (!strcmp (a, "--rows")) {
    if (!strcmp (v, "auto"))
      t->rows = CM_MORPH_ROWS_AUTO;
    else if (!strcmp (v, "tile"))
      t->rows = CM_MORPH_ROWS_TILE;
    else if (!strcmp (v, "pwin"))
      t->rows = CM_MORPH_ROWS_PWIN;
    else
      return 0;
  } else if (bench_parse_int_opt (ints, a, v, t))
    return 1;
  else if (!strcmp (a, "--diag")) {
    t->diag_grid = strstr (v, "grid") != NULL;
    t->diag_checked = strstr (v, "checked") != NULL;
    t->diag_flip = strstr (v, "flip") != NULL;
  } else
    return 0;
  return 1;
}

/* the options without a value: 1 when taken */
static int
parse_flag (const char *a, bench_opts * o)
{
  if (!strcmp (a, "--compare"))
    o->compare = 1;
  else if (!strcmp (a, "--no-pdl"))
    o->tuning.no_pdl = 1;
  else
    return 0;
  return 1;
}

/* one option of this benchmark with its value: 0 when unknown or bad */
static int
parse_opt (const char *a, const char *v, bench_opts * o)
{
  if (!strcmp (a, "--depth")) {
    int d = atoi (v);
    if (d != 8 && d != 16) {
      fprintf (stderr, "--depth must be 8 or 16\n");
      return 0;
    }
    o->depth = d == 16 ? CM_DEPTH_16 : CM_DEPTH_8;
  } else if (!strcmp (a, "--filter"))
    o->filter = v;
  else if (!strcmp (a, "--npp-max-mask"))
    o->npp_max_mask = atol (v);
  else if (!parse_tuning (a, v, &o->tuning)) {
    fprintf (stderr, "unknown option or value '%s %s'\n", a, v);
    return 0;
  }
  return 1;
}

static int
parse_opts (int argc, char **argv, bench_opts * o)
{
  return bench_parse_opts (argc, argv, o, usage, parse_opt, parse_flag);
}

/* ---- cases -------------------------------------------------------------- */

struct bench_case
{
  char name[64];
  cm_morph_op op;
  cm_se *se;
};

static void
add_case (std::vector<bench_case> &v, cm_morph_op op, cm_status st,
    cm_se * se, const char *fmt_name)
{
  bench_case c;
  if (st != CM_OK || !se) {
    fprintf (stderr, "cannot build SE for '%s': %s\n", fmt_name,
        cm_status_string (st));
    return;
  }
  snprintf (c.name, sizeof (c.name), "%s %s", cm_morph_op_name (op),
      fmt_name);
  c.op = op;
  c.se = se;
  v.push_back (c);
}

static std::vector<bench_case>
make_cases (void)
{
  std::vector<bench_case> v;
  char n[48];
  cm_se *se;
  cm_status st;

  static const int rects[] = { 3, 5, 7, 15, 31, 63, 127, 255 };
  for (int op = CM_MORPH_ERODE; op <= CM_MORPH_DILATE; op++)
    for (int s : rects) {
      snprintf (n, sizeof (n), "rect %dx%d", s, s);
      st = cm_se_new_rect (&se, s, s);
      add_case (v, (cm_morph_op) op, st, se, n);
    }
  for (int op = CM_MORPH_OPEN; op <= CM_MORPH_CLOSE; op++)
    for (int s : { 3, 15, 31, 63, 127, 255 }) {
      snprintf (n, sizeof (n), "rect %dx%d", s, s);
      st = cm_se_new_rect (&se, s, s);
      add_case (v, (cm_morph_op) op, st, se, n);
    }
  for (int len : { 31, 127 })
    for (int a : { 0, 45, 90, 135 }) {
      snprintf (n, sizeof (n), "line %d@%d", len, a);
      st = cm_se_new_line (&se, len, a);
      add_case (v, CM_MORPH_ERODE, st, se, n);
    }
  /* single passes at more lengths: flat in the length? */
  for (int len : { 3, 15, 63, 255 })
    for (int a : { 0, 45, 90, 135 }) {
      snprintf (n, sizeof (n), "line %d@%d", len, a);
      st = cm_se_new_line (&se, len, a);
      add_case (v, CM_MORPH_ERODE, st, se, n);
    }
  for (int len : { 31, 63, 127 })
    for (int a : { 10, 30, 60, 80 }) {
      snprintf (n, sizeof (n), "line %d@%d", len, a);
      st = cm_se_new_line (&se, len, a);
      add_case (v, CM_MORPH_ERODE, st, se, n);
    }
  for (int r : { 3, 7, 15, 31 }) {
    snprintf (n, sizeof (n), "disk r%d", r);
    st = cm_se_new_disk (&se, r);
    add_case (v, CM_MORPH_ERODE, st, se, n);
  }
  st = cm_se_new_diamond (&se, 7);
  add_case (v, CM_MORPH_ERODE, st, se, "diamond r7");
  st = cm_se_new_octagon (&se, 7);
  add_case (v, CM_MORPH_ERODE, st, se, "octagon r7");
  st = cm_se_new_cross (&se, 31, 31);
  add_case (v, CM_MORPH_ERODE, st, se, "cross 31x31");
  {
    /* 15 x 15 random mask, about half set, origin set, fixed seed */
    char mask[15 * 16 + 1];
    int k = 0;
    for (int r = 0; r < 15; r++) {
      for (int c = 0; c < 15; c++)
        mask[k++] = (r == 7 && c == 7) || (bench_rng_next () & 1) ? '1'
            : '0';
      mask[k++] = r < 14 ? ';' : '\0';
    }
    st = cm_se_new_custom (&se, mask);
    add_case (v, CM_MORPH_ERODE, st, se, "custom 15x15");
  }
  st = cm_se_new_line (&se, 31, 30);
  add_case (v, CM_MORPH_TOPHAT, st, se, "line 31@30");
  return v;
}

/* ---- timing ------------------------------------------------------------- */

/* bench_timer and time_median (): bench-common.cuh */

static void
fill_random (void *dev, size_t pitch, int width, int height, cm_depth depth)
{
  const int bps = cm_depth_bytes (depth);
  const uint32_t vmax = cm_depth_max (depth);
  size_t row = (size_t) width * bps;
  std::vector<uint8_t> host (row * height);
  for (size_t i = 0; i < (size_t) width * height; i++) {
    uint32_t v = 1 + bench_rng_next () % vmax;  /* never zero */
    if (bps == 1)
      host[i] = (uint8_t) v;
    else {
      uint16_t s = (uint16_t) v;
      memcpy (&host[2 * i], &s, 2);
    }
  }
  CK (cudaMemcpy2D (dev, pitch, host.data (), row, row, height,
          cudaMemcpyHostToDevice));
}

/* ---- NPP ---------------------------------------------------------------- */

#if BENCH_NPP
struct bench_npp
{
  NppStreamContext ctx;
  void *src_base;               /* frame plus a margin of the mask size */
  size_t src_pitch;
  int margin_x, margin_y;
  void *dst;
  size_t dst_pitch;
};

static void
npp_setup (bench_npp * n, const bench_opts * o, cudaStream_t stream,
    int margin_x, int margin_y)
{
  memset (n, 0, sizeof (*n));
  npp_context (&n->ctx, stream);
  n->margin_x = margin_x;
  n->margin_y = margin_y;
  const int bps = cm_depth_bytes (o->depth);
  int sw = o->width + 2 * margin_x, sh = o->height + 2 * margin_y;
  CK (cudaMallocPitch (&n->src_base, &n->src_pitch, (size_t) sw * bps, sh));
  fill_random (n->src_base, n->src_pitch, sw, sh, o->depth);
  CK (cudaMallocPitch (&n->dst, &n->dst_pitch, (size_t) o->width * bps,
          o->height));
}

static void
npp_teardown (bench_npp * n)
{
  cudaFree (n->src_base);
  cudaFree (n->dst);
}

/* Median ms of NPP's erode/dilate with the SE's mask; < 0 if NPP failed. */
static double
npp_time (bench_npp * n, bench_timer & t, const bench_opts * o,
    const cm_se * se, int dilate)
{
  Npp8u *mask = NULL;
  size_t msize = (size_t) se->width * se->height;
  CK (cudaMalloc ((void **) &mask, msize));
  CK (cudaMemcpy (mask, se->mask, msize, cudaMemcpyHostToDevice));
  const int bps = cm_depth_bytes (o->depth);
  /* ROI origin at the margin: the mask's window stays inside the source */
  const uint8_t *src = (const uint8_t *) n->src_base
      + (size_t) n->margin_y * n->src_pitch + (size_t) n->margin_x * bps;
  NppiSize roi = { o->width, o->height };
  NppiSize msz = { se->width, se->height };
  NppiPoint anchor = { se->origin_x, se->origin_y };
  NppStatus last = NPP_SUCCESS;
  auto fn = [&]() {
    NppStatus s;
    if (o->depth == CM_DEPTH_8)
      s = dilate ? nppiDilate_8u_C1R_Ctx ((const Npp8u *) src,
          (Npp32s) n->src_pitch, (Npp8u *) n->dst, (Npp32s) n->dst_pitch,
          roi, mask, msz, anchor, n->ctx)
          : nppiErode_8u_C1R_Ctx ((const Npp8u *) src, (Npp32s) n->src_pitch,
          (Npp8u *) n->dst, (Npp32s) n->dst_pitch, roi, mask, msz, anchor,
          n->ctx);
    else
      s = dilate ? nppiDilate_16u_C1R_Ctx ((const Npp16u *) src,
          (Npp32s) n->src_pitch, (Npp16u *) n->dst, (Npp32s) n->dst_pitch,
          roi, mask, msz, anchor, n->ctx)
          : nppiErode_16u_C1R_Ctx ((const Npp16u *) src,
          (Npp32s) n->src_pitch, (Npp16u *) n->dst, (Npp32s) n->dst_pitch,
          roi, mask, msz, anchor, n->ctx);
    last = s;
    return s >= NPP_SUCCESS;    /* warnings are > 0 */
  };
  double ms = time_median (t, o->warmup, o->runs, fn);
  if (ms < 0)
    fprintf (stderr, "NPP failed with status %d\n", (int) last);
  CK (cudaStreamSynchronize (t.stream));
  cudaFree (mask);
  return ms;
}
#endif

/* ---- main --------------------------------------------------------------- */

int
main (int argc, char **argv)
{
  bench_opts o;
  const cudaDeviceProp prop = bench_start (argc, argv, &o, parse_opts, usage);
  printf ("frame: %dx%d, %d-bit random (never 0), border %d, median of %d "
      "runs after %d warm-up\n", o.width, o.height, (int) o.depth,
      (int) o.border, o.runs, o.warmup);

  bench_timer t;
  bench_timer_init (t, o.timing_call);
  printf ("timing: %s\n", bench_timing_name (t));

  const int bps = cm_depth_bytes (o.depth);
  cm_image src, dst;
  memset (&src, 0, sizeof (src));
  memset (&dst, 0, sizeof (dst));
  src.width = dst.width = o.width;
  src.height = dst.height = o.height;
  src.depth = dst.depth = o.depth;
  CK (cudaMallocPitch (&src.data, &src.pitch, (size_t) o.width * bps,
          o.height));
  CK (cudaMallocPitch (&dst.data, &dst.pitch, (size_t) o.width * bps,
          o.height));
  fill_random (src.data, src.pitch, o.width, o.height, o.depth);

  const double mpx = (double) o.width * o.height / 1e6;
  double copy_ms = time_median (t, o.warmup, o.runs, [&]() {
        return cudaMemcpy2DAsync (dst.data, dst.pitch, src.data, src.pitch,
            (size_t) o.width * bps, o.height, cudaMemcpyDeviceToDevice,
            t.stream) == cudaSuccess;
      });
  printf ("copy floor (cudaMemcpy2DAsync D2D): %.4f ms, %.1f Gpx/s, "
      "%.0f GB/s read+write\n", copy_ms, mpx / copy_ms,
      2.0 * mpx * bps / copy_ms);
  double kcopy_ms = time_median (t, o.warmup, o.runs, [&]() {
        return cm_copy_2d_async (dst.data, dst.pitch, src.data, src.pitch,
            (size_t) o.width * bps, o.height, CM_COPY_D2D,
            (cm_stream) t.stream) == CM_OK;
      });
  if (kcopy_ms > 0)
    printf ("copy floor (cm_copy_2d_async, a kernel): %.4f ms, %.1f Gpx/s, "
        "%.0f GB/s read+write\n", kcopy_ms, mpx / kcopy_ms,
        2.0 * mpx * bps / kcopy_ms);

  FILE *csv = NULL;
  if (o.csv && !(csv = bench_csv_open (o.csv, "device,width,height,depth,"
              "border,case,algorithm,ms,gpx_s,npp_ms,npp_gpx_s,call_ms\n")))
    return 1;
  if (csv) {
    fprintf (csv, "\"%s\",%d,%d,%d,%d,\"copy D2D\",\"cudaMemcpy2DAsync\","
        "%.5f,%.2f,,,\n", prop.name, o.width, o.height, (int) o.depth,
        (int) o.border, copy_ms, mpx / copy_ms);
    if (kcopy_ms > 0)
      fprintf (csv, "\"%s\",%d,%d,%d,%d,\"copy kernel\",\"cm_copy_2d_async\","
          "%.5f,%.2f,,,\n", prop.name, o.width, o.height, (int) o.depth,
          (int) o.border, kcopy_ms, mpx / kcopy_ms);
  }

  std::vector<bench_case> cases = make_cases ();

#if BENCH_NPP
  /* one source with a margin large enough for every mask that NPP times */
  int mx = 0, my = 0;
  for (auto &c : cases)
    if ((c.op == CM_MORPH_ERODE || c.op == CM_MORPH_DILATE)
        && c.se->count <= o.npp_max_mask) {
      mx = std::max (mx, c.se->width);
      my = std::max (my, c.se->height);
    }
  bench_npp npp;
  npp_setup (&npp, &o, t.stream, mx, my);
  printf ("NPP: nppiErode/nppiDilate_%s_C1R_Ctx on an ROI of %dx%d (the "
      "same pixel count) inside a source with a %d x %d margin, masks up to "
      "%ld pixels (--npp-max-mask)\n", o.depth == CM_DEPTH_8 ? "8u" : "16u",
      o.width, o.height, mx, my, o.npp_max_mask);
#endif

  printf ("\n%-24s %-22s %10s %9s %10s %9s %9s\n", "case", "algorithm", "ms",
      "Gpx/s", "NPP ms", "NPP Gpx/s", o.timing_call ? "gated ms" : "call ms");
  int failures = 0;
  for (auto &c : cases) {
    if (o.filter && !strstr (c.name, o.filter))
      continue;
    cm_morph_desc desc;
    memset (&desc, 0, sizeof (desc));
    desc.op = c.op;
    desc.se = c.se;
    desc.iterations = 1;
    desc.border = o.border;
    desc.border_value = 0;
    cm_morph_plan *plan = NULL;
    cm_status st = cm_morph_plan_new_tuned (&plan, &desc, o.width,
        o.height, o.depth, &o.tuning);
    if (st != CM_OK) {
      printf ("%-24s plan failed: %s\n", c.name, cm_status_string (st));
      failures++;
      continue;
    }
    cm_status run_st = CM_OK;
    double ms = time_median (t, o.warmup, o.runs, [&]() {
          run_st = cm_morph_plan_run (plan, &src, &dst, t.stream);
          return run_st == CM_OK;
        });
    /* the other timing: call latency (or device time with --timing call) */
    double ms_other = ms < 0 ? -1 : time_median (t, 1, o.runs, [&]() {
          return cm_morph_plan_run (plan, &src, &dst, t.stream) == CM_OK;
        }, NULL, !o.timing_call);
    char algo[64];
    snprintf (algo, sizeof (algo), "%s", cm_morph_plan_algorithm (plan));
    if (ms < 0) {
      printf ("%-24s %-22s run failed: %s\n", c.name, algo,
          cm_status_string (run_st));
      failures++;
      cm_morph_plan_free (plan);
      continue;
    }

    char npp_ms[32] = "-", npp_gpx[32] = "-";
    double nms = -1;
#if BENCH_NPP
    if (c.op == CM_MORPH_ERODE || c.op == CM_MORPH_DILATE) {
      if (c.se->count <= o.npp_max_mask) {
        nms = npp_time (&npp, t, &o, c.se, c.op == CM_MORPH_DILATE);
        if (nms >= 0) {
          snprintf (npp_ms, sizeof (npp_ms), "%.4f", nms);
          snprintf (npp_gpx, sizeof (npp_gpx), "%.1f", mpx / nms);
        } else
          snprintf (npp_ms, sizeof (npp_ms), "failed");
      } else
        snprintf (npp_ms, sizeof (npp_ms), "skipped");
    }
#endif
    printf ("%-24s %-22s %10.4f %9.1f %10s %9s %9.4f\n", c.name, algo, ms,
        mpx / ms, npp_ms, npp_gpx, ms_other);
    fflush (stdout);
    if (csv) {
      fprintf (csv, "\"%s\",%d,%d,%d,%d,\"%s\",\"%s\",%.5f,%.2f,", prop.name,
          o.width, o.height, (int) o.depth, (int) o.border, c.name, algo, ms,
          mpx / ms);
      if (nms >= 0)
        fprintf (csv, "%.5f,%.2f,%.5f\n", nms, mpx / nms, ms_other);
      else
        fprintf (csv, ",,%.5f\n", ms_other);
    }
    cm_morph_plan_free (plan);
    if (o.compare && o.tuning.paths == CM_MORPH_PATHS_AUTO) {
      /* the same case on the former path, where the plan's choice
       * differs */
      const char *mode = "legacy";
      cm_morph_tuning former = o.tuning;

      former.paths = CM_MORPH_PATHS_LEGACY;
      st = cm_morph_plan_new_tuned (&plan, &desc, o.width, o.height, o.depth,
          &former);
      if (st != CM_OK) {
        printf ("%-24s %s plan failed: %s\n", c.name, mode,
            cm_status_string (st));
        failures++;
        continue;
      }
      const char *lalgo = cm_morph_plan_algorithm (plan);
      if (strcmp (lalgo, algo) != 0) {
        char lname[80];
        snprintf (lname, sizeof (lname), "%s (%s)", c.name, mode);
        ms = time_median (t, o.warmup, o.runs, [&]() {
              run_st = cm_morph_plan_run (plan, &src, &dst, t.stream);
              return run_st == CM_OK;
            });
        if (ms < 0) {
          printf ("%-24s %-22s run failed: %s\n", lname, lalgo,
              cm_status_string (run_st));
          failures++;
        } else {
          printf ("%-24s %-22s %10.4f %9.1f %10s %9s\n", lname, lalgo, ms,
              mpx / ms, "-", "-");
          if (csv)
            fprintf (csv, "\"%s\",%d,%d,%d,%d,\"%s\",\"%s\",%.5f,%.2f,,,\n",
                prop.name, o.width, o.height, (int) o.depth, (int) o.border,
                lname, lalgo, ms, mpx / ms);
        }
      }
      cm_morph_plan_free (plan);
    }
  }
#if BENCH_NPP
  npp_teardown (&npp);
  printf ("\nNPP columns: general masked filter, ROI %dx%d inside a padded "
      "source (no border handling); '-' = NPP not timed: opening, "
      "closing and top-hat (NPP has them, nppiMorphOpenBorder/CloseBorder/"
      "TopHatBorder, but this benchmark times only its erode/dilate) and "
      "the (legacy) rows; 'skipped' = mask larger than "
      "--npp-max-mask.\n", o.width, o.height);
#endif

  if (csv)
    fclose (csv);
  for (auto &c : cases)
    cm_se_free (c.se);
  cudaFree (src.data);
  cudaFree (dst.data);
  bench_timer_free (t);
  return failures ? 1 : 0;
}
