/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One temporal percentile (temporal.h) as a filter (cm-filter.h), fed one
 * frame a run: on the CPU the backend of temporal-cpu.h (a host ring, rows
 * on the threads of the cpu options), on CUDA the plan of
 * cm_temporal_plan_* (a device ring). cm_filter_run pushes a plane (a
 * filter of one channel), cm_filter_run_packed an interleaved frame (any
 * channel count: desc.channels); either adds the frame to the history and
 * writes the output of the window it completes. dst may be src (in
 * place). A new `frames` or a new size is a new filter; a new percentile
 * or output is cm_temporal_filter_set_rank, the history kept.
 *
 * The caller resets the history (cm_temporal_filter_reset) where the
 * stream starts anew: start, flush, a DISCONT buffer; a caps change or a
 * new `frames` makes a new filter, whose history is empty.
 *
 * Memory: cm_temporal_filter_ring_bytes () for the arguments of
 * cm_temporal_filter_new, allocated there at once. When it does not fit,
 * _new returns CM_ERR_NO_MEMORY on the CPU and CM_ERR_CUDA_BASE +
 * cudaErrorMemoryAllocation on CUDA (cm_status_string: "out of memory");
 * the element's error names the bytes, e.g. "the history of 255 frames
 * needs 2115 MB of device memory (8.3 MB a frame): out of memory". */
#pragma once

#include "cm-filter.h"
#include "temporal.h"

CM_BEGIN_DECLS

/* (cm-filter.h) Images of @width x @height pixels of desc->channels
 * samples at @depth. */
cm_status cm_temporal_filter_new (cm_filter ** out, cm_backend backend,
    const cm_temporal_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu);
/* The bytes of history the filter of these arguments allocates: device
 * bytes on CUDA, host bytes on the CPU; 0 for invalid arguments. */
size_t cm_temporal_filter_ring_bytes (cm_backend backend,
    const cm_temporal_desc * desc, int width, int height, cm_depth depth);

/* The next run has a window of 1 (the history begins anew); nothing for
 * a filter that is not a temporal one. */
void cm_temporal_filter_reset (cm_filter * filter);
/* How many frames the last run's output was computed from (0 before the
 * first run after a reset, and for a filter that is not a temporal one):
 * the element's `window`. */
int cm_temporal_filter_window (const cm_filter * filter);
/* A new percentile and output for the next run, the history kept;
 * CM_ERR_INVALID_ARG for values out of range or another filter. */
cm_status cm_temporal_filter_set_rank (cm_filter * filter,
    double percentile, cm_temporal_output output);

CM_END_DECLS
