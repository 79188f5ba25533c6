/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built instead of linspectrum's .cu files without the CUDA toolkit:
 * no spectrum or orientation map plan is made (cm-nocuda.h). */
#include "cm-nocuda.h"
#include "linspectrum.h"
#include "orientation-rgba.h"

NO_CUDA_PLAN (linspectrum, cm_linspectrum_desc, cm_linspectrum_tuning)

cm_status
cm_linspectrum_plan_run (cm_linspectrum_plan * plan, const cm_image * src,
    const cm_image * sup, const cm_image * orient, void *stream)
{
  return CM_ERR_NO_CUDA;
}

const uint64_t *
cm_linspectrum_plan_spectrum (const cm_linspectrum_plan * plan)
{
  return NULL;
}

const uint64_t *
cm_linspectrum_plan_spectrum_device (const cm_linspectrum_plan * plan)
{
  return NULL;
}

int
cm_linspectrum_plan_count (const cm_linspectrum_plan * plan)
{
  return 0;
}

const char *
cm_linspectrum_plan_describe (const cm_linspectrum_plan * plan)
{
  return "none";
}

cm_status
cm_orientation_rgba_plan_new (cm_orientation_rgba_plan ** out,
    const cm_linspectrum_desc * desc)
{
  if (out)
    *out = NULL;
  return CM_ERR_NO_CUDA;
}

cm_status
cm_orientation_rgba_plan_run (cm_orientation_rgba_plan * plan,
    const cm_image * sup, const cm_image * orient,
    const cm_image_packed * dst, void *stream)
{
  return CM_ERR_NO_CUDA;
}

void
cm_orientation_rgba_plan_free (cm_orientation_rgba_plan * plan)
{
}
