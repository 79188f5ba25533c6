/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Median and rank (percentile) filters: CPU reference (median-ref.c) and
 * CUDA plans (median.cu and median-*.cu). Both implement exactly the
 * definitions below and agree bit for bit.
 *
 * Definitions (docs/design.md):
 *
 *  - The window is window_w x window_h pixels, both sides odd, with its
 *    origin at (window_w / 2, window_h / 2): output (x, y) looks at the
 *    input pixels (x + dx, y + dy), |dx| <= window_w / 2,
 *    |dy| <= window_h / 2. N = window_w * window_h.
 *  - The output is the value of rank k (0-based) of the N window samples
 *    sorted in ascending order, k = floor (p / 100 * (N - 1) + 1/2) with
 *    p = percentile in [0, 100] (cm_median_rank). p = 50 is the median,
 *    p = 0 the minimum (erosion by the rectangle), p = 100 the maximum
 *    (dilation by the rectangle).
 *  - Samples outside the image come from the border rule (cm-border.h):
 *    REPLICATE (the default for a median), REFLECT, MIRROR (the reflection
 *    repeated as often as needed on images smaller than the window) or
 *    CONSTANT (border_value, clamped to the depth's maximum). NEUTRAL has no
 *    meaning for a rank filter (no value "never wins" a median) and is
 *    treated exactly as REPLICATE.
 *
 * Colour ("luma") median, after Szántó & Fehér (paper 001, section 4), for
 * interleaved images of 3 or 4 channels (RGB, RGBA, BGRA, RGBx, ...):
 *
 *  - every pixel gets the luminance Y = (77 r + 150 g + 29 b) >> 8 computed
 *    in integers (32-bit arithmetic, so 16-bit samples give a 16-bit Y);
 *  - window pixels are ordered by the key (Y, window index), the window
 *    index being the raster position in the window, row-major:
 *    (dy + window_h / 2) * window_w + (dx + window_w / 2). So of several
 *    pixels with the same luminance the one higher up, then further left,
 *    in the window comes first;
 *  - the winner is the window pixel of rank k in that order; the output
 *    pixel takes the winner's R, G and B. The alpha channel (a_idx >= 0) is
 *    copied from the centre input pixel. A channel that is neither R, G, B
 *    nor alpha (the x of RGBx when a_idx is -1) is copied from the winner,
 *    so that with a_idx = -1 every output pixel is a copy of an input pixel;
 *  - border samples are the border-mapped pixels (all channels). For
 *    CONSTANT the outside pixel is (v, v, v) in R, G, B with v the border
 *    value, whose luminance is v; its other channels are v too.
 *
 *  No colour absent from the window (and the constant colour for CONSTANT)
 *  appears in the output.
 */
#pragma once

#include "cm-status.h"
#include "cm-image.h"
#include "cm-border.h"

CM_BEGIN_DECLS

/* Largest window side accepted (odd). Counts of a window fit 16 bits. */
#define CM_MEDIAN_MAX_WINDOW 255

typedef enum
{
  CM_MEDIAN_AUTO = 0,           /* pick by window size, depth and rank     */
  CM_MEDIAN_NETWORK = 1,        /* selection networks (see limits below)   */
  CM_MEDIAN_HISTOGRAM = 2       /* sliding histograms, any window          */
} cm_median_algorithm;

#define CM_MEDIAN_ALGORITHM_COUNT 3

/* Limits of CM_MEDIAN_NETWORK (a plan forced to it returns
 * CM_ERR_UNSUPPORTED outside them):
 *  - any window of N <= CM_MEDIAN_NETWORK_MAX_N samples at any rank
 *    (one sorting network per output);
 *  - square windows of side 3, 5, 7, 9, 11, 13 and 15 at rank 0, the
 *    median rank (N - 1) / 2 and rank N - 1 (pruned selection networks
 *    that share work between neighbouring windows). */
#define CM_MEDIAN_NETWORK_MAX_N 64

/* Plan flags (cm_median_desc.plan_flags) */
#define CM_MEDIAN_PLAN_LUMA 1u  /* the plan will also run
                                   cm_median_plan_run_luma: it allocates two
                                   luminance planes of the image size    */

typedef struct
{
  int window_w, window_h;       /* odd, 1 .. CM_MEDIAN_MAX_WINDOW          */
  double percentile;            /* 0 .. 100, 50 = median                   */
  cm_border_mode border;        /* NEUTRAL behaves as REPLICATE            */
  uint32_t border_value;        /* CONSTANT only, clamped to the depth     */
  cm_median_algorithm algorithm;        /* plans only; the reference ignores it */
  uint32_t plan_flags;          /* plans only: CM_MEDIAN_PLAN_*            */
} cm_median_desc;

/* Rank k (0-based) selected by desc: floor (p / 100 * (N - 1) + 1/2),
 * computed in double precision. -1 when desc is invalid. */
int cm_median_rank (const cm_median_desc * desc);

/* CM_OK when desc is valid (sizes, percentile, enums). */
cm_status cm_median_desc_check (const cm_median_desc * desc);

/* CPU reference, single channel: src and dst host images of the same size
 * and depth, not overlapping. */
cm_status cm_median_ref (const cm_median_desc * desc, const cm_image * src,
    const cm_image * dst);

/* CPU reference, luma mode: src and dst host interleaved images of the same
 * size, depth and channel count (3 or 4), not overlapping. r_idx, g_idx,
 * b_idx: distinct channel indices of R, G, B; a_idx: the alpha channel or
 * -1. */
cm_status cm_median_luma_ref (const cm_median_desc * desc,
    const cm_image_packed * src, const cm_image_packed * dst, int r_idx,
    int g_idx, int b_idx, int a_idx);

/* Both on @opts->threads threads (rows split in bands), stoppable through
 * @opts->cancel (CM_ERR_CANCELLED); @opts NULL: as above. The result is
 * the same whatever the number of threads. */
cm_status cm_median_ref_mt (const cm_median_desc * desc, const cm_image * src,
    const cm_image * dst, const cm_cpu_opts * opts);
cm_status cm_median_luma_ref_mt (const cm_median_desc * desc,
    const cm_image_packed * src, const cm_image_packed * dst, int r_idx,
    int g_idx, int b_idx, int a_idx, const cm_cpu_opts * opts);

/* CUDA plan: built once per (desc, width, height, depth) on the current
 * device, owns its device scratch and kernel choice; run on any stream for
 * device images of exactly that size and depth. Device image pitches must
 * be multiples of the sample size. */
typedef struct cm_median_plan cm_median_plan;

cm_status cm_median_plan_new (cm_median_plan ** out,
    const cm_median_desc * desc, int width, int height, cm_depth depth);

/* Kernel variants for tests and benchmarks. The library reads no
 * environment: a caller that wants a variant passes it here. A zeroed
 * struct (or NULL) gives the defaults, which cm_median_plan_new uses;
 * the result is the same whatever the variant, only the kernel changes. */
typedef struct
{
  int network3_shared;          /* nonzero: 3 x 3 windows at rank 0, the
                                   median and N - 1 run the shared-memory
                                   selection network (median-net3.cu, the
                                   streaming kernel's fallback for rows
                                   that are not 16-byte aligned) on every
                                   image instead of the streaming kernel  */
  int hist16_band;              /* 16-bit sliding histogram: high bytes
                                   with fine bins, 8 or 16; 0: 8          */
  int network_tiles;            /* outputs a thread of the square-window
                                   networks: CM_MEDIAN_TILES_*            */
} cm_median_tuning;

/* cm_median_tuning.network_tiles */
enum
{
  CM_MEDIAN_TILES_AUTO = 0,     /* narrow where wide tiles would not give
                                   every SM two blocks (small frames,
                                   regions of interest); 3 x 3 windows
                                   then run the narrow network rather than
                                   the streaming kernel                   */
  CM_MEDIAN_TILES_WIDE = 1,     /* the window's own: 16 outputs a thread
                                   up to 9 x 9, 8 at 11 x 11, 4 above; the
                                   3 x 3 streaming kernel on every frame  */
  CM_MEDIAN_TILES_NARROW = 2    /* 4 outputs a thread                     */
};

/* cm_median_plan_new with a tuning (NULL: the defaults).
 * CM_ERR_INVALID_ARG for a field out of its range. */
cm_status cm_median_plan_new_tuned (cm_median_plan ** out,
    const cm_median_desc * desc, int width, int height, cm_depth depth,
    const cm_median_tuning * tuning);
/* src, dst: single-channel device images, not overlapping. stream: a
 * cudaStream_t or NULL. Asynchronous: returns after queueing the work. */
cm_status cm_median_plan_run (cm_median_plan * plan, const cm_image * src,
    const cm_image * dst, void *stream);
/* Luma mode on interleaved device images (3 or 4 channels, plan depth);
 * the plan must have been made with CM_MEDIAN_PLAN_LUMA. The luminance
 * planes are plan scratch: runs of one plan must not overlap in time. */
cm_status cm_median_plan_run_luma (cm_median_plan * plan,
    const cm_image_packed * src, const cm_image_packed * dst, int r_idx,
    int g_idx, int b_idx, int a_idx, void *stream);
void cm_median_plan_free (cm_median_plan * plan);

/* Which algorithm the plan chose, e.g. "network-5x5", "network-sort-32",
 * "histogram-8", "histogram-16-walk", "copy" (static string). */
const char *cm_median_plan_algorithm (const cm_median_plan * plan);

const char *cm_median_algorithm_name (cm_median_algorithm algorithm);

CM_END_DECLS
