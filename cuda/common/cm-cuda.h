/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/ (.cu files only): a CUDA runtime error as a cm_status
 * (cm-status.h: CM_ERR_CUDA_BASE + the runtime's code, so that
 * cm_status_string gives the CUDA error text), and the current device's
 * attributes. */
#pragma once

#include <stdlib.h>
#include <cuda_runtime.h>

#include "cm-image.h"
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

/* The status of a runtime call, the runtime's last error left as it is
 * (the caller may still read it) */
static inline cm_status
cm_status_from_cuda (cudaError_t e)
{
  return e == cudaSuccess ? CM_OK : (cm_status) (CM_ERR_CUDA_BASE + (int) e);
}

/* An attribute of the current device (cudaDeviceGetAttribute) */
static inline cudaError_t
cm_device_attribute (cudaDeviceAttr attr, int *value)
{
  int dev;
  cudaError_t e = cudaGetDevice (&dev);

  return e == cudaSuccess ? cudaDeviceGetAttribute (value, attr, dev) : e;
}

/* A template instance chosen by a power of two known at run time (the
 * chunk length of a kernel family): Pick::template get<P> (args...) for
 * the P among LO, 2 LO ... HI that equals @p, the HI one for any other */
template <class Pick, int LO, int HI, class... A>
static inline auto
cm_pow2_pick (int p, A... args)
{
  if constexpr (LO >= HI)
    return Pick::template get<HI> (args...);
  else
    return p == LO ? Pick::template get<LO> (args...) :
        cm_pow2_pick<Pick, 2 * LO, HI> (p, args...);
}

/* A plan struct P, zeroed (free with free ()), that keeps a copy of
 * @desc and the image size and depth it is made for; NULL when out of
 * memory */
template <class P, class Desc>
static inline P *
cm_plan_alloc (const Desc * desc, int width, int height, cm_depth depth)
{
  P *p = (P *) calloc (1, sizeof (P));

  if (p) {
    p->desc = *desc;
    p->width = width;
    p->height = height;
    p->depth = depth;
  }
  return p;
}
