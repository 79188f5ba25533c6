/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The base class's state, shared by its two files: gstcudaplanefilter.c
 * (class, properties, start and stop, caps, queries) and
 * gstcudaplanefilterrun.c (one frame, from transform() to the frame path
 * and back), which calls nothing of the first. */
#pragma once

#include "gstcudaplanefilter.h"
#include "gstcudaplanefilterdevice.h"
#include "gstcudaplanefiltercache.h"
#include "gstcudaplanefilterframe.h"
#include "gstcudaplanefilteroverlap.h"
#include "gstcudaplanefilterposter.h"
#include "gstcudaplanefilterroi.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_plane_filter_debug);

typedef struct
{
  /* properties, protected by the object lock */
  GstCudaMorphologyBackend backend;
  gint device_id;
  GstCudaMorphologyOverlap overlap_mode;
  GstCudaPlaneFilterRoi roi;     /* its properties and a frame's regions */

  /* chosen in start (): the device, its stream and context */
  GstCudaPlaneFilterDevice dev;
  gboolean started;             /* object lock */
  GstCudaPlaneFilterOverlapState overlap;        /* frames left on the device */
  GstCudaPlaneFilterPoster poster;      /* messages posted off the
                                         * streaming thread */
  /* how frames came and left since the start (STATS_QUERY_NAME), object
   * lock */
  GstCudaPlaneFilterFrameStats stats;
  gint dirty;                   /* mark_dirty (), any thread, atomic */

  /* CPU backend: threads over rows, and a flag (atomic) that stops a
   * running frame on a flush or a stop (unlock) */
  gint cpu_cancel;
  cm_cpu_opts cpu_opts;

  /* per caps, streaming thread */
  gboolean configured;
  GstCudaPlaneFilterFramePath frames;    /* the negotiated frames' path */
  cm_filter *filter;            /* the subclass's filter in use */
  gint filter_width, filter_height;     /* its planes' size (0: none) */
  GstCudaPlaneFilterCache filters;        /* those of other sizes */
  cm_filter *chroma_filters[GST_VIDEO_MAX_PLANES];      /* by plane (1, 2):
                                 * the frame's, when the subclass filters
                                 * chroma */
  gboolean same_caps;           /* input and output caps equal (set_caps) */
  gboolean in_place;            /* this frame's regions, collected in
                                 * prepare_output_buffer, are filtered in
                                 * the input buffer */
} GstCudaPlaneFilterPrivate;

/* where the instance's private part lies (set by class_init) */
extern gint gst_cuda_plane_filter_private_offset;
#define GST_CUDA_PLANE_FILTER_PRIV(self) ((GstCudaPlaneFilterPrivate *) \
    G_STRUCT_MEMBER_P ((self), gst_cuda_plane_filter_private_offset))

/* the regions of interest a frame of @klass takes: an analyser without
 * region_done describes one */
#define GST_CUDA_PLANE_FILTER_MAX_REGIONS(klass) \
  ((klass)->frame_done != NULL && (klass)->region_done == NULL ? 1 : \
      G_MAXUINT)

/* gstcudaplanefilterrun.c */
G_GNUC_INTERNAL gboolean gst_cuda_plane_filter_enter
    (GstCudaPlaneFilter * self, gboolean * pushed);
G_GNUC_INTERNAL gboolean gst_cuda_plane_filter_build
    (GstCudaPlaneFilter * self, gint width, gint height);
G_GNUC_INTERNAL gboolean gst_cuda_plane_filter_build_chroma
    (GstCudaPlaneFilter * self);
G_GNUC_INTERNAL void gst_cuda_plane_filter_drop_filters
    (GstCudaPlaneFilter * self);
G_GNUC_INTERNAL GstFlowReturn gst_cuda_plane_filter_run_transform
    (GstBaseTransform * trans, GstBuffer * inbuf, GstBuffer * outbuf);
G_GNUC_INTERNAL GstFlowReturn gst_cuda_plane_filter_run_transform_ip
    (GstBaseTransform * trans, GstBuffer * buf);
G_GNUC_INTERNAL GstFlowReturn gst_cuda_plane_filter_run_prepare_output_buffer
    (GstBaseTransform * trans, GstBuffer * inbuf, GstBuffer ** outbuf);
G_GNUC_INTERNAL GstFlowReturn gst_cuda_plane_filter_run_results_left
    (GstBaseTransform * trans, GstBuffer * inbuf, GstBuffer * outbuf,
    cm_filter * filter, guint slot);

G_END_DECLS
