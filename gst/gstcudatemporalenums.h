/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Registered GEnums of the cudatemporal element. GstCudaTemporalOutput has
 * the values of the core's cm_temporal_output, so that they convert with a
 * cast. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/**
 * GstCudaTemporalOutput:
 * @GST_CUDA_TEMPORAL_OUTPUT_BACKGROUND: the percentile of the window, per
 *     sample of every plane (the background of a still scene)
 * @GST_CUDA_TEMPORAL_OUTPUT_DIFFERENCE: |frame - background| per sample of
 *     luma (each colour channel for RGB), chroma neutral
 *
 * What cudatemporal outputs.
 */
typedef enum
{
  GST_CUDA_TEMPORAL_OUTPUT_BACKGROUND = 0,
  GST_CUDA_TEMPORAL_OUTPUT_DIFFERENCE = 1
} GstCudaTemporalOutput;

#define GST_TYPE_CUDA_TEMPORAL_OUTPUT (gst_cuda_temporal_output_get_type ())
GType gst_cuda_temporal_output_get_type (void);

G_END_DECLS
