/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/: what median.cu (the plans) shares with the kernel
 * files median-net*.cu (selection networks, Szántó & Fehér paper 001
 * section 3.3 and Adams 2021) and median-hist.cu (sliding histograms,
 * Perreault & Hébert 2007 / paper 001 section 3.6): the launch arguments,
 * the one border helper every kernel reads samples through, and the
 * launchers. All launches are asynchronous; launchers return the launch
 * error (cudaGetLastError) and never synchronise. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime.h>

#include "cm-border.h"
#include "median.h"

/* Everything a median kernel needs, passed by value. */
struct med_args
{
  const uint8_t *src;           /* single-channel device image             */
  uint8_t *dst;
  size_t src_pitch, dst_pitch;  /* bytes, multiples of bpp                 */
  int width, height;
  int bpp;                      /* 1 (8-bit) or 2 (16-bit)                 */
  int border;                   /* REPLICATE, REFLECT, MIRROR or CONSTANT  */
  uint32_t cval;                /* CONSTANT value, already clamped         */
  int k;                        /* rank, 0 .. N-1                          */
  int ww, wh;                   /* window, odd                             */
  int dst_aligned4;             /* dst data and pitch multiples of 4       */
  int src_aligned4;             /* src data and pitch multiples of 4       */
};

/* ---- border rule (device twin of cm_border_map) --------------------------
 * The mapped index in [0, n), or -1 for a CONSTANT outside sample. */
static __device__ __forceinline__ int
med_border_index (int mode, int i, int n)
{
  if ((unsigned) i < (unsigned) n)
    return i;
  if (mode == CM_BORDER_CONSTANT)
    return -1;
  if (n == 1)
    return 0;
  if (mode == CM_BORDER_REPLICATE)
    return i < 0 ? 0 : n - 1;
  if (mode == CM_BORDER_REFLECT) {
    int period = 2 * n;
    int m = i % period;
    if (m < 0)
      m += period;
    return m < n ? m : period - 1 - m;
  }
  /* CM_BORDER_MIRROR */
  int period = 2 * n - 2;
  int m = i % period;
  if (m < 0)
    m += period;
  return m < n ? m : period - m;
}

static __device__ __forceinline__ uint32_t
med_load (const uint8_t * row, int x, int bpp)
{
  if (bpp == 1)
    return row[x];
  return ((const uint16_t *) row)[x];
}

/* The one border helper: sample (x, y) of the border-extended plane. */
static __device__ __forceinline__ uint32_t
med_fetch (const uint8_t * data, size_t pitch, int width, int height,
    int bpp, int mode, uint32_t cval, int x, int y)
{
  int mx = med_border_index (mode, x, width);
  int my = med_border_index (mode, y, height);

  if ((mx | my) < 0)
    return cval;
  return med_load (data + (size_t) my * pitch, mx, bpp);
}

static __device__ __forceinline__ void
med_store (uint8_t * row, int x, int bpp, uint32_t v)
{
  if (bpp == 1)
    row[x] = (uint8_t) v;
  else
    ((uint16_t *) row)[x] = (uint16_t) v;
}

/* ---- selection networks (median-net*.cu) ---------------------------------
 * Pruned selection networks shared by the windows of a thread, for square
 * windows of side 3, 5, 7, 9, 11, 13, 15 and the ranks 0 (variant 0),
 * (N-1)/2 (variant 1) and N-1 (variant 2). */
enum
{
  MED_NET_MIN = 0,
  MED_NET_MEDIAN = 1,
  MED_NET_MAX = 2
};

int med_net_tile_available (int side);
/* narrow: MED_NET_NARROW_TX outputs a thread instead of the side's own
 * (16 up to 9 x 9, 8 at 11 x 11, 4 above), more blocks of less work each
 * for frames too small to fill the device with the wide ones */
#define MED_NET_NARROW_TX 4
cudaError_t med_net_tile_launch (int side, int variant, int narrow,
    const med_args * a, cudaStream_t stream);
/* one launcher per side, in median-net<side>.cu */
typedef cudaError_t med_net_launch_fn (int variant, int narrow,
    const med_args * a, cudaStream_t stream);
med_net_launch_fn med_net3_launch, med_net5_launch, med_net7_launch,
    med_net9_launch, med_net11_launch, med_net13_launch, med_net15_launch;

/* 3 x 3 variants as a streaming kernel (median-stream3.cu): 16-byte
 * strips, a thread walking down rows. Needs 16-byte aligned data and
 * pitches (med_s3_supported); cudaErrorInvalidValue otherwise. */
int med_s3_supported (const med_args * a);
cudaError_t med_s3_launch (int variant, const med_args * a,
    cudaStream_t stream);

/* One full sorting network of nmax (16, 32 or 64) inputs per output,
 * window padded with the maximum, any window of N <= nmax, rank a->k. */
int med_net_sort_size (int n);  /* bucket for N, 0 if N > 64 */
cudaError_t med_net_sort_launch (int nmax, const med_args * a,
    cudaStream_t stream);

/* ---- sliding histograms (median-hist.cu, median-hist16.cu) ---------------
 * 8-bit: med_hist8_kernel (median-hist.cu); 16-bit: the walk kernel
 * (median-hist16.cu). */
struct med_hist_config
{
  int threads;                  /* block size, multiple of 32              */
  int seg_rows;                 /* output rows per thread                  */
  size_t smem;                  /* dynamic shared memory bytes             */
  int band16;                   /* 16-bit: band of 8 or 16 high bytes
                                   (set by caller)                         */
};

/* Output rows a segment (a thread's or a warp's) of segs segments: a
 * segment pays an initial window besides its slides, so at least half a
 * window high, and at least 8 rows; at most the image */
static inline int
med_hist_seg_rows (const med_args * a, int segs)
{
  int rows;

  if (segs < 1)
    segs = 1;
  rows = (a->height + segs - 1) / segs;
  if (rows < a->wh / 2)
    rows = a->wh / 2;
  if (rows < 8)
    rows = 8;
  if (rows > a->height)
    rows = a->height;
  return rows;
}

/* Block size, rows per thread and shared memory for this device (the
 * current one) and problem. Sets the kernel's shared-memory limit when it
 * needs more than 48 KB. */
cudaError_t med_hist_configure (const med_args * a,
    struct med_hist_config *cfg);
cudaError_t med_hist_launch (const med_args * a,
    const struct med_hist_config *cfg, cudaStream_t stream);
/* 16-bit (median-hist16.cu), called by the two above */
cudaError_t med_h16w_configure (const med_args * a,
    struct med_hist_config *cfg);
cudaError_t med_h16w_launch (const med_args * a,
    const struct med_hist_config *cfg, cudaStream_t stream);
