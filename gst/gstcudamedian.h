/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "base/gstcudaplanefilter.h"
#include "gstcudamedianenums.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_MEDIAN (gst_cuda_median_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaMedian, gst_cuda_median, GST, CUDA_MEDIAN,
    GstCudaPlaneFilter);

GST_ELEMENT_REGISTER_DECLARE (cudamedian);

G_END_DECLS
