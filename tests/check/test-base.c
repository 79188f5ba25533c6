/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the base class gives every element, on the CPU backend: QoS on by
 * default (late frames are dropped and reported, as GStreamer's video
 * filters do) and interlaced caps refused with an error that says what to
 * do, for cudamorph, cudamedian and cudalinspectrum alike. */
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

static Suite *
base_suite (void)
{
  Suite *s = suite_create ("base");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_qos_default);
  tcase_add_test (tc, test_interlaced_refused);
  return s;
}

GST_CHECK_MAIN (base);
