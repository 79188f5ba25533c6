/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the benchmark programs share: CUDA error checks, the event timer
 * (median of timed runs after warm-up) and the device/NPP banner that
 * heads every benchmark output. */
#pragma once

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

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

struct bench_timer
{
  cudaStream_t stream;
  cudaEvent_t start, stop;
};

/* Median of `runs` timings (ms) of fn after `warmup` untimed calls; < 0
 * when fn fails. *first: the first timed run (ms), when not NULL. */
template <typename F>
static double
time_median (bench_timer &t, int warmup, int runs, F fn, double *first =
    NULL)
{
  std::vector<float> ms;
  for (int i = 0; i < warmup; i++)
    if (!fn ())
      return -1;
  CK (cudaStreamSynchronize (t.stream));
  for (int i = 0; i < runs; i++) {
    float e;
    CK (cudaEventRecord (t.start, t.stream));
    if (!fn ())
      return -1;
    CK (cudaEventRecord (t.stop, t.stream));
    CK (cudaEventSynchronize (t.stop));
    CK (cudaEventElapsedTime (&e, t.start, t.stop));
    ms.push_back (e);
    if (i == 0 && first)
      *first = e;
  }
  std::sort (ms.begin (), ms.end ());
  size_t n = ms.size ();
  return n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
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
