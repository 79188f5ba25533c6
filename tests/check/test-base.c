/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the base class gives every element, on the CPU backend: QoS on by
 * default (late frames are dropped and reported, as GStreamer's video
 * filters do), interlaced caps refused with an error that says what to
 * do, and the input's metas kept on the output unless they depend on its
 * memory (or on its colour space, when the format changes), for
 * cudamorph, cudamedian and cudalinspectrum alike. */
#include "cudamorph-harness.h"

static const char *const elements[] = {
  "cudamorph", "cudamedian", "cudalinspectrum"
};

static GstElement *
element_new (const char *name)
{
  GstElement *e = gst_element_factory_make (name, NULL);

  fail_unless (e != NULL, "cannot create %s: is GST_PLUGIN_PATH set to the "
      "build's gst/ directory?", name);
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  return e;
}

GST_START_TEST (test_qos_default)
{
  for (guint i = 0; i < G_N_ELEMENTS (elements); i++) {
    GstElement *e = element_new (elements[i]);
    gboolean qos = FALSE;

    g_object_get (e, "qos", &qos, NULL);
    fail_unless (qos, "%s: QoS off by default", elements[i]);
    gst_object_unref (e);
  }
}

GST_END_TEST;

GST_START_TEST (test_interlaced_refused)
{
  for (guint i = 0; i < G_N_ELEMENTS (elements); i++) {
    GstElement *e = element_new (elements[i]);
    GstBus *bus = gst_bus_new ();
    GstHarness *h;
    GstMessage *msg;
    GError *err = NULL;
    GstVideoInfo info;
    GstBuffer *buf;

    gst_element_set_bus (e, bus);
    h = gst_harness_new_with_element (e, "sink", "src");
    gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=32,"
        "height=16,framerate=30/1,interlace-mode=interleaved");
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 32, 16);
    buf = morph_make_input (&info, 5, 0);
    fail_unless_equals_int (gst_harness_push (h, buf),
        GST_FLOW_NOT_NEGOTIATED);
    msg = test_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "%s: no error for interlaced caps",
        elements[i]);
    gst_message_parse_error (msg, &err, NULL);
    fail_unless (strstr (err->message, "deinterlace") != NULL,
        "%s: the error does not say what to do: %s", elements[i],
        err->message);
    g_clear_error (&err);
    gst_message_unref (msg);
    gst_harness_teardown (h);
    while ((msg = gst_bus_pop (bus)) != NULL)
      gst_message_unref (msg);
    gst_element_set_bus (e, NULL);
    gst_object_unref (bus);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* ---- metas ---------------------------------------------------------- */

/* A meta of the given tags that copies itself. */
static gboolean
test_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  return TRUE;
}

static gboolean
test_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  return gst_buffer_add_meta (dest, meta->info, NULL) != NULL;
}

static const GstMetaInfo *
test_meta_info (const char *name, const gchar ** tags)
{
  gchar *api_name = g_strdup_printf ("%sAPI", name);
  GType api = gst_meta_api_type_register (api_name, tags);
  const GstMetaInfo *info = gst_meta_register (api, name, sizeof (GstMeta),
      test_meta_init, NULL, test_meta_transform);

  g_free (api_name);
  return info;
}

static gboolean
has_meta (GstBuffer * buf, GType api)
{
  return gst_buffer_get_meta (buf, api) != NULL;
}

GST_START_TEST (test_metas_kept)
{
  static const gchar *memory_tags[] = { GST_META_TAG_MEMORY_STR, NULL };
  static const gchar *colour_tags[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_COLORSPACE_STR, NULL
  };
  const GstMetaInfo *memory_meta = test_meta_info ("TestMemoryMeta",
      memory_tags);
  const GstMetaInfo *colour_meta = test_meta_info ("TestColourMeta",
      colour_tags);
  /* element, and cudalinspectrum's output (NULL: the element's default) */
  static const char *const cases[][2] = {
    {"cudamorph", NULL}, {"cudamedian", NULL},
    {"cudalinspectrum", "supremum"}, {"cudalinspectrum", "orientation"}
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstElement *e = element_new (cases[i][0]);
    gboolean converts = cases[i][1] && !strcmp (cases[i][1], "orientation");
    gchar *what = g_strdup_printf ("%s%s%s", cases[i][0],
        cases[i][1] ? " output=" : "", cases[i][1] ? cases[i][1] : "");
    GstVideoInfo info;
    GstBuffer *in, *out;
    GstHarness *h;
    gfloat matrix[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    GstVideoAffineTransformationMeta *affine;

    if (cases[i][1])
      gst_util_set_object_arg (G_OBJECT (e), "output", cases[i][1]);
    h = gst_harness_new_with_element (e, "sink", "src");
    gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=64,"
        "height=32,framerate=30/1");
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 32);
    in = morph_make_input (&info, 11 + i, 0);
    gst_buffer_add_video_region_of_interest_meta (in, "defect", 3, 4, 20,
        10);
    affine = gst_buffer_add_video_affine_transformation_meta (in);
    gst_video_affine_transformation_meta_apply_matrix (affine, matrix);
    gst_buffer_add_meta (in, memory_meta, NULL);
    gst_buffer_add_meta (in, colour_meta, NULL);

    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL, "%s: no output", what);
    fail_unless (has_meta (out, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE),
        "%s: the region of interest was dropped", what);
    fail_unless (has_meta (out,
            GST_VIDEO_AFFINE_TRANSFORMATION_META_API_TYPE),
        "%s: the affine transformation was dropped", what);
    fail_if (has_meta (out, memory_meta->api), "%s: a meta about the "
        "input's memory was copied", what);
    fail_unless (has_meta (out, colour_meta->api) == !converts,
        "%s: a colour-space meta was %s", what, converts ? "kept although "
        "the format changed" : "dropped although the format is the same");
    gst_buffer_unref (out);
    gst_harness_teardown (h);
    gst_object_unref (e);
    g_free (what);
  }
}

GST_END_TEST;

static Suite *
base_suite (void)
{
  Suite *s = suite_create ("base");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_qos_default);
  tcase_add_test (tc, test_interlaced_refused);
  tcase_add_test (tc, test_metas_kept);
  return s;
}

GST_CHECK_MAIN (base);
