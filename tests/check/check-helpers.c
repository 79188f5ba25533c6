/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* See check-helpers.h. */
#include <string.h>

#include <gst/check/gstcheck.h>

#include "check-helpers.h"

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
lin_run_start (LinRun * r, const char *format, int width, int height,
    const char *first_property, ...)
{
  va_list args;

  r->e = lin_element_new ("cpu", &r->p, &r->bus);
  va_start (args, first_property);
  if (first_property != NULL)
    g_object_set_valist (G_OBJECT (r->e), first_property, args);
  va_end (args);
  r->h = lin_harness_new (r->e, format, width, height, &r->info);
}

GstBuffer *
lin_run_push (LinRun * r, guint64 seed, int extra, GstBuffer ** out)
{
  return lin_push_random (r->h, &r->info, seed, extra, out);
}

void
lin_run_clear (LinRun * r)
{
  lin_teardown (r->h, r->e, r->bus);
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
