/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudamedian set up from parameter rows, its output checked */
#include <string.h>

#include <gst/check/gstcheck.h>

#include "element-harness.h"
#include "frame-compare.h"
#include "median-harness.h"
#include "padded-frames.h"

void
median_params_apply (GstElement * e, const MedianParams * p)
{
  gst_util_set_object_arg (G_OBJECT (e), "border",
      morph_border_nick (p->border));
  gst_util_set_object_arg (G_OBJECT (e), "color-mode",
      p->luma ? "luma" : "channels");
  g_object_set (e, "width", p->width, "height", p->height, "percentile",
      p->percentile, "border-value", p->border_value, NULL);
}

GstElement *
median_element_new (const char *backend, const MedianParams * p)
{
  return test_element_new_with ("cudamedian", backend,
      (TestParamsApply) median_params_apply, p);
}

void
median_params_desc (const MedianParams * p, cm_depth depth,
    cm_median_desc * desc)
{
  memset (desc, 0, sizeof (*desc));
  desc->window_w = p->width;
  desc->window_h = p->height;
  desc->percentile = p->percentile;
  desc->border = p->border;
  desc->border_value = MIN (p->border_value, cm_depth_max (depth));
}

gchar *
median_params_describe (const MedianParams * p)
{
  return g_strdup_printf ("median %dx%d p=%g border=%s(%u) %s", p->width,
      p->height, p->percentile, morph_border_nick (p->border),
      p->border_value, p->luma ? "luma" : "channels");
}

static cm_status
median_plane_ref (gconstpointer params, const cm_image * src,
    const cm_image * dst)
{
  cm_median_desc desc;

  median_params_desc (params, src->depth, &desc);
  return cm_median_ref (&desc, src, dst);
}

static cm_status
median_pixel_ref (gconstpointer params, const cm_image_packed * src,
    const cm_image_packed * dst, const GstVideoInfo * info)
{
  int a = GST_VIDEO_INFO_HAS_ALPHA (info) ?
      (int) GST_VIDEO_INFO_COMP_POFFSET (info, 3) : -1;
  cm_median_desc desc;

  median_params_desc (params, CM_DEPTH_8, &desc);
  return cm_median_luma_ref (&desc, src, dst,
      GST_VIDEO_INFO_COMP_POFFSET (info, 0),
      GST_VIDEO_INFO_COMP_POFFSET (info, 1),
      GST_VIDEO_INFO_COMP_POFFSET (info, 2), a);
}

gboolean
median_check_output (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const MedianParams * p, const char *what)
{
  return morph_check_output_pixels (inbuf, outbuf, info, median_plane_ref,
      p->luma ? median_pixel_ref : NULL, p, what);
}

void
median_push_and_check (GstHarness * h, const GstVideoInfo * info,
    const MedianParams * p, guint64 seed, int extra_stride, const char *ctx)
{
  frame_push_random_and_check (h, info, seed, extra_stride,
      median_plane_ref, p->luma ? median_pixel_ref : NULL, p,
      median_params_describe (p), ctx);
}
