/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The blobs on either backend (blobs-filter.h). */
#include "cm-filter-impl.h"
#include "blobs-cpu.h"
#include "blobs-filter.h"

typedef struct
{
  cm_filter base;               /* first; its cpu for the CPU backend */
  cm_blobs_desc desc;
  cm_blobs_plan *plan;          /* CUDA */
  cm_blobs_cpu *cpu;            /* CPU */
  int slot;                     /* the result slot in use (CUDA)          */
  unsigned ran;                 /* bit i: slot i holds a run's results    */
} blobs_filter;

static cm_status
blobs_run (cm_filter * base, const cm_image * src, const cm_image * dst,
    void *stream)
{
  blobs_filter *f = (blobs_filter *) base;
  cm_status st;

  /* the handle checked dst's size; its depth is the output's */
  if (f->desc.output != CM_BLOBS_OUTPUT_NONE && (dst == NULL ||
          dst->depth != cm_blobs_output_depth (&f->desc, base->depth)))
    return CM_ERR_INVALID_ARG;
  if (f->desc.output == CM_BLOBS_OUTPUT_NONE)
    dst = NULL;
  if (base->backend == CM_BACKEND_CUDA)
    st = cm_blobs_plan_run (f->plan, src, dst, stream);
  else
    st = cm_blobs_cpu_run (f->cpu, src, dst);
  if (st == CM_OK)
    f->ran |= 1u << f->slot;
  return st;
}

/* the plan's slots on CUDA; the CPU's one result */
static int
blobs_result_slots (const cm_filter * base)
{
  const blobs_filter *f = (const blobs_filter *) base;

  return base->backend == CM_BACKEND_CUDA && f->desc.result_slots > 1 ?
      f->desc.result_slots : 1;
}

static cm_status
blobs_use_result_slot (cm_filter * base, int slot)
{
  blobs_filter *f = (blobs_filter *) base;
  cm_status st = CM_OK;

  if (base->backend == CM_BACKEND_CUDA)
    st = cm_blobs_plan_use_slot (f->plan, slot);
  if (st == CM_OK)
    f->slot = slot;
  return st;
}

static const char *
blobs_algorithm (const cm_filter * base)
{
  return base->backend == CM_BACKEND_CUDA ? "block union-find" :
      "CPU two-pass";
}

static cm_status
blobs_make (cm_filter * base, const void *desc)
{
  blobs_filter *f = (blobs_filter *) base;

  f->desc = *(const cm_blobs_desc *) desc;
  /* dst: NULL with output none, the labels at their own depth */
  base->flags = CM_FILTER_MEASURES | CM_FILTER_OWN_DST_DEPTH;
  if (base->backend == CM_BACKEND_CUDA)
    return cm_blobs_plan_new (&f->plan, &f->desc, base->width, base->height,
        base->depth);
  return cm_blobs_cpu_new (&f->cpu, &f->desc, base->width, base->height,
      base->depth, &base->cpu);
}

static void
blobs_free (cm_filter * base)
{
  blobs_filter *f = (blobs_filter *) base;

  cm_blobs_plan_free (f->plan);
  cm_blobs_cpu_free (f->cpu);
}

static const cm_filter_ops blobs_ops = {
  .run = blobs_run,
  .algorithm = blobs_algorithm,
  .result_slots = blobs_result_slots,
  .use_result_slot = blobs_use_result_slot,
  .make = blobs_make,
  .free = blobs_free,
};

cm_status
cm_blobs_filter_new (cm_filter ** out, cm_backend backend,
    const cm_blobs_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  return cm_filter_new (out, sizeof (blobs_filter), &blobs_ops,
      cm_blobs_desc_ok (desc), backend, width, height, depth, cpu, desc);
}

const cm_blobs_results *
cm_blobs_filter_results (const cm_filter * base)
{
  const blobs_filter *f = (const blobs_filter *) base;

  if (base == NULL || base->ops != &blobs_ops || !(f->ran & (1u << f->slot)))
    return NULL;
  return base->backend == CM_BACKEND_CUDA ? cm_blobs_plan_results (f->plan)
      : cm_blobs_cpu_results (f->cpu);
}
