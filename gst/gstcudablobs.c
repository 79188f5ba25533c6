/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-cudablobs
 * @title: cudablobs
 * @short_description: Threshold, connected components and per-blob
 *     statistics of every frame, on the GPU
 *
 * cudablobs thresholds every frame (a pixel is foreground when its sample
 * is >= #GstCudaBlobs:threshold, or < it with #GstCudaBlobs:invert),
 * finds its blobs (sets of foreground pixels joined by paths of 4- or
 * 8-neighbours, #GstCudaBlobs:connectivity) and measures each: bounding
 * box, area, centroid, and the minimum, maximum and mean of the input
 * under it. Blobs are listed by their first pixel in raster order (top-most
 * row, then left-most): scikit-image's label order. Blobs smaller than
 * #GstCudaBlobs:min-area or larger than a nonzero #GstCudaBlobs:max-area,
 * and with #GstCudaBlobs:exclude-border those touching the frame's edge,
 * are dropped; of those that pass, the #GstCudaBlobs:max-blobs largest are
 * reported (ties: the earlier first), still listed in raster order.
 *
 * The CUDA backend labels with a block-based union-find (Playne & Hawick,
 * TPDS 2018; Allegretti, Bolelli & Grana, TPDS 2020) and accumulates the
 * statistics in the same passes; the CPU backend runs two raster passes.
 * Both give the results of the reference (a flood fill per blob) bit for
 * bit: centroids and means are exact integer sums divided by the area.
 *
 * Input formats are GRAY8, GRAY16_LE and the luma plane of I420, NV12 and
 * Y444, in system or CUDA memory. The threshold is in sample units: 0 ..
 * 255 for the 8-bit formats, 0 .. 65535 for GRAY16_LE (a 16-bit stream
 * needs its own value; a threshold above 255 on 8-bit frames is clamped to
 * 255 with a warning).
 *
 * With #GstCudaPlaneFilter:roi or #GstCudaPlaneFilter:roi-meta each region
 * is analysed as a frame of its own: a blob never crosses a region's edge
 * (exclude-border means the region's edge, max-blobs applies per region),
 * the lists give the regions' blobs region after region in frame
 * coordinates (a centroid is the region's plus the region's offset), and
 * a blob in two overlapping regions is reported once per region. A buffer
 * without regions gets empty results (total 0).
 *
 * #GstCudaBlobs:output says what is pushed: the frames unchanged
 * (passthrough, the default), a mask (the input's format: the depth's
 * maximum on the luma of every blob that passed, whatever max-blobs, 0
 * elsewhere; chroma neutral) or the labels (GRAY16_LE:
 * 0 on the background, the blobs that passed numbered 1, 2, ... in the
 * order above, those past 65535 all 65535, with one warning). Changing
 * it while PLAYING renegotiates the output caps; every other property
 * applies from the next frame on. The labels of an 8-bit frame take the
 * whole frame (no roi).
 *
 * ## Messages
 *
 * Every #GstCudaBlobs:interval frames (when #GstCudaBlobs:post-messages is
 * %TRUE) the element posts an element message, a #GstStructure named
 * "cudablobs":
 *
 * * `timestamp`, `stream-time`, `running-time`, `duration`
 *   (G_TYPE_UINT64): the buffer's PTS and its stream and running times,
 *   and its duration, GST_CLOCK_TIME_NONE when unknown
 * * `total` (G_TYPE_UINT): blobs that passed the filters
 * * `count` (G_TYPE_UINT): blobs reported (the length of the arrays)
 * * `foreground` (G_TYPE_UINT64): foreground pixels of the frame (of its
 *   regions)
 * * `x`, `y`, `width`, `height` (GstValueArray of G_TYPE_UINT): bounding
 *   boxes in frame coordinates
 * * `area` (GstValueArray of G_TYPE_UINT64): pixels of each blob
 * * `cx`, `cy` (GstValueArray of G_TYPE_DOUBLE): centroids, the mean of
 *   the blob's pixel coordinates
 * * `min`, `max` (GstValueArray of G_TYPE_UINT), `mean` (GstValueArray of
 *   G_TYPE_DOUBLE): the input's samples under each blob
 *
 * The messages are built and posted by a thread of the element's own, in
 * the frames' order, so that the streaming thread does not wait for their
 * thousands of values (a bus sync handler runs on that thread too). All
 * of them are on the bus before the next serialized event leaves the
 * element (an EOS: before the sink's EOS message) and when it stops. A
 * message may therefore come after its buffer reached the sink; the meta
 * below is on the buffer itself.
 *
 * ## Metadata
 *
 * With #GstCudaBlobs:attach-meta every output buffer carries its frame's
 * blobs, whatever the interval:
 *
 * * a custom meta named "GstCudaBlobsMeta" (gst_buffer_get_custom_meta (),
 *   gst_custom_meta_get_structure ()): a structure of that name with the
 *   message's fields, except that the arrays are G_TYPE_BYTES in the
 *   machine's byte order: guint32 for x, y, width, height, min, max,
 *   guint64 for area, doubles for cx, cy, mean (PyGObject reads a GBytes
 *   without GStreamer's Python overrides);
 * * from GStreamer 1.24 (built with gstreamer-analytics-1.0), one
 *   GstAnalyticsODMtd of type "blob" per reported blob (its bounding box,
 *   confidence 1) in the buffer's GstAnalyticsRelationMeta, so that
 *   objectdetectionoverlay draws them; at most 4096 there with
 *   max-blobs=0 (the message and the custom meta carry all).
 *
 * In passthrough the buffer pushed is the input buffer when it is
 * writable, otherwise a copy that shares its memory (no pixel is copied).
 *
 * ## Overlap
 *
 * Reading the results on the host waits for the device. With
 * #GstCudaPlaneFilter:overlap (on, or auto when upstream is not live) on
 * the CUDA backend, a frame analysed whole from CUDA or pinned host memory
 * stays on the device while the next one is queued: its message is posted
 * and its meta attached when it leaves, after the next frame came in (or
 * at EOS, a drain, new caps). Frames by regions of interest, a property
 * change and new caps read the frame waiting first, so messages keep the
 * frames' order. The results' pinned host memory is then kept twice.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=3 pattern=ball ! \
 *     video/x-raw,format=GRAY8,width=320,height=240 ! \
 *     cudablobs threshold=128 ! fakesink
 * ]| Prints the bouncing ball's box, area and centroid in three frames.
 * |[
 * gst-launch-1.0 videotestsrc pattern=circular ! \
 *     video/x-raw,format=NV12,width=640,height=480 ! \
 *     cudablobs threshold=160 output=mask post-messages=false ! \
 *     videoconvert ! autovideosink
 * ]| Shows the blobs as a white mask.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudablobsprivate.h"
#include "base/gstcudaplanefilteranalysis.h"
#include "base/gstcudaplanefiltererrors.h"

/* shared with gstcudablobsresult.c */
GST_DEBUG_CATEGORY (gst_cuda_blobs_debug);
#define GST_CAT_DEFAULT gst_cuda_blobs_debug

#define DEFAULT_THRESHOLD 128
#define DEFAULT_INVERT FALSE
#define DEFAULT_CONNECTIVITY 8
#define DEFAULT_MIN_AREA 1
#define DEFAULT_MAX_AREA 0
#define DEFAULT_EXCLUDE_BORDER FALSE
#define DEFAULT_MAX_BLOBS 256
#define DEFAULT_OUTPUT GST_CUDA_BLOBS_OUTPUT_PASSTHROUGH
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_INTERVAL 1
#define DEFAULT_ATTACH_META TRUE

enum
{
  PROP_0,
  PROP_THRESHOLD,
  PROP_INVERT,
  PROP_CONNECTIVITY,
  PROP_MIN_AREA,
  PROP_MAX_AREA,
  PROP_EXCLUDE_BORDER,
  PROP_MAX_BLOBS,
  PROP_OUTPUT,
  PROP_POST_MESSAGES,
  PROP_INTERVAL,
  PROP_ATTACH_META,
};

G_DEFINE_TYPE_WITH_CODE (GstCudaBlobs, gst_cuda_blobs,
    GST_TYPE_CUDA_PLANE_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_blobs_debug, "cudablobs", 0,
        "CUDA connected components and blob statistics"));

GST_ELEMENT_REGISTER_DEFINE (cudablobs, "cudablobs", GST_RANK_NONE,
    GST_TYPE_CUDA_BLOBS);

GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_blobs_output,
    GstCudaBlobsOutput,
    {GST_CUDA_BLOBS_OUTPUT_PASSTHROUGH,
        "Frames unchanged, results in messages and metas", "passthrough"},
    {GST_CUDA_BLOBS_OUTPUT_MASK,
        "The input's format: the blobs that passed at the depth's maximum, "
          "0 elsewhere", "mask"},
    {GST_CUDA_BLOBS_OUTPUT_LABELS,
        "GRAY16_LE labels: 0 background, the blobs that passed 1, 2, ... in "
          "raster order", "labels"});

static void gst_cuda_blobs_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_blobs_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static void gst_cuda_blobs_finalize (GObject * object);
static gboolean gst_cuda_blobs_start (GstBaseTransform * trans);
static GstCudaPlaneFilterChroma gst_cuda_blobs_chroma (GstCudaPlaneFilter *
    base);
static cm_filter *gst_cuda_blobs_make_filter (GstCudaPlaneFilter * base,
    const GstVideoInfo * info, cm_backend backend);

#define PARAM_FLAGS GST_CUDA_PLANE_FILTER_PARAM_FLAGS
#define CONTROLLABLE_FLAGS GST_CUDA_PLANE_FILTER_CONTROLLABLE_FLAGS

static void
gst_cuda_blobs_class_init (GstCudaBlobsClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaPlaneFilterClass *base_class = GST_CUDA_PLANE_FILTER_CLASS (klass);
  GstCaps *caps;

  gobject_class->set_property = gst_cuda_blobs_set_property;
  gobject_class->get_property = gst_cuda_blobs_get_property;
  gobject_class->finalize = gst_cuda_blobs_finalize;

  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_uint ("threshold", "Threshold",
          "Sample value from which a pixel is foreground (below which with "
          "invert), in the samples' units: 0 .. 255 for the 8-bit formats, "
          "0 .. 65535 for GRAY16_LE (a 16-bit stream needs its own value). "
          "A value above the format's largest sample is clamped to it with "
          "a warning",
          0, G_MAXUINT16, DEFAULT_THRESHOLD, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_INVERT,
      g_param_spec_boolean ("invert", "Invert",
          "Dark objects: a pixel is foreground when its sample is below the "
          "threshold", DEFAULT_INVERT, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_CONNECTIVITY,
      g_param_spec_int ("connectivity", "Connectivity",
          "Neighbours that join foreground pixels into one blob: 4 (left, "
          "right, up, down) or 8 (the diagonals too). 5, 6 and 7 are "
          "refused with a warning and the previous value kept",
          4, 8, DEFAULT_CONNECTIVITY, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_MIN_AREA,
      g_param_spec_uint ("min-area", "Minimum area",
          "Blobs of fewer pixels are dropped (0 acts as 1). min-area and "
          "max-area are checked together at the next frame, whatever the "
          "order they are set in: a nonzero max-area below min-area keeps "
          "the limits in use, with one warning on the bus (an error when "
          "the element starts with it)",
          0, G_MAXUINT, DEFAULT_MIN_AREA, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_MAX_AREA,
      g_param_spec_uint ("max-area", "Maximum area",
          "Blobs of more pixels are dropped; 0: no limit. Checked with "
          "min-area (see there)",
          0, G_MAXUINT, DEFAULT_MAX_AREA, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_EXCLUDE_BORDER,
      g_param_spec_boolean ("exclude-border", "Exclude border",
          "Drop the blobs that touch the edge of the frame (of the region, "
          "with roi or roi-meta): partial objects",
          DEFAULT_EXCLUDE_BORDER, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_MAX_BLOBS,
      g_param_spec_uint ("max-blobs", "Maximum blobs",
          "Most blobs reported per frame (per region): when more pass the "
          "filters, the largest by area (ties: the earlier in raster "
          "order), still listed in raster order; total counts them all. "
          "0: no limit (the analytics meta then takes the first 4096, and "
          "the results' pinned host arrays are sized for the most blobs a "
          "frame can hold: 56 bytes every 4 pixels, 116 MB at 3840x2160)",
          0, G_MAXUINT, DEFAULT_MAX_BLOBS, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "What is pushed: the frames unchanged, a mask of the blobs that "
          "passed (the input's format, whatever max-blobs) or their labels "
          "(GRAY16_LE, 1, 2, ... in raster order, those past 65535 all "
          "65535). Changing it while PLAYING renegotiates the output caps; "
          "when downstream refuses them the output in use stays, with a "
          "warning",
          GST_TYPE_CUDA_BLOBS_OUTPUT, DEFAULT_OUTPUT, PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post a \"cudablobs\" element message with the blobs of every "
          "interval-th frame", DEFAULT_POST_MESSAGES, PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_INTERVAL,
      g_param_spec_uint ("interval", "Interval",
          "Frames per message: 1 posts every frame, N the first of every N "
          "(counted from the start and from each change of the analysis "
          "or the caps); the message carries the blobs of that frame",
          1, G_MAXUINT, DEFAULT_INTERVAL, CONTROLLABLE_FLAGS));

  g_object_class_install_property (gobject_class, PROP_ATTACH_META,
      g_param_spec_boolean ("attach-meta", "Attach meta",
          "Attach every frame's blobs (the message's fields) to its output "
          "buffer: a custom meta named \"GstCudaBlobsMeta\" (arrays as "
          "bytes) and, with GStreamer 1.24 or later, one object-detection "
          "entry of type \"blob\" per reported blob in the analytics "
          "relation meta. In passthrough an input buffer held elsewhere is "
          "pushed as a copy sharing its memory",
          DEFAULT_ATTACH_META, PARAM_FLAGS));

  /* replace the base class's templates: no RGB, GRAY16_LE labels out */
  caps = gst_cuda_plane_filter_template_caps (GST_CUDA_BLOBS_IN_FORMATS);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  gst_element_class_set_static_metadata (element_class,
      "CUDA blobs", "Filter/Analyzer/Video",
      "Threshold, connected components and per-blob statistics (box, area, "
      "centroid, min/max/mean) in messages and metas, mask or label "
      "images, on CUDA or the CPU", "gst-cuda-morphology developers");

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_blobs_start);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_blobs_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cuda_blobs_fixate_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_blobs_set_caps);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_blobs_before_transform);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_blobs_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_blobs_transform);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR (gst_cuda_blobs_transform_ip);

  base_class->debug_category = gst_cuda_blobs_debug;
  base_class->make_filter = GST_DEBUG_FUNCPTR (gst_cuda_blobs_make_filter);
  base_class->chroma = GST_DEBUG_FUNCPTR (gst_cuda_blobs_chroma);
  base_class->frame_done = GST_DEBUG_FUNCPTR (gst_cuda_blobs_frame_done);
  base_class->region_done = GST_DEBUG_FUNCPTR (gst_cuda_blobs_region_done);
  base_class->frame_left = GST_DEBUG_FUNCPTR (gst_cuda_blobs_frame_left);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_BLOBS_OUTPUT, 0);
  /* before the first buffer: applications look the meta up by name */
  gst_cuda_blobs_meta_get_info ();
}

/* the properties in the settings */
static const GstCudaPlaneFilterField gst_cuda_blobs_fields[] = {
  {PROP_THRESHOLD, G_STRUCT_OFFSET (GstCudaBlobsSettings, threshold)},
  {PROP_INVERT, G_STRUCT_OFFSET (GstCudaBlobsSettings, invert)},
  {PROP_CONNECTIVITY, G_STRUCT_OFFSET (GstCudaBlobsSettings, connectivity)},
  {PROP_MIN_AREA, G_STRUCT_OFFSET (GstCudaBlobsSettings, min_area)},
  {PROP_MAX_AREA, G_STRUCT_OFFSET (GstCudaBlobsSettings, max_area)},
  {PROP_EXCLUDE_BORDER,
      G_STRUCT_OFFSET (GstCudaBlobsSettings, exclude_border)},
  {PROP_MAX_BLOBS, G_STRUCT_OFFSET (GstCudaBlobsSettings, max_blobs)},
  {PROP_OUTPUT, G_STRUCT_OFFSET (GstCudaBlobsSettings, output)},
  {PROP_POST_MESSAGES, G_STRUCT_OFFSET (GstCudaBlobsSettings, post_messages)},
  {PROP_INTERVAL, G_STRUCT_OFFSET (GstCudaBlobsSettings, interval)},
  {PROP_ATTACH_META, G_STRUCT_OFFSET (GstCudaBlobsSettings, attach_meta)},
};

static void
gst_cuda_blobs_init (GstCudaBlobs * self)
{
  gst_cuda_plane_filter_settings_init (G_OBJECT (self), &self->settings,
      gst_cuda_blobs_fields, G_N_ELEMENTS (gst_cuda_blobs_fields));

  gst_cuda_plane_filter_analysis_init (GST_BASE_TRANSFORM (self),
      &self->analysis, DEFAULT_OUTPUT, GST_CUDA_BLOBS_OUTPUT_PASSTHROUGH);
  self->mode = DEFAULT_OUTPUT;
}

/* read at every frame: a new value rebuilds nothing */
static const guint per_frame_props[] = { PROP_POST_MESSAGES, PROP_INTERVAL,
  PROP_ATTACH_META
};

static void
gst_cuda_blobs_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (object);

  if (prop_id == PROP_CONNECTIVITY &&
      !gst_cuda_plane_filter_connectivity_ok (GST_ELEMENT (self), value))
    return;

  if (gst_cuda_plane_filter_analysis_set_property (object, &self->settings,
          gst_cuda_blobs_fields, G_N_ELEMENTS (gst_cuda_blobs_fields),
          PROP_OUTPUT, (gint *) & self->settings.output, per_frame_props,
          G_N_ELEMENTS (per_frame_props), prop_id, value, pspec))
    gst_cuda_plane_filter_mark_dirty (GST_CUDA_PLANE_FILTER (self));
}

static void
gst_cuda_blobs_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  gst_cuda_plane_filter_settings_get (object,
      &GST_CUDA_BLOBS (object)->settings, gst_cuda_blobs_fields,
      G_N_ELEMENTS (gst_cuda_blobs_fields), prop_id, value, pspec);
}

static void
gst_cuda_blobs_finalize (GObject * object)
{
  gst_cuda_blobs_result_clear (&GST_CUDA_BLOBS (object)->result);

  G_OBJECT_CLASS (gst_cuda_blobs_parent_class)->finalize (object);
}

/* ---- filters ------------------------------------------------------------ */

static gboolean
areas_valid (guint min_area, guint max_area)
{
  return max_area == 0 || max_area >= MAX (min_area, 1);
}

/* the element error of area limits that are invalid together, none valid
 * before */
static void
post_no_areas (GstCudaBlobs * self, guint min_area, guint max_area)
{
  GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
      ("max-area %u is below min-area %u", max_area, min_area),
      ("no valid area limits to keep"));
}

/* min-area and max-area are taken together here, whatever the order they
 * were set in. An invalid pair keeps the limits in use and warns once (an
 * element error when there are none yet). */
static gboolean
gst_cuda_blobs_choose_areas (GstCudaBlobs * self, cm_blobs_desc * desc)
{
  guint min_area = (guint) desc->min_area, max_area = (guint) desc->max_area;
  gboolean fresh;

  if (areas_valid (min_area, max_area)) {
    /* a later invalid pair is news again */
    self->have_refused_areas = FALSE;
    self->have_valid_areas = TRUE;
    self->valid_min_area = min_area;
    self->valid_max_area = max_area;
    return TRUE;
  }
  /* said once per pair (negotiation and regions may ask again) */
  fresh = !self->have_refused_areas || self->refused_min_area != min_area ||
      self->refused_max_area != max_area;
  self->have_refused_areas = TRUE;
  self->refused_min_area = min_area;
  self->refused_max_area = max_area;
  if (!self->have_valid_areas) {
    if (fresh)
      post_no_areas (self, min_area, max_area);
    return FALSE;
  }
  if (fresh) {
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
        ("max-area %u is below min-area %u; keeping min-area %u, max-area %u",
            max_area, min_area, self->valid_min_area, self->valid_max_area),
        (NULL));
  }
  desc->min_area = self->valid_min_area;
  desc->max_area = self->valid_max_area;
  return TRUE;
}

/* A threshold above the depth's largest sample is clamped, with one
 * warning per value. */
static void
gst_cuda_blobs_clamp_threshold (GstCudaBlobs * self, cm_blobs_desc * desc,
    cm_depth depth)
{
  guint largest = depth == CM_DEPTH_16 ? G_MAXUINT16 : G_MAXUINT8;

  if (desc->threshold <= largest)
    return;
  if (self->clamped_threshold != desc->threshold)
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
        ("threshold %u is above the largest %u-bit sample; using %u",
            desc->threshold, (guint) depth, largest),
        ("a 16-bit stream needs a threshold in 16-bit units"));
  self->clamped_threshold = desc->threshold;
  desc->threshold = largest;
}

static void
settings_to_desc (const GstCudaBlobsSettings * s, cm_blobs_desc * desc)
{
  memset (desc, 0, sizeof (*desc));
  desc->threshold = s->threshold;
  desc->invert = s->invert ? 1 : 0;
  desc->connectivity = s->connectivity;
  desc->min_area = s->min_area;
  desc->max_area = s->max_area;
  desc->exclude_border = s->exclude_border ? 1 : 0;
  desc->max_blobs = s->max_blobs;
}

/* An invalid pair of area limits with none valid before fails the state
 * change here, synchronously (as cudalinspectrum's angles). */
static gboolean
gst_cuda_blobs_start (GstBaseTransform * trans)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (trans);
  guint min_area, max_area;

  GST_OBJECT_LOCK (self);
  min_area = self->settings.min_area;
  max_area = self->settings.max_area;
  GST_OBJECT_UNLOCK (self);
  if (!areas_valid (min_area, max_area) && !self->have_valid_areas) {
    post_no_areas (self, min_area, max_area);
    return FALSE;
  }
  self->analysis.filter_made = FALSE;
  self->analysis.result_ready = FALSE;
  self->gathering = FALSE;
  self->labels_warned = FALSE;
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_blobs_parent_class)->start
      (trans);
}

static const gchar *
output_name (GstCudaBlobsOutput mode)
{
  return mode == GST_CUDA_BLOBS_OUTPUT_LABELS ? "labels" :
      mode == GST_CUDA_BLOBS_OUTPUT_MASK ? "mask" : "passthrough";
}

/* The filter of the analysis the properties ask for, writing the mask or
 * the labels when the output is one. */
static cm_filter *
gst_cuda_blobs_make_filter (GstCudaPlaneFilter * base,
    const GstVideoInfo * info, cm_backend backend)
{
  GstCudaBlobs *self = GST_CUDA_BLOBS (base);
  const GstVideoInfo *out_info = gst_cuda_plane_filter_get_output_info (base);
  cm_depth depth = gst_cuda_plane_filter_info_depth (info);
  gint width = GST_VIDEO_INFO_WIDTH (info);
  gint height = GST_VIDEO_INFO_HEIGHT (info);
  GstCudaBlobsSettings s;
  GstCudaBlobsOutput mode;
  cm_filter *filter = NULL;
  cm_blobs_desc desc;
  cm_status status;

  GST_OBJECT_LOCK (self);
  s = self->settings;
  GST_OBJECT_UNLOCK (self);

  self->in_gray16 = GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_GRAY16_LE;
  self->labels_caps = !self->in_gray16 &&
      GST_VIDEO_INFO_FORMAT (out_info) == GST_VIDEO_FORMAT_GRAY16_LE;
  mode = gst_cuda_blobs_mode (self);
  gst_cuda_plane_filter_analysis_set_passthrough (GST_BASE_TRANSFORM (self),
      GST_CAT_DEFAULT, mode == GST_CUDA_BLOBS_OUTPUT_PASSTHROUGH);

  settings_to_desc (&s, &desc);
  desc.output = mode == GST_CUDA_BLOBS_OUTPUT_LABELS ? CM_BLOBS_OUTPUT_LABELS
      : mode == GST_CUDA_BLOBS_OUTPUT_MASK ? CM_BLOBS_OUTPUT_MASK :
      CM_BLOBS_OUTPUT_NONE;
  if (!gst_cuda_blobs_choose_areas (self, &desc))
    return NULL;
  /* overlap: a frame's results stay readable while the next one runs */
  desc.result_slots = gst_cuda_plane_filter_frames_in_flight (base) ? 2 : 1;
  gst_cuda_blobs_clamp_threshold (self, &desc, depth);

  /* the first frame after a change of the analysis or the caps is
   * reported; a region of another size is neither */
  gst_cuda_plane_filter_analysis_filter_made (&self->analysis,
      memcmp (&desc, &self->desc, sizeof (desc)) == 0, out_info);
  self->desc = desc;
  self->mode = mode;

  status = cm_blobs_filter_new (&filter, backend, &desc, width, height,
      depth, gst_cuda_plane_filter_cpu_opts (base));
  if (status != CM_OK) {
    gst_cuda_plane_filter_post_status_error (base, status,
        backend == CM_BACKEND_CUDA ? "Failed to build the CUDA blobs plan" :
        "Failed to allocate the blobs buffers");
    return NULL;
  }

  GST_INFO_OBJECT (self, "blobs %s %u, %d-connected, area %u..%u%s, "
      "max %u, output %s, %dx%d %d-bit on %s: %s",
      desc.invert ? "<" : ">=", desc.threshold, desc.connectivity,
      (guint) desc.min_area, (guint) desc.max_area,
      desc.exclude_border ? ", border excluded" : "", desc.max_blobs,
      output_name (mode), width, height, (gint) depth,
      backend == CM_BACKEND_CUDA ? "CUDA" : "CPU",
      cm_filter_algorithm (filter));
  return filter;
}

/* The mask's chroma neutral (the base class fills it, in system or CUDA
 * memory); called after make_filter, which set the mode */
static GstCudaPlaneFilterChroma
gst_cuda_blobs_chroma (GstCudaPlaneFilter * base)
{
  return GST_CUDA_BLOBS (base)->mode == GST_CUDA_BLOBS_OUTPUT_MASK ?
      GST_CUDA_PLANE_FILTER_CHROMA_NEUTRAL : GST_CUDA_PLANE_FILTER_CHROMA_COPY;
}
