/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rank a percentile selects among n sorted samples, shared by the
 * filters that pick one (the median's window, the temporal window):
 * floor (p / 100 * (n - 1) + 1/2) in double precision, in [0, n - 1]. */
#pragma once

#include <math.h>

#include "cm-decls.h"

CM_BEGIN_DECLS

/* @percentile in [0, 100] (the caller checks it), @n >= 1 */
static inline int
cm_percentile_rank (double percentile, int n)
{
  int k = (int) floor (percentile / 100.0 * (double) (n - 1) + 0.5);

  if (k < 0)
    k = 0;
  if (k > n - 1)
    k = n - 1;
  return k;
}

CM_END_DECLS
