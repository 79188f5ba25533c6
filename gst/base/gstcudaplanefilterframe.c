/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The frame path (gstcudaplanefilterframe.h): per-caps buffers, upload and
 * download through pinned staging, the channel split of packed RGB(A)
 * frames, chroma and alpha copies; the filter runs between begin and end,
 * called by the base class. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudaplanefilterframe.h"
#include "gstcudaplanefilterdebug.h"
#include "gstcudaplanefilterframeprivate.h"

#include "planes.h"


GST_DEBUG_CATEGORY (gst_cuda_plane_filter_frame_debug);
#define GST_CAT_DEFAULT gst_cuda_plane_filter_frame_debug

#define ROW_ALIGN GST_CUDA_PLANE_FILTER_ROW_ALIGN

static void
debug_ensure (void)
{
  GST_CUDA_PLANE_FILTER_DEBUG_INIT_ONCE (gst_cuda_plane_filter_frame_debug,
      "cudaplanefilterframe", "CUDA plane filter frame path");
}

/* the depth of the planes filtered for @info */
static cm_depth
gst_cuda_plane_filter_frame_info_depth (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? CM_DEPTH_16 : CM_DEPTH_8;
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
    /* one packed plane (checked in set_caps), of its own depth */
    fp->out_depth = gst_cuda_plane_filter_frame_info_depth (out_info);
    fp->out_channels = GST_VIDEO_INFO_COMP_PSTRIDE (out_info, 0) /
        cm_depth_bytes (fp->out_depth);
    fp->out_row_bytes = (gsize) GST_VIDEO_INFO_COMP_PSTRIDE (out_info, 0) *
        width;
  } else {
    fp->out_depth = fp->depth;
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
        fp->out_depth, fp->out_channels);

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

/* Packed RGB(A) views filtered channel by channel: alpha (or padding)
 * copied from the input first. */
cm_status
gst_cuda_plane_filter_frame_path_copy_alpha (GstCudaPlaneFilterFramePath * fp,
    const GstCudaPlaneFilterViews * v)
{
  gsize row_bytes = (gsize) v->src.width * fp->pixel_channels *
      cm_depth_bytes (fp->depth);

  if (v->device)
    return cm_copy_2d_async (v->dst.data, v->dst.pitch, v->src.data,
        v->src.pitch, row_bytes, v->src.height, CM_COPY_D2D, v->stream);
  gst_cuda_plane_filter_frame_copy_rows (v->dst.data, v->dst.pitch,
      v->src.data, v->src.pitch, row_bytes, v->src.height);
  return CM_OK;
}

/* Colour channel @c of the views' input extracted into the scratch plane
 * *@in; *@out: the scratch plane the filter writes for channel_out. */
cm_status
gst_cuda_plane_filter_frame_path_channel_in (GstCudaPlaneFilterFramePath * fp,
    const GstCudaPlaneFilterViews * v, gint c, cm_image * in, cm_image * out)
{
  *in = scratch_like (v->device ? &fp->dev_in : &fp->host_in, &v->src);
  *out = scratch_like (v->device ? &fp->dev_out : &fp->host_out, &v->src);
  return channel_move (&v->src, fp->colour_channel[c], in, FALSE, v->device,
      v->stream);
}

/* The filtered scratch plane @out into colour channel @c of the output */
cm_status
gst_cuda_plane_filter_frame_path_channel_out (GstCudaPlaneFilterFramePath *
    fp, const GstCudaPlaneFilterViews * v, gint c, const cm_image * out)
{
  return channel_move (&v->dst, fp->colour_channel[c], out, TRUE, v->device,
      v->stream);
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

/* Views on the path's backend and stream, nothing measured yet */
void
gst_cuda_plane_filter_frame_views_init (const GstCudaPlaneFilterFramePath *
    fp, GstCudaPlaneFilterViews * v)
{
  v->device = fp->backend == CM_BACKEND_CUDA;
  v->stream = v->device ? fp->stream : NULL;
  v->timed = FALSE;
  v->active = TRUE;
}

/* views_init for an analysis: FALSE (and nothing to end) but for GRAY and
 * YUV */
gboolean
gst_cuda_plane_filter_frame_analysis_views_init (const
    GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterViews * v)
{
  gst_cuda_plane_filter_frame_views_init (fp, v);
  v->active = fp->layout == GST_CUDA_PLANE_FILTER_LAYOUT_PLANAR &&
      !fp->convert;
  return v->active;
}

/* Before the filter: where it reads and writes plane 0 of @in and @out.
 * CUDA: the input read in place or uploaded, the output written in place
 * or into the scratch, the frame's device time begun; CPU: the mapped
 * frames. */
cm_status
gst_cuda_plane_filter_frame_path_begin (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterMappedFrame * out,
    GstCudaPlaneFilterFrameStats * st, GstCudaPlaneFilterViews * v)
{
  gint width = GST_VIDEO_INFO_WIDTH (&fp->info);
  gint height = GST_VIDEO_INFO_HEIGHT (&fp->info);

  gst_cuda_plane_filter_frame_views_init (fp, v);
  if (!v->device) {
    v->src = packed_view (&in->frame, width, height, fp->depth,
        fp->pixel_channels);
    v->dst = fp->convert ? packed_view (&out->frame, width, height,
        fp->out_depth, fp->out_channels) : packed_view (&out->frame, width,
        height, fp->depth, fp->pixel_channels);
    return CM_OK;
  }

  fp->download_staged = FALSE;
  if (out->device)
    st->device_out++;
  v->timed = gst_cuda_plane_filter_frame_timing_begin (fp, st);
  if (fp->convert)
    v->dst = out->device ? packed_view (&out->frame, width, height,
        fp->out_depth, fp->out_channels) : fp->dev_packed_out;
  else
    v->dst = out->device ? packed_view (&out->frame, width, height,
        fp->depth, fp->pixel_channels) :
        gst_cuda_plane_filter_frame_scratch (fp, FALSE, width, height);
  return input_view (fp, in, &v->src, st);
}

/* Chroma plane @p as the subclass wants it: copied, made neutral, or left
 * as its filter wrote it (run between begin and end: chroma_begin) */
static cm_status
chroma_plane (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterMappedFrame * out,
    guint p)
{
  switch (fp->chroma) {
    case GST_CUDA_PLANE_FILTER_CHROMA_FILTER:
      return CM_OK;
    case GST_CUDA_PLANE_FILTER_CHROMA_NEUTRAL:
      return gst_cuda_plane_filter_frame_chroma_neutral (fp, out, p);
    default:
      return gst_cuda_plane_filter_frame_copy_plane (fp, in, out, p);
  }
}

/* After the filter (@status: the frame's so far): chroma copied; on CUDA
 * the output downloaded unless written in place, then the frame's end:
 * @defer recorded instead of the synchronisation (overlap: frames without
 * staging), else left in flight or synchronised. */
cm_status
gst_cuda_plane_filter_frame_path_end (GstCudaPlaneFilterFramePath * fp,
    cm_status status, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, const GstCudaPlaneFilterViews * v,
    GstCudaPlaneFilterFrameStats * st, cm_event defer)
{
  gboolean chroma = !fp->convert &&
      fp->layout == GST_CUDA_PLANE_FILTER_LAYOUT_PLANAR;
  gboolean synced;
  guint p;

  if (!v->device) {
    for (p = 1; status == CM_OK && chroma && p <= fp->n_chroma; p++)
      status = chroma_plane (fp, in, out, p);
    return status;
  }

  if (status == CM_OK && !out->device)
    status = download (fp, out, v->dst.data, v->dst.pitch, st);
  /* chroma: on the host while the device works, or queued */
  for (p = 1; status == CM_OK && chroma && p <= fp->n_chroma; p++)
    status = chroma_plane (fp, in, out, p);

  gst_cuda_plane_filter_frame_timing_end (fp, v->timed && status == CM_OK);

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

/* Analysis only (GRAY, YUV): plane 0 of @in where the filter reads it
 * (uploaded unless on the device); analyse_end after the filter. */
cm_status
gst_cuda_plane_filter_frame_path_analyse_begin (GstCudaPlaneFilterFramePath *
    fp, GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterFrameStats * st,
    GstCudaPlaneFilterViews * v)
{
  if (!gst_cuda_plane_filter_frame_analysis_views_init (fp, v))
    return CM_ERR_UNSUPPORTED;
  if (!v->device) {
    v->src = packed_view (&in->frame, GST_VIDEO_INFO_WIDTH (&fp->info),
        GST_VIDEO_INFO_HEIGHT (&fp->info), fp->depth, 1);
    return CM_OK;
  }
  v->timed = gst_cuda_plane_filter_frame_timing_begin (fp, st);
  return input_view (fp, in, &v->src, st);
}

/* The end of an analysis (a frame's or a region's): on CUDA the one
 * synchronisation, also after a failure (no queued copy may still use the
 * staging memory), or with @defer (overlap: a frame whose results can
 * wait) that event recorded instead once the work is queued. */
cm_status
gst_cuda_plane_filter_frame_path_analyse_end (GstCudaPlaneFilterFramePath *
    fp, cm_status status, const GstCudaPlaneFilterViews * v, cm_event defer)
{
  cm_status sync_status;

  if (!v->active || !v->device)
    return status;
  gst_cuda_plane_filter_frame_timing_end (fp, v->timed && status == CM_OK);
  if (defer != NULL && status == CM_OK) {
    status = cm_event_record (defer, fp->stream);
    if (status == CM_OK)
      return CM_OK;
  }
  sync_status = cm_stream_sync (fp->stream);
  return status == CM_OK ? sync_status : status;
}
