/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The blobs of a frame (blobs.h) as a filter (cm-filter.h): on the CPU
 * the plan of blobs-cpu.h (its first pass on the threads of the CPU
 * options), on CUDA the plan of cm_blobs_plan_*. Every buffer, the
 * results' arrays included, is allocated when the filter is made.
 *
 * cm_filter_run (filter, src, dst, stream): @dst is the mask (the
 * filter's depth) or the labels (16 bits, whatever the filter's depth),
 * of the filter's size; NULL with output none. The results of the run
 * then come from cm_blobs_filter_results: on the CPU when the run
 * returns; on CUDA the run queues them to pinned host memory on the
 * caller's stream, to be read once that stream has been synchronised (or
 * an event recorded after the run has completed), until the next run is
 * queued. With the desc's result_slots 2 on CUDA, cm_filter_use_result_slot
 * picks where the next runs write and where cm_blobs_filter_results
 * reads, so that a run's results outlive the next run's queueing (frames
 * in flight); the CPU has one slot. */
#pragma once

#include "cm-filter.h"
#include "blobs.h"

CM_BEGIN_DECLS

/* (cm-filter.h) cm_filter_algorithm: "block union-find" on CUDA, "CPU
 * two-pass" on the CPU. */
cm_status cm_blobs_filter_new (cm_filter ** out, cm_backend backend,
    const cm_blobs_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu);
/* The last run's results in the slot in use (see above); NULL before
 * the first run into it or when @filter is not a blobs filter */
const cm_blobs_results *cm_blobs_filter_results (const cm_filter * filter);

CM_END_DECLS
