/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The linear spectrum of a frame (linspectrum.h) as a filter
 * (cm-filter.h) that measures: cm_filter_run gives the spectrum and, into
 * its dst when not NULL, the supremum; cm_filter_run_to_packed the
 * orientation map in colour (orientation-rgba.h). The CPU references
 * (cm_linspectrum_ref_mt, cm_orientation_rgba_ref) or the CUDA plans
 * (cm_linspectrum_plan_*, cm_orientation_rgba_plan_*). The filter owns
 * the spectrum and, for the orientation map, the supremum and orientation
 * images in between (host or device). */
#pragma once

#include "cm-filter.h"
#include "linspectrum.h"

#ifdef __cplusplus
extern "C" {
#endif

/* (cm-filter.h) desc->want_supremum for runs with a dst (the supremum,
 * of the filter's size and depth), want_orientation for
 * cm_filter_run_to_packed (into 4-channel 8-bit images of the filter's
 * size). cm_filter_algorithm: the plan's description on CUDA, "reference"
 * on the CPU. */
cm_status cm_linspectrum_filter_new (cm_filter ** out, cm_backend backend,
    const cm_linspectrum_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu);
/* The last run's spectrum (cm_linspectrum_filter_count entries), host
 * memory; on CUDA valid once the run's stream has synchronised. NULL (0)
 * when @filter is not a linear spectrum filter. */
const uint64_t *cm_linspectrum_filter_spectrum (const cm_filter * filter);
int cm_linspectrum_filter_count (const cm_filter * filter);

#ifdef __cplusplus
}
#endif
