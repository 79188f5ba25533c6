/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The frame path of the cudamorphology elements (gstcudaplanefilterframe.h):
 * mapping, upload and download through pinned staging, the channel split
 * of packed RGB(A) frames, chroma and alpha copies, and the filter run on
 * the CPU or queued on the element's stream. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudaplanefilterframe.h"
#include "gstcudaplanefilterframeprivate.h"

#include "planes.h"


GST_DEBUG_CATEGORY (gst_cuda_plane_filter_frame_debug);
#define GST_CAT_DEFAULT gst_cuda_plane_filter_frame_debug

#define ROW_ALIGN GST_CUDA_PLANE_FILTER_ROW_ALIGN

static void
debug_ensure (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_plane_filter_frame_debug,
        "cudaplanefilterframe", 0, "CUDA plane filter frame path");
    g_once_init_leave (&once, 1);
  }
}

/* the depth of the planes filtered for @info */
static cm_depth
gst_cuda_plane_filter_frame_info_depth (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? CM_DEPTH_16 : CM_DEPTH_8;
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

void
gst_cuda_plane_filter_frame_copy_rows (guint8 * dst, gsize dst_pitch,
    const guint8 * src, gsize src_pitch, gsize row_bytes, gint rows)
{
  gint y;

  if (dst_pitch == src_pitch && dst_pitch == row_bytes) {
    memcpy (dst, src, row_bytes * rows);
    return;
  }
  for (y = 0; y < rows; y++)
    memcpy (dst + y * dst_pitch, src + y * src_pitch, row_bytes);
}

/* A host image, rows padded to 64 bytes (g_free its data); FALSE: out of
 * memory. */
static gboolean
gst_cuda_plane_filter_frame_host_image_alloc (cm_image * img, gint width,
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

/* The per-caps buffers freed (device current); configure makes them. */
void
gst_cuda_plane_filter_frame_path_clear (GstCudaPlaneFilterFramePath * fp)
{
  g_clear_pointer (&fp->host_in.data, g_free);
  g_clear_pointer (&fp->host_out.data, g_free);

  g_clear_pointer (&fp->dev_in.data, cm_device_free);
  g_clear_pointer (&fp->dev_out.data, cm_device_free);
  g_clear_pointer (&fp->dev_packed_in.data, cm_device_free);
  g_clear_pointer (&fp->dev_packed_out.data, cm_device_free);
  g_clear_pointer (&fp->staging_in, cm_host_free_pinned);
  g_clear_pointer (&fp->staging_out, cm_host_free_pinned);
  gst_cuda_plane_filter_frame_chroma_clear (fp);
}

/* Everything freed (device current): the buffers and the events. */
void
gst_cuda_plane_filter_frame_path_free (GstCudaPlaneFilterFramePath * fp)
{
  gst_cuda_plane_filter_frame_path_clear (fp);
  g_clear_pointer (&fp->order_event, cm_event_free);
  g_clear_pointer (&fp->time_start, cm_event_free);
  g_clear_pointer (&fp->time_end, cm_event_free);
  fp->time_pending = FALSE;
}

/* What every frame of @info (output @out_info) needs, on fp->backend
 * (device current); nothing per frame after. Clear first if configured. */
cm_status
gst_cuda_plane_filter_frame_path_configure (GstCudaPlaneFilterFramePath * fp,
    const GstVideoInfo * info, const GstVideoInfo * out_info)
{
  gint width = GST_VIDEO_INFO_WIDTH (info);
  gint height = GST_VIDEO_INFO_HEIGHT (info);
  cm_status status;
  gint i;

  fp->info = *info;
  fp->out_info = *out_info;
  fp->convert = GST_VIDEO_INFO_FORMAT (info) !=
      GST_VIDEO_INFO_FORMAT (out_info);
  fp->depth = gst_cuda_plane_filter_frame_info_depth (info);

  if (GST_VIDEO_INFO_IS_RGB (info)) {
    /* packed 8-bit RGB(A): colour components at their byte offsets, the
     * remaining byte (alpha or padding) is copied */
    fp->layout = GST_CUDA_PLANE_FILTER_LAYOUT_PACKED;
    fp->pixel_channels = GST_VIDEO_INFO_COMP_PSTRIDE (info, 0) /
        cm_depth_bytes (fp->depth);
    fp->n_colour = 3;
    for (i = 0; i < fp->n_colour; i++)
      fp->colour_channel[i] = GST_VIDEO_INFO_COMP_POFFSET (info, i) /
          cm_depth_bytes (fp->depth);
  } else {
    fp->layout = GST_CUDA_PLANE_FILTER_LAYOUT_PLANAR;
    fp->pixel_channels = 1;
    fp->n_colour = 1;
    fp->colour_channel[0] = 0;
  }
  fp->row_bytes = (gsize) width * fp->pixel_channels *
      cm_depth_bytes (fp->depth);
  if (fp->convert) {
    /* packed 8-bit output (checked in set_caps) */
    fp->out_channels = GST_VIDEO_INFO_COMP_PSTRIDE (out_info, 0);
    fp->out_row_bytes = (gsize) width * fp->out_channels;
  } else {
    fp->out_channels = fp->pixel_channels;
    fp->out_row_bytes = fp->row_bytes;
  }

  debug_ensure ();
  GST_DEBUG ("%s %dx%d, %s, %d-bit, %d channel(s) processed",
      GST_VIDEO_INFO_NAME (info), width, height,
      fp->layout == GST_CUDA_PLANE_FILTER_LAYOUT_PACKED ? "packed" : "planar",
      (gint) fp->depth, fp->n_colour);

  status = gst_cuda_plane_filter_frame_chroma_configure (fp);
  if (status != CM_OK)
    return status;
  if (fp->backend != CM_BACKEND_CUDA) {
    if (fp->layout == GST_CUDA_PLANE_FILTER_LAYOUT_PACKED &&
        (!gst_cuda_plane_filter_frame_host_image_alloc (&fp->host_in, width,
                height, fp->depth) ||
            !gst_cuda_plane_filter_frame_host_image_alloc (&fp->host_out,
                width, height, fp->depth)))
      return CM_ERR_NO_MEMORY;
    return CM_OK;
  }

  status = cm_device_image_alloc (&fp->dev_in, width, height, fp->depth);
  if (status == CM_OK)
    status = cm_device_image_alloc (&fp->dev_out, width, height,
        fp->depth);
  if (status == CM_OK && fp->layout == GST_CUDA_PLANE_FILTER_LAYOUT_PACKED) {
    status = cm_device_packed_alloc (&fp->dev_packed_in, width, height,
        fp->depth, fp->pixel_channels);
    if (status == CM_OK)
      status = cm_device_packed_alloc (&fp->dev_packed_out, width, height,
          fp->depth, fp->pixel_channels);
  }
  /* the converted frame */
  if (status == CM_OK && fp->convert)
    status = cm_device_packed_alloc (&fp->dev_packed_out, width, height,
        CM_DEPTH_8, fp->out_channels);

  fp->staging_pitch = GST_ROUND_UP_N (fp->row_bytes, ROW_ALIGN);
  fp->staging_out_pitch = GST_ROUND_UP_N (fp->out_row_bytes, ROW_ALIGN);
  if (status == CM_OK)
    status = cm_host_alloc_pinned ((void **) &fp->staging_in,
        fp->staging_pitch * height);
  if (status == CM_OK)
    status = cm_host_alloc_pinned ((void **) &fp->staging_out,
        fp->staging_out_pitch * height);
  /* without it, inputs still in flight are waited for on the host */
  if (status == CM_OK && fp->order_event == NULL &&
      cm_event_new (&fp->order_event) != CM_OK)
    fp->order_event = NULL;
  /* without them, no device time in the statistics */
  if (status == CM_OK && fp->time_start == NULL &&
      (cm_event_new_timed (&fp->time_start) != CM_OK ||
          cm_event_new_timed (&fp->time_end) != CM_OK)) {
    g_clear_pointer (&fp->time_start, cm_event_free);
    g_clear_pointer (&fp->time_end, cm_event_free);
  }
  fp->time_pending = FALSE;

  return status;
}

/* ---- data path ---------------------------------------------------------- */

/* TRUE when the current RGB(A) frame goes whole to process_packed () */
static gboolean
use_packed (GstCudaPlaneFilterFramePath * fp, cm_filter * filter)
{
  return fp->layout == GST_CUDA_PLANE_FILTER_LAYOUT_PACKED &&
      cm_filter_has_packed (filter);
}

/* A packed view of plane 0 as the plane it is (planar layouts) */
cm_image
gst_cuda_plane_filter_frame_as_plane (const cm_image_packed * v)
{
  cm_image img = { v->data, v->pitch, v->width, v->height, v->depth };

  return img;
}

/* The scratch image @img as one of @src's size */
static cm_image
scratch_like (const cm_image * img, const cm_image_packed * src)
{
  cm_image v = *img;

  v.width = src->width;
  v.height = src->height;
  return v;
}

/* A channel of @src into the plane @dst, or back (@insert), on the
 * device (queued on @stream) or the host */
static cm_status
channel_move (const cm_image_packed * packed, gint ch, const cm_image * plane,
    gboolean insert, gboolean device, cm_stream stream)
{
  if (device)
    return insert ? cm_insert_channel_cuda (plane, ch, packed, stream) :
        cm_extract_channel_cuda (packed, ch, plane, stream);
  return insert ? cm_insert_channel_ref (plane, ch, packed) :
      cm_extract_channel_ref (packed, ch, plane);
}

/* The filter over @src (plane 0 of a frame or a rectangle) into the same
 * place of @dst: the plane, the whole packed frame, or each colour channel
 * through the scratch planes with alpha copied; @device: device images,
 * queued on fp->stream, else the CPU. */
cm_status
gst_cuda_plane_filter_frame_filter (GstCudaPlaneFilterFramePath * fp,
    cm_filter * filter, const cm_image_packed * src,
    const cm_image_packed * dst, gboolean device)
{
  cm_stream stream = device ? fp->stream : NULL;
  cm_image in = scratch_like (device ? &fp->dev_in : &fp->host_in, src);
  cm_image out = scratch_like (device ? &fp->dev_out : &fp->host_out, src);
  gsize row_bytes = (gsize) src->width * fp->pixel_channels *
      cm_depth_bytes (fp->depth);
  cm_status status = CM_OK;
  gint c;

  if (fp->layout == GST_CUDA_PLANE_FILTER_LAYOUT_PLANAR) {
    cm_image s = gst_cuda_plane_filter_frame_as_plane (src);
    cm_image d = gst_cuda_plane_filter_frame_as_plane (dst);

    return cm_filter_run (filter, &s, &d, stream);
  }
  /* the filter takes the whole frame */
  if (use_packed (fp, filter))
    return cm_filter_run_packed (filter, src, dst, stream);

  /* alpha / padding byte */
  if (device)
    status = cm_copy_2d_async (dst->data, dst->pitch, src->data, src->pitch,
        row_bytes, src->height, CM_COPY_D2D, stream);
  else
    gst_cuda_plane_filter_frame_copy_rows (dst->data, dst->pitch, src->data,
        src->pitch, row_bytes, src->height);
  for (c = 0; status == CM_OK && c < fp->n_colour; c++) {
    gint ch = fp->colour_channel[c];

    status = channel_move (src, ch, &in, FALSE, device, stream);
    if (status == CM_OK)
      status = cm_filter_run (filter, &in, &out, stream);
    if (status == CM_OK)
      status = channel_move (dst, ch, &out, TRUE, device, stream);
  }
  return status;
}

/* Chroma plane @p copied, or as the subclass wants it (filtered or
 * neutral: gstcudaplanefilterchroma.c) */
static cm_status
chroma_plane (GstCudaPlaneFilterFramePath * fp,
    cm_filter * const *chroma_filters, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, guint p)
{
  if (fp->chroma == GST_CUDA_PLANE_FILTER_CHROMA_COPY)
    return gst_cuda_plane_filter_frame_copy_plane (fp, in, out, p);
  return gst_cuda_plane_filter_frame_chroma_plane (fp, chroma_filters, in,
      out, p);
}

static cm_status
process_cpu (GstCudaPlaneFilterFramePath * fp, cm_filter * filter,
    cm_filter * const *chroma_filters, GstCudaPlaneFilterMappedFrame * inf,
    GstCudaPlaneFilterMappedFrame * outf)
{
  GstVideoFrame *in = &inf->frame, *out = &outf->frame;
  gint width = GST_VIDEO_INFO_WIDTH (&fp->info);
  gint height = GST_VIDEO_INFO_HEIGHT (&fp->info);
  cm_image_packed src, dst;
  cm_status status;
  guint p;

  if (fp->convert) {
    cm_image s = plane_view (in, 0, width, height, fp->depth);

    dst = packed_view (out, width, height, CM_DEPTH_8, fp->out_channels);
    return cm_filter_run_to_packed (filter, &s, &dst, NULL);
  }

  src = packed_view (in, width, height, fp->depth, fp->pixel_channels);
  dst = packed_view (out, width, height, fp->depth, fp->pixel_channels);
  status = gst_cuda_plane_filter_frame_filter (fp, filter, &src, &dst, FALSE);
  /* chroma */
  for (p = 1; status == CM_OK && p <= fp->n_chroma; p++)
    status = chroma_plane (fp, chroma_filters, inf, outf, p);
  return status;
}

/* Plane 0 of a host frame -> the device image at @dev_data, queued on the
 * stream: straight from the buffer when it is pinned, otherwise through
 * the pinned staging copy (an asynchronous copy from pageable memory would
 * be staged by the driver anyway, and slower). */
static cm_status
upload (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * in,
    void *dev_data, gsize dev_pitch, GstCudaPlaneFilterFrameStats * st)
{
  gint height = GST_VIDEO_INFO_HEIGHT (&fp->info);

  if (in->pinned) {
    st->pinned_uploads++;
    return cm_copy_2d_async (dev_data, dev_pitch,
        GST_VIDEO_FRAME_PLANE_DATA (&in->frame, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&in->frame, 0), fp->row_bytes,
        height, CM_COPY_H2D, fp->stream);
  }
  st->staged_uploads++;
  gst_cuda_plane_filter_frame_copy_rows (fp->staging_in, fp->staging_pitch,
      GST_VIDEO_FRAME_PLANE_DATA (&in->frame, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&in->frame, 0), fp->row_bytes, height);
  return cm_copy_2d_async (dev_data, dev_pitch, fp->staging_in,
      fp->staging_pitch, fp->row_bytes, height, CM_COPY_H2D,
      fp->stream);
}

/* The device image at @dev_data -> plane 0 of a host frame, queued:
 * straight into the buffer when it is pinned (our pool), otherwise into
 * the pinned staging, copied out by finish_download () after the
 * stream was synchronised. */
static cm_status
download (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * out,
    const void *dev_data, gsize dev_pitch, GstCudaPlaneFilterFrameStats * st)
{
  gint height = GST_VIDEO_INFO_HEIGHT (&fp->info);

  if (out->pinned) {
    st->pinned_downloads++;
    return cm_copy_2d_async (GST_VIDEO_FRAME_PLANE_DATA (&out->frame, 0),
        GST_VIDEO_FRAME_PLANE_STRIDE (&out->frame, 0), dev_data, dev_pitch,
        fp->out_row_bytes, height, CM_COPY_D2H, fp->stream);
  }
  st->staged_downloads++;
  fp->download_staged = TRUE;
  return cm_copy_2d_async (fp->staging_out, fp->staging_out_pitch,
      dev_data, dev_pitch, fp->out_row_bytes, height, CM_COPY_D2H,
      fp->stream);
}

static void
finish_download (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * out)
{
  if (!fp->download_staged)
    return;
  gst_cuda_plane_filter_frame_copy_rows (GST_VIDEO_FRAME_PLANE_DATA (&out->frame, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&out->frame, 0), fp->staging_out,
      fp->staging_out_pitch, fp->out_row_bytes,
      GST_VIDEO_INFO_HEIGHT (&fp->info));
}

/* Copies plane @p (chroma) unchanged: on the host between host frames
 * (while the device works), otherwise queued on the stream in whichever
 * direction the memories need. */
cm_status
gst_cuda_plane_filter_frame_copy_plane (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterMappedFrame * out,
    guint p)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  cm_copy_kind kind;
  gsize row_bytes;

  if (!in->device && !out->device)
    return gst_video_frame_copy_plane (&out->frame, &in->frame, p) ? CM_OK :
        CM_ERR_INVALID_ARG;

  /* the extent of the destination, as gst_video_frame_copy_plane () takes
   * on the host: an input GstVideoMeta may describe a larger frame than
   * the caps, the output never does */
  gst_video_format_info_component (out->frame.info.finfo, p, comp);
  if (comp[0] < 0)
    return CM_ERR_INVALID_ARG;
  row_bytes = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (&out->frame, comp[0]) *
      GST_VIDEO_FRAME_COMP_PSTRIDE (&out->frame, comp[0]);
  if (in->device)
    kind = out->device ? CM_COPY_D2D : CM_COPY_D2H;
  else
    kind = CM_COPY_H2D;
  return cm_copy_2d_async (GST_VIDEO_FRAME_PLANE_DATA (&out->frame, p),
      GST_VIDEO_FRAME_PLANE_STRIDE (&out->frame, p),
      GST_VIDEO_FRAME_PLANE_DATA (&in->frame, p),
      GST_VIDEO_FRAME_PLANE_STRIDE (&in->frame, p), row_bytes,
      GST_VIDEO_FRAME_COMP_HEIGHT (&out->frame, comp[0]), kind, fp->stream);
}

/* The processed plane of the input on the device: the frame's own plane
 * in CUDA memory, otherwise uploaded into dev_in. */
static cm_status
input_plane (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * in, cm_image * src,
    GstCudaPlaneFilterFrameStats * st)
{
  if (in->device) {
    *src = plane_view (&in->frame, 0, GST_VIDEO_INFO_WIDTH (&fp->info),
        GST_VIDEO_INFO_HEIGHT (&fp->info), fp->depth);
    st->device_in++;
    return CM_OK;
  }
  *src = fp->dev_in;
  return upload (fp, in, fp->dev_in.data, fp->dev_in.pitch, st);
}

/* The device scratch of plane 0 (input's or output's) as a @width x
 * @height image: host frames go through it, regions are gathered in it. */
cm_image_packed
gst_cuda_plane_filter_frame_scratch (GstCudaPlaneFilterFramePath * fp,
    gboolean input, gint width, gint height)
{
  cm_image_packed v;

  if (fp->layout == GST_CUDA_PLANE_FILTER_LAYOUT_PACKED) {
    v = input ? fp->dev_packed_in : fp->dev_packed_out;
  } else {
    const cm_image *img = input ? &fp->dev_in : &fp->dev_out;

    v.data = img->data;
    v.pitch = img->pitch;
    v.depth = img->depth;
    v.channels = 1;
  }
  v.width = width;
  v.height = height;
  return v;
}

/* Plane 0 of the input on the device, packed or not: the frame's own in
 * CUDA memory, otherwise uploaded into the scratch. */
static cm_status
input_view (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * in, cm_image_packed * src,
    GstCudaPlaneFilterFrameStats * st)
{
  gint width = GST_VIDEO_INFO_WIDTH (&fp->info);
  gint height = GST_VIDEO_INFO_HEIGHT (&fp->info);

  if (in->device) {
    *src = packed_view (&in->frame, width, height, fp->depth,
        fp->pixel_channels);
    st->device_in++;
    return CM_OK;
  }
  *src = gst_cuda_plane_filter_frame_scratch (fp, TRUE, width, height);
  return upload (fp, in, src->data, src->pitch, st);
}

/* Device time, sampled: the frame measured last is read once done (never
 * waited for), and one frame in GST_CUDA_PLANE_FILTER_TIMED_EVERY starts a
 * measurement. Returns TRUE when this frame is measured. */
gboolean
gst_cuda_plane_filter_frame_timing_begin (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterFrameStats * st)
{
  double us = 0;
  int done = 0;

  if (fp->time_start == NULL)
    return FALSE;
  if (fp->time_pending) {
    if (cm_event_elapsed_us (fp->time_start, fp->time_end, &us, &done) !=
        CM_OK) {
      fp->time_pending = FALSE;
    } else if (done) {
      st->timed_frames++;
      st->device_ns += (guint64) (us * 1000.0);
      fp->time_pending = FALSE;
    }
  }
  if (fp->time_pending || fp->time_counter++ %
      GST_CUDA_PLANE_FILTER_TIMED_EVERY != 0)
    return FALSE;
  return cm_event_record (fp->time_start, fp->stream) == CM_OK;
}

void
gst_cuda_plane_filter_frame_timing_end (GstCudaPlaneFilterFramePath * fp,
    gboolean timed)
{
  if (timed && cm_event_record (fp->time_end, fp->stream) == CM_OK)
    fp->time_pending = TRUE;
}

static cm_status
process_cuda (GstCudaPlaneFilterFramePath * fp, cm_filter * filter,
    cm_filter * const *chroma_filters, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, GstCudaPlaneFilterFrameStats * st,
    cm_event defer)
{
  gint width = GST_VIDEO_INFO_WIDTH (&fp->info);
  gint height = GST_VIDEO_INFO_HEIGHT (&fp->info);
  cm_status status;
  gboolean timed, synced;
  guint p;

  fp->download_staged = FALSE;
  if (out->device)
    st->device_out++;
  timed = gst_cuda_plane_filter_frame_timing_begin (fp, st);

  if (fp->convert) {
    cm_image src;
    cm_image_packed dst = out->device ? packed_view (&out->frame, width,
        height, CM_DEPTH_8, fp->out_channels) : fp->dev_packed_out;

    status = input_plane (fp, in, &src, st);
    if (status == CM_OK)
      status = cm_filter_run_to_packed (filter, &src, &dst, fp->stream);
    if (status == CM_OK && !out->device)
      status = download (fp, out, dst.data, dst.pitch, st);
  } else {
    cm_image_packed src;
    cm_image_packed dst = out->device ? packed_view (&out->frame, width,
        height, fp->depth, fp->pixel_channels) :
        gst_cuda_plane_filter_frame_scratch (fp, FALSE, width, height);

    status = input_view (fp, in, &src, st);
    if (status == CM_OK)
      status = gst_cuda_plane_filter_frame_filter (fp, filter, &src, &dst,
          TRUE);
    if (status == CM_OK && !out->device)
      status = download (fp, out, dst.data, dst.pitch, st);
    /* chroma: on the host while the device works, or queued */
    for (p = 1; status == CM_OK && p <= fp->n_chroma; p++)
      status = chroma_plane (fp, chroma_filters, in, out, p);
  }

  gst_cuda_plane_filter_frame_timing_end (fp, timed && status == CM_OK);

  /* overlap: the frame's end is an event, waited for before the buffer
   * is pushed (the frames use no staging memory) */
  if (defer != NULL && status == CM_OK) {
    status = cm_event_record (defer, fp->stream);
    if (status == CM_OK)
      return CM_OK;
  }

  status = gst_cuda_plane_filter_frame_end (fp, status, in, out, st,
      &synced);
  if (status == CM_OK && synced) {
    finish_download (fp, out);
    gst_cuda_plane_filter_frame_chroma_finish (fp, out);
  }
  return status;
}

/* The mapped @in filtered into @out (YUV chroma as fp->chroma says, by
 * @chroma_filters[plane]): on the CPU, or queued with the planes moved as
 * their memories need. @defer: an event recorded instead
 * of the synchronisation (overlap, no staging); NULL: synchronised. */
cm_status
gst_cuda_plane_filter_frame_path_process (GstCudaPlaneFilterFramePath * fp,
    cm_filter * filter, cm_filter * const *chroma_filters,
    GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterMappedFrame * out,
    GstCudaPlaneFilterFrameStats * st, cm_event defer)
{
  if (fp->backend == CM_BACKEND_CUDA)
    return process_cuda (fp, filter, chroma_filters, in, out, st, defer);
  return process_cpu (fp, filter, chroma_filters, in, out);
}

/* Analysis only (GRAY, YUV): plane 0 of @in to the filter with no
 * destination (uploaded unless on the device); synchronised on CUDA. */
cm_status
gst_cuda_plane_filter_frame_path_analyse (GstCudaPlaneFilterFramePath * fp,
    cm_filter * filter, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterFrameStats * st)
{
  cm_status status, sync_status;
  gboolean timed;
  cm_image src;

  if (fp->layout != GST_CUDA_PLANE_FILTER_LAYOUT_PLANAR || fp->convert)
    return CM_ERR_UNSUPPORTED;

  if (fp->backend != CM_BACKEND_CUDA) {
    src = plane_view (&in->frame, 0, GST_VIDEO_INFO_WIDTH (&fp->info),
        GST_VIDEO_INFO_HEIGHT (&fp->info), fp->depth);
    return cm_filter_run (filter, &src, NULL, NULL);
  }

  timed = gst_cuda_plane_filter_frame_timing_begin (fp, st);
  status = input_plane (fp, in, &src, st);
  if (status == CM_OK)
    status = cm_filter_run (filter, &src, NULL, fp->stream);
  gst_cuda_plane_filter_frame_timing_end (fp, timed && status == CM_OK);
  /* the one synchronisation of the frame, also after a failure so that no
   * queued copy still uses the staging memory */
  sync_status = cm_stream_sync (fp->stream);
  return status == CM_OK ? sync_status : status;
}
