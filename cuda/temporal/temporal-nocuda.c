/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built instead of temporal's .cu files without the CUDA toolkit: no
 * temporal plan is made (cm-nocuda.h), so a filter falls back to the
 * CPU. */
#include "cm-nocuda.h"
#include "temporal.h"

NO_CUDA_PLAN (temporal, cm_temporal_desc, cm_temporal_tuning)

cm_status
cm_temporal_plan_push (cm_temporal_plan * plan, const cm_image_packed * src,
    const cm_image_packed * dst, void *stream)
{
  return CM_ERR_NO_CUDA;
}

void
cm_temporal_plan_reset (cm_temporal_plan * plan)
{
}

int
cm_temporal_plan_window (const cm_temporal_plan * plan)
{
  return 0;
}

cm_status
cm_temporal_plan_set_rank (cm_temporal_plan * plan, double percentile,
    cm_temporal_output output)
{
  return CM_ERR_NO_CUDA;
}

const char *
cm_temporal_plan_algorithm (const cm_temporal_plan * plan)
{
  return "none";
}
