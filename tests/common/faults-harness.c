/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* element errors, memory in use, state cycles */
#include <stdio.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <gst/check/gstcheck.h>

#include "faults-harness.h"
#include "test-util.h"

const Setting faults_settings[FAULTS_N_SETTINGS] = {
  MORPH_SETTING (CM_MORPH_OPEN, CM_SHAPE_DISK, 3, 3, 4, 15, 0.0,
      "010;111;010", 1, CM_BORDER_REFLECT, 0),
  MEDIAN_SETTING (5, 3, 50, CM_BORDER_REPLICATE, 0, TRUE),
  LIN_SETTING (9, 0, 180, 22.5, CM_MORPH_CLOSE, "supremum"),
  /* uniform frames, half of the pixels foreground (blobs-cases.h's
   * BLOBS_RANDOM, 50 %): many blobs, the largest 16 reported */
  BLOBS_SETTING ("output=mask max-blobs=16 min-area=2", 0, 50),
  TEMPORAL_SETTING (3, 50.0, CM_TEMPORAL_BACKGROUND),
};

gsize
faults_heap_kib (void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  struct mallinfo2 mi = mallinfo2 ();

  return (mi.uordblks + mi.hblkhd) / 1024;
#else
  return 0;
#endif
}

gboolean
faults_under_asan (void)
{
#if defined(__SANITIZE_ADDRESS__)
  return TRUE;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return TRUE;
#else
  return FALSE;
#endif
#else
  return FALSE;
#endif
}

GstMessage *
faults_pop (GstBus * bus, GstMessageType type, gchar ** text)
{
  GstMessage *msg = test_bus_pop_filtered (bus, type);
  GError *err = NULL;
  gchar *dbg = NULL, *joined;

  *text = NULL;
  if (msg == NULL)
    return NULL;
  if (type == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, &dbg);
  else
    gst_message_parse_warning (msg, &err, &dbg);
  joined = g_strdup_printf ("%s | %s", err ? err->message : "",
      GST_STR_NULL (dbg));
  *text = g_ascii_strdown (joined, -1);
  g_free (joined);
  g_clear_error (&err);
  g_free (dbg);
  return msg;
}

gboolean
faults_push_caps (GstHarness * h, const char *format, int width, int height,
    GstVideoInfo * info)
{
  gchar *str = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", format, width, height);
  GstCaps *caps = gst_caps_from_string (str);
  GstSegment seg;
  gboolean ok;

  gst_video_info_set_format (info, gst_video_format_from_string (format),
      width, height);
  ok = gst_harness_push_event (h, gst_event_new_caps (caps));
  gst_caps_unref (caps);        /* the event holds its own reference */
  g_free (str);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  gst_harness_push_event (h, gst_event_new_segment (&seg));
  return ok;
}

const char *
faults_cycle_format (ElemKind k, guint cycle)
{
  static const char *const filt[] = { "GRAY8", "I420", "RGBA", "GRAY16_LE" };
  static const char *const lin[] = { "GRAY8", "I420", "NV12", "GRAY16_LE" };

  return kind_grey_yuv_only (k) ? lin[cycle % 4] : filt[cycle % 4];
}

void
faults_cycle_once (GstHarness * h, GstElement * e, GstBus * bus,
    const Setting * s, guint cycle, int w, int hgt)
{
  GstVideoInfo info;
  GstSegment seg;
  GstEvent *ev;
  gchar *id = g_strdup_printf ("cycle-%u", cycle);
  gchar *caps;
  GstCaps *c;

  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  setting_history_reset (e);
  fail_unless (gst_element_set_state (e, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE, "cycle %u: %s does not start again", cycle,
      kind_name (s->kind));
  fail_unless (gst_harness_push_event (h, gst_event_new_stream_start (id)));
  g_free (id);
  caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1", faults_cycle_format (s->kind, cycle), w + cycle % 2,
      hgt);
  gst_video_info_set_format (&info, gst_video_format_from_string
      (faults_cycle_format (s->kind, cycle)), w + cycle % 2, hgt);
  /* gst_event_new_caps () takes a reference, not the caps: unref ours
   * (leaking it here was the 0.6 KiB per cycle that RELIABILITY.md once
   * listed as open) */
  c = gst_caps_from_string (caps);
  fail_unless (gst_harness_push_event (h, gst_event_new_caps (c)));
  gst_caps_unref (c);
  g_free (caps);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  push_and_check (h, bus, s, &info, 31 * cycle + 7, cycle % 3 == 0 ? 5 * 2 :
      0, "state cycle");
  /* the harness keeps what reached its pads: drop it, so that only the
   * element's own memory is measured */
  while ((ev = gst_harness_try_pull_event (h)) != NULL)
    gst_event_unref (ev);
  while ((ev = gst_harness_try_pull_upstream_event (h)) != NULL)
    gst_event_unref (ev);
}

FaultsCycleResult
faults_cycles (const Setting * s, guint warmup, guint cycles, int w, int h,
    void (*between) (gboolean end, gpointer data), gpointer data)
{
  FaultsCycleResult r = { 0, 0, 0, 0, cycles };
  GstElement *e;
  GstHarness *hn;
  GstBus *bus;

  e = setting_element_new (s, &bus);
  hn = morph_harness_new (e);
  for (guint c = 0; c < warmup; c++)
    faults_cycle_once (hn, e, bus, s, c, w, h);
  if (between)
    between (FALSE, data);
  r.rss_before_kib = test_rss_kib ();
  r.heap_before_kib = faults_heap_kib ();
  for (guint c = 0; c < cycles; c++)
    faults_cycle_once (hn, e, bus, s, warmup + c, w, h);
  r.rss_after_kib = test_rss_kib ();
  r.heap_after_kib = faults_heap_kib ();
  if (between)
    between (TRUE, data);
  assert_no_error (bus, "state cycles");
  test_element_teardown (hn, e, bus);
  return r;
}

guint
faults_n_cycles (guint def)
{
  const gchar *v = g_getenv ("CM_TEST_CYCLES");

  return v && *v ? (guint) g_ascii_strtoull (v, NULL, 10) : def;
}
