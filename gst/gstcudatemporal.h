/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "base/gstcudaplanefilter.h"
#include "gstcudatemporalenums.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_TEMPORAL (gst_cuda_temporal_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaTemporal, gst_cuda_temporal, GST,
    CUDA_TEMPORAL, GstCudaPlaneFilter);

GST_ELEMENT_REGISTER_DECLARE (cudatemporal);

G_END_DECLS
