/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The frame path's mapping (gstcudaplanefilterframe.h): buffers mapped for
 * the device (CUDA memory of the element's context) or the host, and the
 * order between our stream and the streams that CUDA memories carry on
 * GStreamer >= 1.24 (their producer's, their reader's). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudaplanefilterframe.h"
#include "gstcudaplanefilterframeprivate.h"

#include "gstcudaplanefiltermemory.h"
#include "gstcudaplanefilterpinnedpool.h"

#define GST_CAT_DEFAULT gst_cuda_plane_filter_frame_debug

/* Our stream waits, on the device, for the work queued so far on @other
 * (an event recorded there); FALSE when that could not be arranged (no
 * event, or a call failed): the caller then waits on the host. */
static gboolean
wait_on_device (GstCudaPlaneFilterFramePath * fp, gpointer other)
{
  return fp->order_event != NULL &&
      cm_event_record (fp->order_event, other) == CM_OK &&
      cm_stream_wait_event (fp->stream, fp->order_event) == CM_OK;
}

/* A CUDA memory whose producer left its work in flight on its own stream
 * (GStreamer >= 1.24): the path's stream waits for that work on the
 * device (an event recorded on the producer's stream), or, without an
 * event or when that fails, the host waits. The context is current
 * (frames are mapped with the device entered). */
static void
order_after_producer (GstCudaPlaneFilterFramePath * fp, GstBuffer * buf)
{
  gpointer producer = gst_cuda_plane_filter_memory_pending_stream (buf);

  if (producer == NULL || producer == fp->stream ||
      wait_on_device (fp, producer))
    return;
  GST_LOG ("waiting on the host for the producer's stream");
  gst_cuda_plane_filter_memory_sync (buf);
}

/* An output memory that carries another stream than ours (a pool whose
 * configuration kept downstream's stream): whoever read its last
 * contents ordered that on its stream, so ours waits for it before
 * writing. */
static void
order_before_writing (GstCudaPlaneFilterFramePath * fp, GstBuffer * buf)
{
  gpointer other = gst_cuda_plane_filter_memory_buffer_stream (buf);

  if (other == NULL || other == fp->stream || wait_on_device (fp, other))
    return;
  GST_LOG ("waiting on the host for the output memory's stream");
  cm_stream_sync ((cm_stream) other);
}

/* GStreamer >= 1.24, input and output both CUDA memory that carry a
 * stream, no staging and no result for the host: the frame is left in
 * flight. Its end is an event on our stream that the memories' own
 * streams wait for, so whoever orders after a memory's stream (its next
 * writer: upstream refilling the input; its reader: downstream, or a host
 * map, which synchronises that stream) also orders after this frame. The
 * output is flagged as still being written. FALSE: synchronise on the
 * host instead (a memory without a stream, 1.22, or an ordering call that
 * failed). */
static gboolean
gst_cuda_plane_filter_frame_leave_in_flight (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out)
{
  gpointer in_stream, out_stream;

  if (fp->host_results || !in->device || !out->device ||
      fp->order_event == NULL)
    return FALSE;
  in_stream = gst_cuda_plane_filter_memory_buffer_stream (in->frame.buffer);
  out_stream = gst_cuda_plane_filter_memory_buffer_stream (out->frame.buffer);
  if (in_stream == NULL || out_stream == NULL)
    return FALSE;
  if (cm_event_record (fp->order_event, fp->stream) != CM_OK)
    return FALSE;
  if (in_stream != fp->stream &&
      cm_stream_wait_event ((cm_stream) in_stream, fp->order_event) != CM_OK)
    return FALSE;
  if (out_stream != fp->stream && out_stream != in_stream &&
      cm_stream_wait_event ((cm_stream) out_stream, fp->order_event) != CM_OK)
    return FALSE;
  gst_cuda_plane_filter_memory_mark_written (out->frame.buffer);
  return TRUE;
}

/* The end of a frame's work on CUDA: left in flight where its memories
 * carry streams, else the frame's one synchronisation (after a failure
 * too: no queued copy may still use staging or the mapped frames; 1.22's
 * CUDA memory carries no stream to wait on). *@synced: the host may read
 * what was downloaded. */
cm_status
gst_cuda_plane_filter_frame_end (GstCudaPlaneFilterFramePath * fp,
    cm_status status, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, GstCudaPlaneFilterFrameStats * st,
    gboolean * synced)
{
  cm_status sync_status;

  *synced = FALSE;
  if (status == CM_OK &&
      gst_cuda_plane_filter_frame_leave_in_flight (fp, in, out)) {
    st->stream_ordered++;
    return CM_OK;
  }
  sync_status = cm_stream_sync (fp->stream);
  *synced = TRUE;
  return status == CM_OK ? sync_status : status;
}

/* @buf mapped as a frame of @info: CUDA memory of fp->context for the
 * device, anything else for the host (another context's CUDA memory too:
 * correct, slower, counted in @st). FALSE: @buf does not match @info. */
gboolean
gst_cuda_plane_filter_frame_path_map (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * bf, const GstVideoInfo * info,
    GstBuffer * buf, GstMapFlags flags, GstCudaPlaneFilterFrameStats * st)
{
  memset (bf, 0, sizeof (*bf));
  {
    GstCudaContext *mem_ctx = gst_cuda_plane_filter_memory_buffer_context (buf);

    if (mem_ctx != NULL && fp->backend == CM_BACKEND_CUDA && (gpointer) mem_ctx == fp->context) {
      if (!gst_cuda_plane_filter_memory_frame_map (&bf->frame, info, buf,
              flags))
        return FALSE;
      bf->mapped = bf->device = TRUE;
      order_after_producer (fp, buf);
      if (flags & GST_MAP_WRITE)
        order_before_writing (fp, buf);
      return TRUE;
    }
    if (mem_ctx != NULL) {
      GST_LOG ("CUDA memory of context %" GST_PTR_FORMAT
          " mapped for the host", mem_ctx);
      st->cuda_host_maps++;
    }
  }
  if (!gst_video_frame_map (&bf->frame, (GstVideoInfo *) info, buf, flags))
    return FALSE;
  bf->mapped = TRUE;
  bf->pinned = fp->backend == CM_BACKEND_CUDA &&
      gst_cuda_plane_filter_pinned_buffer_is_pinned (buf);
  return TRUE;
}

void
gst_cuda_plane_filter_frame_path_unmap (GstCudaPlaneFilterMappedFrame * bf)
{
  if (bf->mapped)
    gst_video_frame_unmap (&bf->frame);
  bf->mapped = FALSE;
}

/* ---- frame statistics --------------------------------------------------- */

/* The fields of GstCudaPlaneFilterFrameStats and their names in the
 * "cudamorphology-stats" query; "frames" counts one per frame. */
static const struct
{
  const gchar *name;
  gsize offset;
} stats_fields[] = {
  {"frames", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats, frames)},
  {"device-in", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats, device_in)},
  {"device-out", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats, device_out)},
  {"cuda-host-maps", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          cuda_host_maps)},
  {"pinned-uploads", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          pinned_uploads)},
  {"staged-uploads", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          staged_uploads)},
  {"pinned-downloads", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          pinned_downloads)},
  {"staged-downloads", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          staged_downloads)},
  {"overlapped", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats, overlapped)},
  {"stream-ordered", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          stream_ordered)},
  {"timed-frames", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          timed_frames)},
  {"device-ns", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats, device_ns)},
  {"filter-builds", G_STRUCT_OFFSET (GstCudaPlaneFilterFrameStats,
          filter_builds)},
};

#define STATS_FIELD(st, i) \
  G_STRUCT_MEMBER (guint64, (st), stats_fields[i].offset)

/* Adds one frame's counts to @sum (the frame itself counted in frames). */
void
gst_cuda_plane_filter_frame_stats_add (GstCudaPlaneFilterFrameStats * sum,
    const GstCudaPlaneFilterFrameStats * frame)
{
  guint i;

  sum->frames++;
  for (i = 1; i < G_N_ELEMENTS (stats_fields); i++)
    STATS_FIELD (sum, i) += STATS_FIELD (frame, i);
}

void
gst_cuda_plane_filter_frame_stats_to_structure (const
    GstCudaPlaneFilterFrameStats * st, GstStructure * s)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (stats_fields); i++)
    gst_structure_set (s, stats_fields[i].name, G_TYPE_UINT64,
        STATS_FIELD (st, i), NULL);
}

