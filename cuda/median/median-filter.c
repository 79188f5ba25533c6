/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A median (rank) filter on either backend (median-filter.h). */
#include "cm-filter-impl.h"
#include "median-cpu.h"
#include "median-filter.h"

typedef struct
{
  cm_filter base;               /* first */
  cm_median_desc desc;
  int r_idx, g_idx, b_idx, a_idx;       /* luma mode; r_idx -1: not told */
  cm_median_plan *plan;         /* CUDA */
  cm_median_cpu_plan *cpu_plan; /* CPU, where the fast path takes desc;
                                   NULL: the reference */
} median_filter;

static cm_status
median_run (cm_filter * base, const cm_image * src, const cm_image * dst,
    void *stream)
{
  median_filter *f = (median_filter *) base;

  if (base->backend == CM_BACKEND_CUDA)
    return cm_median_plan_run (f->plan, src, dst, stream);
  if (f->cpu_plan != NULL)
    return cm_median_cpu_plan_run (f->cpu_plan, src, dst, &base->cpu);
  return cm_median_ref_mt (&f->desc, src, dst, &base->cpu);
}

static cm_status
median_run_packed (cm_filter * base, const cm_image_packed * src,
    const cm_image_packed * dst, void *stream)
{
  median_filter *f = (median_filter *) base;

  if (f->r_idx < 0)
    return CM_ERR_INVALID_ARG;
  if (base->backend == CM_BACKEND_CUDA)
    return cm_median_plan_run_luma (f->plan, src, dst, f->r_idx, f->g_idx,
        f->b_idx, f->a_idx, stream);
  return cm_median_luma_ref_mt (&f->desc, src, dst, f->r_idx, f->g_idx,
      f->b_idx, f->a_idx, &base->cpu);
}

static const char *
median_algorithm (const cm_filter * base)
{
  const median_filter *f = (const median_filter *) base;

  if (f->plan != NULL)
    return cm_median_plan_algorithm (f->plan);
  return f->cpu_plan != NULL ? cm_median_cpu_plan_algorithm (f->cpu_plan) :
      "reference";
}

static cm_status
median_make (cm_filter * base, const void *desc)
{
  median_filter *f = (median_filter *) base;

  f->desc = *(const cm_median_desc *) desc;
  f->r_idx = f->g_idx = f->b_idx = f->a_idx = -1;
  if (f->desc.plan_flags & CM_MEDIAN_PLAN_LUMA)
    base->flags |= CM_FILTER_PACKED;
  if (base->backend == CM_BACKEND_CUDA)
    return cm_median_plan_new (&f->plan, &f->desc, base->width,
        base->height, base->depth);
  if (cm_median_cpu_takes (&f->desc, base->depth))
    return cm_median_cpu_plan_new (&f->cpu_plan, &f->desc, base->depth);
  return CM_OK;
}

static void
median_free (cm_filter * base)
{
  median_filter *f = (median_filter *) base;

  cm_median_plan_free (f->plan);
  cm_median_cpu_plan_free (f->cpu_plan);
}

static const cm_filter_ops median_ops = {
  .run = median_run,
  .run_packed = median_run_packed,
  .algorithm = median_algorithm,
  .make = median_make,
  .free = median_free,
};

cm_status
cm_median_filter_new (cm_filter ** out, cm_backend backend,
    const cm_median_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  return cm_filter_new (out, sizeof (median_filter), &median_ops,
      desc != NULL, backend, width, height, depth, cpu, desc);
}

cm_status
cm_median_filter_set_channels (cm_filter * base, int r_idx, int g_idx,
    int b_idx, int a_idx)
{
  median_filter *f = (median_filter *) base;

  if (base == NULL || base->ops != &median_ops ||
      !(base->flags & CM_FILTER_PACKED) || r_idx < 0)
    return CM_ERR_INVALID_ARG;
  f->r_idx = r_idx;
  f->g_idx = g_idx;
  f->b_idx = b_idx;
  f->a_idx = a_idx;
  return CM_OK;
}
