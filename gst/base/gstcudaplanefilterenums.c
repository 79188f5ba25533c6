/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaplanefilterenums.h"

#include "cm-border.h"

/* The GEnums are cast to the core enums: keep the values in step. */
G_STATIC_ASSERT ((int) GST_CUDA_MORPHOLOGY_BORDER_NEUTRAL ==
    (int) CM_BORDER_NEUTRAL);
G_STATIC_ASSERT ((int) GST_CUDA_MORPHOLOGY_BORDER_CONSTANT ==
    (int) CM_BORDER_CONSTANT);
G_STATIC_ASSERT (CM_BORDER_MODE_COUNT == 5);

GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_morphology_backend,
    GstCudaMorphologyBackend,
    {GST_CUDA_MORPHOLOGY_BACKEND_AUTO,
        "CUDA when a device is usable, else the CPU reference", "auto"},
    {GST_CUDA_MORPHOLOGY_BACKEND_CUDA,
        "CUDA only (fail without a usable device)", "cuda"},
    {GST_CUDA_MORPHOLOGY_BACKEND_CPU, "CPU reference implementation", "cpu"});

GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_morphology_overlap,
    GstCudaMorphologyOverlap,
    {GST_CUDA_MORPHOLOGY_OVERLAP_AUTO,
        "Overlap when upstream is not live", "auto"},
    {GST_CUDA_MORPHOLOGY_OVERLAP_ON,
        "Always overlap (one frame of latency)", "on"},
    {GST_CUDA_MORPHOLOGY_OVERLAP_OFF, "Never overlap", "off"});

GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_morphology_border,
    GstCudaMorphologyBorder,
    {GST_CUDA_MORPHOLOGY_BORDER_NEUTRAL,
        "Outside pixels never win (max for erosion, 0 for dilation)",
        "neutral"},
    {GST_CUDA_MORPHOLOGY_BORDER_REPLICATE,
        "Edge pixel repeated (aaa|abc|ccc)", "replicate"},
    {GST_CUDA_MORPHOLOGY_BORDER_REFLECT,
        "Reflected, edge pixel repeated (cba|abc|cba)", "reflect"},
    {GST_CUDA_MORPHOLOGY_BORDER_MIRROR,
        "Mirrored, edge pixel not repeated (dcb|abcd|cba)", "mirror"},
    {GST_CUDA_MORPHOLOGY_BORDER_CONSTANT,
        "Constant value (border-value) outside the frame", "constant"});
