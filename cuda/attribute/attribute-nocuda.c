/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built instead of attribute.cu without the CUDA toolkit: no attribute
 * plan is made (cm-nocuda.h). */
#include "cm-nocuda.h"
#include "attribute.h"

NO_CUDA_PLAN (attr, cm_attr_desc, cm_attr_tuning)
NO_CUDA_PLAN_RUN (attr)
