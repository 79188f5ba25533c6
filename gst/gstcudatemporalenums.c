/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudatemporalenums.h"
#include "base/gstcudaplanefilterenums.h"

#include "temporal/temporal.h"

/* GstCudaTemporalOutput is cast to cm_temporal_output */
G_STATIC_ASSERT ((int) GST_CUDA_TEMPORAL_OUTPUT_BACKGROUND ==
    (int) CM_TEMPORAL_BACKGROUND);
G_STATIC_ASSERT ((int) GST_CUDA_TEMPORAL_OUTPUT_DIFFERENCE ==
    (int) CM_TEMPORAL_DIFFERENCE);
G_STATIC_ASSERT (CM_TEMPORAL_OUTPUT_COUNT == 2);

GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_temporal_output,
    GstCudaTemporalOutput,
    {GST_CUDA_TEMPORAL_OUTPUT_BACKGROUND,
        "The percentile of the window, every plane", "background"},
    {GST_CUDA_TEMPORAL_OUTPUT_DIFFERENCE,
        "|frame - background| of luma or each colour channel, chroma "
          "neutral", "difference"});
