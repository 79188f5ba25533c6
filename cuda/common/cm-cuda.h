/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/ (.cu files only): a CUDA runtime error as a cm_status
 * (cm-status.h: CM_ERR_CUDA_BASE + the runtime's code, so that
 * cm_status_string gives the CUDA error text), and the current device's
 * attributes. */
#pragma once

#include <cuda_runtime.h>

#include "cm-status.h"

/* The status of a runtime call. A failure also clears the runtime's last
 * error, so that a later cudaGetLastError () after a launch reports that
 * launch only. */
static inline cm_status
cm_cuda_status (cudaError_t e)
{
  if (e == cudaSuccess)
    return CM_OK;
  (void) cudaGetLastError ();
  return (cm_status) (CM_ERR_CUDA_BASE + (int) e);
}

/* An attribute of the current device (cudaDeviceGetAttribute) */
static inline cudaError_t
cm_device_attribute (cudaDeviceAttr attr, int *value)
{
  int dev;
  cudaError_t e = cudaGetDevice (&dev);

  return e == cudaSuccess ? cudaDeviceGetAttribute (value, attr, dev) : e;
}
