/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cm-status.h"

/* defined in device.cu (CUDA builds) or common-nocuda.c */
const char *cm_cuda_error_text (int cuda_error);

const char *
cm_status_string (cm_status status)
{
  if (CM_STATUS_IS_CUDA (status))
    return cm_cuda_error_text ((int) status - CM_ERR_CUDA_BASE);
  switch (status) {
    case CM_OK:
      return "success";
    case CM_ERR_INVALID_ARG:
      return "invalid argument";
    case CM_ERR_UNSUPPORTED:
      return "not supported";
    case CM_ERR_NO_MEMORY:
      return "out of host memory";
    case CM_ERR_NO_CUDA:
      return "this build has no CUDA kernels (configured without a GPU or without the CUDA toolkit; -Dcuda=enabled builds them)";
    case CM_ERR_NO_DEVICE:
      return "no usable CUDA device (no GPU, no driver, or bad device id)";
    case CM_ERR_PARSE:
      return "malformed string";
    case CM_ERR_CANCELLED:
      return "cancelled";
    default:
      return "unknown status";
  }
}
