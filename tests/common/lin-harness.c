/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudalinspectrum set up, its messages and metas read back and checked */
#include <stdio.h>
#include <string.h>

#include <gst/check/gstcheck.h>

#include "gstcudalinspectrummeta.h"
#include "linspectrum/orientation-rgba.h"
#include "test-util.h"

#include "lin-harness.h"

const char *
lin_format (int i)
{
  static const char *const formats[LIN_N_FORMATS] = {
    "GRAY8", "GRAY16_LE", "I420", "NV12", "Y444"
  };
  return formats[i];
}

void
lin_params_desc (const LinParams * p, cm_linspectrum_desc * d)
{
  memset (d, 0, sizeof (*d));
  d->length = p->length;
  d->angle_min = p->angle_min;
  d->angle_max = p->angle_max;
  d->angle_step = p->angle_step;
  d->op = p->op;
}

gchar *
lin_params_describe (const LinParams * p)
{
  return g_strdup_printf ("%s L=%d %g..%g step %g output=%s",
      p->op == CM_MORPH_CLOSE ? "close" : "open", p->length, p->angle_min,
      p->angle_max, p->angle_step, p->output);
}

void
lin_params_apply (GstElement * e, const LinParams * p)
{
  g_object_set (e, "angle-step", 360.0, NULL);
  g_object_set (e, "angle-min", -360.0, NULL);
  g_object_set (e, "angle-max", 360.0, NULL);
  g_object_set (e, "angle-max", p->angle_max, NULL);
  g_object_set (e, "angle-min", p->angle_min, NULL);
  g_object_set (e, "angle-step", p->angle_step, "length", p->length, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "operation",
      p->op == CM_MORPH_CLOSE ? "close" : "open");
  gst_util_set_object_arg (G_OBJECT (e), "output", p->output);
}

GstElement *
lin_element_new (const char *backend, const LinParams * p, GstBus ** bus)
{
  GstElement *e = test_element_new_with ("cudalinspectrum", backend,
      (TestParamsApply) lin_params_apply, p);

  *bus = gst_bus_new ();
  gst_element_set_bus (e, *bus);
  return e;
}

GstMessage *
lin_pop_message (GstBus * bus)
{
  GstMessage *msg;

  while ((msg = test_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT)) != NULL) {
    if (gst_message_has_name (msg, "cudalinspectrum"))
      return msg;
    gst_message_unref (msg);
  }
  return NULL;
}

guint
lin_count_messages (GstBus * bus)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = lin_pop_message (bus)) != NULL) {
    gst_message_unref (msg);
    n++;
  }
  return n;
}

gdouble
lin_array_get (const GstStructure * s, const char *name, guint i)
{
  const GValue *arr = gst_structure_get_value (s, name);
  const GValue *v = gst_value_array_get_value (arr, i);

  fail_unless (G_VALUE_HOLDS_DOUBLE (v), "%s[%u] is not a double", name, i);
  return g_value_get_double (v);
}

guint
lin_check_schema (const GstStructure * s, const char *what)
{
  static const struct
  {
    const char *name;
    GType type;
  } fields[] = {
    {"timestamp", G_TYPE_UINT64}, {"stream-time", G_TYPE_UINT64},
    {"running-time", G_TYPE_UINT64}, {"duration", G_TYPE_UINT64},
    {"length", G_TYPE_UINT}, {"operation", G_TYPE_STRING},
    {"dominant-angle", G_TYPE_DOUBLE}, {"dominant-value", G_TYPE_DOUBLE},
  };
  guint n, i;

  fail_unless (gst_structure_has_name (s, "cudalinspectrum"), "%s", what);
  for (i = 0; i < G_N_ELEMENTS (fields); i++) {
    fail_unless (gst_structure_has_field (s, fields[i].name),
        "%s: no field %s", what, fields[i].name);
    fail_unless (gst_structure_get_field_type (s, fields[i].name) ==
        fields[i].type, "%s: field %s is a %s, expected %s", what,
        fields[i].name, g_type_name (gst_structure_get_field_type (s,
                fields[i].name)), g_type_name (fields[i].type));
  }
  fail_unless (gst_structure_get_field_type (s, "angles") == GST_TYPE_ARRAY,
      "%s: angles is not a GstValueArray", what);
  fail_unless (gst_structure_get_field_type (s, "spectrum") ==
      GST_TYPE_ARRAY, "%s: spectrum is not a GstValueArray", what);
  n = gst_value_array_get_size (gst_structure_get_value (s, "angles"));
  fail_unless_equals_int (gst_value_array_get_size (gst_structure_get_value
          (s, "spectrum")), n);
  for (i = 0; i < n; i++) {
    lin_array_get (s, "angles", i);
    lin_array_get (s, "spectrum", i);
  }
  return n;
}

guint
lin_meta_count (GstBuffer * buf)
{
  const GstMetaInfo *info = gst_meta_get_info (LIN_META_NAME);
  gpointer state = NULL;
  guint n = 0;

  if (info == NULL)
    return 0;
  while (gst_buffer_iterate_meta_filtered (buf, &state, info->api) != NULL)
    n++;
  return n;
}

const GstStructure *
lin_meta_structure (GstBuffer * buf, const char *what)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (buf, LIN_META_NAME);

  fail_unless (meta != NULL, "%s: no " LIN_META_NAME " on the buffer", what);
  fail_unless_equals_int (lin_meta_count (buf), 1);
  return gst_custom_meta_get_structure (meta);
}

const gdouble *
lin_meta_doubles (const GstStructure * s, const char *name, guint * n)
{
  const GValue *v = gst_structure_get_value (s, name);
  gconstpointer data;
  gsize size;

  fail_unless (v != NULL && G_VALUE_HOLDS (v, G_TYPE_BYTES),
      "meta field %s is not a GBytes", name);
  data = g_bytes_get_data (g_value_get_boxed (v), &size);
  fail_unless (size % sizeof (gdouble) == 0, "meta field %s: %"
      G_GSIZE_FORMAT " bytes", name, size);
  *n = size / sizeof (gdouble);
  return data;
}

GstStructure *
lin_meta_as_message (const GstStructure * s)
{
  static const char *const arrays[] = { "angles", "spectrum" };
  GstStructure *m = gst_structure_copy (s);

  fail_unless (gst_structure_has_name (s, LIN_META_NAME));
  gst_structure_set_name (m, "cudalinspectrum");
  for (guint a = 0; a < G_N_ELEMENTS (arrays); a++) {
    GValue array = G_VALUE_INIT;
    guint n;
    const gdouble *v = lin_meta_doubles (s, arrays[a], &n);

    g_value_init (&array, GST_TYPE_ARRAY);
    for (guint i = 0; i < n; i++) {
      GValue d = G_VALUE_INIT;

      g_value_init (&d, G_TYPE_DOUBLE);
      g_value_set_double (&d, v[i]);
      gst_value_array_append_and_take_value (&array, &d);
    }
    gst_structure_take_value (m, arrays[a], &array);
  }
  return m;
}

void
lin_check_passed_through (GstBuffer * in, GstBuffer * out, const char *what)
{
  if (out == in)
    return;
  fail_unless_equals_int (gst_buffer_n_memory (out), gst_buffer_n_memory (in));
  for (guint i = 0; i < gst_buffer_n_memory (in); i++)
    fail_unless (gst_buffer_peek_memory (out, i) ==
        gst_buffer_peek_memory (in, i), "%s: passthrough copied memory %u",
        what, i);
  fail_unless_equals_int (lin_meta_count (in), 0);
}

void
lin_check_meta_is_message (GstBuffer * out, const GstStructure * msg,
    const char *what)
{
  const GstStructure *ms = lin_meta_structure (out, what);
  GstStructure *conv = lin_meta_as_message (ms);

  fail_unless (gst_structure_get_field_type (ms, "angles") == G_TYPE_BYTES);
  fail_unless (gst_structure_get_field_type (ms, "spectrum") == G_TYPE_BYTES);
  lin_check_schema (conv, what);
  fail_unless (gst_structure_is_equal (conv, msg), "%s: meta %"
      GST_PTR_FORMAT " differs from the message %" GST_PTR_FORMAT, what, conv,
      msg);
  gst_structure_free (conv);
}

gboolean
lin_check_message (const GstStructure * s, GstBuffer * inbuf,
    const GstVideoInfo * info, const LinParams * p, const char *what)
{
  cm_linspectrum_desc d;
  GstVideoFrame in;
  cm_image src;
  guint64 *spec;
  gdouble npix, angle, value, got;
  const gchar *op;
  guint n, len;
  gboolean ok = TRUE;

  lin_params_desc (p, &d);
  n = lin_check_schema (s, what);
  fail_unless_equals_int (n, cm_linspectrum_count_angles (&d));
  fail_unless (gst_structure_get_uint (s, "length", &len));
  fail_unless_equals_int (len, p->length);
  op = gst_structure_get_string (s, "operation");
  fail_unless_equals_string (op, p->op == CM_MORPH_CLOSE ? "close" : "open");

  fail_unless (gst_video_frame_map (&in, info, inbuf, GST_MAP_READ));
  src = morph_frame_plane0 (&in);
  spec = g_new0 (guint64, n);
  fail_unless (cm_linspectrum_ref (&d, &src, spec, NULL, NULL) == CM_OK);
  gst_video_frame_unmap (&in);
  npix = (gdouble) GST_VIDEO_INFO_WIDTH (info) * GST_VIDEO_INFO_HEIGHT (info);

  for (guint i = 0; ok && i < n; i++) {
    if (lin_array_get (s, "angles", i) != cm_linspectrum_angle (&d, i) ||
        lin_array_get (s, "spectrum", i) != (gdouble) spec[i] / npix) {
      fprintf (stderr, "%s: orientation %u: got angle %.17g spectrum %.17g, "
          "expected %.17g and %.17g\n", what, i, lin_array_get (s, "angles",
              i), lin_array_get (s, "spectrum", i),
          cm_linspectrum_angle (&d, i), (gdouble) spec[i] / npix);
      ok = FALSE;
    }
  }
  fail_unless (cm_linspectrum_dominant (&d, spec, n, &angle, &value) ==
      CM_OK);
  fail_unless (gst_structure_get_double (s, "dominant-angle", &got));
  if (ok && got != angle) {
    fprintf (stderr, "%s: dominant-angle %.17g, expected %.17g\n", what, got,
        angle);
    ok = FALSE;
  }
  fail_unless (gst_structure_get_double (s, "dominant-value", &got));
  if (ok && got != value / npix) {
    fprintf (stderr, "%s: dominant-value %.17g, expected %.17g\n", what, got,
        value / npix);
    ok = FALSE;
  }
  g_free (spec);
  return ok;
}

gboolean
lin_rgba_equal (const cm_image_packed * got, const cm_image_packed * exp,
    const char *what)
{
  for (int y = 0; y < got->height; y++) {
    const guint8 *g = (const guint8 *) got->data + y * got->pitch;
    const guint8 *e = (const guint8 *) exp->data + y * exp->pitch;

    for (int x = 0; x < got->width * 4; x++) {
      if (g[x] != e[x]) {
        fprintf (stderr, "%s: pixel (%d,%d) byte %d: got %u expected %u\n",
            what, x / 4, y, x % 4, g[x], e[x]);
        return FALSE;
      }
    }
  }
  return TRUE;
}

gboolean
lin_check_orientation (GstBuffer * inbuf, const GstVideoInfo * in_info,
    GstBuffer * outbuf, const GstVideoInfo * out_info, const LinParams * p,
    const char *what)
{
  cm_linspectrum_desc d;
  GstVideoFrame in, out;
  cm_image src, sup, ori;
  cm_image_packed exp, got;
  guint64 *spec;
  int w = GST_VIDEO_INFO_WIDTH (in_info), h = GST_VIDEO_INFO_HEIGHT (in_info);
  gboolean ok;

  lin_params_desc (p, &d);
  fail_unless (gst_video_frame_map (&in, in_info, inbuf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out, out_info, outbuf, GST_MAP_READ),
      "%s: output buffer does not match the RGBA caps", what);
  src = morph_frame_plane0 (&in);
  sup = test_image_new (w, h, src.depth, 0);
  ori = test_image_new (w, h, CM_DEPTH_16, 0);
  spec = g_new0 (guint64, cm_linspectrum_count_angles (&d));
  fail_unless (cm_linspectrum_ref (&d, &src, spec, &sup, &ori) == CM_OK);
  exp.width = w;
  exp.height = h;
  exp.depth = CM_DEPTH_8;
  exp.channels = 4;
  exp.pitch = (size_t) w * 4;
  exp.data = g_malloc (exp.pitch * h);
  fail_unless (cm_orientation_rgba_ref (&d, &sup, &ori, &exp) == CM_OK);
  got = exp;
  got.data = GST_VIDEO_FRAME_PLANE_DATA (&out, 0);
  got.pitch = GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0);
  ok = lin_rgba_equal (&got, &exp, what);

  g_free (exp.data);
  g_free (spec);
  test_image_free (&sup);
  test_image_free (&ori);
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return ok;
}

/* the supremum of @params (LinParams) over @src: a MorphPlaneRef */
static cm_status
lin_supremum_ref (gconstpointer params, const cm_image * src,
    const cm_image * dst)
{
  cm_linspectrum_desc d;
  guint64 *spec;
  cm_status st;

  lin_params_desc (params, &d);
  spec = g_new0 (guint64, cm_linspectrum_count_angles (&d));
  st = cm_linspectrum_ref (&d, src, spec, dst, NULL);
  g_free (spec);
  return st;
}

gboolean
lin_check_supremum (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const LinParams * p, const char *what)
{
  return morph_check_output_pixels (inbuf, outbuf, info, lin_supremum_ref,
      NULL, p, what);
}

GstHarness *
lin_harness_new (GstElement * e, const char *format, int w, int h,
    GstVideoInfo * info)
{
  GstHarness *hn = gst_harness_new_with_element (e, "sink", "src");

  morph_harness_set_caps (hn, format, w, h, info);
  return hn;
}

void
lin_teardown (GstHarness * h, GstElement * e, GstBus * bus)
{
  test_element_teardown (h, e, bus);
}

GstBuffer *
lin_push_random (GstHarness * h, const GstVideoInfo * info, guint64 seed,
    int extra, GstBuffer ** out)
{
  GstBuffer *in = morph_make_input (info, seed, extra);

  *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (*out != NULL, "no output buffer");
  return in;
}

void
lin_check_one_message (GstBus * bus, GstBuffer * in, const GstVideoInfo * info,
    const LinParams * p, const char *what)
{
  GstMessage *msg = lin_pop_message (bus);

  fail_unless (msg != NULL, "%s: no message", what);
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT);
  fail_unless (lin_check_message (gst_message_get_structure (msg), in, info,
          p, what), "%s: message differs from the reference", what);
  gst_message_unref (msg);
  fail_unless (lin_pop_message (bus) == NULL, "%s: more than one message",
      what);
}

#ifdef HAVE_GST_ANALYTICS
guint
lin_mtd_count (GstBuffer * buf)
{
  GstAnalyticsRelationMeta *rmeta = gst_buffer_get_analytics_relation_meta
      (buf);
  GstAnalyticsMtd mtd;
  gpointer state = NULL;
  guint n = 0;

  while (rmeta != NULL && gst_analytics_relation_meta_iterate (rmeta, &state,
          GST_ANALYTICS_MTD_TYPE_ANY, &mtd))
    n += gst_cuda_lin_spectrum_mtd_get_data (&mtd) != NULL;
  return n;
}

/* the analytics entry of @out, read with the header's inline readers,
 * holds the values of the message @msg, exactly */
static void
lin_check_mtd_is_message (GstBuffer * out, const GstStructure * msg,
    const char *what)
{
  GstAnalyticsRelationMeta *rmeta = gst_buffer_get_analytics_relation_meta
      (out);
  GstAnalyticsMtd mtd;
  const gdouble *angles, *spectrum;
  gdouble angle, value, d;
  guint n, length, u;
  gboolean closing;

  fail_unless (rmeta != NULL, "%s: no analytics relation meta", what);
  fail_unless (gst_cuda_lin_spectrum_mtd_find (rmeta, &mtd),
      "%s: no " GST_CUDA_LIN_SPECTRUM_MTD_NAME " entry", what);
  fail_unless_equals_int (lin_mtd_count (out), 1);
  fail_unless (gst_cuda_lin_spectrum_mtd_get_dominant (&mtd, &angle, &value));
  fail_unless (gst_structure_get_double (msg, "dominant-angle", &d));
  fail_unless (angle == d, "%s: entry's dominant angle %.17g, message %.17g",
      what, angle, d);
  fail_unless (gst_structure_get_double (msg, "dominant-value", &d));
  fail_unless (value == d, "%s: entry's dominant value %.17g, message %.17g",
      what, value, d);
  fail_unless (gst_cuda_lin_spectrum_mtd_get_params (&mtd, &length,
          &closing));
  fail_unless (gst_structure_get_uint (msg, "length", &u));
  fail_unless_equals_int (length, u);
  fail_unless_equals_string (closing ? "close" : "open",
      gst_structure_get_string (msg, "operation"));
  fail_unless (gst_cuda_lin_spectrum_mtd_get_spectrum (&mtd, &n, &angles,
          &spectrum));
  fail_unless_equals_int (n, gst_value_array_get_size
      (gst_structure_get_value (msg, "angles")));
  for (guint i = 0; i < n; i++) {
    fail_unless (angles[i] == lin_array_get (msg, "angles", i) &&
        spectrum[i] == lin_array_get (msg, "spectrum", i),
        "%s: entry's orientation %u differs from the message", what, i);
  }
}
#else
guint
lin_mtd_count (GstBuffer * buf)
{
  return 0;
}

static void
lin_check_mtd_is_message (GstBuffer * out, const GstStructure * msg,
    const char *what)
{
}
#endif

void
lin_check_result_is_message (GstBuffer * out, const GstStructure * msg,
    const char *what)
{
  lin_check_meta_is_message (out, msg, what);
  lin_check_mtd_is_message (out, msg, what);
}

void
lin_check_frame_result (GstBus * bus, GstBuffer * in, GstBuffer * out,
    const GstVideoInfo * info, const LinParams * p, const char *what)
{
  GstMessage *msg = lin_pop_message (bus);

  fail_unless (msg != NULL, "%s: no message", what);
  fail_unless (lin_check_message (gst_message_get_structure (msg), in, info,
          p, what), "%s: message differs from the reference", what);
  lin_check_result_is_message (out, gst_message_get_structure (msg), what);
  gst_message_unref (msg);
  fail_unless (lin_pop_message (bus) == NULL, "%s: more than one message",
      what);
}

void
lin_check_rgba_caps (GstHarness * h, int w, int hgt, GstVideoInfo * out_info)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  gint n, d;

  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (out_info, caps));
  fail_unless_equals_string (GST_VIDEO_INFO_NAME (out_info), "RGBA");
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (out_info), w);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (out_info), hgt);
  fail_unless (gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
          "framerate", &n, &d));
  fail_unless (n == 30 && d == 1, "framerate %d/%d", n, d);
  gst_caps_unref (caps);
}

gboolean
lin_caps_has_format (GstCaps * caps, const char *format)
{
  gchar *s = g_strdup_printf ("video/x-raw,format=%s", format);
  GstCaps *f = gst_caps_from_string (s);
  gboolean ret = gst_caps_can_intersect (caps, f);

  gst_caps_unref (f);
  g_free (s);
  return ret;
}
