/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inside a family's filter (cm-filter.h): the handle's header, first
 * member of every family's filter struct, and the table of the family's
 * functions that cm_filter_run ... call once the arguments are checked. */
#pragma once

#include <stddef.h>

#include "cm-filter.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  /* arguments checked against the filter's size and depth */
  cm_status (*run) (cm_filter * f, const cm_image * src,
      const cm_image * dst, void *stream);
  cm_status (*run_packed) (cm_filter * f, const cm_image_packed * src,
      const cm_image_packed * dst, void *stream);       /* NULL: none */
  cm_status (*run_to_packed) (cm_filter * f, const cm_image * src,
      const cm_image_packed * dst, void *stream);       /* NULL: none */
  const char *(*algorithm) (const cm_filter * f);
  void (*free) (cm_filter * f); /* the family's parts, not the struct */
} cm_filter_ops;

/* cm_filter.flags */
enum
{
  CM_FILTER_PACKED = 1 << 0,    /* runs ops->run_packed */
  CM_FILTER_TO_PACKED = 1 << 1, /* runs ops->run_to_packed */
  CM_FILTER_MEASURES = 1 << 2   /* cm_filter_run takes a NULL dst */
};

struct cm_filter
{
  const cm_filter_ops *ops;     /* also tells the family */
  cm_backend backend;
  int width, height;
  cm_depth depth;
  cm_cpu_opts cpu;              /* zero when made with NULL options */
  unsigned flags;               /* CM_FILTER_*, set by the constructor */
};

/* The start of every cm_<op>_filter_new: *out set to NULL, then, with
 * @desc_ok (the descriptor given and valid), a size of at least 1x1, an
 * 8- or 16-bit depth and a known backend, @size zeroed bytes that start
 * with a cm_filter, filled in (@cpu copied when not NULL). NULL
 * otherwise, *status then CM_ERR_INVALID_ARG or CM_ERR_NO_MEMORY. */
void *cm_filter_alloc (cm_filter ** out, size_t size,
    const cm_filter_ops * ops, int desc_ok, cm_backend backend, int width,
    int height, cm_depth depth, const cm_cpu_opts * cpu, cm_status * status);
/* The end of every cm_<op>_filter_new: @f given in *out when @status is
 * CM_OK, else freed; returns @status */
cm_status cm_filter_done (cm_filter ** out, cm_filter * f, cm_status status);
/* An image of @width x @height and @depth matches the filter's size and
 * depth */
int cm_filter_fits (const cm_filter * f, int width, int height,
    cm_depth depth);

#ifdef __cplusplus
}
#endif
