/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GstCudaPlaneFilter: the base class of the elements. It owns all but the
 * filter: backend, stream, caps, memory, uploads and downloads, channel
 * split, regions of interest, overlap; a subclass makes a cm_filter for a
 * plane size (make_filter) and the base class runs it on every frame. */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "cm-status.h"
#include "cm-image.h"
#include "cm-filter.h"
#include "gstcudaplanefilterenums.h"
#include "gstcudaplanefiltererrors.h"
#include "gstcudaplanefilternegotiation.h"
#include "gstcudaplanefiltersettings.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_PLANE_FILTER (gst_cuda_plane_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaPlaneFilter, gst_cuda_plane_filter,
    GST, CUDA_PLANE_FILTER, GstBaseTransform);

/* Formats of the pad templates; every one is processed at full frame size:
 * the luma plane of the YUV formats, the only plane of GRAY, each colour
 * channel of the RGB formats. */
#define GST_CUDA_PLANE_FILTER_FORMATS \
  "{ GRAY8, GRAY16_LE, I420, NV12, Y444, RGBA, BGRA, RGBx, BGRx }"

/**
 * GstCudaPlaneFilterClass:
 * @parent_class: the parent class
 * @debug_category: (nullable): the subclass's debug category, where the
 *     data path's errors are logged too (set it in class_init)
 * @make_filter: (not nullable): the filter for planes of the size and depth
 *     of @info (the frame's, or a region of interest's) on @backend, with
 *     gst_cuda_plane_filter_cpu_opts() on the CPU. Called from set_caps,
 *     before the next frame after gst_cuda_plane_filter_mark_dirty(), and
 *     for a region size none is kept for; read the properties under the
 *     object lock. The base class owns the filter: it runs it on every
 *     frame (cm_filter_run, cm_filter_run_packed when the filter has that
 *     path and the frame is RGB(A), cm_filter_run_to_packed when the
 *     output format differs) and frees it. On failure post an error
 *     (gst_cuda_plane_filter_post_status_error()) and return %NULL.
 * @frame_done: (nullable): analysers: called once per frame after its
 *     work is complete (the stream synchronised), with the input buffer
 *     and the filter that ran on @width x @height planes, to read its
 *     results. Return %GST_FLOW_OK, or an error after posting one. With
 *     @region_done, @filter is %NULL when the frame went by regions of
 *     interest (none, one or several).
 * @region_done: (nullable): analysers whose results cover every region of
 *     interest: called after each region's work is complete (the stream
 *     synchronised), before frame_done, with the filter that ran on it and
 *     the rectangle in frame coordinates. Without it an analyser gets the
 *     first region only, and no frame_done for a frame without regions.
 *
 * A subclass sets @make_filter; an analyser also @frame_done and keeps the
 * element in passthrough (gst_base_transform_set_passthrough()) while it
 * only looks at frames, which then go to cm_filter_run with a %NULL
 * destination.
 */
struct _GstCudaPlaneFilterClass
{
  GstBaseTransformClass parent_class;

  GstDebugCategory *debug_category;

  cm_filter *(*make_filter) (GstCudaPlaneFilter * self,
      const GstVideoInfo * info, cm_backend backend);
  GstFlowReturn (*frame_done) (GstCudaPlaneFilter * self, GstBuffer * inbuf,
      cm_filter * filter, gint width, gint height);
  void (*region_done) (GstCudaPlaneFilter * self, cm_filter * filter,
      const GstVideoRectangle * rect);

  /*< private >*/
  gpointer _gst_reserved[GST_PADDING];
};

/* For subclasses; settings, caps and errors: the headers included above */
void gst_cuda_plane_filter_mark_dirty (GstCudaPlaneFilter * self);

void gst_cuda_plane_filter_post_status_error (GstCudaPlaneFilter * self,
    cm_status status, const gchar * what);

const GstVideoInfo *gst_cuda_plane_filter_get_output_info
    (GstCudaPlaneFilter * self);

gboolean gst_cuda_plane_filter_allow_cuda_memory (GstCudaPlaneFilter *
    self);

const cm_cpu_opts *gst_cuda_plane_filter_cpu_opts (GstCudaPlaneFilter *
    self);

/* the depth of the planes filtered for @info */
static inline cm_depth
gst_cuda_plane_filter_info_depth (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? CM_DEPTH_16 : CM_DEPTH_8;
}

G_END_DECLS
