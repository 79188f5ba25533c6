/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The instance of cudablobs, shared by gstcudablobs.c (properties, its
 * filter) and gstcudablobsresult.c (the output property, a frame's blobs
 * as a message and as metas). */
#pragma once

#include "gstcudablobs.h"

#include "base/gstcudaplanefilteranalysis.h"
#include "blobs/blobs-filter.h"

G_BEGIN_DECLS

/* the input formats, and the output ones (GRAY16_LE: the labels) */
#define GST_CUDA_BLOBS_IN_FORMATS "{ GRAY8, GRAY16_LE, I420, NV12, Y444 }"

typedef struct
{
  guint threshold;
  gboolean invert;
  gint connectivity;
  guint min_area;
  guint max_area;
  gboolean exclude_border;
  guint max_blobs;
  GstCudaBlobsOutput output;
  gboolean post_messages;
  guint interval;
  gboolean attach_meta;
} GstCudaBlobsSettings;

/* One frame's blobs, every region's appended (struct of arrays, as the
 * message and the meta give them). The arrays grow to the most blobs a
 * frame has had, then stay. */
typedef struct
{
  guint total;                  /* blobs that passed the filters */
  guint64 foreground;           /* foreground pixels */
  guint count;                  /* reported: the entries below */
  guint capacity;
  guint32 *x, *y, *width, *height, *min, *max;
  guint64 *area;
  gdouble *cx, *cy, *mean;
} GstCudaBlobsResult;

struct _GstCudaBlobs
{
  GstCudaPlaneFilter parent;

  /* properties, protected by the object lock */
  GstCudaBlobsSettings settings;

  /* streaming thread: the last area limits valid together, kept when
   * min-area and max-area make an invalid pair, and that pair once warned
   * about; the threshold once warned about as too large for the depth */
  gboolean have_valid_areas;
  guint valid_min_area, valid_max_area;
  gboolean have_refused_areas;
  guint refused_min_area, refused_max_area;
  guint clamped_threshold;      /* 0: none warned about */
  gboolean labels_warned;       /* more than 65535 labels, once a stream */

  /* streaming thread: the output (a converted one: GRAY16_LE labels), the
   * messages' countdown, the result's buffer */
  GstCudaPlaneFilterAnalysis analysis;
  /* what the frames get: the output applied, unless the negotiated caps
   * do not match it yet (a converted output is always the labels) */
  GstCudaBlobsOutput mode;
  gboolean in_gray16;           /* the input is GRAY16_LE: labels keep it */
  gboolean labels_caps;         /* negotiated output: labels of another
                                 * format */
  cm_blobs_desc desc;            /* the analysis of the last filter */
  gboolean gathering;           /* the buffer's regions are gathered */
  GstCudaBlobsResult result;
};

/* gstcudablobsresult.c: the output property */
GstCaps *gst_cuda_blobs_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
GstCaps *gst_cuda_blobs_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);
gboolean gst_cuda_blobs_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);
void gst_cuda_blobs_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer);
GstCudaBlobsOutput gst_cuda_blobs_mode (GstCudaBlobs * self);

/* gstcudablobsresult.c: a frame's result */
const GstMetaInfo *gst_cuda_blobs_meta_get_info (void);
void gst_cuda_blobs_result_clear (GstCudaBlobsResult * r);
void gst_cuda_blobs_region_done (GstCudaPlaneFilter * base,
    cm_filter * filter, const GstVideoRectangle * rect);
GstFlowReturn gst_cuda_blobs_frame_done (GstCudaPlaneFilter * base,
    GstBuffer * inbuf, cm_filter * filter, gint width, gint height);
GstFlowReturn gst_cuda_blobs_prepare_output_buffer (GstBaseTransform *
    trans, GstBuffer * inbuf, GstBuffer ** outbuf);
GstFlowReturn gst_cuda_blobs_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf);
GstFlowReturn gst_cuda_blobs_transform_ip (GstBaseTransform * trans,
    GstBuffer * buf);
GstFlowReturn gst_cuda_blobs_frame_left (GstCudaPlaneFilter * base,
    GstBuffer * outbuf);

G_END_DECLS
