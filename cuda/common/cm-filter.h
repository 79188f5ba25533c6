/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One operation made for a backend and run with one call, whatever the
 * operation: every family's constructor (cm_morph_filter_new,
 * cm_median_filter_new, cm_recon_filter_new, cm_linspectrum_filter_new)
 * gives a cm_filter, so that a caller neither branches on the backend nor
 * on the operation. Built once per (desc, size, depth), like a plan.
 *
 * Memory: host images on CM_BACKEND_CPU (the stream is ignored, the
 * result is there on return), device images on CM_BACKEND_CUDA (queued
 * on @stream, a cudaStream_t or NULL). Images have the filter's size and
 * depth and do not overlap. */
#pragma once

#include "cm-backend.h"
#include "cm-image.h"
#include "cm-status.h"

CM_BEGIN_DECLS

typedef struct cm_filter cm_filter;

/* Every family's constructor, cm_<op>_filter_new (&filter, backend, desc,
 * width, height, depth, cpu), copies @desc; @cpu says how the CPU backend
 * runs (copied; its cancel flag must outlive the filter), NULL: the
 * calling thread alone; ignored on CUDA. On CUDA the plan is made on the
 * current device (CM_ERR_NO_CUDA in a build without CUDA). On failure
 * *filter is NULL. */

/* @src into @dst, single-channel images. @dst may be NULL for a filter
 * that measures (the linear spectrum, the blobs: their results come from
 * their family's accessors); the blobs' labels are 16-bit whatever the
 * filter's depth. */
cm_status cm_filter_run (cm_filter * filter, const cm_image * src,
    const cm_image * dst, void *stream);
/* Interleaved in, interleaved out (the median's luma mode);
 * CM_ERR_UNSUPPORTED for a filter without that path. */
cm_status cm_filter_run_packed (cm_filter * filter,
    const cm_image_packed * src, const cm_image_packed * dst, void *stream);
/* A plane in, an interleaved image out (the linear spectrum's orientation
 * map in colour); CM_ERR_UNSUPPORTED for a filter without that path. */
cm_status cm_filter_run_to_packed (cm_filter * filter, const cm_image * src,
    const cm_image_packed * dst, void *stream);
/* The filter has the path of cm_filter_run_packed, cm_filter_run_to_packed */
int cm_filter_has_packed (const cm_filter * filter);
int cm_filter_has_to_packed (const cm_filter * filter);

/* Result slots of a filter that measures (the blobs on CUDA, made for
 * frames in flight): a run writes its results to the slot in use and the
 * family's accessors read that slot, so that one run's results stay
 * readable while later runs, into other slots, are queued and run. The
 * caller picks the slot before each run and again before reading.
 * cm_filter_result_slots: how many the filter was made with (1 for every
 * other filter, and NULL); cm_filter_use_result_slot: 0 ... slots - 1,
 * CM_ERR_INVALID_ARG otherwise. */
int cm_filter_result_slots (const cm_filter * filter);
cm_status cm_filter_use_result_slot (cm_filter * filter, int slot);

/* What runs: the CUDA plan's algorithm, the CPU fast path's, or
 * "reference" (static string or the filter's own; "none" for NULL) */
const char *cm_filter_algorithm (const cm_filter * filter);
/* (@filter not NULL) */
cm_backend cm_filter_backend (const cm_filter * filter);
/* NULL is ignored */
void cm_filter_free (cm_filter * filter);

CM_END_DECLS
