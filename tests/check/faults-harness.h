/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers of the fault tests (tests/check/test-faults-nodevice.c on any
 * machine, tests/gpu/test-faults.c on a CUDA device): the element error or
 * warning an element posts, host memory in use, and NULL <-> PLAYING
 * cycles of a harnessed element with one frame checked per cycle. */
#pragma once

#include <stdio.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "reliability-harness.h"

/* Resident set size of this process in KiB (0 when unknown). */
static inline gsize
faults_rss_kib (void)
{
  unsigned long size = 0, resident = 0;
  FILE *f = fopen ("/proc/self/statm", "r");

  if (f == NULL)
    return 0;
  if (fscanf (f, "%lu %lu", &size, &resident) != 2)
    resident = 0;
  fclose (f);
  return (gsize) resident * (gsize) sysconf (_SC_PAGESIZE) / 1024;
}

/* Bytes of the C heap in use (malloc'ed and not freed, mmapped blocks
 * included) in KiB, from glibc's mallinfo2 (); 0 where there is none.
 * Beside RSS it tells held memory from pages the allocator keeps. */
static inline gsize
faults_heap_kib (void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  struct mallinfo2 mi = mallinfo2 ();

  return (mi.uordblks + mi.hblkhd) / 1024;
#else
  return 0;
#endif
}

/* TRUE when built with AddressSanitizer (its quarantine keeps freed memory
 * resident, so RSS says nothing about leaks there: LeakSanitizer does). */
static inline gboolean
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

/* The first message of @type on @bus (the others are dropped), with its
 * text and debug string joined in *@text (lower case). NULL when none. */
static inline GstMessage *
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

/* Like morph_harness_set_caps () but without asserting that the element
 * takes the caps (gst_harness_set_src_caps () does): caps and a segment,
 * TRUE when the caps were taken. */
static inline gboolean
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

/* Frames of these sizes and formats alternate from cycle to cycle, so
 * that every cycle negotiates caps anew. */
static inline const char *
faults_cycle_format (ElemKind k, guint cycle)
{
  static const char *const filt[] = { "GRAY8", "I420", "RGBA", "GRAY16_LE" };
  static const char *const lin[] = { "GRAY8", "I420", "NV12", "GRAY16_LE" };

  return k == EL_LIN ? lin[cycle % 4] : filt[cycle % 4];
}

/* Takes harnessed element @e from PLAYING to NULL and back, sends it a new
 * stream (stream-start, caps, segment) and checks one frame. */
static inline void
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

typedef struct
{
  gsize rss_before_kib, rss_after_kib;
  gsize heap_before_kib, heap_after_kib;        /* faults_heap_kib ()   */
  guint cycles;
} FaultsCycleResult;

/* @warmup then @cycles NULL <-> PLAYING cycles of the element of @s on the
 * test backend, one @w x @h frame checked per cycle; RSS sampled after the
 * warm-up and at the end. @between, when set, is called after the warm-up
 * and at the end too (device memory sampling). */
static inline FaultsCycleResult
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
  r.rss_before_kib = faults_rss_kib ();
  r.heap_before_kib = faults_heap_kib ();
  for (guint c = 0; c < cycles; c++)
    faults_cycle_once (hn, e, bus, s, warmup + c, w, h);
  r.rss_after_kib = faults_rss_kib ();
  r.heap_after_kib = faults_heap_kib ();
  if (between)
    between (TRUE, data);
  assert_no_error (bus, "state cycles");
  gst_harness_teardown (hn);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
  return r;
}

/* CM_TEST_CYCLES, or @def */
static inline guint
faults_n_cycles (guint def)
{
  const gchar *v = g_getenv ("CM_TEST_CYCLES");

  return v && *v ? (guint) g_ascii_strtoull (v, NULL, 10) : def;
}
