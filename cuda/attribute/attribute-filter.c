/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An attribute opening or closing on either backend (attribute-filter.h). */
#include <stdlib.h>

#include "cm-filter.h"
#include "attribute-filter.h"

struct cm_attr_filter
{
  cm_filter_base base;          /* first; its cpu for the CPU backend */
  cm_attr_plan *plan;           /* CUDA */
  cm_attr_cpu *cpu;             /* CPU */
};

cm_status
cm_attr_filter_new (cm_attr_filter ** out, cm_backend backend,
    const cm_attr_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  cm_attr_filter *f;
  cm_status status = CM_OK;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  f = (cm_attr_filter *) cm_filter_alloc (sizeof (*f),
      cm_attr_desc_ok (desc), backend, width, height, depth, cpu, &status);
  if (f == NULL)
    return status;
  if (backend == CM_BACKEND_CUDA)
    status = cm_attr_plan_new (&f->plan, desc, width, height, depth);
  else
    status = cm_attr_cpu_new (&f->cpu, desc, width, height, depth);
  if (status != CM_OK) {
    cm_attr_filter_free (f);
    return status;
  }
  *out = f;
  return CM_OK;
}

cm_status
cm_attr_filter_run (cm_attr_filter * f, const cm_image * src,
    const cm_image * dst, void *stream)
{
  if (!cm_filter_run_ok ((const cm_filter_base *) f, src, dst))
    return CM_ERR_INVALID_ARG;
  if (f->base.backend == CM_BACKEND_CUDA)
    return cm_attr_plan_run (f->plan, src, dst, stream);
  return cm_attr_cpu_run (f->cpu, src, dst, f->base.cpu.cancel);
}

void
cm_attr_filter_free (cm_attr_filter * f)
{
  if (f == NULL)
    return;
  if (f->plan != NULL)
    cm_attr_plan_free (f->plan);
  cm_attr_cpu_free (f->cpu);
  free (f);
}

cm_backend
cm_attr_filter_backend (const cm_attr_filter * f)
{
  return f->base.backend;
}
