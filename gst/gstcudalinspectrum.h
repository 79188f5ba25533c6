/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "base/gstcudaplanefilter.h"
#include "gstcudalinspectrumenums.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_LIN_SPECTRUM (gst_cuda_lin_spectrum_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaLinSpectrum, gst_cuda_lin_spectrum, GST,
    CUDA_LIN_SPECTRUM, GstCudaPlaneFilter);

GST_ELEMENT_REGISTER_DECLARE (cudalinspectrum);

G_END_DECLS
