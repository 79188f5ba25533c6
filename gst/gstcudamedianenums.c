/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudamedianenums.h"
#include "base/gstcudaplanefilterenums.h"

#include "median/median.h"

/* GstCudaMedianAlgorithm is cast to cm_median_algorithm */
G_STATIC_ASSERT ((int) GST_CUDA_MEDIAN_ALGORITHM_AUTO ==
    (int) CM_MEDIAN_AUTO);
G_STATIC_ASSERT ((int) GST_CUDA_MEDIAN_ALGORITHM_NETWORK ==
    (int) CM_MEDIAN_NETWORK);
G_STATIC_ASSERT ((int) GST_CUDA_MEDIAN_ALGORITHM_HISTOGRAM ==
    (int) CM_MEDIAN_HISTOGRAM);
G_STATIC_ASSERT (CM_MEDIAN_ALGORITHM_COUNT == 3);

GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_median_color_mode,
    GstCudaMedianColorMode,
    {GST_CUDA_MEDIAN_COLOR_MODE_LUMA,
        "Whole RGB pixel of the window whose luminance has the rank "
          "(no new colours)", "luma"},
    {GST_CUDA_MEDIAN_COLOR_MODE_CHANNELS,
        "Each colour channel independently", "channels"});

GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_median_algorithm,
    GstCudaMedianAlgorithm,
    {GST_CUDA_MEDIAN_ALGORITHM_AUTO,
        "Chosen from the window size, depth and rank", "auto"},
    {GST_CUDA_MEDIAN_ALGORITHM_NETWORK,
        "Sorting/selection networks (windows of at most 64 pixels, or "
          "square 3..11 at min/median/max)", "network"},
    {GST_CUDA_MEDIAN_ALGORITHM_HISTOGRAM,
        "Sliding histograms (any window)", "histogram"});
