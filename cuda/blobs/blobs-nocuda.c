/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built instead of blobs.cu without the CUDA toolkit: no plan is made,
 * so that callers fall back to the CPU backend. */
#include <stddef.h>

#include "blobs.h"

cm_status
cm_blobs_plan_new (cm_blobs_plan ** out, const cm_blobs_desc * desc,
    int width, int height, cm_depth depth)
{
  return cm_blobs_plan_new_tuned (out, desc, width, height, depth, NULL);
}

cm_status
cm_blobs_plan_new_tuned (cm_blobs_plan ** out, const cm_blobs_desc * desc,
    int width, int height, cm_depth depth, const cm_blobs_tuning * tuning)
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
cm_blobs_plan_run (cm_blobs_plan * plan, const cm_image * src,
    const cm_image * dst, void *stream)
{
  (void) plan;
  (void) src;
  (void) dst;
  (void) stream;
  return CM_ERR_NO_CUDA;
}

const cm_blobs_results *
cm_blobs_plan_results (const cm_blobs_plan * plan)
{
  (void) plan;
  return NULL;
}

void
cm_blobs_plan_free (cm_blobs_plan * plan)
{
  (void) plan;
}
