/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU backend of the blobs (blobs.h): cm_blobs_ref's results by two
 * raster passes over the frame (provisional labels with union-find, then
 * the final labels and the statistics), with its buffers made once. */
#pragma once

#include "blobs.h"

CM_BEGIN_DECLS

typedef struct cm_blobs_cpu cm_blobs_cpu;

/* A CPU plan of @desc for frames of @width x @height at @depth; @opts
 * (may be NULL): its threads take the first pass on bands of rows, its
 * cancel flag is looked at every row of it.
 * CM_ERR_UNSUPPORTED for frames of 2^31 pixels or more. */
cm_status cm_blobs_cpu_new (cm_blobs_cpu ** out, const cm_blobs_desc * desc,
    int width, int height, cm_depth depth, const cm_cpu_opts * opts);

/* cm_blobs_ref's results (host images of the plan's size, any pitch),
 * available from cm_blobs_cpu_results at once */
cm_status cm_blobs_cpu_run (cm_blobs_cpu * plan, const cm_image * src,
    const cm_image * dst);
const cm_blobs_results *cm_blobs_cpu_results (const cm_blobs_cpu * plan);

void cm_blobs_cpu_free (cm_blobs_cpu * plan);

CM_END_DECLS
