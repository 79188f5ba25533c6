/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Overlap in the cudamorphology elements (gstcudaplanefilteroverlap.h):
 * the ring of frames in flight, then what the element does with it. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudaplanefilteroverlap.h"
#include "gstcudaplanefilterdebug.h"

#include "gstcudaplanefilternegotiation.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_plane_filter_overlap_debug);
#define GST_CAT_DEFAULT gst_cuda_plane_filter_overlap_debug

/* ---- the ring ----------------------------------------------------------- */

static void
gst_cuda_plane_filter_ring_init (GstCudaPlaneFilterRing * ring,
    GstCudaPlaneFilterDevice * dev)
{
  memset (ring, 0, sizeof (*ring));
  ring->dev = dev;
}

static void
gst_cuda_plane_filter_ring_events_free (GstCudaPlaneFilterRing * ring)
{
  g_clear_pointer (&ring->events[0], cm_event_free);
  g_clear_pointer (&ring->events[1], cm_event_free);
}

/* The two events of frames left on the device (device entered); FALSE:
 * no overlap. */
static gboolean
gst_cuda_plane_filter_ring_events_new (GstCudaPlaneFilterRing * ring)
{
  if (cm_event_new (&ring->events[0]) != CM_OK ||
      cm_event_new (&ring->events[1]) != CM_OK) {
    gst_cuda_plane_filter_ring_events_free (ring);
    return FALSE;
  }
  return TRUE;
}

/* Frames may be left on the device (the events exist). */
static gboolean
gst_cuda_plane_filter_ring_can_overlap (GstCudaPlaneFilterRing * ring)
{
  return ring->events[0] != NULL && ring->events[1] != NULL;
}

/**
 * gst_cuda_plane_filter_ring_frame_begin:
 *
 * Before a buffer is transformed: nothing of it is in flight yet.
 */
static void
gst_cuda_plane_filter_ring_frame_begin (GstCudaPlaneFilterRing * ring)
{
  ring->deferred = FALSE;
}

/* The event to record after the frame being transformed. */
static cm_event
gst_cuda_plane_filter_ring_defer_event (GstCudaPlaneFilterRing * ring)
{
  ring->deferred_event = ring->events[ring->next_event];
  ring->next_event ^= 1;
  return ring->deferred_event;
}

/* The frame's work and event are queued: its input kept until read. */
static void
gst_cuda_plane_filter_ring_deferred (GstCudaPlaneFilterRing * ring,
    GstBuffer * inbuf)
{
  ring->deferred = TRUE;
  ring->deferred_in = gst_buffer_ref (inbuf);
}

/* The frame gave no output (an error): its input let go. */
static void
gst_cuda_plane_filter_ring_frame_abort (GstCudaPlaneFilterRing * ring)
{
  if (ring->deferred)
    gst_clear_buffer (&ring->deferred_in);
  ring->deferred = FALSE;
  ring->deferred_filter = NULL;
}

/* TRUE: the ring took @outbuf (transfer full): its frame is on the
 * device or older ones go first; FALSE: it leaves now, the caller's. */
static gboolean
gst_cuda_plane_filter_ring_take (GstCudaPlaneFilterRing * ring,
    GstBuffer * outbuf)
{
  GstCudaPlaneFilterPending *pf;

  if (ring->len == 0 && !ring->deferred)
    return FALSE;
  g_assert (ring->len < GST_CUDA_PLANE_FILTER_RING_SIZE);
  pf = &ring->pending[(ring->head + ring->len) %
      GST_CUDA_PLANE_FILTER_RING_SIZE];
  pf->outbuf = outbuf;
  pf->inbuf = ring->deferred ? ring->deferred_in : NULL;
  pf->event = ring->deferred ? ring->deferred_event : NULL;
  pf->status = CM_OK;
  pf->filter = ring->deferred ? ring->deferred_filter : NULL;
  pf->slot = ring->deferred_slot;
  pf->results_flow = GST_FLOW_OK;
  ring->deferred_in = NULL;
  ring->deferred_filter = NULL;
  ring->len++;
  return TRUE;
}

/* The oldest frame leaves now: done, or a newer one waits behind it. */
static gboolean
gst_cuda_plane_filter_ring_has_ready (GstCudaPlaneFilterRing * ring)
{
  return ring->len > 1 || (ring->len == 1 &&
      ring->pending[ring->head].event == NULL);
}

/* Waits until the device has finished @pf (when it was left in flight),
 * reads an analyser's results (@read) and lets go of its input. Once
 * done, again: nothing. */
static void
complete (GstCudaPlaneFilterOverlapState * ov, GstCudaPlaneFilterPending * pf,
    gboolean read)
{
  gboolean pushed;

  if (pf->event != NULL) {
    pf->status = gst_cuda_plane_filter_device_enter (ov->ring.dev, &pushed);
    if (pf->status == CM_OK) {
      pf->status = cm_event_sync (pf->event);
      gst_cuda_plane_filter_device_leave (ov->ring.dev, pushed);
    }
    pf->event = NULL;
  }
  if (pf->filter != NULL && read && pf->status == CM_OK)
    pf->results_flow = ov->results (ov->trans, g_steal_pointer (&pf->inbuf),
        pf->outbuf, pf->filter, pf->slot);
  pf->filter = NULL;
  gst_clear_buffer (&pf->inbuf);
}

/* The oldest frame out, once done: its output (NULL when the device
 * failed on it, an error posted, or its results could not be read). */
static GstFlowReturn
gst_cuda_plane_filter_ring_pop (GstCudaPlaneFilterOverlapState * ov,
    GstBuffer ** outbuf)
{
  GstCudaPlaneFilterRing *ring = &ov->ring;
  GstCudaPlaneFilterPending *pf = &ring->pending[ring->head];
  GstFlowReturn ret = GST_FLOW_OK;

  g_assert (ring->len > 0);
  complete (ov, pf, TRUE);
  *outbuf = g_steal_pointer (&pf->outbuf);
  ring->head = (ring->head + 1) % GST_CUDA_PLANE_FILTER_RING_SIZE;
  ring->len--;
  if (pf->status != CM_OK) {
    gst_cuda_plane_filter_device_post_error (ring->dev, pf->status,
        "Failed to process a frame on the CUDA device");
    ret = GST_FLOW_ERROR;
  } else {
    ret = pf->results_flow;
  }
  if (ret != GST_FLOW_OK)
    gst_clear_buffer (outbuf);
  return ret;
}

/**
 * gst_cuda_plane_filter_ring_drop:
 *
 * Flush, stop: the frames in flight are waited for and dropped, their
 * results unread.
 */
static void
gst_cuda_plane_filter_ring_drop (GstCudaPlaneFilterOverlapState * ov)
{
  GstCudaPlaneFilterRing *ring = &ov->ring;

  while (ring->len > 0) {
    GstCudaPlaneFilterPending *pf = &ring->pending[ring->head];

    complete (ov, pf, FALSE);
    gst_clear_buffer (&pf->outbuf);
    ring->head = (ring->head + 1) % GST_CUDA_PLANE_FILTER_RING_SIZE;
    ring->len--;
  }
  ring->head = 0;
}

/* ---- the element's overlap ---------------------------------------------- */

/* The overlap property, kept by the base class, read at every caps. */
void
gst_cuda_plane_filter_overlap_install_property (GObjectClass * gobject_class,
    guint prop_overlap)
{
  /**
   * GstCudaPlaneFilter:overlap:
   *
   * Whether a frame may stay on the device while the next one comes in.
   * Read at every caps negotiation.
   */
  g_object_class_install_property (gobject_class, prop_overlap,
      g_param_spec_enum ("overlap", "Overlap",
          "Keep one frame on the GPU while the next one comes in, so that "
          "the device computes and copies while the pipeline moves "
          "buffers: more frames per second for one frame of latency "
          "(reported in the latency query). A frame held back leaves when "
          "the next buffer or any serialized event (EOS, segment, caps) "
          "comes, so an application that waits for each result before "
          "pushing the next frame must keep this off. auto = when upstream "
          "is not live, except with CUDA memory on both pads on GStreamer "
          ">= 1.24, where frames leave with their GPU work still queued, "
          "ordered by the memory's CUDA stream, at no latency; on = always; "
          "off = every frame leaves before the next comes in. Only frames "
          "in CUDA or pinned host memory (the "
          "pools the element proposes) overlap, on the CUDA backend, in "
          "every element but cudalinspectrum, which reads its results "
          "after each frame; cudablobs overlaps frames analysed whole (not "
          "by regions), posts their message and puts their meta on them "
          "as they leave, and keeps two frames' results in pinned memory. "
          "Takes effect at the next caps negotiation",
          GST_TYPE_CUDA_MORPHOLOGY_OVERLAP, GST_CUDA_PLANE_FILTER_OVERLAP_DEFAULT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MORPHOLOGY_OVERLAP, 0);
}

/**
 * gst_cuda_plane_filter_overlap_init:
 * @trans: the element (its object lock guards the latency)
 * @dev: its device, entered to wait for frames left on it
 * @results: reads the results of an analyser's frame left on the device
 *     once it is done
 */
void
gst_cuda_plane_filter_overlap_init (GstCudaPlaneFilterOverlapState * ov,
    GstBaseTransform * trans, GstCudaPlaneFilterDevice * dev,
    GstCudaPlaneFilterResultsFunc results)
{
  GST_CUDA_PLANE_FILTER_DEBUG_INIT_ONCE (gst_cuda_plane_filter_overlap_debug,
      "cudaplanefilteroverlap", "CUDA plane filter overlap");
  ov->trans = trans;
  ov->results = results;
  gst_cuda_plane_filter_ring_init (&ov->ring, dev);
  ov->latency = 0;
}

/* Started on CUDA: the events of overlapped frames (none: no overlap). */
void
gst_cuda_plane_filter_overlap_start (GstCudaPlaneFilterOverlapState * ov)
{
  gboolean pushed;

  /* the events of overlapped frames; without them, no overlap */
  if (gst_cuda_plane_filter_device_enter (ov->ring.dev, &pushed) == CM_OK) {
    if (!gst_cuda_plane_filter_ring_events_new (&ov->ring))
      GST_WARNING_OBJECT (ov->trans, "no CUDA events: no overlap");
    gst_cuda_plane_filter_device_leave (ov->ring.dev, pushed);
  }
}

/* Stopping (frames dropped first): the events freed (device entered), the
 * overlap and its latency forgotten. */
void
gst_cuda_plane_filter_overlap_stop (GstCudaPlaneFilterOverlapState * ov)
{
  gst_cuda_plane_filter_ring_events_free (&ov->ring);
  ov->ring.active = FALSE;
  GST_OBJECT_LOCK (ov->trans);
  ov->latency = 0;
  GST_OBJECT_UNLOCK (ov->trans);
}

/* Whether frames of the new caps may stay on the device while the next
 * one comes in (property overlap; auto: when upstream is not live, and
 * not where frames in CUDA memory on both pads leave with their work in
 * flight anyway, ordered by their memories' streams: GStreamer >= 1.24;
 * an analyser, whose results are read on the host, waits for every frame
 * without overlap whatever the memory). */
static gboolean
choose (GstCudaPlaneFilterOverlapState * ov, GstCudaMorphologyOverlap mode,
    gboolean host_results, gboolean results_wait, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaPlaneFilterDevice *dev = ov->ring.dev;
  gboolean live = FALSE;
  GstQuery *q;

  /* analysers whose results cannot wait read them after each frame */
  if (dev->backend != CM_BACKEND_CUDA || (host_results && !results_wait) ||
      !gst_cuda_plane_filter_ring_can_overlap (&ov->ring) ||
      mode == GST_CUDA_MORPHOLOGY_OVERLAP_OFF)
    return FALSE;
  if (mode == GST_CUDA_MORPHOLOGY_OVERLAP_ON)
    return TRUE;
  if (!host_results && dev->gst_stream != NULL &&
      gst_cuda_plane_filter_negotiation_caps_is_cuda (incaps) &&
      gst_cuda_plane_filter_negotiation_caps_is_cuda (outcaps)) {
    GST_DEBUG_OBJECT (ov->trans, "CUDA memory on both pads: stream order, "
        "no overlap");
    return FALSE;
  }

  q = gst_query_new_latency ();
  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (ov->trans), q))
    gst_query_parse_latency (q, &live, NULL, NULL);
  gst_query_unref (q);
  GST_DEBUG_OBJECT (ov->trans, "upstream is %slive: overlap %s", live ? "" :
      "not ", live ? "off" : "on");
  return !live;
}

/* Overlap for the new caps (old frames drained); with @host_results
 * (frame_done) only where they can wait (@results_wait: frame_left); a
 * latency message when the latency changes. */
void
gst_cuda_plane_filter_overlap_configure (GstCudaPlaneFilterOverlapState * ov,
    GstCudaMorphologyOverlap mode, gboolean host_results,
    gboolean results_wait, GstCaps * incaps, GstCaps * outcaps,
    const GstVideoInfo * info)
{
  gboolean active = choose (ov, mode, host_results, results_wait, incaps,
      outcaps);
  GstClockTime latency = 0;
  gboolean changed;

  if (active && GST_VIDEO_INFO_FPS_N (info) > 0)
    latency = gst_util_uint64_scale_int (GST_SECOND,
        GST_VIDEO_INFO_FPS_D (info), GST_VIDEO_INFO_FPS_N (info));
  ov->ring.active = active;
  GST_OBJECT_LOCK (ov->trans);
  changed = ov->latency != latency;
  ov->latency = latency;
  GST_OBJECT_UNLOCK (ov->trans);
  if (changed)
    gst_element_post_message (GST_ELEMENT (ov->trans),
        gst_message_new_latency (GST_OBJECT (ov->trans)));
}

/* Frames of the caps overlap (one more input buffer held). */
gboolean
gst_cuda_plane_filter_overlap_is_active (GstCudaPlaneFilterOverlapState * ov)
{
  return ov->ring.active;
}

/* One frame duration more in @query. Any thread. */
void
gst_cuda_plane_filter_overlap_add_latency (GstCudaPlaneFilterOverlapState * ov,
    GstQuery * query)
{
  GstClockTime min, max, frame;
  gboolean live;

  GST_OBJECT_LOCK (ov->trans);
  frame = ov->latency;
  GST_OBJECT_UNLOCK (ov->trans);
  if (frame == 0)
    return;
  gst_query_parse_latency (query, &live, &min, &max);
  min += frame;
  if (GST_CLOCK_TIME_IS_VALID (max))
    max += frame;
  gst_query_set_latency (query, live, min, max);
}

/* A drain empties the ring first, then goes on (FALSE); the src latency
 * query is answered here (TRUE, in *@res) with one frame more. */
gboolean
gst_cuda_plane_filter_overlap_query (GstCudaPlaneFilterOverlapState * ov,
    GstPadDirection direction, GstQuery * query,
    GstCudaPlaneFilterQueryFunc parent_query, gboolean * res)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_DRAIN && direction == GST_PAD_SINK)
    gst_cuda_plane_filter_overlap_drain (ov);
  if (GST_QUERY_TYPE (query) != GST_QUERY_LATENCY || direction != GST_PAD_SRC)
    return FALSE;
  *res = parent_query (ov->trans, direction, query);
  if (*res)
    gst_cuda_plane_filter_overlap_add_latency (ov, query);
  return TRUE;
}

/* Before @filter runs on a frame: with @results (an analyser's frame)
 * the result slot it writes chosen, one no frame in flight waits on (a
 * frame that cannot stay reads the waiting frames' results first);
 * then the event to record after the frame's work when it stays on the
 * device (@may_stay, and no staging involved: the device uses the
 * buffers themselves; @out NULL: only analysed), else NULL. An
 * analyser's frame stays only where its results can wait, in a slot of
 * their own. */
cm_event
gst_cuda_plane_filter_overlap_defer_event (GstCudaPlaneFilterOverlapState * ov,
    const GstCudaPlaneFilterMappedFrame * in,
    const GstCudaPlaneFilterMappedFrame * out, cm_filter * filter,
    gboolean results, gboolean may_stay)
{
  GstCudaPlaneFilterRing *ring = &ov->ring;
  gboolean slots = results && cm_filter_result_slots (filter) > 1;
  guint slot = slots ? ring->next_event : 0;
  gboolean stays = may_stay && ring->dev->backend == CM_BACKEND_CUDA &&
      ring->active && (in->device || in->pinned) && (out == NULL ||
      out->device || out->pinned) && (!results || slots);
  cm_event event;

  /* an analyser's frame read at once: the frames waiting are read first,
   * before it runs (reading them selects their slots) */
  if (results && !stays)
    gst_cuda_plane_filter_overlap_settle (ov);
  /* the slot of the frame that would stay next: never a waiting one's */
  if (results)
    cm_filter_use_result_slot (filter, slot);
  if (!stays)
    return NULL;
  event = gst_cuda_plane_filter_ring_defer_event (ring);
  ring->deferred_filter = results ? filter : NULL;
  ring->deferred_slot = slot;
  return event;
}

/* The results of the analyser's frames in flight read now, oldest first
 * (their buffers stay, to leave in order; a failure leaves with its
 * frame): before a frame whose results are read at once, before a
 * region's results are gathered and before a filter is freed. */
void
gst_cuda_plane_filter_overlap_settle (GstCudaPlaneFilterOverlapState * ov)
{
  GstCudaPlaneFilterRing *ring = &ov->ring;
  guint i;

  for (i = 0; i < ring->len; i++) {
    GstCudaPlaneFilterPending *pf = &ring->pending[(ring->head + i) %
        GST_CUDA_PLANE_FILTER_RING_SIZE];

    if (pf->filter != NULL)
      complete (ov, pf, TRUE);
  }
}

/* The frame's work is queued with defer_event's event: it stays on the
 * device, its input kept until read. */
void
gst_cuda_plane_filter_overlap_deferred (GstCudaPlaneFilterOverlapState * ov,
    GstBuffer * inbuf)
{
  gst_cuda_plane_filter_ring_deferred (&ov->ring, inbuf);
}

/**
 * gst_cuda_plane_filter_overlap_drop:
 *
 * Flush, stop: the frames in flight are waited for and dropped.
 */
void
gst_cuda_plane_filter_overlap_drop (GstCudaPlaneFilterOverlapState * ov)
{
  gst_cuda_plane_filter_ring_drop (ov);
}

/* Before a serialized event, a drain, a DISCONT buffer or new caps: the
 * frames in flight pushed in order (dropped after a failed push). */
GstFlowReturn
gst_cuda_plane_filter_overlap_drain (GstCudaPlaneFilterOverlapState * ov)
{
  GstFlowReturn ret = GST_FLOW_OK;

  while (ov->ring.len > 0 && ret == GST_FLOW_OK) {
    GstBuffer *outbuf;

    ret = gst_cuda_plane_filter_ring_pop (ov, &outbuf);
    if (ret == GST_FLOW_OK)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (ov->trans), outbuf);
  }
  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (ov->trans, "drain: %s", gst_flow_get_name (ret));
    gst_cuda_plane_filter_overlap_drop (ov);
  }
  return ret;
}

/* GstBaseTransform's generate_output, after each input and until no
 * buffer: with overlap the new frame stays and the previous one leaves. */
GstFlowReturn
gst_cuda_plane_filter_overlap_generate_output (GstCudaPlaneFilterOverlapState *
    ov, GstCudaPlaneFilterGenerateFunc generate, GstBuffer ** outbuf)
{
  GstBaseTransform *trans = ov->trans;
  GstFlowReturn ret;

  *outbuf = NULL;
  /* the frames in flight come before a discontinuity: pushed first, so
   * that GstBaseTransform marks the frame after it (not an older one) */
  if (trans->queued_buf != NULL && ov->ring.len > 0 &&
      GST_BUFFER_IS_DISCONT (trans->queued_buf)) {
    ret = gst_cuda_plane_filter_overlap_drain (ov);
    if (ret != GST_FLOW_OK)
      return ret;
  }
  if (trans->queued_buf != NULL) {
    GstBuffer *out = NULL;

    gst_cuda_plane_filter_ring_frame_begin (&ov->ring);
    ret = generate (trans, &out);
    if (ret != GST_FLOW_OK || out == NULL) {
      /* GstBaseTransform drops @out on an error */
      gst_cuda_plane_filter_ring_frame_abort (&ov->ring);
      *outbuf = out;
      return ret;
    }
    /* the usual case without overlap: it leaves now */
    if (!gst_cuda_plane_filter_ring_take (&ov->ring, out)) {
      *outbuf = out;
      return GST_FLOW_OK;
    }
  }

  /* the oldest frame leaves once it is done or once a newer one waits
   * behind it: at most one frame stays on the device */
  if (!gst_cuda_plane_filter_ring_has_ready (&ov->ring))
    return GST_FLOW_OK;
  return gst_cuda_plane_filter_ring_pop (ov, outbuf);
}

/* A flush stop drops the frames in flight; another serialized event pushes
 * them first. */
void
gst_cuda_plane_filter_overlap_sink_event (GstCudaPlaneFilterOverlapState * ov,
    GstEvent * event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    gst_cuda_plane_filter_overlap_drop (ov);
  } else if (GST_EVENT_IS_SERIALIZED (event)) {
    GstFlowReturn ret = gst_cuda_plane_filter_overlap_drain (ov);

    /* the frames held back could not be pushed: at EOS nothing else will
     * report it (a device failure was posted by the drain already) */
    if (GST_EVENT_TYPE (event) == GST_EVENT_EOS &&
        (ret == GST_FLOW_NOT_LINKED || ret == GST_FLOW_NOT_NEGOTIATED))
      GST_ELEMENT_FLOW_ERROR (ov->trans, ret);
  }
}
