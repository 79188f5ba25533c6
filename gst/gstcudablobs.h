/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "base/gstcudaplanefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_BLOBS (gst_cuda_blobs_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaBlobs, gst_cuda_blobs, GST, CUDA_BLOBS,
    GstCudaPlaneFilter);

GST_ELEMENT_REGISTER_DECLARE (cudablobs);

/**
 * GstCudaBlobsOutput:
 * @GST_CUDA_BLOBS_OUTPUT_PASSTHROUGH: frames leave unchanged; the results
 *     are in the messages and metas
 * @GST_CUDA_BLOBS_OUTPUT_MASK: the input's format: the depth's maximum on
 *     the luma of every blob that passed the filters, 0 elsewhere, chroma
 *     neutral
 * @GST_CUDA_BLOBS_OUTPUT_LABELS: GRAY16_LE: 0 on the background, the blobs
 *     that passed numbered 1, 2, ... in raster order of their first pixel
 *     (those past 65535 all 65535)
 *
 * What cudablobs pushes downstream.
 */
typedef enum
{
  GST_CUDA_BLOBS_OUTPUT_PASSTHROUGH = 0,
  GST_CUDA_BLOBS_OUTPUT_MASK = 1,
  GST_CUDA_BLOBS_OUTPUT_LABELS = 2
} GstCudaBlobsOutput;

#define GST_TYPE_CUDA_BLOBS_OUTPUT (gst_cuda_blobs_output_get_type ())
GType gst_cuda_blobs_output_get_type (void);

/* the name of the custom meta on the output buffers (its structure has
 * the same name); readers need no header of the plugin */
#define GST_CUDA_BLOBS_META_NAME "GstCudaBlobsMeta"
/* the type of the blobs' GstAnalyticsODMtd entries (GStreamer >= 1.24) */
#define GST_CUDA_BLOBS_OD_TYPE "blob"

G_END_DECLS
