/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The result of one cudalinspectrum frame (gstcudalinspectrumprivate.h):
 * computed once from the frame's sums, then given as the element message
 * (schema documented in gstcudalinspectrum.c) and as the metas of the
 * output buffer (gstcudalinspectrummeta.h), with the same values. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudalinspectrumprivate.h"
#include "gstcudalinspectrummeta.h"

/**
 * gst_cuda_lin_spectrum_result_init:
 * @r: a cleared result
 * @desc: the orientations, length and operation (checked)
 * @n_angles: the number of orientations of @desc
 *
 * Allocates what every frame of @desc fills (configure time: nothing is
 * allocated per frame but the metas) and computes the angles.
 *
 * Returns: %FALSE when out of memory
 */
gboolean
gst_cuda_lin_spectrum_result_init (GstCudaLinSpectrumResult * r,
    const cm_linspectrum_desc * desc, gint n_angles)
{
  gdouble *angles;
  gint i;

  gst_cuda_lin_spectrum_result_clear (r);
  angles = g_try_new (gdouble, n_angles);
  r->spectrum = g_try_new0 (gdouble, n_angles);
  if (angles == NULL || r->spectrum == NULL) {
    g_free (angles);
    gst_cuda_lin_spectrum_result_clear (r);
    return FALSE;
  }
  for (i = 0; i < n_angles; i++)
    angles[i] = cm_linspectrum_angle (desc, i);
  r->angles_bytes = g_bytes_new_take (angles, n_angles * sizeof (gdouble));
  r->angles = angles;
  r->n_angles = n_angles;
  r->length = (guint) desc->length;
  r->closing = desc->op == CM_MORPH_CLOSE;
  return TRUE;
}

void
gst_cuda_lin_spectrum_result_clear (GstCudaLinSpectrumResult * r)
{
  g_clear_pointer (&r->angles_bytes, g_bytes_unref);
  g_clear_pointer (&r->spectrum, g_free);
  memset (r, 0, sizeof (*r));
}

/**
 * gst_cuda_lin_spectrum_result_set:
 * @r: a result made for @desc
 * @desc: the frame's orientations
 * @sums: the sums over the frame, one per orientation
 * @npix: the pixels of the frame (the sums are given as means)
 *
 * The frame's spectrum and dominant orientation.
 */
void
gst_cuda_lin_spectrum_result_set (GstCudaLinSpectrumResult * r,
    const cm_linspectrum_desc * desc, const guint64 * sums, gdouble npix)
{
  gdouble angle = 0.0, value = 0.0;
  gint i;

  cm_linspectrum_dominant (desc, sums, r->n_angles, &angle, &value);
  for (i = 0; i < r->n_angles; i++)
    r->spectrum[i] = (gdouble) sums[i] / npix;
  r->dominant_angle = angle;
  r->dominant_value = value / npix;
}

/* timestamp, stream-time, running-time, duration of @buf, as the level
 * element gives them */
static void
result_set_times (GstStructure * s, const GstSegment * segment,
    GstBuffer * buf)
{
  GstClockTime ts = GST_BUFFER_PTS (buf);
  GstClockTime stream_time = GST_CLOCK_TIME_NONE;
  GstClockTime running_time = GST_CLOCK_TIME_NONE;

  if (GST_CLOCK_TIME_IS_VALID (ts) && segment->format == GST_FORMAT_TIME) {
    stream_time = gst_segment_to_stream_time (segment, GST_FORMAT_TIME, ts);
    running_time = gst_segment_to_running_time (segment, GST_FORMAT_TIME,
        ts);
  }
  gst_structure_set (s, "timestamp", G_TYPE_UINT64, ts,
      "stream-time", G_TYPE_UINT64, stream_time,
      "running-time", G_TYPE_UINT64, running_time,
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (buf), NULL);
}

static void
result_set_params (GstStructure * s, const GstCudaLinSpectrumResult * r)
{
  gst_structure_set (s, "length", G_TYPE_UINT, r->length,
      "operation", G_TYPE_STRING, r->closing ? "close" : "open", NULL);
}

static void
result_set_dominant (GstStructure * s, const GstCudaLinSpectrumResult * r)
{
  gst_structure_set (s, "dominant-angle", G_TYPE_DOUBLE, r->dominant_angle,
      "dominant-value", G_TYPE_DOUBLE, r->dominant_value, NULL);
}

/* a GstValueArray of @n doubles */
static void
value_array_take_doubles (GstStructure * s, const gchar * name,
    const gdouble * v, gint n)
{
  GValue array = G_VALUE_INIT;
  gint i;

  g_value_init (&array, GST_TYPE_ARRAY);
  for (i = 0; i < n; i++) {
    GValue d = G_VALUE_INIT;

    g_value_init (&d, G_TYPE_DOUBLE);
    g_value_set_double (&d, v[i]);
    gst_value_array_append_and_take_value (&array, &d);
  }
  gst_structure_take_value (s, name, &array);
}

/**
 * gst_cuda_lin_spectrum_result_message:
 * @r: the frame's result
 * @segment: the element's input segment
 * @inbuf: the input buffer (its timestamps)
 *
 * Returns: (transfer full): the "cudalinspectrum" structure: timestamp,
 * stream-time, running-time, duration, length, operation, angles,
 * spectrum, dominant-angle, dominant-value
 */
GstStructure *
gst_cuda_lin_spectrum_result_message (const GstCudaLinSpectrumResult * r,
    const GstSegment * segment, GstBuffer * inbuf)
{
  GstStructure *s = gst_structure_new_empty ("cudalinspectrum");

  result_set_times (s, segment, inbuf);
  result_set_params (s, r);
  value_array_take_doubles (s, "angles", r->angles, r->n_angles);
  value_array_take_doubles (s, "spectrum", r->spectrum, r->n_angles);
  result_set_dominant (s, r);
  return s;
}

#ifdef HAVE_GST_ANALYTICS
static gboolean
result_add_mtd (const GstCudaLinSpectrumResult * r, GstBuffer * buf)
{
  GstAnalyticsRelationMeta *rmeta;
  GstCudaLinSpectrumMtdData *d;
  GstAnalyticsMtd mtd;
  gsize n = (gsize) r->n_angles;

  /* one relation meta per buffer: upstream's, or a new one with room for
   * this entry */
  rmeta = gst_buffer_get_analytics_relation_meta (buf);
  if (rmeta == NULL) {
    GstAnalyticsRelationMetaInitParams params = { 4,
      sizeof (GstCudaLinSpectrumMtdData) + 2 * n * sizeof (gdouble) + 64
    };

    rmeta = gst_buffer_add_analytics_relation_meta_full (buf, &params);
  }
  if (rmeta == NULL ||
      !gst_cuda_lin_spectrum_mtd_add (rmeta, r->n_angles, &mtd, &d))
    return FALSE;
  d->dominant_angle = r->dominant_angle;
  d->dominant_value = r->dominant_value;
  d->length = r->length;
  d->closing = r->closing ? 1 : 0;
  memcpy (d->values, r->angles, n * sizeof (gdouble));
  memcpy (d->values + n, r->spectrum, n * sizeof (gdouble));
  return TRUE;
}
#endif

/**
 * gst_cuda_lin_spectrum_result_attach:
 * @r: the frame's result
 * @segment: the element's input segment
 * @buf: the output buffer, writable
 *
 * Adds the frame's "GstCudaLinSpectrumMeta" to @buf: the message's fields,
 * angles and spectrum as GBytes of doubles (the angles' bytes are shared
 * by every buffer of the configuration), and with GStreamer >= 1.24 the
 * "cudalinspectrum-spectrum" analytics entry.
 *
 * Returns: %FALSE when a meta could not be added
 */
gboolean
gst_cuda_lin_spectrum_result_attach (const GstCudaLinSpectrumResult * r,
    const GstSegment * segment, GstBuffer * buf)
{
  GstStructure *s = gst_cuda_lin_spectrum_meta_add (buf);
  GValue v = G_VALUE_INIT;

  if (s == NULL)
    return FALSE;
  result_set_times (s, segment, buf);
  result_set_params (s, r);
  gst_structure_set (s, "angles", G_TYPE_BYTES, r->angles_bytes, NULL);
  g_value_init (&v, G_TYPE_BYTES);
  g_value_take_boxed (&v, g_bytes_new (r->spectrum,
          (gsize) r->n_angles * sizeof (gdouble)));
  gst_structure_take_value (s, "spectrum", &v);
  result_set_dominant (s, r);

#ifdef HAVE_GST_ANALYTICS
  if (!result_add_mtd (r, buf))
    return FALSE;
#endif
  return TRUE;
}
