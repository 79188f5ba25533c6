/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the analysers (cudalinspectrum, cudablobs) share: the caps of an
 * output that converts the format, the passthrough flag, the countdown of
 * reported frames, the message's times and a writable buffer for the
 * metas. No state: the element passes its own. */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

/* What transform_caps needs of the element, read once per query */
typedef struct
{
  const gchar *in_caps;         /* the formats analysed */
  const gchar *converted_caps;  /* the output of another format */
  gboolean want;                /* the property asks for that output */
  gboolean have_caps;           /* caps negotiated, and */
  gboolean current;             /* they are that output's */
  gboolean allow;               /* CUDA memory */
} GstCudaPlaneFilterAnalysisCaps;

GstCaps *gst_cuda_plane_filter_analysis_transform_caps (GstBaseTransform *
    trans, GstDebugCategory * category, const GstCudaPlaneFilterAnalysisCaps
    * a, GstPadDirection direction, GstCaps * caps, GstCaps * filter);
GstCaps *gst_cuda_plane_filter_analysis_fixate_caps (GstBaseTransform * trans,
    GstDebugCategory * category, GstCaps * caps, GstCaps * othercaps);
gboolean gst_cuda_plane_filter_analysis_set_output (GstBaseTransform * trans,
    gint * output, gint value);
void gst_cuda_plane_filter_analysis_set_passthrough (GstBaseTransform * trans,
    GstDebugCategory * category, gboolean passthrough);

gboolean gst_cuda_plane_filter_analysis_report (guint * frames_to_post,
    guint interval);
void gst_cuda_plane_filter_analysis_set_times (GstStructure * s,
    const GstSegment * segment, GstBuffer * buf);

GstFlowReturn gst_cuda_plane_filter_analysis_writable_input (GstBaseTransform *
    trans, GstDebugCategory * category, GstBuffer * inbuf,
    GstBuffer ** outbuf);
gboolean gst_cuda_plane_filter_analysis_take_ready (GstBaseTransform * trans,
    GstDebugCategory * category, gboolean * ready, GstBuffer * buf);

G_END_DECLS
