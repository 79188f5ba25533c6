/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the benchmark programs share: CUDA error checks, the event timer
 * (median of timed runs after warm-up), the options of the frame
 * benchmarks and their parser, the random samples, the photographs read
 * from PGM files, device images and their copies, and the start of main:
 * options, then the device/NPP banner that heads every benchmark output. */
#pragma once

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cm-border.h"
#include "device.h"

#if defined(CM_HAVE_NPP) && CM_HAVE_NPP
#include <nppcore.h>
#define BENCH_NPP 1
#else
#define BENCH_NPP 0
#endif

#define CK(expr) bench_check ((expr), #expr, __FILE__, __LINE__)

static inline void
bench_check (cudaError_t e, const char *what, const char *file, int line)
{
  if (e != cudaSuccess) {
    fprintf (stderr, "%s:%d: %s: %s\n", file, line, what,
        cudaGetErrorString (e));
    exit (1);
  }
}

/* Timing: kernel time, not call latency. A plan's run is timed between
 * two events on its stream; on an idle stream the first event completes at
 * once, so the interval would also hold the host's own work before and
 * between the launches (API calls, launch latency: 3-5 us per run on the
 * H100, a third of a 4K pass). The gate removes it, as nvbench's
 * blocking kernel does: a one-thread kernel spins on a flag in mapped host
 * memory, the start event, the run and the stop event queue up behind it,
 * and the host opens the gate once everything is queued, so the interval
 * holds the device's work alone (back-to-back launches, the gaps between
 * them included). The gate gives up after BENCH_GATE_TIMEOUT_NS, counted in
 * gate_timeouts (a run that waits on the device itself would otherwise
 * deadlock); a timed-out run is not a kernel time, and time_median then
 * says so and times call latency instead. t.call (--timing call) times
 * runs the old way, the call's latency on an idle stream, for comparison
 * with earlier tables. */
#define BENCH_GATE_TIMEOUT_NS 200000000ull

struct bench_timer
{
  cudaStream_t stream;
  cudaEvent_t start, stop;
  volatile int *gate;           /* mapped host memory: 0 closed, 1 open   */
  int *gate_timeouts;           /* mapped: gates that gave up             */
  int call;                     /* time call latency, no gate             */
};

static __global__ void
bench_gate_kernel (volatile int *gate, int *timeouts)
{
  unsigned long long t0, t;

  asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (t0));
  while (*gate == 0) {
    asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (t));
    if (t - t0 > BENCH_GATE_TIMEOUT_NS) {
      atomicAdd (timeouts, 1);
      break;
    }
    __nanosleep (256);
  }
}

/* stream, events and gate; call: time call latency instead */
static inline void
bench_timer_init (bench_timer &t, int call)
{
  void *p;
  CK (cudaStreamCreateWithFlags (&t.stream, cudaStreamNonBlocking));
  CK (cudaEventCreate (&t.start));
  CK (cudaEventCreate (&t.stop));
  CK (cudaHostAlloc (&p, 2 * sizeof (int), cudaHostAllocMapped));
  memset (p, 0, 2 * sizeof (int));
  t.gate = (volatile int *) p;
  t.gate_timeouts = (int *) p + 1;
  t.call = call;
}

static inline void
bench_timer_free (bench_timer &t)
{
  cudaFreeHost ((void *) t.gate);
  cudaEventDestroy (t.start);
  cudaEventDestroy (t.stop);
  cudaStreamDestroy (t.stream);
}

static inline const char *
bench_timing_name (const bench_timer &t)
{
  return t.call ? "call latency (events around each call on an idle "
      "stream, host work included)" : "device time (events behind a "
      "gate kernel: the runs' launches queued before the device starts "
      "them, host work excluded)";
}

/* Around one timed run, when gated: bench_gate_close () before the start
 * event, bench_gate_open () after the stop event; bench_gate_gave_up ()
 * after the stop event completed: the gate timed out since `before`
 * (*t.gate_timeouts read before the close), so the run waited on the
 * device and its interval holds the host's work too. */
static inline void
bench_gate_close (bench_timer &t)
{
  *t.gate = 0;
  bench_gate_kernel <<< 1, 1, 0, t.stream >>> (t.gate, t.gate_timeouts);
  CK (cudaGetLastError ());
}

static inline void
bench_gate_open (bench_timer &t)
{
  __sync_synchronize ();
  *t.gate = 1;
}

static inline bool
bench_gate_gave_up (const bench_timer &t, int before)
{
  return *(volatile int *) t.gate_timeouts != before;
}

/* Median of `runs` timings (ms) of fn after `warmup` untimed calls; < 0
 * when fn fails. *first: the first timed run (ms),
 * when not NULL. call >= 0 overrides t.call for this measurement. */
template <typename F>
static double
time_median (bench_timer &t, int warmup, int runs, F fn, double *first =
    NULL, int call = -1)
{
  std::vector<float> ms;
  const int gated = !(call >= 0 ? call : t.call);
  for (int i = 0; i < warmup; i++)
    if (!fn ())
      return -1;
  CK (cudaStreamSynchronize (t.stream));
  for (int i = 0; i < runs; i++) {
    float e;
    const int timeouts = *(volatile int *) t.gate_timeouts;
    if (gated)
      bench_gate_close (t);
    CK (cudaEventRecord (t.start, t.stream));
    const bool ok = fn ();
    CK (cudaEventRecord (t.stop, t.stream));
    if (gated)
      bench_gate_open (t);
    CK (cudaEventSynchronize (t.stop));
    if (!ok)
      return -1;
    if (gated && bench_gate_gave_up (t, timeouts)) {
      /* the run waits on the device: only its call latency can be had */
      fprintf (stderr, "timing gate gave up (the run waits on the device "
          "itself): this figure is the call latency\n");
      return time_median (t, 0, runs, fn, first, 1);
    }
    CK (cudaEventElapsedTime (&e, t.start, t.stop));
    ms.push_back (e);
    if (i == 0 && first)
      *first = e;
  }
  std::sort (ms.begin (), ms.end ());
  size_t n = ms.size ();
  return n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

/* --timing gated|call: 1 for call, 0 for gated, -1 not recognised */
static inline int
bench_parse_timing (const char *s)
{
  if (s && !strcmp (s, "gated"))
    return 0;
  if (s && !strcmp (s, "call"))
    return 1;
  return -1;
}

/* ---- options ------------------------------------------------------------ */

/* The options of every benchmark of frames; border: each program's own
 * default */
struct bench_frame_opts
{
  int width = 3840, height = 2160;
  int runs = 30, warmup = 5;
  cm_border_mode border;
  const char *csv = NULL;
  int device = 0;
  int timing_call = 0;

  explicit bench_frame_opts (cm_border_mode b) : border (b) { }
};

/* --border NAME, the names in cm_border_mode's order: 0 for another name */
static inline int
bench_parse_border (const char *s, cm_border_mode * out)
{
  static const char *names[] = { "neutral", "replicate", "reflect",
    "mirror", "constant"
  };
  for (int i = 0; i < CM_BORDER_MODE_COUNT; i++)
    if (!strcmp (s, names[i])) {
      *out = (cm_border_mode) i;
      return 1;
    }
  return 0;
}

/* An option that sets an int field of T to its value */
template <typename T>
struct bench_int_opt
{
  typedef int T::*int_field;

  const char *name;
  int_field field;
};

/* Option a with its value v: 1 when it is one of the table's (its field of
 * *o set), 0 when not */
template <typename T, size_t N>
static inline int
bench_parse_int_opt (const bench_int_opt<T> (&table)[N], const char *a,
    const char *v, T * o)
{
  for (const auto &opt : table)
    if (!strcmp (a, opt.name)) {
      o->*opt.field = atoi (v);
      return 1;
    }
  return 0;
}

/* Option a with its value v when it is one of bench_frame_opts: 1 when
 * taken, 0 for another option, -1 for a bad value (said on stderr) */
static inline int
bench_parse_frame_opt (const char *a, const char *v, bench_frame_opts * o)
{
  if (!strcmp (a, "--width"))
    o->width = atoi (v);
  else if (!strcmp (a, "--height"))
    o->height = atoi (v);
  else if (!strcmp (a, "--runs"))
    o->runs = atoi (v);
  else if (!strcmp (a, "--warmup"))
    o->warmup = atoi (v);
  else if (!strcmp (a, "--csv"))
    o->csv = v;
  else if (!strcmp (a, "--device"))
    o->device = atoi (v);
  else if (!strcmp (a, "--border")) {
    if (!bench_parse_border (v, &o->border)) {
      fprintf (stderr, "unknown border '%s'\n", v);
      return -1;
    }
  } else if (!strcmp (a, "--timing")) {
    o->timing_call = bench_parse_timing (v);
    if (o->timing_call < 0) {
      fprintf (stderr, "--timing must be gated or call\n");
      return -1;
    }
  } else
    return 0;
  return 1;
}

/* The option parser of a benchmark whose options O extend
 * bench_frame_opts: flag (a, o) first, when given, for the options without
 * a value (1 when it took a); then the options of bench_frame_opts; then
 * opt (a, v, o) for the others (0 for an unknown one or a bad value, said
 * on stderr). --help and -h print the usage and exit. Returns 0 when an
 * option is wrong or the frame empty; fewer than 20 timed runs are raised
 * to 20, no warm-up to one. */
template <typename O>
static inline int
bench_parse_opts (int argc, char **argv, O * o, void (*usage) (const char *),
    int (*opt) (const char *, const char *, O *),
    int (*flag) (const char *, O *) = NULL)
{
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (flag && flag (a, o))
      continue;
    if (!strcmp (a, "--help") || !strcmp (a, "-h")) {
      usage (argv[0]);
      exit (0);
    }
    if (i + 1 >= argc) {
      fprintf (stderr, "%s: missing value\n", a);
      return 0;
    }
    const char *v = argv[++i];
    const int taken = bench_parse_frame_opt (a, v, o);
    if (taken < 0 || (!taken && !opt (a, v, o)))
      return 0;
  }
  if (o->width < 1 || o->height < 1) {
    fprintf (stderr, "bad size\n");
    return 0;
  }
  if (o->runs < 20) {
    fprintf (stderr, "--runs raised to 20 (median of at least 20 runs)\n");
    o->runs = 20;
  }
  if (o->warmup < 1)
    o->warmup = 1;
  return 1;
}

/* The --csv file, opened with its header line written; NULL (and the
 * reason on stderr) when it cannot be created. */
static inline FILE *
bench_csv_open (const char *path, const char *header)
{
  FILE *f = fopen (path, "w");

  if (!f)
    perror (path);
  else
    fputs (header, f);
  return f;
}

/* splitmix64: random frames and masks, the same in every run */
static uint64_t bench_rng_state = 0x9e3779b97f4a7c15ull;

static inline uint32_t
bench_rng_next (void)
{
  uint64_t z = (bench_rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t) ((z ^ (z >> 31)) >> 32);
}

/* A photograph given with --image: its file name (no folder), size and
 * 8-bit samples */
struct bench_photo
{
  std::string name;
  int w, h;
  std::vector<uint8_t> px;
};

/* a binary 8-bit PGM (P5, maxval 255) */
static inline bool
bench_read_pgm (const char *path, bench_photo &img)
{
  FILE *f = fopen (path, "rb");
  int w, h, maxv;
  bool ok;

  if (!f)
    return false;
  ok = fscanf (f, "P5 %d %d %d", &w, &h, &maxv) == 3 && maxv == 255 &&
      w > 0 && h > 0 && fgetc (f) != EOF;
  if (ok) {
    img.w = w;
    img.h = h;
    img.px.resize ((size_t) w * h);
    ok = fread (img.px.data (), 1, img.px.size (), f) == img.px.size ();
  }
  fclose (f);
  const char *base = strrchr (path, '/');
  img.name = base ? base + 1 : path;
  return ok;
}

/* --image @path: the photograph read and added to @images, or false
 * after saying why */
static inline bool
bench_add_photo (const char *path, std::vector<bench_photo> &images)
{
  bench_photo img;

  if (!bench_read_pgm (path, img)) {
    fprintf (stderr, "cannot read %s (8-bit binary PGM)\n", path);
    return false;
  }
  images.push_back (img);
  return true;
}

/* ---- device ------------------------------------------------------------- */

/* A device image of @w x @h at @depth; exits as CK () does when there is
 * no memory for it. */
static inline cm_image
bench_device_image (int w, int h, cm_depth depth)
{
  cm_image img;

  CK (cm_device_image_alloc (&img, w, h, depth) == CM_OK ?
      cudaSuccess : cudaErrorMemoryAllocation);
  return img;
}

/* The @src.width x @src.height samples of @src copied into @dst (@kind:
 * host to device or back). */
static inline void
bench_copy_image (const cm_image & dst, const cm_image & src,
    cudaMemcpyKind kind)
{
  CK (cudaMemcpy2D (dst.data, dst.pitch, src.data, src.pitch,
          (size_t) src.width * cm_depth_bytes (src.depth), src.height, kind));
}

/* Selects the device and prints the device, driver/runtime and NPP lines.
 * Returns 0, or 77 (the test "skip" code) when there is no CUDA device. */
static inline int
bench_open_device (int device, cudaDeviceProp * prop)
{
  int ndev = 0, drv = 0, rt = 0;

  if (cudaGetDeviceCount (&ndev) != cudaSuccess || ndev < 1) {
    fprintf (stderr, "no CUDA device\n");
    return 77;
  }
  CK (cudaSetDevice (device));
  CK (cudaGetDeviceProperties (prop, device));
  CK (cudaDriverGetVersion (&drv));
  CK (cudaRuntimeGetVersion (&rt));
  printf ("device: %s (sm_%d%d, %d SMs)\n", prop->name, prop->major,
      prop->minor, prop->multiProcessorCount);
  printf ("driver CUDA version: %d.%d, runtime: %d.%d\n", drv / 1000,
      (drv % 1000) / 10, rt / 1000, (rt % 1000) / 10);
#if BENCH_NPP
  {
    const NppLibraryVersion *nv = nppGetLibVersion ();
    if (nv)
      printf ("NPP: %d.%d.%d\n", nv->major, nv->minor, nv->build);
  }
#else
  printf ("NPP: not built in (tests/bench/meson.build did not find it)\n");
#endif
  return 0;
}

/* The start of a benchmark's main, for its options struct O (O::device:
 * the device to open): the options parsed by parse, the usage printed and
 * exit status 2 when they do not parse; then the device opened and its
 * banner printed, exit status 77 (the test "skip" code) without one.
 * Returns the device's properties. */
template <typename O, typename R>
static inline cudaDeviceProp
bench_start (int argc, char **argv, O * o, R (*parse) (int, char **, O *),
    void (*usage) (const char *))
{
  cudaDeviceProp prop;

  if (!parse (argc, argv, o)) {
    usage (argv[0]);
    exit (2);
  }
  int rc = bench_open_device (o->device, &prop);
  if (rc != 0)
    exit (rc);
  return prop;
}

#if BENCH_NPP
/* An NPP stream context for stream on the current device. */
static inline void
npp_context (NppStreamContext *c, cudaStream_t stream)
{
  cudaDeviceProp prop;
  int dev;
  unsigned flags = 0;
  memset (c, 0, sizeof (*c));
  CK (cudaGetDevice (&dev));
  CK (cudaGetDeviceProperties (&prop, dev));
  CK (cudaStreamGetFlags (stream, &flags));
  c->hStream = stream;
  c->nCudaDeviceId = dev;
  c->nMultiProcessorCount = prop.multiProcessorCount;
  c->nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  c->nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  c->nSharedMemPerBlock = prop.sharedMemPerBlock;
  c->nCudaDevAttrComputeCapabilityMajor = prop.major;
  c->nCudaDevAttrComputeCapabilityMinor = prop.minor;
  c->nStreamFlags = flags;
}
#endif
