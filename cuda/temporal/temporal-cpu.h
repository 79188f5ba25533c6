/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU backend of the temporal percentile: cm_temporal_ref's result
 * (temporal.h) with the history kept in a host ring, by a bitwise search
 * of the rank over whole row chunks (for each bit from the top, count the
 * window's samples below the candidate; 8 passes over the window at 8
 * bits, 16 at 16 bits), loops the compiler vectorises, rows split among
 * the threads of the cpu options. */
#pragma once

#include "temporal.h"

CM_BEGIN_DECLS

typedef struct cm_temporal_cpu cm_temporal_cpu;

/* A CPU plan of @desc for host images of @width x @height pixels at
 * @depth; the ring of desc->frames frames allocated here, once
 * (CM_ERR_NO_MEMORY when it does not fit: cm_temporal_cpu_ring_bytes ()).
 * @opts (copied; its cancel flag must outlive the plan; NULL: the calling
 * thread alone). */
cm_status cm_temporal_cpu_new (cm_temporal_cpu ** out,
    const cm_temporal_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * opts);
/* The host bytes a CPU plan of these arguments allocates */
size_t cm_temporal_cpu_ring_bytes (const cm_temporal_desc * desc, int width,
    int height, cm_depth depth);
/* cm_temporal_plan_push on the host: src, dst host images (any pitch),
 * dst is src or does not overlap it. CM_ERR_CANCELLED when opts->cancel
 * was set: the frame is then not in the history and dst is undefined. */
cm_status cm_temporal_cpu_push (cm_temporal_cpu * plan,
    const cm_image_packed * src, const cm_image_packed * dst);
void cm_temporal_cpu_reset (cm_temporal_cpu * plan);
int cm_temporal_cpu_window (const cm_temporal_cpu * plan);
cm_status cm_temporal_cpu_set_rank (cm_temporal_cpu * plan,
    double percentile, cm_temporal_output output);
void cm_temporal_cpu_free (cm_temporal_cpu * plan);

CM_END_DECLS
