/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudatemporal's output against the reference (temporal-harness.h) */
#include <string.h>

#include <gst/check/gstcheck.h>

#include "frame-compare.h"
#include "temporal-harness.h"

/* Plane @p of the frames, as the filter of that plane sees them */
static cm_image_packed
plane_view (GstVideoFrame * f, guint p, gboolean rgb)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  cm_depth depth = GST_VIDEO_FRAME_COMP_DEPTH (f, 0) > 8 ? CM_DEPTH_16 :
      CM_DEPTH_8;
  cm_image_packed v;

  gst_video_format_info_component (f->info.finfo, p, comp);
  v.data = GST_VIDEO_FRAME_PLANE_DATA (f, p);
  v.pitch = (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (f, p);
  v.width = GST_VIDEO_FRAME_COMP_WIDTH (f, comp[0]);
  v.height = GST_VIDEO_FRAME_COMP_HEIGHT (f, comp[0]);
  v.depth = depth;
  v.channels = rgb ? 4 : GST_VIDEO_FRAME_COMP_PSTRIDE (f, comp[0]) /
      cm_depth_bytes (depth);
  return v;
}

gboolean
temporal_output_ok (const GstVideoInfo * info, const cm_temporal_desc * desc,
    GPtrArray * win, GstBuffer * outbuf, const char *what)
{
  guint n = win->len;
  GstVideoFrame *in = g_new0 (GstVideoFrame, n);
  cm_image_packed *views = g_new0 (cm_image_packed, n);
  gboolean rgb = GST_VIDEO_INFO_IS_RGB (info), ok = TRUE;
  GstVideoFrame out;
  guint i, p;

  fail_unless (gst_video_frame_map (&out, info, outbuf, GST_MAP_READ));
  for (i = 0; i < n; i++)
    fail_unless (gst_video_frame_map (&in[i], info,
            g_ptr_array_index (win, i), GST_MAP_READ));

  for (p = 0; ok && p < GST_VIDEO_FRAME_N_PLANES (&out); p++) {
    cm_temporal_desc d;
    cm_image_packed got = plane_view (&out, p, rgb), exp = got;
    gsize row = (gsize) got.width * got.channels * cm_depth_bytes (got.depth);
    gchar *name = g_strdup_printf ("%s, plane %u", what, p);

    exp.pitch = row;
    exp.data = g_malloc (row * exp.height);
    for (i = 0; i < n; i++)
      views[i] = plane_view (&in[i], p, rgb);
    memset (&d, 0, sizeof (d));
    d.frames = desc->frames;
    d.percentile = desc->percentile;
    d.output = desc->output;
    d.channels = got.channels;
    d.alpha = -1;
    if (rgb)
      d.alpha = 6 - (gint) (GST_VIDEO_INFO_COMP_POFFSET (info, 0) +
          GST_VIDEO_INFO_COMP_POFFSET (info, 1) +
          GST_VIDEO_INFO_COMP_POFFSET (info, 2));
    if (p > 0 && d.output == CM_TEMPORAL_DIFFERENCE) {
      for (gint y = 0; y < exp.height; y++)
        memset ((guint8 *) exp.data + y * row, 128, row);
    } else {
      if (p > 0)
        d.output = CM_TEMPORAL_BACKGROUND;
      fail_unless (cm_temporal_ref (&d, views, (int) n, &exp) == CM_OK);
    }
    ok = frame_bytes_equal (got.data, got.pitch, exp.data, exp.pitch, row,
        exp.height, name);
    g_free (exp.data);
    g_free (name);
  }

  for (i = 0; i < n; i++)
    gst_video_frame_unmap (&in[i]);
  gst_video_frame_unmap (&out);
  g_free (views);
  g_free (in);
  return ok;
}
