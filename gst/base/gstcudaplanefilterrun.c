/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One frame (gstcudaplanefilterprivate.h), from transform(): its start
 * (caps, the device entered, property changes), the filter for its size,
 * the buffers mapped, the whole frame or its regions through the frame
 * path, and its end (statistics, errors, frame_done). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaplanefilterprivate.h"

#define GST_CAT_DEFAULT gst_cuda_plane_filter_debug
#define GET_PRIV(self) GST_CUDA_PLANE_FILTER_PRIV (self)
/* GstCudaPlaneFilter derives from GstBaseTransform directly */
#define PARENT_CLASS \
  GST_BASE_TRANSFORM_CLASS (g_type_class_peek (GST_TYPE_BASE_TRANSFORM))

/* Makes the device current (device_leave (*@pushed) after), or posts an
 * error. */
gboolean
gst_cuda_plane_filter_enter (GstCudaPlaneFilter * self, gboolean * pushed)
{
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  cm_status status = gst_cuda_plane_filter_device_enter (&priv->dev, pushed);

  if (status != CM_OK)
    gst_cuda_plane_filter_device_post_error (&priv->dev, status,
        "Failed to make the CUDA device current");
  return status == CM_OK;
}

/* @filter, just made by the subclass: counted in the statistics; FALSE
 * when it is NULL (the subclass posted the error) */
static gboolean
gst_cuda_plane_filter_count_build (GstCudaPlaneFilter * self,
    cm_filter * filter)
{
  if (filter == NULL)
    return FALSE;
  GST_OBJECT_LOCK (self);
  GET_PRIV (self)->stats.filter_builds++;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

/* The subclass's filter made for planes of @width x @height (the frame's
 * or a region's) and counted; FALSE: make_filter failed and posted the
 * error. The filter in use is freed first: its queued work is done. */
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
  g_clear_pointer (&priv->filter, cm_filter_free);
  priv->filter = GST_CUDA_PLANE_FILTER_GET_CLASS (self)->make_filter (self,
      &info, priv->dev.backend);
  if (!gst_cuda_plane_filter_count_build (self, priv->filter))
    return FALSE;
  priv->filter_width = width;
  priv->filter_height = height;
  return TRUE;
}

/* The chroma planes' way for the frames (the subclass's chroma ()) and,
 * when they are filtered, a filter for each plane, made after the frame's
 * own (set_caps, a property change); FALSE: make_chroma_filter failed
 * and posted the error. The old ones are dropped already. */
gboolean
gst_cuda_plane_filter_build_chroma (GstCudaPlaneFilter * self)
{
  GstCudaPlaneFilterClass *klass = GST_CUDA_PLANE_FILTER_GET_CLASS (self);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  GstCudaPlaneFilterFramePath *fp = &priv->frames;
  guint p;

  fp->chroma = klass->chroma != NULL ? klass->chroma (self) :
      GST_CUDA_PLANE_FILTER_CHROMA_COPY;
  if (fp->chroma == GST_CUDA_PLANE_FILTER_CHROMA_FILTER &&
      klass->make_chroma_filter == NULL)
    fp->chroma = GST_CUDA_PLANE_FILTER_CHROMA_COPY;
  if (fp->chroma != GST_CUDA_PLANE_FILTER_CHROMA_FILTER)
    return TRUE;
  for (p = 1; p <= fp->n_chroma; p++) {
    priv->chroma_filters[p] = klass->make_chroma_filter (self, &fp->info, p,
        priv->dev.backend);
    if (!gst_cuda_plane_filter_count_build (self, priv->chroma_filters[p]))
      return FALSE;
  }
  return TRUE;
}

/* Frees the filters kept for other sizes and the chroma planes': after a
 * change of properties, caps or device none may be put back. The
 * device's queued work is done. */
void
gst_cuda_plane_filter_drop_filters (GstCudaPlaneFilter * self)
{
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  gpointer filter;
  guint p;

  while ((filter = gst_cuda_plane_filter_cache_pop (&priv->filters)))
    cm_filter_free (filter);
  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++)
    g_clear_pointer (&priv->chroma_filters[p], cm_filter_free);
}

/**
 * gst_cuda_plane_filter_foreach_filter:
 *
 * Calls @func on each filter held for the subclass: the one in use for
 * plane 0, those kept for other region sizes, the chroma planes'.
 */
void
gst_cuda_plane_filter_foreach_filter (GstCudaPlaneFilter * self,
    GstCudaPlaneFilterFilterFunc func, gpointer user_data)
{
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  guint i;

  if (priv->filter != NULL)
    func (priv->filter, 0, TRUE, user_data);
  for (i = 0; i < G_N_ELEMENTS (priv->filters.slots); i++)
    if (priv->filters.slots[i].filter != NULL)
      func (priv->filters.slots[i].filter, 0, FALSE, user_data);
  for (i = 1; i < GST_VIDEO_MAX_PLANES; i++)
    if (priv->chroma_filters[i] != NULL)
      func (priv->chroma_filters[i], i, TRUE, user_data);
}

/* The filter for planes of @width x @height: the one in use, the one kept
 * for that size, or one built; the one it replaces is kept for its own
 * size (gstcudaplanefiltercache.h), and a filter leaves the cache only
 * after the device's queued work. NULL: make_filter failed (posted). */
static cm_filter *
gst_cuda_plane_filter_for_size (GstCudaPlaneFilter * self, gint width,
    gint height)
{
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  gpointer kept, out;

  if (width == priv->filter_width && height == priv->filter_height)
    return priv->filter;
  if (priv->filter_width == 0) {
    gst_cuda_plane_filter_device_finish_work (&priv->dev);
    return gst_cuda_plane_filter_build (self, width, height) ?
        priv->filter : NULL;
  }

  kept = gst_cuda_plane_filter_cache_take (&priv->filters, width,
      height);
  out = gst_cuda_plane_filter_cache_put (&priv->filters,
      priv->filter_width, priv->filter_height, g_steal_pointer
      (&priv->filter));
  if (out != NULL) {
    gst_cuda_plane_filter_device_finish_work (&priv->dev);
    cm_filter_free (out);
  }
  if (kept == NULL)
    return gst_cuda_plane_filter_build (self, width, height) ?
        priv->filter : NULL;
  GST_LOG_OBJECT (self, "filter for %dx%d put back", width, height);
  priv->filter = kept;
  priv->filter_width = width;
  priv->filter_height = height;
  return priv->filter;
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
    /* frames in flight read their results from the filter first */
    gst_cuda_plane_filter_overlap_settle (&priv->overlap);
    gst_cuda_plane_filter_device_finish_work (&priv->dev);
    gst_cuda_plane_filter_drop_filters (self);
    if (width == 0) {           /* the last filter was not made */
      width = GST_VIDEO_INFO_WIDTH (&priv->frames.info);
      height = GST_VIDEO_INFO_HEIGHT (&priv->frames.info);
    }
    if (!gst_cuda_plane_filter_build (self, width, height) ||
        !gst_cuda_plane_filter_build_chroma (self)) {
      GST_ERROR_OBJECT (self, "subclass failed to reconfigure");
      gst_cuda_plane_filter_device_leave (&priv->dev, *pushed);
      *pushed = FALSE;
      return GST_FLOW_ERROR;
    }
  }
  return GST_FLOW_OK;
}

/* The frame's work is done (device left): count it, let the subclass
 * read its results (@inbuf %NULL: nothing was looked at, no results;
 * @regions: they were given per region, region_done). */
static GstFlowReturn
gst_cuda_plane_filter_end_frame (GstCudaPlaneFilter * self,
    cm_status status, GstBuffer * inbuf, gboolean regions,
    const GstCudaPlaneFilterFrameStats * st)
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
    gst_cuda_plane_filter_device_post_error (&priv->dev, status,
        priv->dev.backend == CM_BACKEND_CUDA ?
        "Failed to process a frame on the CUDA device" :
        "Failed to process a frame on the CPU");
    return GST_FLOW_ERROR;
  }
  if (klass->frame_done && inbuf != NULL)
    return klass->frame_done (self, inbuf, regions ? NULL : priv->filter,
        priv->filter_width, priv->filter_height);
  return GST_FLOW_OK;
}

/* The filter on the views of a frame or a rectangle: the plane, the plane
 * into a packed frame or a plane of another depth (another output
 * format), the whole packed frame
 * where the filter takes it, or each colour channel through the frame
 * path's scratch planes. */
static cm_status
gst_cuda_plane_filter_run_filter (GstCudaPlaneFilterFramePath * fp,
    cm_filter * filter, const GstCudaPlaneFilterViews * v)
{
  cm_image s = gst_cuda_plane_filter_frame_as_plane (&v->src);
  cm_image d, in, out;
  cm_status status;
  gint c;

  /* another format: interleaved (RGBA), or one plane of another depth
   * (16-bit labels of an 8-bit frame), which the filter's run checks */
  if (fp->convert && v->dst.channels > 1)
    return cm_filter_run_to_packed (filter, &s, &v->dst, v->stream);
  if (fp->layout == GST_CUDA_PLANE_FILTER_LAYOUT_PLANAR || fp->convert) {
    d = gst_cuda_plane_filter_frame_as_plane (&v->dst);
    return cm_filter_run (filter, &s, &d, v->stream);
  }
  if (cm_filter_has_packed (filter))
    return cm_filter_run_packed (filter, &v->src, &v->dst, v->stream);
  status = gst_cuda_plane_filter_frame_path_copy_alpha (fp, v);
  for (c = 0; status == CM_OK && c < fp->n_colour; c++) {
    status = gst_cuda_plane_filter_frame_path_channel_in (fp, v, c, &in,
        &out);
    if (status == CM_OK)
      status = cm_filter_run (filter, &in, &out, v->stream);
    if (status == CM_OK)
      status = gst_cuda_plane_filter_frame_path_channel_out (fp, v, c, &out);
  }
  return status;
}

/* Each chroma plane through its own filter (CHROMA_FILTER), between the
 * frame's begin and end: the plane's views, the filter, its result moved */
static cm_status
gst_cuda_plane_filter_run_chroma (GstCudaPlaneFilterFramePath * fp,
    cm_filter * const *filters, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, const GstCudaPlaneFilterViews * frame)
{
  cm_status status = CM_OK;
  guint p;

  for (p = 1; status == CM_OK && fp->chroma ==
      GST_CUDA_PLANE_FILTER_CHROMA_FILTER && p <= fp->n_chroma; p++) {
    GstCudaPlaneFilterViews v;

    status = gst_cuda_plane_filter_frame_path_chroma_begin (fp, in, out, p,
        frame, &v);
    if (status == CM_OK && v.src.channels > 1) {
      status = cm_filter_run_packed (filters[p], &v.src, &v.dst, v.stream);
    } else if (status == CM_OK) {
      cm_image s = gst_cuda_plane_filter_frame_as_plane (&v.src);
      cm_image d = gst_cuda_plane_filter_frame_as_plane (&v.dst);

      status = cm_filter_run (filters[p], &s, &d, v.stream);
    }
    if (status == CM_OK)
      status = gst_cuda_plane_filter_frame_path_chroma_end (fp, out, p, &v);
  }
  return status;
}

/* An analyser's filter on the views' input (no destination) */
static cm_status
gst_cuda_plane_filter_run_analysis (cm_filter * filter,
    const GstCudaPlaneFilterViews * v)
{
  cm_image s = gst_cuda_plane_filter_frame_as_plane (&v->src);

  return cm_filter_run (filter, &s, NULL, v->stream);
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

/* After region @r: the subclass that reads every region's results does,
 * once the region's work is complete. */
static cm_status
gst_cuda_plane_filter_region_done (GstCudaPlaneFilter * self,
    cm_filter * filter, const GstVideoRectangle * r)
{
  GstCudaPlaneFilterClass *klass = GST_CUDA_PLANE_FILTER_GET_CLASS (self);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  cm_status status = CM_OK;

  if (klass->region_done == NULL)
    return CM_OK;
  if (priv->frames.backend == CM_BACKEND_CUDA)
    status = cm_stream_sync (priv->frames.stream);
  if (status == CM_OK)
    klass->region_done (self, filter, r);
  return status;
}

/* The mapped frame through the frame path: the whole frame, or its
 * regions of interest (gstcudaplanefilterroi.h), filtered into @out or,
 * with @out %NULL, analysed. *@defer: the overlap's event when the frame
 * is left on the device (only with @may_stay); *@results: FALSE when no
 * region was looked at (always TRUE with region_done); *@regions: the
 * frame went by regions. */
static cm_status
gst_cuda_plane_filter_process (GstCudaPlaneFilter * self,
    GstBuffer * inbuf, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, gboolean may_stay,
    GstCudaPlaneFilterFrameStats * st, cm_event * defer, gboolean * results,
    gboolean * regions)
{
  GstCudaPlaneFilterClass *klass = GST_CUDA_PLANE_FILTER_GET_CLASS (self);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  GstCudaPlaneFilterFramePath *fp = &priv->frames;
  GArray *rects = priv->roi.rects;
  gint width = GST_VIDEO_INFO_WIDTH (&fp->info);
  gint height = GST_VIDEO_INFO_HEIGHT (&fp->info);
  GstCudaPlaneFilterViews v;
  cm_filter *filter;
  cm_status status;
  guint i;

  *results = TRUE;
  *regions = FALSE;
  /* an element whose results describe one region takes the first; in
   * place, the regions prepare_output_buffer collected */
  if (priv->in_place || (gst_cuda_plane_filter_roi_collect (&priv->roi,
              G_OBJECT (self), inbuf, width, height,
              GST_CUDA_PLANE_FILTER_MAX_REGIONS (klass)) &&
          !gst_cuda_plane_filter_roi_refused (&priv->roi, GST_ELEMENT (self),
              fp->convert))) {
    const GstVideoRectangle *r = (const GstVideoRectangle *) rects->data;

    *results = rects->len > 0 || klass->region_done != NULL;
    *regions = TRUE;
    /* regions never stay on the device: older frames' results first */
    gst_cuda_plane_filter_overlap_settle (&priv->overlap);
    if (out == NULL) {
      status = CM_OK;
      for (i = 0; status == CM_OK && i < rects->len; i++) {
        filter = gst_cuda_plane_filter_for_size (self, r[i].w, r[i].h);
        if (filter == NULL)
          return CM_ERR_INVALID_ARG;
        status = gst_cuda_plane_filter_frame_path_analyse_rect_begin (fp, in,
            &r[i], st, &v);
        if (status == CM_OK)
          status = gst_cuda_plane_filter_run_analysis (filter, &v);
        status = gst_cuda_plane_filter_frame_path_analyse_end (fp, status, &v,
            NULL);
        if (status == CM_OK)
          status = gst_cuda_plane_filter_region_done (self, filter, &r[i]);
      }
      return status;
    }
    status = gst_cuda_plane_filter_frame_path_regions_begin (fp, in, out, st);
    for (i = 0; status == CM_OK && i < rects->len; i++) {
      filter = gst_cuda_plane_filter_for_size (self, r[i].w, r[i].h);
      if (filter == NULL)
        return CM_ERR_INVALID_ARG;      /* posted, the device's work done */
      status = gst_cuda_plane_filter_frame_path_rect_begin (fp, in, out,
          &r[i], st, &v);
      if (status == CM_OK)
        status = gst_cuda_plane_filter_run_filter (fp, filter, &v);
      status = gst_cuda_plane_filter_frame_path_rect_end (fp, status, out,
          &r[i], &v, st);
      if (status == CM_OK)
        status = gst_cuda_plane_filter_region_done (self, filter, &r[i]);
    }
    return gst_cuda_plane_filter_frame_path_regions_end (fp, status, in, out,
        r, rects->len, st);
  }

  filter = gst_cuda_plane_filter_for_size (self, width, height);
  if (filter == NULL)
    return CM_ERR_INVALID_ARG;  /* posted by make_filter */
  /* with overlap, the frame may be left on the device (an analyser's
   * with its results unread, in a result slot of its own) */
  *defer = gst_cuda_plane_filter_overlap_defer_event (&priv->overlap, in, out,
      filter, klass->frame_done != NULL, may_stay);
  if (out == NULL) {
    status = gst_cuda_plane_filter_frame_path_analyse_begin (fp, in, st, &v);
    if (status == CM_OK)
      status = gst_cuda_plane_filter_run_analysis (filter, &v);
    return gst_cuda_plane_filter_frame_path_analyse_end (fp, status, &v,
        *defer);
  }
  status = gst_cuda_plane_filter_frame_path_begin (fp, in, out, st, &v);
  if (status == CM_OK)
    status = gst_cuda_plane_filter_run_filter (fp, filter, &v);
  if (status == CM_OK)
    status = gst_cuda_plane_filter_run_chroma (fp, priv->chroma_filters, in,
        out, &v);
  return gst_cuda_plane_filter_frame_path_end (fp, status, in, out, &v, st,
      *defer);
}

/* One frame, from begin to end: @inbuf filtered into @outbuf (itself when
 * regions are filtered in place), or, with @outbuf %NULL, only analysed
 * (passthrough). */
static GstFlowReturn
gst_cuda_plane_filter_run_frame (GstCudaPlaneFilter * self,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaPlaneFilterClass *klass = GST_CUDA_PLANE_FILTER_GET_CLASS (self);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  GstCudaPlaneFilterFrameStats st = { 0, };
  GstCudaPlaneFilterMappedFrame in, out;
  GstFlowReturn ret;
  gboolean pushed, results, regions, copy;
  cm_event defer = NULL;
  cm_status status;

  ret = gst_cuda_plane_filter_begin_frame (self, &pushed);
  if (ret != GST_FLOW_OK)
    return ret;
  if (outbuf == NULL && klass->frame_done == NULL) {
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

  /* an analyser that went to passthrough while its output buffer was
   * made: the frame is analysed, then copied */
  copy = outbuf != NULL && outbuf != inbuf &&
      gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (self));
  status = gst_cuda_plane_filter_process (self, inbuf, &in,
      outbuf == NULL || copy ? NULL : outbuf == inbuf ? &in : &out, !copy,
      &st, &defer, &results, &regions);
  if (copy && status == CM_OK)
    status = gst_cuda_plane_filter_frame_path_copy (&priv->frames, &in, &out);
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
    /* an analyser's results are read when the frame leaves the ring (a
     * frame read at once had the ring settled before it ran: process) */
    results = FALSE;
  }

  return gst_cuda_plane_filter_end_frame (self, status,
      results ? inbuf : NULL, regions && klass->region_done != NULL, &st);
}

/* An analyser's frame left on the device is done (overlap, from the
 * ring): its results read from result slot @slot of @filter (the filter
 * in use: the ring is settled before filters change), then put on
 * @outbuf, the buffer that leaves. @inbuf: transfer full. */
GstFlowReturn
gst_cuda_plane_filter_run_results_left (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf, cm_filter * filter, guint slot)
{
  GstCudaPlaneFilter *self = GST_CUDA_PLANE_FILTER (trans);
  GstCudaPlaneFilterClass *klass = GST_CUDA_PLANE_FILTER_GET_CLASS (self);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  GstFlowReturn ret = GST_FLOW_OK;

  if (cm_filter_use_result_slot (filter, (int) slot) == CM_OK &&
      klass->frame_done != NULL && inbuf != NULL)
    ret = klass->frame_done (self, inbuf, filter, priv->filter_width,
        priv->filter_height);
  /* the ring's reference to the input let go: a passthrough buffer is
   * writable again */
  gst_clear_buffer (&inbuf);
  if (ret == GST_FLOW_OK && klass->frame_left != NULL)
    ret = klass->frame_left (self, outbuf);
  return ret;
}

/* Passthrough (GstBaseTransform only calls transform_ip then): analysers
 * look at the frame, the buffer is pushed as it came. */
GstFlowReturn
gst_cuda_plane_filter_run_transform_ip (GstBaseTransform * trans,
    GstBuffer * buf)
{
  return gst_cuda_plane_filter_run_frame (GST_CUDA_PLANE_FILTER (trans),
      buf, NULL);
}

/* Regions of interest on the CUDA backend: a frame whose input buffer is
 * writable (no one else holds it or its memory) and whose caps are the
 * output's is filtered in place, so that nothing outside its regions is
 * copied and the cost follows their area. Regions that overlap are
 * filtered out of place, each from the input; so is everything on the
 * CPU backend. */
GstFlowReturn
gst_cuda_plane_filter_run_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstCudaPlaneFilter *self = GST_CUDA_PLANE_FILTER (trans);
  GstCudaPlaneFilterPrivate *priv = GET_PRIV (self);
  GstCudaPlaneFilterFramePath *fp = &priv->frames;

  priv->in_place = !gst_base_transform_is_passthrough (trans) &&
      priv->configured && priv->dev.backend == CM_BACKEND_CUDA && priv->same_caps &&
      !fp->convert && gst_buffer_is_writable (inbuf) &&
      gst_buffer_is_all_memory_writable (inbuf) &&
      gst_cuda_plane_filter_roi_collect (&priv->roi, G_OBJECT (self), inbuf,
      GST_VIDEO_INFO_WIDTH (&fp->info), GST_VIDEO_INFO_HEIGHT (&fp->info),
      GST_CUDA_PLANE_FILTER_MAX_REGIONS (GST_CUDA_PLANE_FILTER_GET_CLASS
          (self))) && gst_cuda_plane_filter_roi_disjoint (&priv->roi);
  if (priv->in_place) {
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  return PARENT_CLASS->prepare_output_buffer
      (trans, inbuf, outbuf);
}

/* inbuf == outbuf: regions filtered in place (prepare_output_buffer), or
 * passthrough switched on between the buffer allocation and the transform
 * (the output is the input: analyse it) */
GstFlowReturn
gst_cuda_plane_filter_run_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaPlaneFilter *self = GST_CUDA_PLANE_FILTER (trans);

  return gst_cuda_plane_filter_run_frame (self, inbuf, inbuf == outbuf &&
      !GET_PRIV (self)->in_place ? NULL : outbuf);
}
