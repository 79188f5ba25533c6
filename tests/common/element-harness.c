/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudamorph set up from parameter rows, the bus read back */

#include <stdio.h>
#include <string.h>

#include "device.h"
#include "element-harness.h"
#include "test-util.h"

#ifdef CM_TEST_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>
#endif

GstMessage *
test_bus_pop_filtered (GstBus * bus, GstMessageType types)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop (bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) & types)
      return msg;
    gst_message_unref (msg);
  }
  return NULL;
}

guint64
test_filter_builds (GstElement * e)
{
  GstQuery *q = gst_query_new_custom (GST_QUERY_CUSTOM,
      gst_structure_new_empty ("cudamorphology-stats"));
  GstPad *pad = gst_element_get_static_pad (e, "src");
  guint64 n = G_MAXUINT64;

  fail_unless (gst_pad_query (pad, q), "stats query not answered");
  fail_unless (gst_structure_get_uint64 (gst_query_get_structure (q),
          "filter-builds", &n), "no filter-builds in the stats");
  gst_query_unref (q);
  gst_object_unref (pad);
  return n;
}

guint
test_bus_count_problems (GstBus * bus, GstMessageType types)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = test_bus_pop_filtered (bus, types)) != NULL) {
    GError *err = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, NULL);
    else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
      gst_message_parse_warning (msg, &err, NULL);
    fprintf (stderr, "bus: %s\n", err ? err->message : "?");
    g_clear_error (&err);
    gst_message_unref (msg);
    n++;
  }
  return n;
}

void
test_expect_int_refused (GstElement * e, const char *name, gint bad,
    gint64 kept)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      name);
  GValue v = G_VALUE_INIT, v64 = G_VALUE_INIT;

  fail_unless (ps != NULL, "no property %s", name);
  ASSERT_OUT_OF_RANGE (g_object_set (e, name, bad, NULL));
  g_value_init (&v, ps->value_type);
  g_value_init (&v64, G_TYPE_INT64);
  g_object_get_property (G_OBJECT (e), name, &v);
  fail_unless (g_value_transform (&v, &v64));
  fail_unless (g_value_get_int64 (&v64) == kept, "%s = %d: reads %"
      G_GINT64_FORMAT ", expected %" G_GINT64_FORMAT " kept", name, bad,
      g_value_get_int64 (&v64), kept);
  g_value_unset (&v);
}

int
test_gpu_check_main (int *argc, char ***argv, const char *name,
    const TestSuiteEntry * tests, const char *file)
{
  /* before gst_check_init: no device, no test (meson shows SKIP) */
  if (cm_device_count () == 0) {
    printf ("no usable CUDA device: skipping\n");
    return TEST_SKIP;
  }

  /* CUDA was initialised above: a forked child could not use it */
  g_setenv ("CK_FORK", "no", TRUE);

  gst_check_init (argc, argv);
  return gst_check_run_suite (test_suite_new (name, "cuda-vs-cpu", 600,
          tests), name, file);
}

const char *
morph_format (int i)
{
  static const char *const formats[MORPH_N_FORMATS] = {
    "GRAY8", "GRAY16_LE", "I420", "NV12", "Y444", "RGBA", "BGRA", "RGBx",
    "BGRx"
  };
  return formats[i];
}

const char *
morph_op_nick (cm_morph_op op)
{
  static const char *const nicks[] = {
    "erode", "dilate", "open", "close", "tophat", "blackhat", "gradient"
  };
  return nicks[op];
}

const char *
morph_shape_nick (cm_shape shape)
{
  static const char *const nicks[] = {
    "rect", "cross", "diamond", "disk", "octagon", "line", "custom"
  };
  return nicks[shape];
}

const char *
morph_border_nick (cm_border_mode border)
{
  static const char *const nicks[] = {
    "neutral", "replicate", "reflect", "mirror", "constant"
  };
  return nicks[border];
}

const char *
recon_op_nick (cm_recon_op op)
{
  static const char *const nicks[] = {
    "fill-holes", "clear-border", "open-rec", "close-rec", "hmax", "hmin",
    "hdome", "hbasin"
  };
  return nicks[op];
}

const char *
area_op_nick (cm_attr_op op)
{
  static const char *const nicks[] = { "area-open", "area-close" };
  return nicks[op];
}

gchar *
morph_params_describe (const MorphParams * p)
{
  gchar *shape;
  gchar *s;

  switch (p->shape) {
    case CM_SHAPE_RECT:
    case CM_SHAPE_CROSS:
      shape = g_strdup_printf ("%s %dx%d", morph_shape_nick (p->shape),
          p->width, p->height);
      break;
    case CM_SHAPE_LINE:
      shape = g_strdup_printf ("line L=%d a=%g", p->length, p->angle);
      break;
    case CM_SHAPE_CUSTOM:
      shape = g_strdup_printf ("custom \"%s\"", p->mask);
      break;
    default:
      shape = g_strdup_printf ("%s r=%d", morph_shape_nick (p->shape),
          p->radius);
      break;
  }
  s = g_strdup_printf ("%s %s it=%d border=%s(%u)", morph_op_nick (p->op),
      shape, p->iterations, morph_border_nick (p->border), p->border_value);
  g_free (shape);
  return s;
}

gchar *
recon_params_describe (const ReconParams * p)
{
  gchar *marker = morph_params_describe (&p->marker);
  gchar *s = g_strdup_printf ("%s c=%d h=%u (marker: %s)",
      recon_op_nick (p->op), p->connectivity, p->dome_height, marker);

  g_free (marker);
  return s;
}

gchar *
area_params_describe (const AreaParams * p)
{
  return g_strdup_printf ("%s c=%d min-area=%u", area_op_nick (p->op),
      p->connectivity, p->min_area);
}

void
morph_params_apply (GstElement * e, const MorphParams * p)
{
  gst_util_set_object_arg (G_OBJECT (e), "operation", morph_op_nick (p->op));
  gst_util_set_object_arg (G_OBJECT (e), "shape", morph_shape_nick (p->shape));
  gst_util_set_object_arg (G_OBJECT (e), "border",
      morph_border_nick (p->border));
  g_object_set (e, "iterations", p->iterations, "border-value",
      p->border_value, NULL);
  /* only what the shape reads, as a user sets them (the element warns
   * about a structuring-element property that the shape ignores) */
  switch (p->shape) {
    case CM_SHAPE_RECT:
    case CM_SHAPE_CROSS:
      g_object_set (e, "width", p->width, "height", p->height, NULL);
      break;
    case CM_SHAPE_LINE:
      g_object_set (e, "length", p->length, "angle", p->angle, NULL);
      break;
    case CM_SHAPE_CUSTOM:
      g_object_set (e, "mask", p->mask, NULL);
      break;
    default:
      g_object_set (e, "radius", p->radius, NULL);
      break;
  }
}

void
recon_params_apply (GstElement * e, const ReconParams * p)
{
  morph_params_apply (e, &p->marker);
  gst_util_set_object_arg (G_OBJECT (e), "operation", recon_op_nick (p->op));
  g_object_set (e, "connectivity", p->connectivity, "dome-height",
      p->dome_height, NULL);
}

void
area_params_apply (GstElement * e, const AreaParams * p)
{
  gst_util_set_object_arg (G_OBJECT (e), "operation", area_op_nick (p->op));
  g_object_set (e, "connectivity", p->connectivity, "min-area", p->min_area,
      NULL);
}

/* One GstCudaContext (device 0) for every CUDA element of the process, as
 * an application running many pipelines shares one: an element that finds
 * none makes its own, and a CUDA context costs a good part of a second to
 * make and free, serialised by the driver across processes; a suite of a
 * few thousand short pipelines would spend most of its time there.
 * CM_TEST_OWN_CUDA_CONTEXT=1 lets each element make its own (the faults
 * test: contexts made and freed at every state cycle); the base's own
 * context handling is tested by test-base-gpu and test-cuda-context. NULL
 * without gstreamer-cuda or a device. */
static GstContext *
shared_cuda_context (void)
{
#ifdef CM_TEST_GST_CUDA
  static gsize once;
  static GstContext *shared;

  if (g_once_init_enter (&once)) {
    if (g_getenv ("CM_TEST_OWN_CUDA_CONTEXT") == NULL && cm_device_count () > 0
        && gst_cuda_load_library ()) {
      GstCudaContext *ctx = gst_cuda_context_new (0);

      if (ctx != NULL) {
        shared = gst_context_new_cuda_context (ctx);
        gst_object_unref (ctx);
      }
    }
    g_once_init_leave (&once, 1);
  }
  return shared;
#else
  return NULL;
#endif
}

GstElement *
test_element_new (const char *factory, const char *backend)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  GstContext *ctx;

  fail_unless (e != NULL, "cannot create %s: is GST_PLUGIN_PATH set to the "
      "build's gst/ directory?", factory);
  gst_util_set_object_arg (G_OBJECT (e), "backend", backend);
  if (strcmp (backend, "cpu") != 0 && (ctx = shared_cuda_context ()) != NULL)
    gst_element_set_context (e, ctx);
  return e;
}

void
test_element_set_args (GstElement * e, const char *args)
{
  gchar **words;

  if (args == NULL || *args == '\0')
    return;
  words = g_strsplit (args, " ", -1);
  for (guint i = 0; words[i] != NULL; i++) {
    gchar **kv = g_strsplit (words[i], "=", 2);

    fail_unless (kv[0] != NULL && kv[1] != NULL, "not name=value: \"%s\"",
        words[i]);
    gst_util_set_object_arg (G_OBJECT (e), kv[0], kv[1]);
    g_strfreev (kv);
  }
  g_strfreev (words);
}

GstElement *
test_element_new_with (const char *factory, const char *backend,
    TestParamsApply apply, gconstpointer params)
{
  GstElement *e = test_element_new (factory, backend);

  if (params)
    apply (e, params);
  return e;
}

GstElement *
morph_element_new (const char *backend, const MorphParams * p)
{
  return test_element_new_with ("cudamorph", backend,
      (TestParamsApply) morph_params_apply, p);
}

GstHarness *
morph_harness_new (GstElement * e)
{
  return gst_harness_new_with_element (e, "sink", "src");
}

void
test_element_teardown (GstHarness * h, GstElement * e, GstBus * bus)
{
  gst_harness_teardown (h);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GstMessage *
test_start_fails (GstElement * e, GstBus * bus)
{
  GstMessage *msg;

  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  msg = test_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message on the bus");
  return msg;
}

void
test_element_stop (GstElement * e, GstBus * bus)
{
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

gchar *
test_caps_error (GstElement * e, const char *format, int width, int height)
{
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  GstVideoInfo info;
  GstMessage *msg;
  GError *err = NULL;
  gchar *text;

  gst_element_set_bus (e, bus);
  h = morph_harness_new (e);
  morph_harness_set_caps (h, format, width, height, &info);
  msg = test_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error for caps %s %dx%d", format, width,
      height);
  gst_message_parse_error (msg, &err, NULL);
  text = g_strdup (err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  test_element_teardown (h, e, bus);
  return text;
}

void
morph_harness_set_caps (GstHarness * h, const char *format, int width,
    int height, GstVideoInfo * info)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, width, height);

  gst_video_info_set_format (info, gst_video_format_from_string (format),
      width, height);
  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
}

cm_se *
morph_params_se (const MorphParams * p)
{
  cm_se *se = NULL;
  int a = p->shape == CM_SHAPE_RECT || p->shape == CM_SHAPE_CROSS ?
      p->width : p->shape == CM_SHAPE_LINE ? p->length : p->radius;
  cm_status s = test_se_new (&se, p->shape, a, p->height, p->angle, p->mask);

  fail_unless (s == CM_OK && se != NULL, "cannot build the reference SE: %s",
      cm_status_string (s));
  return se;
}
