/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One morphology operation as a filter (cm-filter.h): on the CPU the row
 * passes of morph-cpu.h where they take the SE, else the reference
 * (cm_morph_ref_mt, on the threads of the cpu options); on CUDA the plan
 * (cm_morph_plan_*). */
#pragma once

#include "cm-filter.h"
#include "morph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* (cm-filter.h) The structuring element is copied too: the caller may
 * free its own. */
cm_status cm_morph_filter_new (cm_filter ** out, cm_backend backend,
    const cm_morph_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu);

#ifdef __cplusplus
}
#endif
