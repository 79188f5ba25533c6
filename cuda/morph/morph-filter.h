/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One morphology operation, made for a backend and run with one call:
 * the CPU reference (cm_morph_ref_mt, on the threads of the cpu options)
 * or the CUDA plan (cm_morph_plan_*) behind one API, so that a caller
 * does not branch on the backend. Built once per (desc, size, depth),
 * like a plan. */
#pragma once

#include "cm-backend.h"
#include "morph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cm_morph_filter cm_morph_filter;

/* @desc is copied with its structuring element (the caller may free its
 * own). @cpu: how the CPU backend runs (copied; its cancel flag must
 * outlive the filter), NULL: the calling thread alone; ignored on CUDA.
 * On CUDA the plan is made on the current device (CM_ERR_NO_CUDA in a
 * build without CUDA). */
cm_status cm_morph_filter_new (cm_morph_filter ** out, cm_backend backend,
    const cm_morph_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu);
/* src, dst: images of the filter's size and depth, not overlapping: host
 * images on the CPU (the stream is ignored, the result is there on
 * return), device images on CUDA (queued on @stream, a cudaStream_t or
 * NULL). */
cm_status cm_morph_filter_run (cm_morph_filter * filter,
    const cm_image * src, const cm_image * dst, void *stream);
void cm_morph_filter_free (cm_morph_filter * filter);

cm_backend cm_morph_filter_backend (const cm_morph_filter * filter);
/* The plan's algorithm on CUDA, "reference" on the CPU (static string). */
const char *cm_morph_filter_algorithm (const cm_morph_filter * filter);

#ifdef __cplusplus
}
#endif
