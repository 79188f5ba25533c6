/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built instead of morph's .cu files without the CUDA toolkit: no
 * morphology plan is made (cm-nocuda.h). */
#include "cm-nocuda.h"
#include "morph.h"

NO_CUDA_PLAN (morph, cm_morph_desc, cm_morph_tuning)
NO_CUDA_PLAN_RUN (morph)

const char *
cm_morph_plan_algorithm (const cm_morph_plan * plan)
{
  return "none";
}
