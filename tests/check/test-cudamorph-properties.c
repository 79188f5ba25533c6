/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudamorph element tests on the CPU backend (GstHarness, CK_FORK=no), its
 * properties: refused property values (the old value kept, frames still
 * right), the backend choice (auto -> one bus warning, cuda -> error
 * without a device), the documentation of every property as
 * gst-inspect-1.0 shows it, and the warning for a structuring-element
 * property the shape does not read. */
#include <math.h>
#include <string.h>

#include "device.h"
#include "check-helpers.h"
#include "element-harness.h"
#include "frame-compare.h"
#include "padded-frames.h"
#include "test-suite.h"

static void
expect_mask_refused (GstElement * e, const char *mask, const char *kept)
{
  gchar *now = NULL;

  ASSERT_WARNING (g_object_set (e, "mask", mask, NULL));
  g_object_get (e, "mask", &now, NULL);
  fail_unless_equals_string (now, kept);
  g_free (now);
}

/* out-of-range values, bad masks and NaN angles leave the old value */
GST_START_TEST (test_invalid_values)
{
  MorphParams p = MORPH_PARAMS_DEFAULT;
  GstElement *e = morph_element_new ("cpu", NULL);
  GstHarness *h;
  GstVideoInfo info;
  gchar *long_row;

  g_object_set (e, "width", 5, NULL);
  test_expect_int_refused (e, "width", 5000, 5);
  test_expect_int_refused (e, "height", 0, 3);
  test_expect_int_refused (e, "radius", -1, 1);
  test_expect_int_refused (e, "radius", 512, 1);
  test_expect_int_refused (e, "length", 1024, 15);
  test_expect_int_refused (e, "iterations", 65, 1);
  test_expect_int_refused (e, "border-value", 65536, 0);
  test_expect_int_refused (e, "cuda-device-id", -2, -1);

  /* angle: out of range and NaN */
  g_object_set (e, "angle", 30.0, NULL);
  ASSERT_OUT_OF_RANGE (g_object_set (e, "angle", 361.0, NULL));
  ASSERT_OUT_OF_RANGE (g_object_set (e, "angle", (gdouble) NAN, NULL));
  check_properties_equal (e, "angle", 30.0, NULL);

  /* masks: accepted with spaces, refused when malformed */
  g_object_set (e, "mask", " 111; 1 0 1 ;111 ", NULL);
  expect_mask_refused (e, "01x;111", " 111; 1 0 1 ;111 ");
  expect_mask_refused (e, "01;111", " 111; 1 0 1 ;111 ");
  expect_mask_refused (e, "000;000", " 111; 1 0 1 ;111 ");
  expect_mask_refused (e, "", " 111; 1 0 1 ;111 ");
  expect_mask_refused (e, ";", " 111; 1 0 1 ;111 ");
  expect_mask_refused (e, "010;111;", " 111; 1 0 1 ;111 ");
  expect_mask_refused (e, NULL, " 111; 1 0 1 ;111 ");
  long_row = g_strnfill (CM_SE_MAX_CUSTOM + 1, '1');
  expect_mask_refused (e, long_row, " 111; 1 0 1 ;111 ");
  g_free (long_row);

  /* and the element still works with the values it kept */
  p.width = 5;
  p.angle = 30.0;
  p.mask = " 111; 1 0 1 ;111 ";
  p.shape = CM_SHAPE_CUSTOM;
  gst_util_set_object_arg (G_OBJECT (e), "shape", "custom");
  h = morph_harness_new (e);
  morph_harness_set_caps (h, "GRAY8", 37, 23, &info);
  morph_push_and_check (h, &info, &p, 77, 0, "after refused values");
  p.shape = CM_SHAPE_RECT;
  gst_util_set_object_arg (G_OBJECT (e), "shape", "rect");
  morph_push_and_check (h, &info, &p, 78, 0, "after refused values");
  p.shape = CM_SHAPE_LINE;
  gst_util_set_object_arg (G_OBJECT (e), "shape", "line");
  morph_push_and_check (h, &info, &p, 79, 0, "after refused values");

  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

static guint
count_messages (GstBus * bus, GstMessageType type, gchar ** first_text)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop (bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == type) {
      if (n == 0 && first_text) {
        GError *err = NULL;

        if (type == GST_MESSAGE_WARNING)
          gst_message_parse_warning (msg, &err, NULL);
        else if (type == GST_MESSAGE_ERROR)
          gst_message_parse_error (msg, &err, NULL);
        *first_text = g_strdup (err ? err->message : "");
        g_clear_error (&err);
      }
      n++;
    }
    gst_message_unref (msg);
  }
  return n;
}

/* backend=auto: CUDA when there is a device, else the CPU with exactly one
 * warning on the bus; frames are correct either way */
GST_START_TEST (test_backend_auto)
{
  MorphParams p = { CM_MORPH_CLOSE, CM_SHAPE_DIAMOND, 3, 3, 2, 15, 0,
    "010;111;010", 1, CM_BORDER_REPLICATE, 0
  };
  GstElement *e = morph_element_new ("auto", &p);
  GstBus *bus = gst_bus_new ();
  gboolean have_device = cm_device_count () > 0;
  gchar *text = NULL;
  GstHarness *h;
  GstVideoInfo info;
  guint n;

  gst_element_set_bus (e, bus);
  h = morph_harness_new (e);
  morph_harness_set_caps (h, "I420", 37, 23, &info);
  morph_push_and_check (h, &info, &p, 31, 0, "backend=auto");
  morph_push_and_check (h, &info, &p, 32, 0, "backend=auto");
  morph_harness_set_caps (h, "RGBx", 17, 9, &info);
  morph_push_and_check (h, &info, &p, 33, 0, "backend=auto");

  n = count_messages (bus, GST_MESSAGE_WARNING, &text);
  if (have_device) {
    fail_unless_equals_int (n, 0);
  } else {
    fail_unless_equals_int (n, 1);
    fail_unless (text && strstr (text, "CPU") != NULL,
        "the warning should say that the CPU backend is used: %s", text);
  }
  g_free (text);

  gst_harness_teardown (h);
  /* a second start warns once more, not twice */
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_WARNING, NULL),
      have_device ? 0 : 1);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR, NULL), 0);

  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

/* backend=cuda without a device: start fails with an error naming why */
GST_START_TEST (test_backend_cuda_without_device)
{
  GstElement *e;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL;
  const char *reason;

  if (cm_device_count () > 0) {
    GST_INFO ("a CUDA device is present: nothing to test here");
    return;
  }
  reason = cm_status_string (cm_have_cuda ()? CM_ERR_NO_DEVICE :
      CM_ERR_NO_CUDA);

  e = morph_element_new ("cuda", NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);

  msg = test_start_fails (e, bus);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (e));
  gst_message_parse_error (msg, &err, &debug);
  fail_unless (err->domain == GST_RESOURCE_ERROR);
  fail_unless (strstr (err->message, "backend=cuda") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, reason) != NULL,
      "the error should name the reason \"%s\": %s", reason, err->message);
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);
  test_element_stop (e, bus);
}

GST_END_TEST;

static const struct
{
  const char *name;
  const char *def;              /* default, serialised */
  double min, max;              /* numeric range, 0/0: not numeric */
  const char *nicks;            /* enum nicks, in order */
} expected_props[] = {
  {"operation", "erode", 0, 0,
        "erode,dilate,open,close,tophat,blackhat,gradient,fill-holes,"
        "clear-border,open-rec,close-rec,hmax,hmin,hdome,hbasin,area-open,"
        "area-close"},
  {"shape", "rect", 0, 0, "rect,cross,diamond,disk,octagon,line,custom"},
  {"width", "3", 1, 1023, NULL},
  {"height", "3", 1, 1023, NULL},
  {"radius", "1", 0, 511, NULL},
  {"length", "15", 1, 1023, NULL},
  {"angle", "0", -360, 360, NULL},
  {"mask", "010;111;010", 0, 0, NULL},
  {"iterations", "1", 1, 64, NULL},
  {"border", "neutral", 0, 0, "neutral,replicate,reflect,mirror,constant"},
  {"border-value", "0", 0, 65535, NULL},
  {"connectivity", "8", 4, 8, NULL},
  {"dome-height", "10", 0, 65535, NULL},
  {"min-area", "64", 0, G_MAXUINT, NULL},
  {"backend", "auto", 0, 0, "auto,cuda,cpu"},
  {"cuda-device-id", "-1", -1, G_MAXINT16, NULL},
};

static gchar *
enum_nicks (GParamSpec * pspec)
{
  GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < klass->n_values; i++)
    g_string_append_printf (s, "%s%s", i ? "," : "",
        klass->values[i].value_nick);
  return g_string_free (s, FALSE);
}

static void
range_of (GParamSpec * pspec, double *min, double *max)
{
  *min = *max = 0;
  if (G_IS_PARAM_SPEC_INT (pspec)) {
    *min = G_PARAM_SPEC_INT (pspec)->minimum;
    *max = G_PARAM_SPEC_INT (pspec)->maximum;
  } else if (G_IS_PARAM_SPEC_UINT (pspec)) {
    *min = G_PARAM_SPEC_UINT (pspec)->minimum;
    *max = G_PARAM_SPEC_UINT (pspec)->maximum;
  } else if (G_IS_PARAM_SPEC_DOUBLE (pspec)) {
    *min = G_PARAM_SPEC_DOUBLE (pspec)->minimum;
    *max = G_PARAM_SPEC_DOUBLE (pspec)->maximum;
  }
}

/* what gst-inspect-1.0 shows: every property documented, ranges and
 * defaults as specified, metadata and pad templates */
GST_START_TEST (test_inspect)
{
  GstElementFactory *factory = gst_element_factory_find ("cudamorph");
  GstElement *e;
  GParamSpec **props;
  guint n_props, found = 0;
  const char *key;

  fail_unless (factory != NULL);
  for (guint i = 0; i < 4; i++) {
    const char *keys[] = { GST_ELEMENT_METADATA_LONGNAME,
      GST_ELEMENT_METADATA_KLASS, GST_ELEMENT_METADATA_DESCRIPTION,
      GST_ELEMENT_METADATA_AUTHOR
    };
    key = gst_element_factory_get_metadata (factory, keys[i]);
    fail_unless (key != NULL && strlen (key) > 3, "metadata %s", keys[i]);
  }
  fail_unless (strstr (gst_element_factory_get_metadata (factory,
              GST_ELEMENT_METADATA_KLASS), "Filter") != NULL);

  /* pad templates: every format, both pads */
  for (const GList * l = gst_element_factory_get_static_pad_templates
      (factory); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    GstCaps *tcaps = gst_static_pad_template_get_caps (t);

    for (int f = 0; f < MORPH_N_FORMATS; f++) {
      gchar *s = g_strdup_printf ("video/x-raw,format=%s,width=1,height=1,"
          "framerate=0/1", morph_format (f));
      GstCaps *caps = gst_caps_from_string (s);

      fail_unless (gst_caps_can_intersect (tcaps, caps), "%s pad lacks %s",
          t->name_template, morph_format (f));
      gst_caps_unref (caps);
      g_free (s);
    }
    gst_caps_unref (tcaps);
  }
  fail_unless_equals_int (gst_element_factory_get_num_pad_templates (factory),
      2);

  e = gst_element_factory_create (factory, NULL);
  props = g_object_class_list_properties (G_OBJECT_GET_CLASS (e), &n_props);
  for (guint i = 0; i < n_props; i++) {
    GParamSpec *pspec = props[i];
    const char *blurb = g_param_spec_get_blurb (pspec);
    const char *nick = g_param_spec_get_nick (pspec);

    if (pspec->owner_type == GST_TYPE_OBJECT ||
        pspec->owner_type == GST_TYPE_BASE_TRANSFORM)
      continue;

    fail_unless (blurb != NULL && strlen (blurb) >= 30 &&
        g_strcmp0 (blurb, nick) != 0, "property %s has no real blurb",
        pspec->name);
    fail_unless ((pspec->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE,
        "%s", pspec->name);

    for (guint j = 0; j < G_N_ELEMENTS (expected_props); j++) {
      const GValue *dv;
      gchar *def;
      double min, max;

      if (strcmp (expected_props[j].name, pspec->name) != 0)
        continue;
      found++;

      dv = g_param_spec_get_default_value (pspec);
      if (G_VALUE_HOLDS_STRING (dv))
        def = g_value_dup_string (dv);
      else if (G_VALUE_HOLDS_ENUM (dv))
        def = g_strdup (g_enum_get_value (G_PARAM_SPEC_ENUM (pspec)->
                enum_class, g_value_get_enum (dv))->value_nick);
      else
        def = gst_value_serialize (dv);
      fail_unless_equals_string (def, expected_props[j].def);
      g_free (def);

      range_of (pspec, &min, &max);
      fail_unless (min == expected_props[j].min &&
          max == expected_props[j].max, "%s range %g..%g", pspec->name, min,
          max);

      if (expected_props[j].nicks) {
        gchar *nicks = enum_nicks (pspec);

        fail_unless_equals_string (nicks, expected_props[j].nicks);
        g_free (nicks);
      }

      /* the filter's properties can change while PLAYING, the backend's
       * only in READY */
      if (strcmp (pspec->name, "backend") == 0 ||
          strcmp (pspec->name, "cuda-device-id") == 0)
        fail_unless (pspec->flags & GST_PARAM_MUTABLE_READY, "%s",
            pspec->name);
      else
        fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING, "%s",
            pspec->name);
    }
  }
  fail_unless_equals_int (found, G_N_ELEMENTS (expected_props));

  g_free (props);
  gst_object_unref (e);
  gst_object_unref (factory);
}

GST_END_TEST;

/* A structuring-element property set away from its default that the
 * shape (or the operation) does not read: one warning on the bus naming
 * it and what takes effect, once per property however often the filter
 * is made again; nothing for defaults or properties in use. */
GST_START_TEST (test_unused_properties)
{
  static const struct
  {
    const char *props;
    const char *expect;         /* the warning, NULL: none */
  } cases[] = {
    {"shape=rect width=5 height=7", NULL},
    {"shape=rect radius=7", "radius is set but has no effect: shape=rect "
          "reads width and height"},
    {"shape=disk radius=3 mask=11;11", "mask is set but has no effect: "
          "shape=disk reads radius"},
    {"shape=line length=9 angle=30 width=9", "width is set but has no "
          "effect: shape=line reads length and angle"},
    {"shape=custom mask=111 length=5", "length is set but has no effect: "
          "shape=custom reads mask"},
    {"operation=fill-holes radius=4", "radius is set but has no effect: "
          "operation=fill-holes uses no structuring element"},
    {"operation=open-rec shape=disk radius=4", NULL},
    {"operation=area-open width=5", "width is set but has no effect: "
          "operation=area-open uses no structuring element"},
    {"operation=area-close shape=custom mask=111", "mask is set but has no "
          "effect: operation=area-close uses no structuring element"},
    {"operation=area-open min-area=5 connectivity=4 dome-height=3", NULL},
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    GstElement *e = test_element_new ("cudamorph", "cpu");
    GstBus *bus = gst_bus_new ();
    GstVideoInfo info;
    GstHarness *h;
    GstMessage *msg;
    guint warnings = 0;

    test_element_set_args (e, cases[c].props);
    gst_element_set_bus (e, bus);
    h = morph_harness_new (e);
    morph_harness_set_caps (h, "GRAY8", 32, 24, &info);
    for (int frame = 0; frame < 3; frame++) {
      GstBuffer *in = morph_make_input (&info, 40 + frame, 0), *out;

      /* the filter made again (another property changed): still once */
      if (frame == 2)
        g_object_set (e, "border-value", 3, NULL);
      out = gst_harness_push_and_pull (h, in);
      fail_unless (out != NULL, "%s: no frame", cases[c].props);
      gst_buffer_unref (out);
    }
    while ((msg = test_bus_pop_filtered (bus, GST_MESSAGE_WARNING))) {
      GError *err = NULL;

      gst_message_parse_warning (msg, &err, NULL);
      fail_unless (cases[c].expect != NULL, "%s: unexpected warning %s",
          cases[c].props, err->message);
      fail_unless_equals_string (err->message, cases[c].expect);
      warnings++;
      g_error_free (err);
      gst_message_unref (msg);
    }
    fail_unless_equals_int (warnings, cases[c].expect != NULL ? 1 : 0);
    gst_harness_teardown (h);
    gst_element_set_bus (e, NULL);
    gst_object_unref (bus);
    gst_object_unref (e);
  }
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_inspect),
  TEST_SUITE_TEST (test_invalid_values),
  TEST_SUITE_TEST (test_backend_auto),
  TEST_SUITE_TEST (test_backend_cuda_without_device),
  TEST_SUITE_TEST (test_unused_properties),
  {NULL}
};

TEST_SUITE_MAIN (cudamorph_properties, "cudamorph-properties", 300,
    suite_tests);

