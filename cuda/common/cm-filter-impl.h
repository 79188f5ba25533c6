/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inside a family's filter (cm-filter.h): the handle's header, first
 * member of every family's filter struct, and the table of the family's
 * functions that cm_filter_run ... call once the arguments are checked. */
#pragma once

#include <stddef.h>

#include "cm-filter.h"

CM_BEGIN_DECLS

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
  /* cm_filter_result_slots, cm_filter_use_result_slot (slot checked);
   * NULL: one slot */
  int (*result_slots) (const cm_filter * f);
  cm_status (*use_result_slot) (cm_filter * f, int slot);
  /* cm_filter_new's: the family's parts of @f (its cm_filter filled in,
   * the rest zeroed) from its @desc: its own copy, the CUDA plan or the
   * CPU state. On failure free still runs on @f. */
  cm_status (*make) (cm_filter * f, const void *desc);
  void (*free) (cm_filter * f); /* the family's parts, not the struct */
} cm_filter_ops;

/* cm_filter.flags */
enum
{
  CM_FILTER_PACKED = 1 << 0,    /* runs ops->run_packed */
  CM_FILTER_TO_PACKED = 1 << 1, /* runs ops->run_to_packed */
  CM_FILTER_MEASURES = 1 << 2,  /* cm_filter_run takes a NULL dst */
  CM_FILTER_OWN_DST_DEPTH = 1 << 3      /* dst's depth is the family's
                                         * to check (the blobs' labels) */
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

/* The whole of every cm_<op>_filter_new: *out set to NULL, then, with
 * @desc_ok (the descriptor given and valid), a frame cm_frame_ok takes
 * and a known backend, @size zeroed bytes that start with a cm_filter,
 * filled in (@cpu copied when not NULL), then ops->make with @desc; *out
 * the filter when that succeeds, else it is freed. CM_ERR_INVALID_ARG,
 * CM_ERR_NO_MEMORY or make's status otherwise. */
cm_status cm_filter_new (cm_filter ** out, size_t size,
    const cm_filter_ops * ops, int desc_ok, cm_backend backend, int width,
    int height, cm_depth depth, const cm_cpu_opts * cpu, const void *desc);
/* An image of @width x @height and @depth matches the filter's size and
 * depth */
int cm_filter_fits (const cm_filter * f, int width, int height,
    cm_depth depth);

CM_END_DECLS
