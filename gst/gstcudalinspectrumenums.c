/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudalinspectrumenums.h"
#include "base/gstcudaplanefilterenums.h"

/* numbered from 0, as GStreamer's own enums are (a binding that sets 0
 * gets the default); the element maps them to the core's cm_morph_op */
GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_lin_spectrum_operation,
    GstCudaLinSpectrumOperation,
    {GST_CUDA_LIN_SPECTRUM_OPERATION_OPEN,
        "Openings by lines: bright linear structures", "open"},
    {GST_CUDA_LIN_SPECTRUM_OPERATION_CLOSE,
        "Closings by lines: dark linear structures", "close"});

GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_lin_spectrum_output,
    GstCudaLinSpectrumOutput,
    {GST_CUDA_LIN_SPECTRUM_OUTPUT_PASSTHROUGH,
        "Frames unchanged, results in messages only", "passthrough"},
    {GST_CUDA_LIN_SPECTRUM_OUTPUT_SUPREMUM,
        "Luma replaced by the supremum of the openings (infimum of the "
          "closings)", "supremum"},
    {GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION,
        "RGBA orientation map: hue = orientation, brightness = strength",
          "orientation"});
