/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built instead of reconstruct's .cu files without the CUDA toolkit:
 * no reconstruction plan is made (cm-nocuda.h). */
#include "cm-nocuda.h"
#include "reconstruct.h"

NO_CUDA_PLAN (recon, cm_recon_desc, cm_recon_tuning)
NO_CUDA_PLAN_RUN (recon)

int
cm_recon_plan_passes (const cm_recon_plan * plan)
{
  return 0;
}
