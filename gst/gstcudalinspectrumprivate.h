/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The instance of cudalinspectrum, shared by gstcudalinspectrum.c
 * (properties, its filter) and gstcudalinspectrumoutput.c (the output
 * property, a frame's result as a message and as metas). */
#pragma once

#include "gstcudalinspectrum.h"

#include "base/gstcudaplanefilteranalysis.h"
#include "device.h"
#include "linspectrum/linspectrum-filter.h"

G_BEGIN_DECLS

/* the input formats, and the output ones (RGBA: the orientation map) */
#define GST_CUDA_LIN_SPECTRUM_IN_FORMATS \
  "{ GRAY8, GRAY16_LE, I420, NV12, Y444 }"
#define GST_CUDA_LIN_SPECTRUM_OUT_FORMATS \
  "{ GRAY8, GRAY16_LE, I420, NV12, Y444, RGBA }"

typedef struct
{
  guint length;
  gdouble angle_min;
  gdouble angle_max;
  gdouble angle_step;
  GstCudaLinSpectrumOperation operation;
  GstCudaLinSpectrumOutput output;
  gboolean post_messages;
  guint interval;
  gboolean attach_meta;
} GstCudaLinSpectrumSettings;

/* The result of one frame (gstcudalinspectrumoutput.c): the orientations
 * and their bytes fixed per configuration, the values per frame. */
typedef struct
{
  gint n_angles;
  guint length;
  gboolean closing;
  const gdouble *angles;        /* n_angles, degrees; owned by angles_bytes */
  GBytes *angles_bytes;         /* shared by every buffer's meta */
  gdouble *spectrum;            /* n_angles: sums / pixels */
  gdouble dominant_angle, dominant_value;
} GstCudaLinSpectrumResult;

struct _GstCudaLinSpectrum
{
  GstCudaPlaneFilter parent;

  /* properties, protected by the object lock */
  GstCudaLinSpectrumSettings settings;

  /* streaming thread: the last orientations that were valid together,
   * kept when the angle properties make an invalid combination, and that
   * combination once warned about */
  gboolean have_valid_angles;
  gdouble valid_min, valid_max, valid_step;
  gdouble refused_min, refused_max, refused_step;

  /* streaming thread: the output (a converted one: the RGBA orientation
   * map), the messages' countdown, the result's buffer */
  GstCudaPlaneFilterAnalysis analysis;
  /* what the frames get: the output applied, unless the negotiated caps
   * do not match it yet (an RGBA output is always the orientation map) */
  GstCudaLinSpectrumOutput mode;
  gboolean rgba_caps;           /* negotiated output is RGBA */

  /* made with the last filter, streaming thread: the same for every size */
  cm_linspectrum_desc desc;
  gint n_angles;
  GstCudaLinSpectrumResult result;
};

/* gstcudalinspectrumoutput.c */
GstCaps *gst_cuda_lin_spectrum_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
GstCaps *gst_cuda_lin_spectrum_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);
gboolean gst_cuda_lin_spectrum_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);
void gst_cuda_lin_spectrum_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer);
GstCudaLinSpectrumOutput gst_cuda_lin_spectrum_mode (GstCudaLinSpectrum *
    self);

gboolean gst_cuda_lin_spectrum_result_init (GstCudaLinSpectrumResult * r,
    const cm_linspectrum_desc * desc, gint n_angles);
void gst_cuda_lin_spectrum_result_clear (GstCudaLinSpectrumResult * r);
void gst_cuda_lin_spectrum_result_set (GstCudaLinSpectrumResult * r,
    const cm_linspectrum_desc * desc, const guint64 * sums, gdouble npix);
GstStructure *gst_cuda_lin_spectrum_result_message (const
    GstCudaLinSpectrumResult * r, const GstSegment * segment,
    GstBuffer * inbuf);
gboolean gst_cuda_lin_spectrum_result_attach (const GstCudaLinSpectrumResult *
    r, const GstSegment * segment, GstBuffer * buf);
GstFlowReturn gst_cuda_lin_spectrum_frame_done (GstCudaPlaneFilter *
    base, GstBuffer * inbuf, cm_filter * filter, gint width, gint height);
GstFlowReturn gst_cuda_lin_spectrum_prepare_output_buffer (GstBaseTransform *
    trans, GstBuffer * inbuf, GstBuffer ** outbuf);
GstFlowReturn gst_cuda_lin_spectrum_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf);
GstFlowReturn gst_cuda_lin_spectrum_transform_ip (GstBaseTransform * trans,
    GstBuffer * buf);

G_END_DECLS
