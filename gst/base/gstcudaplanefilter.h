/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Abstract base class of the cudamorphology video filters.
 *
 * It owns everything that is not the filter itself: the backend choice
 * (CUDA device or CPU reference), the element's CUDA stream, caps (same
 * caps on both pads unless the subclass converts), per-caps resident
 * buffers, the upload/download of frames, the split of RGB(A) frames into
 * channels and the copy of chroma and alpha, and the memory frames come
 * in and leave in (system memory, pinned host pools, CUDA memory shared
 * with nvcodec through the pipeline's GstCudaContext). A subclass only
 * says how to filter one single-channel plane; analysers may also look at
 * frames without changing them (passthrough) or convert the plane into
 * another packed output format. The @process_plane and friends get device
 * images on the CUDA backend whatever memory the frames are in. */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "cm-status.h"
#include "cm-image.h"
#include "gstcudaplanefilterenums.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_PLANE_FILTER (gst_cuda_plane_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaPlaneFilter, gst_cuda_plane_filter,
    GST, CUDA_PLANE_FILTER, GstBaseTransform);

/* Formats of the pad templates; every one is processed at full frame size:
 * the luma plane of the YUV formats, the only plane of GRAY, each colour
 * channel of the RGB formats. */
#define GST_CUDA_PLANE_FILTER_FORMATS \
  "{ GRAY8, GRAY16_LE, I420, NV12, Y444, RGBA, BGRA, RGBx, BGRx }"

/**
 * GstCudaPlaneFilterClass:
 * @parent_class: the parent class
 * @debug_category: (nullable): the subclass's debug category; errors of the
 *     data path are logged there as well (set it in class_init)
 * @configure: build the filter for frames of @info on the chosen backend
 *     (plans, structuring elements, ...), freeing what an earlier call
 *     built. Called from set_caps, again before the next frame after
 *     gst_cuda_plane_filter_mark_dirty(), and before a region of
 *     interest of a size no filter was kept for (@info then has the
 *     region's size, see @stash_filter). The properties are to be read
 *     under the object lock here. With @use_cuda the element's device is
 *     current. Every plane later given to @process_plane has the size
 *     GST_VIDEO_INFO_WIDTH x GST_VIDEO_INFO_HEIGHT of @info and the depth
 *     gst_cuda_plane_filter_info_depth (@info). On failure post a
 *     GST_ELEMENT_ERROR (gst_cuda_plane_filter_post_status_error()) and
 *     return %FALSE.
 * @process_plane: filter @src into @dst (same size and depth, never
 *     overlapping). With @use_cuda both are device images and @stream is the
 *     element's cudaStream_t: queue the work on it and return without
 *     synchronising. Without, both are host images (pitches may be padded)
 *     and @stream is %NULL. Return the core status; the base class turns a
 *     failure into an element error.
 * @release: (nullable): free what @configure built; called from stop()
 *     with the device current, and again when the element is finalized
 *     (with the device current when it can be made so): a subclass's
 *     finalize does not call it.
 * @wants_packed: (nullable): for the packed RGB(A) formats, whether the
 *     next frame goes whole to @process_packed instead of channel by
 *     channel to @process_plane. Called from the streaming thread before
 *     every RGB(A) frame, after @configure; %NULL means %TRUE when
 *     @process_packed is set.
 * @process_packed: (nullable): filter a whole interleaved RGB(A) frame
 *     @src into @dst (same size, depth and channel count, never
 *     overlapping), all channels included (nothing is copied by the base
 *     class). Same contract as @process_plane otherwise.
 *
 * @analyse_plane: (nullable): analysis-only frames. While the subclass
 *     keeps the element in passthrough (gst_base_transform_set_passthrough(),
 *     same caps on both pads) every buffer is pushed untouched and the
 *     processed plane of its frame is given here (GRAY and YUV formats;
 *     the luma plane). With @use_cuda @src is a device copy and @stream the
 *     element's stream: queue the work and return; the base class
 *     synchronises the stream once, then calls @frame_done. Without, @src
 *     is the mapped host plane (read only).
 * @process_convert: (nullable): frames whose output format differs from
 *     the input format: filter @src, the processed plane of the input (GRAY
 *     and YUV formats), into @dst, the whole packed 8-bit frame of the
 *     output format (e.g. RGBA, @dst->channels samples per pixel), writing
 *     every byte of every pixel. Same memory contract as @process_plane.
 *     A subclass that implements it chooses the output caps itself
 *     (#GstBaseTransformClass.transform_caps and fixate_caps); the base
 *     class accepts a packed 8-bit RGB output of the input's size and
 *     otherwise requires the same format on both pads.
 * @frame_done: (nullable): called once per frame after its work is
 *     complete (after the stream synchronisation on CUDA, results in host
 *     memory readable), whatever the mode, with the input buffer (for its
 *     timestamps). The place to post per-frame messages. Return
 *     %GST_FLOW_OK, or an error after posting an element error.
 *
 * @stash_filter: (nullable): regions of interest of several sizes. Hand
 *     over what @configure built for the size in use as one opaque object
 *     (%NULL when nothing is built), leaving the element as if nothing
 *     were built: the next call is @restore_filter or @configure, which
 *     then has nothing to free. No allocation, no device call. The base
 *     class keeps a few of them per size (gstcudaplanefiltercache.h)
 *     and frees them when the properties, the caps or the device change,
 *     so that a size that comes back reuses its filter instead of
 *     @configure building it again. %NULL: every change of size calls
 *     @configure.
 * @restore_filter: (nullable): put back an object @stash_filter returned
 *     (built with the current properties and caps, for the size of the
 *     planes that follow), right after @stash_filter; the element owns it
 *     again. Set with @stash_filter.
 * @free_filter: (nullable): free an object @stash_filter returned; the
 *     device is current and the work queued with it is done. Set with
 *     @stash_filter.
 *
 * Subclasses implement @configure and @process_plane, and may implement
 * @process_packed (with @wants_packed) for filters that need every
 * channel of a pixel at once. Analysers add @analyse_plane, @frame_done
 * and possibly @process_convert. All three of @stash_filter,
 * @restore_filter and @free_filter, or none.
 */
struct _GstCudaPlaneFilterClass
{
  GstBaseTransformClass parent_class;

  GstDebugCategory *debug_category;

  gboolean (*configure) (GstCudaPlaneFilter * self,
      const GstVideoInfo * info, gboolean use_cuda);
  cm_status (*process_plane) (GstCudaPlaneFilter * self,
      const cm_image * src, const cm_image * dst, gboolean use_cuda,
      void *stream);
  void (*release) (GstCudaPlaneFilter * self);
  gboolean (*wants_packed) (GstCudaPlaneFilter * self,
      const GstVideoInfo * info);
  cm_status (*process_packed) (GstCudaPlaneFilter * self,
      const cm_image_packed * src, const cm_image_packed * dst,
      gboolean use_cuda, void *stream);
  cm_status (*analyse_plane) (GstCudaPlaneFilter * self,
      const cm_image * src, gboolean use_cuda, void *stream);
  cm_status (*process_convert) (GstCudaPlaneFilter * self,
      const cm_image * src, const cm_image_packed * dst, gboolean use_cuda,
      void *stream);
  GstFlowReturn (*frame_done) (GstCudaPlaneFilter * self,
      GstBuffer * inbuf);
  gpointer (*stash_filter) (GstCudaPlaneFilter * self);
  void (*restore_filter) (GstCudaPlaneFilter * self, gpointer filter);
  void (*free_filter) (gpointer filter);

  /*< private >*/
  gpointer _gst_reserved[GST_PADDING];
};

/* The flags of the elements' properties: all may change while PLAYING;
 * the controllable ones are per-frame settings that a GstController
 * binding may drive (values taken at each buffer's stream time,
 * gst_cuda_plane_filter_before_transform()). */
#define GST_CUDA_PLANE_FILTER_PARAM_FLAGS \
  (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING)
#define GST_CUDA_PLANE_FILTER_CONTROLLABLE_FLAGS \
  (GST_CUDA_PLANE_FILTER_PARAM_FLAGS | GST_PARAM_CONTROLLABLE)

/**
 * GstCudaPlaneFilterField:
 * @prop_id: a property of the element
 * @offset: where its value is kept in the element's settings struct
 *     (G_STRUCT_OFFSET)
 *
 * A property kept in a field of the type of its value: gint, guint,
 * gboolean, gdouble (brought into the spec's range), an enum or a string
 * (gchar *, owned). A property listed twice sets both fields and reads
 * back the first. See gst_cuda_plane_filter_settings_set().
 */
typedef struct
{
  guint prop_id;
  gsize offset;
} GstCudaPlaneFilterField;

/* Defined in gstcudaplanefilter.c where they read the element's state
 * (allow_cuda_memory in gstcudaplanefilternegotiation.c, through the
 * state the base class gives it); the others (info_depth,
 * double_in_range, settings_set and _get, host_image_alloc, template_caps,
 * caps_to_system, caps_add_memory, fixate_memory, before_transform) in
 * gstcudaplanefilterhelpers.c. */
void gst_cuda_plane_filter_mark_dirty (GstCudaPlaneFilter * self);

gboolean gst_cuda_plane_filter_is_cuda (GstCudaPlaneFilter * self);

gint gst_cuda_plane_filter_get_device_id (GstCudaPlaneFilter * self);

void gst_cuda_plane_filter_post_status_error (GstCudaPlaneFilter * self,
    cm_status status, const gchar * what);

cm_depth gst_cuda_plane_filter_info_depth (const GstVideoInfo * info);

gdouble gst_cuda_plane_filter_double_in_range (const GValue * value,
    GParamSpec * pspec);

gboolean gst_cuda_plane_filter_host_image_alloc (cm_image * img,
    gint width, gint height, cm_depth depth);

const GstVideoInfo *gst_cuda_plane_filter_get_output_info
    (GstCudaPlaneFilter * self);

GstCaps *gst_cuda_plane_filter_template_caps (const gchar * formats);

gboolean gst_cuda_plane_filter_allow_cuda_memory (GstCudaPlaneFilter *
    self);

GstCaps *gst_cuda_plane_filter_caps_to_system (GstCaps * caps,
    gboolean allow);

GstCaps *gst_cuda_plane_filter_caps_add_memory (GstCaps * caps,
    GstCaps * like, gboolean allow);

GstCaps *gst_cuda_plane_filter_fixate_memory (GstCudaPlaneFilter *
    self, GstCaps * othercaps, GstCaps * caps);

void gst_cuda_plane_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer);

gboolean gst_cuda_plane_filter_settings_set (GObject * object,
    gpointer settings, const GstCudaPlaneFilterField * fields,
    guint n_fields, guint prop_id, const GValue * value, GParamSpec * pspec);

void gst_cuda_plane_filter_settings_get (GObject * object,
    gconstpointer settings, const GstCudaPlaneFilterField * fields,
    guint n_fields, guint prop_id, GValue * value, GParamSpec * pspec);

const cm_cpu_opts *gst_cuda_plane_filter_cpu_opts (GstCudaPlaneFilter *
    self);

G_END_DECLS
