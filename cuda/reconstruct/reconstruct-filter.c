/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A reconstruction operation on either backend (reconstruct-filter.h). */
#include <stdlib.h>

#include "cm-filter.h"
#include "reconstruct-cpu.h"
#include "reconstruct-filter.h"

struct cm_recon_filter
{
  cm_filter_base base;          /* first; its cpu for the CPU backend */
  cm_recon_desc desc;           /* desc.marker.se is se */
  cm_se *se;
  cm_recon_plan *plan;          /* CUDA */
  cm_recon_cpu *cpu;            /* CPU, NULL: the reference */
};

cm_status
cm_recon_filter_new (cm_recon_filter ** out, cm_backend backend,
    const cm_recon_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  cm_recon_filter *f;
  cm_status status = CM_OK;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  f = (cm_recon_filter *) cm_filter_alloc (sizeof (*f), desc != NULL,
      backend, width, height, depth, cpu, &status);
  if (f == NULL)
    return status;
  f->desc = *desc;
  if (desc->marker.se != NULL) {
    f->se = cm_se_copy (desc->marker.se);
    if (f->se == NULL)
      status = CM_ERR_NO_MEMORY;
  }
  f->desc.marker.se = f->se;
  if (status == CM_OK && backend == CM_BACKEND_CUDA)
    status = cm_recon_plan_new (&f->plan, &f->desc, width, height, depth);
  else if (status == CM_OK && cm_recon_cpu_new (&f->cpu, &f->desc, width,
          height, depth, &f->base.cpu) == CM_ERR_NO_MEMORY)
    status = CM_ERR_NO_MEMORY;  /* a frame it does not take: the reference */
  if (status != CM_OK) {
    cm_recon_filter_free (f);
    return status;
  }
  *out = f;
  return CM_OK;
}

cm_status
cm_recon_filter_run (cm_recon_filter * f, const cm_image * src,
    const cm_image * dst, void *stream)
{
  cm_status st;

  if (!cm_filter_run_ok ((const cm_filter_base *) f, src, dst))
    return CM_ERR_INVALID_ARG;
  if (f->base.backend == CM_BACKEND_CUDA)
    return cm_recon_plan_run (f->plan, src, dst, stream);
  /* the fast path, or the reference for a frame it does not take */
  st = f->cpu != NULL ? cm_recon_cpu_run (f->cpu, src, dst) :
      CM_ERR_UNSUPPORTED;
  if (st == CM_ERR_UNSUPPORTED)
    st = cm_recon_ref_mt (&f->desc, src, dst, &f->base.cpu);
  return st;
}

void
cm_recon_filter_free (cm_recon_filter * f)
{
  if (f == NULL)
    return;
  if (f->plan != NULL)
    cm_recon_plan_free (f->plan);
  cm_recon_cpu_free (f->cpu);
  cm_se_free (f->se);
  free (f);
}

cm_backend
cm_recon_filter_backend (const cm_recon_filter * f)
{
  return f->base.backend;
}
