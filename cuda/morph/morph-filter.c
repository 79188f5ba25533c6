/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A morphology operation on either backend (morph-filter.h). */
#include "cm-filter-impl.h"
#include "morph-cpu.h"
#include "morph-filter.h"

typedef struct
{
  cm_filter base;               /* first */
  cm_morph_desc desc;           /* desc.se is se */
  cm_se *se;
  cm_morph_plan *plan;          /* CUDA */
  cm_morph_cpu *cpu;            /* CPU, NULL: the reference */
} morph_filter;

static cm_status
morph_run (cm_filter * base, const cm_image * src, const cm_image * dst,
    void *stream)
{
  morph_filter *f = (morph_filter *) base;
  cm_status st;

  if (base->backend == CM_BACKEND_CUDA)
    return cm_morph_plan_run (f->plan, src, dst, stream);
  /* the row passes, or the definition where they would need too much
   * scratch (or 16-bit rows off 2 bytes) */
  st = f->cpu != NULL ? cm_morph_cpu_run (f->cpu, src, dst) :
      CM_ERR_UNSUPPORTED;
  if (st == CM_ERR_UNSUPPORTED)
    st = cm_morph_ref_mt (&f->desc, src, dst, &base->cpu);
  return st;
}

static const char *
morph_algorithm (const cm_filter * base)
{
  const morph_filter *f = (const morph_filter *) base;

  if (f->plan != NULL)
    return cm_morph_plan_algorithm (f->plan);
  return f->cpu != NULL ? cm_morph_cpu_algorithm (f->cpu) : "reference";
}

static cm_status
morph_make (cm_filter * base, const void *desc)
{
  morph_filter *f = (morph_filter *) base;

  f->desc = *(const cm_morph_desc *) desc;
  f->se = cm_se_copy (f->desc.se);
  f->desc.se = f->se;
  if (f->se == NULL)
    return CM_ERR_NO_MEMORY;
  if (base->backend == CM_BACKEND_CUDA)
    return cm_morph_plan_new (&f->plan, &f->desc, base->width, base->height,
        base->depth);
  /* an SE the row passes do not take: the reference */
  if (cm_morph_cpu_new (&f->cpu, &f->desc, base->width, base->height,
          base->depth, &base->cpu) == CM_ERR_NO_MEMORY)
    return CM_ERR_NO_MEMORY;
  return CM_OK;
}

static void
morph_free (cm_filter * base)
{
  morph_filter *f = (morph_filter *) base;

  cm_morph_plan_free (f->plan);
  cm_morph_cpu_free (f->cpu);
  cm_se_free (f->se);
}

static const cm_filter_ops morph_ops = {
  .run = morph_run,
  .algorithm = morph_algorithm,
  .make = morph_make,
  .free = morph_free,
};

cm_status
cm_morph_filter_new (cm_filter ** out, cm_backend backend,
    const cm_morph_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  return cm_filter_new (out, sizeof (morph_filter), &morph_ops,
      cm_morph_desc_ok (desc) && cm_se_ok (desc->se), backend, width, height,
      depth, cpu, desc);
}
