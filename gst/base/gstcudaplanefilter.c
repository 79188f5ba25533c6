/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:gstcudaplanefilter
 * @title: GstCudaPlaneFilter
 * @short_description: Base class of the cudamorphology video filters
 *
 * A #GstBaseTransform (not a #GstVideoFilter: that one proposes system
 * memory pools and maps frames without CUDA) for filters that work on
 * single-channel planes of the frame size:
 *
 * * GRAY8 and GRAY16_LE: the only plane.
 * * I420, NV12, Y444: the luma plane; chroma is copied unchanged.
 * * RGBA, BGRA, RGBx, BGRx: each colour channel on its own; alpha (or the
 *   padding byte) is copied from the input. A subclass that implements
 *   process_packed (and says so with wants_packed) gets the whole
 *   interleaved frame instead and writes every channel itself.
 *
 * Both pads have the same caps, except for subclasses that implement
 * process_convert: they may output a packed 8-bit RGB format (RGBA, ...)
 * of the same size from the GRAY and YUV formats, and choose those caps in
 * their own transform_caps. A subclass that puts the element in
 * passthrough gets each frame in analyse_plane and the buffer leaves
 * untouched (analysers). The backend is chosen in start(): CUDA on one
 * stream per element, or the CPU reference implementation of the core.
 * Device buffers and pinned staging memory are allocated in set_caps() and
 * reused for every frame.
 *
 * Memory: CUDA memory of the pipeline's #GstCudaContext (with
 * gstreamer-cuda-1.0) and pinned host pools, gstcudaplanefilternegotiation.h.
 *
 * Pieces. This file keeps the element: class and properties, start and
 * stop, set_caps, the GstBaseTransform methods, stats and errors; one
 * frame's way (begin and end, mapping, whole frame or regions) is in
 * gstcudaplanefilterrun.c, over the state both share
 * (gstcudaplanefilterprivate.h). Each other concern has a file with
 * its own state and a small header (docs/design.md maps them): the
 * device, its stream and context (gstcudaplanefilterdevice.c), the frame
 * path (gstcudaplanefilterframe.c, its mapping in
 * gstcudaplanefilterframemap.c, regions in gstcudaplanefilterregion.c),
 * the regions of interest (gstcudaplanefilterroi.c), caps and allocation
 * (gstcudaplanefilternegotiation.c), the overlap ring
 * (gstcudaplanefilteroverlap.c); what needs no element state is in
 * gstcudaplanefilterhelpers.c. The builds with and without gstreamer-cuda
 * differ only in the device, frame and negotiation pieces.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudaplanefilterprivate.h"

#include "device.h"
#include "gstcudaplanefilterhelpers.h"
#include "gstcudaplanefilternegotiation.h"
#include "gstcudaplanefilterrefusal.h"

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

GstCudaPlaneFilterPrivate *
gst_cuda_plane_filter_private (GstCudaPlaneFilter * self)
{
  return GET_PRIV (self);
}

/**
 * gst_cuda_plane_filter_cpu_opts:
 *
 * Returns: how the CPU reference runs for this element: on every core,
 * stopped by a flush or a stop (it then returns CM_ERR_CANCELLED, which
 * the base class turns into GST_FLOW_FLUSHING without an error)
 */
const cm_cpu_opts *
gst_cuda_plane_filter_cpu_opts (GstCudaPlaneFilter * self)
{
  return &GET_PRIV (self)->cpu_opts;
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

/**
 * gst_cuda_plane_filter_get_output_info:
 * @self: the element
 *
 * Returns: the negotiated output video info (the input info unless the
 *     subclass converts); valid in configure and the data path
 */
const GstVideoInfo *
gst_cuda_plane_filter_get_output_info (GstCudaPlaneFilter * self)
{
  return &GET_PRIV (self)->frames.out_info;
}

/**
 * gst_cuda_plane_filter_post_status_error:
 * @self: the element
 * @status: a failed core status
 * @what: what failed, e.g. "Failed to build the filter plan"
 *
 * Posts a GST_ELEMENT_ERROR whose message is "@what: <status text>" (the
 * CUDA error string for CUDA errors) and logs it in the subclass's debug
 * category.
 */
void
gst_cuda_plane_filter_post_status_error (GstCudaPlaneFilter * self,
    cm_status status, const gchar * what)
{
  /* a context that saw a device error is not reused at the next start */
  if (CM_STATUS_IS_CUDA (status))
    g_atomic_int_set (&GET_PRIV (self)->dev.failed, TRUE);

  gst_cuda_plane_filter_post_status (GST_ELEMENT (self),
      GST_CUDA_PLANE_FILTER_GET_CLASS (self)->debug_category, status, what);
}

/**
 * gst_cuda_plane_filter_mark_dirty:
 * @self: the element
 *
 * Asks for configure() to be called again before the next frame, e.g.
 * after a property that changes the filter was set. Any thread.
 */
void
gst_cuda_plane_filter_mark_dirty (GstCudaPlaneFilter * self)
{
  g_return_if_fail (GST_IS_CUDA_PLANE_FILTER (self));

  g_atomic_int_set (&GET_PRIV (self)->dirty, TRUE);
}

/**
 * gst_cuda_plane_filter_is_cuda:
 * @self: the element
 *
 * Returns: %TRUE when the element started on the CUDA backend
 */
gboolean
gst_cuda_plane_filter_is_cuda (GstCudaPlaneFilter * self)
{
  g_return_val_if_fail (GST_IS_CUDA_PLANE_FILTER (self), FALSE);

  return GET_PRIV (self)->dev.use_cuda;
}

/**
 * gst_cuda_plane_filter_get_device_id:
 * @self: the element
 *
 * Returns: the CUDA device the element runs on (-1: the default device);
 * meaningful while gst_cuda_plane_filter_is_cuda() is %TRUE
 */
gint
gst_cuda_plane_filter_get_device_id (GstCudaPlaneFilter * self)
{
  g_return_val_if_fail (GST_IS_CUDA_PLANE_FILTER (self), -1);

  return GET_PRIV (self)->dev.device_id;
}

/* What the caps and allocation callbacks read (gstcudaplanefilternegotiation.h):
 * allow_cuda under the object lock; the rest is set by start and set_caps,
 * which the caps and allocation queries do not race with. */
void
gst_cuda_plane_filter_negotiation_state (GstBaseTransform * trans,
    GstCudaPlaneFilterNegotiationState * st)
{
  GstCudaPlaneFilterPrivate *priv =
      GET_PRIV (GST_CUDA_PLANE_FILTER (trans));

  GST_OBJECT_LOCK (trans);
  st->allow_cuda = gst_cuda_plane_filter_device_can_share (&priv->dev,
      priv->started, priv->backend == GST_CUDA_MORPHOLOGY_BACKEND_CPU);
  GST_OBJECT_UNLOCK (trans);
  st->use_cuda = priv->dev.use_cuda;
  st->context = priv->dev.context;
  st->stream = priv->dev.gst_stream;
  st->held = gst_cuda_plane_filter_overlap_is_active (&priv->overlap) ? 1 : 0;
  st->convert = priv->frames.convert;
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
    return gst_cuda_plane_filter_negotiation_query_caps (trans, direction,
        query);

  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
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
  if (ok && priv->dev.use_cuda)
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

  /* frames still on the device are dropped (waited for first) */
  gst_cuda_plane_filter_overlap_drop (&priv->overlap);

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
  GstVideoInfo in_info, out_info;
  GstCudaMorphologyOverlap overlap_mode;
  gboolean pushed, ok;
  cm_status status;

  if (!gst_cuda_plane_filter_negotiation_check_caps (trans, incaps, outcaps,
          &in_info, &out_info))
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
      klass->frame_done != NULL, incaps, outcaps, &in_info);

  if (!gst_cuda_plane_filter_enter (self, &pushed))
    return FALSE;

  /* a new size or format (also mid-stream): everything is reallocated,
   * no filter of the old caps is kept; the pools follow in the
   * allocation queries that come next */
  gst_cuda_plane_filter_device_finish_work (&priv->dev);
  gst_cuda_plane_filter_drop_filters (self);
  gst_cuda_plane_filter_frame_path_clear (&priv->frames);
  priv->frames.use_cuda = priv->dev.use_cuda;
  priv->frames.stream = priv->dev.stream;
  priv->frames.context = priv->dev.context;
  priv->frames.host_results = klass->frame_done != NULL;
  priv->frames.chroma_scratch = klass->chroma != NULL;
  status = gst_cuda_plane_filter_frame_path_configure (&priv->frames, &in_info,
      &out_info);
  ok = status == CM_OK;
  if (!ok) {
    gst_cuda_plane_filter_post_status_error (self, status,
        priv->dev.use_cuda ? "Failed to allocate device and pinned host buffers"
        : "Failed to allocate host buffers");
    gst_cuda_plane_filter_frame_path_clear (&priv->frames);
  }

  if (ok) {
    g_atomic_int_set (&priv->dirty, FALSE);
    ok = gst_cuda_plane_filter_build (self, GST_VIDEO_INFO_WIDTH
        (&in_info), GST_VIDEO_INFO_HEIGHT (&in_info)) &&
        gst_cuda_plane_filter_build_chroma (self);
    /* another output format: only a filter with that path */
    if (ok && priv->frames.convert && !cm_filter_has_to_packed (priv->filter)) {
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

/* Passthrough (GstBaseTransform only calls transform_ip then): analysers
 * look at the frame, the buffer is pushed as it came. */
static GstFlowReturn
gst_cuda_plane_filter_transform_ip (GstBaseTransform * trans,
    GstBuffer * buf)
{
  return gst_cuda_plane_filter_run_frame (GST_CUDA_PLANE_FILTER (trans),
      buf, NULL);
}

/* Regions of interest on the CUDA backend: a frame whose input buffer is
 * writable (no one else holds it or its memory) and whose caps are the
 * output's is filtered in place, so that nothing outside its regions is
 * copied and the cost follows their area. Regions that overlap are
 * filtered out of place, each from the input; so is everything on the
 * CPU backend. */
static GstFlowReturn
gst_cuda_plane_filter_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstCudaPlaneFilter *self = GST_CUDA_PLANE_FILTER (trans);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  GstCudaPlaneFilterFramePath *fp = &priv->frames;

  priv->in_place = !gst_base_transform_is_passthrough (trans) &&
      priv->configured && priv->dev.use_cuda && priv->same_caps &&
      !fp->convert && gst_buffer_is_writable (inbuf) &&
      gst_buffer_is_all_memory_writable (inbuf) &&
      gst_cuda_plane_filter_roi_collect (&priv->roi, G_OBJECT (self), inbuf,
      GST_VIDEO_INFO_WIDTH (&fp->info), GST_VIDEO_INFO_HEIGHT (&fp->info),
      GST_CUDA_PLANE_FILTER_GET_CLASS (self)->frame_done != NULL ? 1 :
      G_MAXUINT) && gst_cuda_plane_filter_roi_disjoint (&priv->roi);
  if (priv->in_place) {
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer
      (trans, inbuf, outbuf);
}

/* inbuf == outbuf: regions filtered in place (prepare_output_buffer), or
 * passthrough switched on between the buffer allocation and the transform
 * (the output is the input: analyse it) */
static GstFlowReturn
gst_cuda_plane_filter_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaPlaneFilter *self = GST_CUDA_PLANE_FILTER (trans);

  return gst_cuda_plane_filter_run_frame (self, inbuf, inbuf == outbuf &&
      !GET_PRIV (self)->in_place ? NULL : outbuf);
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
 * (gstcudaplanefilterhelpers.c). Reads the frame path's format change
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

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_plane_filter_class_init (GstCudaPlaneFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCaps *caps;

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
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_negotiation_transform_caps);
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
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_negotiation_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_negotiation_decide_allocation);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_transform_meta);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_before_transform);
  trans_class->transform =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_transform);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_prepare_output_buffer);
  /* only called in passthrough (analysers): always_in_place stays FALSE
   * because transform is set, so filters never see it */
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cuda_plane_filter_transform_ip);

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
  gst_cuda_plane_filter_device_init (&priv->dev, GST_ELEMENT (self));
  gst_cuda_plane_filter_overlap_init (&priv->overlap, GST_BASE_TRANSFORM (self),
      &priv->dev);
  /* late frames are dropped and reported, as GStreamer's video filters do */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
  gst_video_info_init (&priv->frames.info);
  gst_video_info_init (&priv->frames.out_info);
  priv->cpu_opts.threads = (int) g_get_num_processors ();
  priv->cpu_opts.cancel = &priv->cpu_cancel;
}
