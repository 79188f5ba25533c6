/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One reconstruction operation (fill holes ... h-basins), made for a
 * backend and run with one call: on the CPU the plan of reconstruct-cpu.h
 * (cm_recon_ref's result; the reconstruction on the calling thread, the
 * marker of open-rec and close-rec on the threads of the cpu options, the
 * cancel flag looked at every row and every 65536 queued pixels), or the
 * reference cm_recon_ref_mt for a frame that plan does not take; on CUDA
 * the plan of cm_recon_plan_*; behind one API, so that a caller does not
 * branch on the backend. Built once per (desc, size, depth), like a
 * plan. */
#pragma once

#include "cm-backend.h"
#include "reconstruct.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cm_recon_filter cm_recon_filter;

/* @desc is copied with the structuring element of its marker, when it has
 * one (the caller may free its own). On CUDA the plan is made on the
 * current device (CM_ERR_NO_CUDA in a build without CUDA). */
cm_status cm_recon_filter_new (cm_recon_filter ** out, cm_backend backend,
    const cm_recon_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu);
/* src, dst: images of the filter's size and depth, not overlapping: host
 * images on the CPU (the stream is ignored), device images on CUDA
 * (queued on @stream, a cudaStream_t or NULL). */
cm_status cm_recon_filter_run (cm_recon_filter * filter,
    const cm_image * src, const cm_image * dst, void *stream);
void cm_recon_filter_free (cm_recon_filter * filter);

cm_backend cm_recon_filter_backend (const cm_recon_filter * filter);

#ifdef __cplusplus
}
#endif
