/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU backend of morphology: the same results as cm_morph_ref (the
 * definition, which stays the tests' oracle), computed by passes over
 * whole rows that the compiler vectorises. */
#pragma once

#include "morph.h"

CM_BEGIN_DECLS

/* A CPU plan: @desc (copied, its SE too) for frames of @width x @height
 * and @depth, its scratch and temporaries allocated here, once, for the
 * threads of @opts (kept: it must outlive the plan; NULL: one thread).
 * CM_ERR_UNSUPPORTED when the SE would need more scratch than the fast
 * path allows: the caller then runs the reference. */
typedef struct cm_morph_cpu cm_morph_cpu;

cm_status cm_morph_cpu_new (cm_morph_cpu ** out, const cm_morph_desc * desc,
    int width, int height, cm_depth depth, const cm_cpu_opts * opts);

/* cm_morph_ref_mt's result for images of the plan's size and depth;
 * CM_ERR_UNSUPPORTED for 16-bit rows that do not start on 2 bytes (the
 * reference takes them), CM_ERR_CANCELLED when stopped. */
cm_status cm_morph_cpu_run (cm_morph_cpu * p, const cm_image * src,
    const cm_image * dst);

void cm_morph_cpu_free (cm_morph_cpu * p);

/* "cpu-separable" (a full rectangle: van Herk/Gil-Werman down the
 * columns, then the rows), "cpu-diagonal" (a contiguous line at 45 or 135
 * degrees: van Herk/Gil-Werman along it) or "cpu-chords" (the runs of
 * each row of the SE) */
const char *cm_morph_cpu_algorithm (const cm_morph_cpu * p);

CM_END_DECLS
