/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fast CPU median / rank filter: exactly cm_median_ref (median.h), bit
 * for bit, for the windows it takes, by selection networks of min and max
 * over whole rows (median-cpu-net.h, median-cpu-exec.h) and, for large
 * windows on 8-bit images, constant-time histograms (median-cpu-hist.h).
 * The reference stays the definition and the tests' oracle; this is what
 * backend=cpu runs. */
#pragma once

#include "median.h"

CM_BEGIN_DECLS

/* Largest window side the networks take: at 31 x 31 they still take half
 * the reference's time, at 41 x 41 as long (1080p, one core) */
#define CM_MEDIAN_CPU_MAX_SIDE 31

/* Whether the fast path takes @desc on images of @depth: any window on
 * 8-bit images (the constant-time histograms of median-cpu-hist.h where
 * they are faster than the networks: medians from 23 x 23), windows whose
 * sides are at most CM_MEDIAN_CPU_MAX_SIDE on 16-bit images (any rank,
 * border and image size). Larger 16-bit windows are left to the
 * reference's sliding histogram. */
int cm_median_cpu_takes (const cm_median_desc * desc, cm_depth depth);

/* The fast path for one window, rank and depth, built once, run on images
 * of that depth and any size. */
typedef struct cm_median_cpu_plan cm_median_cpu_plan;

/* CM_ERR_UNSUPPORTED when !cm_median_cpu_takes (desc, depth) (and
 * CM_ERR_INVALID_ARG when desc or depth is invalid). */
cm_status cm_median_cpu_plan_new (cm_median_cpu_plan ** out,
    const cm_median_desc * desc, cm_depth depth);
/* src, dst: host images of the plan's depth and one size, not
 * overlapping, any pitch. Rows split among @opts->threads threads;
 * @opts->cancel stops the run between rows (CM_ERR_CANCELLED). @opts
 * NULL: the calling thread. The plan keeps the runs' scratch (allocated
 * by the first run, again only when a run needs more): one run at a
 * time. */
cm_status cm_median_cpu_plan_run (cm_median_cpu_plan * plan,
    const cm_image * src, const cm_image * dst, const cm_cpu_opts * opts);
void cm_median_cpu_plan_free (cm_median_cpu_plan * plan);

/* What the plan runs: "cpu-median3x3" (the 3x3 median's own loop),
 * "cpu-network" or "cpu-histogram" (static string). */
const char *cm_median_cpu_plan_algorithm (const cm_median_cpu_plan * plan);

/* One call: the fast path where it takes @desc at src's depth, else
 * cm_median_ref_mt. */
cm_status cm_median_cpu_run (const cm_median_desc * desc,
    const cm_image * src, const cm_image * dst, const cm_cpu_opts * opts);

CM_END_DECLS
