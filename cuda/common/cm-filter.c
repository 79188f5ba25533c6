/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The filter handle: its checks, then the family's function
 * (cm-filter.h, cm-filter-impl.h). */
#include <stdlib.h>

#include "cm-filter-impl.h"
#include "cpu-bands.h"

cm_status
cm_filter_new (cm_filter ** out, size_t size, const cm_filter_ops * ops,
    int desc_ok, cm_backend backend, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu, const void *desc)
{
  cm_filter *f;
  cm_status status;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!desc_ok || !cm_frame_ok (width, height, depth) ||
      (backend != CM_BACKEND_CPU && backend != CM_BACKEND_CUDA))
    return CM_ERR_INVALID_ARG;
  f = (cm_filter *) calloc (1, size);
  if (f == NULL)
    return CM_ERR_NO_MEMORY;
  f->ops = ops;
  f->backend = backend;
  f->width = width;
  f->height = height;
  f->depth = depth;
  if (cpu != NULL)
    f->cpu = *cpu;
  /* the filter's own threads, kept from frame to frame (the caller's
   * pool, if any, may be freed before the filter) */
  f->cpu.pool = backend == CM_BACKEND_CPU ?
      cm_cpu_pool_new (f->cpu.threads) : NULL;
  status = ops->make (f, desc);
  if (status != CM_OK)
    cm_filter_free (f);
  else
    *out = f;
  return status;
}

int
cm_filter_fits (const cm_filter * f, int width, int height, cm_depth depth)
{
  return width == f->width && height == f->height && depth == f->depth;
}

cm_status
cm_filter_run (cm_filter * f, const cm_image * src, const cm_image * dst,
    void *stream)
{
  if (f == NULL || src == NULL ||
      !cm_filter_fits (f, src->width, src->height, src->depth))
    return CM_ERR_INVALID_ARG;
  if (dst == NULL ? !(f->flags & CM_FILTER_MEASURES) :
      !cm_filter_fits (f, dst->width, dst->height,
          f->flags & CM_FILTER_OWN_DST_DEPTH ? f->depth : dst->depth))
    return CM_ERR_INVALID_ARG;
  return f->ops->run (f, src, dst, stream);
}

/* The checks of a run on a path the filter may lack (@has): the source
 * fits (@src_ok), @dst has the filter's size (and depth, @dst_depth) */
static cm_status
path_check (const cm_filter * f, int has, int src_ok,
    const cm_image_packed * dst, int dst_depth)
{
  if (f == NULL)
    return CM_ERR_INVALID_ARG;
  if (!has)
    return CM_ERR_UNSUPPORTED;
  if (!src_ok || dst == NULL || dst->width != f->width ||
      dst->height != f->height || (dst_depth && dst->depth != f->depth))
    return CM_ERR_INVALID_ARG;
  return CM_OK;
}

cm_status
cm_filter_run_packed (cm_filter * f, const cm_image_packed * src,
    const cm_image_packed * dst, void *stream)
{
  int src_ok = f != NULL && src != NULL &&
      cm_filter_fits (f, src->width, src->height, src->depth);
  cm_status st = path_check (f, cm_filter_has_packed (f), src_ok, dst, 1);

  return st != CM_OK ? st : f->ops->run_packed (f, src, dst, stream);
}

/* (the output's depth is the family's to check: 8-bit colour here) */
cm_status
cm_filter_run_to_packed (cm_filter * f, const cm_image * src,
    const cm_image_packed * dst, void *stream)
{
  int src_ok = f != NULL && src != NULL &&
      cm_filter_fits (f, src->width, src->height, src->depth);
  cm_status st = path_check (f, cm_filter_has_to_packed (f), src_ok, dst,
      0);

  return st != CM_OK ? st : f->ops->run_to_packed (f, src, dst, stream);
}

int
cm_filter_has_packed (const cm_filter * f)
{
  return f != NULL && f->ops->run_packed != NULL &&
      (f->flags & CM_FILTER_PACKED);
}

int
cm_filter_has_to_packed (const cm_filter * f)
{
  return f != NULL && f->ops->run_to_packed != NULL &&
      (f->flags & CM_FILTER_TO_PACKED);
}

int
cm_filter_result_slots (const cm_filter * f)
{
  return f != NULL && f->ops->result_slots != NULL ?
      f->ops->result_slots (f) : 1;
}

cm_status
cm_filter_use_result_slot (cm_filter * f, int slot)
{
  if (f == NULL || slot < 0 || slot >= cm_filter_result_slots (f))
    return CM_ERR_INVALID_ARG;
  return f->ops->use_result_slot != NULL ?
      f->ops->use_result_slot (f, slot) : CM_OK;
}

const char *
cm_filter_algorithm (const cm_filter * f)
{
  return f != NULL ? f->ops->algorithm (f) : "none";
}

cm_backend
cm_filter_backend (const cm_filter * f)
{
  return f->backend;
}

void
cm_filter_free (cm_filter * f)
{
  if (f == NULL)
    return;
  f->ops->free (f);
  cm_cpu_pool_free (f->cpu.pool);
  free (f);
}
