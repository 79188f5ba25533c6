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

static cm_status
recon_make (cm_filter * base, const void *desc)
{
  recon_filter *f = (recon_filter *) base;

  f->desc = *(const cm_recon_desc *) desc;
  if (f->desc.marker.se != NULL) {
    f->se = cm_se_copy (f->desc.marker.se);
    if (f->se == NULL)
      return CM_ERR_NO_MEMORY;
  }
  f->desc.marker.se = f->se;
  if (base->backend == CM_BACKEND_CUDA)
    return cm_recon_plan_new (&f->plan, &f->desc, base->width, base->height,
        base->depth);
  /* a frame the CPU plan does not take: the reference */
  if (cm_recon_cpu_new (&f->cpu, &f->desc, base->width, base->height,
          base->depth, &base->cpu) == CM_ERR_NO_MEMORY)
    return CM_ERR_NO_MEMORY;
  return CM_OK;
}

static void
recon_free (cm_filter * base)
{
  recon_filter *f = (recon_filter *) base;

  cm_recon_plan_free (f->plan);
  cm_recon_cpu_free (f->cpu);
  cm_se_free (f->se);
}

static const cm_filter_ops recon_ops = {
  .run = recon_run,
  .algorithm = recon_algorithm,
  .make = recon_make,
  .free = recon_free,
};

cm_status
cm_recon_filter_new (cm_filter ** out, cm_backend backend,
    const cm_recon_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  return cm_filter_new (out, sizeof (recon_filter), &recon_ops,
      cm_recon_desc_ok (desc), backend, width, height, depth, cpu, desc);
}
