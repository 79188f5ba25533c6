/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The base class on the CUDA backend, where a review found defects that
 * the CPU backend cannot reach (GstHarness, cudamorph backend=cuda):
 *
 * - the GstCudaContext: one given while the element is stopped replaces
 *   the one kept from an earlier run; one given while it runs is ignored;
 * - the overlap ring: a drain query pushes the frame held back, the pool
 *   proposed upstream counts the input buffer held, a latency message
 *   comes when overlap starts, a DISCONT lands on the frame after the
 *   discontinuity, not on the older frame pushed before it;
 * - CUDA memory permission read once per caps query, whatever start or
 *   stop (here: backend changes) happen meanwhile;
 * - chroma copied with the extent of the output frame when the input's
 *   GstVideoMeta describes a larger frame than the caps;
 * - (GStreamer >= 1.24) an input that its producer writes on its own
 *   stream and pushes before that work is done (NEED_SYNC) is read only
 *   once it is written;
 * - (GStreamer >= 1.24) frames pushed with their work still queued: the
 *   next element reads them once written, the producer refills an input
 *   only once the element has read it, the application maps the output
 *   once it is written.
 *
 * Exits 77 (meson: SKIP) without a CUDA device or without the CUDA driver
 * library of gstreamer-cuda. */
#include <stdio.h>
#include <string.h>

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/gstcudabufferpool.h>
#if GST_CHECK_VERSION (1, 24, 0)
#include <gst/cuda/gstcudastream.h>
#endif

#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>

#include "element-harness.h"
#include "frame-compare.h"
#include "padded-frames.h"
#include "chain-compare.h"
#include "device.h"
#include "test-util.h"
#include "test-suite.h"

/* ---- helpers ------------------------------------------------------------ */

/* The GstCudaContext the element answers a context query with. */
static GstCudaContext *
answered_context (GstElement * e)
{
  GstQuery *q = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstPad *src = gst_element_get_static_pad (e, "src");
  GstCudaContext *ctx = NULL;
  GstContext *c = NULL;

  if (gst_pad_query (src, q)) {
    gst_query_parse_context (q, &c);
    if (c != NULL)
      gst_structure_get (gst_context_get_structure (c),
          GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &ctx, NULL);
  }
  gst_query_unref (q);
  gst_object_unref (src);
  return ctx;
}

static void
give_context (GstElement * e, GstCudaContext * ctx)
{
  GstContext *c = gst_context_new_cuda_context (ctx);

  gst_element_set_context (e, c);
  gst_context_unref (c);
}

/* Tears down @h and lets go of the messages it left on @bus: the
 * structure-change messages of the teardown hold the harness's pads,
 * which stay linked to the element (a new harness could not link it)
 * until they are finalized. */
static void
harness_teardown_release (GstHarness * h, GstBus * bus)
{
  GstMessage *msg;

  gst_harness_teardown (h);
  while ((msg = gst_bus_pop (bus)) != NULL) {
    fail_if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR, "error on the bus");
    gst_message_unref (msg);
  }
}

static GstElement *
cuda_element (const MorphParams * p, GstBus ** bus)
{
  GstElement *e = morph_element_new ("cuda", p);

  *bus = gst_bus_new ();
  gst_element_set_bus (e, *bus);
  return e;
}

static void
element_clear (GstElement * e, GstBus * bus)
{
  GstMessage *msg = test_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

  fail_unless (msg == NULL, "error on the bus");
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

/* ---- context ------------------------------------------------------------ */

GST_START_TEST (test_context_replaced_when_stopped)
{
  MorphParams p = MORPH_PARAMS_DEFAULT;
  GstBus *bus;
  GstElement *e = cuda_element (&p, &bus);
  GstCudaContext *first, *given, *late, *ctx;
  GstHarness *h;
  GstVideoInfo info;

  p.op = CM_MORPH_OPEN;
  p.width = 5;
  gst_util_set_object_arg (G_OBJECT (e), "operation", "open");
  g_object_set (e, "width", 5, NULL);

  /* a first run: the element finds or makes a context and keeps it */
  h = morph_harness_new (e);
  morph_harness_set_caps (h, "NV12", 64, 48, &info);
  morph_push_and_check (h, &info, &p, 1, 0, "first run");
  first = answered_context (e);
  fail_unless (first != NULL, "no context after the first run");
  harness_teardown_release (h, bus);

  /* stopped: a context given now is the one of the next run */
  given = gst_cuda_context_new (0);
  fail_unless (given != NULL);
  fail_if (given == first);
  give_context (e, given);
  h = morph_harness_new (e);
  morph_harness_set_caps (h, "NV12", 64, 48, &info);
  morph_push_and_check (h, &info, &p, 2, 0, "second run");
  ctx = answered_context (e);
  fail_unless (ctx == given, "the element kept its earlier context %"
      GST_PTR_FORMAT " instead of the one given while stopped %"
      GST_PTR_FORMAT, ctx, given);
  gst_clear_object (&ctx);

  /* running: a context given now is not taken */
  late = gst_cuda_context_new (0);
  give_context (e, late);
  ctx = answered_context (e);
  fail_unless (ctx == given, "the context changed while running");
  gst_clear_object (&ctx);
  morph_push_and_check (h, &info, &p, 3, 0, "after a context while running");
  gst_harness_teardown (h);

  gst_object_unref (late);
  gst_object_unref (given);
  gst_object_unref (first);
  element_clear (e, bus);
}

GST_END_TEST;

/* ---- overlap ring ------------------------------------------------------- */

/* a random frame in a buffer of the pool the element proposed upstream
 * (pinned host memory on the CUDA backend: frames that may overlap) */
static GstBuffer *
pool_frame (GstHarness * h, const GstVideoInfo * info, guint64 seed)
{
  GstBuffer *buf = gst_harness_create_buffer (h, GST_VIDEO_INFO_SIZE (info));
  GstBuffer *ref = morph_make_input (info, seed, 0);
  GstMapInfo map;

  fail_unless (buf != NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  fail_unless (gst_buffer_extract (ref, 0, map.data, map.size) ==
      GST_VIDEO_INFO_SIZE (info));
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (ref);
  return buf;
}

GST_START_TEST (test_overlap_ring)
{
  MorphParams p = MORPH_PARAMS_DEFAULT;
  GstBus *bus;
  GstElement *e = cuda_element (&p, &bus);
  GstHarness *h = morph_harness_new (e);
  GstVideoInfo info;
  GstBuffer *in[4], *out;
  GstQuery *q;
  GstCaps *caps;
  GstMessage *msg;
  guint min = 0;

  gst_util_set_object_arg (G_OBJECT (e), "overlap", "on");
  morph_harness_set_caps (h, "GRAY8", 96, 40, &info);

  /* overlap adds a frame of latency: the pipeline is told */
  msg = test_bus_pop_filtered (bus, GST_MESSAGE_LATENCY);
  fail_unless (msg != NULL, "no latency message when overlap started");
  gst_message_unref (msg);

  /* the proposed pool counts the input buffer held back */
  caps = gst_video_info_to_caps (&info);
  q = gst_query_new_allocation (caps, TRUE);
  fail_unless (gst_pad_peer_query (h->srcpad, q));
  fail_unless (gst_query_get_n_allocation_pools (q) > 0);
  gst_query_parse_nth_allocation_pool (q, 0, NULL, NULL, &min, NULL);
  fail_unless (min >= 1, "proposed pool min_buffers %u: the held input "
      "buffer is not counted", min);
  gst_query_unref (q);
  gst_caps_unref (caps);

  /* frame 0 stays on the device; a drain query pushes it */
  for (int i = 0; i < 4; i++)
    in[i] = pool_frame (h, &info, 40 + i);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[0])),
      GST_FLOW_OK);
  fail_unless (gst_harness_try_pull (h) == NULL, "frame 0 was not held "
      "back: overlap is not active, the test proves nothing");
  q = gst_query_new_drain ();
  fail_unless (gst_pad_peer_query (h->srcpad, q));
  gst_query_unref (q);
  out = gst_harness_try_pull (h);
  fail_unless (out != NULL, "the drain query left frame 0 in the element");
  fail_unless (morph_check_output (in[0], out, &info, &p, "drained"));
  gst_buffer_unref (out);

  /* frame 2 follows a discontinuity: frame 1 leaves before it, unmarked */
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[1])),
      GST_FLOW_OK);
  in[2] = gst_buffer_make_writable (in[2]);
  GST_BUFFER_FLAG_SET (in[2], GST_BUFFER_FLAG_DISCONT);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[2])),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[3])),
      GST_FLOW_OK);
  for (int i = 1; i <= 2; i++) {
    gchar *what = g_strdup_printf ("frame %d", i);

    out = gst_harness_pull (h);
    fail_unless (out != NULL, "%s: no output", what);
    fail_unless (morph_check_output (in[i], out, &info, &p, what));
    fail_unless (GST_BUFFER_IS_DISCONT (out) == (i == 2), "%s: DISCONT %s",
        what, GST_BUFFER_IS_DISCONT (out) ? "set" : "missing");
    gst_buffer_unref (out);
    g_free (what);
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  out = gst_harness_pull (h);
  fail_unless (out != NULL && morph_check_output (in[3], out, &info, &p,
          "frame 3 at EOS"));
  gst_buffer_unref (out);

  for (int i = 0; i < 4; i++)
    gst_buffer_unref (in[i]);
  gst_harness_teardown (h);
  element_clear (e, bus);
}

GST_END_TEST;

/* ---- caps permission ---------------------------------------------------- */

static GstElement *toggled;
static gint toggle_stop;

static gpointer
toggle_backend (gpointer data)
{
  for (guint i = 0; !g_atomic_int_get (&toggle_stop); i++)
    gst_util_set_object_arg (G_OBJECT (toggled), "backend",
        (i & 1) ? "cpu" : "cuda");
  return NULL;
}

/* @caps contain a structure in CUDA memory */
static gboolean
has_cuda (GstCaps * caps)
{
  for (guint i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (f && gst_caps_features_contains (f,
            GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY))
      return TRUE;
  }
  return FALSE;
}

/* CUDA caps in give CUDA and system caps out, or nothing: never system
 * memory alone (the permission read twice, changed between the reads) */
GST_START_TEST (test_caps_permission_read_once)
{
  GstCaps *in = gst_caps_from_string ("video/x-raw(memory:CUDAMemory),"
      "format=NV12,width=64,height=48,framerate=30/1");
  GstBaseTransformClass *klass;
  GThread *t;
  guint torn = 0, both = 0, none = 0;

  toggled = morph_element_new ("cuda", NULL);
  klass = GST_BASE_TRANSFORM_GET_CLASS (toggled);
  g_atomic_int_set (&toggle_stop, FALSE);
  t = g_thread_new ("backend", toggle_backend, NULL);
  for (guint i = 0; i < 100000; i++) {
    GstCaps *out = klass->transform_caps (GST_BASE_TRANSFORM (toggled),
        GST_PAD_SINK, in, NULL);

    if (gst_caps_is_empty (out))
      none++;
    else if (has_cuda (out))
      both++;
    else
      torn++;
    gst_caps_unref (out);
  }
  g_atomic_int_set (&toggle_stop, TRUE);
  g_thread_join (t);
  fail_unless_equals_int (torn, 0);
  fail_unless (both > 0 && none > 0, "the backend changes did not reach "
      "the caps queries (%u with CUDA, %u empty): the test proves nothing",
      both, none);
  gst_caps_unref (in);
  gst_object_unref (toggled);
}

GST_END_TEST;

/* ---- chroma extent ------------------------------------------------------ */

/* An NV12 frame of @info whose GstVideoMeta says it is @meta_height rows
 * tall (rows 0..height-1 random). */
static GstBuffer *
tall_meta_frame (const GstVideoInfo * info, gint meta_height, guint64 seed)
{
  GstVideoInfo tall;
  GstBuffer *buf, *ref = morph_make_input (info, seed, 0);
  GstVideoFrame f, r;

  gst_video_info_set_format (&tall, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), meta_height);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&tall), NULL);
  gst_buffer_memset (buf, 0, 0x5a, GST_VIDEO_INFO_SIZE (&tall));
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&tall), GST_VIDEO_INFO_WIDTH (&tall),
      meta_height, GST_VIDEO_INFO_N_PLANES (&tall), tall.offset, tall.stride);
  fail_unless (gst_video_frame_map (&f, &tall, buf, GST_MAP_WRITE));
  fail_unless (gst_video_frame_map (&r, (GstVideoInfo *) info, ref,
          GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint rows = p == 0 ? GST_VIDEO_INFO_HEIGHT (info) :
        GST_VIDEO_INFO_HEIGHT (info) / 2;

    for (gint y = 0; y < rows; y++)
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, p),
          (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&r, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&r, p),
          GST_VIDEO_INFO_WIDTH (info));
  }
  gst_video_frame_unmap (&r);
  gst_video_frame_unmap (&f);
  gst_buffer_unref (ref);
  return buf;
}

GST_START_TEST (test_chroma_extent_of_output)
{
  GstBus *bus;
  GstElement *e = cuda_element (NULL, &bus);      /* the defaults */
  GstHarness *h = morph_harness_new (e);
  GstVideoInfo info;
  GstVideoFrame fi, fo;
  GstBuffer *in, *out;
  GstCaps *caps;

  /* system memory in, CUDA memory out: the chroma copy is on the device */
  gst_harness_set_sink_caps_str (h, "video/x-raw(memory:CUDAMemory)");
  morph_harness_set_caps (h, "NV12", 64, 16, &info);
  in = tall_meta_frame (&info, 16384, 7);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL, "no output");
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY), "output not in CUDA memory: "
      "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);

  /* the chroma of the caps' 64x16 frame, unchanged */
  fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_READ));
  for (gint y = 0; y < 8; y++)
    fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fo, 1) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 1),
            (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fi, 1) +
            y * GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 1), 64) == 0,
        "chroma row %d differs", y);
  gst_video_frame_unmap (&fo);
  gst_video_frame_unmap (&fi);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
  element_clear (e, bus);
}

GST_END_TEST;

/* ---- stream-ordered input (GStreamer >= 1.24) --------------------------- */

#if GST_CHECK_VERSION (1, 24, 0)
/* An active GstCudaBufferPool of @caps on @ctx whose buffers are written
 * on @stream, @n buffers at the least and at the most (0: no limit). */
static GstBufferPool *
stream_pool_new (GstCudaContext * ctx, GstCudaStream * stream,
    GstCaps * caps, const GstVideoInfo * info, guint n)
{
  GstBufferPool *pool = gst_cuda_buffer_pool_new (ctx);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (info),
      n, n);
  gst_buffer_pool_config_set_cuda_stream (config, stream);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  return pool;
}

/* The planes of the NV12 @frame and @dev, one device image of its luma
 * rows then its chroma rows, copied on @s: @frame (system memory) into
 * @dev, or @dev into @frame (CUDA memory) when @into_frame. */
static void
nv12_planes_copy (const cm_image * dev, GstVideoFrame * frame,
    gboolean into_frame, CUstream s)
{
  for (guint p = 0; p < 2; p++) {
    gint w = GST_VIDEO_FRAME_WIDTH (frame), rows = p == 0 ?
        GST_VIDEO_FRAME_HEIGHT (frame) : GST_VIDEO_FRAME_HEIGHT (frame) / 2;
    guint8 *d = (guint8 *) dev->data + (p == 0 ? 0 :
        dev->pitch * GST_VIDEO_FRAME_HEIGHT (frame));
    guint8 *f = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    gsize stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);

    cm_status st = into_frame ?
        cm_copy_2d_async (f, stride, d, dev->pitch, w, rows, CM_COPY_D2D, s) :
        cm_copy_2d_async (d, dev->pitch, f, stride, w, rows, CM_COPY_H2D, s);

    fail_unless_equals_int (st, CM_OK);
  }
}

/* An upstream that writes each frame on its own GstCudaStream behind a
 * long run of device copies (tens of milliseconds) and pushes it at once,
 * its memory flagged NEED_SYNC, as a stream-ordered producer does: the
 * element must read the frame written, not what the memory held before. */
GST_START_TEST (test_input_written_on_another_stream)
{
  MorphParams p = MORPH_PARAMS_DEFAULT;
  GstBus *bus;
  GstElement *e = cuda_element (&p, &bus);
  GstCudaContext *ctx = gst_cuda_context_new (0);
  GstCudaStream *stream;
  GstHarness *h;
  GstVideoInfo info;
  GstBufferPool *pool;
  GstCaps *caps;
  cm_image busy_a = { 0, }, busy_b = { 0, }, frame_src = { 0, };
  gint w = 1920, hgt = 1080;

  fail_unless (ctx != NULL);
  stream = gst_cuda_stream_new (ctx);
  fail_unless (stream != NULL);
  give_context (e, ctx);
  h = morph_harness_new (e);
  caps = gst_caps_from_string ("video/x-raw(memory:CUDAMemory),format=NV12,"
      "width=1920,height=1080,framerate=30/1");
  fail_unless (gst_video_info_from_caps (&info, caps));
  gst_harness_set_src_caps (h, gst_caps_ref (caps));

  pool = stream_pool_new (ctx, stream, caps, &info, 0);

  fail_unless (gst_cuda_context_push (ctx));
  /* 256 MB copied again and again: the producer's stream stays busy */
  fail_unless_equals_int (cm_device_image_alloc (&busy_a, 16384, 16384,
          CM_DEPTH_8), CM_OK);
  fail_unless_equals_int (cm_device_image_alloc (&busy_b, 16384, 16384,
          CM_DEPTH_8), CM_OK);
  /* the frame's planes, luma rows then chroma rows, on the device */
  fail_unless_equals_int (cm_device_image_alloc (&frame_src, w,
          hgt + hgt / 2, CM_DEPTH_8), CM_OK);
  gst_cuda_context_pop (NULL);

  for (int k = 0; k < 3; k++) {
    GstBuffer *ref = morph_make_input (&info, 60 + k, 0), *buf = NULL, *out;
    GstVideoFrame f, r;
    CUstream s = gst_cuda_stream_get_handle (stream);
    gchar *what = g_strdup_printf ("frame %d", k);

    fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf,
            NULL), GST_FLOW_OK);
    fail_unless (gst_video_frame_map (&r, &info, ref, GST_MAP_READ));
    fail_unless (gst_cuda_context_push (ctx));
    /* the reference uploaded beforehand, synchronously */
    nv12_planes_copy (&frame_src, &r, FALSE, s);
    fail_unless_equals_int (cm_stream_sync (s), CM_OK);
    /* then the frame written on the producer's stream behind the copies */
    fail_unless (gst_video_frame_map (&f, &info, buf,
            GST_MAP_WRITE | GST_MAP_CUDA));
    for (int i = 0; i < 200; i++)
      fail_unless_equals_int (cm_copy_2d_async (busy_b.data, busy_b.pitch,
              busy_a.data, busy_a.pitch, 16384, 16384, CM_COPY_D2D, s),
          CM_OK);
    nv12_planes_copy (&frame_src, &f, TRUE, s);
    gst_video_frame_unmap (&f);
    gst_cuda_context_pop (NULL);
    gst_video_frame_unmap (&r);
    fail_unless (GST_MEMORY_FLAG_IS_SET (gst_buffer_peek_memory (buf, 0),
            GST_CUDA_MEMORY_TRANSFER_NEED_SYNC), "the producer's memory is "
        "not flagged NEED_SYNC: the test proves nothing");

    /* pushed at once, the copies still running */
    out = gst_harness_push_and_pull (h, buf);
    fail_unless (out != NULL, "%s: no output", what);
    fail_unless (morph_check_output (ref, out, &info, &p, what),
        "%s: the element read the frame before its producer wrote it", what);
    gst_buffer_unref (out);
    gst_buffer_unref (ref);
    g_free (what);
  }

  gst_harness_teardown (h);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  fail_unless (gst_cuda_context_push (ctx));
  cm_device_free (busy_a.data);
  cm_device_free (busy_b.data);
  cm_device_free (frame_src.data);
  gst_cuda_context_pop (NULL);
  gst_cuda_stream_unref (stream);
  gst_caps_unref (caps);
  gst_object_unref (ctx);
  element_clear (e, bus);
}

GST_END_TEST;

/* Two cudamorph in CUDA memory, fed by a producer whose pool has one
 * buffer on its own stream: each element pushes with its work queued (the
 * first one's takes milliseconds: 48 erosions). The producer refills the
 * one buffer as soon as the first element lets go of it, while that
 * element's stream is still busy with the frame before: only if the
 * element made the producer's stream wait for its reading is the frame
 * it reads the one it was given. The second element reads the first
 * one's output while it may still be written; the application maps the
 * last output for the host. Every frame must equal the CPU backend's.
 * _i 1: both elements filter a region of interest (the region path
 * leaves its frames in flight too). Regions are filtered in place where
 * the buffer is writable, so the producer's buffer may travel on to the
 * sink: the pool then holds a buffer per frame, since the frames are
 * pulled only after all were pushed. */
#define CHAIN_ROI "<700,300,517,389>"

GST_START_TEST (test_chain_left_in_flight)
{
  const gint n_frames = 6, w = 1920, hgt = 1080;
  MorphParams pa = MORPH_PARAMS_DEFAULT, pb = MORPH_PARAMS_DEFAULT;
  GstCudaContext *ctx = gst_cuda_context_new (0);
  GstCudaStream *stream;
  GstElement *pipe, *a, *b, *src, *sink;
  GstBufferPool *pool;
  GstStructure *st;
  GstContext *c;
  GstCaps *caps;
  GstVideoInfo info;
  GstBuffer *refs[6];
  cm_image dev_src[6];
  GstBus *bus;
  GstMessage *msg;

  pa.iterations = 48;
  pb.op = CM_MORPH_DILATE;
  pb.width = 5;
  fail_unless (ctx != NULL);
  stream = gst_cuda_stream_new (ctx);
  fail_unless (stream != NULL);
  caps = gst_caps_from_string ("video/x-raw(memory:CUDAMemory),format=NV12,"
      "width=1920,height=1080,framerate=30/1");
  fail_unless (gst_video_info_from_caps (&info, caps));

  /* appsrc ! a ! b ! appsink, all in CUDA memory of ctx; the suite's
   * registry holds our plugin only: the app elements come from their
   * library */
  if (!gst_element_register (NULL, "appsrc", GST_RANK_NONE,
          GST_TYPE_APP_SRC) ||
      !gst_element_register (NULL, "appsink", GST_RANK_NONE,
          GST_TYPE_APP_SINK))
    fail ("cannot register appsrc and appsink");
  pipe = gst_pipeline_new (NULL);
  src = gst_element_factory_make ("appsrc", NULL);
  sink = gst_element_factory_make ("appsink", NULL);
  fail_unless (src != NULL && sink != NULL);
  a = morph_element_new ("cuda", &pa);
  b = morph_element_new ("cuda", &pb);
  if (__i__ == 1) {
    gst_util_set_object_arg (G_OBJECT (a), "roi", CHAIN_ROI);
    gst_util_set_object_arg (G_OBJECT (b), "roi", CHAIN_ROI);
  }
  g_object_set (src, "caps", caps, "format", GST_FORMAT_TIME,
      "max-bytes", (guint64) 0, NULL);
  gst_bin_add_many (GST_BIN (pipe), src, a, b, sink, NULL);
  /* no capsfilter (coreelements is not in the registry either) */
  g_object_set (sink, "sync", FALSE, "caps", caps, NULL);
  fail_unless (gst_element_link_many (src, a, b, sink, NULL));
  c = gst_context_new_cuda_context (ctx);
  gst_element_set_context (pipe, c);
  gst_context_unref (c);

  pool = stream_pool_new (ctx, stream, caps, &info,
      __i__ == 1 ? n_frames : 1);

  /* the frames on the device beforehand (luma rows, then chroma rows) */
  fail_unless (gst_cuda_context_push (ctx));
  for (gint k = 0; k < n_frames; k++) {
    GstVideoFrame r;
    CUstream s = gst_cuda_stream_get_handle (stream);

    refs[k] = morph_make_input (&info, 300 + k, 0);
    memset (&dev_src[k], 0, sizeof (dev_src[k]));
    fail_unless_equals_int (cm_device_image_alloc (&dev_src[k], w,
            hgt + hgt / 2, CM_DEPTH_8), CM_OK);
    fail_unless (gst_video_frame_map (&r, &info, refs[k], GST_MAP_READ));
    nv12_planes_copy (&dev_src[k], &r, FALSE, s);
    fail_unless_equals_int (cm_stream_sync (s), CM_OK);
    gst_video_frame_unmap (&r);
  }
  gst_cuda_context_pop (NULL);

  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  for (gint k = 0; k < n_frames; k++) {
    GstBuffer *buf = NULL;
    GstVideoFrame f;
    CUstream s = gst_cuda_stream_get_handle (stream);

    /* waits until the first element let go of the frame before */
    fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf,
            NULL), GST_FLOW_OK);
    fail_unless (gst_video_frame_map (&f, &info, buf,
            GST_MAP_WRITE | GST_MAP_CUDA));
    fail_unless (gst_cuda_context_push (ctx));
    nv12_planes_copy (&dev_src[k], &f, TRUE, s);
    gst_cuda_context_pop (NULL);
    gst_video_frame_unmap (&f);
    GST_BUFFER_PTS (buf) = k * GST_SECOND / 30;
    GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src), buf),
        GST_FLOW_OK);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));

  for (gint k = 0; k < n_frames; k++) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        60 * GST_SECOND);
    GstHarness *h1, *h2;
    GstBuffer *mid, *want;
    GstVideoInfo sys;
    gchar *what = g_strdup_printf ("frame %d", k);

    fail_unless (sample != NULL, "%s: no output", what);
    /* the same two filters on the CPU backend */
    GstElement *ca = morph_element_new ("cpu", &pa);
    GstElement *cb = morph_element_new ("cpu", &pb);

    if (__i__ == 1) {
      gst_util_set_object_arg (G_OBJECT (ca), "roi", CHAIN_ROI);
      gst_util_set_object_arg (G_OBJECT (cb), "roi", CHAIN_ROI);
    }
    h1 = morph_harness_new (ca);
    h2 = morph_harness_new (cb);
    morph_harness_set_caps (h1, "NV12", w, hgt, &sys);
    morph_harness_set_caps (h2, "NV12", w, hgt, &sys);
    mid = gst_harness_push_and_pull (h1, gst_buffer_ref (refs[k]));
    want = gst_harness_push_and_pull (h2, mid);
    fail_unless (want != NULL);
    fail_unless (morph_frames_equal (want, gst_sample_get_buffer (sample),
            &sys, what), "%s: differs from the CPU backend's: a stream "
        "was not ordered", what);
    gst_buffer_unref (want);
    gst_harness_teardown (h2);
    gst_harness_teardown (h1);
    gst_sample_unref (sample);
    g_free (what);
  }

  /* the frames left with their work queued: the path under test ran */
  st = query_stats (a);
  fail_unless (st != NULL);
  fail_unless_equals_uint64 (stat_get (st, "stream-ordered"), n_frames);
  gst_structure_free (st);
  st = query_stats (b);
  fail_unless (st != NULL);
  fail_unless_equals_uint64 (stat_get (st, "stream-ordered"), n_frames);
  gst_structure_free (st);

  bus = gst_element_get_bus (pipe);
  msg = test_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg == NULL, "error on the bus");
  gst_object_unref (bus);
  fail_unless (gst_element_set_state (pipe, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipe);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  fail_unless (gst_cuda_context_push (ctx));
  for (gint k = 0; k < n_frames; k++) {
    cm_device_free (dev_src[k].data);
    gst_buffer_unref (refs[k]);
  }
  gst_cuda_context_pop (NULL);
  gst_cuda_stream_unref (stream);
  gst_caps_unref (caps);
  gst_object_unref (ctx);
}

GST_END_TEST;
#endif

static const TestSuiteEntry suite_tests[] = {
  TEST_SUITE_TEST (test_context_replaced_when_stopped),
  TEST_SUITE_TEST (test_overlap_ring),
  TEST_SUITE_TEST (test_caps_permission_read_once),
#if GST_CHECK_VERSION (1, 24, 0)
  TEST_SUITE_TEST (test_input_written_on_another_stream),
  TEST_SUITE_LOOP (test_chain_left_in_flight, 0, 2),
#endif
  /* last: before its fix it wrote past a device buffer */
  TEST_SUITE_TEST (test_chroma_extent_of_output),
  {NULL}
};

int
main (int argc, char **argv)
{
  /* before gst_check_init: no device, no test (meson shows SKIP) */
  if (cm_device_count () == 0) {
    printf ("no usable CUDA device: skipping\n");
    return TEST_SKIP;
  }
  g_setenv ("CK_FORK", "no", TRUE);
  gst_check_init (&argc, &argv);
  if (!gst_cuda_load_library ()) {
    printf ("no CUDA driver library for gstreamer-cuda: skipping\n");
    return TEST_SKIP;
  }
  return gst_check_run_suite (test_suite_new ("base-gpu", "cuda", 300,
          suite_tests), "base-gpu", __FILE__);
}
