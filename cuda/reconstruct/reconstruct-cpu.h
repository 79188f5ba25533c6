/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU backend of the reconstruction operations: the same results as
 * cm_recon_ref (which stays the tests' oracle), by the same hybrid
 * algorithm (its queue served highest level first) on planes of the
 * samples' own type, padded so that no neighbour is bounds-checked, with
 * buffers made once per plan. */
#pragma once

#include "reconstruct.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cm_recon_cpu cm_recon_cpu;

/* A CPU plan of @desc (copied; the SE of its marker too) for frames of
 * @width x @height at @depth, its planes and queue allocated here, once;
 * open-rec and close-rec make their marker with a CPU morphology filter on
 * the threads of @opts (kept: it must outlive the plan; NULL: the calling
 * thread alone). CM_ERR_UNSUPPORTED for frames whose padded planes have
 * 2^31 samples or more: the caller then runs the reference. */
cm_status cm_recon_cpu_new (cm_recon_cpu ** out, const cm_recon_desc * desc,
    int width, int height, cm_depth depth, const cm_cpu_opts * opts);

/* cm_recon_ref's result for images of the plan's size and depth (any
 * pitch); CM_ERR_CANCELLED within a row of the scans, or 65536 pixels of
 * the queue, of opts->cancel being set (dst is then undefined). The
 * reconstruction itself runs on the calling thread. */
cm_status cm_recon_cpu_run (cm_recon_cpu * plan, const cm_image * src,
    const cm_image * dst);

void cm_recon_cpu_free (cm_recon_cpu * plan);

#ifdef __cplusplus
}
#endif
