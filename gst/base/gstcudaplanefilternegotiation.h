/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Caps and allocation negotiation of the cudamorphology elements, in the
 * memories the build and the element can use: system memory always,
 * pinned host pools on the CUDA backend, CUDA memory of the element's
 * GstCudaContext with gstreamer-cuda-1.0. Every difference between builds
 * with and without gstreamer-cuda lives here: without it the CUDA-memory
 * parts are stubs that offer nothing. Nothing here keeps state; the
 * element says what it can use (allow, backend, context) on each call.
 *
 * Built with gstreamer-cuda-1.0, the formats but GRAY are also
 * accepted and produced in CUDA memory (video/x-raw(memory:CUDAMemory)),
 * each pad negotiating either memory and preferring the one the frames
 * came in. The element then shares the pipeline's #GstCudaContext
 * (context queries and messages, as nvcodec's elements do), runs all its
 * device work with that context pushed, reads and writes CUDA frames of
 * that context in place, proposes a CUDA buffer pool upstream and takes
 * its output buffers from a CUDA pool. In system memory on the CUDA
 * backend it proposes a pool of pinned host memory upstream and takes its
 * output buffers from one: a pinned input frame is uploaded straight from
 * the buffer, a pinned output frame is written straight by the download;
 * other frames go through pinned staging. The element's stream is
 * synchronised once per frame, before the output buffer leaves the
 * element (and before frame_done): GStreamer 1.22's CUDA memory carries
 * no stream to wait on. From GStreamer 1.24 the stream is a GstCudaStream
 * that the element's CUDA pools give to their frames; an input whose
 * producer left work in flight on its own stream is waited for on the
 * device first, and a frame read and written in CUDA memory that carries
 * streams leaves with its work still queued, ordered by those streams
 * (the frame path's leave_in_flight).
 * A CUDA frame of another context is mapped for the host instead
 * (correct, slower).
 */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "cm-backend.h"

G_BEGIN_DECLS

GstCaps *gst_cuda_plane_filter_negotiation_template_caps (const gchar *
    formats);

gboolean gst_cuda_plane_filter_negotiation_caps_is_cuda (const GstCaps * caps);

void gst_cuda_plane_filter_negotiation_explain_refusal (GstBaseTransform *
    trans, GstPadDirection direction, GstCaps * caps);

GstCaps *gst_cuda_plane_filter_negotiation_usable (GstCaps * caps,
    gboolean to_system, gboolean allow);
GstCaps *gst_cuda_plane_filter_negotiation_add_memory (GstCaps * caps,
    GstCaps * like, gboolean allow);
GstCaps *gst_cuda_plane_filter_negotiation_transform (GstCaps * caps,
    gboolean allow);
GstCaps *gst_cuda_plane_filter_negotiation_in_memory_of (GstCaps * othercaps,
    GstCaps * caps);
GstCaps *gst_cuda_plane_filter_negotiation_cuda_first (GstCaps * caps);

gboolean gst_cuda_plane_filter_negotiation_propose (GstObject * element,
    GstQuery * query, cm_backend backend, gpointer context, gpointer stream,
    guint held);
gboolean gst_cuda_plane_filter_negotiation_decide (GstObject * element,
    GstQuery * query, cm_backend backend, gpointer context, gpointer stream);

/* The base class's caps and allocation callbacks (GstBaseTransformClass
 * methods of GstCudaPlaneFilter, set in its class_init). What they read
 * of the element comes from gst_cuda_plane_filter_negotiation_state. */
typedef struct
{
  gboolean allow_cuda;          /* CUDA memory may be negotiated now */
  cm_backend backend;           /* the backend the element runs on */
  gpointer context;             /* its GstCudaContext, or NULL */
  gpointer stream;              /* its GstCudaStream (>= 1.24), or NULL */
  guint held;                   /* input buffers the overlap ring keeps */
  gboolean convert;             /* output format != input format */
} GstCudaPlaneFilterNegotiationState;


GstCaps *gst_cuda_plane_filter_negotiation_transform_caps (GstBaseTransform *
    trans, gboolean allow, GstPadDirection direction, GstCaps * caps,
    GstCaps * filter);
GstCaps *gst_cuda_plane_filter_negotiation_filter_caps (GstBaseTransform *
    trans, GstDebugCategory * category, GstPadDirection direction,
    GstCaps * caps, GstCaps * res, GstCaps * filter);
GstCaps *gst_cuda_plane_filter_negotiation_fixate_caps (GstBaseTransform *
    trans, GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);
gboolean gst_cuda_plane_filter_negotiation_query_caps (GstBaseTransform * trans,
    gboolean allow, GstPadDirection direction, GstQuery * query);
gboolean gst_cuda_plane_filter_negotiation_check_caps (GstBaseTransform * trans,
    const GstCudaPlaneFilterNegotiationState * st, GstCaps * incaps,
    GstCaps * outcaps, GstVideoInfo * in_info, GstVideoInfo * out_info);
gboolean gst_cuda_plane_filter_negotiation_get_unit_size (GstBaseTransform *
    trans, GstCaps * caps, gsize * size);
gboolean gst_cuda_plane_filter_negotiation_propose_allocation (GstBaseTransform
    * trans, const GstCudaPlaneFilterNegotiationState * st,
    GstQuery * decide_query, GstQuery * query);
gboolean gst_cuda_plane_filter_negotiation_decide_allocation (GstBaseTransform
    * trans, const GstCudaPlaneFilterNegotiationState * st, GstQuery * query);

/* for subclasses' own caps callbacks (and the base's) */
GstCaps *gst_cuda_plane_filter_template_caps (const gchar * formats);
GstCaps *gst_cuda_plane_filter_caps_to_system (GstCaps * caps,
    gboolean allow);
GstCaps *gst_cuda_plane_filter_caps_add_memory (GstCaps * caps,
    GstCaps * like, gboolean allow);
GstCaps *gst_cuda_plane_filter_fixate_memory (GstCaps * othercaps,
    GstCaps * caps);
gboolean gst_cuda_plane_filter_meta_is_kept (GstMeta * meta,
    gboolean convert);

G_END_DECLS
