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

/* The start of every cm_<op>_filter_new, once its out pointer is NULL:
 * with @desc_ok (the descriptor given and valid), a size of at least 1x1,
 * an 8- or 16-bit depth and a known backend, @size zeroed bytes whose first
 * member is a cm_filter_base, filled in (@cpu copied when not NULL), freed
 * with free(). NULL otherwise, *status then CM_ERR_INVALID_ARG or
 * CM_ERR_NO_MEMORY. */
void *cm_filter_alloc (size_t size, int desc_ok, cm_backend backend,
    int width, int height, cm_depth depth, const cm_cpu_opts * cpu,
    cm_status * status);
/* An image of @width x @height and @depth matches the filter's size and
 * depth */
int cm_filter_fits (const cm_filter_base * base, int width, int height,
    cm_depth depth);
/* The arguments of a run on planes: @base (the filter, NULL when none),
 * @src and @dst given, both of the filter's size and depth */
int cm_filter_run_ok (const cm_filter_base * base, const cm_image * src,
    const cm_image * dst);

#ifdef __cplusplus
}
#endif
