/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:gstcudamorphologybase
 * @title: GstCudaMorphologyBase
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
 * Memory. Built with gstreamer-cuda-1.0, the formats but GRAY are also
 * accepted and produced in CUDA memory (video/x-raw(memory:CUDAMemory)),
 * each pad negotiating either memory and preferring the one the frames
 * came in. The element then shares the pipeline's #GstCudaContext
 * (context queries and messages, as nvcodec's elements do), runs all its
 * device work with that context pushed, reads and writes CUDA frames of
 * that context in place, proposes a CUDA buffer pool upstream and takes
 * its output buffers from a CUDA pool. In system memory on the CUDA
 * backend it proposes a pool of pinned host memory upstream and takes its
 * output buffers from one: a pinned input frame is uploaded straight from
 * the buffer, a pinned output frame is written straight by the download;
 * other frames go through pinned staging. The element's stream is
 * synchronised once per frame, before the output buffer leaves the
 * element (and before frame_done): GStreamer 1.22's CUDA memory carries
 * no stream to wait on. From GStreamer 1.24 the stream is a GstCudaStream
 * that the element's CUDA pools give to their frames; an input whose
 * producer left work in flight on its own stream is waited for on the
 * device first, and a frame read and written in CUDA memory that carries
 * streams leaves with its work still queued, ordered by those streams
 * (the frame path's leave_in_flight).
 * A CUDA frame of another context is mapped for the host instead
 * (correct, slower).
 *
 * Pieces. This file keeps the element: properties, start and stop,
 * set_caps, transform and generate_output, begin and end of a frame,
 * stats and errors. Each other concern has a file with its own state:
 * gstcudamorphologydevice.c (the device, its stream, the GstCudaContext),
 * gstcudamorphologyframe.c (the frame path: map, upload, download,
 * staging, channel split, the filter run), gstcudamorphologynegotiation.c
 * (caps and pools in each memory), gstcudamorphologyoverlap.c (frames
 * left on the device: which, until when, drains, flushes, latency).
 * gstcudamorphologyhelpers.c holds what needs no element state: the
 * helpers of gstcudamorphologybase.h for property values, controlled
 * properties, depths, host images and the subclasses' own caps
 * functions, which metas are kept, and the subclass's methods as the
 * frame path calls them. The builds with and without gstreamer-cuda
 * differ only in the device, frame and negotiation pieces.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudamorphologybase.h"

#include "device.h"
#include "gstcudamorphologydevice.h"
#include "gstcudamorphologyframe.h"
#include "gstcudamorphologyhelpers.h"
#include "gstcudamorphologynegotiation.h"
#include "gstcudamorphologyoverlap.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_morphology_base_debug);
#define GST_CAT_DEFAULT gst_cuda_morphology_base_debug

#define DEFAULT_BACKEND GST_CUDA_MORPHOLOGY_BACKEND_AUTO
#define DEFAULT_CUDA_DEVICE_ID -1
#define DEFAULT_OVERLAP GST_CUDA_MORPHOLOGY_OVERLAP_OFF

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_OVERLAP,
};

/* Name of the custom query (GST_QUERY_CUSTOM, either pad) that the base
 * class answers with the frame statistics below. */
#define STATS_QUERY_NAME "cudamorphology-stats"

typedef struct
{
  /* properties, protected by the object lock */
  GstCudaMorphologyBackend backend;
  gint device_id;
  GstCudaMorphologyOverlap overlap_mode;

  /* chosen in start (): the device, its stream and context */
  GstCudaMorphologyDevice dev;
  gboolean started;             /* object lock */

  /* frames left on the device while the next one comes in */
  GstCudaMorphologyOverlapState overlap;

  /* how frames came and left since the element started (the
   * STATS_QUERY_NAME query), protected by the object lock */
  GstCudaMorphologyFrameStats stats;

  /* set by mark_dirty () from any thread, read by the streaming thread */
  gint dirty;

  /* CPU backend: threads over rows, and a flag (atomic) that stops a
   * running frame on a flush or a stop (unlock) */
  gint cpu_cancel;
  cm_cpu_opts cpu_opts;

  /* per caps, streaming thread */
  gboolean configured;
  GstCudaMorphologyFramePath frames;    /* the negotiated frames' path */
  GstCudaMorphologyFilterOps filter;    /* the subclass, as frames call it */
} GstCudaMorphologyBasePrivate;

#define gst_cuda_morphology_base_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCudaMorphologyBase,
    gst_cuda_morphology_base, GST_TYPE_BASE_TRANSFORM,
    G_ADD_PRIVATE (GstCudaMorphologyBase);
    GST_DEBUG_CATEGORY_INIT (gst_cuda_morphology_base_debug,
        "cudamorphologybase", 0, "CUDA morphology base class"));

#define GET_PRIV(self) \
  ((GstCudaMorphologyBasePrivate *) \
      gst_cuda_morphology_base_get_instance_private (self))

static void gst_cuda_morphology_base_set_property (GObject * object,
    guint prop_id, const GValue * value, GParamSpec * pspec);
static void gst_cuda_morphology_base_get_property (GObject * object,
    guint prop_id, GValue * value, GParamSpec * pspec);
static void gst_cuda_morphology_base_finalize (GObject * object);

static void gst_cuda_morphology_base_set_context (GstElement * element,
    GstContext * context);
static GstStateChangeReturn gst_cuda_morphology_base_change_state (GstElement
    * element, GstStateChange transition);
static gboolean gst_cuda_morphology_base_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);
static GstCaps *gst_cuda_morphology_base_transform_caps (GstBaseTransform *
    trans, GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static GstCaps *gst_cuda_morphology_base_fixate_caps (GstBaseTransform *
    trans, GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);

static gboolean gst_cuda_morphology_base_start (GstBaseTransform * trans);
static gboolean gst_cuda_morphology_base_stop (GstBaseTransform * trans);
static gboolean gst_cuda_morphology_base_sink_event (GstBaseTransform *
    trans, GstEvent * event);
static GstFlowReturn gst_cuda_morphology_base_generate_output
    (GstBaseTransform * trans, GstBuffer ** outbuf);
static void gst_cuda_morphology_base_finish_device_work (GstCudaMorphologyBase
    * self);
static gboolean gst_cuda_morphology_base_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);
static gboolean gst_cuda_morphology_base_get_unit_size (GstBaseTransform *
    trans, GstCaps * caps, gsize * size);
static gboolean gst_cuda_morphology_base_propose_allocation (GstBaseTransform
    * trans, GstQuery * decide_query, GstQuery * query);
static gboolean gst_cuda_morphology_base_decide_allocation (GstBaseTransform
    * trans, GstQuery * query);
static gboolean gst_cuda_morphology_base_transform_meta (GstBaseTransform *
    trans, GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf);
static GstFlowReturn gst_cuda_morphology_base_transform (GstBaseTransform *
    trans, GstBuffer * inbuf, GstBuffer * outbuf);
static GstFlowReturn gst_cuda_morphology_base_transform_ip (GstBaseTransform *
    trans, GstBuffer * buf);

static void
gst_cuda_morphology_base_class_init (GstCudaMorphologyBaseClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCaps *caps;

  gobject_class->set_property = gst_cuda_morphology_base_set_property;
  gobject_class->get_property = gst_cuda_morphology_base_get_property;
  gobject_class->finalize = gst_cuda_morphology_base_finalize;

  /**
   * GstCudaMorphologyBase:backend:
   *
   * Where frames are computed. Read when the element starts.
   */
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where frames are computed: auto = CUDA when a device is usable, "
          "otherwise the CPU reference implementation with one warning on "
          "the bus; cuda = CUDA only, the element fails to start without a "
          "usable device; cpu = the CPU reference implementation (slow, "
          "bit-exact twin of the CUDA kernels; cudamorph and cudamedian use "
          "every core, and a flush or a stop ends a running frame). Takes "
          "effect at the next "
          "READY to PAUSED change",
          GST_TYPE_CUDA_MORPHOLOGY_BACKEND, DEFAULT_BACKEND,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCudaMorphologyBase:cuda-device-id:
   *
   * The CUDA runtime device index. Read when the element starts.
   */
  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA runtime device index to run on (as ordered by the CUDA "
          "runtime, after CUDA_VISIBLE_DEVICES); -1 = the default device "
          "(index 0). Takes effect at the next READY to PAUSED change",
          -1, G_MAXINT16, DEFAULT_CUDA_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCudaMorphologyBase:overlap:
   *
   * Whether a frame may stay on the device while the next one comes in.
   * Read at every caps negotiation.
   */
  g_object_class_install_property (gobject_class, PROP_OVERLAP,
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
          "off = every frame leaves before the next comes in. Only frames in CUDA or pinned host memory (the "
          "pools the element proposes) overlap, on the CUDA backend, in "
          "elements that change frames. Takes effect at the next caps "
          "negotiation",
          GST_TYPE_CUDA_MORPHOLOGY_OVERLAP, DEFAULT_OVERLAP,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MORPHOLOGY_OVERLAP, 0);

  caps = gst_cuda_morphology_base_template_caps
      (GST_CUDA_MORPHOLOGY_BASE_FORMATS);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_set_context);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_change_state);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_query);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_transform_caps);
  trans_class->fixate_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_fixate_caps);
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_stop);
  trans_class->sink_event =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_sink_event);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_generate_output);
  trans_class->set_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_set_caps);
  trans_class->get_unit_size =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_get_unit_size);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_decide_allocation);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_transform_meta);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_before_transform);
  trans_class->transform =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_transform);
  /* only called in passthrough (analysers): always_in_place stays FALSE
   * because transform is set, so filters never see it */
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_transform_ip);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MORPHOLOGY_BASE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MORPHOLOGY_BACKEND, 0);
}

static void
gst_cuda_morphology_base_init (GstCudaMorphologyBase * self)
{
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  priv->backend = DEFAULT_BACKEND;
  priv->device_id = DEFAULT_CUDA_DEVICE_ID;
  priv->overlap_mode = DEFAULT_OVERLAP;
  gst_cuda_morphology_device_init (&priv->dev, GST_ELEMENT (self));
  gst_cuda_morphology_overlap_init (&priv->overlap, GST_BASE_TRANSFORM (self),
      &priv->dev);
  /* late frames are dropped and reported, as GStreamer's video filters do */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
  gst_video_info_init (&priv->frames.info);
  gst_video_info_init (&priv->frames.out_info);
  priv->cpu_opts.threads = (int) g_get_num_processors ();
  priv->cpu_opts.cancel = &priv->cpu_cancel;
}

/**
 * gst_cuda_morphology_base_cpu_opts:
 *
 * Returns: how the CPU reference runs for this element: on every core,
 * stopped by a flush or a stop (it then returns CM_ERR_CANCELLED, which
 * the base class turns into GST_FLOW_FLUSHING without an error)
 */
const cm_cpu_opts *
gst_cuda_morphology_base_cpu_opts (GstCudaMorphologyBase * self)
{
  return &GET_PRIV (self)->cpu_opts;
}

/* A frame computed on the CPU may take seconds: going to READY stops it
 * (the pads are deactivated only once the streaming thread has left it),
 * and starting again clears the flag. */
static GstStateChangeReturn
gst_cuda_morphology_base_change_state (GstElement * element,
    GstStateChange transition)
{
  GstCudaMorphologyBasePrivate *priv =
      GET_PRIV (GST_CUDA_MORPHOLOGY_BASE (element));

  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    g_atomic_int_set (&priv->cpu_cancel, 1);
  else if (transition == GST_STATE_CHANGE_READY_TO_PAUSED)
    g_atomic_int_set (&priv->cpu_cancel, 0);
  return GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
}

static void
gst_cuda_morphology_base_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (object);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  switch (prop_id) {
    case PROP_BACKEND:
      GST_OBJECT_LOCK (self);
      priv->backend = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_CUDA_DEVICE_ID:
      GST_OBJECT_LOCK (self);
      priv->device_id = g_value_get_int (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_OVERLAP:
      GST_OBJECT_LOCK (self);
      priv->overlap_mode = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_morphology_base_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (object);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  switch (prop_id) {
    case PROP_BACKEND:
      GST_OBJECT_LOCK (self);
      g_value_set_enum (value, priv->backend);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_CUDA_DEVICE_ID:
      GST_OBJECT_LOCK (self);
      g_value_set_int (value, priv->device_id);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_OVERLAP:
      GST_OBJECT_LOCK (self);
      g_value_set_enum (value, priv->overlap_mode);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* ---- the element's state, for subclasses -------------------------------- */

/**
 * gst_cuda_morphology_base_get_output_info:
 * @self: the element
 *
 * Returns: the negotiated output video info (the input info unless the
 *     subclass converts); valid in configure and the data path
 */
const GstVideoInfo *
gst_cuda_morphology_base_get_output_info (GstCudaMorphologyBase * self)
{
  return &GET_PRIV (self)->frames.out_info;
}

/**
 * gst_cuda_morphology_base_allow_cuda_memory:
 * @self: the element
 *
 * Whether CUDA memory may be negotiated now: once started, when the
 * element runs on CUDA with a GstCudaContext; before (caps queries while
 * linking), when it may. A start or stop can change the answer at any
 * time: read it once per caps query and give the same answer to
 * gst_cuda_morphology_base_caps_to_system() and
 * gst_cuda_morphology_base_caps_add_memory().
 *
 * Returns: %TRUE when CUDA memory may be negotiated
 */
gboolean
gst_cuda_morphology_base_allow_cuda_memory (GstCudaMorphologyBase * self)
{
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  gboolean allow;

  GST_OBJECT_LOCK (self);
  allow = gst_cuda_morphology_device_can_share (&priv->dev, priv->started,
      priv->backend == GST_CUDA_MORPHOLOGY_BACKEND_CPU);
  GST_OBJECT_UNLOCK (self);
  return allow;
}

/**
 * gst_cuda_morphology_base_post_status_error:
 * @self: the element
 * @status: a failed core status
 * @what: what failed, e.g. "Failed to build the filter plan"
 *
 * Posts a GST_ELEMENT_ERROR whose message is "@what: <status text>" (the
 * CUDA error string for CUDA errors) and logs it in the subclass's debug
 * category.
 */
void
gst_cuda_morphology_base_post_status_error (GstCudaMorphologyBase * self,
    cm_status status, const gchar * what)
{
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  const gchar *text = cm_status_string (status);

  /* a context that saw a device error is not reused at the next start */
  if (CM_STATUS_IS_CUDA (status))
    g_atomic_int_set (&GET_PRIV (self)->dev.failed, TRUE);

  if (klass->debug_category)
    GST_CAT_ERROR_OBJECT (klass->debug_category, self, "%s: %s (status %d)",
        what, text, (gint) status);
  GST_ERROR_OBJECT (self, "%s: %s (status %d)", what, text, (gint) status);

  switch (status) {
    case CM_ERR_INVALID_ARG:
    case CM_ERR_PARSE:
      GST_ELEMENT_ERROR (self, CORE, FAILED, ("%s: %s", what, text),
          ("core status %d", (gint) status));
      break;
    case CM_ERR_UNSUPPORTED:
      GST_ELEMENT_ERROR (self, CORE, NOT_IMPLEMENTED, ("%s: %s", what, text),
          ("core status %d", (gint) status));
      break;
    case CM_ERR_NO_MEMORY:
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("%s: %s", what,
              text), ("core status %d", (gint) status));
      break;
    case CM_ERR_NO_CUDA:
    case CM_ERR_NO_DEVICE:
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s: %s", what, text),
          ("core status %d", (gint) status));
      break;
    default:
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("%s: %s", what, text),
          ("core status %d (CUDA error %d)", (gint) status,
              CM_STATUS_IS_CUDA (status) ?
              (gint) status - CM_ERR_CUDA_BASE : 0));
      break;
  }
}

/**
 * gst_cuda_morphology_base_mark_dirty:
 * @self: the element
 *
 * Asks for configure() to be called again before the next frame, e.g.
 * after a property that changes the filter was set. Any thread.
 */
void
gst_cuda_morphology_base_mark_dirty (GstCudaMorphologyBase * self)
{
  g_return_if_fail (GST_IS_CUDA_MORPHOLOGY_BASE (self));

  g_atomic_int_set (&GET_PRIV (self)->dirty, TRUE);
}

/**
 * gst_cuda_morphology_base_is_cuda:
 * @self: the element
 *
 * Returns: %TRUE when the element started on the CUDA backend
 */
gboolean
gst_cuda_morphology_base_is_cuda (GstCudaMorphologyBase * self)
{
  g_return_val_if_fail (GST_IS_CUDA_MORPHOLOGY_BASE (self), FALSE);

  return GET_PRIV (self)->dev.use_cuda;
}

/**
 * gst_cuda_morphology_base_get_device_id:
 * @self: the element
 *
 * Returns: the CUDA device the element runs on (-1: the default device);
 * meaningful while gst_cuda_morphology_base_is_cuda() is %TRUE
 */
gint
gst_cuda_morphology_base_get_device_id (GstCudaMorphologyBase * self)
{
  g_return_val_if_fail (GST_IS_CUDA_MORPHOLOGY_BASE (self), -1);

  return GET_PRIV (self)->dev.device_id;
}

/* ---- device and context ------------------------------------------------- */

static void
gst_cuda_morphology_base_set_context (GstElement * element,
    GstContext * context)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (element);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
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
    gst_cuda_morphology_device_set_context (&priv->dev, context, device_id,
        started);

  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* Fills the structure of a custom "cudamorphology-stats" query. */
static gboolean
gst_cuda_morphology_base_answer_stats (GstCudaMorphologyBase * self,
    GstQuery * query)
{
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  GstStructure *s = gst_query_writable_structure (query);
  GstCudaMorphologyFrameStats st;

  GST_OBJECT_LOCK (self);
  st = priv->stats;
  GST_OBJECT_UNLOCK (self);
  gst_structure_set (s,
      "frames", G_TYPE_UINT64, st.frames,
      "device-in", G_TYPE_UINT64, st.device_in,
      "device-out", G_TYPE_UINT64, st.device_out,
      "cuda-host-maps", G_TYPE_UINT64, st.cuda_host_maps,
      "pinned-uploads", G_TYPE_UINT64, st.pinned_uploads,
      "staged-uploads", G_TYPE_UINT64, st.staged_uploads,
      "pinned-downloads", G_TYPE_UINT64, st.pinned_downloads,
      "staged-downloads", G_TYPE_UINT64, st.staged_downloads,
      "overlapped", G_TYPE_UINT64, st.overlapped,
      "stream-ordered", G_TYPE_UINT64, st.stream_ordered,
      "timed-frames", G_TYPE_UINT64, st.timed_frames,
      "device-ns", G_TYPE_UINT64, st.device_ns, NULL);
  return TRUE;
}

static gboolean
gst_cuda_morphology_base_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (trans);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  if (gst_cuda_morphology_device_query_context (&priv->dev, query))
    return TRUE;
  /* a drain (serialized, streaming thread) empties the overlap ring first:
   * no frame and no input buffer stay held behind it */
  if (GST_QUERY_TYPE (query) == GST_QUERY_DRAIN && direction == GST_PAD_SINK)
    gst_cuda_morphology_overlap_drain (&priv->overlap);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CUSTOM &&
      gst_query_get_structure (query) != NULL &&
      gst_structure_has_name (gst_query_get_structure (query),
          STATS_QUERY_NAME))
    return gst_cuda_morphology_base_answer_stats (self, query);

  /* overlap holds one frame back: one frame duration more */
  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY && direction == GST_PAD_SRC) {
    if (!GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
            query))
      return FALSE;
    gst_cuda_morphology_overlap_add_latency (&priv->overlap, query);
    return TRUE;
  }

  /* on the CUDA backend, ask upstream for CUDA memory first: the work is
   * on the device anyway, and an upstream that can give either memory
   * (cudaupload, nvh264dec) then uploads or decodes into it */
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS && direction == GST_PAD_SINK
      && gst_cuda_morphology_base_allow_cuda_memory (self)) {
    GstCaps *caps;

    if (!GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
            query))
      return FALSE;
    gst_query_parse_caps_result (query, &caps);
    if (caps != NULL) {
      caps = gst_cuda_morphology_negotiation_cuda_first (gst_caps_ref
          (caps));
      gst_query_set_caps_result (query, caps);
      gst_caps_unref (caps);
    }
    return TRUE;
  }

  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

/* ---- start / stop / caps ------------------------------------------------ */

static void
gst_cuda_morphology_base_set_started (GstCudaMorphologyBase * self,
    gboolean started)
{
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  GST_OBJECT_LOCK (self);
  priv->started = started;
  if (started)
    memset (&priv->stats, 0, sizeof (priv->stats));
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_cuda_morphology_base_start_backend (GstCudaMorphologyBase * self)
{
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  GstCudaMorphologyBackend backend;
  gint device_id;
  gchar *reason = NULL;
  cm_status status;

  GST_OBJECT_LOCK (self);
  backend = priv->backend;
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);

  g_atomic_int_set (&priv->dirty, FALSE);

  if (backend == GST_CUDA_MORPHOLOGY_BACKEND_CPU) {
    GST_INFO_OBJECT (self, "CPU reference backend (backend=cpu)");
    gst_cuda_morphology_device_drop_context (&priv->dev);
    gst_cuda_morphology_base_set_started (self, TRUE);
    return TRUE;
  }

  status = gst_cuda_morphology_device_open (&priv->dev, device_id, &reason);
  if (status == CM_OK) {
    gst_cuda_morphology_overlap_start (&priv->overlap);
    gst_cuda_morphology_base_set_started (self, TRUE);
    return TRUE;
  }
  gst_cuda_morphology_device_drop_context (&priv->dev);

  if (backend == GST_CUDA_MORPHOLOGY_BACKEND_CUDA) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("backend=cuda, but CUDA is not usable: %s", reason),
        ("cuda-device-id=%d, core status %d: %s", device_id, (gint) status,
            cm_status_string (status)));
    g_free (reason);
    return FALSE;
  }

  GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
      ("Falling back to the CPU reference backend, which is much slower: "
          "%s", reason),
      ("backend=auto, cuda-device-id=%d, core status %d", device_id,
          (gint) status));
  g_free (reason);
  gst_cuda_morphology_base_set_started (self, TRUE);
  return TRUE;
}

static gboolean
gst_cuda_morphology_base_start (GstBaseTransform * trans)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (trans);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  gboolean ok;

  gst_cuda_morphology_device_begin_start (&priv->dev);
  ok = gst_cuda_morphology_base_start_backend (self);
  gst_cuda_morphology_device_end_start (&priv->dev);
  return ok;
}

static gboolean
gst_cuda_morphology_base_stop (GstBaseTransform * trans)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (trans);
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  gboolean pushed;

  /* frames still on the device are dropped (waited for first) */
  gst_cuda_morphology_overlap_drop (&priv->overlap);

  /* what was allocated in the context is freed in it */
  if (gst_cuda_morphology_device_enter (&priv->dev, &pushed) != CM_OK)
    GST_WARNING_OBJECT (self, "cannot make the device current to free");
  else
    gst_cuda_morphology_base_finish_device_work (self);

  if (klass->release)
    klass->release (self);
  gst_cuda_morphology_frame_path_free (&priv->frames);
  priv->configured = FALSE;
  gst_cuda_morphology_overlap_stop (&priv->overlap);

  gst_cuda_morphology_device_free_stream (&priv->dev);
  gst_cuda_morphology_device_leave (&priv->dev, pushed);
  /* the context stays for the next run, unless the device failed */
  gst_cuda_morphology_device_end_run (&priv->dev);
  gst_cuda_morphology_base_set_started (self, FALSE);

  return TRUE;
}

/* The other pad's caps: the same, in the memory they came in first, then
 * in the other one when the element can use CUDA memory. */
static GstCaps *
gst_cuda_morphology_base_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  /* one answer for the whole query */
  gboolean allow = gst_cuda_morphology_base_allow_cuda_memory
      (GST_CUDA_MORPHOLOGY_BASE (trans));
  GstCaps *res, *tmp;

  res = gst_cuda_morphology_negotiation_transform (caps, allow);

  if (filter) {
    tmp = gst_caps_intersect_full (filter, res, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (res);
    res = tmp;
  }
  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, res);
  return res;
}

static GstCaps *
gst_cuda_morphology_base_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  othercaps = gst_cuda_morphology_base_fixate_memory
      (GST_CUDA_MORPHOLOGY_BASE (trans), othercaps, caps);
  othercaps = gst_caps_fixate (othercaps);
  GST_DEBUG_OBJECT (trans, "fixated to %" GST_PTR_FORMAT, othercaps);
  return othercaps;
}

static gboolean
gst_cuda_morphology_base_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (trans);
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  GstVideoInfo in_info, out_info;
  GstCudaMorphologyOverlap overlap_mode;
  gboolean pushed, ok;
  cm_status status;

  if (!gst_video_info_from_caps (&in_info, incaps) ||
      !gst_video_info_from_caps (&out_info, outcaps)) {
    GST_ERROR_OBJECT (self, "invalid caps %" GST_PTR_FORMAT " -> %"
        GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  /* a field of an interlaced frame would be filtered with rows of the
   * other field: wrong, so refused */
  if (GST_VIDEO_INFO_IS_INTERLACED (&in_info)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Interlaced video is not supported: put a deinterlace element "
            "before %s", GST_ELEMENT_NAME (self)),
        ("caps %" GST_PTR_FORMAT, incaps));
    return FALSE;
  }
  if (GST_VIDEO_INFO_WIDTH (&in_info) != GST_VIDEO_INFO_WIDTH (&out_info)
      || GST_VIDEO_INFO_HEIGHT (&in_info) !=
      GST_VIDEO_INFO_HEIGHT (&out_info)) {
    GST_ERROR_OBJECT (self, "input and output sizes differ: %" GST_PTR_FORMAT
        " -> %" GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  /* another output format: only a packed 8-bit RGB frame made by the
   * subclass from a planar input */
  if (GST_VIDEO_INFO_FORMAT (&in_info) != GST_VIDEO_INFO_FORMAT (&out_info)
      && (klass->process_convert == NULL || GST_VIDEO_INFO_IS_RGB (&in_info)
          || !GST_VIDEO_INFO_IS_RGB (&out_info)
          || GST_VIDEO_INFO_N_PLANES (&out_info) != 1
          || GST_VIDEO_INFO_COMP_DEPTH (&out_info, 0) != 8)) {
    GST_ERROR_OBJECT (self, "cannot convert %" GST_PTR_FORMAT " to %"
        GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }

  if ((gst_cuda_morphology_negotiation_caps_is_cuda (incaps) ||
          gst_cuda_morphology_negotiation_caps_is_cuda (outcaps)) &&
      !(priv->dev.use_cuda && priv->dev.context != NULL)) {
    GST_ERROR_OBJECT (self, "CUDA memory without a CUDA context: %"
        GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }

  GST_DEBUG_OBJECT (self, "caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      incaps, outcaps);

  /* frames of the old caps still on the device leave first (the source
   * pad has the old caps until this returns) */
  gst_cuda_morphology_overlap_drain (&priv->overlap);
  GST_OBJECT_LOCK (self);
  overlap_mode = priv->overlap_mode;
  GST_OBJECT_UNLOCK (self);
  gst_cuda_morphology_overlap_configure (&priv->overlap, overlap_mode,
      klass->frame_done != NULL, incaps, outcaps, &in_info);

  status = gst_cuda_morphology_device_enter (&priv->dev, &pushed);
  if (status != CM_OK) {
    gst_cuda_morphology_base_post_status_error (self, status,
        "Failed to make the CUDA device current");
    return FALSE;
  }

  /* a new size or format (also mid-stream): everything is reallocated;
   * the pools follow in the allocation queries that come next */
  gst_cuda_morphology_base_finish_device_work (self);
  gst_cuda_morphology_frame_path_clear (&priv->frames);
  priv->frames.use_cuda = priv->dev.use_cuda;
  priv->frames.stream = priv->dev.stream;
  priv->frames.context = priv->dev.context;
  gst_cuda_morphology_filter_ops_init (&priv->filter, self);
  status = gst_cuda_morphology_frame_path_configure (&priv->frames, &in_info,
      &out_info);
  ok = status == CM_OK;
  if (!ok) {
    gst_cuda_morphology_base_post_status_error (self, status,
        priv->dev.use_cuda ? "Failed to allocate device and pinned host buffers"
        : "Failed to allocate host buffers");
    gst_cuda_morphology_frame_path_clear (&priv->frames);
  }

  if (ok) {
    g_atomic_int_set (&priv->dirty, FALSE);
    ok = klass->configure (self, &priv->frames.info, priv->dev.use_cuda);
    if (!ok) {
      GST_ERROR_OBJECT (self, "subclass failed to configure for %"
          GST_PTR_FORMAT, incaps);
      gst_cuda_morphology_frame_path_clear (&priv->frames);
    }
  }
  gst_cuda_morphology_device_leave (&priv->dev, pushed);

  priv->configured = ok;
  return ok;
}

static gboolean
gst_cuda_morphology_base_get_unit_size (GstBaseTransform * trans,
    GstCaps * caps, gsize * size)
{
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps)) {
    GST_WARNING_OBJECT (trans, "cannot parse caps %" GST_PTR_FORMAT, caps);
    return FALSE;
  }
  *size = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

/* ---- allocation --------------------------------------------------------- */

static gboolean
gst_cuda_morphology_base_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (trans);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  /* passthrough (analysers): buffers go downstream as they come, so
   * downstream answers */
  if (decide_query == NULL)
    return gst_pad_peer_query (GST_BASE_TRANSFORM_SRC_PAD (trans), query);
  /* with overlap the input buffer of the frame still on the device is
   * kept: one more than upstream needs itself */
  return gst_cuda_morphology_negotiation_propose (GST_OBJECT (self), query,
      priv->dev.use_cuda, priv->dev.context, priv->dev.gst_stream,
      gst_cuda_morphology_overlap_is_active (&priv->overlap) ? 1 : 0);
}

static gboolean
gst_cuda_morphology_base_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (trans);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  if (!gst_cuda_morphology_negotiation_decide (GST_OBJECT (self), query,
          priv->dev.use_cuda, priv->dev.context, priv->dev.gst_stream))
    return FALSE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
}

/* Which metas the output keeps: gstcudamorphologyhelpers.c. */
static gboolean
gst_cuda_morphology_base_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  GstCudaMorphologyBasePrivate *priv =
      GET_PRIV (GST_CUDA_MORPHOLOGY_BASE (trans));

  return gst_cuda_morphology_meta_is_kept (meta, priv->frames.convert);
}

/* Frames may leave with their work still queued (stream order, >= 1.24):
 * before plans and buffers that work uses are freed or rebuilt, it ends.
 * With the device entered. */
static void
gst_cuda_morphology_base_finish_device_work (GstCudaMorphologyBase * self)
{
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  cm_status status;

  if (!priv->dev.use_cuda || priv->dev.stream == NULL)
    return;
  status = cm_stream_sync (priv->dev.stream);
  if (status != CM_OK)
    GST_WARNING_OBJECT (self, "work of earlier frames failed: %s",
        cm_status_string (status));
}

/* What every frame starts with: caps, the device (context pushed), pending
 * property changes. On success leave the device with device_leave
 * (*pushed). */
static GstFlowReturn
gst_cuda_morphology_base_begin_frame (GstCudaMorphologyBase * self,
    gboolean * pushed)
{
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  cm_status status;

  *pushed = FALSE;
  if (G_UNLIKELY (!priv->configured)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("received a buffer before caps were negotiated"));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  /* the current device or context is per thread */
  status = gst_cuda_morphology_device_enter (&priv->dev, pushed);
  if (status != CM_OK) {
    gst_cuda_morphology_base_post_status_error (self, status,
        "Failed to make the CUDA device current");
    return GST_FLOW_ERROR;
  }

  /* a property changed: rebuild before this frame */
  if (g_atomic_int_compare_and_exchange (&priv->dirty, TRUE, FALSE)) {
    GST_DEBUG_OBJECT (self, "reconfiguring after a property change");
    gst_cuda_morphology_base_finish_device_work (self);
    if (!klass->configure (self, &priv->frames.info, priv->dev.use_cuda)) {
      GST_ERROR_OBJECT (self, "subclass failed to reconfigure");
      gst_cuda_morphology_device_leave (&priv->dev, *pushed);
      *pushed = FALSE;
      return GST_FLOW_ERROR;
    }
  }
  return GST_FLOW_OK;
}

/* The frame's work is done (device left): count it, let the subclass
 * read its results. */
static GstFlowReturn
gst_cuda_morphology_base_end_frame (GstCudaMorphologyBase * self,
    cm_status status, GstBuffer * inbuf, const GstCudaMorphologyFrameStats * st)
{
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  GST_OBJECT_LOCK (self);
  priv->stats.frames++;
  priv->stats.device_in += st->device_in;
  priv->stats.device_out += st->device_out;
  priv->stats.cuda_host_maps += st->cuda_host_maps;
  priv->stats.pinned_uploads += st->pinned_uploads;
  priv->stats.staged_uploads += st->staged_uploads;
  priv->stats.pinned_downloads += st->pinned_downloads;
  priv->stats.staged_downloads += st->staged_downloads;
  priv->stats.overlapped += st->overlapped;
  priv->stats.stream_ordered += st->stream_ordered;
  priv->stats.timed_frames += st->timed_frames;
  priv->stats.device_ns += st->device_ns;
  GST_OBJECT_UNLOCK (self);

  /* stopped by a flush or a stop: not an error */
  if (status == CM_ERR_CANCELLED)
    return GST_FLOW_FLUSHING;
  if (status != CM_OK) {
    gst_cuda_morphology_base_post_status_error (self, status,
        priv->dev.use_cuda ? "Failed to process a frame on the CUDA device" :
        "Failed to process a frame on the CPU");
    return GST_FLOW_ERROR;
  }
  if (klass->frame_done)
    return klass->frame_done (self, inbuf);
  return GST_FLOW_OK;
}

/* Passthrough (GstBaseTransform only calls transform_ip then): analysers
 * look at the frame, the buffer is pushed as it came. */
static GstFlowReturn
gst_cuda_morphology_base_transform_ip (GstBaseTransform * trans,
    GstBuffer * buf)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (trans);
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  GstCudaMorphologyFrameStats st = { 0, };
  GstCudaMorphologyMappedFrame in;
  GstFlowReturn ret;
  gboolean pushed;
  cm_status status;

  ret = gst_cuda_morphology_base_begin_frame (self, &pushed);
  if (ret != GST_FLOW_OK)
    return ret;
  if (klass->analyse_plane == NULL) {
    gst_cuda_morphology_device_leave (&priv->dev, pushed);
    return GST_FLOW_OK;
  }

  if (!gst_cuda_morphology_frame_path_map (&priv->frames, &in,
          &priv->frames.info, buf, GST_MAP_READ, &st)) {
    gst_cuda_morphology_device_leave (&priv->dev, pushed);
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Failed to map the input frame"),
        ("buffer %" GST_PTR_FORMAT " does not match the caps", buf));
    return GST_FLOW_ERROR;
  }
  status = gst_cuda_morphology_frame_path_analyse (&priv->frames,
      &priv->filter, &in, &st);
  gst_cuda_morphology_frame_path_unmap (&in);
  gst_cuda_morphology_device_leave (&priv->dev, pushed);

  return gst_cuda_morphology_base_end_frame (self, status, buf, &st);
}

static GstFlowReturn
gst_cuda_morphology_base_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (trans);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  GstCudaMorphologyFrameStats st = { 0, };
  GstCudaMorphologyMappedFrame in, out;
  GstFlowReturn ret;
  gboolean pushed;
  cm_event defer;
  cm_status status;

  /* passthrough was switched on between the buffer allocation and the
   * transform: the output is the input, analyse it */
  if (G_UNLIKELY (inbuf == outbuf))
    return gst_cuda_morphology_base_transform_ip (trans, inbuf);

  ret = gst_cuda_morphology_base_begin_frame (self, &pushed);
  if (ret != GST_FLOW_OK)
    return ret;

  if (!gst_cuda_morphology_frame_path_map (&priv->frames, &in,
          &priv->frames.info, inbuf, GST_MAP_READ, &st)) {
    gst_cuda_morphology_device_leave (&priv->dev, pushed);
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Failed to map the input frame"),
        ("buffer %" GST_PTR_FORMAT " does not match the caps", inbuf));
    return GST_FLOW_ERROR;
  }
  if (!gst_cuda_morphology_frame_path_map (&priv->frames, &out,
          &priv->frames.out_info, outbuf, GST_MAP_WRITE, &st)) {
    gst_cuda_morphology_frame_path_unmap (&in);
    gst_cuda_morphology_device_leave (&priv->dev, pushed);
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Failed to map the output frame"),
        ("buffer %" GST_PTR_FORMAT " does not match the caps", outbuf));
    return GST_FLOW_ERROR;
  }

  /* with overlap, the frame may be left on the device */
  defer = gst_cuda_morphology_overlap_defer_event (&priv->overlap, &in, &out);
  status = gst_cuda_morphology_frame_path_process (&priv->frames,
      &priv->filter, &in, &out, &st, defer);

  /* after the synchronisation (or with the buffers kept until the event):
   * the mappings are not needed any more */
  gst_cuda_morphology_frame_path_unmap (&out);
  gst_cuda_morphology_frame_path_unmap (&in);
  gst_cuda_morphology_device_leave (&priv->dev, pushed);

  if (defer != NULL && status == CM_OK) {
    gst_cuda_morphology_overlap_deferred (&priv->overlap, inbuf);
    st.overlapped++;
  }

  return gst_cuda_morphology_base_end_frame (self, status, inbuf, &st);
}

/* GstBaseTransform calls this after each input buffer, then again until
 * it gets no buffer; with overlap the buffer given may be an older frame's
 * (gstcudamorphologyoverlap.c). */
static GstFlowReturn
gst_cuda_morphology_base_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCudaMorphologyBasePrivate *priv =
      GET_PRIV (GST_CUDA_MORPHOLOGY_BASE (trans));

  return gst_cuda_morphology_overlap_generate_output (&priv->overlap,
      GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output, outbuf);
}

static gboolean
gst_cuda_morphology_base_sink_event (GstBaseTransform * trans,
    GstEvent * event)
{
  GstCudaMorphologyBasePrivate *priv =
      GET_PRIV (GST_CUDA_MORPHOLOGY_BASE (trans));

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_START) {
    /* not serialized: a frame running on the CPU stops between rows */
    g_atomic_int_set (&priv->cpu_cancel, 1);
  } else if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    g_atomic_int_set (&priv->cpu_cancel, 0);
  }
  /* frames held back: dropped at a flush, pushed before the others */
  gst_cuda_morphology_overlap_sink_event (&priv->overlap, event);

  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static void
gst_cuda_morphology_base_finalize (GObject * object)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (object);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  gboolean pushed;

  /* normally done in stop () already */
  if (gst_cuda_morphology_device_enter (&priv->dev, &pushed) == CM_OK) {
    gst_cuda_morphology_frame_path_free (&priv->frames);
    gst_cuda_morphology_device_free_stream (&priv->dev);
    gst_cuda_morphology_device_leave (&priv->dev, pushed);
  }
  gst_cuda_morphology_device_drop_context (&priv->dev);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}
