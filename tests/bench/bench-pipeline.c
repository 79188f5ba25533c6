/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench-pipeline: end-to-end frames per second of an element chain.
 *
 *   bench-pipeline [--width W] [--height H] [--format GRAY8] [--frames N]
 *                  [--warmup K] [--memory system|cuda]
 *                  [--producer plain|pool] "cudamorph operation=erode ..."
 *
 * appsrc re-pushes a few prepared random frames (so the source costs almost
 * nothing), the chain under test processes them, fakesink sync=false drops
 * them. Time runs from the K-th to the last frame leaving the chain, so the
 * first frames (plan building, CUDA context creation) are excluded.
 *
 * --memory cuda: the prepared frames are uploaded once by cudaupload in a
 * side pipeline, and the CUDA buffers themselves are re-pushed, with that
 * pipeline's GstCudaContext given to the measured one: the chain runs in
 * CUDA memory from end to end and no upload or download is timed.
 *
 * --producer pool (system memory): after the first frame has negotiated,
 * the prepared frames are copied into buffers of the pool that the first
 * element proposes upstream (pinned host memory on the CUDA backend), as a
 * source that honours the allocation query (v4l2src, videotestsrc) would
 * fill them; --producer plain (default) pushes ordinary malloc'ed frames,
 * which the element copies into pinned staging first.
 */
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
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

/* Pushes one plain frame to negotiate, then asks the chain for its
 * allocation proposal and copies the prepared frames into buffers of the
 * proposed pool. */
static gboolean
refill_from_proposed_pool (GstElement * src, const GstVideoInfo * info,
    GstBuffer ** prepared)
{
  GstPad *pad = gst_element_get_static_pad (src, "src");
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstQuery *q = NULL;
  GstCaps *caps = NULL;
  gboolean ok = FALSE;
  guint size;

  gst_app_src_push_buffer (GST_APP_SRC (src), gst_buffer_copy (prepared[0]));
  /* the chain answers once it has negotiated; the frame itself may stay
   * in the chain (overlap), so do not wait for it at the sink */
  for (int tries = 0; tries < 5000; tries++, g_usleep (1000)) {
    if (caps == NULL)
      caps = gst_pad_get_current_caps (pad);
    if (caps == NULL)
      continue;
    q = gst_query_new_allocation (caps, TRUE);
    if (gst_pad_peer_query (pad, q) &&
        gst_query_get_n_allocation_pools (q) > 0)
      break;
    gst_clear_query (&q);
  }
  if (q == NULL)
    goto done;
  gst_query_parse_nth_allocation_pool (q, 0, &pool, &size, NULL, NULL);
  if (pool == NULL)
    goto done;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, 4, 0);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config) ||
      !gst_buffer_pool_set_active (pool, TRUE))
    goto done;
  ok = TRUE;
  for (int k = 0; ok && k < 4; k++) {
    GstBuffer *b = NULL;
    GstVideoFrame from, to;

    ok = gst_buffer_pool_acquire_buffer (pool, &b, NULL) == GST_FLOW_OK &&
        gst_video_frame_map (&from, info, prepared[k], GST_MAP_READ);
    if (ok && !gst_video_frame_map (&to, info, b, GST_MAP_WRITE)) {
      gst_video_frame_unmap (&from);
      ok = FALSE;
    }
    if (ok) {
      ok = gst_video_frame_copy (&to, &from);
      gst_video_frame_unmap (&to);
      gst_video_frame_unmap (&from);
    }
    if (ok) {
      gst_buffer_unref (prepared[k]);
      prepared[k] = b;
    } else if (b) {
      gst_buffer_unref (b);
    }
  }
  if (ok)
    g_print ("producer: frames in buffers of the proposed %s\n",
        G_OBJECT_TYPE_NAME (pool));

done:
  if (pool)
    gst_object_unref (pool);
  if (q)
    gst_query_unref (q);
  if (caps)
    gst_caps_unref (caps);
  gst_object_unref (pad);
  return ok;
}

int
main (int argc, char **argv)
{
  gint width = 3840, height = 2160, frames = 1000;
  const gchar *format = "GRAY8";
  gboolean cuda = FALSE, producer_pool = FALSE;
  GstElement *up_pipe = NULL;
  GstContext *cuda_context = NULL;
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
    else if (!strcmp (argv[i], "--memory") && i + 1 < argc)
      cuda = !strcmp (argv[++i], "cuda");
    else if (!strcmp (argv[i], "--producer") && i + 1 < argc)
      producer_pool = !strcmp (argv[++i], "pool");
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


  if (cuda) {
    /* upload the prepared frames once; keep the buffers and the context */
    gchar *str = gst_caps_to_string (caps);
    gchar *up_desc = g_strdup_printf ("appsrc name=src format=time "
        "caps=\"%s\" ! cudaupload name=up ! video/x-raw(memory:CUDAMemory) ! "
        "appsink name=sink sync=false",
        str);
    GstElement *up_src, *up_sink, *up;
    GstQuery *q;

    up_pipe = gst_parse_launch (up_desc, &err);
    if (!up_pipe || err) {
      g_printerr ("upload pipeline: %s\n", err->message);
      return 1;
    }
    up_src = gst_bin_get_by_name (GST_BIN (up_pipe), "src");
    up_sink = gst_bin_get_by_name (GST_BIN (up_pipe), "sink");
    up = gst_bin_get_by_name (GST_BIN (up_pipe), "up");
    gst_element_set_state (up_pipe, GST_STATE_PLAYING);
    for (int k = 0; k < 4; k++) {
      GstBuffer *b = gst_buffer_copy (prepared[k]);

      GST_BUFFER_PTS (b) = k * GST_MSECOND;
      gst_app_src_push_buffer (GST_APP_SRC (up_src), b);
    }
    for (int k = 0; k < 4; k++) {
      GstSample *sample = gst_app_sink_pull_sample (GST_APP_SINK (up_sink));

      if (sample == NULL) {
        g_printerr ("cudaupload gave no frame\n");
        return 1;
      }
      gst_buffer_unref (prepared[k]);
      prepared[k] = gst_buffer_ref (gst_sample_get_buffer (sample));
      if (k == 0) {
        gst_caps_unref (caps);
        caps = gst_caps_copy (gst_sample_get_caps (sample));
      }
      gst_sample_unref (sample);
    }
    q = gst_query_new_context ("gst.cuda.context");
    {
      GstPad *pad = gst_element_get_static_pad (up, "src");

      if (gst_pad_query (pad, q))
        gst_query_parse_context (q, &cuda_context);
      if (cuda_context)
        gst_context_ref (cuda_context);
      gst_object_unref (pad);
    }
    gst_query_unref (q);
    if (cuda_context == NULL)
      g_printerr ("warning: cudaupload shares no context: the chain may "
          "map the frames for the host\n");
    gst_object_unref (up_src);
    gst_object_unref (up_sink);
    gst_object_unref (up);
    g_free (up_desc);
    g_free (str);
  }

  gchar *caps_str = gst_caps_to_string (caps);
  gchar *desc = g_strdup_printf ("appsrc name=src format=time caps=\"%s\" "
      "max-buffers=4 block=true ! %s ! fakesink name=sink sync=false "
      "signal-handoffs=true", caps_str, chain);
  GstElement *pipe = gst_parse_launch (desc, &err);
  if (!pipe || err) {
    g_printerr ("pipeline: %s\n", err->message);
    return 1;
  }
  if (cuda_context)
    gst_element_set_context (pipe, cuda_context);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), NULL);

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  if (producer_pool && !cuda && !refill_from_proposed_pool (src, &info,
          prepared))
    g_printerr ("warning: the chain proposed no pool: plain frames\n");
  for (int i = producer_pool && !cuda ? 1 : 0; i < frames; i++) {
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
    g_print ("%dx%d %s %s memory%s, %d frames (%d warm-up): %.1f frames/s, "
        "%.3f ms/frame  | %s\n", width, height, format, cuda ? "CUDA" :
        "system", cuda ? "" : producer_pool ? " (pool producer)" :
        " (plain producer)", frames_seen, warmup, fps, 1000.0 / fps, chain);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  for (int k = 0; k < 4; k++)
    gst_buffer_unref (prepared[k]);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  if (up_pipe) {
    gst_element_set_state (up_pipe, GST_STATE_NULL);
    gst_object_unref (up_pipe);
  }
  if (cuda_context)
    gst_context_unref (cuda_context);
  g_free (desc);
  g_free (caps_str);
  gst_caps_unref (caps);
  return rc;
}
