/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One median (rank) filter as a filter (cm-filter.h): on the CPU the fast
 * path of median-cpu.h where it takes the window and depth, else the
 * reference (cm_median_ref_mt; luma mode always cm_median_luma_ref_mt),
 * on the threads of the cpu options; on CUDA the plan
 * (cm_median_plan_*). */
#pragma once

#include "cm-filter.h"
#include "median.h"

#ifdef __cplusplus
extern "C" {
#endif

/* (cm-filter.h) With CM_MEDIAN_PLAN_LUMA in desc->plan_flags the filter
 * also runs luma mode on interleaved images of 3 or 4 channels
 * (cm_filter_run_packed), once told their channel order. */
cm_status cm_median_filter_new (cm_filter ** out, cm_backend backend,
    const cm_median_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu);
/* The channels of R, G, B and alpha (-1: none) in the interleaved images
 * of luma mode, before its first run; CM_ERR_INVALID_ARG unless @filter is
 * a median filter made with CM_MEDIAN_PLAN_LUMA. */
cm_status cm_median_filter_set_channels (cm_filter * filter, int r_idx,
    int g_idx, int b_idx, int a_idx);

#ifdef __cplusplus
}
#endif
