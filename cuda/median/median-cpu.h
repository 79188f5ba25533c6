/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fast CPU median / rank filter: exactly cm_median_ref (median.h), bit
 * for bit, for the windows it takes, by selection networks of min and max
 * over whole rows (median-cpu-net.h, median-cpu-exec.h). The reference
 * stays the definition and the tests' oracle; this is what backend=cpu
 * runs. */
#pragma once

#include "median.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest window side the networks take: at 31 x 31 they still take half
 * the reference's time, at 41 x 41 as long (1080p, one core) */
#define CM_MEDIAN_CPU_MAX_SIDE 31

/* Whether the fast path takes @desc (valid, both sides of the window at
 * most CM_MEDIAN_CPU_MAX_SIDE; any rank, border, depth and image size).
 * Larger windows are left to the reference's sliding histogram. */
int cm_median_cpu_takes (const cm_median_desc * desc);

/* The networks of one window and rank, built once, run on any image of
 * either depth and any size. */
typedef struct cm_median_cpu_plan cm_median_cpu_plan;

/* CM_ERR_UNSUPPORTED when !cm_median_cpu_takes (desc) (and
 * CM_ERR_INVALID_ARG when desc is invalid). */
cm_status cm_median_cpu_plan_new (cm_median_cpu_plan ** out,
    const cm_median_desc * desc);
/* src, dst: host images of one size and depth, not overlapping, any
 * pitch. Rows split among @opts->threads threads; @opts->cancel stops the
 * run between rows (CM_ERR_CANCELLED). @opts NULL: the calling thread. */
cm_status cm_median_cpu_plan_run (const cm_median_cpu_plan * plan,
    const cm_image * src, const cm_image * dst, const cm_cpu_opts * opts);
void cm_median_cpu_plan_free (cm_median_cpu_plan * plan);

/* One call: the networks where they take @desc, else cm_median_ref_mt. */
cm_status cm_median_cpu_run (const cm_median_desc * desc,
    const cm_image * src, const cm_image * dst, const cm_cpu_opts * opts);

#ifdef __cplusplus
}
#endif
