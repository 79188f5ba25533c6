/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What an application sees of the values the elements refuse, on the CPU
 * backend: a WARNING on the bus that names the property, whether the
 * value was set before the element had a bus (posted when it goes to
 * READY) or while PLAYING; and what a setter does with a value the
 * element already has: nothing to rebuild (a control binding whose value
 * does not move sets the same way), and cudalinspectrum's interval
 * counts frames whatever the sizes of the regions. */
#include <math.h>
#include <string.h>

#include "element-harness.h"
#include "padded-frames.h"

typedef struct
{
  const char *element;
  const char *property;
  const char *value;            /* as gst-launch-1.0 gives it */
} Refusal;

static const Refusal refusals[] = {
  {"cudamorph", "mask", "01;1"},
  {"cudamorph", "connectivity", "6"},
  {"cudamorph", "min-area", "0"},
  {"cudamorph", "roi", "<1,2,3>"},
  {"cudamedian", "size", "4"},
  {"cudamedian", "roi", "<0,0,-1,5>"},
  {"cudalinspectrum", "angle-step", "0"},
  {"cudalinspectrum", "roi", "<1,2,3>"},
  {"cudablobs", "connectivity", "7"},
  {"cudablobs", "roi", "<0,0,-1,5>"},
  {"cudatemporal", "roi", "<1,2,3>"},
};

/* The next WARNING on @bus within a second names @property. */
static void
expect_bus_warning (GstBus * bus, const Refusal * r)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, GST_SECOND,
      GST_MESSAGE_WARNING);
  GError *err = NULL;

  fail_unless (msg != NULL, "%s %s=%s: no warning on the bus", r->element,
      r->property, r->value);
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, r->property) != NULL,
      "%s %s=%s: the warning does not name the property: %s", r->element,
      r->property, r->value, err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
}

static void
set_refused (GstElement * e, const Refusal * r)
{
  ASSERT_WARNING (gst_util_set_object_arg (G_OBJECT (e), r->property,
          r->value));
}

/* set as gst_parse_launch () sets it: the element has no bus yet */
GST_START_TEST (test_refused_before_bus)
{
  for (guint i = 0; i < G_N_ELEMENTS (refusals); i++) {
    const Refusal *r = &refusals[i];
    GstElement *pipeline = gst_pipeline_new (NULL);
    GstElement *e = gst_element_factory_make (r->element, NULL);
    GstBus *bus = gst_element_get_bus (pipeline);

    g_object_set (e, "backend", 2 /* cpu */ , NULL);
    set_refused (e, r);
    gst_bin_add (GST_BIN (pipeline), e);
    fail_unless (gst_bus_pop (bus) == NULL, "posted before READY");
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
    expect_bus_warning (bus, r);
    /* said once */
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
    fail_unless (test_bus_pop_filtered (bus, GST_MESSAGE_WARNING) == NULL);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (pipeline);
  }
}

GST_END_TEST;

/* a refusal that never gets a bus holds no reference to its element (it
 * would never be freed) */
GST_START_TEST (test_refused_without_bus_freed)
{
  for (guint i = 0; i < G_N_ELEMENTS (refusals); i++) {
    GstElement *e = gst_element_factory_make (refusals[i].element, NULL);

    set_refused (e, &refusals[i]);
    ASSERT_OBJECT_REFCOUNT (e, refusals[i].element, 1);
    gst_object_unref (e);
  }
}

GST_END_TEST;

GST_START_TEST (test_refused_playing)
{
  for (guint i = 0; i < G_N_ELEMENTS (refusals); i++) {
    const Refusal *r = &refusals[i];
    GstElement *e = gst_element_factory_make (r->element, NULL);
    GstBus *bus = gst_bus_new ();
    GstHarness *h;
    GstVideoInfo info;

    gst_element_set_bus (e, bus);
    g_object_set (e, "backend", 2 /* cpu */ , NULL);
    h = gst_harness_new_with_element (e, "sink", "src");
    morph_harness_set_caps (h, "GRAY8", 24, 16, &info);
    gst_buffer_unref (gst_harness_push_and_pull (h,
            morph_make_input (&info, 1, 0)));
    set_refused (e, r);
    expect_bus_warning (bus, r);
    /* the frames go on with the previous value */
    gst_buffer_unref (gst_harness_push_and_pull (h,
            morph_make_input (&info, 2, 0)));
    fail_unless (test_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL,
        "%s %s=%s: an error", r->element, r->property, r->value);
    test_element_teardown (h, e, bus);
  }
}

GST_END_TEST;

/* ---- a value set again ------------------------------------------------ */

typedef struct
{
  const char *element;
  const char *property;
  const char *same;             /* the value it has */
  const char *other;            /* a value that rebuilds */
} SetAgain;

static const SetAgain set_again[] = {
  {"cudamorph", "iterations", "1", "2"},
  {"cudamorph", "mask", "010;111;010", "111;111;111"},
  {"cudamorph", "angle", "0", "30"},
  {"cudamedian", "percentile", "50", "40"},
  {"cudamedian", "size", "3", "5"},
  {"cudalinspectrum", "length", "15", "9"},
  {"cudalinspectrum", "output", "passthrough", "supremum"},
  {"cudablobs", "threshold", "128", "100"},
  {"cudablobs", "output", "passthrough", "mask"},
  {"cudatemporal", "frames", "9", "5"},
  {"cudatemporal", "output", "background", "difference"},
};

GST_START_TEST (test_same_value_no_rebuild)
{
  for (guint i = 0; i < G_N_ELEMENTS (set_again); i++) {
    const SetAgain *s = &set_again[i];
    GstElement *e = gst_element_factory_make (s->element, NULL);
    GstHarness *h;
    GstVideoInfo info;
    guint64 builds;

    g_object_set (e, "backend", 2 /* cpu */ , NULL);
    gst_util_set_object_arg (G_OBJECT (e), s->property, s->same);
    h = gst_harness_new_with_element (e, "sink", "src");
    morph_harness_set_caps (h, "GRAY8", 24, 16, &info);
    gst_buffer_unref (gst_harness_push_and_pull (h,
            morph_make_input (&info, 1, 0)));
    builds = test_filter_builds (e);
    for (guint f = 0; f < 5; f++) {
      gst_util_set_object_arg (G_OBJECT (e), s->property, s->same);
      gst_buffer_unref (gst_harness_push_and_pull (h,
              morph_make_input (&info, 2 + f, 0)));
    }
    fail_unless_equals_uint64 (test_filter_builds (e), builds);
    /* a change still rebuilds */
    gst_util_set_object_arg (G_OBJECT (e), s->property, s->other);
    gst_buffer_unref (gst_harness_push_and_pull (h,
            morph_make_input (&info, 9, 0)));
    fail_unless (test_filter_builds (e) > builds, "%s %s=%s: not rebuilt",
        s->element, s->property, s->other);
    gst_harness_teardown (h);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* interval=5 over 20 frames: 4 messages, with a region of the same size
 * at every frame and with one of a new size at every frame (each builds
 * its filter) */
static guint
interval_messages (gboolean vary)
{
  GstElement *e = gst_element_factory_make ("cudalinspectrum", NULL);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  GstVideoInfo info;
  GstMessage *msg;
  guint n = 0;

  gst_element_set_bus (e, bus);
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  g_object_set (e, "length", 5, "angle-step", 45.0, "interval", 5,
      "post-messages", TRUE, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "roi", "<0,0,20,20>");
  h = gst_harness_new_with_element (e, "sink", "src");
  morph_harness_set_caps (h, "GRAY8", 64, 48, &info);
  for (guint f = 0; f < 20; f++) {
    if (vary) {
      gchar *roi = g_strdup_printf ("<0,0,%u,%u>", 20 + f, 20 + f);

      gst_util_set_object_arg (G_OBJECT (e), "roi", roi);
      g_free (roi);
    }
    gst_buffer_unref (gst_harness_push_and_pull (h,
            morph_make_input (&info, f, 0)));
  }
  while ((msg = test_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT)) != NULL) {
    if (gst_message_has_name (msg, "cudalinspectrum"))
      n++;
    gst_message_unref (msg);
  }
  gst_harness_teardown (h);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
  return n;
}

GST_START_TEST (test_interval_regions_of_new_sizes)
{
  fail_unless_equals_int (interval_messages (FALSE), 4);
  fail_unless_equals_int (interval_messages (TRUE), 4);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_refused_before_bus),
  TEST_SUITE_TEST (test_refused_without_bus_freed),
  TEST_SUITE_TEST (test_refused_playing),
  TEST_SUITE_TEST (test_same_value_no_rebuild),
  TEST_SUITE_TEST (test_interval_regions_of_new_sizes),
  {NULL}
};

TEST_SUITE_MAIN (refusals, "refusals", 0, suite_tests);
