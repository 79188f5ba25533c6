/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A morphology operation on either backend (morph-filter.h). */
#include <stdlib.h>

#include "cm-filter.h"
#include "morph-cpu.h"
#include "morph-filter.h"

struct cm_morph_filter
{
  cm_filter_base base;          /* first */
  cm_morph_desc desc;           /* desc.se is se */
  cm_se *se;
  cm_morph_plan *plan;          /* CUDA */
  cm_morph_cpu *cpu;            /* CPU, NULL: the reference */
};

cm_status
cm_morph_filter_new (cm_morph_filter ** out, cm_backend backend,
    const cm_morph_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  cm_morph_filter *f;
  cm_status status = CM_OK;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  f = (cm_morph_filter *) cm_filter_alloc (sizeof (*f), desc != NULL &&
      desc->se != NULL, backend, width, height, depth, cpu, &status);
  if (f == NULL)
    return status;
  f->desc = *desc;
  f->se = cm_se_copy (desc->se);
  f->desc.se = f->se;
  if (f->se == NULL)
    status = CM_ERR_NO_MEMORY;
  else if (backend == CM_BACKEND_CUDA)
    status = cm_morph_plan_new (&f->plan, &f->desc, width, height, depth);
  else if (cm_morph_cpu_new (&f->cpu, &f->desc, width, height, depth,
          &f->base.cpu) == CM_ERR_NO_MEMORY)
    status = CM_ERR_NO_MEMORY;  /* an SE it does not take: the reference */
  if (status != CM_OK) {
    cm_morph_filter_free (f);
    return status;
  }
  *out = f;
  return CM_OK;
}

cm_status
cm_morph_filter_run (cm_morph_filter * f, const cm_image * src,
    const cm_image * dst, void *stream)
{
  if (!cm_filter_run_ok ((const cm_filter_base *) f, src, dst))
    return CM_ERR_INVALID_ARG;
  cm_status st;

  if (f->base.backend == CM_BACKEND_CUDA)
    return cm_morph_plan_run (f->plan, src, dst, stream);
  /* the row passes, or the definition where they would need too much
   * scratch (or 16-bit rows off 2 bytes) */
  st = f->cpu != NULL ? cm_morph_cpu_run (f->cpu, src, dst) :
      CM_ERR_UNSUPPORTED;
  if (st == CM_ERR_UNSUPPORTED)
    st = cm_morph_ref_mt (&f->desc, src, dst, &f->base.cpu);
  return st;
}

void
cm_morph_filter_free (cm_morph_filter * f)
{
  if (f == NULL)
    return;
  if (f->plan != NULL)
    cm_morph_plan_free (f->plan);
  cm_morph_cpu_free (f->cpu);
  cm_se_free (f->se);
  free (f);
}

cm_backend
cm_morph_filter_backend (const cm_morph_filter * f)
{
  return f->base.backend;
}

const char *
cm_morph_filter_algorithm (const cm_morph_filter * f)
{
  if (f == NULL)
    return "none";
  if (f->plan != NULL)
    return cm_morph_plan_algorithm (f->plan);
  return f->cpu != NULL ? cm_morph_cpu_algorithm (f->cpu) : "reference";
}
