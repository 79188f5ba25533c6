/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Overlap (property overlap): a frame's work stays on the device while the
 * next buffer comes in. The ring holds the frames not pushed yet, in
 * output order, each with its event (made once) and its input buffer
 * until the device has read it; this piece decides which frames overlap,
 * what leaves after each input, and when held frames are pushed or
 * dropped. */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "gstcudaplanefilterdevice.h"
#include "gstcudaplanefilterenums.h"
#include "gstcudaplanefilterframe.h"
#include "cm-filter.h"

G_BEGIN_DECLS

/* frames in flight: the one being received and the one the device still
 * works on (+ one slot so that the ring is never full) */
#define GST_CUDA_PLANE_FILTER_RING_SIZE 3

typedef struct
{
  GstBuffer *outbuf;
  GstBuffer *inbuf;             /* kept until the device has read it */
  cm_event event;               /* recorded after its work; NULL: done */
  cm_status status;             /* the device's, once done */
  /* an analyser's frame: its results not read yet (NULL: read, or none)
   * in result slot @slot of @filter */
  cm_filter *filter;
  guint slot;
  GstFlowReturn results_flow;   /* of reading them */
} GstCudaPlaneFilterPending;

/* Reads the results of an analyser's frame left on the device once its
 * work is done, in slot @slot of @filter: @inbuf (transfer full) its
 * input, @outbuf the buffer that leaves with them. */
typedef GstFlowReturn (*GstCudaPlaneFilterResultsFunc) (GstBaseTransform *
    trans, GstBuffer * inbuf, GstBuffer * outbuf, cm_filter * filter,
    guint slot);

typedef struct
{
  GstCudaPlaneFilterDevice *dev; /* entered to wait for the events */
  gboolean active;              /* overlap chosen for the caps */
  cm_event events[2];
  guint next_event;
  GstCudaPlaneFilterPending pending[GST_CUDA_PLANE_FILTER_RING_SIZE];
  guint head, len;
  /* the frame of the buffer being transformed, left in flight */
  gboolean deferred;
  GstBuffer *deferred_in;
  cm_event deferred_event;
  cm_filter *deferred_filter;   /* its results wait (analysers) */
  guint deferred_slot;
} GstCudaPlaneFilterRing;

/* The overlap of one element; streaming thread unless said otherwise. */
typedef struct
{
  GstBaseTransform *trans;      /* the element (not a reference): its pads,
                                 * bus and object lock */
  GstCudaPlaneFilterRing ring;   /* frames in output order */
  GstClockTime latency;         /* one frame while overlapping, else 0;
                                 * object lock (the latency query) */
  GstCudaPlaneFilterResultsFunc results;        /* reads a waiting
                                 * analyser's frame's results */
} GstCudaPlaneFilterOverlapState;

/* GstBaseTransform's own generate_output */
typedef GstFlowReturn (*GstCudaPlaneFilterGenerateFunc) (GstBaseTransform *
    trans, GstBuffer ** outbuf);

#define GST_CUDA_PLANE_FILTER_OVERLAP_DEFAULT GST_CUDA_MORPHOLOGY_OVERLAP_OFF

void gst_cuda_plane_filter_overlap_install_property (GObjectClass * klass,
    guint prop_overlap);

void gst_cuda_plane_filter_overlap_init (GstCudaPlaneFilterOverlapState * ov,
    GstBaseTransform * trans, GstCudaPlaneFilterDevice * dev,
    GstCudaPlaneFilterResultsFunc results);
void gst_cuda_plane_filter_overlap_start (GstCudaPlaneFilterOverlapState * ov);
void gst_cuda_plane_filter_overlap_stop (GstCudaPlaneFilterOverlapState * ov);
void gst_cuda_plane_filter_overlap_configure (GstCudaPlaneFilterOverlapState *
    ov, GstCudaMorphologyOverlap mode, gboolean host_results,
    gboolean results_wait, GstCaps * incaps, GstCaps * outcaps,
    const GstVideoInfo * info);
gboolean gst_cuda_plane_filter_overlap_is_active (GstCudaPlaneFilterOverlapState
    * ov);
typedef gboolean (*GstCudaPlaneFilterQueryFunc) (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);
gboolean gst_cuda_plane_filter_overlap_query (GstCudaPlaneFilterOverlapState *
    ov, GstPadDirection direction, GstQuery * query,
    GstCudaPlaneFilterQueryFunc parent_query, gboolean * res);
void gst_cuda_plane_filter_overlap_add_latency (GstCudaPlaneFilterOverlapState *
    ov, GstQuery * query);

cm_event gst_cuda_plane_filter_overlap_defer_event
    (GstCudaPlaneFilterOverlapState * ov,
    const GstCudaPlaneFilterMappedFrame * in,
    const GstCudaPlaneFilterMappedFrame * out, cm_filter * filter,
    gboolean results, gboolean may_stay);
void gst_cuda_plane_filter_overlap_settle (GstCudaPlaneFilterOverlapState *
    ov);
void gst_cuda_plane_filter_overlap_deferred (GstCudaPlaneFilterOverlapState * ov,
    GstBuffer * inbuf);
GstFlowReturn gst_cuda_plane_filter_overlap_generate_output
    (GstCudaPlaneFilterOverlapState * ov,
    GstCudaPlaneFilterGenerateFunc generate, GstBuffer ** outbuf);

GstFlowReturn gst_cuda_plane_filter_overlap_drain (GstCudaPlaneFilterOverlapState
    * ov);
void gst_cuda_plane_filter_overlap_drop (GstCudaPlaneFilterOverlapState * ov);
void gst_cuda_plane_filter_overlap_sink_event (GstCudaPlaneFilterOverlapState *
    ov, GstEvent * event);

G_END_DECLS
