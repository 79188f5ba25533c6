/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by the frame path's files: gstcudamorphologyframe.c (whole
 * frames), gstcudamorphologyframemap.c (mapping, stream order) and
 * gstcudamorphologyregion.c (regions of interest). */
#pragma once

#include "gstcudamorphologyframe.h"

G_BEGIN_DECLS

/* "cudamorphologyframe", initialised by frame_path_configure () */
GST_DEBUG_CATEGORY_EXTERN (gst_cuda_morphology_frame_debug);

/* row alignment of the pinned staging and host scratch planes */
#define GST_CUDA_MORPHOLOGY_ROW_ALIGN 64

G_GNUC_INTERNAL
void gst_cuda_morphology_frame_copy_rows (guint8 * dst, gsize dst_pitch,
    const guint8 * src, gsize src_pitch, gsize row_bytes, gint rows);
G_GNUC_INTERNAL
cm_status gst_cuda_morphology_frame_copy_plane (GstCudaMorphologyFramePath *
    fp, GstCudaMorphologyMappedFrame * in, GstCudaMorphologyMappedFrame * out,
    guint p);
G_GNUC_INTERNAL
cm_image gst_cuda_morphology_frame_as_plane (const cm_image_packed * v);
G_GNUC_INTERNAL
cm_image_packed gst_cuda_morphology_frame_scratch (GstCudaMorphologyFramePath
    * fp, gboolean input, gint width, gint height);
G_GNUC_INTERNAL
cm_status gst_cuda_morphology_frame_filter (GstCudaMorphologyFramePath * fp,
    const GstCudaMorphologyFilterOps * ops, const cm_image_packed * src,
    const cm_image_packed * dst, gboolean device);
G_GNUC_INTERNAL
gboolean gst_cuda_morphology_frame_timing_begin (GstCudaMorphologyFramePath *
    fp, GstCudaMorphologyFrameStats * st);
G_GNUC_INTERNAL
void gst_cuda_morphology_frame_timing_end (GstCudaMorphologyFramePath * fp,
    gboolean timed);

#ifdef HAVE_GST_CUDA
G_GNUC_INTERNAL
gboolean gst_cuda_morphology_frame_leave_in_flight (GstCudaMorphologyFramePath
    * fp, const GstCudaMorphologyFilterOps * ops,
    GstCudaMorphologyMappedFrame * in, GstCudaMorphologyMappedFrame * out);
#endif

G_END_DECLS
