/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Faults that need no GPU (GstHarness, CK_FORK=no), for the five
 * elements of tests/common/faults-harness.c:
 *
 *  - backend=cuda on a machine without a usable CUDA device (no driver, no
 *    libcuda, or a build without CUDA): the element refuses to start with
 *    an element error that names the cause;
 *  - backend=auto there: one warning, then the CPU reference, frames exact;
 *  - a cuda-device-id that does not exist: an element error with
 *    backend=cuda, a warning and the CPU reference with backend=auto;
 *  - NULL <-> PLAYING CM_TEST_CYCLES times (default 1000) on the CPU
 *    backend, a frame checked each cycle, host RSS before and after.
 *
 * On a machine with a device the no-device cases are skipped (printed)
 * and the rest still runs; tests/gpu/test-faults.c covers the device. */
#include <stdio.h>
#include <string.h>

#include "device.h"
#include "faults-harness.h"
#include "test-suite.h"

static GstElement *
element_with_backend (const Setting * s, const char *backend_nick,
    gint device_id, GstBus ** bus)
{
  GstElement *e = setting_element_new (s, bus);

  gst_util_set_object_arg (G_OBJECT (e), "backend", backend_nick);
  g_object_set (e, "cuda-device-id", device_id, NULL);
  return e;
}

static void
element_free (GstElement * e, GstBus * bus)
{
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

/* backend=cuda, @device_id: the start fails with an element error in the
 * RESOURCE domain whose text contains every one of @needles. */
static void
expect_start_error (const Setting * s, gint device_id,
    const char *const *needles)
{
  GstBus *bus;
  GstElement *e = element_with_backend (s, "cuda", device_id, &bus);
  GstStateChangeReturn ret;
  GstMessage *msg;
  GError *err = NULL;
  gchar *text;

  ret = gst_element_set_state (e, GST_STATE_PAUSED);
  fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);
  msg = faults_pop (bus, GST_MESSAGE_ERROR, &text);
  fail_unless (msg != NULL, "%s: backend=cuda, device %d: no error message",
      kind_name (s->kind), device_id);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (err->domain == GST_RESOURCE_ERROR, "%s: error domain %s",
      kind_name (s->kind), g_quark_to_string (err->domain));
  GST_INFO ("%s, device %d: %s", kind_name (s->kind), device_id, text);
  for (guint i = 0; needles[i]; i++)
    fail_unless (strstr (text, needles[i]) != NULL, "%s: error \"%s\" does "
        "not mention \"%s\"", kind_name (s->kind), text, needles[i]);
  g_clear_error (&err);
  g_free (text);
  gst_message_unref (msg);
  element_free (e, bus);
}

GST_START_TEST (test_cuda_without_device)
{
  const Setting *s = &faults_settings[__i__];
  const char *const needles[] = { "backend=cuda", "cuda", NULL };
  const char *const why[] = { cm_have_cuda ()? "no usable cuda device" :
        "no cuda kernels", NULL
  };

  if (cm_device_count () > 0) {
    printf ("a CUDA device is present: no-device case skipped\n");
    return;
  }
  expect_start_error (s, -1, needles);
  expect_start_error (s, -1, why);
  expect_start_error (s, 0, why);
}

GST_END_TEST;

GST_START_TEST (test_bad_device_id)
{
  const Setting *s = &faults_settings[__i__];
  gint n = MAX (cm_device_count (), 0);
  const char *const with_device[] = { "cuda-device-id is", "device", NULL };
  const char *const without[] = { "cuda", NULL };

  expect_start_error (s, n, n > 0 ? with_device : without);
  expect_start_error (s, n + 7, n > 0 ? with_device : without);
  expect_start_error (s, 32767, n > 0 ? with_device : without);
}

GST_END_TEST;

/* backend=auto on a device that cannot be used: exactly one warning at
 * start, then every frame exact on the CPU reference. */
static void
check_auto_fallback (const Setting * s, gint device_id)
{
  GstBus *bus;
  GstElement *e = element_with_backend (s, "auto", device_id, &bus);
  GstHarness *h = morph_harness_new (e);
  GstVideoInfo info;
  GstMessage *msg;
  gchar *text;

  msg = faults_pop (bus, GST_MESSAGE_WARNING, &text);
  fail_unless (msg != NULL, "%s: backend=auto, device %d: no warning",
      kind_name (s->kind), device_id);
  fail_unless (strstr (text, "cpu") != NULL, "warning \"%s\" does not say "
      "it uses the CPU", text);
  gst_message_unref (msg);
  g_free (text);

  for (int f = 0; f < n_formats (s->kind); f++) {
    morph_harness_set_caps (h, format_name (s->kind, f), 23, 9, &info);
    push_and_check (h, bus, s, &info, 40 + f, 0, "auto fallback");
    push_and_check (h, bus, s, &info, 80 + f, 4, "auto fallback");
  }
  /* one warning per start, not per frame */
  fail_unless (faults_pop (bus, GST_MESSAGE_WARNING, &text) == NULL,
      "a second warning: %s", text);
  gst_harness_teardown (h);
  element_free (e, bus);
}

GST_START_TEST (test_auto_falls_back)
{
  const Setting *s = &faults_settings[__i__];
  gint n = MAX (cm_device_count (), 0);

  if (n == 0)
    check_auto_fallback (s, -1);
  check_auto_fallback (s, n + 3);
}

GST_END_TEST;

GST_START_TEST (test_state_cycles)
{
  const Setting *s = &faults_settings[__i__];
  guint cycles = faults_n_cycles (1000);
  FaultsCycleResult r;
  gssize grown;
  /* allowed RSS and heap growth over all the cycles, KiB: measured +0 to
   * +4 KiB over 1000 and 4000 cycles (GStreamer 1.22, glibc 2.36), so 256
   * catches a leak of a quarter KiB per restart */
  gssize slack = g_getenv ("CM_TEST_RSS_SLACK_KIB") ?
      g_ascii_strtoll (g_getenv ("CM_TEST_RSS_SLACK_KIB"), NULL, 10) : 256;
  gssize heap_grown;

  r = faults_cycles (s, 50, cycles, 31, 17, NULL, NULL);
  grown = (gssize) r.rss_after_kib - (gssize) r.rss_before_kib;
  printf ("%s backend=%s: %u NULL<->PLAYING cycles: RSS %" G_GSIZE_FORMAT
      " KiB -> %" G_GSIZE_FORMAT " KiB (%+" G_GSSIZE_FORMAT " KiB), heap in "
      "use %" G_GSIZE_FORMAT " KiB -> %" G_GSIZE_FORMAT " KiB (%+"
      G_GSSIZE_FORMAT " KiB)%s\n", kind_name (s->kind), test_backend (),
      cycles, r.rss_before_kib, r.rss_after_kib, grown, r.heap_before_kib,
      r.heap_after_kib, (gssize) r.heap_after_kib - (gssize) r.heap_before_kib,
      faults_under_asan ()? " (ASan: not checked)" : "");
  heap_grown = (gssize) r.heap_after_kib - (gssize) r.heap_before_kib;
  if (!faults_under_asan ()) {
    fail_unless (grown <= slack, "%s: RSS grew by %" G_GSSIZE_FORMAT " KiB "
        "over %u cycles (allowed %" G_GSSIZE_FORMAT ")", kind_name (s->kind),
        grown, cycles, slack);
    fail_unless (heap_grown <= slack, "%s: heap in use grew by %"
        G_GSSIZE_FORMAT " KiB over %u cycles (allowed %" G_GSSIZE_FORMAT ")",
        kind_name (s->kind), heap_grown, cycles, slack);
  }
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_LOOP (test_cuda_without_device, 0, FAULTS_N_SETTINGS),
  TEST_SUITE_LOOP (test_bad_device_id, 0, FAULTS_N_SETTINGS),
  TEST_SUITE_LOOP (test_auto_falls_back, 0, FAULTS_N_SETTINGS),
  TEST_SUITE_LOOP (test_state_cycles, 0, FAULTS_N_SETTINGS),
  {NULL}
};

TEST_SUITE_MAIN (faults, "faults-nodevice", 600, suite_tests);
