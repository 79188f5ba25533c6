/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Registered GEnums of the cudamedian element. GstCudaMedianAlgorithm has
 * the values of the core's cm_median_algorithm, so that they convert with
 * a cast. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/**
 * GstCudaMedianColorMode:
 * @GST_CUDA_MEDIAN_COLOR_MODE_LUMA: the output pixel is the whole RGB pixel
 *     of the window whose luminance has the selected rank, so no colour
 *     absent from the window appears
 * @GST_CUDA_MEDIAN_COLOR_MODE_CHANNELS: each colour channel is filtered on
 *     its own (may create new colours)
 *
 * How cudamedian filters the RGB(A) formats.
 */
typedef enum
{
  GST_CUDA_MEDIAN_COLOR_MODE_LUMA = 0,
  GST_CUDA_MEDIAN_COLOR_MODE_CHANNELS = 1
} GstCudaMedianColorMode;

/**
 * GstCudaMedianAlgorithm:
 * @GST_CUDA_MEDIAN_ALGORITHM_AUTO: chosen from the window size, the depth
 *     and the rank
 * @GST_CUDA_MEDIAN_ALGORITHM_NETWORK: sorting and selection networks (small
 *     windows only)
 * @GST_CUDA_MEDIAN_ALGORITHM_HISTOGRAM: sliding histograms (any window)
 *
 * The CUDA algorithm of cudamedian; the CPU backend ignores it.
 */
typedef enum
{
  GST_CUDA_MEDIAN_ALGORITHM_AUTO = 0,
  GST_CUDA_MEDIAN_ALGORITHM_NETWORK = 1,
  GST_CUDA_MEDIAN_ALGORITHM_HISTOGRAM = 2
} GstCudaMedianAlgorithm;

#define GST_TYPE_CUDA_MEDIAN_COLOR_MODE (gst_cuda_median_color_mode_get_type ())
GType gst_cuda_median_color_mode_get_type (void);

#define GST_TYPE_CUDA_MEDIAN_ALGORITHM (gst_cuda_median_algorithm_get_type ())
GType gst_cuda_median_algorithm_get_type (void);

G_END_DECLS
