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
#include "gstcudaplanefilterposter.h"

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
 * @chroma: (nullable): YUV formats: what becomes of the chroma planes
 *     (%NULL: copied). Asked whenever the filters are made (set_caps,
 *     after gst_cuda_plane_filter_mark_dirty()).
 * @make_chroma_filter: (nullable): for %GST_CUDA_PLANE_FILTER_CHROMA_FILTER:
 *     the filter of chroma plane @plane (1 or 2) of the frame, each plane
 *     its own (a filter that keeps state, such as a history, sees one
 *     plane only). @info is the frame's; the plane's size is that of its
 *     first component (GST_VIDEO_INFO_COMP_WIDTH, _HEIGHT), its pixels
 *     have GST_VIDEO_INFO_COMP_PSTRIDE bytes (NV12's two interleaved
 *     samples are run through cm_filter_run_packed). Contract otherwise
 *     as @make_filter's.
 * @frame_done: (nullable): analysers: called once per frame after its
 *     work is complete (the stream synchronised, or with overlap its
 *     event waited for), with the input buffer and the filter that ran on
 *     @width x @height planes, to read its results. Return %GST_FLOW_OK,
 *     or an error after posting one. With @region_done, @filter is %NULL
 *     when the frame went by regions of interest (none, one or several).
 * @region_done: (nullable): analysers whose results cover every region of
 *     interest: called after each region's work is complete (the stream
 *     synchronised), before frame_done, with the filter that ran on it and
 *     the rectangle in frame coordinates. Without it an analyser gets the
 *     first region only, and no frame_done for a frame without regions.
 * @frame_left: (nullable): analysers whose frames may stay on the device
 *     while the next comes in (overlap): after frame_done of such a frame,
 *     with the buffer that leaves with its results (writable unless held
 *     elsewhere), to put them on it. Frames analysed whole and queued
 *     from device or pinned memory overlap, with a filter made with two
 *     result slots (cm_filter_result_slots(): see
 *     gst_cuda_plane_filter_frames_in_flight()); the others, and every
 *     frame without it, get frame_done before they leave the transform.
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
  GstFlowReturn (*frame_left) (GstCudaPlaneFilter * self, GstBuffer * outbuf);
  GstCudaPlaneFilterChroma (*chroma) (GstCudaPlaneFilter * self);
  cm_filter *(*make_chroma_filter) (GstCudaPlaneFilter * self,
      const GstVideoInfo * info, guint plane, cm_backend backend);

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

gboolean gst_cuda_plane_filter_frames_in_flight (GstCudaPlaneFilter * self);

/**
 * GstCudaPlaneFilterFilterFunc:
 * @filter: a filter the subclass made
 * @plane: the plane it filters (0, or a chroma plane)
 * @in_use: it ran on the last frame (or runs on the next): the plane 0
 *     filter of the size in use and the chroma filters; %FALSE for those
 *     kept for other region sizes
 *
 * See gst_cuda_plane_filter_foreach_filter().
 */
typedef void (*GstCudaPlaneFilterFilterFunc) (cm_filter * filter,
    guint plane, gboolean in_use, gpointer user_data);

/* Every filter the base class holds for the subclass, for filters with a
 * state of their own (a history to reset, a rank changed in place).
 * Streaming thread only (before_transform, transform), as the filters
 * are built and freed there. */
void gst_cuda_plane_filter_foreach_filter (GstCudaPlaneFilter * self,
    GstCudaPlaneFilterFilterFunc func, gpointer user_data);

void gst_cuda_plane_filter_post_later (GstCudaPlaneFilter * self,
    GstStructure * s, GstCudaPlaneFilterFinishFunc finish, gpointer data,
    GDestroyNotify free_data);

/* the depth of the planes filtered for @info */
static inline cm_depth
gst_cuda_plane_filter_info_depth (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? CM_DEPTH_16 : CM_DEPTH_8;
}

G_END_DECLS
