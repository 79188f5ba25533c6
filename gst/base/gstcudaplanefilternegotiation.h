/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Caps and allocation: system memory always, pinned host pools on the
 * CUDA backend, CUDA memory of the element's GstCudaContext with
 * gstreamer-cuda (docs/design.md, "Memory model"). No state: the base
 * class says what the element can use (allow, backend, context) on each
 * call. */
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
