/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One reconstruction operation (fill holes ... h-basins) as a filter
 * (cm-filter.h): on the CPU the plan of reconstruct-cpu.h (cm_recon_ref's
 * result; the reconstruction on the calling thread, the marker of
 * open-rec and close-rec on the threads of the cpu options, the cancel
 * flag looked at every row and every 65536 queued pixels), or the
 * reference cm_recon_ref_mt for a frame that plan does not take; on CUDA
 * the plan of cm_recon_plan_*. */
#pragma once

#include "cm-filter.h"
#include "reconstruct.h"

#ifdef __cplusplus
extern "C" {
#endif

/* (cm-filter.h) The structuring element of the marker, when there is
 * one, is copied too. */
cm_status cm_recon_filter_new (cm_filter ** out, cm_backend backend,
    const cm_recon_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu);

#ifdef __cplusplus
}
#endif
