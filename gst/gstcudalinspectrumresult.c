/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The result of one cudalinspectrum frame as a structure: the schema of
 * the element message (documented in gstcudalinspectrum.c), in one place
 * (gstcudalinspectrumprivate.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudalinspectrumprivate.h"

static void
array_append_double (GValue * array, gdouble d)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, d);
  gst_value_array_append_and_take_value (array, &v);
}

/**
 * gst_cuda_lin_spectrum_result:
 * @desc: the orientations, length and operation of the frame
 * @n_angles: the number of orientations
 * @spectrum: the sums over the frame, one per orientation
 * @npix: the pixels of the frame (the sums are given as means)
 * @segment: the element's input segment
 * @inbuf: the input buffer (its timestamps)
 *
 * Returns: (transfer full): the "cudalinspectrum" structure: timestamp,
 * stream-time, running-time, duration, length, operation, angles,
 * spectrum, dominant-angle, dominant-value
 */
GstStructure *
gst_cuda_lin_spectrum_result (const cm_linspectrum_desc * desc,
    gint n_angles, const guint64 * spectrum, gdouble npix,
    const GstSegment * segment, GstBuffer * inbuf)
{
  GstClockTime ts = GST_BUFFER_PTS (inbuf);
  GstClockTime stream_time = GST_CLOCK_TIME_NONE;
  GstClockTime running_time = GST_CLOCK_TIME_NONE;
  gdouble angle = 0.0, value = 0.0;
  GValue angles = G_VALUE_INIT, values = G_VALUE_INIT;
  GstStructure *s;
  gint i;

  /* as the level element does */
  if (GST_CLOCK_TIME_IS_VALID (ts) && segment->format == GST_FORMAT_TIME) {
    stream_time = gst_segment_to_stream_time (segment, GST_FORMAT_TIME, ts);
    running_time = gst_segment_to_running_time (segment, GST_FORMAT_TIME,
        ts);
  }

  cm_linspectrum_dominant (desc, spectrum, n_angles, &angle, &value);

  g_value_init (&angles, GST_TYPE_ARRAY);
  g_value_init (&values, GST_TYPE_ARRAY);
  for (i = 0; i < n_angles; i++) {
    array_append_double (&angles, cm_linspectrum_angle (desc, i));
    array_append_double (&values, (gdouble) spectrum[i] / npix);
  }

  s = gst_structure_new ("cudalinspectrum",
      "timestamp", G_TYPE_UINT64, ts,
      "stream-time", G_TYPE_UINT64, stream_time,
      "running-time", G_TYPE_UINT64, running_time,
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (inbuf),
      "length", G_TYPE_UINT, (guint) desc->length,
      "operation", G_TYPE_STRING,
      desc->op == CM_MORPH_CLOSE ? "close" : "open", NULL);
  gst_structure_take_value (s, "angles", &angles);
  gst_structure_take_value (s, "spectrum", &values);
  gst_structure_set (s, "dominant-angle", G_TYPE_DOUBLE, angle,
      "dominant-value", G_TYPE_DOUBLE, value / npix, NULL);
  return s;
}
