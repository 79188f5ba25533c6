/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Registered GEnums shared by the cudamorphology elements (cudamorph's own
 * are in gstcudamorphenums.h). GstCudaMorphologyBorder has the values of
 * the core's cm_border_mode, so that they convert with a cast. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/**
 * GstCudaMorphologyBackend:
 * @GST_CUDA_MORPHOLOGY_BACKEND_AUTO: CUDA when a device is usable,
 *     otherwise the CPU reference (with one warning on the bus)
 * @GST_CUDA_MORPHOLOGY_BACKEND_CUDA: CUDA only; fail to start without a
 *     usable device
 * @GST_CUDA_MORPHOLOGY_BACKEND_CPU: the CPU reference implementation
 *
 * Where the element computes its frames.
 */
typedef enum
{
  GST_CUDA_MORPHOLOGY_BACKEND_AUTO = 0,
  GST_CUDA_MORPHOLOGY_BACKEND_CUDA = 1,
  GST_CUDA_MORPHOLOGY_BACKEND_CPU = 2
} GstCudaMorphologyBackend;

/**
 * GstCudaMorphologyOverlap:
 * @GST_CUDA_MORPHOLOGY_OVERLAP_AUTO: overlap when upstream is not live
 * @GST_CUDA_MORPHOLOGY_OVERLAP_ON: always overlap (one frame of latency,
 *     reported in the latency query)
 * @GST_CUDA_MORPHOLOGY_OVERLAP_OFF: every frame leaves the element before
 *     the next one comes in
 *
 * Whether the element keeps one frame on the device while it receives the
 * next, so that the GPU works while the pipeline moves buffers.
 */
typedef enum
{
  GST_CUDA_MORPHOLOGY_OVERLAP_AUTO = 0,
  GST_CUDA_MORPHOLOGY_OVERLAP_ON = 1,
  GST_CUDA_MORPHOLOGY_OVERLAP_OFF = 2
} GstCudaMorphologyOverlap;

/**
 * GstCudaMorphologyBorder:
 * @GST_CUDA_MORPHOLOGY_BORDER_NEUTRAL: pixels outside the image never win
 *     (maximum for erosions, 0 for dilations)
 * @GST_CUDA_MORPHOLOGY_BORDER_REPLICATE: edge pixel repeated (aaa|abc|ccc)
 * @GST_CUDA_MORPHOLOGY_BORDER_REFLECT: reflection including the edge pixel
 *     (cba|abc|cba)
 * @GST_CUDA_MORPHOLOGY_BORDER_MIRROR: reflection without the edge pixel
 *     (dcb|abcd|cba)
 * @GST_CUDA_MORPHOLOGY_BORDER_CONSTANT: a constant value outside the image
 *
 * How samples outside the frame are defined.
 */
typedef enum
{
  GST_CUDA_MORPHOLOGY_BORDER_NEUTRAL = 0,
  GST_CUDA_MORPHOLOGY_BORDER_REPLICATE = 1,
  GST_CUDA_MORPHOLOGY_BORDER_REFLECT = 2,
  GST_CUDA_MORPHOLOGY_BORDER_MIRROR = 3,
  GST_CUDA_MORPHOLOGY_BORDER_CONSTANT = 4
} GstCudaMorphologyBorder;

/**
 * GstCudaPlaneFilterChroma:
 * @GST_CUDA_PLANE_FILTER_CHROMA_COPY: copied from the input
 * @GST_CUDA_PLANE_FILTER_CHROMA_FILTER: each plane through a filter of
 *     its own (make_chroma_filter)
 * @GST_CUDA_PLANE_FILTER_CHROMA_NEUTRAL: the neutral value, no colour
 *     (128; 32768 at 16 bits)
 *
 * What becomes of the chroma planes of YUV frames filtered whole (with
 * regions of interest they are copied). Not a property.
 */
typedef enum
{
  GST_CUDA_PLANE_FILTER_CHROMA_COPY = 0,
  GST_CUDA_PLANE_FILTER_CHROMA_FILTER = 1,
  GST_CUDA_PLANE_FILTER_CHROMA_NEUTRAL = 2
} GstCudaPlaneFilterChroma;

/* Defines GType @prefix##_get_type (void): the GEnum named @TypeName
 * (the C type's own name), registered once from the GEnumValue entries
 * that follow, {value, description, nick}, ... (the terminating
 * {0, NULL, NULL} is added). Every enum file of the plugin registers its
 * types with it. */
#define GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE(prefix, TypeName, ...) \
GType \
prefix##_get_type (void) \
{ \
  static gsize type = 0; \
  static const GEnumValue values[] = { __VA_ARGS__, {0, NULL, NULL} }; \
  \
  if (g_once_init_enter (&type)) { \
    GType t = g_enum_register_static (#TypeName, values); \
    g_once_init_leave (&type, t); \
  } \
  return (GType) type; \
}

#define GST_TYPE_CUDA_MORPHOLOGY_BACKEND \
  (gst_cuda_morphology_backend_get_type ())
GType gst_cuda_morphology_backend_get_type (void);

#define GST_TYPE_CUDA_MORPHOLOGY_OVERLAP \
  (gst_cuda_morphology_overlap_get_type ())
GType gst_cuda_morphology_overlap_get_type (void);

#define GST_TYPE_CUDA_MORPHOLOGY_BORDER \
  (gst_cuda_morphology_border_get_type ())
GType gst_cuda_morphology_border_get_type (void);

G_END_DECLS
