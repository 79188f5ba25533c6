/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where a filter runs (the cm_filter handle of cm-filter.h): the CPU
 * backend on the host (host images, the stream ignored) or a CUDA plan on
 * the device (device images, queued on the caller's stream). A build
 * without CUDA refuses CM_BACKEND_CUDA with CM_ERR_NO_CUDA when the filter
 * is made. */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CM_BACKEND_CPU = 0,
  CM_BACKEND_CUDA = 1
} cm_backend;

/* "cpu", "cuda" or "invalid" (static string) */
static inline const char *
cm_backend_name (cm_backend backend)
{
  return backend == CM_BACKEND_CPU ? "cpu" :
      backend == CM_BACKEND_CUDA ? "cuda" : "invalid";
}

#ifdef __cplusplus
}
#endif
