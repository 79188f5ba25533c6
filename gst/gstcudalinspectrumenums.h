/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Registered GEnums of the cudalinspectrum element.
 * GstCudaLinSpectrumOperation has the values of the core's cm_morph_op
 * (and the nicks of cudamorph's operation), so that it converts with a
 * cast. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/**
 * GstCudaLinSpectrumOperation:
 * @GST_CUDA_LIN_SPECTRUM_OPERATION_OPEN: openings by lines: bright linear
 *     structures (lines, ridges, text on a dark ground)
 * @GST_CUDA_LIN_SPECTRUM_OPERATION_CLOSE: closings by lines: dark linear
 *     structures (text on paper, cracks, grooves)
 *
 * The linear filter of cudalinspectrum.
 */
typedef enum
{
  GST_CUDA_LIN_SPECTRUM_OPERATION_OPEN = 0,
  GST_CUDA_LIN_SPECTRUM_OPERATION_CLOSE = 1
} GstCudaLinSpectrumOperation;

/**
 * GstCudaLinSpectrumOutput:
 * @GST_CUDA_LIN_SPECTRUM_OUTPUT_PASSTHROUGH: frames leave unchanged; only
 *     the messages carry results
 * @GST_CUDA_LIN_SPECTRUM_OUTPUT_SUPREMUM: the processed plane is replaced
 *     by the supremum of the openings over every orientation (the infimum
 *     of the closings), chroma is copied
 * @GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION: an RGBA picture of the
 *     orientation map: hue = orientation, brightness = strength
 *
 * What cudalinspectrum pushes downstream.
 */
typedef enum
{
  GST_CUDA_LIN_SPECTRUM_OUTPUT_PASSTHROUGH = 0,
  GST_CUDA_LIN_SPECTRUM_OUTPUT_SUPREMUM = 1,
  GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION = 2
} GstCudaLinSpectrumOutput;

#define GST_TYPE_CUDA_LIN_SPECTRUM_OPERATION \
  (gst_cuda_lin_spectrum_operation_get_type ())
GType gst_cuda_lin_spectrum_operation_get_type (void);

#define GST_TYPE_CUDA_LIN_SPECTRUM_OUTPUT \
  (gst_cuda_lin_spectrum_output_get_type ())
GType gst_cuda_lin_spectrum_output_get_type (void);

G_END_DECLS
