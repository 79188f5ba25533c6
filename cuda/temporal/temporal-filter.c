/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A temporal percentile on either backend (temporal-filter.h). */
#include "cm-filter-impl.h"
#include "temporal-cpu.h"
#include "temporal-filter.h"

typedef struct
{
  cm_filter base;               /* first; its cpu for the CPU backend */
  int channels;
  cm_temporal_plan *plan;       /* CUDA */
  cm_temporal_cpu *cpu;         /* CPU */
} temporal_filter;

static cm_status
temporal_run_packed (cm_filter * base, const cm_image_packed * src,
    const cm_image_packed * dst, void *stream)
{
  temporal_filter *f = (temporal_filter *) base;

  if (src->channels != f->channels || dst->channels != f->channels)
    return CM_ERR_INVALID_ARG;
  if (base->backend == CM_BACKEND_CUDA)
    return cm_temporal_plan_push (f->plan, src, dst, stream);
  return cm_temporal_cpu_push (f->cpu, src, dst);
}

static cm_image_packed
packed_of (const cm_image * img)
{
  cm_image_packed p = { img->data, img->pitch, img->width, img->height,
    img->depth, 1
  };
  return p;
}

static cm_status
temporal_run (cm_filter * base, const cm_image * src, const cm_image * dst,
    void *stream)
{
  const cm_image_packed s = packed_of (src), d = packed_of (dst);

  return temporal_run_packed (base, &s, &d, stream);
}

static const char *
temporal_algorithm (const cm_filter * base)
{
  const temporal_filter *f = (const temporal_filter *) base;

  return f->plan != NULL ? cm_temporal_plan_algorithm (f->plan) :
      "cpu-bitwise";
}

/* (the plan and the CPU state keep their own copy of @desc) */
static cm_status
temporal_make (cm_filter * base, const void *desc)
{
  temporal_filter *f = (temporal_filter *) base;

  base->flags |= CM_FILTER_PACKED;
  f->channels = ((const cm_temporal_desc *) desc)->channels;
  if (base->backend == CM_BACKEND_CUDA)
    return cm_temporal_plan_new (&f->plan, desc, base->width, base->height,
        base->depth);
  return cm_temporal_cpu_new (&f->cpu, desc, base->width, base->height,
      base->depth, &base->cpu);
}

static void
temporal_free (cm_filter * base)
{
  temporal_filter *f = (temporal_filter *) base;

  cm_temporal_plan_free (f->plan);
  cm_temporal_cpu_free (f->cpu);
}

static const cm_filter_ops temporal_ops = {
  .run = temporal_run,
  .run_packed = temporal_run_packed,
  .algorithm = temporal_algorithm,
  .make = temporal_make,
  .free = temporal_free,
};

cm_status
cm_temporal_filter_new (cm_filter ** out, cm_backend backend,
    const cm_temporal_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  return cm_filter_new (out, sizeof (temporal_filter), &temporal_ops,
      cm_temporal_desc_check (desc) == CM_OK, backend, width, height, depth,
      cpu, desc);
}

size_t
cm_temporal_filter_ring_bytes (cm_backend backend,
    const cm_temporal_desc * desc, int width, int height, cm_depth depth)
{
  return backend == CM_BACKEND_CUDA ?
      cm_temporal_plan_ring_bytes (desc, width, height, depth) :
      backend == CM_BACKEND_CPU ?
      cm_temporal_cpu_ring_bytes (desc, width, height, depth) : 0;
}

/* @base as a temporal filter, NULL for another */
static temporal_filter *
temporal_of (const cm_filter * base)
{
  return base != NULL && base->ops == &temporal_ops ?
      (temporal_filter *) base : NULL;
}

void
cm_temporal_filter_reset (cm_filter * base)
{
  temporal_filter *f = temporal_of (base);

  if (f != NULL && f->plan != NULL)
    cm_temporal_plan_reset (f->plan);
  else if (f != NULL)
    cm_temporal_cpu_reset (f->cpu);
}

int
cm_temporal_filter_window (const cm_filter * base)
{
  const temporal_filter *f = temporal_of (base);

  if (f == NULL)
    return 0;
  return f->plan != NULL ? cm_temporal_plan_window (f->plan) :
      cm_temporal_cpu_window (f->cpu);
}

cm_status
cm_temporal_filter_set_rank (cm_filter * base, double percentile,
    cm_temporal_output output)
{
  temporal_filter *f = temporal_of (base);

  if (f == NULL)
    return CM_ERR_INVALID_ARG;
  return f->plan != NULL ?
      cm_temporal_plan_set_rank (f->plan, percentile, output) :
      cm_temporal_cpu_set_rank (f->cpu, percentile, output);
}
