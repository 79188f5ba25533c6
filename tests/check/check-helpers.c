/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* See check-helpers.h. */
#include <string.h>

#include <gobject/gvaluecollector.h>
#include <gst/check/gstcheck.h>

#include "check-helpers.h"

const CheckSize check_odd_sizes[CHECK_N_ODD_SIZES] = {
  {37, 23}, {1, 1}, {1, 9}, {9, 1}, {2, 3},
};

void
check_rows_on_formats (CheckFilter filter, gconstpointer rows, guint n_rows,
    const char *const *formats, guint n_formats, int width, int height,
    guint64 seed, const char *ctx)
{
  for (guint i = 0; i < n_rows; i++) {
    const MorphParams *morph = (const MorphParams *) rows + i;
    const MedianParams *median = (const MedianParams *) rows + i;

    for (guint f = 0; f < n_formats; f++) {
      GstElement *e = filter == CHECK_MORPH ? morph_element_new ("cpu",
          morph) : median_element_new ("cpu", median);
      GstHarness *h = morph_harness_new (e);
      GstVideoInfo info;

      morph_harness_set_caps (h, formats[f], width, height, &info);
      if (filter == CHECK_MORPH)
        morph_push_and_check (h, &info, morph, seed++, 0, ctx);
      else
        median_push_and_check (h, &info, median, seed++, 0, ctx);
      gst_harness_teardown (h);
      gst_object_unref (e);
    }
  }
}

void
check_properties_documented (GstElement * e, const char *const *props,
    guint n, gsize min_blurb)
{
  for (guint i = 0; i < n; i++) {
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        props[i]);

    fail_unless (ps != NULL, "no property %s", props[i]);
    fail_unless (strlen (g_param_spec_get_blurb (ps)) > min_blurb,
        "property %s has no real description", props[i]);
    if (!g_str_equal (props[i], "backend") &&
        !g_str_equal (props[i], "cuda-device-id"))
      fail_unless (ps->flags & GST_PARAM_MUTABLE_PLAYING,
          "property %s not mutable in PLAYING", props[i]);
  }
}

void
check_properties_equal (GstElement * e, const char *first_property, ...)
{
  va_list args;

  va_start (args, first_property);
  for (const char *name = first_property; name != NULL;
      name = va_arg (args, const char *)) {
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        name);
    GValue want = G_VALUE_INIT, have = G_VALUE_INIT;
    gchar *err = NULL, *want_s, *have_s;

    fail_unless (ps != NULL, "no property %s", name);
    G_VALUE_COLLECT_INIT (&want, ps->value_type, args, 0, &err);
    fail_unless (err == NULL, "%s: %s", name, err);
    g_value_init (&have, ps->value_type);
    g_object_get_property (G_OBJECT (e), name, &have);
    want_s = gst_value_serialize (&want);
    have_s = gst_value_serialize (&have);
    fail_unless (gst_value_compare (&have, &want) == GST_VALUE_EQUAL,
        "property %s is %s, not %s", name, have_s, want_s);
    g_free (want_s);
    g_free (have_s);
    g_value_unset (&have);
    g_value_unset (&want);
  }
  va_end (args);
}

void
check_element_playing (GstElement * e)
{
  GstState state;

  fail_unless_equals_int (gst_element_get_state (e, &state, NULL, 0),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (state, GST_STATE_PLAYING);
}

void
morph_run_start (MorphRun * r)
{
  r->m = (MorphParams) MORPH_PARAMS_DEFAULT;
  r->e = morph_element_new ("cpu", &r->m);
  r->h = morph_harness_new (r->e);
  morph_harness_set_caps (r->h, "GRAY8", 37, 23, &r->info);
  check_element_playing (r->e);
  morph_push_and_check (r->h, &r->info, &r->m, 1, 0, "erode first");
}

void
morph_run_finish_dilate (MorphRun * r, const char *what)
{
  r->m.op = CM_MORPH_DILATE;
  gst_util_set_object_arg (G_OBJECT (r->e), "operation", "dilate");
  morph_push_and_check (r->h, &r->info, &r->m, 7, 0, what);
  gst_harness_teardown (r->h);
  gst_object_unref (r->e);
}

void
lin_run_new (LinRun * r)
{
  r->e = lin_element_new ("cpu", &r->p, &r->bus);
}

void
lin_run_set_caps (LinRun * r, const char *format, int width, int height)
{
  gchar *desc;

  r->h = gst_harness_new_with_element (r->e, "sink", "src");
  if (r->sink_caps != NULL)
    gst_harness_set_sink_caps_str (r->h, r->sink_caps);
  morph_harness_set_caps (r->h, format, width, height, &r->info);
  desc = lin_params_describe (&r->p);
  g_free (r->what);
  r->what = g_strdup_printf ("%s %dx%d %s", format, width, height, desc);
  g_free (desc);
}

void
lin_run_start (LinRun * r, const char *format, int width, int height,
    const char *first_property, ...)
{
  va_list args;

  lin_run_new (r);
  va_start (args, first_property);
  if (first_property != NULL)
    g_object_set_valist (G_OBJECT (r->e), first_property, args);
  va_end (args);
  lin_run_set_caps (r, format, width, height);
}

void
lin_run_set_output (LinRun * r, const char *output)
{
  r->p.output = output;
  gst_util_set_object_arg (G_OBJECT (r->e), "output", output);
}

GstBuffer *
lin_run_push (LinRun * r, guint64 seed, int extra, GstBuffer ** out)
{
  return lin_push_random (r->h, &r->info, seed, extra, out);
}

gboolean
lin_run_orientation_ok (LinRun * r, GstBuffer * in, GstBuffer * out,
    const char *what)
{
  lin_check_rgba_caps (r->h, GST_VIDEO_INFO_WIDTH (&r->info),
      GST_VIDEO_INFO_HEIGHT (&r->info), &r->out_info);
  return lin_check_orientation (in, &r->info, out, &r->out_info, &r->p,
      what);
}

void
lin_run_push_checked (LinRun * r, guint64 seed, int extra, const char *what)
{
  GstBuffer *out, *in = lin_run_push (r, seed, extra, &out);

  if (g_str_equal (r->p.output, "passthrough"))
    lin_check_passed_through (in, out, what);
  else if (g_str_equal (r->p.output, "supremum"))
    fail_unless (lin_run_supremum_ok (r, in, out, what),
        "%s: the output is not the supremum", what);
  else
    fail_unless (lin_run_orientation_ok (r, in, out, what),
        "%s: the output is not the orientation map", what);
  lin_run_check_frame (r, in, out, what);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

void
lin_run_clear (LinRun * r)
{
  lin_teardown (r->h, r->e, r->bus);
  g_clear_pointer (&r->what, g_free);
}

void
lin_run_check_frame (LinRun * r, GstBuffer * in, GstBuffer * out,
    const char *what)
{
  lin_check_frame_result (r->bus, in, out, &r->info, &r->p, what);
}

void
lin_run_check_message (LinRun * r, GstBuffer * in, const char *what)
{
  lin_check_one_message (r->bus, in, &r->info, &r->p, what);
}

gboolean
lin_run_supremum_ok (LinRun * r, GstBuffer * in, GstBuffer * out,
    const char *what)
{
  return lin_check_supremum (in, out, &r->info, &r->p, what);
}
