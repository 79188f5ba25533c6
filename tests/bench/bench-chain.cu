/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench-chain: the GPU-time bound of an element chain on NV12 frames in
 * CUDA memory, the figure that the frames/s of bench-pipeline is weighed
 * against (issue "many cameras": one pipeline should reach 85 % of it).
 *
 *   bench-chain [--width W] [--height H] [--runs N] [--warmup K]
 *
 * The chain is the one of docs/PERFORMANCE.md's many-camera tables:
 * cudamedian size=5 ! cudamorph operation=open shape=disk radius=7 !
 * cudamorph operation=tophat shape=line length=31 angle=30. Per element and
 * frame the elements queue exactly this device work: the luma plane through
 * the plan into the output buffer, and the interleaved chroma plane copied
 * unchanged (cm_copy_2d_async). This program queues the same work through
 * the same plans, each element reading the previous one's output, and
 * times it with CUDA events behind the gate kernel (bench-common.cuh), so
 * the figure is device time alone, the gaps between back-to-back launches
 * included:
 *
 *   - per stage: each element's work timed on its own;
 *   - chain: the three stages queued back to back in one timed run;
 *   - bound: 1 s / chain time, the frames/s that the device time allows
 *     when nothing else runs and the host never stalls the device.
 */
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bench-common.cuh"
#include "device.h"
#include "median/median.h"
#include "morph/morph.h"
#include "morph/se.h"

typedef struct
{
  int width, height, runs, warmup;
  int device;                   /* the first one: 0 */
} chain_opts;

/* One NV12 frame in device memory: luma and interleaved chroma planes. */
typedef struct
{
  cm_image y, uv;               /* uv: width bytes per row, height / 2 rows */
} nv12_frame;

static void
nv12_alloc (nv12_frame * f, int w, int h)
{
  memset (f, 0, sizeof (*f));
  f->y.width = w;
  f->y.height = h;
  f->y.depth = CM_DEPTH_8;
  f->uv = f->y;
  f->uv.height = (h + 1) / 2;
  f->uv.width = w + (w & 1);    /* two samples per chroma pair */
  CK (cudaMallocPitch (&f->y.data, &f->y.pitch, (size_t) w, h));
  CK (cudaMallocPitch (&f->uv.data, &f->uv.pitch, (size_t) f->uv.width,
          f->uv.height));
}

static void
nv12_free (nv12_frame * f)
{
  CK (cudaFree (f->y.data));
  CK (cudaFree (f->uv.data));
}

/* A stage of the chain: a median or a morphology plan. */
typedef struct
{
  const char *name;
  cm_median_plan *median;
  cm_morph_plan *morph;
} stage;

static bool
stage_run (const stage * s, const nv12_frame * in, const nv12_frame * out,
    cudaStream_t stream)
{
  cm_status st = s->median ?
      cm_median_plan_run (s->median, &in->y, &out->y, stream) :
      cm_morph_plan_run (s->morph, &in->y, &out->y, stream);
  if (st != CM_OK)
    return false;
  return cm_copy_2d_async (out->uv.data, out->uv.pitch, in->uv.data,
      in->uv.pitch, (size_t) in->uv.width, in->uv.height, CM_COPY_D2D,
      (cm_stream) stream) == CM_OK;
}

/* Random bytes (xorshift64*), never a constant frame. */
static std::vector<uint8_t>
random_bytes (size_t n, uint64_t seed)
{
  std::vector<uint8_t> v (n);
  uint64_t x = seed | 1;
  for (size_t i = 0; i < n; i++) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    v[i] = (uint8_t) ((x * 0x2545F4914F6CDD1Dull) >> 56);
  }
  return v;
}

static void
usage (const char *argv0)
{
  fprintf (stderr, "usage: %s [--width W] [--height H] [--runs N] "
      "[--warmup K]\n", argv0);
}

static bool
parse_opts (int argc, char **argv, chain_opts * o)
{
  o->width = 1920;
  o->height = 1080;
  o->runs = 200;
  o->warmup = 20;
  o->device = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (i + 1 >= argc)
      return false;
    if (!strcmp (a, "--width"))
      o->width = atoi (argv[++i]);
    else if (!strcmp (a, "--height"))
      o->height = atoi (argv[++i]);
    else if (!strcmp (a, "--runs"))
      o->runs = atoi (argv[++i]);
    else if (!strcmp (a, "--warmup"))
      o->warmup = atoi (argv[++i]);
    else
      return false;
  }
  return o->width >= 1 && o->height >= 2 && o->runs >= 20 && o->warmup >= 0;
}

int
main (int argc, char **argv)
{
  chain_opts o;
  const cudaDeviceProp prop = bench_start (argc, argv, &o, parse_opts, usage);

  bench_timer t;
  bench_timer_init (t, 0);
  printf ("frame: %dx%d NV12 random, median of %d runs after %d warm-up; "
      "timing: %s\n", o.width, o.height, o.runs, o.warmup,
      bench_timing_name (t));

  /* four frames: the source and each element's output */
  nv12_frame f[4];
  for (int i = 0; i < 4; i++)
    nv12_alloc (&f[i], o.width, o.height);
  {
    std::vector<uint8_t> luma = random_bytes ((size_t) o.width * o.height,
        0x9E3779B97F4A7C15ull);
    std::vector<uint8_t> chroma = random_bytes ((size_t) f[0].uv.width *
        f[0].uv.height, 0xD1B54A32D192ED03ull);
    CK (cudaMemcpy2D (f[0].y.data, f[0].y.pitch, luma.data (), o.width,
            o.width, o.height, cudaMemcpyHostToDevice));
    CK (cudaMemcpy2D (f[0].uv.data, f[0].uv.pitch, chroma.data (),
            f[0].uv.width, f[0].uv.width, f[0].uv.height,
            cudaMemcpyHostToDevice));
  }

  cm_median_desc md;
  memset (&md, 0, sizeof (md));
  md.window_w = md.window_h = 5;
  md.percentile = 50;
  md.border = CM_BORDER_REPLICATE;
  md.algorithm = CM_MEDIAN_AUTO;
  cm_se *disk = NULL, *line = NULL;
  if (cm_se_new_disk (&disk, 7) != CM_OK ||
      cm_se_new_line (&line, 31, 30.0) != CM_OK) {
    fprintf (stderr, "structuring elements failed\n");
    return 1;
  }
  cm_morph_desc open_d = { CM_MORPH_OPEN, disk, 1, CM_BORDER_NEUTRAL, 0 };
  cm_morph_desc tophat_d = { CM_MORPH_TOPHAT, line, 1, CM_BORDER_NEUTRAL, 0 };

  stage st[3];
  memset (st, 0, sizeof (st));
  st[0].name = "cudamedian size=5";
  st[1].name = "cudamorph operation=open shape=disk radius=7";
  st[2].name = "cudamorph operation=tophat shape=line length=31 angle=30";
  if (cm_median_plan_new (&st[0].median, &md, o.width, o.height,
          CM_DEPTH_8) != CM_OK ||
      cm_morph_plan_new (&st[1].morph, &open_d, o.width, o.height,
          CM_DEPTH_8) != CM_OK ||
      cm_morph_plan_new (&st[2].morph, &tophat_d, o.width, o.height,
          CM_DEPTH_8) != CM_OK) {
    fprintf (stderr, "plans failed\n");
    return 1;
  }

  double sum = 0;
  for (int i = 0; i < 3; i++) {
    const stage *s = &st[i];
    double ms = time_median (t, o.warmup, o.runs, [&]() {
          return stage_run (s, &f[i], &f[i + 1], t.stream);
        });
    if (ms < 0) {
      fprintf (stderr, "%s failed\n", s->name);
      return 1;
    }
    sum += ms;
    printf ("stage %d: %8.1f us  %s\n", i, ms * 1000.0, s->name);
  }
  double chain = time_median (t, o.warmup, o.runs, [&]() {
        for (int i = 0; i < 3; i++)
          if (!stage_run (&st[i], &f[i], &f[i + 1], t.stream))
            return false;
        return true;
      });
  if (chain < 0) {
    fprintf (stderr, "chain failed\n");
    return 1;
  }
  printf ("sum of stages: %.1f us per frame\n", sum * 1000.0);
  printf ("chain, back to back: %.1f us per frame\n", chain * 1000.0);
  printf ("GPU-time bound: %.0f frames/s (%dx%d, %s)\n", 1000.0 / chain,
      o.width, o.height, prop.name);

  cm_median_plan_free (st[0].median);
  cm_morph_plan_free (st[1].morph);
  cm_morph_plan_free (st[2].morph);
  cm_se_free (disk);
  cm_se_free (line);
  for (int i = 0; i < 4; i++)
    nv12_free (&f[i]);
  bench_timer_free (t);
  return 0;
}
