/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Just enough of CUDA's device language for a header of device functions
 * to compile on the host, one thread at a time: what a core test needs
 * to run the algorithm of a kernel on the CPU (test-attribute-tree.cc).
 * A warp is emulated by its 32 lanes' values, set by the test before
 * each lane's call (cuda_host_warp). */
#pragma once

#include <algorithm>

#define __device__
#define __host__
#define __forceinline__ inline

using std::min;
using std::max;

template <class T>
static inline T
__ldg (const T * p)
{
  return *p;
}

static inline int
atomicCAS (int *p, int expect, int v)
{
  int old = *p;

  if (old == expect)
    *p = v;
  return old;
}

template <class T>
static inline T
atomicAdd (T * p, T v)
{
  T old = *p;

  *p = old + v;
  return old;
}

template <class T>
static inline T
atomicOr (T * p, T v)
{
  T old = *p;

  *p = old | v;
  return old;
}

static inline int
__clz (unsigned x)
{
  return x ? __builtin_clz (x) : 32;
}

static inline int
__ffs (unsigned x)
{
  return __builtin_ffs ((int) x);
}

/* the warp: the lane that runs, and what each lane passes to a shuffle
 * (the only shuffled value in the headers tested is one per lane) */
struct cuda_host_warp
{
  unsigned shuffled[32];
};
static cuda_host_warp host_warp;
static struct
{
  unsigned x;
} threadIdx;

#define __shfl_sync(mask, value, lane) (host_warp.shuffled[(lane) & 31])
