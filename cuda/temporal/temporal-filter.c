/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A temporal percentile filter on either backend (temporal-filter.h). */
#include <stdlib.h>

#include "cm-filter.h"
#include "temporal-cpu.h"
#include "temporal-filter.h"

struct cm_temporal_filter
{
  cm_filter_base base;          /* first; its cpu for the CPU backend */
  int channels;
  cm_temporal_plan *plan;       /* CUDA */
  cm_temporal_cpu *cpu;         /* CPU */
};

cm_status
cm_temporal_filter_new (cm_temporal_filter ** out, cm_backend backend,
    const cm_temporal_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  cm_temporal_filter *f;
  cm_status status = CM_OK;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  f = (cm_temporal_filter *) cm_filter_alloc (sizeof (*f),
      cm_temporal_desc_check (desc) == CM_OK, backend, width, height, depth,
      cpu, &status);
  if (f == NULL)
    return status;
  f->channels = desc->channels;
  if (backend == CM_BACKEND_CUDA)
    status = cm_temporal_plan_new (&f->plan, desc, width, height, depth);
  else
    status = cm_temporal_cpu_new (&f->cpu, desc, width, height, depth,
        &f->base.cpu);
  if (status != CM_OK) {
    cm_temporal_filter_free (f);
    return status;
  }
  *out = f;
  return CM_OK;
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

cm_status
cm_temporal_filter_push_packed (cm_temporal_filter * f,
    const cm_image_packed * src, const cm_image_packed * dst, void *stream)
{
  if (f == NULL || src == NULL || dst == NULL ||
      !cm_filter_fits (&f->base, src->width, src->height, src->depth) ||
      !cm_filter_fits (&f->base, dst->width, dst->height, dst->depth))
    return CM_ERR_INVALID_ARG;
  if (f->base.backend == CM_BACKEND_CUDA)
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

cm_status
cm_temporal_filter_push (cm_temporal_filter * f, const cm_image * src,
    const cm_image * dst, void *stream)
{
  cm_image_packed s, d;

  if (!cm_filter_run_ok ((const cm_filter_base *) f, src, dst) ||
      f->channels != 1)
    return CM_ERR_INVALID_ARG;
  s = packed_of (src);
  d = packed_of (dst);
  return cm_temporal_filter_push_packed (f, &s, &d, stream);
}

void
cm_temporal_filter_reset (cm_temporal_filter * f)
{
  if (f == NULL)
    return;
  if (f->plan != NULL)
    cm_temporal_plan_reset (f->plan);
  if (f->cpu != NULL)
    cm_temporal_cpu_reset (f->cpu);
}

int
cm_temporal_filter_window (const cm_temporal_filter * f)
{
  if (f == NULL)
    return 0;
  return f->plan != NULL ? cm_temporal_plan_window (f->plan) :
      cm_temporal_cpu_window (f->cpu);
}

cm_status
cm_temporal_filter_set_rank (cm_temporal_filter * f, double percentile,
    cm_temporal_output output)
{
  if (f == NULL)
    return CM_ERR_INVALID_ARG;
  return f->plan != NULL ?
      cm_temporal_plan_set_rank (f->plan, percentile, output) :
      cm_temporal_cpu_set_rank (f->cpu, percentile, output);
}

void
cm_temporal_filter_free (cm_temporal_filter * f)
{
  if (f == NULL)
    return;
  if (f->plan != NULL)
    cm_temporal_plan_free (f->plan);
  cm_temporal_cpu_free (f->cpu);
  free (f);
}

cm_backend
cm_temporal_filter_backend (const cm_temporal_filter * f)
{
  return f->base.backend;
}

const char *
cm_temporal_filter_algorithm (const cm_temporal_filter * f)
{
  if (f == NULL)
    return "none";
  return f->plan != NULL ? cm_temporal_plan_algorithm (f->plan) :
      "cpu-bitwise";
}
