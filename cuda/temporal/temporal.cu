/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CUDA plan of the temporal percentile (temporal.h): the device ring,
 * allocated once, where the window lives, and the one place a kernel is
 * picked for a window (pick_kernel), for every window from 1 to `frames`
 * when the plan is made (and again when the percentile changes). */
#include <stdlib.h>

#include "cm-cuda.h"
#include "cm-rank.h"
#include "temporal-impl.cuh"
#include "temporal.h"

/* The kernel for a window of n at rank k */
struct kernel_pick
{
  int runs;                     /* the ring by sample: temporal-runs.cu */
  int network;                  /* 0: histogram */
  int capacity;                 /* the network's inputs */
  int median_pruned;
};

struct cm_temporal_plan
{
  cm_temporal_desc desc;
  cm_temporal_tuning tuning;
  int width, height, samples;
  cm_depth depth;
  uint8_t *ring;
  size_t ring_pitch, slot_bytes, run_bytes;     /* run_bytes: by sample */
  int pos;                      /* the slot of the next push */
  int seen;                     /* frames since the reset, <= frames */
  int window;                   /* n of the last push */
  const char *algorithm;        /* of the last push */
  temporal_hist_opts hist;      /* from the tuning */
  int hist_smem;                /* a histogram block's bytes */
  kernel_pick pick[CM_TEMPORAL_MAX_FRAMES + 1];   /* by window n */
};

static kernel_pick
pick_kernel (const cm_temporal_plan * p, int n, int k)
{
  const cm_temporal_tuning &t = p->tuning;
  int net_max = t.network_max > 0 ? t.network_max : CM_TEMPORAL_NETWORK_MAX;
  kernel_pick r = { 0, 0, 0, 0 };

  if (p->run_bytes > 0) {
    r.runs = 1;
    return r;
  }

  if (t.algorithm == CM_TEMPORAL_NETWORK)
    net_max = CM_TEMPORAL_NETWORK_MAX;
  else if (t.algorithm == CM_TEMPORAL_HISTOGRAM)
    net_max = 0;
  if (net_max > CM_TEMPORAL_NETWORK_MAX)
    net_max = CM_TEMPORAL_NETWORK_MAX;
  if (n > net_max)
    return r;
  r.network = 1;
  if (t.median_pruned != 2 && temporal_network_has_median (n) &&
      k == n / 2) {
    r.capacity = n;
    r.median_pruned = 1;
  } else
    r.capacity = temporal_network_capacity (n);
  return r;
}

/* "network-<c>", "network-<n>-median" (static strings) */
static const char *
network_name (int capacity, int median)
{
  static const char *const names[] = {
    "network-0", "network-1", "network-2", "network-3", "network-4",
    "network-5", "network-6", "network-7", "network-8", "network-9",
    "network-10", "network-11", "network-12", "network-13", "network-14",
    "network-15", "network-16", "network-17", "network-18", "network-19",
    "network-20", "network-21", "network-22", "network-23", "network-24",
    "network-25", "network-26", "network-27", "network-28", "network-29",
    "network-30", "network-31", "network-32"
  };
  static const char *const medians[] = {
    "", "", "", "network-3-median", "", "network-5-median", "",
    "network-7-median", "", "network-9-median", "", "network-11-median", "",
    "network-13-median", "", "network-15-median", "", "network-17-median",
    "", "network-19-median", "", "network-21-median", "",
    "network-23-median", "", "network-25-median", "", "network-27-median",
    "", "network-29-median", "", "network-31-median"
  };

  if (capacity < 0 || capacity > CM_TEMPORAL_NETWORK_MAX)
    return "network";
  return median && capacity < 32 ? medians[capacity] : names[capacity];
}

/* the kernels of every window n of the plan at its percentile */
static void
pick_kernels (cm_temporal_plan * p)
{
  for (int n = 1; n <= p->desc.frames; n++)
    p->pick[n] = pick_kernel (p, n, cm_percentile_rank (p->desc.percentile,
            n));
}

cm_status
cm_temporal_plan_new (cm_temporal_plan ** out, const cm_temporal_desc * desc,
    int width, int height, cm_depth depth)
{
  return cm_temporal_plan_new_tuned (out, desc, width, height, depth, NULL);
}

cm_status
cm_temporal_plan_new_tuned (cm_temporal_plan ** out,
    const cm_temporal_desc * desc, int width, int height, cm_depth depth,
    const cm_temporal_tuning * tuning)
{
  const int by_sample = tuning != NULL && tuning->ring_by_sample != 0 ?
      tuning->ring_by_sample == 1 :
      desc != NULL && desc->frames > CM_TEMPORAL_NETWORK_MAX;
  size_t pitch, run;
  const size_t bytes = cm_temporal_ring_layout (desc, width, height, depth,
      by_sample, &pitch, &run);
  cm_temporal_plan *p;
  cm_status st;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (bytes == 0 || (size_t) width * desc->channels > (size_t) INT32_MAX)
    return CM_ERR_INVALID_ARG;
  if (tuning != NULL && ((int) tuning->algorithm < 0 ||
          (int) tuning->algorithm >= CM_TEMPORAL_ALGORITHM_COUNT ||
          tuning->network_max < 0 ||
          tuning->network_max > CM_TEMPORAL_NETWORK_MAX ||
          tuning->median_pruned < 0 || tuning->median_pruned > 2 ||
          tuning->hist_prefetch < 0 || tuning->hist_prefetch > 2 ||
          tuning->hist_atomic < 0 || tuning->hist_atomic > 2 ||
          tuning->hist_blocks < 0 || tuning->hist_blocks > 3 ||
          tuning->hist_quads < 0 || tuning->hist_quads > 2 ||
          tuning->ring_by_sample < 0 || tuning->ring_by_sample > 2))
    return CM_ERR_INVALID_ARG;
  p = cm_plan_alloc<cm_temporal_plan> (desc, width, height, depth);
  if (p == NULL)
    return CM_ERR_NO_MEMORY;
  if (tuning != NULL)
    p->tuning = *tuning;
  p->samples = width * desc->channels;
  p->ring_pitch = pitch;
  p->slot_bytes = pitch * (size_t) height;
  p->run_bytes = run;
  p->algorithm = "none";
  p->hist.prefetch = p->tuning.hist_prefetch == 1;
  p->hist.atomic = p->tuning.hist_atomic == 1;
  p->hist.blocks = p->tuning.hist_blocks;
  p->hist.quads = p->tuning.hist_quads == 1;
  pick_kernels (p);
  /* the kernels the picks can launch allowed their shared memory here,
   * not at each push */
  st = cm_cuda_status (by_sample ? temporal_runs_prepare (cm_depth_bytes
          (depth)) : temporal_hist_prepare (cm_depth_bytes (depth), p->hist,
          &p->hist_smem));
  if (st == CM_OK)
    st = cm_cuda_status (cudaMalloc ((void **) &p->ring, bytes));
  /* once: a run's words past the window and the slot of a window's
   * first frame are read (and dropped) before they are written. Waited
   * for: the pushes' streams may be non-blocking ones, which do not wait
   * for the legacy default stream */
  if (st == CM_OK)
    st = cm_cuda_status (cudaMemsetAsync (p->ring, 0, bytes, 0));
  if (st == CM_OK)
    st = cm_cuda_status (cudaStreamSynchronize (0));
  if (st != CM_OK) {
    cudaFree (p->ring);
    free (p);
    return st;
  }
  *out = p;
  return CM_OK;
}

void
cm_temporal_plan_free (cm_temporal_plan * p)
{
  if (p == NULL)
    return;
  cudaFree (p->ring);
  free (p);
}

void
cm_temporal_plan_reset (cm_temporal_plan * p)
{
  if (p == NULL)
    return;
  p->pos = 0;
  p->seen = 0;
  p->window = 0;
}

int
cm_temporal_plan_window (const cm_temporal_plan * p)
{
  return p != NULL ? p->window : 0;
}

cm_status
cm_temporal_plan_set_rank (cm_temporal_plan * p, double percentile,
    cm_temporal_output output)
{
  cm_temporal_desc d;

  if (p == NULL)
    return CM_ERR_INVALID_ARG;
  d = p->desc;
  d.percentile = percentile;
  d.output = output;
  if (cm_temporal_desc_check (&d) != CM_OK)
    return CM_ERR_INVALID_ARG;
  p->desc = d;
  pick_kernels (p);
  return CM_OK;
}

const char *
cm_temporal_plan_algorithm (const cm_temporal_plan * p)
{
  return p != NULL ? p->algorithm : "none";
}

/* A device image of the plan's size, depth and channels; 16-bit samples
 * 2-byte aligned */
static int
image_fits (const cm_temporal_plan * p, const cm_image_packed * img)
{
  const int bpp = cm_depth_bytes (p->depth);

  return img != NULL && img->data != NULL && img->width == p->width &&
      img->height == p->height && img->depth == p->depth &&
      img->channels == p->desc.channels &&
      img->pitch >= (size_t) p->samples * bpp &&
      (bpp == 1 || (((uintptr_t) img->data | img->pitch) & 1) == 0);
}

/* dst is src, or their bytes do not intersect */
static int
apart_or_same (const cm_image_packed * src, const cm_image_packed * dst,
    size_t row_bytes)
{
  if (src->data == dst->data && src->pitch == dst->pitch)
    return 1;
  return !cm_ranges_overlap (src->data, cm_view_span (src->pitch,
          src->height, row_bytes), dst->data, cm_view_span (dst->pitch,
          dst->height, row_bytes));
}

cm_status
cm_temporal_plan_push (cm_temporal_plan * p, const cm_image_packed * src,
    const cm_image_packed * dst, void *stream)
{
  const int bpp = cm_depth_bytes (p ? p->depth : CM_DEPTH_8);
  temporal_args t;
  kernel_pick kp;
  cudaError_t e;

  if (p == NULL || !image_fits (p, src) || !image_fits (p, dst) ||
      !apart_or_same (src, dst, (size_t) p->samples * bpp))
    return CM_ERR_INVALID_ARG;
  t.src = (const uint8_t *) src->data;
  t.src_pitch = src->pitch;
  t.dst = (uint8_t *) dst->data;
  t.dst_pitch = dst->pitch;
  t.ring = p->ring;
  t.ring_pitch = p->ring_pitch;
  t.slot_bytes = p->slot_bytes;
  t.run_bytes = p->run_bytes;
  t.samples = p->samples;
  t.height = p->height;
  t.n = p->seen < p->desc.frames ? p->seen + 1 : p->desc.frames;
  t.pos = p->pos;
  t.k = cm_percentile_rank (p->desc.percentile, t.n);
  t.diff = p->desc.output == CM_TEMPORAL_DIFFERENCE;
  t.channels = p->desc.channels;
  t.alpha = p->desc.alpha;

  kp = p->pick[t.n];
  if (kp.runs)
    e = temporal_runs_launch (t, bpp, (cudaStream_t) stream);
  else if (kp.network)
    e = temporal_network_launch (t, bpp, kp.capacity, kp.median_pruned,
        (cudaStream_t) stream);
  else
    e = temporal_hist_launch (t, bpp, p->hist, p->hist_smem,
        (cudaStream_t) stream);
  if (e != cudaSuccess)
    return cm_cuda_status (e);
  p->algorithm = kp.runs ? (bpp == 1 ? "by-sample-8" : "by-sample-16") :
      kp.network ? network_name (kp.capacity, kp.median_pruned) :
      bpp == 1 ? "histogram-8" : "histogram-16";
  p->window = t.n;
  p->seen = t.n;
  p->pos = (p->pos + 1) % p->desc.frames;
  return CM_OK;
}
