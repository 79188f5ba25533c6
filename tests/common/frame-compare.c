/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* frames compared with the CPU reference or with each other */
#include <stdio.h>
#include <string.h>

#include <gst/check/gstcheck.h>

#include "test-util.h"

#include "frame-compare.h"

cm_status
morph_plane_ref (gconstpointer params, const cm_image * src,
    const cm_image * dst)
{
  const MorphParams *p = params;
  cm_se *se = morph_params_se (p);
  cm_morph_desc desc;
  cm_status status;

  memset (&desc, 0, sizeof (desc));
  desc.op = p->op;
  desc.se = se;
  desc.iterations = p->iterations;
  desc.border = p->border;
  desc.border_value = MIN (p->border_value, cm_depth_max (src->depth));
  status = cm_morph_ref (&desc, src, dst);
  cm_se_free (se);
  return status;
}

cm_status
recon_plane_ref (gconstpointer params, const cm_image * src,
    const cm_image * dst)
{
  const ReconParams *p = params;
  cm_se *se = morph_params_se (&p->marker);
  cm_recon_desc desc;
  cm_status status;

  memset (&desc, 0, sizeof (desc));
  desc.op = p->op;
  desc.connectivity = p->connectivity;
  desc.height = MIN (p->dome_height, cm_depth_max (src->depth));
  desc.marker.op = p->op == CM_RECON_CLOSE ? CM_MORPH_DILATE : CM_MORPH_ERODE;
  desc.marker.se = se;
  desc.marker.iterations = p->marker.iterations;
  desc.marker.border = p->marker.border;
  desc.marker.border_value = MIN (p->marker.border_value,
      cm_depth_max (src->depth));
  status = cm_recon_ref (&desc, src, dst);
  cm_se_free (se);
  return status;
}

cm_status
area_plane_ref (gconstpointer params, const cm_image * src,
    const cm_image * dst)
{
  const AreaParams *p = params;
  cm_attr_desc desc;

  memset (&desc, 0, sizeof (desc));
  desc.op = p->op;
  desc.attribute = CM_ATTR_AREA;
  desc.min_area = p->min_area;
  desc.connectivity = p->connectivity;
  return cm_attr_ref (&desc, src, dst);
}

gboolean
frame_bytes_equal (const guint8 * got, gsize got_stride, const guint8 * exp,
    gsize exp_stride, gsize row_bytes, int rows, const char *what)
{
  for (int y = 0; y < rows; y++) {
    for (gsize x = 0; x < row_bytes; x++) {
      if (got[y * got_stride + x] != exp[y * exp_stride + x]) {
        fprintf (stderr, "%s: row %d byte %" G_GSIZE_FORMAT ": got %u, "
            "expected %u\n", what, y, x, got[y * got_stride + x],
            exp[y * exp_stride + x]);
        return FALSE;
      }
    }
  }
  return TRUE;
}

gboolean
frame_planes_equal (GstVideoFrame * got, GstVideoFrame * exp,
    guint first_plane, const char *what)
{
  gboolean ok = TRUE;

  for (guint pl = first_plane; ok && pl < GST_VIDEO_FRAME_N_PLANES (exp);
      pl++) {
    gchar *label = g_strdup_printf ("%s: plane %u", what, pl);
    gsize row_bytes;
    int rows;

    morph_plane_extent (exp, pl, &row_bytes, &rows);
    ok = frame_bytes_equal (GST_VIDEO_FRAME_PLANE_DATA (got, pl),
        GST_VIDEO_FRAME_PLANE_STRIDE (got, pl),
        GST_VIDEO_FRAME_PLANE_DATA (exp, pl),
        GST_VIDEO_FRAME_PLANE_STRIDE (exp, pl), row_bytes, rows, label);
    g_free (label);
  }
  return ok;
}

/* packed RGB, whole pixels: @pixel_ref over plane 0 */
static gboolean
check_pixels (GstVideoFrame * in, GstVideoFrame * out,
    const GstVideoInfo * info, MorphPixelRef pixel_ref, gconstpointer params,
    const char *what)
{
  int w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  int ps = GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  cm_image_packed src = { GST_VIDEO_FRAME_PLANE_DATA (in, 0),
    (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (in, 0), w, h, CM_DEPTH_8, ps
  };
  gsize pitch = (gsize) w * ps;
  guint8 *exp = g_malloc (pitch * h);
  cm_image_packed dst = { exp, pitch, w, h, CM_DEPTH_8, ps };
  gchar *label = g_strdup_printf ("%s: whole pixels", what);
  gboolean ok;

  fail_unless (pixel_ref (params, &src, &dst, info) == CM_OK);
  ok = frame_bytes_equal (GST_VIDEO_FRAME_PLANE_DATA (out, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (out, 0), exp, pitch, pitch, h, label);
  g_free (label);
  g_free (exp);
  return ok;
}

/* TRUE when @got equals @ref applied to @src; @label names the case in a
 * failure message */
static gboolean
image_check_ref (const cm_image * src, const cm_image * got, MorphPlaneRef ref,
    gconstpointer params, const char *label)
{
  cm_image exp = test_image_new (src->width, src->height, src->depth, 0);
  gboolean ok;

  fail_unless (ref (params, src, &exp) == CM_OK);
  ok = test_image_equal (got, &exp, label);
  test_image_free (&exp);
  return ok;
}

/* packed RGB, each byte of a pixel: @ref on the colour bytes, the others
 * (alpha, padding) equal to the input */
static gboolean
check_channels (GstVideoFrame * in, GstVideoFrame * out,
    const GstVideoInfo * info, MorphPlaneRef ref, gconstpointer params,
    const char *what)
{
  int pstride = GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  gboolean ok = TRUE;

  for (int b = 0; b < pstride && ok; b++) {
    gboolean colour = FALSE;
    cm_image src = morph_extract_byte (in, b);
    cm_image got = morph_extract_byte (out, b);
    gchar *label;

    for (int c = 0; c < 3; c++)
      colour |= (int) GST_VIDEO_INFO_COMP_POFFSET (info, c) == b;
    label = g_strdup_printf ("%s: %s byte %d", what, colour ? "colour" :
        "alpha/padding", b);
    ok = colour ? image_check_ref (&src, &got, ref, params, label) :
        test_image_equal (&got, &src, label);
    g_free (label);
    test_image_free (&src);
    test_image_free (&got);
  }
  return ok;
}

gboolean
morph_check_output_pixels (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, MorphPlaneRef ref, MorphPixelRef pixel_ref,
    gconstpointer params, const char *what)
{
  GstVideoFrame in, out;
  cm_depth depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ?
      CM_DEPTH_16 : CM_DEPTH_8;
  int w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gboolean ok = TRUE;
  gchar *label;

  fail_unless (gst_video_frame_map (&in, info, inbuf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out, info, outbuf, GST_MAP_READ),
      "%s: output buffer does not match the caps", what);
  fail_unless (morph_frame_fits (&in, what) && morph_frame_fits (&out, what),
      "%s: frame layout outside the buffer", what);

  if (GST_VIDEO_INFO_IS_RGB (info) && pixel_ref != NULL) {
    ok = check_pixels (&in, &out, info, pixel_ref, params, what);
  } else if (GST_VIDEO_INFO_IS_RGB (info)) {
    ok = check_channels (&in, &out, info, ref, params, what);
  } else {
    cm_image src = { GST_VIDEO_FRAME_PLANE_DATA (&in, 0),
      (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&in, 0), w, h, depth
    };
    cm_image got = { GST_VIDEO_FRAME_PLANE_DATA (&out, 0),
      (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0), w, h, depth
    };

    label = g_strdup_printf ("%s: plane 0", what);
    ok = image_check_ref (&src, &got, ref, params, label);
    g_free (label);
    label = g_strdup_printf ("%s: chroma", what);
    ok = ok && frame_planes_equal (&out, &in, 1, label);
    g_free (label);
  }

  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return ok;
}

gboolean
morph_check_output (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const MorphParams * p, const char *what)
{
  return morph_check_output_pixels (inbuf, outbuf, info, morph_plane_ref,
      NULL, p, what);
}

gboolean
recon_check_output (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const ReconParams * p, const char *what)
{
  return morph_check_output_pixels (inbuf, outbuf, info, recon_plane_ref,
      NULL, p, what);
}

gboolean
morph_frames_equal (GstBuffer * a, GstBuffer * b, const GstVideoInfo * info,
    const char *what)
{
  GstVideoFrame fa, fb;
  gboolean ok;

  fail_unless (gst_video_frame_map (&fa, info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, info, b, GST_MAP_READ));
  ok = frame_planes_equal (&fa, &fb, 0, what);
  gst_video_frame_unmap (&fb);
  gst_video_frame_unmap (&fa);
  return ok;
}

void
frame_push_and_check (GstHarness * h, GstBuffer * in,
    const GstVideoInfo * info, MorphPlaneRef ref, MorphPixelRef pixel_ref,
    gconstpointer params, const char *what)
{
  GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));

  fail_unless (out != NULL, "%s: no output buffer", what);
  fail_unless (morph_check_output_pixels (in, out, info, ref, pixel_ref,
          params, what), "%s: output differs from the reference", what);
  gst_buffer_unref (out);
}

gchar *
frame_case_name (const char *ctx, const GstVideoInfo * info,
    int extra_stride, const char *desc, guint64 seed)
{
  return g_strdup_printf ("%s %s %dx%d%s, %s, seed %" G_GUINT64_FORMAT, ctx,
      GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), extra_stride ? " padded" : "", desc,
      seed);
}

void
frame_push_random_and_check (GstHarness * h, const GstVideoInfo * info,
    guint64 seed, int extra_stride, MorphPlaneRef ref,
    MorphPixelRef pixel_ref, gconstpointer params, gchar * desc,
    const char *ctx)
{
  GstBuffer *in = morph_make_input (info, seed, extra_stride);
  gchar *what = frame_case_name (ctx, info, extra_stride, desc, seed);

  frame_push_and_check (h, in, info, ref, pixel_ref, params, what);
  gst_buffer_unref (in);
  g_free (what);
  g_free (desc);
}

void
morph_push_and_check (GstHarness * h, const GstVideoInfo * info,
    const MorphParams * p, guint64 seed, int extra_stride, const char *ctx)
{
  frame_push_random_and_check (h, info, seed, extra_stride, morph_plane_ref,
      NULL, p, morph_params_describe (p), ctx);
}

/* frame_push_and_check () of @in, the case "@ctx GRAY8 37x23, @desc"
 * (@desc freed here) */
static void
push_described_and_check (GstHarness * h, GstBuffer * in,
    const GstVideoInfo * info, MorphPlaneRef ref, gconstpointer params,
    gchar * desc, const char *ctx)
{
  gchar *what = g_strdup_printf ("%s %s %dx%d, %s", ctx,
      GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), desc);

  frame_push_and_check (h, in, info, ref, NULL, params, what);
  g_free (what);
  g_free (desc);
}

void
recon_push_and_check (GstHarness * h, const GstVideoInfo * info,
    const ReconParams * p, GstBuffer * in, const char *ctx)
{
  push_described_and_check (h, in, info, recon_plane_ref, p,
      recon_params_describe (p), ctx);
}

void
area_push_and_check (GstHarness * h, const GstVideoInfo * info,
    const AreaParams * p, GstBuffer * in, const char *ctx)
{
  push_described_and_check (h, in, info, area_plane_ref, p,
      area_params_describe (p), ctx);
}

void
frame_run_push (FrameRun * r, GstHarness * h, const GstVideoInfo * info,
    GstBuffer * inbuf)
{
  r->inbuf = inbuf;
  r->outbuf = gst_harness_push_and_pull (h, gst_buffer_ref (inbuf));
  fail_unless (r->outbuf != NULL, "no output buffer");
  fail_unless (gst_video_frame_map (&r->in, info, r->inbuf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&r->out, info, r->outbuf,
          GST_MAP_READ));
}

void
frame_run_clear (FrameRun * r)
{
  gst_video_frame_unmap (&r->out);
  gst_video_frame_unmap (&r->in);
  gst_buffer_unref (r->outbuf);
  gst_buffer_unref (r->inbuf);
}
