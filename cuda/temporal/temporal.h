/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Temporal percentile: per sample, a rank of the same sample over the
 * last n frames (the background of a still scene), or how far the current
 * frame is from it. The CPU reference (temporal-ref.c) is the definition;
 * the CUDA plan (temporal.cu) and the CPU backend (temporal-cpu.h) keep
 * the history themselves and agree with it bit for bit.
 *
 * Definitions (docs/design.md, "Temporal percentile"):
 *
 *  - The history begins at a reset (a new plan, cm_temporal_plan_reset).
 *    At frame t (the current one) the window is the n = min (frames,
 *    t - t0 + 1) frames t - n + 1 ... t, t0 the first frame after the
 *    reset: the window grows from 1 to `frames` and then slides.
 *  - Background: the value of rank k = floor (p / 100 * (n - 1) + 1/2)
 *    (cm_percentile_rank, the rank of cudamedian) of the n samples of
 *    that position sorted in ascending order, p = percentile.
 *  - Difference: |current - background| per sample.
 *  - Images are rows of width x channels samples (a plane: channels 1;
 *    RGBA-like formats: 4). Every channel is filtered on its own, except
 *    the alpha channel (desc.alpha >= 0), which is the current frame's.
 *  - For YUV formats the caller runs one filter per plane. Chroma planes
 *    filtered as background give the background's colour; with output
 *    difference the caller runs the filter on luma only (chroma of a
 *    difference means nothing) and fills the chroma planes with the
 *    neutral value (128, or 32768 at 16 bits) itself.
 *
 * Memory: the history is `frames` frames of the image's size, allocated
 * once when the plan is made (device memory for the plan, host memory for
 * the CPU backend), never per frame: cm_temporal_frame_bytes () each. */
#pragma once

#include <stddef.h>

#include "cm-image.h"
#include "cm-status.h"

CM_BEGIN_DECLS

#define CM_TEMPORAL_MAX_FRAMES 255

typedef enum
{
  CM_TEMPORAL_BACKGROUND = 0,   /* the percentile of the window          */
  CM_TEMPORAL_DIFFERENCE = 1    /* |current - background|                */
} cm_temporal_output;

#define CM_TEMPORAL_OUTPUT_COUNT 2

typedef struct
{
  int frames;                   /* the window when full, 1 .. 255, the
                                   current frame included                */
  double percentile;            /* 0 .. 100, 50: the median              */
  cm_temporal_output output;
  int channels;                 /* samples a pixel, 1 .. 4               */
  int alpha;                    /* the channel copied from the current
                                   frame, -1: none                       */
} cm_temporal_desc;

/* CM_OK when @desc is valid (ranges, enum, alpha < channels). */
cm_status cm_temporal_desc_check (const cm_temporal_desc * desc);

/* The rank of @desc's percentile in a window of @n frames (1 .. frames);
 * -1 when desc or n is invalid. */
int cm_temporal_rank (const cm_temporal_desc * desc, int n);

/* Bytes one frame of history takes for images of @width x @height pixels
 * of @channels samples at @depth, rows packed (the device plan rounds
 * rows up to 512 bytes, the CPU backend to 64 samples: see
 * cm_temporal_plan_ring_bytes, cm_temporal_cpu_ring_bytes); 0 on bad
 * arguments. The element states `frames` times this. */
size_t cm_temporal_frame_bytes (int width, int height, cm_depth depth,
    int channels);

/* CPU reference, stateless: @window holds the @n frames of the window,
 * oldest first, window[n - 1] the current frame (host interleaved images
 * of one size and depth, desc->channels channels); @dst (host, the same
 * size, not overlapping any of them) receives the output. Per sample: the
 * n samples gathered, sorted, rank k picked. 1 <= n <= desc->frames. */
cm_status cm_temporal_ref (const cm_temporal_desc * desc,
    const cm_image_packed * window, int n, const cm_image_packed * dst);

/* ---- CUDA plan ---------------------------------------------------------- */

/* The plan owns the history (a ring of `frames` device frames, allocated
 * once in cm_temporal_plan_new) and picks, for each window size n, one
 * kernel in one place (temporal.cu: pick_kernel). Up to
 * CM_TEMPORAL_NETWORK_MAX frames the ring is laid out by slot (frame after
 * frame) and:
 *  - n up to tuning.network_max: a sorting network held in registers
 *    (Batcher's merge exchange for exactly the window's size, or the next
 *    size built, padded with the maximum), packed 16x2 min/max (one
 *    VIMNMX on sm_90) for two samples an instruction, 4 samples a thread;
 *    the median of odd windows up to 31 is pruned to what that rank needs;
 *  - (tuning only) a histogram per sample, counted in the thread's own
 *    shared-memory bank (8-bit: 256 byte-wide bins; 16-bit: the high
 *    byte, then the low byte of the samples in the bin found).
 * Above, the ring is laid out by sample (a sample's slots side by side)
 * and every window is counted into the same bins from 16-byte words of
 * its run (temporal-runs.cu). */
typedef struct cm_temporal_plan cm_temporal_plan;

typedef enum
{
  CM_TEMPORAL_AUTO = 0,         /* by window size                        */
  CM_TEMPORAL_NETWORK = 1,      /* networks up to CM_TEMPORAL_NETWORK_MAX */
  CM_TEMPORAL_HISTOGRAM = 2     /* histograms, any n                     */
} cm_temporal_algorithm;

#define CM_TEMPORAL_ALGORITHM_COUNT 3

/* Largest window the networks take; larger `frames` lay the ring out by
 * sample (every window counted by temporal-runs.cu) */
#define CM_TEMPORAL_NETWORK_MAX 32

/* Tuning for tests and benchmarks (NULL or zeros: the defaults). The
 * result never depends on it. */
typedef struct
{
  cm_temporal_algorithm algorithm;      /* a forced one applies where it
                                           takes the window; AUTO elsewhere */
  int network_max;              /* AUTO: networks up to this n (1 .. 32),
                                   histograms above; 0: the default      */
  int median_pruned;            /* 0: default (on), 1 on, 2 off          */
  int hist_prefetch;            /* histogram ring loads with the L2
                                   prefetch hint: 0 default (off), 1 on,
                                   2 off (on, a warp's 32 bytes fetched
                                   256: 3x slower at 255 frames)         */
  int hist_atomic;              /* histogram bins updated by shared-memory
                                   atomics: 0 default (off), 1 on, 2 off */
  int hist_blocks;              /* histogram blocks an SM (1 .. 3: fewer
                                   samples in flight, so that 16-bit
                                   windows stay in L2 for the second
                                   pass), 0: as many as fit (3)          */
  int hist_quads;               /* histogram threads of 4 samples (a word
                                   a slot, 4 x the bins): 0 default (off),
                                   1 on, 2 off                           */
  int ring_by_sample;           /* the ring laid out by sample, every
                                   window counted there (temporal-runs.cu):
                                   0 default (above
                                   CM_TEMPORAL_NETWORK_MAX frames), 1 on,
                                   2 off                                 */
} cm_temporal_tuning;

/* A plan for images of @width x @height pixels of desc->channels samples
 * at @depth on the current device, its ring allocated here.
 * Out of device memory: CM_ERR_CUDA_BASE + cudaErrorMemoryAllocation
 * (cm_status_string: "out of memory"); the caller's message names
 * cm_temporal_plan_ring_bytes () for the same arguments. */
cm_status cm_temporal_plan_new (cm_temporal_plan ** out,
    const cm_temporal_desc * desc, int width, int height, cm_depth depth);
cm_status cm_temporal_plan_new_tuned (cm_temporal_plan ** out,
    const cm_temporal_desc * desc, int width, int height, cm_depth depth,
    const cm_temporal_tuning * tuning);
/* The device bytes a plan of these arguments allocates (its ring, laid
 * out by sample above CM_TEMPORAL_NETWORK_MAX frames); 0 for invalid
 * arguments. */
size_t cm_temporal_plan_ring_bytes (const cm_temporal_desc * desc,
    int width, int height, cm_depth depth);
/* Internal (the plan and its stubs): the ring's bytes and, through @pitch
 * and @run, its layout: by slot (@by_sample 0: `frames` slots of `height`
 * rows, rows rounded up to 512 bytes, *run 0) or by sample (a sample's
 * slots side by side, rounded up to 16 bytes, 16-bit samples as a run of
 * their high bytes and one of their low bytes (*run: all of a sample's),
 * the runs of a row in groups of 32 whose 16-byte words interleave:
 * temporal-runs.cu) */
size_t cm_temporal_ring_layout (const cm_temporal_desc * desc, int width,
    int height, cm_depth depth, int by_sample, size_t *pitch, size_t *run);

/* Adds @src (the current frame) to the history and writes the output of
 * the window it completes into @dst. Device interleaved images of the
 * plan's size, depth and channels; dst is src or does not overlap it.
 * Asynchronous on @stream (a cudaStream_t or NULL); pushes of one plan
 * must be queued on one stream (or ordered), as they share the ring. */
cm_status cm_temporal_plan_push (cm_temporal_plan * plan,
    const cm_image_packed * src, const cm_image_packed * dst, void *stream);
/* Begins the history anew: the next push has a window of 1. No device
 * work. */
void cm_temporal_plan_reset (cm_temporal_plan * plan);
/* The window of the last push (0 before the first one after a reset). */
int cm_temporal_plan_window (const cm_temporal_plan * plan);
/* A new percentile and output, the history kept (CM_ERR_INVALID_ARG for
 * values out of range). */
cm_status cm_temporal_plan_set_rank (cm_temporal_plan * plan,
    double percentile, cm_temporal_output output);
/* The kernel of the last push, e.g. "network-9", "network-32",
 * "network-25-median", "histogram-8", "histogram-16"; "none" before one
 * (static string). */
const char *cm_temporal_plan_algorithm (const cm_temporal_plan * plan);
void cm_temporal_plan_free (cm_temporal_plan * plan);

const char *cm_temporal_output_name (cm_temporal_output output);

CM_END_DECLS
