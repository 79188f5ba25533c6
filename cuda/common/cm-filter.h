/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal: what every backend-neutral filter (cm_<op>_filter of
 * median-filter.h, reconstruct-filter.h, linspectrum-filter.h ...) keeps
 * and checks the same way: its backend, size, depth and CPU options, the
 * first member of its struct. */
#pragma once

#include <stddef.h>

#include "cm-backend.h"
#include "cm-image.h"
#include "cm-status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  cm_backend backend;
  int width, height;
  cm_depth depth;
  cm_cpu_opts cpu;              /* zero when made with NULL options */
} cm_filter_base;

/* The size, depth and backend a filter can be made for */
int cm_filter_args_ok (cm_backend backend, int width, int height,
    cm_depth depth);
/* @size zeroed bytes whose first member is a cm_filter_base, filled in
 * (@cpu copied when not NULL); NULL when out of memory. Freed with free(). */
void *cm_filter_alloc (size_t size, cm_backend backend, int width,
    int height, cm_depth depth, const cm_cpu_opts * cpu);
/* An image of @width x @height and @depth matches the filter's size and
 * depth */
int cm_filter_fits (const cm_filter_base * base, int width, int height,
    cm_depth depth);

#ifdef __cplusplus
}
#endif
