/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudablobs element tests on the CPU backend (GstHarness, CK_FORK=no):
 * its properties (documented, defaults, ranges, refusals on the bus), a
 * threshold above the depth clamped with one warning, the area limits
 * checked together (kept with one warning, an error at start), interval
 * and post-messages, attach-meta, the meta read by name as an
 * application reads it, and changes while PLAYING from the next frame. */
#include <string.h>

#include "blobs-harness.h"
#include "blobs-cases.h"
#include "check-helpers.h"
#include "element-harness.h"
#include "padded-frames.h"
#include "test-suite.h"

static const char *const props[] = {
  "threshold", "invert", "connectivity", "min-area", "max-area",
  "exclude-border", "max-blobs", "output", "post-messages", "interval",
  "attach-meta", "roi", "roi-meta", "backend", "cuda-device-id",
};

GST_START_TEST (test_properties)
{
  GstElement *e = test_element_new ("cudablobs", "cpu");

  check_properties_documented (e, props, G_N_ELEMENTS (props), 40);
  check_properties_equal (e, "threshold", 128, "invert", FALSE,
      "connectivity", 8, "min-area", 1, "max-area", 0, "exclude-border",
      FALSE, "max-blobs", 256, "post-messages", TRUE, "interval", 1,
      "attach-meta", TRUE, NULL);
  {
    gint output;

    g_object_get (e, "output", &output, NULL);
    fail_unless_equals_int (output, 0);
  }
  /* GLib's ranges */
  test_expect_int_refused (e, "connectivity", 9, 8);
  test_expect_int_refused (e, "connectivity", 3, 8);
  test_expect_int_refused (e, "threshold", 65536, 128);
  test_expect_int_refused (e, "interval", 0, 1);
  /* the element's: 5, 6, 7 */
  ASSERT_WARNING (gst_util_set_object_arg (G_OBJECT (e), "connectivity",
          "6"));
  check_properties_equal (e, "connectivity", 8, NULL);
  g_object_set (e, "connectivity", 4, NULL);
  check_properties_equal (e, "connectivity", 4, NULL);
  gst_object_unref (e);
}

GST_END_TEST;

/* @caps_str accepted by @e's sink pad */
static gboolean
sink_accepts (GstElement * e, const char *caps_str)
{
  GstPad *pad = gst_element_get_static_pad (e, "sink");
  GstCaps *caps = gst_caps_from_string (caps_str);
  gboolean ok = gst_pad_query_accept_caps (pad, caps);

  gst_caps_unref (caps);
  gst_object_unref (pad);
  return ok;
}

/* The formats of the templates, RGB refused; the source pad offers
 * GRAY16_LE for labels and the input's format otherwise */
GST_START_TEST (test_caps)
{
  static const char *const ok[] = { "GRAY8", "GRAY16_LE", "I420", "NV12",
    "Y444"
  };
  static const char *const refused[] = { "RGBA", "BGRx", "YUY2", "P010_10LE" };
  GstElement *e = test_element_new ("cudablobs", "cpu");
  GstHarness *h;
  GstCaps *in, *out, *want;

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++) {
    gchar *c = g_strdup_printf ("video/x-raw,format=%s,width=64,height=48,"
        "framerate=30/1", ok[i]);

    fail_unless (sink_accepts (e, c), "%s refused", ok[i]);
    g_free (c);
  }
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++) {
    gchar *c = g_strdup_printf ("video/x-raw,format=%s,width=64,height=48,"
        "framerate=30/1", refused[i]);

    fail_if (sink_accepts (e, c), "%s accepted", refused[i]);
    g_free (c);
  }

  /* what the source pad offers for NV12 in, by output */
  in = gst_caps_from_string ("video/x-raw,format=NV12,width=64,height=48,"
      "framerate=30/1");
  gst_util_set_object_arg (G_OBJECT (e), "output", "labels");
  out = GST_BASE_TRANSFORM_GET_CLASS (e)->transform_caps (GST_BASE_TRANSFORM
      (e), GST_PAD_SINK, in, NULL);
  want = gst_caps_from_string ("video/x-raw,format=GRAY16_LE");
  fail_unless (gst_caps_can_intersect (out, want), "labels: %"
      GST_PTR_FORMAT, out);
  gst_caps_unref (want);
  want = gst_caps_from_string ("video/x-raw,format=NV12");
  fail_if (gst_caps_can_intersect (out, want), "labels offer NV12: %"
      GST_PTR_FORMAT, out);
  gst_caps_unref (out);
  gst_util_set_object_arg (G_OBJECT (e), "output", "mask");
  out = GST_BASE_TRANSFORM_GET_CLASS (e)->transform_caps (GST_BASE_TRANSFORM
      (e), GST_PAD_SINK, in, NULL);
  fail_unless (gst_caps_can_intersect (out, want));
  gst_caps_unref (want);
  want = gst_caps_from_string ("video/x-raw,format=GRAY16_LE");
  fail_if (gst_caps_can_intersect (out, want), "mask offers GRAY16_LE");
  gst_caps_unref (want);
  gst_caps_unref (out);
  gst_caps_unref (in);

  /* RGBA upstream: not negotiated */
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_harness_set_src_caps_str (h, "video/x-raw,format=RGBA,width=8,"
      "height=8,framerate=30/1");
  fail_unless (gst_harness_push (h, gst_buffer_new_allocate (NULL, 256,
              NULL)) == GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

typedef struct
{
  GstElement *e;
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo info;
} Run;

static void
run_start (Run * r, const char *format, int w, int h, const char *args)
{
  r->e = test_element_new ("cudablobs", "cpu");
  test_element_set_args (r->e, args);
  r->bus = gst_bus_new ();
  gst_element_set_bus (r->e, r->bus);
  r->h = gst_harness_new_with_element (r->e, "sink", "src");
  morph_harness_set_caps (r->h, format, w, h, &r->info);
}

/* a frame of discs through @r; its blobs under @d (threshold @t) in
 * *@want; the output */
static GstBuffer *
run_push (Run * r, guint64 seed, const cm_blobs_desc * d,
    BlobsExpected * want, GstBuffer ** in)
{
  guint t;
  GstBuffer *out;

  *in = blobs_make_input (&r->info, BLOBS_DISCS, 10, seed, 0, &t);
  blobs_expected_compute (want, d, *in, &r->info, NULL, 0);
  out = gst_harness_push_and_pull (r->h, gst_buffer_ref (*in));
  fail_unless (out != NULL);
  return out;
}

static guint
count_warnings (GstBus * bus, const char *name)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = test_bus_pop_filtered (bus, GST_MESSAGE_WARNING))) {
    GError *err = NULL;

    gst_message_parse_warning (msg, &err, NULL);
    fail_unless (strstr (err->message, name) != NULL,
        "warning does not name %s: %s", name, err->message);
    g_clear_error (&err);
    gst_message_unref (msg);
    n++;
  }
  return n;
}

static void
drain_messages (GstBus * bus)
{
  GstMessage *msg;

  while ((msg = blobs_pop_message (bus, NULL)) != NULL)
    gst_message_unref (msg);
}

/* threshold 300 on 8-bit frames: 255, one warning however many frames;
 * on GRAY16_LE the same value is a value like any other */
GST_START_TEST (test_threshold_clamped)
{
  Run r;
  cm_blobs_desc d;

  run_start (&r, "GRAY8", 31, 17, "threshold=300");
  blobs_desc_from_element (r.e, CM_DEPTH_8, &d);
  fail_unless_equals_int (d.threshold, 255);
  for (guint i = 0; i < 3; i++) {
    BlobsExpected want;
    GstBuffer *in, *out = run_push (&r, 900 + i, &d, &want, &in);

    fail_unless (blobs_structure_equal (blobs_meta_structure (out), TRUE,
            &want, "threshold 300 on GRAY8"));
    blobs_expected_clear (&want);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_unless_equals_int (count_warnings (r.bus, "threshold"), 1);
  test_element_teardown (r.h, r.e, r.bus);

  run_start (&r, "GRAY16_LE", 31, 17, "threshold=300");
  blobs_desc_from_element (r.e, CM_DEPTH_16, &d);
  fail_unless_equals_int (d.threshold, 300);
  {
    BlobsExpected want;
    GstBuffer *in, *out = run_push (&r, 910, &d, &want, &in);

    fail_unless (blobs_structure_equal (blobs_meta_structure (out), TRUE,
            &want, "threshold 300 on GRAY16_LE"));
    blobs_expected_clear (&want);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_unless_equals_int (count_warnings (r.bus, "threshold"), 0);
  test_element_teardown (r.h, r.e, r.bus);
}

GST_END_TEST;

/* min-area and max-area are taken together at the next frame: a pair
 * made valid in either order is used; an invalid one keeps the limits in
 * use with one warning; starting with one is an error. */
GST_START_TEST (test_area_limits)
{
  Run r;
  cm_blobs_desc d;
  BlobsExpected want;
  GstBuffer *in, *out;
  GstElement *e;
  GstStateChangeReturn ret;

  run_start (&r, "GRAY8", 40, 30, "min-area=2 max-area=20");
  /* through an invalid pair (max 20 < min 30) to a valid one */
  g_object_set (r.e, "min-area", 30, "max-area", 60, NULL);
  blobs_desc_from_element (r.e, CM_DEPTH_8, &d);
  out = run_push (&r, 1000, &d, &want, &in);
  fail_unless (blobs_structure_equal (blobs_meta_structure (out), TRUE,
          &want, "min-area 30, max-area 60"));
  blobs_expected_clear (&want);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  fail_unless_equals_int (count_warnings (r.bus, "area"), 0);

  /* invalid: the limits in use stay, one warning for two frames */
  g_object_set (r.e, "max-area", 10, NULL);
  for (guint i = 0; i < 2; i++) {
    out = run_push (&r, 1001 + i, &d, &want, &in);
    fail_unless (blobs_structure_equal (blobs_meta_structure (out), TRUE,
            &want, "max-area 10 below min-area 30: 30..60 kept"));
    blobs_expected_clear (&want);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_unless_equals_int (count_warnings (r.bus, "area"), 1);
  test_element_teardown (r.h, r.e, r.bus);

  /* none valid yet: the element does not start */
  e = test_element_new ("cudablobs", "cpu");
  g_object_set (e, "min-area", 50, "max-area", 5, NULL);
  {
    GstBus *bus = gst_bus_new ();
    GstMessage *msg;

    gst_element_set_bus (e, bus);
    ret = gst_element_set_state (e, GST_STATE_PAUSED);
    fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);
    msg = test_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "no error for max-area below min-area");
    gst_message_unref (msg);
    gst_element_set_state (e, GST_STATE_NULL);
    gst_element_set_bus (e, NULL);
    gst_object_unref (bus);
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* interval 3: messages on frames 0, 3, 6; every buffer its own meta;
 * post-messages off: none; attach-meta off: no meta, the input pushed;
 * max-blobs changed while PLAYING: from the next frame. */
GST_START_TEST (test_interval_meta)
{
  Run r;
  cm_blobs_desc d;

  run_start (&r, "I420", 35, 21, "interval=3");
  for (guint i = 0; i < 10; i++) {
    BlobsExpected want;
    GstBuffer *in, *out;
    GstMessage *msg;
    gchar *what = g_strdup_printf ("interval 3, frame %u", i);

    if (i == 7)
      g_object_set (r.e, "post-messages", FALSE, "max-blobs", 2, NULL);
    blobs_desc_from_element (r.e, CM_DEPTH_8, &d);
    out = run_push (&r, 1100 + i, &d, &want, &in);
    fail_unless (blobs_structure_equal (blobs_meta_structure (out), TRUE,
            &want, what), "%s: meta", what);
    /* a frame not reported has nothing to wait for; a message for it
     * that came late would be taken by the next wait (another frame's
     * blobs) or found after the EOS below */
    msg = i % 3 == 0 && i < 7 ? blobs_wait_message (r.bus, NULL) :
        blobs_pop_message (r.bus, NULL);
    if (i % 3 == 0 && i < 7) {
      fail_unless (msg != NULL, "%s: no message", what);
      fail_unless (blobs_structure_equal (gst_message_get_structure (msg),
              FALSE, &want, what), "%s: message", what);
      gst_message_unref (msg);
    } else {
      fail_unless (msg == NULL, "%s: a message", what);
    }
    blobs_expected_clear (&want);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    g_free (what);
  }
  fail_unless_equals_int (blobs_flush_messages (r.h, r.bus), 0);

  g_object_set (r.e, "attach-meta", FALSE, "post-messages", TRUE,
      "interval", 1, NULL);
  {
    GstBuffer *in = morph_make_input (&r.info, 1200, 0);
    GstBuffer *out = gst_harness_push_and_pull (r.h, in);

    fail_unless (out == in, "attach-meta off: another buffer");
    fail_unless_equals_int (blobs_meta_count (out), 0);
    gst_buffer_unref (out);
  }
  drain_messages (r.bus);
  test_element_teardown (r.h, r.e, r.bus);
}

GST_END_TEST;

/* The custom meta is registered when the element's class is, readable by
 * name; a copy of the buffer keeps it, and a second pass adds its own.
 * (Not through its string form: GStreamer writes a GBytes as base64
 * without quotes, and does not parse back the '=' of its padding.) */
GST_START_TEST (test_meta_by_name)
{
  Run r;
  cm_blobs_desc d;
  BlobsExpected want;
  GstBuffer *in, *out, *copy, *out2;

  run_start (&r, "NV12", 27, 19, "connectivity=4");
  fail_unless (gst_meta_get_info (BLOBS_META_NAME) != NULL);
  blobs_desc_from_element (r.e, CM_DEPTH_8, &d);
  out = run_push (&r, 1300, &d, &want, &in);
  fail_unless (want.count > 0, "the frame has no blobs");
  copy = gst_buffer_copy (out);
  fail_unless (blobs_structure_equal (blobs_meta_structure (copy), TRUE,
          &want, "meta of a copy"));
  out2 = gst_harness_push_and_pull (r.h, gst_buffer_ref (copy));
  fail_unless (out2 != NULL);
  fail_unless_equals_int (blobs_meta_count (out2), 2);
  gst_buffer_unref (out2);
  blobs_expected_clear (&want);
  gst_buffer_unref (copy);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  drain_messages (r.bus);
  test_element_teardown (r.h, r.e, r.bus);
}

GST_END_TEST;

#ifdef HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>

/* The "blob" object-detection entries of @buf's relation meta: how many,
 * each box checked against @want's in order */
static guint
check_od_entries (GstBuffer * buf, const BlobsExpected * want)
{
  GstAnalyticsRelationMeta *rmeta = gst_buffer_get_analytics_relation_meta
      (buf);
  GQuark blob = g_quark_from_string ("blob");
  gpointer state = NULL;
  GstAnalyticsMtd mtd;
  guint n = 0;

  if (rmeta == NULL)
    return 0;
  while (gst_analytics_relation_meta_iterate (rmeta, &state,
          gst_analytics_od_mtd_get_mtd_type (), &mtd)) {
    gint x, y, w, h;
    gfloat conf;

    fail_unless (gst_analytics_od_mtd_get_obj_type (&mtd) == blob);
    fail_unless (gst_analytics_od_mtd_get_location (&mtd, &x, &y, &w, &h,
            &conf));
    fail_unless (n < want->count, "more entries than blobs");
    fail_unless (x == (gint) g_array_index (want->x, guint32, n) &&
        y == (gint) g_array_index (want->y, guint32, n) &&
        w == (gint) g_array_index (want->width, guint32, n) &&
        h == (gint) g_array_index (want->height, guint32, n),
        "entry %u: box differs", n);
    n++;
  }
  return n;
}

/* GStreamer >= 1.24: one "blob" entry per reported blob, its box; with
 * max-blobs=0 at most 4096 (the custom meta has them all) */
GST_START_TEST (test_analytics)
{
  Run r;
  cm_blobs_desc d;
  BlobsExpected want;
  GstBuffer *in, *out;
  guint t;

  run_start (&r, "GRAY8", 57, 41, "connectivity=4");
  blobs_desc_from_element (r.e, CM_DEPTH_8, &d);
  out = run_push (&r, 1400, &d, &want, &in);
  fail_unless (want.count > 0);
  fail_unless_equals_int (check_od_entries (out, &want), want.count);
  blobs_expected_clear (&want);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  test_element_teardown (r.h, r.e, r.bus);

  run_start (&r, "GRAY8", 128, 128, "connectivity=4 max-blobs=0");
  in = blobs_make_input (&r.info, BLOBS_CHECKER, 1, 1401, 0, &t);
  g_object_set (r.e, "threshold", t, NULL);
  blobs_desc_from_element (r.e, CM_DEPTH_8, &d);
  blobs_expected_compute (&want, &d, in, &r.info, NULL, 0);
  fail_unless_equals_int (want.count, 8192);
  out = gst_harness_push_and_pull (r.h, gst_buffer_ref (in));
  fail_unless_equals_int (check_od_entries (out, &want), 4096);
  fail_unless (blobs_structure_equal (blobs_meta_structure (out), TRUE,
          &want, "8192 blobs in the custom meta"));
  blobs_expected_clear (&want);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  drain_messages (r.bus);
  test_element_teardown (r.h, r.e, r.bus);
}

GST_END_TEST;
#endif

static const TestSuiteEntry tests[] = {
  TEST_SUITE_TEST (test_properties),
  TEST_SUITE_TEST (test_caps),
  TEST_SUITE_TEST (test_threshold_clamped),
  TEST_SUITE_TEST (test_area_limits),
  TEST_SUITE_TEST (test_interval_meta),
  TEST_SUITE_TEST (test_meta_by_name),
#ifdef HAVE_GST_ANALYTICS
  TEST_SUITE_TEST (test_analytics),
#endif
  {NULL}
};

TEST_SUITE_MAIN (cudablobs_properties, "cudablobs-properties", 0, tests);
