/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One frame of a cudamorphology element (gstcudaplanefilterprivate.h):
 * its start (caps, the device entered, property changes), the buffers
 * mapped, the whole frame or its regions of interest through the frame
 * path, and its end (statistics, errors, the subclass's results). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaplanefilterprivate.h"
#include "gstcudaplanefilterhelpers.h"

#define GST_CAT_DEFAULT gst_cuda_plane_filter_debug
#define GET_PRIV(self) gst_cuda_plane_filter_private (self)

/* Makes the device current (device_leave (*@pushed) after), or posts an
 * error. */
gboolean
gst_cuda_plane_filter_enter (GstCudaPlaneFilter * self, gboolean * pushed)
{
  cm_status status = gst_cuda_plane_filter_device_enter (&GET_PRIV (self)->dev,
      pushed);

  if (status != CM_OK)
    gst_cuda_plane_filter_post_status_error (self, status,
        "Failed to make the CUDA device current");
  return status == CM_OK;
}

/* The subclass's filter built for planes of @width x @height in the
 * frame path's format (the frame's, or a region's size) and counted in
 * the stats; FALSE: configure () failed and posted the error. Whatever
 * filter the subclass holds is configure's to free: its queued work is
 * done (device_finish_work) or it was stashed. */
gboolean
gst_cuda_plane_filter_build (GstCudaPlaneFilter * self, gint width,
    gint height)
{
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  GstVideoInfo info = priv->frames.info;

  GST_DEBUG_OBJECT (self, "filter built for %dx%d", width, height);
  info.width = width;
  info.height = height;
  priv->filter_width = priv->filter_height = 0;
  if (!GST_CUDA_PLANE_FILTER_GET_CLASS (self)->configure (self, &info,
          priv->dev.use_cuda))
    return FALSE;
  priv->filter_width = width;
  priv->filter_height = height;
  GST_OBJECT_LOCK (self);
  priv->stats.filter_builds++;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

/* Frees the subclass's filters kept for other sizes
 * (gstcudaplanefiltercache.h): none may be put back once the
 * properties, the caps or the device they were built for changed. The
 * caller has finished the device's queued work. */
void
gst_cuda_plane_filter_drop_filters (GstCudaPlaneFilter * self)
{
  GstCudaPlaneFilterClass *klass = GST_CUDA_PLANE_FILTER_GET_CLASS (self);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  gpointer filter;

  while ((filter = gst_cuda_plane_filter_filter_cache_pop (&priv->filters)))
    klass->free_filter (filter);
}

/* The subclass's filter made for planes of @width x @height (a region of
 * interest, or the frame again), unless it is made for them: the one
 * kept for that size put back, else one built. The filter it replaces is
 * kept for its own size when the subclass can hand it over
 * (stash_filter), else freed by configure; a filter is freed only after
 * the device's queued work, which may still use it. The frame path's
 * resize. */
gboolean
gst_cuda_plane_filter_resize (gpointer owner, gint width, gint height)
{
  GstCudaPlaneFilter *self = GST_CUDA_PLANE_FILTER (owner);
  GstCudaPlaneFilterClass *klass = GST_CUDA_PLANE_FILTER_GET_CLASS (self);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  gpointer kept, out;

  if (width == priv->filter_width && height == priv->filter_height)
    return TRUE;
  if (klass->stash_filter == NULL || priv->filter_width == 0) {
    /* configure frees the filter in use (or what a failed one left) */
    gst_cuda_plane_filter_device_finish_work (&priv->dev);
    return gst_cuda_plane_filter_build (self, width, height);
  }

  kept = gst_cuda_plane_filter_filter_cache_take (&priv->filters, width, height);
  out = gst_cuda_plane_filter_filter_cache_put (&priv->filters,
      priv->filter_width, priv->filter_height, klass->stash_filter (self));
  if (out != NULL) {
    gst_cuda_plane_filter_device_finish_work (&priv->dev);
    klass->free_filter (out);
  }
  if (kept == NULL)
    return gst_cuda_plane_filter_build (self, width, height);
  GST_LOG_OBJECT (self, "filter for %dx%d put back", width, height);
  klass->restore_filter (self, kept);
  priv->filter_width = width;
  priv->filter_height = height;
  return TRUE;
}

/* What every frame starts with: caps, the device (context pushed), pending
 * property changes. On success leave the device with device_leave
 * (*pushed). */
static GstFlowReturn
gst_cuda_plane_filter_begin_frame (GstCudaPlaneFilter * self,
    gboolean * pushed)
{
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);

  *pushed = FALSE;
  if (G_UNLIKELY (!priv->configured)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("received a buffer before caps were negotiated"));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  /* the current device or context is per thread */
  if (!gst_cuda_plane_filter_enter (self, pushed))
    return GST_FLOW_ERROR;

  /* a property changed: rebuild before this frame, at the size in use;
   * the filters kept for other sizes have the old properties: they go
   * once the work queued with them is done */
  if (g_atomic_int_compare_and_exchange (&priv->dirty, TRUE, FALSE)) {
    gint width = priv->filter_width, height = priv->filter_height;

    GST_DEBUG_OBJECT (self, "reconfiguring after a property change");
    gst_cuda_plane_filter_device_finish_work (&priv->dev);
    gst_cuda_plane_filter_drop_filters (self);
    if (width == 0) {           /* the last configure failed */
      width = GST_VIDEO_INFO_WIDTH (&priv->frames.info);
      height = GST_VIDEO_INFO_HEIGHT (&priv->frames.info);
    }
    if (!gst_cuda_plane_filter_build (self, width, height)) {
      GST_ERROR_OBJECT (self, "subclass failed to reconfigure");
      gst_cuda_plane_filter_device_leave (&priv->dev, *pushed);
      *pushed = FALSE;
      return GST_FLOW_ERROR;
    }
  }
  return GST_FLOW_OK;
}

/* The frame's work is done (device left): count it, let the subclass
 * read its results (@inbuf %NULL: nothing was looked at, no results). */
static GstFlowReturn
gst_cuda_plane_filter_end_frame (GstCudaPlaneFilter * self,
    cm_status status, GstBuffer * inbuf, const GstCudaPlaneFilterFrameStats * st)
{
  GstCudaPlaneFilterClass *klass = GST_CUDA_PLANE_FILTER_GET_CLASS (self);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);

  GST_OBJECT_LOCK (self);
  gst_cuda_plane_filter_frame_stats_add (&priv->stats, st);
  GST_OBJECT_UNLOCK (self);

  /* stopped by a flush or a stop: not an error */
  if (status == CM_ERR_CANCELLED)
    return GST_FLOW_FLUSHING;
  if (status != CM_OK) {
    gst_cuda_plane_filter_post_status_error (self, status,
        priv->dev.use_cuda ? "Failed to process a frame on the CUDA device" :
        "Failed to process a frame on the CPU");
    return GST_FLOW_ERROR;
  }
  if (klass->frame_done && inbuf != NULL)
    return klass->frame_done (self, inbuf);
  return GST_FLOW_OK;
}

/* Maps @buf for the frame path with @flags (the output's info when it
 * maps for writing), or posts an error. */
static gboolean
gst_cuda_plane_filter_map (GstCudaPlaneFilter * self,
    GstCudaPlaneFilterMappedFrame * mf, GstBuffer * buf, GstMapFlags flags,
    GstCudaPlaneFilterFrameStats * st)
{
  GstCudaPlaneFilterFramePath *fp = &GET_PRIV (self)->frames;
  gboolean output = (flags & GST_MAP_WRITE) != 0;

  if (gst_cuda_plane_filter_frame_path_map (fp, mf, output ? &fp->out_info :
          &fp->info, buf, flags, st))
    return TRUE;
  GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Failed to map the %s frame",
          output ? "output" : "input"),
      ("buffer %" GST_PTR_FORMAT " does not match the caps", buf));
  return FALSE;
}

/* The mapped frame through the frame path: the whole frame, or its
 * regions of interest (gstcudaplanefilterroi.h), filtered into @out or,
 * with @out %NULL, analysed. *@defer: the overlap's event when the frame
 * is left on the device; *@results: FALSE when no region was looked at. */
static cm_status
gst_cuda_plane_filter_process (GstCudaPlaneFilter * self,
    GstBuffer * inbuf, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, GstCudaPlaneFilterFrameStats * st,
    cm_event * defer, gboolean * results)
{
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  GstCudaPlaneFilterFramePath *fp = &priv->frames;
  GArray *rects = priv->roi.rects;
  gint width = GST_VIDEO_INFO_WIDTH (&fp->info);
  gint height = GST_VIDEO_INFO_HEIGHT (&fp->info);

  *results = TRUE;
  /* an element whose results describe one region takes the first; in
   * place, the regions prepare_output_buffer collected */
  if (priv->in_place || (gst_cuda_plane_filter_roi_collect (&priv->roi,
              G_OBJECT (self), inbuf, width, height,
              GST_CUDA_PLANE_FILTER_GET_CLASS (self)->frame_done != NULL ?
              1 : G_MAXUINT) &&
          !gst_cuda_plane_filter_roi_refused (&priv->roi, GST_ELEMENT (self),
              fp->convert))) {
    *results = rects->len > 0;
    if (out == NULL)
      return rects->len == 0 ? CM_OK :
          gst_cuda_plane_filter_frame_path_analyse_region (fp, &priv->filter,
          in, &g_array_index (rects, GstVideoRectangle, 0), st);
    return gst_cuda_plane_filter_frame_path_process_regions (fp, &priv->filter,
        in, out, (const GstVideoRectangle *) rects->data, rects->len, st);
  }

  if (!gst_cuda_plane_filter_resize (self, width, height))
    return CM_ERR_INVALID_ARG;  /* posted by configure () */
  if (out == NULL)
    return gst_cuda_plane_filter_frame_path_analyse (fp, &priv->filter, in, st);
  /* with overlap, the frame may be left on the device */
  *defer = gst_cuda_plane_filter_overlap_defer_event (&priv->overlap, in, out);
  return gst_cuda_plane_filter_frame_path_process (fp, &priv->filter, in, out,
      st, *defer);
}

/* One frame, from begin to end: @inbuf filtered into @outbuf (itself when
 * regions are filtered in place), or, with @outbuf %NULL, only analysed
 * (passthrough). */
GstFlowReturn
gst_cuda_plane_filter_run_frame (GstCudaPlaneFilter * self,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaPlaneFilterClass *klass = GST_CUDA_PLANE_FILTER_GET_CLASS (self);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  GstCudaPlaneFilterFrameStats st = { 0, };
  GstCudaPlaneFilterMappedFrame in, out;
  GstFlowReturn ret;
  gboolean pushed, results;
  cm_event defer = NULL;
  cm_status status;

  ret = gst_cuda_plane_filter_begin_frame (self, &pushed);
  if (ret != GST_FLOW_OK)
    return ret;
  if (outbuf == NULL && klass->analyse_plane == NULL) {
    gst_cuda_plane_filter_device_leave (&priv->dev, pushed);
    return GST_FLOW_OK;
  }

  if (!gst_cuda_plane_filter_map (self, &in, inbuf, outbuf == inbuf ?
          GST_MAP_READWRITE : GST_MAP_READ, &st)) {
    gst_cuda_plane_filter_device_leave (&priv->dev, pushed);
    return GST_FLOW_ERROR;
  }
  if (outbuf != NULL && outbuf != inbuf
      && !gst_cuda_plane_filter_map (self, &out, outbuf, GST_MAP_WRITE,
          &st)) {
    gst_cuda_plane_filter_frame_path_unmap (&in);
    gst_cuda_plane_filter_device_leave (&priv->dev, pushed);
    return GST_FLOW_ERROR;
  }

  status = gst_cuda_plane_filter_process (self, inbuf, &in,
      outbuf == NULL ? NULL : outbuf == inbuf ? &in : &out, &st, &defer,
      &results);
  /* after the synchronisation (or with the buffers kept until the event):
   * the mappings are not needed any more */
  if (outbuf != NULL && outbuf != inbuf)
    gst_cuda_plane_filter_frame_path_unmap (&out);
  gst_cuda_plane_filter_frame_path_unmap (&in);
  gst_cuda_plane_filter_device_leave (&priv->dev, pushed);
  priv->in_place = FALSE;

  if (defer != NULL && status == CM_OK) {
    gst_cuda_plane_filter_overlap_deferred (&priv->overlap, inbuf);
    st.overlapped++;
  }

  return gst_cuda_plane_filter_end_frame (self, status,
      results ? inbuf : NULL, &st);
}

