/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built instead of the blobs' .cu files without the CUDA toolkit: no
 * plan is made (cm-nocuda.h). */
#include "cm-nocuda.h"
#include "blobs.h"

NO_CUDA_PLAN (blobs, cm_blobs_desc, cm_blobs_tuning)
NO_CUDA_PLAN_RUN (blobs)

const cm_blobs_results *
cm_blobs_plan_results (const cm_blobs_plan * plan)
{
  return NULL;
}

cm_status
cm_blobs_plan_use_slot (cm_blobs_plan * plan, int slot)
{
  return CM_ERR_NO_CUDA;
}
