/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The frame path over regions of interest (gstcudaplanefilterframe.h): the
 * frame is copied, then each rectangle of plane 0 is filtered as if it
 * were the frame. The filter reads and writes the rectangles of frames in
 * CUDA memory where they lie; a rectangle of a host frame is uploaded
 * into the aligned scratch, filtered there and downloaded, so that the
 * filter's work and the transfers scale with the rectangle's area. The
 * copy of the frame is one memcpy or one 2D copy per plane. Frames in
 * CUDA memory are left in flight where GStreamer's memory carries a
 * stream, as whole frames are. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaplanefilterframe.h"
#include "gstcudaplanefilterframeprivate.h"

/* bytes of one pixel of plane 0 */
static gsize
pixel_bytes (const GstCudaPlaneFilterFramePath * fp)
{
  return (gsize) fp->pixel_channels * cm_depth_bytes (fp->depth);
}

/* The rectangle @r of plane 0 of @frame */
static cm_image_packed
frame_rect (const GstCudaPlaneFilterFramePath * fp, GstVideoFrame * frame,
    const GstVideoRectangle * r)
{
  cm_image_packed v;

  v.pitch = (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  v.data = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame, 0) +
      (gsize) r->y * v.pitch + (gsize) r->x * pixel_bytes (fp);
  v.width = r->w;
  v.height = r->h;
  v.depth = fp->depth;
  v.channels = fp->pixel_channels;
  return v;
}

/* Where @r lies in a pinned staging plane of @pitch */
static guint8 *
staging_rect (const GstCudaPlaneFilterFramePath * fp, guint8 * staging,
    gsize pitch, const GstVideoRectangle * r)
{
  return staging + (gsize) r->y * pitch + (gsize) r->x * pixel_bytes (fp);
}

/* The rectangle @r between a mapped frame and the device scratch @dev
 * (queued): the input's into the scratch (@out FALSE), or the scratch
 * into the output's. Frames in CUDA memory or pinned buffers are copied
 * directly; others go through the staging plane at the rectangle's own
 * place (rectangles of one frame do not meet there), the output's copied
 * out by finish_staged () once the stream is done. */
static cm_status
transfer (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * mf,
    const GstVideoRectangle * r, const cm_image_packed * dev, gboolean out,
    GstCudaPlaneFilterFrameStats * st)
{
  cm_image_packed host = frame_rect (fp, &mf->frame, r);
  gsize row = (gsize) r->w * pixel_bytes (fp);
  gsize pitch = out ? fp->staging_out_pitch : fp->staging_pitch;
  guint8 *staged;

  if (mf->device || mf->pinned) {
    if (!mf->device && out)
      st->pinned_downloads++;
    else if (!mf->device)
      st->pinned_uploads++;
    return out ? cm_copy_2d_async (host.data, host.pitch, dev->data,
        dev->pitch, row, r->h, mf->device ? CM_COPY_D2D : CM_COPY_D2H,
        fp->stream) : cm_copy_2d_async (dev->data, dev->pitch, host.data,
        host.pitch, row, r->h, mf->device ? CM_COPY_D2D : CM_COPY_H2D,
        fp->stream);
  }
  staged = staging_rect (fp, out ? fp->staging_out : fp->staging_in, pitch,
      r);
  if (out) {
    st->staged_downloads++;
    fp->download_staged = TRUE;
    return cm_copy_2d_async (staged, pitch, dev->data, dev->pitch, row, r->h,
        CM_COPY_D2H, fp->stream);
  }
  st->staged_uploads++;
  gst_cuda_plane_filter_frame_copy_rows (staged, pitch, host.data, host.pitch,
      row, r->h);
  return cm_copy_2d_async (dev->data, dev->pitch, staged, pitch, row, r->h,
      CM_COPY_H2D, fp->stream);
}

/* After the stream was synchronised: the staged rectangles into the
 * output, in order (a later one wins where they overlap) */
static void
finish_staged (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * out, const GstVideoRectangle * rects,
    guint n)
{
  guint i;

  if (!fp->download_staged)
    return;
  for (i = 0; i < n; i++) {
    cm_image_packed dst = frame_rect (fp, &out->frame, &rects[i]);

    gst_cuda_plane_filter_frame_copy_rows (dst.data, dst.pitch,
        staging_rect (fp, fp->staging_out, fp->staging_out_pitch, &rects[i]),
        fp->staging_out_pitch, (gsize) rects[i].w * pixel_bytes (fp),
        rects[i].h);
  }
}

/* Every plane of @in into @out unchanged (queued on CUDA) */
static cm_status
copy_frame (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out)
{
  cm_status status = CM_OK;
  guint p;

  if (!in->device && !out->device)
    return gst_video_frame_copy (&out->frame, &in->frame) ? CM_OK :
        CM_ERR_INVALID_ARG;
  for (p = 0; status == CM_OK && p < GST_VIDEO_FRAME_N_PLANES (&in->frame);
      p++)
    status = gst_cuda_plane_filter_frame_copy_plane (fp, in, out, p);
  return status;
}

/* One rectangle before its filter: read and written where it lies on the
 * device (not read so in place: the filter would read what it overwrote),
 * otherwise through the device scratch; on the CPU in the mapped frames. */
cm_status
gst_cuda_plane_filter_frame_path_rect_begin (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterMappedFrame * out,
    const GstVideoRectangle * r, GstCudaPlaneFilterFrameStats * st,
    GstCudaPlaneFilterViews * v)
{
  gst_cuda_plane_filter_frame_views_init (fp, v);
  if (!v->device) {
    v->src = frame_rect (fp, &in->frame, r);
    v->dst = frame_rect (fp, &out->frame, r);
    return CM_OK;
  }
  v->dst = out->device ? frame_rect (fp, &out->frame, r) :
      gst_cuda_plane_filter_frame_scratch (fp, FALSE, r->w, r->h);
  if (in->device && in != out) {
    v->src = frame_rect (fp, &in->frame, r);
    return CM_OK;
  }
  v->src = gst_cuda_plane_filter_frame_scratch (fp, TRUE, r->w, r->h);
  return transfer (fp, in, r, &v->src, FALSE, st);
}

/* After the rectangle's filter: the scratch into the output's rectangle
 * where the output is not on the device. */
cm_status
gst_cuda_plane_filter_frame_path_rect_end (GstCudaPlaneFilterFramePath * fp,
    cm_status status, GstCudaPlaneFilterMappedFrame * out,
    const GstVideoRectangle * r, const GstCudaPlaneFilterViews * v,
    GstCudaPlaneFilterFrameStats * st)
{
  if (status == CM_OK && v->device && !out->device)
    status = transfer (fp, out, r, &v->dst, TRUE, st);
  return status;
}

/* @in copied into @out (unless in place) before the rectangles; chroma
 * copied. Not for converting outputs. */
cm_status
gst_cuda_plane_filter_frame_path_regions_begin (GstCudaPlaneFilterFramePath *
    fp, GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterMappedFrame * out,
    GstCudaPlaneFilterFrameStats * st)
{
  if (fp->convert)
    return CM_ERR_UNSUPPORTED;
  fp->download_staged = FALSE;
  fp->regions_timed = FALSE;
  if (fp->backend == CM_BACKEND_CUDA) {
    st->device_in += in->device;
    st->device_out += out->device;
    fp->regions_timed = gst_cuda_plane_filter_frame_timing_begin (fp, st);
  }
  return in == out ? CM_OK : copy_frame (fp, in, out);
}

/* Synchronised on CUDA (after a failure too), unless both frames are CUDA
 * memory with a stream (>= 1.24): left in flight like a whole frame. */
cm_status
gst_cuda_plane_filter_frame_path_regions_end (GstCudaPlaneFilterFramePath * fp,
    cm_status status, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, const GstVideoRectangle * rects,
    guint n, GstCudaPlaneFilterFrameStats * st)
{
  gboolean synced;

  if (fp->backend != CM_BACKEND_CUDA)
    return status;
  gst_cuda_plane_filter_frame_timing_end (fp, fp->regions_timed &&
      status == CM_OK);
  status = gst_cuda_plane_filter_frame_end (fp, status, in, out, st,
      &synced);
  if (status == CM_OK && synced)
    finish_staged (fp, out, rects, n);
  return status;
}

/**
 * gst_cuda_plane_filter_frame_path_copy:
 *
 * The mapped @in into @out unchanged; on CUDA the stream is synchronised.
 */
cm_status
gst_cuda_plane_filter_frame_path_copy (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterMappedFrame * out)
{
  cm_status status = copy_frame (fp, in, out), sync_status;

  if (fp->backend != CM_BACKEND_CUDA || (!in->device && !out->device))
    return status;
  sync_status = cm_stream_sync (fp->stream);
  return status == CM_OK ? sync_status : status;
}

/* analyse_begin of the rectangle @r as if it were the frame (read where
 * it lies on the device, else uploaded); analyse_end after the filter. */
cm_status
gst_cuda_plane_filter_frame_path_analyse_rect_begin
    (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * in,
    const GstVideoRectangle * r, GstCudaPlaneFilterFrameStats * st,
    GstCudaPlaneFilterViews * v)
{
  gst_cuda_plane_filter_frame_views_init (fp, v);
  /* analysis only for GRAY and YUV, and nothing to end otherwise */
  v->active = fp->layout == GST_CUDA_PLANE_FILTER_LAYOUT_PLANAR &&
      !fp->convert;
  if (!v->active)
    return CM_ERR_UNSUPPORTED;
  v->src = frame_rect (fp, &in->frame, r);
  if (!v->device)
    return CM_OK;
  st->device_in += in->device;
  v->timed = gst_cuda_plane_filter_frame_timing_begin (fp, st);
  if (in->device)
    return CM_OK;               /* analysed where it lies */
  v->src = gst_cuda_plane_filter_frame_scratch (fp, TRUE, r->w, r->h);
  return transfer (fp, in, r, &v->src, FALSE, st);
}
