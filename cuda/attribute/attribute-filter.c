/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An attribute opening or closing on either backend (attribute-filter.h). */
#include "cm-filter-impl.h"
#include "attribute-filter.h"

typedef struct
{
  cm_filter base;               /* first; its cpu for the CPU backend */
  cm_attr_plan *plan;           /* CUDA */
  cm_attr_cpu *cpu;             /* CPU */
} attr_filter;

static cm_status
attr_run (cm_filter * base, const cm_image * src, const cm_image * dst,
    void *stream)
{
  attr_filter *f = (attr_filter *) base;

  if (base->backend == CM_BACKEND_CUDA)
    return cm_attr_plan_run (f->plan, src, dst, stream);
  return cm_attr_cpu_run (f->cpu, src, dst);
}

static const char *
attr_algorithm (const cm_filter * base)
{
  const attr_filter *f = (const attr_filter *) base;

  return f->plan != NULL ? "max-tree by concurrent merges" :
      "union-find max-tree";
}

static void
attr_free (cm_filter * base)
{
  attr_filter *f = (attr_filter *) base;

  if (f->plan != NULL)
    cm_attr_plan_free (f->plan);
  cm_attr_cpu_free (f->cpu);
}

static const cm_filter_ops attr_ops = {
  .run = attr_run,
  .algorithm = attr_algorithm,
  .free = attr_free,
};

cm_status
cm_attr_filter_new (cm_filter ** out, cm_backend backend,
    const cm_attr_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  attr_filter *f;
  cm_status status;

  f = (attr_filter *) cm_filter_alloc (out, sizeof (*f), &attr_ops,
      cm_attr_desc_ok (desc), backend, width, height, depth, cpu, &status);
  if (f == NULL)
    return status;
  if (backend == CM_BACKEND_CUDA)
    status = cm_attr_plan_new (&f->plan, desc, width, height, depth);
  else
    status = cm_attr_cpu_new (&f->cpu, desc, width, height, depth,
        &f->base.cpu);
  return cm_filter_done (out, &f->base, status);
}
