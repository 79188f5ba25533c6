/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Regions of interest of the cudamorphology elements: the `roi` and
 * `roi-meta` properties and, per frame, the rectangles they select (the
 * property's, the buffer's GstVideoRegionOfInterestMeta's), clipped to the
 * frame. The frame path filters each rectangle as if it were the frame
 * and copies the rest (gstcudaplanefilterframe.h). */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

typedef struct
{
  /* properties, under the element's object lock */
  GstVideoRectangle roi;        /* width or height 0: the whole frame */
  gboolean use_meta;

  /* the current frame's rectangles, streaming thread (reused, so that a
   * frame allocates nothing once the largest count was seen) */
  GArray *rects;
  gboolean convert_warned;      /* roi_refused () said so once */
} GstCudaPlaneFilterRoi;

void gst_cuda_plane_filter_roi_init (GstCudaPlaneFilterRoi * roi);
void gst_cuda_plane_filter_roi_clear (GstCudaPlaneFilterRoi * roi);

void gst_cuda_plane_filter_roi_install_properties (GObjectClass * klass,
    guint prop_roi, guint prop_roi_meta);
/* @roi_prop: TRUE for `roi`, FALSE for `roi-meta`; under @object's lock.
 * An invalid `roi` is refused with a warning naming what was wrong; the
 * previous one stays. */
void gst_cuda_plane_filter_roi_set_property (GObject * object,
    GstCudaPlaneFilterRoi * roi, gboolean roi_prop, const GValue * value);
void gst_cuda_plane_filter_roi_get_property (GObject * object,
    GstCudaPlaneFilterRoi * roi, gboolean roi_prop, GValue * value);

/* The rectangles of @buf, a frame of @width x @height, in roi->rects (in
 * order: the buffer's metas, then the property's): %FALSE when the whole
 * frame is filtered (no region selected); %TRUE when only the rectangles
 * are, which may be none (the frame then passes unchanged). @max_rects
 * keeps the first ones only (an element whose results describe one
 * region). Call with the object lock NOT held. */
gboolean gst_cuda_plane_filter_roi_collect (GstCudaPlaneFilterRoi * roi,
    GObject * object, GstBuffer * buf, gint width, gint height,
    guint max_rects);

/* TRUE when no two of the rectangles roi_collect () found overlap */
gboolean gst_cuda_plane_filter_roi_disjoint (const GstCudaPlaneFilterRoi * roi);

/* TRUE when an element of a @convert (format-changing) output was given
 * regions: they cannot apply (the rest of the frame has no unchanged
 * copy), the whole frame is processed; warns once per element. */
gboolean gst_cuda_plane_filter_roi_refused (GstCudaPlaneFilterRoi * roi,
    GstElement * element, gboolean convert);

G_END_DECLS
