/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The linear spectrum of a frame (linspectrum.h) and, when asked for, its
 * supremum or its orientation map in colour (orientation-rgba.h), made
 * for a backend and run with one call: the CPU references
 * (cm_linspectrum_ref_mt, cm_orientation_rgba_ref) or the CUDA plans
 * (cm_linspectrum_plan_*, cm_orientation_rgba_plan_*) behind one API, so
 * that a caller does not branch on the backend. The filter owns the
 * spectrum and, for the orientation map, the supremum and orientation
 * images in between (host or device). Built once per (desc, size,
 * depth), like a plan. */
#pragma once

#include "cm-backend.h"
#include "linspectrum.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cm_linspectrum_filter cm_linspectrum_filter;

/* @desc is copied: want_supremum for runs that write a supremum,
 * want_orientation for cm_linspectrum_filter_run_rgba. @cpu: how the CPU
 * backend runs (cm_linspectrum_ref_mt over its threads; copied, its cancel
 * flag must outlive the filter). On CUDA the plans are made on the
 * current device (CM_ERR_NO_CUDA in a build without CUDA). */
cm_status cm_linspectrum_filter_new (cm_linspectrum_filter ** out,
    cm_backend backend, const cm_linspectrum_desc * desc, int width,
    int height, cm_depth depth, const cm_cpu_opts * cpu);
/* The spectrum of @src and, when @sup is not NULL (the filter made with
 * want_supremum), the supremum into @sup (same size and depth). Host
 * images on the CPU (the stream is ignored), device images on CUDA
 * (queued on @stream, a cudaStream_t or NULL). */
cm_status cm_linspectrum_filter_run (cm_linspectrum_filter * filter,
    const cm_image * src, const cm_image * sup, void *stream);
/* The spectrum of @src and its orientation map in colour into @dst (same
 * size, CM_DEPTH_8, 4 channels); the filter made with want_orientation.
 * Same memory rules. */
cm_status cm_linspectrum_filter_run_rgba (cm_linspectrum_filter * filter,
    const cm_image * src, const cm_image_packed * dst, void *stream);
/* The last run's spectrum (cm_linspectrum_filter_count entries), host
 * memory; on CUDA valid once the run's stream has synchronised. */
const uint64_t *cm_linspectrum_filter_spectrum (const cm_linspectrum_filter *
    filter);
int cm_linspectrum_filter_count (const cm_linspectrum_filter * filter);
void cm_linspectrum_filter_free (cm_linspectrum_filter * filter);

cm_backend cm_linspectrum_filter_backend (const cm_linspectrum_filter *
    filter);
/* The plan's description on CUDA, "reference" on the CPU. */
const char *cm_linspectrum_filter_describe (const cm_linspectrum_filter *
    filter);

#ifdef __cplusplus
}
#endif
