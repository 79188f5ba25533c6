/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built instead of median's .cu files without the CUDA toolkit: no
 * median plan is made (cm-nocuda.h). */
#include "cm-nocuda.h"
#include "median.h"

NO_CUDA_PLAN (median, cm_median_desc, cm_median_tuning)
NO_CUDA_PLAN_RUN (median)

cm_status
cm_median_plan_run_luma (cm_median_plan * plan,
    const cm_image_packed * src, const cm_image_packed * dst, int r_idx,
    int g_idx, int b_idx, int a_idx, void *stream)
{
  return CM_ERR_NO_CUDA;
}

const char *
cm_median_plan_algorithm (const cm_median_plan * plan)
{
  return "none";
}
