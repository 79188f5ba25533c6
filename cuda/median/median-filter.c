/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A median (rank) filter on either backend (median-filter.h). */
#include <stdlib.h>

#include "cm-filter.h"
#include "median-cpu.h"
#include "median-filter.h"

struct cm_median_filter
{
  cm_filter_base base;          /* first */
  cm_median_desc desc;
  cm_median_plan *plan;         /* CUDA */
  cm_median_cpu_plan *cpu_plan; /* CPU, where the fast path takes desc;
                                   NULL: the reference */
};

cm_status
cm_median_filter_new (cm_median_filter ** out, cm_backend backend,
    const cm_median_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  cm_median_filter *f;
  cm_status status = CM_OK;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  f = (cm_median_filter *) cm_filter_alloc (sizeof (*f), desc != NULL,
      backend, width, height, depth, cpu, &status);
  if (f == NULL)
    return status;
  f->desc = *desc;
  if (backend == CM_BACKEND_CUDA)
    status = cm_median_plan_new (&f->plan, &f->desc, width, height, depth);
  else if (cm_median_cpu_takes (&f->desc, depth))
    status = cm_median_cpu_plan_new (&f->cpu_plan, &f->desc, depth);
  if (status != CM_OK) {
    cm_median_filter_free (f);
    return status;
  }
  *out = f;
  return CM_OK;
}

cm_status
cm_median_filter_run (cm_median_filter * f, const cm_image * src,
    const cm_image * dst, void *stream)
{
  if (!cm_filter_run_ok ((const cm_filter_base *) f, src, dst))
    return CM_ERR_INVALID_ARG;
  if (f->base.backend == CM_BACKEND_CUDA)
    return cm_median_plan_run (f->plan, src, dst, stream);
  if (f->cpu_plan != NULL)
    return cm_median_cpu_plan_run (f->cpu_plan, src, dst, &f->base.cpu);
  return cm_median_ref_mt (&f->desc, src, dst, &f->base.cpu);
}

cm_status
cm_median_filter_run_luma (cm_median_filter * f,
    const cm_image_packed * src, const cm_image_packed * dst, int r_idx,
    int g_idx, int b_idx, int a_idx, void *stream)
{
  if (f == NULL || src == NULL || dst == NULL ||
      !(f->desc.plan_flags & CM_MEDIAN_PLAN_LUMA) ||
      !cm_filter_fits (&f->base, src->width, src->height, src->depth) ||
      !cm_filter_fits (&f->base, dst->width, dst->height, dst->depth))
    return CM_ERR_INVALID_ARG;
  if (f->base.backend == CM_BACKEND_CUDA)
    return cm_median_plan_run_luma (f->plan, src, dst, r_idx, g_idx, b_idx,
        a_idx, stream);
  return cm_median_luma_ref_mt (&f->desc, src, dst, r_idx, g_idx, b_idx,
      a_idx, &f->base.cpu);
}

void
cm_median_filter_free (cm_median_filter * f)
{
  if (f == NULL)
    return;
  if (f->plan != NULL)
    cm_median_plan_free (f->plan);
  cm_median_cpu_plan_free (f->cpu_plan);
  free (f);
}

cm_backend
cm_median_filter_backend (const cm_median_filter * f)
{
  return f->base.backend;
}

const char *
cm_median_filter_algorithm (const cm_median_filter * f)
{
  if (f == NULL)
    return "none";
  if (f->plan != NULL)
    return cm_median_plan_algorithm (f->plan);
  return f->cpu_plan != NULL ? cm_median_cpu_plan_algorithm (f->cpu_plan) :
      "reference";
}
