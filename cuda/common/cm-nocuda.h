/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/: what a family's <family>-nocuda.c builds instead of
 * its .cu files when the CUDA toolkit is absent: plans that are never
 * made (CM_ERR_NO_CUDA), so that a caller falls back to the CPU backend. */
#pragma once

#include <stddef.h>

#include "cm-image.h"
#include "cm-status.h"

/* cm_<op>_plan_new, _new_tuned and _free of the family @op, whose
 * descriptor is @desc_t and tuning @tuning_t */
#define NO_CUDA_PLAN(op, desc_t, tuning_t)                                  \
  cm_status                                                                 \
  cm_##op##_plan_new (cm_##op##_plan ** out, const desc_t * desc,          \
      int width, int height, cm_depth depth)                                \
  {                                                                         \
    return cm_##op##_plan_new_tuned (out, desc, width, height, depth,       \
        NULL);                                                              \
  }                                                                         \
                                                                            \
  cm_status                                                                 \
  cm_##op##_plan_new_tuned (cm_##op##_plan ** out, const desc_t * desc,    \
      int width, int height, cm_depth depth, const tuning_t * tuning)       \
  {                                                                         \
    if (out)                                                                \
      *out = NULL;                                                          \
    return CM_ERR_NO_CUDA;                                                  \
  }                                                                         \
                                                                            \
  void                                                                      \
  cm_##op##_plan_free (cm_##op##_plan * plan)                              \
  {                                                                         \
  }

/* cm_<op>_plan_run of a family that runs on one src and one dst image */
#define NO_CUDA_PLAN_RUN(op)                                                \
  cm_status                                                                 \
  cm_##op##_plan_run (cm_##op##_plan * plan, const cm_image * src,         \
      const cm_image * dst, void *stream)                                   \
  {                                                                         \
    return CM_ERR_NO_CUDA;                                                  \
  }
