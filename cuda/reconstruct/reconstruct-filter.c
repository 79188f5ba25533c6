/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A reconstruction operation on either backend (reconstruct-filter.h). */
#include "cm-filter-impl.h"
#include "reconstruct-cpu.h"
#include "reconstruct-filter.h"

typedef struct
{
  cm_filter base;               /* first; its cpu for the CPU backend */
  cm_recon_desc desc;           /* desc.marker.se is se */
  cm_se *se;
  cm_recon_plan *plan;          /* CUDA */
  cm_recon_cpu *cpu;            /* CPU, NULL: the reference */
} recon_filter;

static cm_status
recon_run (cm_filter * base, const cm_image * src, const cm_image * dst,
    void *stream)
{
  recon_filter *f = (recon_filter *) base;
  cm_status st;

  if (base->backend == CM_BACKEND_CUDA)
    return cm_recon_plan_run (f->plan, src, dst, stream);
  /* the fast path, or the reference for a frame it does not take */
  st = f->cpu != NULL ? cm_recon_cpu_run (f->cpu, src, dst) :
      CM_ERR_UNSUPPORTED;
  if (st == CM_ERR_UNSUPPORTED)
    st = cm_recon_ref_mt (&f->desc, src, dst, &base->cpu);
  return st;
}

static const char *
recon_algorithm (const cm_filter * base)
{
  const recon_filter *f = (const recon_filter *) base;

  if (f->plan != NULL)
    return "reconstruction plan";
  return f->cpu != NULL ? "CPU plan" : "reference";
}

static void
recon_free (cm_filter * base)
{
  recon_filter *f = (recon_filter *) base;

  if (f->plan != NULL)
    cm_recon_plan_free (f->plan);
  cm_recon_cpu_free (f->cpu);
  cm_se_free (f->se);
}

static const cm_filter_ops recon_ops = {
  .run = recon_run,
  .algorithm = recon_algorithm,
  .free = recon_free,
};

cm_status
cm_recon_filter_new (cm_filter ** out, cm_backend backend,
    const cm_recon_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  recon_filter *f;
  cm_status status = CM_OK;

  f = (recon_filter *) cm_filter_alloc (out, sizeof (*f), &recon_ops,
      desc != NULL, backend, width, height, depth, cpu, &status);
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
  return cm_filter_done (out, &f->base, status);
}
