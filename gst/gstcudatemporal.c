/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-cudatemporal
 * @title: cudatemporal
 * @short_description: Per-pixel percentile over the last frames on the
 *     GPU: the background of a still scene, and what differs from it
 *
 * cudatemporal keeps the last #GstCudaTemporal:frames frames (the current
 * one included) and outputs, for every sample, the value of rank
 * k = floor (p / 100 * (n - 1) + 1/2) among the n samples of that position
 * in those frames sorted in ascending order, p = #GstCudaTemporal:percentile
 * (the rank cudamedian uses in space): with p = 50 the temporal median,
 * the robust background of a fixed camera. With
 * #GstCudaTemporal:output = difference it outputs |frame - background|
 * instead: what moves or is new stands out on a black frame.
 *
 * The history begins anew at start, after a flush, a caps change, a
 * buffer flagged DISCONT and a change of #GstCudaTemporal:frames or
 * #GstCudaTemporal:output. Until it is full the window is shorter:
 * n = min (frames, frames since the history began), so no frame is held
 * back and there is no latency; #GstCudaTemporal:window says how many
 * frames the last output came from. A change of
 * #GstCudaTemporal:percentile applies from the next frame on, the history
 * kept.
 *
 * Formats: GRAY8, GRAY16_LE, I420, NV12, Y444 and RGBA, BGRA, RGBx, BGRx,
 * in system or CUDA memory. Background: every sample of every plane has
 * its own history (chroma too, so the background of a colour scene is a
 * colour image; each colour channel of RGB); alpha and the padding byte
 * are the current frame's. Difference: luma, or each colour channel of
 * RGB; chroma is set neutral (grey), alpha copied.
 *
 * Memory: the history is `frames` frames allocated once per caps and
 * `frames` (device memory on CUDA, host memory on the CPU backend), never
 * per frame: width x height x the bytes of a pixel (GRAY8 1, I420 and
 * NV12 1.5, GRAY16_LE 2, Y444 3, RGBA-like 4) a frame, e.g. 8.3 MB for
 * 3840x2160 GRAY8, 12.4 MB for I420, 33.2 MB for RGBA (the difference of
 * YUV keeps luma only). When it does not fit, the element posts an error
 * that names the bytes it needed.
 *
 * With #GstCudaPlaneFilter:roi or #GstCudaPlaneFilter:roi-meta only the
 * rectangles are filtered (luma, or the colour channels), each size with
 * a history of its own: a rectangle that stays in place gets the
 * background of that place; chroma is copied there.
 *
 * The CPU backend gives the CUDA backend's result bit for bit.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=300 pattern=ball ! \
 *     video/x-raw,format=I420,width=640,height=480 ! \
 *     cudatemporal frames=25 ! videoconvert ! autovideosink
 * ]| The moving ball disappears: the median of the last 25 frames is the
 * background it moves over.
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=300 pattern=ball ! \
 *     video/x-raw,format=GRAY8,width=640,height=480 ! \
 *     cudatemporal frames=9 output=difference ! videoconvert ! \
 *     autovideosink
 * ]| Only the ball remains: |frame - median of the last 9 frames|.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudatemporal.h"
#include "base/gstcudaplanefiltererrors.h"

#include "temporal/temporal.h"
#include "temporal/temporal-filter.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_temporal_debug);
#define GST_CAT_DEFAULT gst_cuda_temporal_debug

#define DEFAULT_FRAMES 9
#define DEFAULT_PERCENTILE 50.0
#define DEFAULT_OUTPUT GST_CUDA_TEMPORAL_OUTPUT_BACKGROUND

enum
{
  PROP_0,
  PROP_FRAMES,
  PROP_PERCENTILE,
  PROP_OUTPUT,
  PROP_WINDOW,
};

typedef struct
{
  guint frames;
  gdouble percentile;
  GstCudaTemporalOutput output;
} GstCudaTemporalSettings;

struct _GstCudaTemporal
{
  GstCudaPlaneFilter parent;

  /* properties, protected by the object lock */
  GstCudaTemporalSettings settings;
  guint window;                 /* of the last output */

  /* set from any thread, applied before the next frame (atomic) */
  gint reset_pending;           /* a flush: the history begins anew */
  gint rank_pending;            /* a new percentile for the filters */
};

G_DEFINE_TYPE_WITH_CODE (GstCudaTemporal, gst_cuda_temporal,
    GST_TYPE_CUDA_PLANE_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_temporal_debug, "cudatemporal", 0,
        "CUDA temporal percentile (background, difference)"));

GST_ELEMENT_REGISTER_DEFINE (cudatemporal, "cudatemporal", GST_RANK_NONE,
    GST_TYPE_CUDA_TEMPORAL);

static void gst_cuda_temporal_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_temporal_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_cuda_temporal_start (GstBaseTransform * trans);
static gboolean gst_cuda_temporal_sink_event (GstBaseTransform * trans,
    GstEvent * event);
static void gst_cuda_temporal_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer);
static GstFlowReturn gst_cuda_temporal_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf);

static cm_filter *gst_cuda_temporal_make_filter (GstCudaPlaneFilter * base,
    const GstVideoInfo * info, cm_backend backend);
static cm_filter *gst_cuda_temporal_make_chroma_filter (GstCudaPlaneFilter *
    base, const GstVideoInfo * info, guint plane, cm_backend backend);
static GstCudaPlaneFilterChroma gst_cuda_temporal_chroma (GstCudaPlaneFilter *
    base);

#define PARAM_FLAGS GST_CUDA_PLANE_FILTER_PARAM_FLAGS
#define CONTROLLABLE_FLAGS GST_CUDA_PLANE_FILTER_CONTROLLABLE_FLAGS

static void
gst_cuda_temporal_class_init (GstCudaTemporalClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaPlaneFilterClass *base_class = GST_CUDA_PLANE_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_temporal_set_property;
  gobject_class->get_property = gst_cuda_temporal_get_property;

  g_object_class_install_property (gobject_class, PROP_FRAMES,
      g_param_spec_uint ("frames", "Frames",
          "The window in frames, the current one included (1 = the frame "
          "itself). The history holds this many frames, allocated once per "
          "caps and value (device memory on CUDA, host memory on the CPU): "
          "width x height x 1 byte a frame for GRAY8, 1.5 for I420 and "
          "NV12, 2 for GRAY16_LE, 3 for Y444, 4 for RGBA-like formats "
          "(3840x2160: 8.3 MB GRAY8, 12.4 MB I420, 33.2 MB RGBA; "
          "output=difference keeps the luma of YUV only); a change begins "
          "the history anew",
          1, CM_TEMPORAL_MAX_FRAMES, DEFAULT_FRAMES, PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_PERCENTILE,
      g_param_spec_double ("percentile", "Percentile",
          "Rank of the output among the n samples of a position in the "
          "window sorted in ascending order, as a percentage: rank floor "
          "(p / 100 * (n - 1) + 1/2), n = min (frames, frames since the "
          "history began); 50 = median, 0 = minimum, 100 = maximum. A "
          "change applies from the next frame, the history kept",
          0.0, 100.0, DEFAULT_PERCENTILE, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "background = the percentile of every sample (chroma and colour "
          "channels too, alpha copied); difference = |frame - background| "
          "of luma or of each colour channel, chroma neutral (grey), alpha "
          "copied. A change begins the history anew",
          GST_TYPE_CUDA_TEMPORAL_OUTPUT, DEFAULT_OUTPUT, PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_WINDOW,
      g_param_spec_uint ("window", "Window",
          "Read-only: how many frames the last output was computed from "
          "(0 before the first; it grows by one a frame up to frames after "
          "the history began anew, so an application sees when the "
          "background is warm)",
          0, CM_TEMPORAL_MAX_FRAMES, 0,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_set_static_metadata (element_class,
      "CUDA temporal percentile", "Filter/Effect/Video",
      "Per-pixel median or percentile over the last frames, kept on the "
      "GPU: the background of a still scene, or how far each frame is "
      "from it; on CUDA or the CPU", "gst-cuda-morphology developers");

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_temporal_start);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_temporal_sink_event);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_temporal_before_transform);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_temporal_transform);

  base_class->debug_category = gst_cuda_temporal_debug;
  base_class->make_filter = GST_DEBUG_FUNCPTR (gst_cuda_temporal_make_filter);
  base_class->make_chroma_filter =
      GST_DEBUG_FUNCPTR (gst_cuda_temporal_make_chroma_filter);
  base_class->chroma = GST_DEBUG_FUNCPTR (gst_cuda_temporal_chroma);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_TEMPORAL_OUTPUT, 0);
}

static const GstCudaPlaneFilterField gst_cuda_temporal_fields[] = {
  {PROP_FRAMES, G_STRUCT_OFFSET (GstCudaTemporalSettings, frames)},
  {PROP_PERCENTILE, G_STRUCT_OFFSET (GstCudaTemporalSettings, percentile)},
  {PROP_OUTPUT, G_STRUCT_OFFSET (GstCudaTemporalSettings, output)},
};

static void
gst_cuda_temporal_init (GstCudaTemporal * self)
{
  gst_cuda_plane_filter_settings_init (G_OBJECT (self), &self->settings,
      gst_cuda_temporal_fields, G_N_ELEMENTS (gst_cuda_temporal_fields));
}

static void
gst_cuda_temporal_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaTemporal *self = GST_CUDA_TEMPORAL (object);

  if (prop_id == PROP_PERCENTILE &&
      !gst_cuda_plane_filter_percentile_ok (GST_ELEMENT (self), value, pspec))
    return;
  if (!gst_cuda_plane_filter_settings_set (object, &self->settings,
          gst_cuda_temporal_fields, G_N_ELEMENTS (gst_cuda_temporal_fields),
          prop_id, value, pspec))
    return;
  /* the rank changes in place; a new window or output is a new history */
  if (prop_id == PROP_PERCENTILE)
    g_atomic_int_set (&self->rank_pending, TRUE);
  else
    gst_cuda_plane_filter_mark_dirty (GST_CUDA_PLANE_FILTER (self));
}

static void
gst_cuda_temporal_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaTemporal *self = GST_CUDA_TEMPORAL (object);

  if (prop_id == PROP_WINDOW) {
    GST_OBJECT_LOCK (self);
    g_value_set_uint (value, self->window);
    GST_OBJECT_UNLOCK (self);
    return;
  }
  gst_cuda_plane_filter_settings_get (object, &self->settings,
      gst_cuda_temporal_fields, G_N_ELEMENTS (gst_cuda_temporal_fields),
      prop_id, value, pspec);
}

/* ---- filters --------------------------------------------------------- */

/* The bytes a frame of @info takes in the history on @backend (every
 * plane the output needs), for the messages */
static gsize
frame_history_bytes (const GstVideoInfo * info, const cm_temporal_desc * d,
    cm_backend backend)
{
  cm_depth depth = gst_cuda_plane_filter_info_depth (info);
  cm_temporal_desc one = *d;
  gsize bytes = 0;
  guint p;

  one.frames = 1;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    if (p > 0 && d->output == CM_TEMPORAL_DIFFERENCE)
      break;
    gst_video_format_info_component (info->finfo, p, comp);
    one.channels = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]) /
        cm_depth_bytes (depth);
    one.alpha = -1;
    bytes += cm_temporal_filter_ring_bytes (backend, &one,
        GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]),
        GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]), depth);
  }
  return bytes;
}

/* A filter of @desc for planes of @width x @height; out of memory, an
 * error that names the bytes the history needs. */
static cm_filter *
gst_cuda_temporal_new_filter (GstCudaTemporal * self,
    const GstVideoInfo * frame, const cm_temporal_desc * desc, gint width,
    gint height, cm_backend backend, const gchar * what)
{
  GstCudaPlaneFilter *base = GST_CUDA_PLANE_FILTER (self);
  cm_depth depth = gst_cuda_plane_filter_info_depth (frame);
  cm_filter *filter = NULL;
  cm_status status;
  gchar *msg;

  status = cm_temporal_filter_new (&filter, backend, desc, width, height,
      depth, gst_cuda_plane_filter_cpu_opts (base));
  if (status == CM_OK) {
    GST_INFO_OBJECT (self, "%s: %dx%d, %d channel(s), %d-bit, %d frames, "
        "percentile %g, %s on %s: %" G_GSIZE_FORMAT " bytes of history",
        what, width, height, desc->channels, (gint) depth, desc->frames,
        desc->percentile, cm_temporal_output_name (desc->output),
        backend == CM_BACKEND_CUDA ? "CUDA" : "CPU",
        cm_temporal_filter_ring_bytes (backend, desc, width, height, depth));
    return filter;
  }

  if (status == CM_ERR_NO_MEMORY || status == CM_ERR_CUDA_BASE + 2) {
    /* CM_ERR_CUDA_BASE + cudaErrorMemoryAllocation */
    gsize frame_bytes = frame_history_bytes (frame, desc, backend);

    msg = g_strdup_printf ("The history of %d frames of %dx%d %s needs %"
        G_GSIZE_FORMAT " bytes (%.1f MB) of %s memory, %.2f MB a frame; "
        "the %s's %" G_GSIZE_FORMAT " bytes could not be allocated",
        desc->frames, GST_VIDEO_INFO_WIDTH (frame),
        GST_VIDEO_INFO_HEIGHT (frame), GST_VIDEO_INFO_NAME (frame),
        frame_bytes * desc->frames, frame_bytes * desc->frames / 1e6,
        backend == CM_BACKEND_CUDA ? "device" : "host", frame_bytes / 1e6,
        what, cm_temporal_filter_ring_bytes (backend, desc, width, height,
            depth));
  } else {
    msg = g_strdup_printf ("Failed to make the temporal filter of the %s "
        "(%dx%d, %d frames)", what, width, height, desc->frames);
  }
  gst_cuda_plane_filter_post_status_error (base, status, msg);
  g_free (msg);
  return NULL;
}

static cm_temporal_desc
gst_cuda_temporal_desc (GstCudaTemporal * self)
{
  cm_temporal_desc desc;

  memset (&desc, 0, sizeof (desc));
  GST_OBJECT_LOCK (self);
  desc.frames = (int) self->settings.frames;
  desc.percentile = self->settings.percentile;
  desc.output = (cm_temporal_output) self->settings.output;
  GST_OBJECT_UNLOCK (self);
  desc.channels = 1;
  desc.alpha = -1;
  return desc;
}

/* Plane 0: the only plane of GRAY, luma, or a whole RGB(A) frame whose
 * alpha or padding byte is the current frame's */
static cm_filter *
gst_cuda_temporal_make_filter (GstCudaPlaneFilter * base,
    const GstVideoInfo * info, cm_backend backend)
{
  GstCudaTemporal *self = GST_CUDA_TEMPORAL (base);
  cm_temporal_desc desc = gst_cuda_temporal_desc (self);

  if (GST_VIDEO_INFO_IS_RGB (info)) {
    /* the byte that is neither R, G nor B: 0 + 1 + 2 + 3 minus theirs */
    desc.channels = 4;
    desc.alpha = 6 - (gint) (GST_VIDEO_INFO_COMP_POFFSET (info,
            GST_VIDEO_COMP_R) + GST_VIDEO_INFO_COMP_POFFSET (info,
            GST_VIDEO_COMP_G) + GST_VIDEO_INFO_COMP_POFFSET (info,
            GST_VIDEO_COMP_B));
  }
  return gst_cuda_temporal_new_filter (self, info, &desc,
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), backend,
      GST_VIDEO_INFO_IS_YUV (info) ? "luma plane" : "frame");
}

/* Chroma plane @plane, background only (difference leaves it neutral):
 * NV12's interleaved U and V as two channels */
static cm_filter *
gst_cuda_temporal_make_chroma_filter (GstCudaPlaneFilter * base,
    const GstVideoInfo * info, guint plane, cm_backend backend)
{
  GstCudaTemporal *self = GST_CUDA_TEMPORAL (base);
  cm_temporal_desc desc = gst_cuda_temporal_desc (self);
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, plane, comp);
  desc.channels = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]) /
      cm_depth_bytes (gst_cuda_plane_filter_info_depth (info));
  desc.output = CM_TEMPORAL_BACKGROUND;
  return gst_cuda_temporal_new_filter (self, info, &desc,
      GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]),
      GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]), backend,
      plane == 1 ? "first chroma plane" : "second chroma plane");
}

static GstCudaPlaneFilterChroma
gst_cuda_temporal_chroma (GstCudaPlaneFilter * base)
{
  GstCudaTemporal *self = GST_CUDA_TEMPORAL (base);
  GstCudaTemporalOutput output;

  GST_OBJECT_LOCK (self);
  output = self->settings.output;
  GST_OBJECT_UNLOCK (self);
  return output == GST_CUDA_TEMPORAL_OUTPUT_DIFFERENCE ?
      GST_CUDA_PLANE_FILTER_CHROMA_NEUTRAL :
      GST_CUDA_PLANE_FILTER_CHROMA_FILTER;
}

/* ---- the history over the stream ------------------------------------ */

typedef struct
{
  gboolean reset;
  gboolean rank;
  gdouble percentile;
  cm_temporal_output output;
  cm_status status;
  gint window;                  /* of plane 0's filter in use, -1: none */
} GstCudaTemporalVisit;

static void
visit_filter (cm_filter * filter, guint plane, gboolean in_use,
    gpointer user_data)
{
  GstCudaTemporalVisit *v = user_data;
  cm_status status = CM_OK;

  if (v->reset)
    cm_temporal_filter_reset (filter);
  if (v->rank)
    status = cm_temporal_filter_set_rank (filter, v->percentile,
        plane == 0 ? v->output : CM_TEMPORAL_BACKGROUND);
  if (v->status == CM_OK)
    v->status = status;
  if (plane == 0 && in_use)
    v->window = cm_temporal_filter_window (filter);
}

static gboolean
gst_cuda_temporal_start (GstBaseTransform * trans)
{
  GstCudaTemporal *self = GST_CUDA_TEMPORAL (trans);

  /* the filters are made at the caps, with empty histories */
  g_atomic_int_set (&self->reset_pending, FALSE);
  g_atomic_int_set (&self->rank_pending, FALSE);
  GST_OBJECT_LOCK (self);
  self->window = 0;
  GST_OBJECT_UNLOCK (self);
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_temporal_parent_class)->start
      (trans);
}

static gboolean
gst_cuda_temporal_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaTemporal *self = GST_CUDA_TEMPORAL (trans);

  /* the frames after a flush do not continue the ones before */
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    g_atomic_int_set (&self->reset_pending, TRUE);
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_temporal_parent_class)->sink_event
      (trans, event);
}

/* Streaming thread, before each frame: a flush or a DISCONT buffer
 * begins the history anew, a new percentile applies from here. */
static void
gst_cuda_temporal_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstCudaTemporal *self = GST_CUDA_TEMPORAL (trans);
  GstCudaTemporalVisit v = { FALSE, };

  gst_cuda_plane_filter_before_transform (trans, buffer);

  v.reset = g_atomic_int_compare_and_exchange (&self->reset_pending, TRUE,
      FALSE) || GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_DISCONT);
  v.rank = g_atomic_int_compare_and_exchange (&self->rank_pending, TRUE,
      FALSE);
  if (!v.reset && !v.rank)
    return;
  GST_OBJECT_LOCK (self);
  v.percentile = self->settings.percentile;
  v.output = (cm_temporal_output) self->settings.output;
  GST_OBJECT_UNLOCK (self);
  v.status = CM_OK;
  v.window = -1;
  GST_DEBUG_OBJECT (self, "%s%s", v.reset ? "history begins anew" : "",
      v.rank ? (v.reset ? ", new percentile" : "new percentile") : "");
  gst_cuda_plane_filter_foreach_filter (GST_CUDA_PLANE_FILTER (self),
      visit_filter, &v);
  /* a percentile in range is always taken: this would be a bug */
  if (v.status != CM_OK)
    GST_WARNING_OBJECT (self, "percentile %g refused by the filter: %s",
        v.percentile, cm_status_string (v.status));
}

/* The frame through the base class, then the window it came from */
static GstFlowReturn
gst_cuda_temporal_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCudaTemporal *self = GST_CUDA_TEMPORAL (trans);
  GstCudaTemporalVisit v = { FALSE, };
  GstFlowReturn ret;

  ret = GST_BASE_TRANSFORM_CLASS (gst_cuda_temporal_parent_class)->transform
      (trans, inbuf, outbuf);
  v.window = -1;
  gst_cuda_plane_filter_foreach_filter (GST_CUDA_PLANE_FILTER (self),
      visit_filter, &v);
  if (v.window >= 0) {
    GST_OBJECT_LOCK (self);
    self->window = (guint) v.window;
    GST_OBJECT_UNLOCK (self);
  }
  return ret;
}
