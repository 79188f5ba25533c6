/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built instead of the family's .cu files without the CUDA toolkit: no
 * plan is made (CM_ERR_NO_CUDA), so a filter falls back to the CPU. */
#include "temporal.h"

cm_status
cm_temporal_plan_new (cm_temporal_plan ** out, const cm_temporal_desc * desc,
    int width, int height, cm_depth depth)
{
  return cm_temporal_plan_new_tuned (out, desc, width, height, depth, NULL);
}

cm_status
cm_temporal_plan_new_tuned (cm_temporal_plan ** out,
    const cm_temporal_desc * desc, int width, int height, cm_depth depth,
    const cm_temporal_tuning * tuning)
{
  if (out)
    *out = NULL;
  return CM_ERR_NO_CUDA;
}

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

void
cm_temporal_plan_free (cm_temporal_plan * plan)
{
}
