/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One attribute opening or closing, made for a backend and run with one
 * call: on the CPU the union-find max-tree of attribute-cpu.c, on CUDA the
 * plan of cm_attr_plan_*; behind one API, so that a caller does not
 * branch on the backend. Built once per (desc, size, depth), like a
 * plan. */
#pragma once

#include "cm-backend.h"
#include "attribute.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cm_attr_filter cm_attr_filter;

/* @desc is copied. On CUDA the plan is made on the current device
 * (CM_ERR_NO_CUDA in a build without CUDA). @cpu: its cancel flag is
 * looked at every 65536 pixels; the CPU backend runs on the calling
 * thread. */
cm_status cm_attr_filter_new (cm_attr_filter ** out, cm_backend backend,
    const cm_attr_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu);
/* src, dst: images of the filter's size and depth, not overlapping: host
 * images on the CPU (the stream is ignored), device images on CUDA
 * (queued on @stream, a cudaStream_t or NULL). */
cm_status cm_attr_filter_run (cm_attr_filter * filter, const cm_image * src,
    const cm_image * dst, void *stream);
void cm_attr_filter_free (cm_attr_filter * filter);

cm_backend cm_attr_filter_backend (const cm_attr_filter * filter);

#ifdef __cplusplus
}
#endif
