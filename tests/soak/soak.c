/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Soak: many frames through an inspection line, cudamedian ! cudamorph !
 * cudalinspectrum ! cudablobs in one chain (a GstHarness around the
 * four, system memory), host RSS and device memory in use sampled every
 * --sample frames, one output and its blobs checked against the CPU
 * reference at each sample, a table at the end.
 *
 *   soak [--frames N] [--sample N] [--width W] [--height H]
 *        [--format GRAY8|GRAY16_LE|I420|NV12] [--backend cuda|cpu|auto]
 *
 * Defaults: 100000 frames of 1920x1080 GRAY8 on the CUDA backend, samples
 * every 10000 frames. Exit status 0 when every checked frame was exact, no
 * element error came, and neither memory grew by more than --slack-kib
 * (default 16384) between the first sample and the last; 77 without a
 * CUDA device (backend cuda); 1 otherwise. The chain: 3x3 median, opening
 * by a 5x5 rectangle, linear openings of 21 pixels every 15 degrees with
 * the spectrum message every frame (counted) and the frame passed
 * through, then the blobs of the opened frame at 128 (the 64 largest on
 * the buffer's meta, checked, and in a message every frame, counted: the
 * element posts them from a thread of its own). The loop runs as a check
 * test in this process (the blobs harness asserts as the element tests
 * do). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#if CM_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "blobs-harness.h"
#include "device.h"
#include "median/median.h"
#include "morph/morph.h"
#include "morph/se.h"
#include "test-util.h"

/* device memory in use (all processes), KiB; -1 without CUDA */
static gssize
device_used_kib (void)
{
#if CM_HAVE_CUDA
  size_t free_b = 0, total_b = 0;

  if (cm_device_count () > 0 && cudaMemGetInfo (&free_b, &total_b) ==
      cudaSuccess)
    return (gssize) ((total_b - free_b) / 1024);
#endif
  return -1;
}

/* The expected luma of a frame: 3x3 median (replicate), then opening by
 * a 5x5 rectangle (neutral border); cudalinspectrum passes it through. */
static gboolean
check_frame (GstBuffer * in, GstBuffer * out, const GstVideoInfo * info)
{
  cm_depth depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? CM_DEPTH_16 :
      CM_DEPTH_8;
  int w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  GstVideoFrame fi, fo;
  cm_image src, got, mid, exp;
  cm_median_desc md;
  cm_morph_desc d;
  cm_se *se = NULL;
  gboolean ok;

  if (!gst_video_frame_map (&fi, info, in, GST_MAP_READ))
    return FALSE;
  if (!gst_video_frame_map (&fo, info, out, GST_MAP_READ)) {
    gst_video_frame_unmap (&fi);
    return FALSE;
  }
  src = (cm_image) {
  GST_VIDEO_FRAME_PLANE_DATA (&fi, 0),
        (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0), w, h, depth};
  got = (cm_image) {
  GST_VIDEO_FRAME_PLANE_DATA (&fo, 0),
        (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0), w, h, depth};
  mid = test_image_new (w, h, depth, 0);
  exp = test_image_new (w, h, depth, 0);
  memset (&md, 0, sizeof (md));
  md.window_w = md.window_h = 3;
  md.percentile = 50;
  md.border = CM_BORDER_REPLICATE;
  cm_se_new_rect (&se, 5, 5);
  memset (&d, 0, sizeof (d));
  d.op = CM_MORPH_OPEN;
  d.se = se;
  d.iterations = 1;
  d.border = CM_BORDER_NEUTRAL;
  ok = cm_median_ref (&md, &src, &mid) == CM_OK &&
      cm_morph_ref (&d, &mid, &exp) == CM_OK &&
      test_image_equal (&got, &exp, "soak frame");
  cm_se_free (se);
  test_image_free (&mid);
  test_image_free (&exp);
  gst_video_frame_unmap (&fo);
  gst_video_frame_unmap (&fi);
  return ok;
}

static GstBuffer *
random_frame (const GstVideoInfo * info, guint64 seed)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info),
      NULL);
  GstMapInfo map;
  test_rng rng;

  test_rng_seed (&rng, seed);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i + 4 <= map.size; i += 4) {
    guint32 v = test_rng_next (&rng);
    memcpy (map.data + i, &v, 4);
  }
  gst_buffer_unmap (buf, &map);
  return buf;
}

/* The blobs meta of @out (the opened frame, passed through) is the
 * reference's blobs of its luma under @blobs' settings */
static gboolean
check_blobs (GstElement * blobs, GstBuffer * out, const GstVideoInfo * info)
{
  const GstStructure *meta = blobs_meta_structure (out);
  cm_blobs_desc d;
  BlobsExpected e;
  gboolean ok;

  if (meta == NULL || blobs_meta_count (out) != 1) {
    fprintf (stderr, "no blobs meta, or more than one\n");
    return FALSE;
  }
  blobs_desc_from_element (blobs, GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ?
      CM_DEPTH_16 : CM_DEPTH_8, &d);
  blobs_expected_compute (&e, &d, out, info, NULL, 0);
  ok = blobs_structure_equal (meta, TRUE, &e, "soak blobs meta");
  blobs_expected_clear (&e);
  return ok;
}

/* Pops the bus: counts the spectrum and blobs messages, prints and counts
 * errors. */
static void
drain (GstBus * bus, guint64 * messages, guint64 * blobs_messages,
    guint * errors)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop (bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (msg, "cudalinspectrum"))
      (*messages)++;
    else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (msg, "cudablobs"))
      (*blobs_messages)++;
    else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      fprintf (stderr, "error from %s: %s (%s)\n",
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message,
          GST_STR_NULL (dbg));
      g_clear_error (&err);
      g_free (dbg);
      (*errors)++;
    }
    gst_message_unref (msg);
  }
}

/* The run's settings (the command line) */
typedef struct
{
  guint64 frames, sample;
  gint width, height;
  gint64 slack;
  const gchar *format, *backend;
} SoakArgs;

static SoakArgs args = { 100000, 10000, 1920, 1080, 16384, "GRAY8", "cuda" };

static int soak_rc = 1;

/* The soak; 0 when it passed */
static int
soak (const SoakArgs * a)
{
  const guint64 frames = a->frames, sample = a->sample;
  const gint width = a->width, height = a->height;
  const gint64 slack = a->slack;
  const gchar *format = a->format, *backend = a->backend;
  GstBuffer *pool[4];
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstElement *blobs;
  gchar *launch, *caps;
  guint64 messages = 0, blobs_messages = 0, checked = 0, bad = 0;
  guint errors = 0;
  gsize rss0 = 0, rss1 = 0;
  gssize dev0 = -1, dev1 = -1;
  gint64 t0;
  int rc = 0;

  launch = g_strdup_printf ("cudamedian backend=%s size=3 ! "
      "cudamorph backend=%s operation=open shape=rect width=5 height=5 ! "
      "cudalinspectrum backend=%s length=21 angle-step=15 ! "
      "cudablobs name=blobs backend=%s threshold=128 max-blobs=64", backend,
      backend, backend, backend);
  h = gst_harness_new_parse (launch);
  blobs = gst_bin_get_by_name (GST_BIN (h->element), "blobs");
  bus = gst_bus_new ();
  gst_element_set_bus (h->element, bus);
  caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=60/1", format, width, height);
  gst_harness_set_src_caps_str (h, caps);
  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  for (int i = 0; i < 4; i++)
    pool[i] = random_frame (&info, 17 + i);

  printf ("soak: %" G_GUINT64_FORMAT " frames of %dx%d %s, backend %s\n  %s\n",
      frames, width, height, format, backend, launch);
  printf ("%10s %10s %12s %14s %8s %10s\n", "frames", "seconds", "fps",
      "host RSS KiB", "dev MiB", "checked");
  t0 = g_get_monotonic_time ();
  for (guint64 f = 0; f < frames; f++) {
    GstBuffer *in = gst_buffer_copy (pool[f % 4]);
    GstBuffer *out;

    GST_BUFFER_PTS (in) = gst_util_uint64_scale (f, GST_SECOND, 60);
    GST_BUFFER_DURATION (in) = GST_SECOND / 60;
    out = gst_harness_push_and_pull (h, in);
    if (out == NULL) {
      fprintf (stderr, "frame %" G_GUINT64_FORMAT ": no output\n", f);
      rc = 1;
      break;
    }
    if ((f + 1) % sample == 0 || f == 0 || f + 1 == frames) {
      gdouble secs = (g_get_monotonic_time () - t0) / 1e6;
      gssize dev = device_used_kib ();
      gsize rss = test_rss_kib ();

      checked++;
      if (!check_frame (pool[f % 4], out, &info) ||
          !check_blobs (blobs, out, &info)) {
        fprintf (stderr, "frame %" G_GUINT64_FORMAT ": differs from the "
            "reference\n", f);
        bad++;
      }
      if (f == 0) {
        rss0 = rss;
        dev0 = dev;
      }
      rss1 = rss;
      dev1 = dev;
      printf ("%10" G_GUINT64_FORMAT " %10.1f %12.1f %14" G_GSIZE_FORMAT
          " %8.1f %10" G_GUINT64_FORMAT "\n", f + 1, secs, (f + 1) / secs,
          rss, dev < 0 ? -1.0 : dev / 1024.0, checked);
      fflush (stdout);
    }
    gst_buffer_unref (out);
    drain (bus, &messages, &blobs_messages, &errors);
  }
  /* cudablobs posts before it passes a serialized event on */
  gst_harness_push_event (h, gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM,
          gst_structure_new_empty ("soak-end")));
  drain (bus, &messages, &blobs_messages, &errors);

  printf ("spectrum messages: %" G_GUINT64_FORMAT ", blobs messages: %"
      G_GUINT64_FORMAT ", element errors: %u, frames checked: %"
      G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " wrong)\n", messages,
      blobs_messages, errors, checked, bad);
  printf ("host RSS: %" G_GSIZE_FORMAT " KiB after the first frame, %"
      G_GSIZE_FORMAT " KiB at the end (%+" G_GSSIZE_FORMAT " KiB)\n", rss0,
      rss1, (gssize) rss1 - (gssize) rss0);
  if (dev0 >= 0)
    printf ("device memory in use: %" G_GSSIZE_FORMAT " KiB after the first "
        "frame, %" G_GSSIZE_FORMAT " KiB at the end (%+" G_GSSIZE_FORMAT
        " KiB)\n", dev0, dev1, dev1 - dev0);
  if (bad || errors || (rc == 0 && (messages < frames ||
              blobs_messages < frames)))
    rc = 1;
  if ((gssize) rss1 - (gssize) rss0 > slack || (dev0 >= 0 &&
          dev1 - dev0 > slack)) {
    fprintf (stderr, "memory grew by more than %" G_GINT64_FORMAT " KiB\n",
        slack);
    rc = 1;
  }
  printf ("%s\n", rc == 0 ? "soak: PASS" : "soak: FAIL");

  for (int i = 0; i < 4; i++)
    gst_buffer_unref (pool[i]);
  gst_object_unref (blobs);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  g_free (launch);
  g_free (caps);
  return rc;
}

GST_START_TEST (test_soak)
{
  soak_rc = soak (&args);
}

GST_END_TEST;

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    {"frames", 'n', 0, G_OPTION_ARG_INT64, &args.frames, "frames to push",
        "N"},
    {"sample", 's', 0, G_OPTION_ARG_INT64, &args.sample,
        "sample memory and check a frame every N frames", "N"},
    {"width", 0, 0, G_OPTION_ARG_INT, &args.width, "frame width", "W"},
    {"height", 0, 0, G_OPTION_ARG_INT, &args.height, "frame height", "H"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &args.format, "GRAY8, GRAY16_LE, "
          "I420 or NV12", "F"},
    {"backend", 0, 0, G_OPTION_ARG_STRING, &args.backend, "cuda, cpu or auto",
        "B"},
    {"slack-kib", 0, 0, G_OPTION_ARG_INT64, &args.slack,
        "allowed growth of host RSS and device memory, KiB", "K"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- soak of an inspection line");
  GError *err = NULL;
  Suite *suite;
  TCase *tc;
  SRunner *sr;
  int failed;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    fprintf (stderr, "%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (args.sample == 0 || args.frames == 0)
    return 2;
  if (strcmp (args.backend, "cuda") == 0 && cm_device_count () <= 0) {
    fprintf (stderr, "backend cuda but no usable CUDA device: skipped\n");
    return 77;
  }
  /* one test in this process, no time limit */
  suite = suite_create ("soak");
  tc = tcase_create ("soak");
  tcase_set_timeout (tc, 0);
  tcase_add_test (tc, test_soak);
  suite_add_tcase (suite, tc);
  sr = srunner_create (suite);
  srunner_set_fork_status (sr, CK_NOFORK);
  srunner_run_all (sr, CK_SILENT);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? 1 : soak_rc;
}
