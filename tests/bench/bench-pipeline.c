/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench-pipeline: end-to-end frames per second of an element chain.
 *
 *   bench-pipeline [--width W] [--height H] [--format GRAY8] [--frames N]
 *                  [--warmup K] [--memory system|cuda]
 *                  [--producer plain|pool|fill] [--streams S]
 *                  [--start-after FILE] "cudamorph operation=erode ..."
 *
 * --streams S runs S copies of the pipeline in this process at once, each
 * fed by its own thread (cameras of an inspection line in one
 * application); every stream's rate is printed, then their sum. For S
 * processes instead, see tests/bench/bench-processes.sh: with
 * --start-after FILE the frames start to flow once FILE exists, so that
 * processes started one after the other are measured together.
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
 * which the element copies into pinned staging first. --producer fill
 * copies each frame into a fresh buffer of that pool in the feeder thread
 * and keeps no reference to it, as a camera does: the element may write
 * it (regions of interest are then filtered in place).
 */
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <stdlib.h>
#include <string.h>

static gint warmup = 30;

/* One pipeline of the run and what its sink saw. */
typedef struct
{
  guint index;
  GstElement *pipe, *src, *sink;
  GstBuffer *prepared[4];       /* this stream's frames (shared memory) */
  gint frames_seen;
  gint64 t_first, t_last;
  gint frames;                  /* to push */
  gboolean from_pool;           /* prepared[] are the chain's pool buffers */
  GstBufferPool *pool;          /* --producer fill: each frame a new buffer
                                 * of it */
  GThread *feeder;
  int rc;
  double device_us;             /* the chain's device time per frame */
  gint results;                 /* element messages read (analysers) */
} Stream;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  Stream *st = data;
  gint n = g_atomic_int_add (&st->frames_seen, 1) + 1;

  if (n == warmup)
    st->t_first = g_get_monotonic_time ();
  st->t_last = g_get_monotonic_time ();
}

/* Analysers' messages (cudalinspectrum, cudablobs) read as they come, on
 * the thread that posts them (the streaming thread, cudablobs' own
 * message thread), as an application's sync handler would: counted
 * and dropped, so that they do not pile up on the bus. */
static GstBusSyncReply
on_element_message (GstBus * bus, GstMessage * msg, gpointer data)
{
  Stream *st = data;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ELEMENT ||
      gst_message_get_structure (msg) == NULL)
    return GST_BUS_PASS;
  g_atomic_int_inc (&st->results);
  gst_message_unref (msg);
  return GST_BUS_DROP;
}

/* Pushes one plain frame to negotiate, then asks the chain for its
 * allocation proposal and copies the prepared frames into buffers of the
 * proposed pool. */
static gboolean
refill_from_proposed_pool (GstElement * src, const GstVideoInfo * info,
    GstBuffer ** prepared, GstBufferPool ** keep)
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
  if (ok && keep)
    *keep = gst_object_ref (pool);

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

/* Builds stream @st's pipeline from @desc and sets it PLAYING; with
 * @from_pool its frames are copied into the pool the chain proposes. */
static int
stream_start (Stream * st, const gchar * desc, GstContext * cuda_context,
    const GstVideoInfo * info, gboolean from_pool, gboolean fill)
{
  GError *err = NULL;

  st->pipe = gst_parse_launch (desc, &err);
  if (!st->pipe || err) {
    g_printerr ("pipeline: %s\n", err->message);
    return 1;
  }
  {
    GstBus *bus = gst_element_get_bus (st->pipe);

    gst_bus_set_sync_handler (bus, on_element_message, st, NULL);
    gst_object_unref (bus);
  }
  if (cuda_context)
    gst_element_set_context (st->pipe, cuda_context);
  st->src = gst_bin_get_by_name (GST_BIN (st->pipe), "src");
  st->sink = gst_bin_get_by_name (GST_BIN (st->pipe), "sink");
  g_signal_connect (st->sink, "handoff", G_CALLBACK (on_handoff), st);
  gst_element_set_state (st->pipe, GST_STATE_PLAYING);
  if (from_pool) {
    st->from_pool = refill_from_proposed_pool (st->src, info, st->prepared,
        fill ? &st->pool : NULL);
    if (!st->from_pool)
      g_printerr ("warning: the chain proposed no pool: plain frames\n");
  }
  return 0;
}

/* Feeder thread: pushes the stream's frames, then EOS. */
static gpointer
stream_feed (gpointer data)
{
  Stream *st = data;

  /* the pool refill pushed the first frame already */
  for (int i = st->from_pool ? 1 : 0; i < st->frames; i++) {
    GstBuffer *b = NULL;

    if (st->pool != NULL) {
      GstMapInfo m;

      if (gst_buffer_pool_acquire_buffer (st->pool, &b, NULL) != GST_FLOW_OK)
        break;
      gst_buffer_map (st->prepared[i % 4], &m, GST_MAP_READ);
      gst_buffer_fill (b, 0, m.data, m.size);
      gst_buffer_unmap (st->prepared[i % 4], &m);
    } else {
      b = gst_buffer_copy (st->prepared[i % 4]);        /* shares memory */
    }
    GST_BUFFER_PTS (b) = i * GST_MSECOND;
    GST_BUFFER_DURATION (b) = GST_MSECOND;
    if (gst_app_src_push_buffer (GST_APP_SRC (st->src), b) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (st->src));
  return NULL;
}

/* The chain's device span per frame: the sum over its elements of the
 * mean span (first operation to last, on the element's stream) of their
 * sampled frames ("cudamorphology-stats" query: timed-frames,
 * device-ns); 0 when no element measured any. */
static double
chain_device_us (GstElement * pipe)
{
  GstIterator *it = gst_bin_iterate_elements (GST_BIN (pipe));
  GValue v = G_VALUE_INIT;
  double us = 0;

  while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElement *e = g_value_get_object (&v);
    GstElementFactory *f = gst_element_get_factory (e);
    const gchar *name = f ? GST_OBJECT_NAME (f) : "";
    GstQuery *q = gst_query_new_custom (GST_QUERY_CUSTOM,
        gst_structure_new_empty ("cudamorphology-stats"));
    guint64 n = 0, ns = 0;

    /* ours only: other elements forward the query to a neighbour */
    if ((!strcmp (name, "cudamorph") || !strcmp (name, "cudamedian") ||
            !strcmp (name, "cudalinspectrum") || !strcmp (name, "cudablobs"))
        && gst_element_query (e, q)) {
      const GstStructure *st = gst_query_get_structure (q);

      gst_structure_get_uint64 (st, "timed-frames", &n);
      gst_structure_get_uint64 (st, "device-ns", &ns);
      if (n > 0)
        us += ns / 1000.0 / n;
    }
    gst_query_unref (q);
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);
  return us;
}

/* Waits for the stream's EOS; 0 when every frame arrived. */
static int
stream_wait (Stream * st)
{
  GstBus *bus = gst_element_get_bus (st->pipe);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *dbg = NULL;
  int rc = 0;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, &dbg);
    g_printerr ("stream %u: error: %s (%s)\n", st->index, err->message,
        dbg ? dbg : "");
    g_clear_error (&err);
    g_free (dbg);
    rc = 1;
  } else if (st->frames_seen < st->frames) {
    g_printerr ("stream %u: only %d of %d frames arrived\n", st->index,
        st->frames_seen, st->frames);
    rc = 1;
  }
  if (rc == 0)
    st->device_us = chain_device_us (st->pipe);
  gst_message_unref (msg);
  gst_object_unref (bus);
  return rc;
}

static void
stream_clear (Stream * st)
{
  if (st->pipe)
    gst_element_set_state (st->pipe, GST_STATE_NULL);
  for (int k = 0; k < 4; k++)
    gst_clear_buffer (&st->prepared[k]);
  if (st->pool != NULL)
    gst_buffer_pool_set_active (st->pool, FALSE);
  gst_clear_object (&st->pool);
  gst_clear_object (&st->src);
  gst_clear_object (&st->sink);
  gst_clear_object (&st->pipe);
}

/* Each stream's frames/s after its warm-up, their sum, and the frames of
 * all streams over the window in which all were measured. */
static void
report (const Stream * streams, guint n, gint width, gint height,
    const gchar * format, gboolean cuda, const gchar * producer,
    const gchar * chain)
{
  gint64 first = G_MAXINT64, last = 0;
  double sum = 0;
  gint counted = 0;

  for (guint s = 0; s < n; s++) {
    const Stream *st = &streams[s];
    double fps = (st->frames_seen - warmup) /
        ((st->t_last - st->t_first) / 1e6);

    if (n > 1)
      g_print ("stream %u: %.1f frames/s\n", s, fps);
    sum += fps;
    counted += st->frames_seen - warmup;
    first = MIN (first, st->t_first);
    last = MAX (last, st->t_last);
  }
  g_print ("%dx%d %s %s memory%s, %u stream%s, %d frames each (%d "
      "warm-up): %.1f frames/s (sum of the streams; %.1f over the common "
      "window), %.3f ms/frame  | %s\n", width, height, format,
      cuda ? "CUDA" : "system", cuda ? "" : producer, n, n == 1 ? "" : "s",
      streams[0].frames_seen, warmup, sum, counted / ((last - first) / 1e6),
      1000.0 / sum, chain);
  if (streams[0].results > 0)
    g_print ("results: %d element messages read (stream 0)\n",
        streams[0].results);
  /* for bench-processes.sh: the monotonic clock is the same in every
   * process, so windows of several processes can be joined */
  g_print ("window: %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %d frames\n",
      first, last, counted);
  /* a span includes the device's idle gaps between launches: more than
   * the kernels' own time when the host launches slower than the device
   * runs (a frame's span, not its cost) */
  if (streams[0].device_us > 0)
    g_print ("device span per frame (the chain's elements, sampled, stream "
        "0): %.1f us, %.0f frames/s if the elements ran one after the "
        "other\n", streams[0].device_us, 1e6 / streams[0].device_us);
}

int
main (int argc, char **argv)
{
  gint width = 3840, height = 2160, frames = 1000;
  guint n_streams = 1;
  const gchar *start_after = NULL;
  const gchar *format = "GRAY8";
  gboolean cuda = FALSE, producer_pool = FALSE, producer_fill = FALSE;
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
    else if (!strcmp (argv[i], "--producer") && i + 1 < argc) {
      producer_fill = !strcmp (argv[++i], "fill");
      producer_pool = producer_fill || !strcmp (argv[i], "pool");
    }
    else if (!strcmp (argv[i], "--streams") && i + 1 < argc) {
      gint n = atoi (argv[++i]);

      n_streams = (guint) CLAMP (n, 1, 256);
    } else if (!strcmp (argv[i], "--start-after") && i + 1 < argc) {
      start_after = argv[++i];
    } else {
      chain = argv[i];
    }
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
  Stream *streams = g_new0 (Stream, n_streams);
  int rc = 0;

  for (guint s = 0; s < n_streams && rc == 0; s++) {
    streams[s].index = s;
    streams[s].frames = frames;
    for (int k = 0; k < 4; k++)
      streams[s].prepared[k] = gst_buffer_ref (prepared[k]);
    rc = stream_start (&streams[s], desc, cuda_context, &info,
        producer_pool && !cuda, producer_fill && !cuda);
  }
  /* all negotiated: now every feeder pushes at once */
  while (start_after && rc == 0 &&
      !g_file_test (start_after, G_FILE_TEST_EXISTS))
    g_usleep (1000);
  for (guint s = 0; s < n_streams && rc == 0; s++)
    streams[s].feeder = g_thread_new ("feeder", stream_feed, &streams[s]);
  for (guint s = 0; s < n_streams; s++) {
    if (streams[s].feeder)
      g_thread_join (streams[s].feeder);
    if (streams[s].pipe && rc == 0)
      rc = stream_wait (&streams[s]);
  }
  if (rc == 0)
    report (streams, n_streams, width, height, format, cuda, producer_fill ?
        " (filling producer)" : producer_pool ? " (pool producer)" :
        " (plain producer)", chain);
  for (guint s = 0; s < n_streams; s++)
    stream_clear (&streams[s]);
  g_free (streams);
  for (int k = 0; k < 4; k++)
    gst_buffer_unref (prepared[k]);
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
