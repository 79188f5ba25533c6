/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The filters' shared fields and checks (cm-filter.h). */
#include <stdlib.h>

#include "cm-filter.h"

void *
cm_filter_alloc (size_t size, int desc_ok, cm_backend backend, int width,
    int height, cm_depth depth, const cm_cpu_opts * cpu, cm_status * status)
{
  cm_filter_base *base;

  if (!desc_ok || width < 1 || height < 1 ||
      (depth != CM_DEPTH_8 && depth != CM_DEPTH_16) ||
      (backend != CM_BACKEND_CPU && backend != CM_BACKEND_CUDA)) {
    *status = CM_ERR_INVALID_ARG;
    return NULL;
  }
  base = (cm_filter_base *) calloc (1, size);
  if (base == NULL) {
    *status = CM_ERR_NO_MEMORY;
    return NULL;
  }
  base->backend = backend;
  base->width = width;
  base->height = height;
  base->depth = depth;
  if (cpu != NULL)
    base->cpu = *cpu;
  return base;
}

int
cm_filter_fits (const cm_filter_base * base, int width, int height,
    cm_depth depth)
{
  return width == base->width && height == base->height &&
      depth == base->depth;
}

int
cm_filter_run_ok (const cm_filter_base * base, const cm_image * src,
    const cm_image * dst)
{
  return base != NULL && src != NULL && dst != NULL &&
      cm_filter_fits (base, src->width, src->height, src->depth) &&
      cm_filter_fits (base, dst->width, dst->height, dst->depth);
}
