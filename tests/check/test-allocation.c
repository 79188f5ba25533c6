/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Output buffer pools on the CPU backend (decide_allocation): a pool that
 * downstream offers but that refuses the element's configuration (here an
 * active one) is replaced by a video pool of the element's own, nothing of
 * the refused configuration leaks, and the replacement still puts a
 * GstVideoMeta on its buffers when downstream said it reads one. */
#include "element-harness.h"
#include "frame-compare.h"
#include "padded-frames.h"
#include "test-suite.h"

/* the pool the harness's sink pad offers in the allocation query */
static GstBufferPool *offered_pool;
static GstPadQueryFunction harness_query;

static gboolean
offer_pool_query (GstPad * pad, GstObject * parent, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION) {
    gst_query_add_allocation_pool (query, offered_pool, 4096, 0, 0);
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
    return TRUE;
  }
  return harness_query (pad, parent, query);
}

/* An active pool configured for @caps: set_config on it always fails. */
static GstBufferPool *
active_pool_new (GstCaps * caps)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, 4096, 0, 0);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  return pool;
}

GST_START_TEST (test_refused_pool_config)
{
  MorphParams p = MORPH_PARAMS_DEFAULT;
  GstCaps *pool_caps = gst_caps_from_string ("video/x-raw,format=GRAY8,"
      "width=64,height=64,framerate=30/1");
  GstElement *e = morph_element_new ("cpu", &p);
  GstHarness *h = morph_harness_new (e);
  GstVideoInfo info;
  const char *formats[] = { "GRAY8", "NV12", "RGBA" };

  offered_pool = active_pool_new (pool_caps);
  harness_query = GST_PAD_QUERYFUNC (h->sinkpad);
  gst_pad_set_query_function (h->sinkpad, offer_pool_query);

  /* three negotiations, each refused by the offered pool */
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstBuffer *in, *out;

    morph_harness_set_caps (h, formats[f], 33, 17, &info);
    in = morph_make_input (&info, 7 + f, 24);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    fail_unless (out != NULL, "%s: no output", formats[f]);
    fail_unless (gst_buffer_get_video_meta (out) != NULL, "%s: the "
        "element's own pool gives no GstVideoMeta, though downstream reads "
        "it", formats[f]);
    fail_unless (morph_check_output (in, out, &info, &p, formats[f]));
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_harness_teardown (h);
  gst_object_unref (e);

  fail_unless (gst_buffer_pool_set_active (offered_pool, FALSE));
  gst_object_unref (offered_pool);
  /* every configuration copied from the offered pool held a reference to
   * its caps: only ours is left when none leaked */
  fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (pool_caps), 1);
  gst_caps_unref (pool_caps);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_refused_pool_config),
  {NULL}
};

TEST_SUITE_MAIN (allocation, "allocation", 0, suite_tests);
