/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built instead of attribute.cu when the CUDA toolkit is absent: the plan
 * is refused with CM_ERR_NO_CUDA, so that callers take the CPU backend. */
#include "attribute.h"

cm_status
cm_attr_plan_new_tuned (cm_attr_plan ** out, const cm_attr_desc * desc,
    int width, int height, cm_depth depth, const cm_attr_tuning * tuning)
{
  (void) desc;
  (void) width;
  (void) height;
  (void) depth;
  (void) tuning;
  if (out)
    *out = NULL;
  return CM_ERR_NO_CUDA;
}

cm_status
cm_attr_plan_new (cm_attr_plan ** out, const cm_attr_desc * desc,
    int width, int height, cm_depth depth)
{
  return cm_attr_plan_new_tuned (out, desc, width, height, depth, NULL);
}

cm_status
cm_attr_plan_run (cm_attr_plan * plan, const cm_image * src,
    const cm_image * dst, void *stream)
{
  (void) plan;
  (void) src;
  (void) dst;
  (void) stream;
  return CM_ERR_NO_CUDA;
}

void
cm_attr_plan_free (cm_attr_plan * plan)
{
  (void) plan;
}
