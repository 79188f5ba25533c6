/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Status values returned by every core function. No core function prints,
 * exits or aborts: callers turn these into their own errors. */
#pragma once

#include "cm-decls.h"

CM_BEGIN_DECLS

typedef enum
{
  CM_OK = 0,
  CM_ERR_INVALID_ARG = 1,      /* NULL pointer, bad size, bad enum value   */
  CM_ERR_UNSUPPORTED = 2,      /* valid request this build/backend can't do */
  CM_ERR_NO_MEMORY = 3,        /* host allocation failed                    */
  CM_ERR_NO_CUDA = 4,          /* built without the CUDA toolkit            */
  CM_ERR_NO_DEVICE = 5,        /* no usable CUDA device / driver            */
  CM_ERR_PARSE = 6,            /* malformed string (e.g. custom mask)       */
  CM_ERR_CANCELLED = 7,        /* stopped by the caller's cancel flag       */
  /* CUDA runtime errors: CM_ERR_CUDA_BASE + cudaError_t value */
  CM_ERR_CUDA_BASE = 1000
} cm_status;

/* Human-readable text for a status; for CUDA errors the CUDA runtime's own
 * error string ("out of memory", ...). Never NULL, static storage. */
const char *cm_status_string (cm_status status);

typedef struct cm_cpu_pool cm_cpu_pool;

/* How a CPU reference runs: @threads threads over rows (0 or 1: the
 * calling thread alone), and @cancel, when not NULL, a flag that the
 * caller may set from any thread: the run then stops between two rows and
 * returns CM_ERR_CANCELLED (the output is undefined). @pool, when not
 * NULL, holds the threads from one run to the next (cpu-bands.h; a
 * filter makes its own); without it each run starts its threads. */
typedef struct
{
  int threads;
  const int *cancel;
  cm_cpu_pool *pool;
} cm_cpu_opts;

/* TRUE when the status wraps a CUDA runtime error */
#define CM_STATUS_IS_CUDA(s) ((int) (s) >= CM_ERR_CUDA_BASE)

CM_END_DECLS
