/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "base/gstcudaplanefilter.h"
#include "gstcudamorphenums.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_MORPH (gst_cuda_morph_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaMorph, gst_cuda_morph, GST, CUDA_MORPH,
    GstCudaPlaneFilter);

GST_ELEMENT_REGISTER_DECLARE (cudamorph);

G_END_DECLS
