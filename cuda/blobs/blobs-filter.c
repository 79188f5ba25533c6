/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The blobs on either backend (blobs-filter.h). */
#include <stdlib.h>

#include "cm-filter.h"
#include "blobs-cpu.h"
#include "blobs-filter.h"

struct cm_blobs_filter
{
  cm_filter_base base;          /* first */
  cm_blobs_desc desc;
  cm_blobs_plan *plan;          /* CUDA */
  cm_blobs_cpu *cpu;            /* CPU */
  int ran;
};

cm_status
cm_blobs_filter_new (cm_blobs_filter ** out, cm_backend backend,
    const cm_blobs_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  cm_blobs_filter *f;
  cm_status status = CM_OK;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  f = (cm_blobs_filter *) cm_filter_alloc (sizeof (*f),
      cm_blobs_desc_ok (desc), backend, width, height, depth, cpu, &status);
  if (f == NULL)
    return status;
  f->desc = *desc;
  if (backend == CM_BACKEND_CUDA)
    status = cm_blobs_plan_new (&f->plan, &f->desc, width, height, depth);
  else
    status = cm_blobs_cpu_new (&f->cpu, &f->desc, width, height, depth,
        &f->base.cpu);
  if (status != CM_OK) {
    cm_blobs_filter_free (f);
    return status;
  }
  *out = f;
  return CM_OK;
}

cm_status
cm_blobs_filter_run (cm_blobs_filter * f, const cm_image * src,
    const cm_image * dst, void *stream)
{
  cm_status st;

  if (f == NULL || src == NULL || !cm_filter_fits (&f->base, src->width,
          src->height, src->depth))
    return CM_ERR_INVALID_ARG;
  if (f->desc.output != CM_BLOBS_OUTPUT_NONE && (dst == NULL ||
          !cm_filter_fits (&f->base, dst->width, dst->height, src->depth) ||
          dst->depth != cm_blobs_output_depth (&f->desc, src->depth)))
    return CM_ERR_INVALID_ARG;
  if (f->desc.output == CM_BLOBS_OUTPUT_NONE)
    dst = NULL;
  if (f->base.backend == CM_BACKEND_CUDA)
    st = cm_blobs_plan_run (f->plan, src, dst, stream);
  else
    st = cm_blobs_cpu_run (f->cpu, src, dst);
  if (st == CM_OK)
    f->ran = 1;
  return st;
}

const cm_blobs_results *
cm_blobs_filter_results (const cm_blobs_filter * f)
{
  if (f == NULL || !f->ran)
    return NULL;
  return f->base.backend == CM_BACKEND_CUDA ? cm_blobs_plan_results (f->plan)
      : cm_blobs_cpu_results (f->cpu);
}

void
cm_blobs_filter_free (cm_blobs_filter * f)
{
  if (f == NULL)
    return;
  if (f->plan != NULL)
    cm_blobs_plan_free (f->plan);
  cm_blobs_cpu_free (f->cpu);
  free (f);
}

cm_backend
cm_blobs_filter_backend (const cm_blobs_filter * f)
{
  return f->base.backend;
}
