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
 * reused for every frame. On CUDA a frame is copied into pinned staging,
 * uploaded, filtered, downloaded, and the stream is synchronised once,
 * before the output buffer leaves the element (and before frame_done).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "gstcudamorphologybase.h"

#include "device.h"
#include "planes.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_morphology_base_debug);
#define GST_CAT_DEFAULT gst_cuda_morphology_base_debug

#define DEFAULT_BACKEND GST_CUDA_MORPHOLOGY_BACKEND_AUTO
#define DEFAULT_CUDA_DEVICE_ID -1

/* row alignment of the pinned staging and host scratch planes */
#define ROW_ALIGN 64

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
};

typedef enum
{
  LAYOUT_PLANAR,                /* GRAY, YUV: plane 0 filtered, rest copied */
  LAYOUT_PACKED                 /* RGB(A): colour channels of plane 0      */
} FrameLayout;

typedef struct
{
  /* properties, protected by the object lock */
  GstCudaMorphologyBackend backend;
  gint device_id;

  /* chosen in start () */
  gboolean use_cuda;
  gint active_device_id;
  cm_stream stream;

  /* set by mark_dirty () from any thread, read by the streaming thread */
  gint dirty;

  /* per caps, streaming thread */
  gboolean configured;
  GstVideoInfo info;
  GstVideoInfo out_info;
  gboolean convert;             /* output format != input: process_convert */
  gint out_channels;            /* samples per pixel of the converted frame */
  gsize out_row_bytes;          /* bytes of one row of output plane 0 */
  FrameLayout layout;
  cm_depth depth;
  gint pixel_channels;          /* samples per pixel of plane 0 */
  gint n_colour;
  gint colour_channel[GST_VIDEO_MAX_COMPONENTS];
  gsize row_bytes;              /* bytes of one row of plane 0 */

  /* CPU backend, packed formats: one channel out of the frame and back */
  cm_image host_in;
  cm_image host_out;

  /* CUDA backend */
  cm_image dev_in;              /* planes given to process_plane () */
  cm_image dev_out;
  cm_image_packed dev_packed_in;
  cm_image_packed dev_packed_out;
  guint8 *staging_in;           /* pinned copy of plane 0 */
  guint8 *staging_out;
  gsize staging_pitch;          /* of staging_in */
  gsize staging_out_pitch;
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

static gboolean gst_cuda_morphology_base_start (GstBaseTransform * trans);
static gboolean gst_cuda_morphology_base_stop (GstBaseTransform * trans);
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
          "bit-exact twin of the CUDA kernels). Takes effect at the next "
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

  caps = gst_caps_from_string (GST_VIDEO_CAPS_MAKE
      (GST_CUDA_MORPHOLOGY_BASE_FORMATS));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_morphology_base_stop);
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
  priv->active_device_id = DEFAULT_CUDA_DEVICE_ID;
  gst_video_info_init (&priv->info);
  gst_video_info_init (&priv->out_info);
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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* ---- helpers ------------------------------------------------------------ */

/**
 * gst_cuda_morphology_base_info_depth:
 * @info: negotiated video info
 *
 * Returns: the sample depth of the planes processed for @info
 */
/**
 * gst_cuda_morphology_base_double_in_range:
 *
 * The double that set_property got for a #GParamSpecDouble, brought into
 * the spec's range: GLib lets through values a hair outside it (its
 * comparison tolerance), which the core would refuse. NaN stays NaN for
 * the caller to refuse with a warning.
 */
gdouble
gst_cuda_morphology_base_double_in_range (const GValue * value,
    GParamSpec * pspec)
{
  GParamSpecDouble *dspec = G_PARAM_SPEC_DOUBLE (pspec);
  gdouble v = g_value_get_double (value);

  return isnan (v) ? v : CLAMP (v, dspec->minimum, dspec->maximum);
}

cm_depth
gst_cuda_morphology_base_info_depth (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? CM_DEPTH_16 : CM_DEPTH_8;
}

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
  return &GET_PRIV (self)->out_info;
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

  return GET_PRIV (self)->use_cuda;
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

  return GET_PRIV (self)->active_device_id;
}

static cm_image
plane_view (GstVideoFrame * frame, gint plane, gint width, gint height,
    cm_depth depth)
{
  cm_image img;

  img.data = GST_VIDEO_FRAME_PLANE_DATA (frame, plane);
  img.pitch = (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane);
  img.width = width;
  img.height = height;
  img.depth = depth;
  return img;
}

static cm_image_packed
packed_view (GstVideoFrame * frame, gint width, gint height, cm_depth depth,
    gint channels)
{
  cm_image_packed img;

  img.data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  img.pitch = (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  img.width = width;
  img.height = height;
  img.depth = depth;
  img.channels = channels;
  return img;
}

static void
copy_rows (guint8 * dst, gsize dst_pitch, const guint8 * src,
    gsize src_pitch, gsize row_bytes, gint rows)
{
  gint y;

  if (dst_pitch == src_pitch && dst_pitch == row_bytes) {
    memcpy (dst, src, row_bytes * rows);
    return;
  }
  for (y = 0; y < rows; y++)
    memcpy (dst + y * dst_pitch, src + y * src_pitch, row_bytes);
}

/**
 * gst_cuda_morphology_base_host_image_alloc:
 *
 * A host image of the given size with rows padded to 64 bytes (g_try_malloc;
 * free img->data with g_free). Returns %FALSE when out of memory.
 */
gboolean
gst_cuda_morphology_base_host_image_alloc (cm_image * img, gint width,
    gint height, cm_depth depth)
{
  img->pitch = GST_ROUND_UP_N ((gsize) width * cm_depth_bytes (depth),
      ROW_ALIGN);
  img->width = width;
  img->height = height;
  img->depth = depth;
  img->data = g_try_malloc (img->pitch * height);
  return img->data != NULL;
}

static void
gst_cuda_morphology_base_free_caps_state (GstCudaMorphologyBase * self)
{
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  g_clear_pointer (&priv->host_in.data, g_free);
  g_clear_pointer (&priv->host_out.data, g_free);

  g_clear_pointer (&priv->dev_in.data, cm_device_free);
  g_clear_pointer (&priv->dev_out.data, cm_device_free);
  g_clear_pointer (&priv->dev_packed_in.data, cm_device_free);
  g_clear_pointer (&priv->dev_packed_out.data, cm_device_free);
  g_clear_pointer (&priv->staging_in, cm_host_free_pinned);
  g_clear_pointer (&priv->staging_out, cm_host_free_pinned);

  priv->configured = FALSE;
}

/* Allocates what every frame of @info (output: @out_info) needs; nothing
 * is allocated per frame afterwards. */
static cm_status
gst_cuda_morphology_base_alloc_caps_state (GstCudaMorphologyBase * self,
    const GstVideoInfo * info, const GstVideoInfo * out_info)
{
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  gint width = GST_VIDEO_INFO_WIDTH (info);
  gint height = GST_VIDEO_INFO_HEIGHT (info);
  cm_status status;
  gint i;

  priv->info = *info;
  priv->out_info = *out_info;
  priv->convert = GST_VIDEO_INFO_FORMAT (info) !=
      GST_VIDEO_INFO_FORMAT (out_info);
  priv->depth = gst_cuda_morphology_base_info_depth (info);

  if (GST_VIDEO_INFO_IS_RGB (info)) {
    /* packed 8-bit RGB(A): colour components at their byte offsets, the
     * remaining byte (alpha or padding) is copied */
    priv->layout = LAYOUT_PACKED;
    priv->pixel_channels = GST_VIDEO_INFO_COMP_PSTRIDE (info, 0) /
        cm_depth_bytes (priv->depth);
    priv->n_colour = 3;
    for (i = 0; i < priv->n_colour; i++)
      priv->colour_channel[i] = GST_VIDEO_INFO_COMP_POFFSET (info, i) /
          cm_depth_bytes (priv->depth);
  } else {
    priv->layout = LAYOUT_PLANAR;
    priv->pixel_channels = 1;
    priv->n_colour = 1;
    priv->colour_channel[0] = 0;
  }
  priv->row_bytes = (gsize) width * priv->pixel_channels *
      cm_depth_bytes (priv->depth);
  if (priv->convert) {
    /* packed 8-bit output (checked in set_caps) */
    priv->out_channels = GST_VIDEO_INFO_COMP_PSTRIDE (out_info, 0);
    priv->out_row_bytes = (gsize) width * priv->out_channels;
  } else {
    priv->out_channels = priv->pixel_channels;
    priv->out_row_bytes = priv->row_bytes;
  }

  GST_DEBUG_OBJECT (self, "%s %dx%d, %s, %d-bit, %d channel(s) processed",
      GST_VIDEO_INFO_NAME (info), width, height,
      priv->layout == LAYOUT_PACKED ? "packed" : "planar", (gint) priv->depth,
      priv->n_colour);

  if (!priv->use_cuda) {
    if (priv->layout == LAYOUT_PACKED &&
        (!gst_cuda_morphology_base_host_image_alloc (&priv->host_in, width,
                height, priv->depth) ||
            !gst_cuda_morphology_base_host_image_alloc (&priv->host_out,
                width, height, priv->depth)))
      return CM_ERR_NO_MEMORY;
    return CM_OK;
  }

  status = cm_device_image_alloc (&priv->dev_in, width, height, priv->depth);
  if (status == CM_OK)
    status = cm_device_image_alloc (&priv->dev_out, width, height,
        priv->depth);
  if (status == CM_OK && priv->layout == LAYOUT_PACKED) {
    status = cm_device_packed_alloc (&priv->dev_packed_in, width, height,
        priv->depth, priv->pixel_channels);
    if (status == CM_OK)
      status = cm_device_packed_alloc (&priv->dev_packed_out, width, height,
          priv->depth, priv->pixel_channels);
  }
  /* the converted frame */
  if (status == CM_OK && priv->convert)
    status = cm_device_packed_alloc (&priv->dev_packed_out, width, height,
        CM_DEPTH_8, priv->out_channels);

  priv->staging_pitch = GST_ROUND_UP_N (priv->row_bytes, ROW_ALIGN);
  priv->staging_out_pitch = GST_ROUND_UP_N (priv->out_row_bytes, ROW_ALIGN);
  if (status == CM_OK)
    status = cm_host_alloc_pinned ((void **) &priv->staging_in,
        priv->staging_pitch * height);
  if (status == CM_OK)
    status = cm_host_alloc_pinned ((void **) &priv->staging_out,
        priv->staging_out_pitch * height);

  return status;
}

/* ---- start / stop / caps ------------------------------------------------ */

/* Makes the device current and creates the stream; on failure *reason says
 * why in words. */
static cm_status
gst_cuda_morphology_base_open_device (GstCudaMorphologyBase * self,
    gint device_id, gchar ** reason)
{
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  cm_status status;
  gchar name[256];
  gint n;

  if (!cm_have_cuda ()) {
    *reason = g_strdup (cm_status_string (CM_ERR_NO_CUDA));
    return CM_ERR_NO_CUDA;
  }

  n = cm_device_count ();
  if (n <= 0) {
    *reason = g_strdup (cm_status_string (CM_ERR_NO_DEVICE));
    return CM_ERR_NO_DEVICE;
  }
  if (device_id >= n) {
    *reason = g_strdup_printf ("cuda-device-id is %d but there %s only %d "
        "CUDA device%s", device_id, n == 1 ? "is" : "are", n,
        n == 1 ? "" : "s");
    return CM_ERR_NO_DEVICE;
  }

  status = cm_device_set (device_id);
  if (status != CM_OK) {
    *reason = g_strdup_printf ("cannot use CUDA device %d: %s", device_id,
        cm_status_string (status));
    return status;
  }

  status = cm_stream_new (&priv->stream);
  if (status != CM_OK) {
    priv->stream = NULL;
    *reason = g_strdup_printf ("cannot create a CUDA stream: %s",
        cm_status_string (status));
    return status;
  }

  if (cm_device_name (device_id, name, sizeof (name)) != CM_OK)
    g_strlcpy (name, "unknown", sizeof (name));
  GST_INFO_OBJECT (self, "CUDA backend on device %d (%s)", device_id, name);

  return CM_OK;
}

static gboolean
gst_cuda_morphology_base_start (GstBaseTransform * trans)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (trans);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  GstCudaMorphologyBackend backend;
  gint device_id;
  gchar *reason = NULL;
  cm_status status;

  GST_OBJECT_LOCK (self);
  backend = priv->backend;
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);

  priv->use_cuda = FALSE;
  priv->stream = NULL;
  priv->active_device_id = device_id;
  g_atomic_int_set (&priv->dirty, FALSE);

  if (backend == GST_CUDA_MORPHOLOGY_BACKEND_CPU) {
    GST_INFO_OBJECT (self, "CPU reference backend (backend=cpu)");
    return TRUE;
  }

  status = gst_cuda_morphology_base_open_device (self, device_id, &reason);
  if (status == CM_OK) {
    priv->use_cuda = TRUE;
    return TRUE;
  }

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
  return TRUE;
}

static gboolean
gst_cuda_morphology_base_stop (GstBaseTransform * trans)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (trans);
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  if (priv->use_cuda)
    cm_device_set (priv->active_device_id);

  if (klass->release)
    klass->release (self);
  gst_cuda_morphology_base_free_caps_state (self);

  if (priv->stream) {
    cm_stream_free (priv->stream);
    priv->stream = NULL;
  }
  priv->use_cuda = FALSE;

  return TRUE;
}

static gboolean
gst_cuda_morphology_base_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (trans);
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  GstVideoInfo in_info, out_info;
  cm_status status;

  if (!gst_video_info_from_caps (&in_info, incaps) ||
      !gst_video_info_from_caps (&out_info, outcaps)) {
    GST_ERROR_OBJECT (self, "invalid caps %" GST_PTR_FORMAT " -> %"
        GST_PTR_FORMAT, incaps, outcaps);
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

  GST_DEBUG_OBJECT (self, "caps %" GST_PTR_FORMAT, incaps);

  if (priv->use_cuda) {
    status = cm_device_set (priv->active_device_id);
    if (status != CM_OK) {
      gst_cuda_morphology_base_post_status_error (self, status,
          "Failed to make the CUDA device current");
      return FALSE;
    }
  }

  gst_cuda_morphology_base_free_caps_state (self);
  status = gst_cuda_morphology_base_alloc_caps_state (self, &in_info,
      &out_info);
  if (status != CM_OK) {
    gst_cuda_morphology_base_post_status_error (self, status,
        priv->use_cuda ? "Failed to allocate device and pinned host buffers"
        : "Failed to allocate host buffers");
    gst_cuda_morphology_base_free_caps_state (self);
    return FALSE;
  }

  g_atomic_int_set (&priv->dirty, FALSE);
  if (!klass->configure (self, &priv->info, priv->use_cuda)) {
    GST_ERROR_OBJECT (self, "subclass failed to configure for %"
        GST_PTR_FORMAT, incaps);
    gst_cuda_morphology_base_free_caps_state (self);
    return FALSE;
  }

  priv->configured = TRUE;
  return TRUE;
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

/* Upstream gets a video buffer pool and learns that any stride is fine
 * (GstVideoMeta). A pool of pinned host memory takes its place later. */
static gboolean
gst_cuda_morphology_base_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCaps *caps;
  GstVideoInfo info;
  GstBufferPool *pool;
  GstStructure *config;
  guint size;

  /* passthrough (analysers): buffers go downstream as they come, so
   * downstream answers */
  if (decide_query == NULL)
    return gst_pad_peer_query (GST_BASE_TRANSFORM_SRC_PAD (trans), query);

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);

  if (gst_query_get_n_allocation_pools (query) > 0)
    return TRUE;

  size = GST_VIDEO_INFO_SIZE (&info);
  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, 0, 0);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (trans, "failed to configure the proposed pool");
    gst_object_unref (pool);
    return TRUE;
  }
  gst_query_add_allocation_pool (query, pool, size, 0, 0);
  gst_object_unref (pool);

  return TRUE;
}

static gboolean
gst_cuda_morphology_base_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCaps *outcaps;
  GstVideoInfo info;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  guint size = 0, min = 0, max = 0;
  gboolean update_pool;

  gst_query_parse_allocation (query, &outcaps, NULL);
  if (outcaps == NULL || !gst_video_info_from_caps (&info, outcaps))
    return FALSE;

  update_pool = gst_query_get_n_allocation_pools (query) > 0;
  if (update_pool)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  size = MAX (size, (guint) GST_VIDEO_INFO_SIZE (&info));

  if (pool == NULL)
    pool = gst_video_buffer_pool_new ();

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, outcaps, size, min, max);
  if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);

  if (!gst_buffer_pool_set_config (pool, config)) {
    /* the pool may have adjusted the config: take it if it is still fine,
     * otherwise use a plain video pool of our own */
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, outcaps, size, min,
            max) || !gst_buffer_pool_set_config (pool, config)) {
      GST_DEBUG_OBJECT (trans, "downstream pool refused our config");
      gst_object_unref (pool);
      pool = gst_video_buffer_pool_new ();
      config = gst_buffer_pool_get_config (pool);
      gst_buffer_pool_config_set_params (config, outcaps, size, min, max);
      if (!gst_buffer_pool_set_config (pool, config)) {
        GST_ERROR_OBJECT (trans, "failed to configure a video buffer pool");
        gst_object_unref (pool);
        return FALSE;
      }
    }
  }

  if (update_pool)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);

  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
}

/* Keep metas that say nothing about the memory layout or the size. */
static gboolean
gst_cuda_morphology_base_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  const GstMetaInfo *info = meta->info;
  const gchar *const *tags;
  const gchar *const supported[] = { GST_META_TAG_VIDEO_STR, NULL };

  tags = gst_meta_api_type_get_tags (info->api);
  if (tags == NULL)
    return TRUE;
  for (; *tags; tags++) {
    if (!g_strv_contains (supported, *tags))
      return FALSE;
  }
  return TRUE;
}

/* ---- data path ---------------------------------------------------------- */

/* TRUE when the current RGB(A) frame goes whole to process_packed () */
static gboolean
gst_cuda_morphology_base_use_packed (GstCudaMorphologyBase * self)
{
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  if (priv->layout != LAYOUT_PACKED || klass->process_packed == NULL)
    return FALSE;
  return klass->wants_packed == NULL || klass->wants_packed (self,
      &priv->info);
}

static cm_status
gst_cuda_morphology_base_process_cpu (GstCudaMorphologyBase * self,
    GstVideoFrame * in, GstVideoFrame * out)
{
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  gint width = GST_VIDEO_INFO_WIDTH (&priv->info);
  gint height = GST_VIDEO_INFO_HEIGHT (&priv->info);
  cm_status status;
  guint p;
  gint c;

  if (priv->convert) {
    cm_image src = plane_view (in, 0, width, height, priv->depth);
    cm_image_packed dst = packed_view (out, width, height, CM_DEPTH_8,
        priv->out_channels);

    return klass->process_convert (self, &src, &dst, FALSE, NULL);
  } else if (priv->layout == LAYOUT_PLANAR) {
    cm_image src = plane_view (in, 0, width, height, priv->depth);
    cm_image dst = plane_view (out, 0, width, height, priv->depth);

    status = klass->process_plane (self, &src, &dst, FALSE, NULL);
    if (status != CM_OK)
      return status;
    for (p = 1; p < GST_VIDEO_FRAME_N_PLANES (in); p++) {
      if (!gst_video_frame_copy_plane (out, in, p))
        return CM_ERR_INVALID_ARG;
    }
    return CM_OK;
  } else {
    cm_image_packed src = packed_view (in, width, height, priv->depth,
        priv->pixel_channels);
    cm_image_packed dst = packed_view (out, width, height, priv->depth,
        priv->pixel_channels);

    /* the subclass takes the whole frame */
    if (gst_cuda_morphology_base_use_packed (self))
      return klass->process_packed (self, &src, &dst, FALSE, NULL);

    /* alpha / padding byte */
    if (!gst_video_frame_copy_plane (out, in, 0))
      return CM_ERR_INVALID_ARG;

    for (c = 0; c < priv->n_colour; c++) {
      gint ch = priv->colour_channel[c];

      status = cm_extract_channel_ref (&src, ch, &priv->host_in);
      if (status == CM_OK)
        status = klass->process_plane (self, &priv->host_in,
            &priv->host_out, FALSE, NULL);
      if (status == CM_OK)
        status = cm_insert_channel_ref (&priv->host_out, ch, &dst);
      if (status != CM_OK)
        return status;
    }
    return CM_OK;
  }
}

/* Host frame -> pinned staging -> device (asynchronous on the stream). The
 * place to skip the staging copy once upstream buffers are pinned. */
static cm_status
gst_cuda_morphology_base_upload (GstCudaMorphologyBase * self,
    GstVideoFrame * in, void *dev_data, gsize dev_pitch)
{
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  gint height = GST_VIDEO_INFO_HEIGHT (&priv->info);

  copy_rows (priv->staging_in, priv->staging_pitch,
      GST_VIDEO_FRAME_PLANE_DATA (in, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (in, 0), priv->row_bytes, height);
  return cm_copy_2d_async (dev_data, dev_pitch, priv->staging_in,
      priv->staging_pitch, priv->row_bytes, height, CM_COPY_H2D,
      priv->stream);
}

/* Device -> pinned staging (asynchronous; the frame is written after the
 * stream was synchronised, by gst_cuda_morphology_base_finish_download). */
static cm_status
gst_cuda_morphology_base_download (GstCudaMorphologyBase * self,
    const void *dev_data, gsize dev_pitch)
{
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  return cm_copy_2d_async (priv->staging_out, priv->staging_out_pitch,
      dev_data, dev_pitch, priv->out_row_bytes,
      GST_VIDEO_INFO_HEIGHT (&priv->info), CM_COPY_D2H, priv->stream);
}

static void
gst_cuda_morphology_base_finish_download (GstCudaMorphologyBase * self,
    GstVideoFrame * out)
{
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  copy_rows (GST_VIDEO_FRAME_PLANE_DATA (out, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (out, 0), priv->staging_out,
      priv->staging_out_pitch, priv->out_row_bytes,
      GST_VIDEO_INFO_HEIGHT (&priv->info));
}

static cm_status
gst_cuda_morphology_base_process_cuda (GstCudaMorphologyBase * self,
    GstVideoFrame * in, GstVideoFrame * out)
{
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  cm_status status, sync_status;
  guint p;
  gint c;

  if (priv->convert) {
    status = gst_cuda_morphology_base_upload (self, in, priv->dev_in.data,
        priv->dev_in.pitch);
    if (status == CM_OK)
      status = klass->process_convert (self, &priv->dev_in,
          &priv->dev_packed_out, TRUE, priv->stream);
    if (status == CM_OK)
      status = gst_cuda_morphology_base_download (self,
          priv->dev_packed_out.data, priv->dev_packed_out.pitch);
  } else if (priv->layout == LAYOUT_PLANAR) {
    status = gst_cuda_morphology_base_upload (self, in, priv->dev_in.data,
        priv->dev_in.pitch);
    if (status == CM_OK)
      status = klass->process_plane (self, &priv->dev_in, &priv->dev_out,
          TRUE, priv->stream);
    if (status == CM_OK)
      status = gst_cuda_morphology_base_download (self, priv->dev_out.data,
          priv->dev_out.pitch);
    /* chroma on the host while the device works */
    for (p = 1; status == CM_OK && p < GST_VIDEO_FRAME_N_PLANES (in); p++) {
      if (!gst_video_frame_copy_plane (out, in, p))
        status = CM_ERR_INVALID_ARG;
    }
  } else if (gst_cuda_morphology_base_use_packed (self)) {
    /* the subclass takes the whole frame */
    status = gst_cuda_morphology_base_upload (self, in,
        priv->dev_packed_in.data, priv->dev_packed_in.pitch);
    if (status == CM_OK)
      status = klass->process_packed (self, &priv->dev_packed_in,
          &priv->dev_packed_out, TRUE, priv->stream);
    if (status == CM_OK)
      status = gst_cuda_morphology_base_download (self,
          priv->dev_packed_out.data, priv->dev_packed_out.pitch);
  } else {
    status = gst_cuda_morphology_base_upload (self, in,
        priv->dev_packed_in.data, priv->dev_packed_in.pitch);
    /* alpha / padding byte */
    if (status == CM_OK)
      status = cm_copy_2d_async (priv->dev_packed_out.data,
          priv->dev_packed_out.pitch, priv->dev_packed_in.data,
          priv->dev_packed_in.pitch, priv->row_bytes,
          GST_VIDEO_INFO_HEIGHT (&priv->info), CM_COPY_D2D, priv->stream);
    for (c = 0; status == CM_OK && c < priv->n_colour; c++) {
      gint ch = priv->colour_channel[c];

      status = cm_extract_channel_cuda (&priv->dev_packed_in, ch,
          &priv->dev_in, priv->stream);
      if (status == CM_OK)
        status = klass->process_plane (self, &priv->dev_in, &priv->dev_out,
            TRUE, priv->stream);
      if (status == CM_OK)
        status = cm_insert_channel_cuda (&priv->dev_out, ch,
            &priv->dev_packed_out, priv->stream);
    }
    if (status == CM_OK)
      status = gst_cuda_morphology_base_download (self,
          priv->dev_packed_out.data, priv->dev_packed_out.pitch);
  }

  /* the one synchronisation of the frame, also after a failure so that no
   * queued copy still uses the staging memory */
  sync_status = cm_stream_sync (priv->stream);
  if (status == CM_OK)
    status = sync_status;
  if (status == CM_OK)
    gst_cuda_morphology_base_finish_download (self, out);

  return status;
}

/* What every frame starts with: caps, the device, pending property
 * changes. */
static GstFlowReturn
gst_cuda_morphology_base_begin_frame (GstCudaMorphologyBase * self)
{
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  cm_status status;

  if (G_UNLIKELY (!priv->configured)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("received a buffer before caps were negotiated"));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  /* the CUDA runtime's current device is per thread */
  if (priv->use_cuda) {
    status = cm_device_set (priv->active_device_id);
    if (status != CM_OK) {
      gst_cuda_morphology_base_post_status_error (self, status,
          "Failed to make the CUDA device current");
      return GST_FLOW_ERROR;
    }
  }

  /* a property changed: rebuild before this frame */
  if (g_atomic_int_compare_and_exchange (&priv->dirty, TRUE, FALSE)) {
    GST_DEBUG_OBJECT (self, "reconfiguring after a property change");
    if (!klass->configure (self, &priv->info, priv->use_cuda)) {
      GST_ERROR_OBJECT (self, "subclass failed to reconfigure");
      return GST_FLOW_ERROR;
    }
  }
  return GST_FLOW_OK;
}

/* The frame's work is done: let the subclass read its results. */
static GstFlowReturn
gst_cuda_morphology_base_end_frame (GstCudaMorphologyBase * self,
    cm_status status, GstBuffer * inbuf)
{
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  if (status != CM_OK) {
    gst_cuda_morphology_base_post_status_error (self, status,
        priv->use_cuda ? "Failed to process a frame on the CUDA device" :
        "Failed to process a frame on the CPU");
    return GST_FLOW_ERROR;
  }
  if (klass->frame_done)
    return klass->frame_done (self, inbuf);
  return GST_FLOW_OK;
}

/* Analysis only: the plane goes to analyse_plane (), the buffer is not
 * written. */
static cm_status
gst_cuda_morphology_base_analyse (GstCudaMorphologyBase * self,
    GstVideoFrame * in)
{
  GstCudaMorphologyBaseClass *klass = GST_CUDA_MORPHOLOGY_BASE_GET_CLASS (self);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  cm_status status, sync_status;

  if (priv->layout != LAYOUT_PLANAR || priv->convert)
    return CM_ERR_UNSUPPORTED;

  if (!priv->use_cuda) {
    cm_image src = plane_view (in, 0, GST_VIDEO_INFO_WIDTH (&priv->info),
        GST_VIDEO_INFO_HEIGHT (&priv->info), priv->depth);

    return klass->analyse_plane (self, &src, FALSE, NULL);
  }

  status = gst_cuda_morphology_base_upload (self, in, priv->dev_in.data,
      priv->dev_in.pitch);
  if (status == CM_OK)
    status = klass->analyse_plane (self, &priv->dev_in, TRUE, priv->stream);
  /* the one synchronisation of the frame, also after a failure so that no
   * queued copy still uses the staging memory */
  sync_status = cm_stream_sync (priv->stream);
  return status == CM_OK ? sync_status : status;
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
  GstVideoFrame frame;
  GstFlowReturn ret;
  cm_status status;

  ret = gst_cuda_morphology_base_begin_frame (self);
  if (ret != GST_FLOW_OK)
    return ret;
  if (klass->analyse_plane == NULL)
    return GST_FLOW_OK;

  if (!gst_video_frame_map (&frame, &priv->info, buf, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Failed to map the input frame"),
        ("buffer %" GST_PTR_FORMAT " does not match the caps", buf));
    return GST_FLOW_ERROR;
  }
  status = gst_cuda_morphology_base_analyse (self, &frame);
  gst_video_frame_unmap (&frame);

  return gst_cuda_morphology_base_end_frame (self, status, buf);
}

static GstFlowReturn
gst_cuda_morphology_base_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (trans);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);
  GstVideoFrame in_frame, out_frame;
  GstFlowReturn ret;
  cm_status status;

  /* passthrough was switched on between the buffer allocation and the
   * transform: the output is the input, analyse it */
  if (G_UNLIKELY (inbuf == outbuf))
    return gst_cuda_morphology_base_transform_ip (trans, inbuf);

  ret = gst_cuda_morphology_base_begin_frame (self);
  if (ret != GST_FLOW_OK)
    return ret;

  if (!gst_video_frame_map (&in_frame, &priv->info, inbuf, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Failed to map the input frame"),
        ("buffer %" GST_PTR_FORMAT " does not match the caps", inbuf));
    return GST_FLOW_ERROR;
  }
  if (!gst_video_frame_map (&out_frame, &priv->out_info, outbuf,
          GST_MAP_WRITE)) {
    gst_video_frame_unmap (&in_frame);
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Failed to map the output frame"),
        ("buffer %" GST_PTR_FORMAT " does not match the caps", outbuf));
    return GST_FLOW_ERROR;
  }

  if (priv->use_cuda)
    status = gst_cuda_morphology_base_process_cuda (self, &in_frame,
        &out_frame);
  else
    status = gst_cuda_morphology_base_process_cpu (self, &in_frame,
        &out_frame);

  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);

  return gst_cuda_morphology_base_end_frame (self, status, inbuf);
}

static void
gst_cuda_morphology_base_finalize (GObject * object)
{
  GstCudaMorphologyBase *self = GST_CUDA_MORPHOLOGY_BASE (object);
  GstCudaMorphologyBasePrivate *priv = GET_PRIV (self);

  /* normally done in stop () already */
  gst_cuda_morphology_base_free_caps_state (self);
  if (priv->stream) {
    cm_stream_free (priv->stream);
    priv->stream = NULL;
  }

  G_OBJECT_CLASS (parent_class)->finalize (object);
}
