/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Caps and allocation negotiation of the cudamorphology elements, in the
 * memories the build and the element can use: system memory always,
 * pinned host pools on the CUDA backend, CUDA memory of the element's
 * GstCudaContext with gstreamer-cuda-1.0. Every difference between builds
 * with and without gstreamer-cuda lives here: without it the CUDA-memory
 * parts are stubs that offer nothing. Nothing here keeps state; the
 * element says what it can use (allow, use_cuda, context) on each call. */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

GstCaps *gst_cuda_morphology_negotiation_template_caps (const gchar *
    formats);

gboolean gst_cuda_morphology_negotiation_caps_is_cuda (const GstCaps * caps);

GstCaps *gst_cuda_morphology_negotiation_usable (GstCaps * caps,
    gboolean to_system, gboolean allow);
GstCaps *gst_cuda_morphology_negotiation_add_memory (GstCaps * caps,
    GstCaps * like, gboolean allow);
GstCaps *gst_cuda_morphology_negotiation_transform (GstCaps * caps,
    gboolean allow);
GstCaps *gst_cuda_morphology_negotiation_in_memory_of (GstCaps * othercaps,
    GstCaps * caps);
GstCaps *gst_cuda_morphology_negotiation_cuda_first (GstCaps * caps);

gboolean gst_cuda_morphology_negotiation_propose (GstObject * element,
    GstQuery * query, gboolean use_cuda, gpointer context, gpointer stream,
    guint held);
gboolean gst_cuda_morphology_negotiation_decide (GstObject * element,
    GstQuery * query, gboolean use_cuda, gpointer context, gpointer stream);

G_END_DECLS
