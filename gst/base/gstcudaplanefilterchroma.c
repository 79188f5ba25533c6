/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The chroma planes of YUV frames that an element filters (each plane by
 * a filter of its own) or makes neutral instead of copying them
 * (GstCudaPlaneFilterChroma): their geometry, device scratch and pinned
 * staging per caps, where a plane's filter reads and writes (uploaded and
 * downloaded as the memories need, queued on the path's stream), and the
 * neutral fill. A leaf: it calls nothing of the frame path's files. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudaplanefilterframe.h"
#include "gstcudaplanefilterframeprivate.h"

#include "cm-sample.h"

#define ROW_ALIGN GST_CUDA_PLANE_FILTER_ROW_ALIGN

/* (a leaf: nothing of the frame path's other files is called here) */
static void
copy_rows (guint8 * dst, gsize dst_pitch, const guint8 * src,
    gsize src_pitch, gsize row_bytes, gint rows)
{
  gint y;

  for (y = 0; y < rows; y++)
    memcpy (dst + y * dst_pitch, src + y * src_pitch, row_bytes);
}

/* no colour: the middle of the range */
static guint32
neutral_value (cm_depth depth)
{
  return (cm_depth_max (depth) + 1) / 2;
}

static void
fill_host (guint8 * data, gsize pitch, gsize row_bytes, gint rows,
    cm_depth depth)
{
  guint32 v = neutral_value (depth);
  gint bpp = cm_depth_bytes (depth);
  gint y, x, n = (gint) (row_bytes / bpp);

  for (y = 0; y < rows; y++) {
    guint8 *row = data + (gsize) y * pitch;

    if (bpp == 1) {
      memset (row, (int) v, row_bytes);
      continue;
    }
    for (x = 0; x < n; x++)
      cm_store_sample (row, x, bpp, v);
  }
}

/**
 * gst_cuda_plane_filter_frame_chroma_configure:
 *
 * The geometry of planes 1.. of planar formats; on the CUDA backend,
 * with fp->chroma_scratch their device scratch and pinned staging, with
 * fp->chroma_neutral the neutral plane (filled here, once).
 */
cm_status
gst_cuda_plane_filter_frame_chroma_configure (GstCudaPlaneFilterFramePath * fp)
{
  const GstVideoInfo *info = &fp->info;
  gint max_width = 0, max_height = 0, max_channels = 1;
  cm_status status = CM_OK;
  guint p;

  fp->n_chroma = 0;
  if (fp->layout != GST_CUDA_PLANE_FILTER_LAYOUT_PLANAR)
    return CM_OK;
  fp->n_chroma = GST_VIDEO_INFO_N_PLANES (info) - 1;
  for (p = 1; p <= fp->n_chroma; p++) {
    GstCudaPlaneFilterChromaPlane *cp = &fp->chroma_planes[p];
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (info->finfo, p, comp);
    cp->width = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]);
    cp->height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    cp->channels = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]) /
        cm_depth_bytes (fp->depth);
    cp->row_bytes = (gsize) cp->width * cp->channels *
        cm_depth_bytes (fp->depth);
    cp->staging_pitch = GST_ROUND_UP_N (cp->row_bytes, ROW_ALIGN);
    cp->staged = FALSE;
    max_width = MAX (max_width, cp->width);
    max_height = MAX (max_height, cp->height);
    max_channels = MAX (max_channels, cp->channels);
  }
  if (fp->backend != CM_BACKEND_CUDA || fp->n_chroma == 0)
    return CM_OK;
  /* (a device output of a NEUTRAL frame copies the neutral plane; filtered
   * frames on the host go through each plane's scratch and staging) */

  for (p = 1; fp->chroma_scratch && status == CM_OK && p <= fp->n_chroma;
      p++) {
    GstCudaPlaneFilterChromaPlane *cp = &fp->chroma_planes[p];
    gsize bytes = cp->staging_pitch * cp->height;

    status = cm_device_packed_alloc (&cp->dev_in, cp->width, cp->height,
        fp->depth, cp->channels);
    if (status == CM_OK)
      status = cm_device_packed_alloc (&cp->dev_out, cp->width, cp->height,
          fp->depth, cp->channels);
    if (status == CM_OK)
      status = cm_host_alloc_pinned ((void **) &cp->staging_in, bytes);
    if (status == CM_OK)
      status = cm_host_alloc_pinned ((void **) &cp->staging_out, bytes);
  }

  /* the neutral plane, filled once from the host */
  if (status != CM_OK || !fp->chroma_neutral)
    return status;
  status = cm_device_packed_alloc (&fp->dev_neutral, max_width, max_height,
      fp->depth, max_channels);
  if (status == CM_OK) {
    gsize row = (gsize) max_width * max_channels * cm_depth_bytes (fp->depth);
    guint8 *host = g_try_malloc (row * max_height);

    if (host == NULL)
      return CM_ERR_NO_MEMORY;
    fill_host (host, row, row, max_height, fp->depth);
    status = cm_copy_2d_async (fp->dev_neutral.data, fp->dev_neutral.pitch,
        host, row, row, max_height, CM_COPY_H2D, fp->stream);
    if (status == CM_OK)
      status = cm_stream_sync (fp->stream);
    g_free (host);
  }
  return status;
}

void
gst_cuda_plane_filter_frame_chroma_clear (GstCudaPlaneFilterFramePath * fp)
{
  guint p;

  for (p = 1; p < GST_VIDEO_MAX_PLANES; p++) {
    GstCudaPlaneFilterChromaPlane *cp = &fp->chroma_planes[p];

    g_clear_pointer (&cp->dev_in.data, cm_device_free);
    g_clear_pointer (&cp->dev_out.data, cm_device_free);
    g_clear_pointer (&cp->staging_in, cm_host_free_pinned);
    g_clear_pointer (&cp->staging_out, cm_host_free_pinned);
    cp->staged = FALSE;
  }
  g_clear_pointer (&fp->dev_neutral.data, cm_device_free);
  fp->n_chroma = 0;
}

static cm_image_packed
plane_of (const GstCudaPlaneFilterChromaPlane * cp, GstVideoFrame * frame,
    guint p, cm_depth depth)
{
  cm_image_packed v;

  v.data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
  v.pitch = (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
  v.width = cp->width;
  v.height = cp->height;
  v.depth = depth;
  v.channels = cp->channels;
  return v;
}

/* Plane @p of a host frame to or from @dev (queued): straight when the
 * buffer is pinned, else through the plane's staging (the output's
 * copied out by chroma_finish () once the stream is done). */
static cm_status
transfer (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * mf,
    guint p, const cm_image_packed * dev, gboolean out)
{
  GstCudaPlaneFilterChromaPlane *cp = &fp->chroma_planes[p];
  cm_image_packed host = plane_of (cp, &mf->frame, p, fp->depth);

  if (mf->pinned)
    return out ? cm_copy_2d_async (host.data, host.pitch, dev->data,
        dev->pitch, cp->row_bytes, cp->height, CM_COPY_D2H, fp->stream) :
        cm_copy_2d_async (dev->data, dev->pitch, host.data, host.pitch,
        cp->row_bytes, cp->height, CM_COPY_H2D, fp->stream);
  if (out) {
    cp->staged = TRUE;
    return cm_copy_2d_async (cp->staging_out, cp->staging_pitch, dev->data,
        dev->pitch, cp->row_bytes, cp->height, CM_COPY_D2H, fp->stream);
  }
  copy_rows (cp->staging_in, cp->staging_pitch, host.data, host.pitch,
      cp->row_bytes, cp->height);
  return cm_copy_2d_async (dev->data, dev->pitch, cp->staging_in,
      cp->staging_pitch, cp->row_bytes, cp->height, CM_COPY_H2D, fp->stream);
}

/**
 * gst_cuda_plane_filter_frame_path_chroma_begin:
 *
 * Where the filter of chroma plane @p reads and writes: the mapped planes
 * on the CPU; on CUDA the input's plane in place or uploaded into the
 * plane's scratch, the output's in place or the scratch.
 */
cm_status
gst_cuda_plane_filter_frame_path_chroma_begin (GstCudaPlaneFilterFramePath *
    fp, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, guint p,
    const GstCudaPlaneFilterViews * frame, GstCudaPlaneFilterViews * v)
{
  GstCudaPlaneFilterChromaPlane *cp = &fp->chroma_planes[p];

  *v = *frame;
  v->timed = FALSE;
  cp->staged = FALSE;
  if (!v->device) {
    v->src = plane_of (cp, &in->frame, p, fp->depth);
    v->dst = plane_of (cp, &out->frame, p, fp->depth);
    return CM_OK;
  }
  /* configured without the scratch: frames on the host cannot come */
  if (!fp->chroma_scratch && (!in->device || !out->device))
    return CM_ERR_INVALID_ARG;
  v->dst = out->device ? plane_of (cp, &out->frame, p, fp->depth) :
      cp->dev_out;
  if (in->device) {
    v->src = plane_of (cp, &in->frame, p, fp->depth);
    return CM_OK;
  }
  v->src = cp->dev_in;
  return transfer (fp, in, p, &v->src, FALSE);
}

/**
 * gst_cuda_plane_filter_frame_path_chroma_end:
 *
 * After the filter of chroma plane @p: on CUDA its result downloaded
 * unless it was written in place.
 */
cm_status
gst_cuda_plane_filter_frame_path_chroma_end (GstCudaPlaneFilterFramePath *
    fp, GstCudaPlaneFilterMappedFrame * out, guint p,
    const GstCudaPlaneFilterViews * v)
{
  if (!v->device || out->device)
    return CM_OK;
  return transfer (fp, out, p, &v->dst, TRUE);
}

/* Plane @p of @out neutral: filled on the host, or copied from the
 * neutral plane on the device (queued) */
cm_status
gst_cuda_plane_filter_frame_chroma_neutral (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * out, guint p)
{
  GstCudaPlaneFilterChromaPlane *cp = &fp->chroma_planes[p];
  cm_image_packed dst = plane_of (cp, &out->frame, p, fp->depth);

  if (!out->device) {
    fill_host (dst.data, dst.pitch, cp->row_bytes, cp->height, fp->depth);
    return CM_OK;
  }
  if (fp->dev_neutral.data == NULL)
    return CM_ERR_INVALID_ARG;
  return cm_copy_2d_async (dst.data, dst.pitch, fp->dev_neutral.data,
      fp->dev_neutral.pitch, cp->row_bytes, cp->height, CM_COPY_D2D,
      fp->stream);
}

/* After the stream's synchronisation: the outputs left in staging. */
void
gst_cuda_plane_filter_frame_chroma_finish (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * out)
{
  guint p;

  for (p = 1; p <= fp->n_chroma; p++) {
    GstCudaPlaneFilterChromaPlane *cp = &fp->chroma_planes[p];

    if (!cp->staged)
      continue;
    copy_rows (GST_VIDEO_FRAME_PLANE_DATA (&out->frame, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&out->frame, p), cp->staging_out,
        cp->staging_pitch, cp->row_bytes, cp->height);
    cp->staged = FALSE;
  }
}
