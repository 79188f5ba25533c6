/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the runs pass (morph-runs.cu, the kernels and the API;
 * morph-runs-plan.cu, the planner): the tiling constants, the geometry of
 * a table that the planner computes and the kernels take by value, and
 * the planner's interface. The algorithm: morph-runs.cu. */
#pragma once

#include <cuda_runtime.h>
#include <stdint.h>

#include "morph-passes.h"

/* Outputs per thread: RUNS_NG consecutive 32-bit words along x (odd, so
 * that the words of a warp's lanes fall in distinct banks) times RUNS_V
 * rows (the global path; the shared path takes RUNS_V or one row, its
 * geometry's v: one row gives a tile four times the threads, what small
 * images need to fill the device). */
#define RUNS_NG 3
#define RUNS_V 4
/* Words per lane per row in the load and build phases: a region row holds
 * at most 32 * RUNS_MMAX words. */
#define RUNS_MMAX 8
#define RUNS_MAX_THREADS 512
#define RUNS_MAX_LEVELS 12
#define RUNS_SMEM_CAP (96 * 1024)
#define RUNS_GLOBAL_MAX_SLOTS 12
#define RUNS_GLOBAL_MAX_BYTES ((size_t) 2 << 30)
/* gather block of the global path: 32 x RUNS_GY threads */
#define RUNS_GY 8

/* sm_90 has packed 16x2 min/max in hardware; older devices emulate it, so
 * there 8-bit samples use __vminu4 on whole words instead. The emulation
 * test (host) may set CM_RUNS_EMU_PAIRED8 to check either layout. */
#if defined(__CUDA_ARCH__)
#if __CUDA_ARCH__ >= 900
#define RUNS_PAIRED8 1
#else
#define RUNS_PAIRED8 0
#endif
#elif defined(CM_RUNS_EMU_PAIRED8)
#define RUNS_PAIRED8 CM_RUNS_EMU_PAIRED8
#else
#define RUNS_PAIRED8 0
#endif

#define RUNS_HD __host__ __device__ __forceinline__

/* loop unrolling in functions compiled for both sides (the host compiler
 * does not know the pragma) */
#ifdef __CUDA_ARCH__
#define RUNS_UNROLL _Pragma ("unroll")
#define RUNS_UNROLL2 _Pragma ("unroll 2")
#else
#define RUNS_UNROLL
#define RUNS_UNROLL2
#endif

namespace cm_runs
{

/* Geometry of a table: region of rh rows x rw samples whose sample (0, 0)
 * is image (x0 + mdxp, y0 + min_dy) for a tile at (x0, y0) (shared path)
 * or (0, 0) (global path: the padded image). Passed by value to kernels. */
struct runs_geom
{
  int width, height;            /* image */
  int axis;                     /* 0: runs along rows, 1: along columns */
  int min_dy;                   /* lowest dy of the offsets              */
  int mdxp;                     /* lowest dx rounded down to a word      */
  int rw, rh;                   /* region samples per row, rows          */
  int nwr;                      /* words holding a region row            */
  int pitch_w;                  /* words between table rows              */
  int slot_w;                   /* words per table slot                  */
  int tw, th;                   /* output tile (shared path)             */
  int v;                        /* rows per thread of the shared gather  */
  int lx_shift;                 /* log2 of the lanes of a warp along x   */
  int kmax;                     /* highest table level built             */
  int nlut;                     /* lookups                               */
  int nslots;                   /* table slots                           */
  int lut_off;                  /* word offset of the lookups in smem    */
  /* slot of level k in bits 4k .. 4k + 3 (a packed field: a by-value
   * kernel parameter indexed at run time would be copied to the stack) */
  unsigned long long slots;
};

RUNS_HD int
runs_slot (const runs_geom & g, int k)
{
  return (int) ((g.slots >> (4 * k)) & 15u);
}

/* One level step of the table build: T_{k+1} rows [0, rows) words
 * [0, words) from T_k at word offset off_w and byte shift bs. */
struct runs_level
{
  int rows, words, off_w, bs;
};

/* Level k -> k + 1 of the table with geometry g: which rows and words are
 * needed (windows never reach past the region) and where the partner
 * sample 2^k further along the run axis is. */
template <typename T>
RUNS_HD runs_level
runs_level_of (const runs_geom & g, int k)
{
  const int P = 4 / (int) sizeof (T);
  int step = 1 << k;
  runs_level lv;
  if (g.axis == 0) {
    int cols = g.rw - 2 * step + 1;     /* samples needed at level k+1 */
    lv.rows = g.rh;
    lv.words = cols > 0 ? (cols - 1) / P + 1 : 0;
    lv.off_w = step / P;
    lv.bs = (step % P) * (int) sizeof (T);
  } else {
    lv.rows = g.rh - 2 * step + 1;
    lv.words = g.nwr;
    lv.off_w = step * g.pitch_w;
    lv.bs = 0;
  }
  if (lv.rows < 0 || lv.words <= 0)
    lv.rows = 0;
  return lv;
}

struct runs_devinfo
{
  int sms;                      /* multiprocessors                       */
  int smem_budget;              /* dynamic shared memory per block       */
  int smem_sm;                  /* shared memory per multiprocessor      */
  int threads_sm;               /* resident threads per multiprocessor   */
  int paired8;                  /* packed 16x2 min/max in hardware       */
};

struct runs_choice
{
  int valid;
  int axis;
  int shared;
  unsigned smask;               /* kept levels */
  int lx_shift, nwarps, v;      /* shared path */
  double cost;
};

/* Everything the pass needs, computed on the host from the SE, the image
 * size and the device limits (no CUDA calls: the emulation test uses it). */
struct runs_plan_host
{
  runs_choice choice;
  runs_geom g;
  size_t smem;                  /* shared path: dynamic shared bytes   */
  int2 *lut;                    /* host copy, g.nlut entries (malloc)  */
};

/* @rows_per_thread: the shared gather's v, 1 or RUNS_V; 0: both tried */
cm_status runs_plan_host_build (runs_plan_host * out, const cm_se * se,
    int width, int height, cm_depth depth, const runs_devinfo * dev,
    int rows_per_thread);

}                               /* namespace cm_runs */
