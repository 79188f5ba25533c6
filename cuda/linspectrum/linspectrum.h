/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Linear openings/closings in many orientations at once (the analyser
 * behind cudalinspectrum): angular spectrum, supremum and orientation
 * images (paper 000, Karas et al., eqs. 3 and 6; docs/design.md).
 * CPU reference in linspectrum-ref.c, CUDA plan in linspectrum.cu; both
 * implement exactly the definition below and agree bit for bit.
 *
 * ---- Definition ---------------------------------------------------------
 *
 * Orientations. alpha_i = angle_min + i * angle_step (degrees, evaluated
 * in IEEE double exactly as written, counter-clockwise from +x with image
 * y pointing down), for i = 0, 1, ... while alpha_i < angle_max
 * (cm_linspectrum_count_angles). So 0..180 step 1 gives 180 orientations
 * and -10..10 step 0.25 gives 80 (-10 .. 9.75).
 *
 * Scan lines (the digital lines of paper 000 section 4.3, Bresenham
 * style). For an orientation alpha let r = fmod (alpha, 180.0), r += 180.0
 * if r < 0, r = 0.0 if then r >= 180.0 (so r is in [0, 180)).
 *  - "shallow" when r <= 45 or r >= 135: slope k = tan (t * M_PI / 180.0)
 *    with t = r (r <= 45) or t = r - 180.0 (r >= 135): k = tan alpha,
 *    |k| <= 1. Scan line b (any integer) is the set of pixels
 *    (x, b - lround (x * k)), ordered by increasing x; the position of a
 *    pixel on its line is p = x.
 *  - "steep" otherwise: k = tan ((90.0 - r) * M_PI / 180.0) = cot alpha,
 *    |k| < 1. Scan line b is the set of pixels (b - lround (y * k), y),
 *    ordered by increasing y (downwards); the position is p = y.
 * lround rounds half away from zero (C99); every product q * k is one IEEE
 * double multiplication. cm_linspectrum_line_geometry returns (steep, k).
 * Every pixel lies on exactly one scan line of each orientation
 * (b = y + lround (x * k), resp. x + lround (y * k)), and lround (q * k)
 * is monotone in q, so the pixels of a line that lie inside the image are
 * one run of consecutive positions p0 .. p1 (lines are cut at the image
 * border).
 *
 * Opening of a run g (p0 .. p1) by the segment of L = length positions
 * with its origin at index o = L / 2 (integer division), NEUTRAL border at
 * each stage (positions outside the run never win, docs/design.md):
 *     e(a) = min { g(q) : q in [a - o, a - o + L - 1] and in [p0, p1] }
 *     gamma(p) = max { e(a) : a in [p - (L - 1 - o), p + o] and in [p0, p1] }
 * for a, p in [p0, p1]. Equivalently gamma(p) is the largest, over the
 * windows W of L consecutive positions that contain p and whose origin
 * (first position + o) lies in the run, of the minimum of g over W cut to
 * the run. The windows near the ends of a run are cut, not discarded, so
 * a run shorter than L is not erased: gamma >= min of the run everywhere,
 * and a run of at most min (o, L - 1 - o) + 1 pixels becomes its minimum.
 * This is exactly the 2-D opening (cm_morph_ref, CM_MORPH_OPEN, border
 * CM_BORDER_NEUTRAL) by
 *   - alpha = 0 (mod 180): cm_se_new_rect (L, 1);
 *   - alpha = 90: cm_se_new_rect (1, L);
 *   - alpha = 45: the offsets (t, -t), t = -o .. L - 1 - o, origin at
 *     t = 0 (cm_se_new_line (L, 45) when L is odd);
 *   - alpha = 135: the offsets (t, t), t = -o .. L - 1 - o;
 * at other angles the scan-line segment is not translation invariant (it
 * follows the line through the pixel, as in the paper) and differs from
 * cm_se_new_line.
 *
 * Closing (op CM_MORPH_CLOSE, dark structures) by duality:
 * phi (f) = M - gamma (M - f), M = 2^depth - 1: the max over the window
 * becomes a min and the min a max, with the same windows (origin at index
 * o). For odd L this is the 2-D closing (cm_morph_ref, CM_MORPH_CLOSE,
 * NEUTRAL) by the same segment; for even L it is the 2-D closing by the
 * reflected segment (cm_se_reflect: origin at index L - 1 - o), because
 * cm_morph_ref's closing dilates by the reflected SE first.
 *
 * Outputs, for orientation i and the filtered image F_i = gamma_i (f)
 * (OPEN) or phi_i (f) (CLOSE):
 *  - spectrum[i] = sum over all pixels of F_i (paper 000 eq. 6), uint64;
 *  - supremum (OPEN) = max_i F_i, infimum (CLOSE) = min_i F_i, per pixel,
 *    same depth as the input (eq. 3);
 *  - orientation = the smallest i at which that extreme is reached
 *    (uint16 image).
 * ------------------------------------------------------------------------ */
#pragma once

#include <stdint.h>
#include "cm-status.h"
#include "cm-image.h"
#include "morph/morph.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CM_LINSPECTRUM_MAX_ANGLES 4096  /* orientations per descriptor   */
#define CM_LINSPECTRUM_MAX_LENGTH 4095  /* longest segment L             */
#define CM_LINSPECTRUM_MAX_SIZE 32767   /* largest width/height (plans)  */

typedef struct
{
  int length;                   /* L >= 1 pixels                            */
  double angle_min;             /* degrees, first orientation               */
  double angle_max;             /* exclusive upper bound, > angle_min       */
  double angle_step;            /* > 0; sub-degree steps are fine           */
  cm_morph_op op;               /* CM_MORPH_OPEN or CM_MORPH_CLOSE          */
  int want_supremum;            /* plans: produce the supremum image        */
  int want_orientation;         /* plans: produce the orientation image     */
} cm_linspectrum_desc;

/* CM_OK, or CM_ERR_INVALID_ARG when: desc NULL, length outside
 * 1..CM_LINSPECTRUM_MAX_LENGTH, an angle not finite, step <= 0,
 * max <= min, more than CM_LINSPECTRUM_MAX_ANGLES orientations, or op not
 * OPEN/CLOSE. */
cm_status cm_linspectrum_desc_check (const cm_linspectrum_desc * desc);

/* Number of orientations (>= 1), or 0 when desc is invalid. */
int cm_linspectrum_count_angles (const cm_linspectrum_desc * desc);

/* alpha_i = angle_min + i * angle_step (no check of i). */
double cm_linspectrum_angle (const cm_linspectrum_desc * desc, int i);

/* The scan-line geometry of the definition: *steep (0 or 1) and the slope
 * k. Either pointer may be NULL. */
void cm_linspectrum_line_geometry (double angle_deg, int *steep,
    double *slope);

/* CPU reference, one orientation: dst = gamma (OPEN) or phi (CLOSE) of
 * src along the scan lines of angle_deg. Host images of the same size and
 * depth, not overlapping. length 1..CM_LINSPECTRUM_MAX_LENGTH. */
cm_status cm_linopen_ref (int length, double angle_deg, cm_morph_op op,
    const cm_image * src, const cm_image * dst);

/* CPU reference, all orientations of desc: spectrum (uint64 array of
 * cm_linspectrum_count_angles (desc) entries, required), sup (same size
 * and depth as src) and orient (same size, CM_DEPTH_16) are written when
 * not NULL, whatever desc's want_* flags say. Host memory. */
cm_status cm_linspectrum_ref (const cm_linspectrum_desc * desc,
    const cm_image * src, uint64_t * spectrum, const cm_image * sup,
    const cm_image * orient);
/* The same on @opts->threads threads (the orientations split in
 * contiguous bands, each band with its own supremum and orientation when
 * they are wanted: 4 bytes per pixel per band), stoppable through
 * @opts->cancel between two scan lines (CM_ERR_CANCELLED, the outputs
 * undefined); @opts NULL: cm_linspectrum_ref. The results are the same bit
 * for bit whatever the number of threads. */
cm_status cm_linspectrum_ref_mt (const cm_linspectrum_desc * desc,
    const cm_image * src, uint64_t * spectrum, const cm_image * sup,
    const cm_image * orient, const cm_cpu_opts * opts);

/* Dominant orientation of a spectrum of n = cm_linspectrum_count_angles
 * (desc) entries: the index i of the largest value (OPEN) or smallest
 * (CLOSE), smallest index on ties, refined below the step by the parabola
 * through (i - 1, i, i + 1):
 *     d = (y[i-1] - y[i+1]) / (2 (y[i-1] - 2 y[i] + y[i+1])), clamped to
 *     [-1/2, 1/2] (0 when the denominator is 0),
 *     *angle = alpha_i + d * angle_step,
 *     *value = y[i] - (y[i-1] - y[i+1]) d / 4.
 * When the orientations cover exactly 180 degrees (n * angle_step = 180 up
 * to 1e-9 relative, n >= 3) the neighbours wrap around (index -1 is n - 1)
 * and the angle is brought into [angle_min, angle_min + 180); otherwise the
 * first and last orientations are not refined (d = 0), nor is anything
 * when n < 3. value may be NULL. */
cm_status cm_linspectrum_dominant (const cm_linspectrum_desc * desc,
    const uint64_t * spectrum, int n, double *angle, double *value);

/* ---- CUDA plan -----------------------------------------------------------
 * Built once per (desc, width, height, depth) on the current device; owns
 * every device buffer it needs (scan-line tables, spectrum, a transposed
 * copy of the input for the shallow orientations, supremum/orientation
 * accumulators when wanted) and a pinned host copy of the spectrum.
 * A descriptor of one orientation (one opening) has its own path: the
 * opened image is written directly (no accumulators) and the orientation
 * image, when wanted, is 0 (cm_linspectrum_tuning.general_kernel sends it
 * through the general kernel, for comparisons).
 * Returns CM_ERR_UNSUPPORTED when one warp's line buffers
 * (2 * (length + 1) * 32 samples) exceed the device's shared memory per
 * block, CM_ERR_INVALID_ARG for sizes outside 1..CM_LINSPECTRUM_MAX_SIZE. */
typedef struct cm_linspectrum_plan cm_linspectrum_plan;

cm_status cm_linspectrum_plan_new (cm_linspectrum_plan ** out,
    const cm_linspectrum_desc * desc, int width, int height, cm_depth depth);

/* Kernel variants and sizes for tests and benchmarks. The library reads no
 * environment: a caller that wants a variant passes it here. A zeroed
 * struct (or NULL) gives the defaults, which cm_linspectrum_plan_new
 * uses; the results are the same whatever the tuning. */
typedef struct
{
  int warps_per_block;          /* 1, 2 or 4 (CM_ERR_UNSUPPORTED when it
                                   does not fit); 0: the most resident
                                   warps per multiprocessor               */
  int zone_length;              /* positions per zone (e.g. 40 splits every
                                   line into many zones, so that the zone
                                   overlap runs on every size); 0: chosen
                                   from the device's occupancy            */
  int general_kernel;           /* nonzero: a descriptor of one orientation
                                   runs the general kernel (packed words,
                                   finalisation) instead of its own path  */
  int sup_reads_ahead;          /* the general kernel's supremum sink:
                                   1 reads its words one chunk ahead, -1 at
                                   each step; 0: ahead above length 128   */
  int single_target;            /* one orientation: the warps per
                                   multiprocessor its zones aim at; 0: 16 */
  int sheared_max;              /* one orientation: the longest segment run
                                   on the sheared tile, beyond it the
                                   stream kernel; -1: never the tile;
                                   0: 63                                  */
  int sheared_tile;             /* output rows per block of the sheared
                                   tile (rounded up to its chunk); 0: its
                                   own choice                             */
  int items_major;              /* nonzero: the general kernel's grid runs
                                   the items of one orientation before the
                                   next, the order that plans of more than
                                   65,535 blocks of items take; 0: the
                                   neighbouring orientations of an item
                                   together, where the grid allows       */
} cm_linspectrum_tuning;

/* cm_linspectrum_plan_new with a tuning (NULL: the defaults).
 * CM_ERR_INVALID_ARG for a field out of its range. */
cm_status cm_linspectrum_plan_new_tuned (cm_linspectrum_plan ** out,
    const cm_linspectrum_desc * desc, int width, int height, cm_depth depth,
    const cm_linspectrum_tuning * tuning);

/* Queues on stream (a cudaStream_t, NULL = legacy default stream): the
 * whole computation, then an async copy of the spectrum into the plan's
 * pinned host array. src: device image of the plan's size and depth. sup
 * (same size/depth) is required when desc->want_supremum and orient (same
 * size, CM_DEPTH_16) when desc->want_orientation; each is ignored
 * otherwise. Neither may overlap src. 16-bit views need even addresses
 * and pitches. */
cm_status cm_linspectrum_plan_run (cm_linspectrum_plan * plan,
    const cm_image * src, const cm_image * sup, const cm_image * orient,
    void *stream);

/* The pinned host spectrum (cm_linspectrum_plan_count entries) written by
 * the last run: valid once its stream has synchronised. */
const uint64_t *cm_linspectrum_plan_spectrum (const cm_linspectrum_plan *
    plan);
/* The same on the device (valid in stream order after a run). */
const uint64_t *cm_linspectrum_plan_spectrum_device (const
    cm_linspectrum_plan * plan);
int cm_linspectrum_plan_count (const cm_linspectrum_plan * plan);

/* How the plan runs, for logs, benchmarks and test diagnostics, e.g.
 * "stream wpb=4 smem=10496 zlen=640 items=29 shallow+steep sup" or
 * "single wpb=4 smem=10752 zlen=137 items=2101 shallow store" (stored in
 * the plan, valid until it is freed). */
const char *cm_linspectrum_plan_describe (const cm_linspectrum_plan * plan);

void cm_linspectrum_plan_free (cm_linspectrum_plan * plan);

#ifdef __cplusplus
}
#endif
