/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Several streams sharing the GPU in one process (GstHarness, CK_FORK=no).
 * Exits 77 (meson: SKIP) without a usable CUDA device.
 *
 *  - CM_TEST_THREADS (default 6) threads, each with its own cudamorph,
 *    cudamedian or cudalinspectrum on the CUDA backend, cuda-device-id
 *    going round the ids that exist (-1, 0 .. count-1), push
 *    CM_TEST_FRAMES (default 40) frames each at the same time; every
 *    output equals the CPU reference;
 *  - property changes from another thread while frames flow: one thread
 *    toggles cudamorph width between 3 and 9 (cudamedian size 3/7,
 *    cudalinspectrum length 5/15) as fast as it can while the streaming
 *    thread pushes frames; every output equals the reference of one of the
 *    two values (cudalinspectrum: of the length its message reports), and
 *    both values are seen.
 *
 * CM_TEST_BACKEND=cpu runs the same on the CPU reference (a
 * check of the test itself on a machine without a GPU). Worker threads
 * never call the check assertions: they count and print mismatches, and
 * the test thread asserts on the counts. */
#include <stdio.h>
#include <string.h>

#include "device.h"
#include "reliability-harness.h"
#include "test-util.h"
#include "test-suite.h"

static const Setting thread_settings[] = {
  MORPH_SETTING (CM_MORPH_OPEN, CM_SHAPE_DISK, 3, 3, 5, 15, 0.0,
      "010;111;010", 1, CM_BORDER_REFLECT, 0),
  MEDIAN_SETTING (7, 7, 50, CM_BORDER_REPLICATE, 0, TRUE),
  LIN_SETTING (15, 0, 180, 15, CM_MORPH_OPEN, "supremum"),
  MORPH_SETTING (CM_MORPH_TOPHAT, CM_SHAPE_LINE, 3, 3, 1, 31, 30.0,
      "010;111;010", 1, CM_BORDER_NEUTRAL, 0),
  MEDIAN_SETTING (31, 31, 50, CM_BORDER_MIRROR, 0, FALSE),
  LIN_SETTING (21, 0, 180, 30, CM_MORPH_CLOSE, "passthrough"),
};

static const char *const thread_formats[] = { "GRAY8", "I420", "RGBA",
  "GRAY16_LE", "NV12", "BGRx"
};

static guint
env_uint (const char *name, guint def)
{
  const gchar *v = g_getenv (name);

  return v && *v ? (guint) g_ascii_strtoull (v, NULL, 10) : def;
}

/* Pushes a frame and compares it with the reference of @s, without check
 * assertions (worker threads). @alt, when set, is a second acceptable
 * setting; *@which says which one matched (0 or 1). */
static gboolean
frame_matches (GstHarness * h, GstBus * bus, const Setting * s,
    const Setting * alt, const GstVideoInfo * info, guint64 seed,
    const char *what, int *which)
{
  GstBuffer *in = morph_make_input (info, seed, seed % 3 == 0 ? 8 : 0);
  GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  gboolean ok = FALSE;
  GstMessage *msg;

  *which = -1;
  if (out == NULL) {
    fprintf (stderr, "%s: no output\n", what);
    gst_buffer_unref (in);
    return FALSE;
  }
  if (s->kind != EL_LIN) {
    if (check_filtered (s, in, out, info, what)) {
      ok = TRUE;
      *which = 0;
    } else if (alt && check_filtered (alt, in, out, info, what)) {
      ok = TRUE;
      *which = 1;
    }
  } else {
    const Setting *used = s;
    guint len = 0;

    msg = test_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
    if (msg == NULL) {
      fprintf (stderr, "%s: no message\n", what);
    } else {
      gst_structure_get_uint (gst_message_get_structure (msg), "length",
          &len);
      if (alt && (int) len == alt->lin.length)
        used = alt;
      *which = used == alt;
      ok = (int) len == used->lin.length &&
          lin_check_message (gst_message_get_structure (msg), in, info,
          &used->lin, what);
      if (ok && strcmp (used->lin.output, "supremum") == 0)
        ok = lin_check_supremum (in, out, info, &used->lin, what);
      gst_message_unref (msg);
    }
  }
  if ((msg = test_bus_pop_filtered (bus, GST_MESSAGE_ERROR)) != NULL) {
    fprintf (stderr, "%s: element error\n", what);
    gst_message_unref (msg);
    ok = FALSE;
  }
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  return ok;
}

typedef struct
{
  guint index;
  gint device_id;
  guint frames;
  gint failures;
  GThread *thread;
} Worker;

static gpointer
worker_run (gpointer data)
{
  Worker *w = data;
  const Setting *s = &thread_settings[w->index % G_N_ELEMENTS
      (thread_settings)];
  const char *format = s->kind == EL_LIN ? lin_format (w->index %
      LIN_N_FORMATS) : thread_formats[w->index % G_N_ELEMENTS
      (thread_formats)];
  GstVideoInfo info;
  GstElement *e;
  GstHarness *h;
  GstBus *bus;

  e = setting_element_new (s, &bus);
  g_object_set (e, "cuda-device-id", w->device_id, NULL);
  h = morph_harness_new (e);
  morph_harness_set_caps (h, format, 200 + 7 * w->index, 120 + 3 * w->index,
      &info);
  for (guint f = 0; f < w->frames; f++) {
    gchar *what = g_strdup_printf ("thread %u (%s on device %d, %s) frame %u",
        w->index, kind_name (s->kind), w->device_id, format, f);
    int which;

    if (!frame_matches (h, bus, s, NULL, &info, 1000 * w->index + f, what,
            &which))
      g_atomic_int_inc (&w->failures);
    g_free (what);
  }
  test_element_teardown (h, e, bus);
  return NULL;
}

GST_START_TEST (test_streams_share_gpu)
{
  guint n = env_uint ("CM_TEST_THREADS", 6);
  guint frames = env_uint ("CM_TEST_FRAMES", 40);
  gint n_dev = MAX (cm_device_count (), 1);
  Worker *w = g_new0 (Worker, n);

  for (guint i = 0; i < n; i++) {
    w[i].index = i;
    /* -1, 0, 1, ..., n_dev - 1, -1, ... */
    w[i].device_id = (gint) (i % (n_dev + 1)) - 1;
    w[i].frames = frames;
    w[i].thread = g_thread_new ("stream", worker_run, &w[i]);
  }
  for (guint i = 0; i < n; i++)
    g_thread_join (w[i].thread);
  for (guint i = 0; i < n; i++)
    fail_unless (w[i].failures == 0, "thread %u (device %d): %d of %u "
        "frames wrong", i, w[i].device_id, w[i].failures, frames);
  printf ("%u streams on %d device(s), %u frames each: all exact\n", n,
      n_dev, frames);
  g_free (w);
}

GST_END_TEST;

typedef struct
{
  GstElement *e;
  const char *name;
  gint a, b;
  gint stop;
  guint changes;
} Toggler;

static gpointer
toggler_run (gpointer data)
{
  Toggler *t = data;

  while (!g_atomic_int_get (&t->stop)) {
    if (t->changes % 2)
      g_object_set (t->e, t->name, t->a, NULL);
    else
      g_object_set (t->e, t->name, t->b, NULL);
    t->changes++;
    g_usleep (50 + g_random_int_range (0, 400));
  }
  return NULL;
}

/* setting pairs that differ in the toggled property only */
static Setting toggle_a[3], toggle_b[3];

static void
toggle_settings_init (void)
{
  const Setting m = MORPH_SETTING (CM_MORPH_ERODE, CM_SHAPE_RECT, 3, 5, 1,
      15, 0.0, "010;111;010", 1, CM_BORDER_REPLICATE, 0);
  const Setting d = MEDIAN_SETTING (3, 3, 50, CM_BORDER_REPLICATE, 0, TRUE);
  const Setting l = LIN_SETTING (5, 0, 180, 30, CM_MORPH_OPEN, "supremum");

  toggle_a[0] = toggle_b[0] = m;
  toggle_b[0].morph.width = 9;
  toggle_a[1] = toggle_b[1] = d;
  toggle_b[1].median.width = toggle_b[1].median.height = 7;
  toggle_a[2] = toggle_b[2] = l;
  toggle_b[2].lin.length = 15;
}

GST_START_TEST (test_property_changes_while_playing)
{
  static const char *const props[] = { "width", "size", "length" };
  const Setting *a = &toggle_a[__i__], *b = &toggle_b[__i__];
  guint frames = env_uint ("CM_TEST_FRAMES", 40) * 3;
  guint seen[2] = { 0, 0 };
  Toggler t = { NULL, props[__i__], 0, 0, 0, 0 };
  GstVideoInfo info;
  GThread *thread;
  GstHarness *h;
  GstBus *bus;
  guint bad = 0;

  t.e = setting_element_new (a, &bus);
  t.a = a->kind == EL_MORPH ? a->morph.width : a->kind == EL_MEDIAN ?
      a->median.width : a->lin.length;
  t.b = b->kind == EL_MORPH ? b->morph.width : b->kind == EL_MEDIAN ?
      b->median.width : b->lin.length;
  h = morph_harness_new (t.e);
  morph_harness_set_caps (h, a->kind == EL_LIN ? "I420" : "RGBx", 160, 90,
      &info);
  thread = g_thread_new ("toggler", toggler_run, &t);
  for (guint f = 0; f < frames; f++) {
    gchar *what = g_strdup_printf ("%s toggling %s, frame %u",
        kind_name (a->kind), t.name, f);
    int which;

    if (!frame_matches (h, bus, a, b, &info, 7 * f + 1, what, &which))
      bad++;
    else
      seen[which]++;
    g_free (what);
  }
  g_atomic_int_set (&t.stop, 1);
  g_thread_join (thread);
  printf ("%s: %u changes of %s while %u frames flowed: %u with %d, %u with "
      "%d, %u wrong\n", kind_name (a->kind), t.changes, t.name, frames,
      seen[0], t.a, seen[1], t.b, bad);
  fail_unless (bad == 0, "%u frames match neither setting", bad);
  fail_unless (seen[0] > 0 && seen[1] > 0, "the change never took effect");
  gst_harness_teardown (h);
  gst_element_set_bus (t.e, NULL);
  gst_object_unref (bus);
  gst_object_unref (t.e);
}

GST_END_TEST;

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_streams_share_gpu),
  TEST_SUITE_LOOP (test_property_changes_while_playing, 0, 3),
  {NULL}
};

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  if (g_strcmp0 (g_getenv ("CM_TEST_BACKEND"), "cpu") != 0) {
    if (cm_device_count () <= 0) {
      fprintf (stderr, "no usable CUDA device: skipped\n");
      return TEST_SKIP;
    }
    g_setenv ("CM_TEST_BACKEND", "cuda", TRUE);
  }
  toggle_settings_init ();
  return test_suite_run (test_suite_new ("concurrency", "general", 1200,
          suite_tests));
}
