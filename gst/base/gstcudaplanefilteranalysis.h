/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the analysers (cudalinspectrum, cudablobs) share: the caps of an
 * output that converts the format, the passthrough flag, the countdown of
 * reported frames, the message's times and a writable buffer for the
 * metas. No state: the element passes its own. */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "gstcudaplanefiltersettings.h"

G_BEGIN_DECLS

/* An analyser's streaming-thread state, in its instance */
typedef struct
{
  /* the output applied to the element (passthrough flag and mode), taken
   * from the property before each buffer, and the last one applied that
   * keeps the input format (kept when downstream refuses the other) */
  gint output_applied;
  gint plain_output;
  guint frames_to_post;         /* frames before the next message */
  /* the analysis and the caps of the last filter built (a change restarts
   * the countdown, a region of another size does not) */
  gboolean filter_made;
  GstVideoInfo info_posted;
  /* the buffer being processed gets the result (attach-meta), and its
   * result is ready to be attached */
  gboolean attach_frame;
  gboolean result_ready;
} GstCudaPlaneFilterAnalysis;

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
gboolean gst_cuda_plane_filter_analysis_set_property (GObject * object,
    gpointer settings, const GstCudaPlaneFilterField * fields, guint n_fields,
    guint output_prop, gint * output, const guint * per_frame,
    guint n_per_frame, guint prop_id, const GValue * value,
    GParamSpec * pspec);
void gst_cuda_plane_filter_analysis_take_output (GstBaseTransform * trans,
    GstCudaPlaneFilterAnalysis * an, const gint * output, gint converted);
gboolean gst_cuda_plane_filter_analysis_keep_output (GstBaseTransform *
    trans, GstCudaPlaneFilterAnalysis * an, gint * output, gint converted,
    gboolean is_converted, GType output_type, GstCaps * outcaps);
void gst_cuda_plane_filter_analysis_set_passthrough (GstBaseTransform * trans,
    GstDebugCategory * category, gboolean passthrough);
void gst_cuda_plane_filter_analysis_init (GstBaseTransform * trans,
    GstCudaPlaneFilterAnalysis * an, gint output, gint passthrough_output);
void gst_cuda_plane_filter_analysis_apply_mode (GstBaseTransform * trans,
    GstDebugCategory * category, gint mode, gint filter_mode,
    gint passthrough_mode);

void gst_cuda_plane_filter_analysis_filter_made (GstCudaPlaneFilterAnalysis *
    an, gboolean same_analysis, const GstVideoInfo * info);
gboolean gst_cuda_plane_filter_analysis_report (GstCudaPlaneFilterAnalysis *
    an, guint interval);
gboolean gst_cuda_plane_filter_analysis_post_frame (GstBaseTransform *
    trans, GstCudaPlaneFilterAnalysis * an, const gboolean * post_messages,
    const guint * interval);
GstFlowReturn gst_cuda_plane_filter_analysis_frame_done (GstBaseTransform *
    trans, GstCudaPlaneFilterAnalysis * an, GstStructure * message);
void gst_cuda_plane_filter_analysis_take_array (GstStructure * s,
    const gchar * name, GType type, gconstpointer v, guint n);
void gst_cuda_plane_filter_analysis_set_times (GstStructure * s,
    const GstSegment * segment, GstBuffer * buf);

GstFlowReturn gst_cuda_plane_filter_analysis_prepare_output_buffer
    (GstBaseTransform * trans, GstDebugCategory * category,
    GstCudaPlaneFilterAnalysis * an, const gboolean * attach_meta,
    GstBuffer * inbuf, GstBuffer ** outbuf);
gboolean gst_cuda_plane_filter_analysis_take_ready (GstBaseTransform * trans,
    GstDebugCategory * category, GstCudaPlaneFilterAnalysis * an,
    GstBuffer * buf);
gboolean gst_cuda_plane_filter_analysis_take_left (GstBaseTransform * trans,
    GstDebugCategory * category, GstCudaPlaneFilterAnalysis * an,
    const gboolean * attach_meta, GstBuffer * buf);

G_END_DECLS
