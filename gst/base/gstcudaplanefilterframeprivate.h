/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by the frame path's files: gstcudaplanefilterframe.c (whole
 * frames), gstcudaplanefilterframemap.c (mapping, stream order) and
 * gstcudaplanefilterregion.c (regions of interest). */
#pragma once

#include "gstcudaplanefilterframe.h"

G_BEGIN_DECLS

/* "cudaplanefilterframe", initialised by frame_path_configure () */
GST_DEBUG_CATEGORY_EXTERN (gst_cuda_plane_filter_frame_debug);

/* row alignment of the pinned staging and host scratch planes */
#define GST_CUDA_PLANE_FILTER_ROW_ALIGN 64

G_GNUC_INTERNAL
void gst_cuda_plane_filter_frame_copy_rows (guint8 * dst, gsize dst_pitch,
    const guint8 * src, gsize src_pitch, gsize row_bytes, gint rows);
G_GNUC_INTERNAL
cm_status gst_cuda_plane_filter_frame_copy_plane (GstCudaPlaneFilterFramePath *
    fp, GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterMappedFrame * out,
    guint p);
G_GNUC_INTERNAL
cm_image_packed gst_cuda_plane_filter_frame_scratch (GstCudaPlaneFilterFramePath
    * fp, gboolean input, gint width, gint height);
G_GNUC_INTERNAL
gboolean gst_cuda_plane_filter_frame_timing_begin (GstCudaPlaneFilterFramePath *
    fp, GstCudaPlaneFilterFrameStats * st);
G_GNUC_INTERNAL
void gst_cuda_plane_filter_frame_timing_end (GstCudaPlaneFilterFramePath * fp,
    gboolean timed);

/* gstcudaplanefilterchroma.c */
G_GNUC_INTERNAL
cm_status gst_cuda_plane_filter_frame_chroma_configure
    (GstCudaPlaneFilterFramePath * fp);
G_GNUC_INTERNAL
void gst_cuda_plane_filter_frame_chroma_clear (GstCudaPlaneFilterFramePath *
    fp);
G_GNUC_INTERNAL
cm_status gst_cuda_plane_filter_frame_chroma_neutral (GstCudaPlaneFilterFramePath
    * fp, GstCudaPlaneFilterMappedFrame * out, guint p);
G_GNUC_INTERNAL
void gst_cuda_plane_filter_frame_chroma_finish (GstCudaPlaneFilterFramePath *
    fp, GstCudaPlaneFilterMappedFrame * out);

G_GNUC_INTERNAL
cm_status gst_cuda_plane_filter_frame_end (GstCudaPlaneFilterFramePath * fp,
    cm_status status, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, GstCudaPlaneFilterFrameStats * st,
    gboolean * synced);

G_GNUC_INTERNAL
void gst_cuda_plane_filter_frame_views_init (const GstCudaPlaneFilterFramePath
    * fp, GstCudaPlaneFilterViews * v);
G_GNUC_INTERNAL
gboolean gst_cuda_plane_filter_frame_analysis_views_init (const
    GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterViews * v);

G_END_DECLS
