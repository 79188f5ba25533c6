/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One temporal percentile filter (temporal.h), made for a backend and fed
 * one frame a call: on the CPU the backend of temporal-cpu.h (a host
 * ring, rows on the threads of the cpu options), on CUDA the plan of
 * cm_temporal_plan_* (a device ring); behind one API, so that a caller
 * does not branch on the backend. Built once per (desc, size, depth): a
 * new `frames` or a new size is a new filter; a new percentile or output
 * is cm_temporal_filter_set_rank, the history kept.
 *
 * The caller resets the history (cm_temporal_filter_reset) where the
 * stream starts anew: start, flush, a DISCONT buffer; a caps change or a
 * new `frames` makes a new filter, whose history is empty.
 *
 * Memory: cm_temporal_filter_ring_bytes () for the arguments of
 * cm_temporal_filter_new, allocated there at once. When it does not fit,
 * _new returns CM_ERR_NO_MEMORY on the CPU and CM_ERR_CUDA_BASE +
 * cudaErrorMemoryAllocation on CUDA (cm_status_string: "out of memory");
 * the element's error names the bytes, e.g. "cudatemporal: the history of
 * 255 frames needs 2115 MB of device memory (8.3 MB a frame): out of
 * memory". */
#pragma once

#include "cm-backend.h"
#include "cm-filter.h"
#include "temporal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The filter handle (cm-filter.h): cm_filter_run is push, cm_filter_run_packed
 * push_packed; what is the family's own (reset, window, set_rank) takes the
 * handle and checks that it is a temporal filter. */
typedef cm_filter cm_temporal_filter;

/* A filter for images of @width x @height pixels of desc->channels
 * samples at @depth. @cpu: how the CPU backend runs (copied; its cancel
 * flag must outlive the filter), NULL: the calling thread alone; ignored
 * on CUDA. On CUDA the plan is made on the current device (CM_ERR_NO_CUDA
 * in a build without CUDA). */
cm_status cm_temporal_filter_new (cm_filter ** out,
    cm_backend backend, const cm_temporal_desc * desc, int width, int height,
    cm_depth depth, const cm_cpu_opts * cpu);
/* The bytes of history the filter of these arguments allocates: device
 * bytes on CUDA, host bytes on the CPU; 0 for invalid arguments. */
size_t cm_temporal_filter_ring_bytes (cm_backend backend,
    const cm_temporal_desc * desc, int width, int height, cm_depth depth);

/* Adds @src to the history and writes the output of the window it
 * completes into @dst: interleaved images of the filter's size, depth and
 * channels, dst is src or does not overlap it; host images on the CPU
 * (the stream is ignored), device images on CUDA (queued on @stream). */
cm_status cm_temporal_filter_push_packed (cm_temporal_filter * filter,
    const cm_image_packed * src, const cm_image_packed * dst, void *stream);
/* The same for planes (a filter of one channel) */
cm_status cm_temporal_filter_push (cm_temporal_filter * filter,
    const cm_image * src, const cm_image * dst, void *stream);

/* The next push has a window of 1 (the history begins anew). */
void cm_temporal_filter_reset (cm_temporal_filter * filter);
/* How many frames the last push's output was computed from (0 before the
 * first push after a reset): the element's `window`. */
int cm_temporal_filter_window (const cm_temporal_filter * filter);
/* A new percentile and output for the next push, the history kept. */
cm_status cm_temporal_filter_set_rank (cm_temporal_filter * filter,
    double percentile, cm_temporal_output output);
void cm_temporal_filter_free (cm_temporal_filter * filter);

cm_backend cm_temporal_filter_backend (const cm_temporal_filter * filter);
/* The CUDA plan's kernel of the last push; "cpu-bitwise" on the CPU
 * (static string). */
const char *cm_temporal_filter_algorithm (const cm_temporal_filter * f);

#ifdef __cplusplus
}
#endif
