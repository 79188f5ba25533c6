/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the cudalinspectrum element tests (tests/check, CPU
 * backend) and the GPU element test (tests/gpu): element set-up from a
 * parameter row with its own bus, the "cudalinspectrum" messages read back
 * from it, their schema checked field by field, the result on the output
 * buffers (GstCudaLinSpectrumMeta) in the messages' form, and the CPU
 * reference of every output (spectrum, supremum, orientation colours). */
#pragma once

#include <string.h>

#include "cudamorph-harness.h"
#include "linspectrum.h"
#include "orientation-rgba.h"

typedef struct
{
  int length;
  double angle_min, angle_max, angle_step;
  cm_morph_op op;               /* CM_MORPH_OPEN or CM_MORPH_CLOSE */
  const char *output;           /* "passthrough", "supremum", "orientation" */
} LinParams;

#define LIN_N_FORMATS 5

static inline const char *
lin_format (int i)
{
  static const char *const formats[LIN_N_FORMATS] = {
    "GRAY8", "GRAY16_LE", "I420", "NV12", "Y444"
  };
  return formats[i];
}

static inline void
lin_params_desc (const LinParams * p, cm_linspectrum_desc * d)
{
  memset (d, 0, sizeof (*d));
  d->length = p->length;
  d->angle_min = p->angle_min;
  d->angle_max = p->angle_max;
  d->angle_step = p->angle_step;
  d->op = p->op;
}

static inline gchar *
lin_params_describe (const LinParams * p)
{
  return g_strdup_printf ("%s L=%d %g..%g step %g output=%s",
      p->op == CM_MORPH_CLOSE ? "close" : "open", p->length, p->angle_min,
      p->angle_max, p->angle_step, p->output);
}

/* Sets every analysis property of @e from @p. The angles go through a
 * wide range first so that no intermediate combination is refused. */
static inline void
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

/* A cudalinspectrum with backend @backend, parameters @p (NULL: the
 * defaults) and a bus of its own in *@bus. */
static inline GstElement *
lin_element_new (const char *backend, const LinParams * p, GstBus ** bus)
{
  GstElement *e = gst_element_factory_make ("cudalinspectrum", NULL);

  fail_unless (e != NULL, "cannot create cudalinspectrum: is "
      "GST_PLUGIN_PATH set to the build's gst/ directory?");
  gst_util_set_object_arg (G_OBJECT (e), "backend", backend);
  if (p)
    lin_params_apply (e, p);
  *bus = gst_bus_new ();
  gst_element_set_bus (e, *bus);
  return e;
}

/* The next "cudalinspectrum" element message on @bus, or NULL. */
static inline GstMessage *
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

static inline guint
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

/* The double at @i of the GstValueArray field @name of @s. */
static inline gdouble
lin_array_get (const GstStructure * s, const char *name, guint i)
{
  const GValue *arr = gst_structure_get_value (s, name);
  const GValue *v = gst_value_array_get_value (arr, i);

  fail_unless (G_VALUE_HOLDS_DOUBLE (v), "%s[%u] is not a double", name, i);
  return g_value_get_double (v);
}

/* Every field of the schema with its type; returns the number of
 * orientations. */
static inline guint
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

/* ---- the result on the buffer ------------------------------------------
 * The custom meta GstCudaLinSpectrumMeta, read as an application reads it:
 * by name, with no header of the plugin. */

#define LIN_META_NAME "GstCudaLinSpectrumMeta"

/* The number of GstCudaLinSpectrumMeta on @buf. */
static inline guint
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

/* The structure of the one GstCudaLinSpectrumMeta of @buf. */
static inline const GstStructure *
lin_meta_structure (GstBuffer * buf, const char *what)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (buf, LIN_META_NAME);

  fail_unless (meta != NULL, "%s: no " LIN_META_NAME " on the buffer", what);
  fail_unless_equals_int (lin_meta_count (buf), 1);
  return gst_custom_meta_get_structure (meta);
}

/* The GBytes field @name of the meta's structure @s as *@n doubles. */
static inline const gdouble *
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

/* The meta's structure @s in the form of the message: named
 * "cudalinspectrum", angles and spectrum as GstValueArray. Compared with
 * gst_structure_is_equal () (doubles exactly) and checked against the
 * reference with lin_check_message (). */
static inline GstStructure *
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

/* Passthrough: @out is @in, or, when the caller held @in (the element
 * cannot add its meta to a buffer someone else holds), a copy that shares
 * every memory of @in, and @in got no meta. */
static inline void
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

/* The GstCudaLinSpectrumMeta of @out, in the message's form, is the
 * message @msg of the same frame, exactly. */
static inline void
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

/* The luma / GRAY plane of @frame as a core image view. */
static inline cm_image
lin_plane0 (GstVideoFrame * frame)
{
  cm_image img;

  img.data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  img.pitch = (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  img.width = GST_VIDEO_FRAME_WIDTH (frame);
  img.height = GST_VIDEO_FRAME_HEIGHT (frame);
  img.depth = GST_VIDEO_FRAME_COMP_DEPTH (frame, 0) > 8 ?
      CM_DEPTH_16 : CM_DEPTH_8;
  return img;
}

/* TRUE when the message @s is the reference analysis of @inbuf: the
 * angles, spectrum / pixels, dominant angle and value, length and
 * operation, all exact. */
static inline gboolean
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
  src = lin_plane0 (&in);
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

/* TRUE when the RGBA pixels of @got and @exp are equal. */
static inline gboolean
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

/* TRUE when @outbuf (RGBA, @out_info) is the reference colouring of the
 * orientation map of @inbuf (@in_info). */
static inline gboolean
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
  src = lin_plane0 (&in);
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

/* TRUE when @outbuf is @inbuf with its plane 0 replaced by the reference
 * supremum (infimum for closings) and the other planes copied. */
static inline gboolean
lin_check_supremum (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const LinParams * p, const char *what)
{
  cm_linspectrum_desc d;
  GstVideoFrame in, out;
  cm_image src, got, exp;
  guint64 *spec;
  gboolean ok;
  gchar *label;

  lin_params_desc (p, &d);
  fail_unless (gst_video_frame_map (&in, info, inbuf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out, info, outbuf, GST_MAP_READ),
      "%s: output buffer does not match the caps", what);
  src = lin_plane0 (&in);
  got = lin_plane0 (&out);
  exp = test_image_new (src.width, src.height, src.depth, 0);
  spec = g_new0 (guint64, cm_linspectrum_count_angles (&d));
  fail_unless (cm_linspectrum_ref (&d, &src, spec, &exp, NULL) == CM_OK);
  label = g_strdup_printf ("%s: supremum", what);
  ok = test_image_equal (&got, &exp, label);
  g_free (label);

  for (guint pl = 1; ok && pl < GST_VIDEO_FRAME_N_PLANES (&in); pl++) {
    const guint8 *a = GST_VIDEO_FRAME_PLANE_DATA (&in, pl);
    const guint8 *o = GST_VIDEO_FRAME_PLANE_DATA (&out, pl);
    gsize as = GST_VIDEO_FRAME_PLANE_STRIDE (&in, pl);
    gsize os = GST_VIDEO_FRAME_PLANE_STRIDE (&out, pl);
    gsize row_bytes;
    int rows;

    morph_plane_extent (&in, pl, &row_bytes, &rows);
    for (int y = 0; ok && y < rows; y++) {
      if (memcmp (a + y * as, o + y * os, row_bytes) != 0) {
        fprintf (stderr, "%s: chroma plane %u row %d differs from the "
            "input\n", what, pl, y);
        ok = FALSE;
      }
    }
  }
  g_free (spec);
  test_image_free (&exp);
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return ok;
}
