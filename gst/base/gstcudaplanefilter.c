/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GstCudaPlaneFilter: a GstBaseTransform (not a GstVideoFilter, which
 * proposes system memory and maps without CUDA) whose subclass makes a
 * cm_filter for a plane size; frames are GRAY (the plane), I420, NV12,
 * Y444 (luma filtered, chroma copied) or RGBA, BGRA, RGBx, BGRx (each
 * colour channel, alpha copied; or whole when the filter runs packed).
 * This file: the class, properties, start/stop, caps and queries; a
 * frame's way is gstcudaplanefilterrun.c; the pieces are mapped in
 * docs/design.md. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudaplanefilterprivate.h"

#include "device.h"
#include "gstcudaplanefilternegotiation.h"
#include "gstcudaplanefiltererrors.h"

GST_DEBUG_CATEGORY (gst_cuda_plane_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_plane_filter_debug

#define DEFAULT_BACKEND GST_CUDA_PLANE_FILTER_DEVICE_DEFAULT_BACKEND
#define DEFAULT_CUDA_DEVICE_ID GST_CUDA_PLANE_FILTER_DEVICE_DEFAULT_ID
#define DEFAULT_OVERLAP GST_CUDA_PLANE_FILTER_OVERLAP_DEFAULT

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_OVERLAP,
  PROP_ROI,
  PROP_ROI_META,
};

/* Name of the custom query (GST_QUERY_CUSTOM, either pad) that the base
 * class answers with the frame statistics below. */
#define STATS_QUERY_NAME "cudamorphology-stats"


#define gst_cuda_plane_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCudaPlaneFilter,
    gst_cuda_plane_filter, GST_TYPE_BASE_TRANSFORM,
    G_ADD_PRIVATE (GstCudaPlaneFilter);
    GST_DEBUG_CATEGORY_INIT (gst_cuda_plane_filter_debug,
        "cudaplanefilter", 0, "CUDA plane filter base class"));

#define GET_PRIV(self) \
  ((GstCudaPlaneFilterPrivate *) \
      gst_cuda_plane_filter_get_instance_private (self))
gint gst_cuda_plane_filter_private_offset;

/* every core; a flush or a stop cancels (GST_FLOW_FLUSHING, no error) */
const cm_cpu_opts *
gst_cuda_plane_filter_cpu_opts (GstCudaPlaneFilter * self)
{
  return &GET_PRIV (self)->cpu_opts;
}

/**
 * gst_cuda_plane_filter_frames_in_flight:
 *
 * Whether frames of the caps may stay on the device with their results
 * unread (overlap chosen, and the class has frame_left): an analyser's
 * make_filter then gives its filter two result slots. Streaming thread
 * (make_filter).
 */
gboolean
gst_cuda_plane_filter_frames_in_flight (GstCudaPlaneFilter * self)
{
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);

  return GST_CUDA_PLANE_FILTER_GET_CLASS (self)->frame_left != NULL &&
      gst_cuda_plane_filter_overlap_is_active (&priv->overlap);
}

/* A frame computed on the CPU may take seconds: going to READY stops it
 * (the pads are deactivated only once the streaming thread has left it),
 * and starting again clears the flag. Values refused before the element
 * had a bus are posted when it leaves NULL. */
static GstStateChangeReturn
gst_cuda_plane_filter_change_state (GstElement * element,
    GstStateChange transition)
{
  GstCudaPlaneFilterPrivate *priv =
      GET_PRIV (GST_CUDA_PLANE_FILTER (element));

  if (transition == GST_STATE_CHANGE_NULL_TO_READY)
    gst_cuda_plane_filter_refusal_flush (element);
  else if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    g_atomic_int_set (&priv->cpu_cancel, 1);
  else if (transition == GST_STATE_CHANGE_READY_TO_PAUSED)
    g_atomic_int_set (&priv->cpu_cancel, 0);
  return GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
}

/* the properties in the private struct */
static const GstCudaPlaneFilterField gst_cuda_plane_filter_fields[] = {
  {PROP_BACKEND, G_STRUCT_OFFSET (GstCudaPlaneFilterPrivate, backend)},
  {PROP_CUDA_DEVICE_ID,
      G_STRUCT_OFFSET (GstCudaPlaneFilterPrivate, device_id)},
  {PROP_OVERLAP,
      G_STRUCT_OFFSET (GstCudaPlaneFilterPrivate, overlap_mode)},
};

static void
gst_cuda_plane_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaPlaneFilterPrivate *priv =
      GET_PRIV (GST_CUDA_PLANE_FILTER (object));

  if (prop_id == PROP_ROI || prop_id == PROP_ROI_META)
    gst_cuda_plane_filter_roi_set_property (object, &priv->roi,
        prop_id == PROP_ROI, value);
  else
    gst_cuda_plane_filter_settings_set (object, priv,
        gst_cuda_plane_filter_fields,
        G_N_ELEMENTS (gst_cuda_plane_filter_fields), prop_id, value,
        pspec);
}

static void
gst_cuda_plane_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaPlaneFilterPrivate *priv =
      GET_PRIV (GST_CUDA_PLANE_FILTER (object));

  if (prop_id == PROP_ROI || prop_id == PROP_ROI_META)
    gst_cuda_plane_filter_roi_get_property (object, &priv->roi,
        prop_id == PROP_ROI, value);
  else
    gst_cuda_plane_filter_settings_get (object, priv,
        gst_cuda_plane_filter_fields,
        G_N_ELEMENTS (gst_cuda_plane_filter_fields), prop_id, value,
        pspec);
}

/* ---- the element's state, for subclasses -------------------------------- */

/* the output's info (the input's unless the subclass converts) */
const GstVideoInfo *
gst_cuda_plane_filter_get_output_info (GstCudaPlaneFilter * self)
{
  return &GET_PRIV (self)->frames.out_info;
}

/* an element error "@what: <status text>", logged in the subclass's
 * category */
void
gst_cuda_plane_filter_post_status_error (GstCudaPlaneFilter * self,
    cm_status status, const gchar * what)
{
  gst_cuda_plane_filter_device_post_error (&GET_PRIV (self)->dev, status,
      what);
}

/* the filter made again before the next frame (a property changed); any
 * thread */
void
gst_cuda_plane_filter_mark_dirty (GstCudaPlaneFilter * self)
{
  g_return_if_fail (GST_IS_CUDA_PLANE_FILTER (self));

  g_atomic_int_set (&GET_PRIV (self)->dirty, TRUE);
}

/* What the caps and allocation callbacks read (gstcudaplanefilternegotiation.h):
 * allow_cuda under the object lock; the rest is set by start and set_caps,
 * which the caps and allocation queries do not race with. */
static void
gst_cuda_plane_filter_negotiation_state (GstBaseTransform * trans,
    GstCudaPlaneFilterNegotiationState * st)
{
  GstCudaPlaneFilterPrivate *priv =
      GET_PRIV (GST_CUDA_PLANE_FILTER (trans));

  GST_OBJECT_LOCK (trans);
  st->allow_cuda = gst_cuda_plane_filter_device_can_share (&priv->dev,
      priv->started, priv->backend == GST_CUDA_MORPHOLOGY_BACKEND_CPU);
  GST_OBJECT_UNLOCK (trans);
  st->backend = priv->dev.backend;
  st->context = priv->dev.context;
  st->stream = priv->dev.gst_stream;
  st->held = gst_cuda_plane_filter_overlap_is_active (&priv->overlap) ? 1 : 0;
  st->convert = priv->frames.convert;
}

/* Whether CUDA memory may be negotiated now (started on CUDA with a
 * context, or may be before the start); read it once per caps query. */
gboolean
gst_cuda_plane_filter_allow_cuda_memory (GstCudaPlaneFilter * self)
{
  GstCudaPlaneFilterNegotiationState st;

  g_return_val_if_fail (GST_IS_CUDA_PLANE_FILTER (self), FALSE);
  gst_cuda_plane_filter_negotiation_state (GST_BASE_TRANSFORM (self), &st);
  return st.allow_cuda;
}

static GstCaps *
gst_cuda_plane_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  return gst_cuda_plane_filter_negotiation_transform_caps (trans,
      gst_cuda_plane_filter_allow_cuda_memory (GST_CUDA_PLANE_FILTER (trans)),
      direction, caps, filter);
}

static gboolean
gst_cuda_plane_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaPlaneFilterNegotiationState st;

  gst_cuda_plane_filter_negotiation_state (trans, &st);
  return gst_cuda_plane_filter_negotiation_propose_allocation (trans, &st,
      decide_query, query);
}

static gboolean
gst_cuda_plane_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCudaPlaneFilterNegotiationState st;

  gst_cuda_plane_filter_negotiation_state (trans, &st);
  return gst_cuda_plane_filter_negotiation_decide_allocation (trans, &st,
      query);
}

/* ---- device and context ------------------------------------------------- */

static void
gst_cuda_plane_filter_set_context (GstElement * element,
    GstContext * context)
{
  GstCudaPlaneFilter *self = GST_CUDA_PLANE_FILTER (element);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  GstCudaMorphologyBackend backend;
  gboolean started;
  gint device_id;

  GST_OBJECT_LOCK (self);
  backend = priv->backend;
  device_id = priv->device_id;
  started = priv->started;
  GST_OBJECT_UNLOCK (self);

  /* the CPU backend shares nothing */
  if (backend != GST_CUDA_MORPHOLOGY_BACKEND_CPU)
    gst_cuda_plane_filter_device_set_context (&priv->dev, context, device_id,
        started);

  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static gboolean
gst_cuda_plane_filter_accept_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps)
{
  if (GST_BASE_TRANSFORM_CLASS (parent_class)->accept_caps (trans, direction,
          caps))
    return TRUE;
  gst_cuda_plane_filter_negotiation_explain_refusal (trans, direction, caps);
  return FALSE;
}

static gboolean
gst_cuda_plane_filter_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query)
{
  GstCudaPlaneFilter *self = GST_CUDA_PLANE_FILTER (trans);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  gboolean res;

  if (gst_cuda_plane_filter_device_query_context (&priv->dev, query))
    return TRUE;
  /* drains and latency: gstcudaplanefilteroverlap.c */
  if (gst_cuda_plane_filter_overlap_query (&priv->overlap, direction, query,
          GST_BASE_TRANSFORM_CLASS (parent_class)->query, &res))
    return res;

  if (GST_QUERY_TYPE (query) == GST_QUERY_CUSTOM &&
      gst_query_get_structure (query) != NULL &&
      gst_structure_has_name (gst_query_get_structure (query),
          STATS_QUERY_NAME)) {
    GST_OBJECT_LOCK (self);
    gst_cuda_plane_filter_frame_stats_to_structure (&priv->stats,
        gst_query_writable_structure (query));
    GST_OBJECT_UNLOCK (self);
    return TRUE;
  }

  /* caps in CUDA memory first: gstcudaplanefilternegotiation.c */
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS)
    return gst_cuda_plane_filter_negotiation_query_caps (trans,
        gst_cuda_plane_filter_allow_cuda_memory (self), direction, query);

  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

/**
 * gst_cuda_plane_filter_post_later:
 * @self: the element
 * @s: (transfer full): the message's structure, to be completed
 * @finish: completes @s from @data, off the streaming thread
 * @data: what @finish reads (owned by the call)
 * @free_data: frees @data after @finish
 *
 * Posts @s as an element message from a thread of the element's own,
 * after the messages given before it: for messages whose values take the
 * host long to build. They are all on the bus before the next serialized
 * event goes downstream (an EOS among them) and when the element stops.
 */
void
gst_cuda_plane_filter_post_later (GstCudaPlaneFilter * self,
    GstStructure * s, GstCudaPlaneFilterFinishFunc finish, gpointer data,
    GDestroyNotify free_data)
{
  gst_cuda_plane_filter_poster_post (&GET_PRIV (self)->poster, s, finish,
      data, free_data);
}

/* ---- start / stop / caps ------------------------------------------------ */

static gboolean
gst_cuda_plane_filter_start (GstBaseTransform * trans)
{
  GstCudaPlaneFilter *self = GST_CUDA_PLANE_FILTER (trans);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  gboolean ok;

  GstCudaMorphologyBackend backend;
  gint device_id;

  GST_OBJECT_LOCK (self);
  backend = priv->backend;
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);
  g_atomic_int_set (&priv->dirty, FALSE);

  gst_cuda_plane_filter_device_begin_start (&priv->dev);
  ok = gst_cuda_plane_filter_device_start (&priv->dev,
      backend == GST_CUDA_MORPHOLOGY_BACKEND_CPU,
      backend == GST_CUDA_MORPHOLOGY_BACKEND_CUDA, device_id);
  if (ok && priv->dev.backend == CM_BACKEND_CUDA)
    gst_cuda_plane_filter_overlap_start (&priv->overlap);
  if (ok) {
    GST_OBJECT_LOCK (self);
    priv->started = TRUE;
    memset (&priv->stats, 0, sizeof (priv->stats));
    GST_OBJECT_UNLOCK (self);
  }
  gst_cuda_plane_filter_device_end_start (&priv->dev);
  return ok;
}

static gboolean
gst_cuda_plane_filter_stop (GstBaseTransform * trans)
{
  GstCudaPlaneFilter *self = GST_CUDA_PLANE_FILTER (trans);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  gboolean pushed;

  /* frames still on the device are dropped (waited for first); the
   * messages of those that left are posted */
  gst_cuda_plane_filter_overlap_drop (&priv->overlap);
  gst_cuda_plane_filter_poster_drain (&priv->poster);

  /* what was allocated in the context is freed in it */
  if (gst_cuda_plane_filter_device_enter (&priv->dev, &pushed) != CM_OK)
    GST_WARNING_OBJECT (self, "cannot make the device current to free");
  else
    gst_cuda_plane_filter_device_finish_work (&priv->dev);

  g_clear_pointer (&priv->filter, cm_filter_free);
  gst_cuda_plane_filter_drop_filters (self);
  priv->filter_width = priv->filter_height = 0;
  gst_cuda_plane_filter_frame_path_free (&priv->frames);
  priv->configured = FALSE;
  gst_cuda_plane_filter_overlap_stop (&priv->overlap);

  gst_cuda_plane_filter_device_free_stream (&priv->dev);
  gst_cuda_plane_filter_device_leave (&priv->dev, pushed);
  /* the context stays for the next run, unless the device failed */
  gst_cuda_plane_filter_device_end_run (&priv->dev);
  GST_OBJECT_LOCK (self);
  priv->started = FALSE;
  GST_OBJECT_UNLOCK (self);

  return TRUE;
}

static gboolean
gst_cuda_plane_filter_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps)
{
  GstCudaPlaneFilter *self = GST_CUDA_PLANE_FILTER (trans);
  GstCudaPlaneFilterClass *klass = GST_CUDA_PLANE_FILTER_GET_CLASS (self);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  GstCudaPlaneFilterNegotiationState st;
  GstVideoInfo in_info, out_info;
  GstCudaMorphologyOverlap overlap_mode;
  gboolean pushed, ok;
  cm_status status;

  gst_cuda_plane_filter_negotiation_state (trans, &st);
  if (!gst_cuda_plane_filter_negotiation_check_caps (trans, &st, incaps,
          outcaps, &in_info, &out_info))
    return FALSE;

  GST_DEBUG_OBJECT (self, "caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      incaps, outcaps);
  priv->same_caps = gst_caps_is_equal (incaps, outcaps);

  /* frames of the old caps still on the device leave first (the source
   * pad has the old caps until this returns) */
  gst_cuda_plane_filter_overlap_drain (&priv->overlap);
  GST_OBJECT_LOCK (self);
  overlap_mode = priv->overlap_mode;
  GST_OBJECT_UNLOCK (self);
  gst_cuda_plane_filter_overlap_configure (&priv->overlap, overlap_mode,
      klass->frame_done != NULL, klass->frame_left != NULL, incaps, outcaps,
      &in_info);

  if (!gst_cuda_plane_filter_enter (self, &pushed))
    return FALSE;

  /* a new size or format (also mid-stream): everything is reallocated,
   * no filter of the old caps is kept; the pools follow in the
   * allocation queries that come next */
  gst_cuda_plane_filter_device_finish_work (&priv->dev);
  gst_cuda_plane_filter_drop_filters (self);
  gst_cuda_plane_filter_frame_path_clear (&priv->frames);
  priv->frames.backend = priv->dev.backend;
  priv->frames.stream = priv->dev.stream;
  priv->frames.context = priv->dev.context;
  priv->frames.host_results = klass->frame_done != NULL;
  priv->frames.chroma_scratch = klass->make_chroma_filter != NULL;
  priv->frames.chroma_neutral = klass->chroma != NULL;
  status = gst_cuda_plane_filter_frame_path_configure (&priv->frames, &in_info,
      &out_info);
  ok = status == CM_OK;
  if (!ok) {
    gst_cuda_plane_filter_device_post_error (&priv->dev, status,
        priv->dev.backend == CM_BACKEND_CUDA ?
        "Failed to allocate device and pinned host buffers"
        : "Failed to allocate host buffers");
    gst_cuda_plane_filter_frame_path_clear (&priv->frames);
  }

  if (ok) {
    g_atomic_int_set (&priv->dirty, FALSE);
    ok = gst_cuda_plane_filter_build (self, GST_VIDEO_INFO_WIDTH
        (&in_info), GST_VIDEO_INFO_HEIGHT (&in_info)) &&
        gst_cuda_plane_filter_build_chroma (self);
    /* another output format: an interleaved one only by a filter with that
     * path (one plane of another depth: the filter's run checks it) */
    if (ok && priv->frames.convert && priv->frames.out_channels > 1 &&
        !cm_filter_has_to_packed (priv->filter)) {
      GST_ERROR_OBJECT (self, "cannot convert %" GST_PTR_FORMAT " to %"
          GST_PTR_FORMAT, incaps, outcaps);
      ok = FALSE;
    }
    if (!ok) {
      GST_ERROR_OBJECT (self, "subclass failed to configure for %"
          GST_PTR_FORMAT, incaps);
      gst_cuda_plane_filter_frame_path_clear (&priv->frames);
    }
  }
  gst_cuda_plane_filter_device_leave (&priv->dev, pushed);

  priv->configured = ok;
  return ok;
}

/* GstBaseTransform calls this after each input buffer, then again until
 * it gets no buffer; with overlap the buffer given may be an older frame's
 * (gstcudaplanefilteroverlap.c). */
static GstFlowReturn
gst_cuda_plane_filter_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCudaPlaneFilterPrivate *priv =
      GET_PRIV (GST_CUDA_PLANE_FILTER (trans));

  return gst_cuda_plane_filter_overlap_generate_output (&priv->overlap,
      GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output, outbuf);
}

/* Per meta of every buffer: which metas the output keeps
 * (gstcudaplanefilternegotiation.c). Reads the frame path's format change
 * alone, without the lock the negotiation state takes. */
static gboolean
gst_cuda_plane_filter_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  GstCudaPlaneFilterPrivate *priv =
      GET_PRIV (GST_CUDA_PLANE_FILTER (trans));

  return gst_cuda_plane_filter_meta_is_kept (meta, priv->frames.convert);
}

static gboolean
gst_cuda_plane_filter_sink_event (GstBaseTransform * trans,
    GstEvent * event)
{
  GstCudaPlaneFilterPrivate *priv =
      GET_PRIV (GST_CUDA_PLANE_FILTER (trans));

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_START) {
    /* not serialized: a frame running on the CPU stops between rows */
    g_atomic_int_set (&priv->cpu_cancel, 1);
  } else if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    g_atomic_int_set (&priv->cpu_cancel, 0);
  }
  /* frames held back: dropped at a flush, pushed before the others */
  gst_cuda_plane_filter_overlap_sink_event (&priv->overlap, event);
  /* their messages and those before on the bus first (EOS: before the
   * sink posts its own) */
  if (GST_EVENT_IS_SERIALIZED (event))
    gst_cuda_plane_filter_poster_drain (&priv->poster);

  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static void
gst_cuda_plane_filter_finalize (GObject * object)
{
  GstCudaPlaneFilter *self = GST_CUDA_PLANE_FILTER (object);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  gboolean pushed, entered;

  /* normally done in stop () already; the subclass's filter too */
  entered = gst_cuda_plane_filter_device_enter (&priv->dev, &pushed) == CM_OK;
  g_clear_pointer (&priv->filter, cm_filter_free);
  gst_cuda_plane_filter_drop_filters (self);
  if (entered) {
    gst_cuda_plane_filter_frame_path_free (&priv->frames);
    gst_cuda_plane_filter_device_free_stream (&priv->dev);
    gst_cuda_plane_filter_device_leave (&priv->dev, pushed);
  }
  gst_cuda_plane_filter_device_drop_context (&priv->dev);
  gst_cuda_plane_filter_roi_clear (&priv->roi);
  gst_cuda_plane_filter_poster_clear (&priv->poster);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_plane_filter_class_init (GstCudaPlaneFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCaps *caps;

  gst_cuda_plane_filter_private_offset = GstCudaPlaneFilter_private_offset;
  gobject_class->set_property = gst_cuda_plane_filter_set_property;
  gobject_class->get_property = gst_cuda_plane_filter_get_property;
  gobject_class->finalize = gst_cuda_plane_filter_finalize;

  /* their blurbs say what the pieces that use them do */
  gst_cuda_plane_filter_device_install_properties (gobject_class, PROP_BACKEND,
      PROP_CUDA_DEVICE_ID);
  gst_cuda_plane_filter_overlap_install_property (gobject_class, PROP_OVERLAP);
  gst_cuda_plane_filter_roi_install_properties (gobject_class, PROP_ROI,
      PROP_ROI_META);

  caps = gst_cuda_plane_filter_template_caps
      (GST_CUDA_PLANE_FILTER_FORMATS);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_set_context);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_change_state);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_query);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_transform_caps);
  trans_class->fixate_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_negotiation_fixate_caps);
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_start);
  trans_class->accept_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_accept_caps);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_stop);
  trans_class->sink_event =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_sink_event);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_generate_output);
  trans_class->set_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_set_caps);
  trans_class->get_unit_size =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_negotiation_get_unit_size);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_decide_allocation);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_transform_meta);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_before_transform);
  trans_class->transform =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_run_transform);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_run_prepare_output_buffer);
  /* only called in passthrough (analysers): always_in_place stays FALSE
   * because transform is set, so filters never see it */
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_run_transform_ip);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_PLANE_FILTER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MORPHOLOGY_BACKEND, 0);
}

static void
gst_cuda_plane_filter_init (GstCudaPlaneFilter * self)
{
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);

  priv->backend = DEFAULT_BACKEND;
  priv->device_id = DEFAULT_CUDA_DEVICE_ID;
  priv->overlap_mode = DEFAULT_OVERLAP;
  gst_cuda_plane_filter_roi_init (&priv->roi);
  gst_cuda_plane_filter_poster_init (&priv->poster, GST_ELEMENT (self));
  gst_cuda_plane_filter_device_init (&priv->dev, GST_ELEMENT (self),
      GST_CUDA_PLANE_FILTER_GET_CLASS (self)->debug_category);
  gst_cuda_plane_filter_overlap_init (&priv->overlap, GST_BASE_TRANSFORM (self),
      &priv->dev, gst_cuda_plane_filter_run_results_left);
  /* late frames are dropped and reported, as GStreamer's video filters do */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
  gst_video_info_init (&priv->frames.info);
  gst_video_info_init (&priv->frames.out_info);
  priv->cpu_opts.threads = (int) g_get_num_processors ();
  priv->cpu_opts.cancel = &priv->cpu_cancel;
}
