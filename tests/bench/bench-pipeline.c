/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench-pipeline: end-to-end frames per second of an element chain fed
 * system-memory frames.
 *
 *   bench-pipeline [--width W] [--height H] [--format GRAY8] [--frames N]
 *                  [--warmup K] "cudamorph operation=erode ..."
 *
 * appsrc re-pushes a few prepared random frames (so the source costs almost
 * nothing), the chain under test processes them, fakesink sync=false drops
 * them. Time runs from the K-th to the last frame leaving the chain, so the
 * first frames (plan building, CUDA context creation) are excluded.
 */
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <stdlib.h>
#include <string.h>

static gint frames_seen;
static gint warmup = 30;
static gint64 t_first, t_last;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  gint n = g_atomic_int_add (&frames_seen, 1) + 1;
  if (n == warmup)
    t_first = g_get_monotonic_time ();
  t_last = g_get_monotonic_time ();
}

int
main (int argc, char **argv)
{
  gint width = 3840, height = 2160, frames = 1000;
  const gchar *format = "GRAY8";
  const gchar *chain = "cudamorph operation=erode shape=rect width=15 "
      "height=15";
  GstVideoInfo info;
  GError *err = NULL;

  gst_init (&argc, &argv);
  for (int i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--width") && i + 1 < argc)
      width = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--height") && i + 1 < argc)
      height = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--frames") && i + 1 < argc)
      frames = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--warmup") && i + 1 < argc)
      warmup = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--format") && i + 1 < argc)
      format = argv[++i];
    else
      chain = argv[i];
  }
  if (frames <= warmup + 1) {
    g_printerr ("--frames must exceed --warmup + 1\n");
    return 2;
  }

  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  GstCaps *caps = gst_video_info_to_caps (&info);
  gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
  gchar *caps_str = gst_caps_to_string (caps);
  gchar *desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" "
      "max-buffers=4 block=true ! %s ! fakesink name=sink sync=false "
      "signal-handoffs=true", caps_str, chain);
  GstElement *pipe = gst_parse_launch (desc, &err);
  if (!pipe) {
    g_printerr ("pipeline: %s\n", err->message);
    return 1;
  }
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), NULL);

  /* a few distinct random frames, never zeros */
  GstBuffer *prepared[4];
  for (int k = 0; k < 4; k++) {
    GstMapInfo map;
    guint32 s = 0x9E3779B9u * (k + 1);
    prepared[k] = gst_buffer_new_allocate (NULL, info.size, NULL);
    gst_buffer_map (prepared[k], &map, GST_MAP_WRITE);
    for (gsize i = 0; i < map.size; i++) {
      s ^= s << 13;
      s ^= s >> 17;
      s ^= s << 5;
      map.data[i] = (guint8) (s >> 24);
    }
    gst_buffer_unmap (prepared[k], &map);
  }

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (int i = 0; i < frames; i++) {
    GstBuffer *b = gst_buffer_copy (prepared[i % 4]);   /* shares memory */
    GST_BUFFER_PTS (b) = i * GST_MSECOND;
    GST_BUFFER_DURATION (b) = GST_MSECOND;
    if (gst_app_src_push_buffer (GST_APP_SRC (src), b) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));

  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  int rc = 0;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &err, &dbg);
    g_printerr ("error: %s (%s)\n", err->message, dbg ? dbg : "");
    rc = 1;
  } else if (frames_seen < frames) {
    g_printerr ("only %d of %d frames arrived\n", frames_seen, frames);
    rc = 1;
  } else {
    double secs = (t_last - t_first) / 1e6;
    double fps = (frames_seen - warmup) / secs;
    g_print ("%dx%d %s, %d frames (%d warm-up): %.1f frames/s, %.3f ms/frame"
        "  | %s\n", width, height, format, frames_seen, warmup, fps,
        1000.0 / fps, chain);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  for (int k = 0; k < 4; k++)
    gst_buffer_unref (prepared[k]);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_free (desc);
  g_free (caps_str);
  gst_caps_unref (caps);
  return rc;
}
