/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An attribute opening or closing (area-open, area-close) as a filter
 * (cm-filter.h): on the CPU the union-find max-tree of attribute-cpu.c
 * (bands of rows on the threads of the cpu options, joined after; the
 * cancel flag looked at every 65536 pixels), on CUDA the plan of
 * cm_attr_plan_*. */
#pragma once

#include "cm-filter.h"
#include "attribute.h"

CM_BEGIN_DECLS

/* (cm-filter.h) */
cm_status cm_attr_filter_new (cm_filter ** out, cm_backend backend,
    const cm_attr_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu);

CM_END_DECLS
