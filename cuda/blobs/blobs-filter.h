/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The blobs of a frame (blobs.h) on either backend behind one API: on the
 * CPU the plan of blobs-cpu.h, on CUDA the plan of cm_blobs_plan_*. Built
 * once per (desc, size, depth), like a plan; every buffer, the results'
 * arrays included, is allocated then.
 *
 * Results: cm_blobs_filter_results after a run. On the CPU they are there
 * when the run returns; on CUDA the run queues them to pinned host memory
 * on the caller's stream, to be read once that stream has been
 * synchronised (or an event recorded after the run has completed), until
 * the next run is queued. */
#pragma once

#include "cm-backend.h"
#include "blobs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cm_blobs_filter cm_blobs_filter;

/* On CUDA the plan is made on the current device (CM_ERR_NO_CUDA in a
 * build without CUDA). @cpu: the CPU backend's cancel flag. */
cm_status cm_blobs_filter_new (cm_blobs_filter ** out, cm_backend backend,
    const cm_blobs_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu);
/* src: an image of the filter's size and depth; dst: one of its size at
 * cm_blobs_output_depth, not overlapping src, or NULL with output none.
 * Host images on the CPU (the stream is ignored), device images on CUDA
 * (queued on @stream, a cudaStream_t or NULL). */
cm_status cm_blobs_filter_run (cm_blobs_filter * filter,
    const cm_image * src, const cm_image * dst, void *stream);
/* The last run's results (see above); NULL before the first run */
const cm_blobs_results *cm_blobs_filter_results (const cm_blobs_filter *
    filter);
void cm_blobs_filter_free (cm_blobs_filter * filter);

cm_backend cm_blobs_filter_backend (const cm_blobs_filter * filter);

#ifdef __cplusplus
}
#endif
