/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/temporal (.cu files): what a temporal kernel is given
 * (one push: the frame, the ring, the window and its rank), the launchers
 * of the kernel families, and the alpha lanes of a packed frame. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime.h>

/* One push. The window is ring slots 0 .. n - 1: the ring fills from slot
 * 0 after a reset, and once full every slot is in the window; slot pos
 * receives the current frame (src), which the kernel takes from src.
 * Two layouts: by slot (run_bytes 0: slot s of row y at ring + s *
 * slot_bytes + y * ring_pitch), or by sample (run_bytes > 0: sample x's
 * slots side by side, in 16-byte words interleaved with those of its
 * group of 32: temporal-runs.cu). */
struct temporal_args
{
  const uint8_t *src;
  size_t src_pitch;
  uint8_t *dst;
  size_t dst_pitch;
  uint8_t *ring;
  size_t ring_pitch;            /* a multiple of 512 */
  size_t slot_bytes;            /* by slot: ring_pitch x height */
  size_t run_bytes;             /* by sample: a multiple of 16 (of 32 at
                                   16 bits: two byte runs), else 0 */
  int samples;                  /* a row: width x channels */
  int height;
  int n, pos, k;                /* window, current slot, rank */
  int diff;                     /* output difference */
  int channels, alpha;          /* alpha: -1 or the current frame's channel */
};

/* Networks (temporal-network.cu): @capacity one of the sizes
 * temporal_network_capacity gives, capacity >= a.n; @median_pruned: the
 * network of exactly a.n inputs pruned to its median rank (a.n odd, <= 31,
 * a.k == a.n / 2). @bpp: 1 or 2. */
cudaError_t temporal_network_launch (const temporal_args &a, int bpp,
    int capacity, int median_pruned, cudaStream_t stream);
/* The smallest network built for @n inputs (n <= CM_TEMPORAL_NETWORK_MAX) */
int temporal_network_capacity (int n);
/* Whether a pruned median network is built for @n inputs */
int temporal_network_has_median (int n);

/* Histograms (temporal-hist.cu), any n */
struct temporal_hist_opts
{
  int prefetch;                 /* ring loads ask L2 for 256 bytes */
  int atomic;                   /* bins updated by shared-memory atomics */
  int blocks;                   /* blocks an SM, 0: as many as fit */
  int quads;                    /* 4 samples a thread (one word a slot) */
};

/* Once, when the plan is made: the kernel of @o allowed the shared
 * memory it needs, *@smem (what a launch then passes) */
cudaError_t temporal_hist_prepare (int bpp, const temporal_hist_opts &o,
    int *smem);
cudaError_t temporal_hist_launch (const temporal_args &a, int bpp,
    const temporal_hist_opts &o, int smem, cudaStream_t stream);

/* By sample (temporal-runs.cu), any n; prepared once when the plan is
 * made (its shared memory allowed) */
cudaError_t temporal_runs_prepare (int bpp);
cudaError_t temporal_runs_launch (const temporal_args &a, int bpp,
    cudaStream_t stream);

/* 1 when sample @s of a row is in the alpha channel */
static __device__ __forceinline__ bool
temporal_is_alpha (const temporal_args &a, int s)
{
  return a.alpha >= 0 && s % a.channels == a.alpha;
}
