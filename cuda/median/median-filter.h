/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One median (rank) filter, made for a backend and run with one call: on
 * the CPU the fast path of median-cpu.h where it takes the window and
 * depth, else the reference (cm_median_ref_mt; luma mode always
 * cm_median_luma_ref_mt), on the threads of the cpu options, or the CUDA
 * plan (cm_median_plan_*), behind one API, so that a caller does not
 * branch on the backend. Built once per (desc, size, depth), like a
 * plan. */
#pragma once

#include "cm-backend.h"
#include "median.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cm_median_filter cm_median_filter;

/* @desc is copied; with CM_MEDIAN_PLAN_LUMA in desc->plan_flags the
 * filter also runs cm_median_filter_run_luma. @cpu: how the CPU backend
 * runs (copied; its cancel flag must outlive the filter), NULL: the
 * calling thread alone; ignored on CUDA. On CUDA the plan is made on the
 * current device (CM_ERR_NO_CUDA in a build without CUDA). */
cm_status cm_median_filter_new (cm_median_filter ** out, cm_backend backend,
    const cm_median_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu);
/* Single-channel images of the filter's size and depth, not overlapping:
 * host images on the CPU (the stream is ignored), device images on CUDA
 * (queued on @stream, a cudaStream_t or NULL). */
cm_status cm_median_filter_run (cm_median_filter * filter,
    const cm_image * src, const cm_image * dst, void *stream);
/* Luma mode (median.h) on interleaved images of 3 or 4 channels, same
 * memory rules; CM_ERR_INVALID_ARG unless the filter was made with
 * CM_MEDIAN_PLAN_LUMA. */
cm_status cm_median_filter_run_luma (cm_median_filter * filter,
    const cm_image_packed * src, const cm_image_packed * dst, int r_idx,
    int g_idx, int b_idx, int a_idx, void *stream);
void cm_median_filter_free (cm_median_filter * filter);

cm_backend cm_median_filter_backend (const cm_median_filter * filter);
/* The plan's algorithm on CUDA; on the CPU the fast path's
 * (cm_median_cpu_plan_algorithm) where it takes the window, else
 * "reference" (static string). */
const char *cm_median_filter_algorithm (const cm_median_filter * filter);

#ifdef __cplusplus
}
#endif
