/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* one setting of any element, a frame pushed and checked */
#include <stdio.h>
#include <string.h>

#include <gst/check/gstcheck.h>

#include "test-util.h"

#include "reliability-harness.h"

const gchar *
test_backend (void)
{
  const gchar *b = g_getenv ("CM_TEST_BACKEND");

  return b && *b ? b : "cpu";
}

const gchar *
kind_name (ElemKind k)
{
  return k == EL_MORPH ? "cudamorph" : k == EL_MEDIAN ? "cudamedian" :
      "cudalinspectrum";
}

void
median_apply (GstElement * e, const MedianParams * p)
{
  gst_util_set_object_arg (G_OBJECT (e), "border",
      morph_border_nick (p->border));
  gst_util_set_object_arg (G_OBJECT (e), "color-mode",
      p->luma ? "luma" : "channels");
  g_object_set (e, "width", p->width, "height", p->height, "percentile",
      p->percentile, "border-value", p->border_value, NULL);
}

GstElement *
setting_element_new (const Setting * s, GstBus ** bus)
{
  GstElement *e;

  if (s->kind == EL_LIN)
    return lin_element_new (test_backend (), &s->lin, bus);

  e = gst_element_factory_make (kind_name (s->kind), NULL);
  fail_unless (e != NULL, "cannot create %s: is GST_PLUGIN_PATH set to the "
      "build's gst/ directory?", kind_name (s->kind));
  gst_util_set_object_arg (G_OBJECT (e), "backend", test_backend ());
  if (s->kind == EL_MORPH)
    morph_params_apply (e, &s->morph);
  else
    median_apply (e, &s->median);
  *bus = gst_bus_new ();
  gst_element_set_bus (e, *bus);
  return e;
}

gchar *
setting_describe (const Setting * s)
{
  if (s->kind == EL_MORPH)
    return morph_params_describe (&s->morph);
  if (s->kind == EL_LIN)
    return lin_params_describe (&s->lin);
  return g_strdup_printf ("median %dx%d p=%g border=%s(%u) %s",
      s->median.width, s->median.height, s->median.percentile,
      morph_border_nick (s->median.border), s->median.border_value,
      s->median.luma ? "luma" : "channels");
}

gboolean
bytes_equal (const guint8 * a, gsize as, const guint8 * b, gsize bs,
    gsize row_bytes, int rows, const char *what)
{
  for (int y = 0; y < rows; y++) {
    for (gsize x = 0; x < row_bytes; x++) {
      if (a[y * as + x] != b[y * bs + x]) {
        fprintf (stderr, "%s: row %d byte %" G_GSIZE_FORMAT ": got %u, "
            "expected %u\n", what, y, x, a[y * as + x], b[y * bs + x]);
        return FALSE;
      }
    }
  }
  return TRUE;
}

void
reference_plane (const Setting * s, const cm_image * src, const cm_image * dst)
{
  cm_median_desc md;
  cm_morph_desc d;
  cm_se *se;

  if (s->kind == EL_MORPH) {
    se = morph_params_se (&s->morph);
    memset (&d, 0, sizeof (d));
    d.op = s->morph.op;
    d.se = se;
    d.iterations = s->morph.iterations;
    d.border = s->morph.border;
    d.border_value = MIN (s->morph.border_value, cm_depth_max (src->depth));
    fail_unless (cm_morph_ref (&d, src, dst) == CM_OK);
    cm_se_free (se);
  } else {
    memset (&md, 0, sizeof (md));
    md.window_w = s->median.width;
    md.window_h = s->median.height;
    md.percentile = s->median.percentile;
    md.border = s->median.border;
    md.border_value = MIN (s->median.border_value, cm_depth_max (src->depth));
    fail_unless (cm_median_ref (&md, src, dst) == CM_OK);
  }
}

gboolean
check_filtered (const Setting * s, GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const char *what)
{
  GstVideoFrame in, out;
  cm_depth depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ?
      CM_DEPTH_16 : CM_DEPTH_8;
  int w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gboolean ok = TRUE;

  fail_unless (gst_video_frame_map (&in, info, inbuf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out, info, outbuf, GST_MAP_READ),
      "%s: output buffer does not match the caps", what);
  fail_unless (morph_frame_fits (&in, what) && morph_frame_fits (&out, what),
      "%s: frame layout outside the buffer", what);

  if (GST_VIDEO_INFO_IS_RGB (info) && s->kind == EL_MEDIAN && s->median.luma) {
    int ps = GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
    cm_image_packed src = { GST_VIDEO_FRAME_PLANE_DATA (&in, 0),
      (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&in, 0), w, h, CM_DEPTH_8, ps
    };
    gsize pitch = (gsize) w * ps;
    guint8 *exp = g_malloc (pitch * h);
    cm_image_packed dst = { exp, pitch, w, h, CM_DEPTH_8, ps };
    int a = GST_VIDEO_INFO_HAS_ALPHA (info) ?
        (int) GST_VIDEO_INFO_COMP_POFFSET (info, 3) : -1;
    cm_median_desc md;

    memset (&md, 0, sizeof (md));
    md.window_w = s->median.width;
    md.window_h = s->median.height;
    md.percentile = s->median.percentile;
    md.border = s->median.border;
    md.border_value = MIN (s->median.border_value, 255u);
    fail_unless (cm_median_luma_ref (&md, &src, &dst,
            GST_VIDEO_INFO_COMP_POFFSET (info, 0),
            GST_VIDEO_INFO_COMP_POFFSET (info, 1),
            GST_VIDEO_INFO_COMP_POFFSET (info, 2), a) == CM_OK);
    ok = bytes_equal (GST_VIDEO_FRAME_PLANE_DATA (&out, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0), exp, pitch, pitch, h, what);
    g_free (exp);
  } else if (GST_VIDEO_INFO_IS_RGB (info)) {
    int pstride = GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);

    for (int b = 0; b < pstride && ok; b++) {
      gboolean colour = FALSE;
      cm_image src = morph_extract_byte (&in, b);
      cm_image got = morph_extract_byte (&out, b);
      gchar *label = g_strdup_printf ("%s: byte %d of each pixel", what, b);

      for (int c = 0; c < 3; c++)
        colour |= (int) GST_VIDEO_INFO_COMP_POFFSET (info, c) == b;
      if (colour) {
        cm_image exp = test_image_new (w, h, CM_DEPTH_8, 0);

        reference_plane (s, &src, &exp);
        ok = test_image_equal (&got, &exp, label);
        test_image_free (&exp);
      } else {
        ok = test_image_equal (&got, &src, label);
      }
      g_free (label);
      test_image_free (&src);
      test_image_free (&got);
    }
  } else {
    cm_image src = { GST_VIDEO_FRAME_PLANE_DATA (&in, 0),
      (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&in, 0), w, h, depth
    };
    cm_image got = { GST_VIDEO_FRAME_PLANE_DATA (&out, 0),
      (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0), w, h, depth
    };
    cm_image exp = test_image_new (w, h, depth, 0);
    gchar *label = g_strdup_printf ("%s: plane 0", what);

    reference_plane (s, &src, &exp);
    ok = test_image_equal (&got, &exp, label);
    g_free (label);
    test_image_free (&exp);

    for (guint pl = 1; ok && pl < GST_VIDEO_FRAME_N_PLANES (&in); pl++) {
      gsize row_bytes;
      int rows;

      morph_plane_extent (&in, pl, &row_bytes, &rows);
      label = g_strdup_printf ("%s: chroma plane %u", what, pl);
      ok = bytes_equal (GST_VIDEO_FRAME_PLANE_DATA (&out, pl),
          GST_VIDEO_FRAME_PLANE_STRIDE (&out, pl),
          GST_VIDEO_FRAME_PLANE_DATA (&in, pl),
          GST_VIDEO_FRAME_PLANE_STRIDE (&in, pl), row_bytes, rows, label);
      g_free (label);
    }
  }

  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return ok;
}

GList *
drain_bus (GstBus * bus, const char *what)
{
  GList *spectra = NULL;
  GstMessage *msg;

  while ((msg = gst_bus_pop (bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      fail ("%s: unexpected error: %s (%s)", what, err->message,
          GST_STR_NULL (dbg));
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (msg, "cudalinspectrum"))
      spectra = g_list_append (spectra, msg);
    else
      gst_message_unref (msg);
  }
  return spectra;
}

void
assert_no_error (GstBus * bus, const char *what)
{
  g_list_free_full (drain_bus (bus, what),
      (GDestroyNotify) gst_message_unref);
}

void
push_and_check (GstHarness * h, GstBus * bus, const Setting * s,
    const GstVideoInfo * info, guint64 seed, int extra_stride,
    const char *ctx)
{
  GstBuffer *in = morph_make_input (info, seed, extra_stride);
  GstBuffer *out;
  GstFlowReturn ret;
  GList *spectra;
  gchar *desc = setting_describe (s);
  gchar *what = g_strdup_printf ("%s %s: %s %dx%d stride+%d, %s, seed %"
      G_GUINT64_FORMAT, ctx, kind_name (s->kind), GST_VIDEO_INFO_NAME (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), extra_stride,
      desc, seed);

  ret = gst_harness_push (h, gst_buffer_ref (in));
  spectra = drain_bus (bus, what);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
  out = gst_harness_pull (h);

  if (s->kind != EL_LIN) {
    fail_unless (check_filtered (s, in, out, info, what),
        "%s: output differs from the reference", what);
  } else {
    fail_unless (g_list_length (spectra) == 1, "%s: %u messages for one "
        "frame", what, g_list_length (spectra));
    fail_unless (lin_check_message (gst_message_get_structure (spectra->data),
            in, info, &s->lin, what), "%s: spectrum differs from the "
        "reference", what);
    if (strcmp (s->lin.output, "supremum") == 0)
      fail_unless (lin_check_supremum (in, out, info, &s->lin, what),
          "%s: supremum differs from the reference", what);
    else
      fail_unless (morph_frames_equal (in, out, info, what),
          "%s: passthrough frame changed", what);
  }

  g_list_free_full (spectra, (GDestroyNotify) gst_message_unref);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (what);
  g_free (desc);
}

int
n_formats (ElemKind k)
{
  return k == EL_LIN ? LIN_N_FORMATS : MORPH_N_FORMATS;
}

const char *
format_name (ElemKind k, int i)
{
  return k == EL_LIN ? lin_format (i) : morph_format (i);
}
