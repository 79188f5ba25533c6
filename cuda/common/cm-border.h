/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Border rules (docs/design.md). Every rule is either an index map
 * (replicate, reflect, mirror) or a constant (neutral, constant). */
#pragma once

#include <stdint.h>

#include "cm-decls.h"

/* The same index map serves the CPU reference and the kernels: compiled by
 * nvcc it is also a device function, so there is one definition to test. */
#ifdef __CUDACC__
#define CM_BORDER_HD __host__ __device__
#else
#define CM_BORDER_HD
#endif

CM_BEGIN_DECLS

typedef enum
{
  CM_BORDER_NEUTRAL = 0,        /* outside never wins: max for min-filters,
                                   0 for max-filters (OpenCV default)       */
  CM_BORDER_REPLICATE = 1,      /* aaa|abc|ccc                              */
  CM_BORDER_REFLECT = 2,        /* cba|abc|cba  edge repeated (SciPy reflect) */
  CM_BORDER_MIRROR = 3,         /* dcb|abcd|cba edge not repeated (REFLECT_101) */
  CM_BORDER_CONSTANT = 4        /* value|abc|value                          */
} cm_border_mode;

#define CM_BORDER_MODE_COUNT 5

/* Map an out-of-range index i into [0, n) for the index-map rules, repeating
 * the reflection as often as needed (images smaller than the reach of the
 * structuring element). Undefined for NEUTRAL/CONSTANT. n >= 1. */
static inline CM_BORDER_HD int
cm_border_map (cm_border_mode mode, int i, int n)
{
  if (i >= 0 && i < n)
    return i;
  if (n == 1)
    return 0;
  switch (mode) {
    case CM_BORDER_REPLICATE:
      return i < 0 ? 0 : n - 1;
    case CM_BORDER_REFLECT:{
      int period = 2 * n;
      int m = i % period;
      if (m < 0)
        m += period;
      return m < n ? m : period - 1 - m;
    }
    case CM_BORDER_MIRROR:{
      int period = 2 * n - 2;
      int m = i % period;
      if (m < 0)
        m += period;
      return m < n ? m : period - m;
    }
    default:
      return -1;
  }
}

CM_END_DECLS
