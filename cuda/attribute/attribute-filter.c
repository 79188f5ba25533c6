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

/* (the plan and the CPU state keep their own copy of @desc) */
static cm_status
attr_make (cm_filter * base, const void *desc)
{
  attr_filter *f = (attr_filter *) base;

  if (base->backend == CM_BACKEND_CUDA)
    return cm_attr_plan_new (&f->plan, desc, base->width, base->height,
        base->depth);
  return cm_attr_cpu_new (&f->cpu, desc, base->width, base->height,
      base->depth, &base->cpu);
}

static void
attr_free (cm_filter * base)
{
  attr_filter *f = (attr_filter *) base;

  cm_attr_plan_free (f->plan);
  cm_attr_cpu_free (f->cpu);
}

static const cm_filter_ops attr_ops = {
  .run = attr_run,
  .algorithm = attr_algorithm,
  .make = attr_make,
  .free = attr_free,
};

cm_status
cm_attr_filter_new (cm_filter ** out, cm_backend backend,
    const cm_attr_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  return cm_filter_new (out, sizeof (attr_filter), &attr_ops,
      cm_attr_desc_ok (desc), backend, width, height, depth, cpu, desc);
}
