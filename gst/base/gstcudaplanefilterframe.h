/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The frame path: one frame of the negotiated caps to the filter and back
 * (maps, uploads and downloads through pinned staging, channel split,
 * chroma and alpha copies, whole frames or regions), around the filter,
 * which the base class runs between begin and end. It owns the per-caps
 * buffers and knows nothing of the element nor of the filter. */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include "cm-image.h"
#include "cm-status.h"
#include "cm-backend.h"
#include "device.h"
#include "gstcudaplanefilterenums.h"

G_BEGIN_DECLS

/* How frames came and left (the "cudamorphology-stats" query): whether
 * they stayed on the GPU and whether the pinned pools are used; and how
 * often the filter was built. */
typedef struct
{
  guint64 frames;
  guint64 device_in;            /* input read in place from CUDA memory  */
  guint64 device_out;           /* output written in place to CUDA memory */
  guint64 cuda_host_maps;       /* CUDA memory mapped for the host by us */
  guint64 pinned_uploads;       /* input uploaded straight from a pinned
                                 * buffer */
  guint64 staged_uploads;       /* input copied into pinned staging first */
  guint64 pinned_downloads;     /* output downloaded straight into a
                                 * pinned buffer */
  guint64 staged_downloads;     /* output downloaded through pinned staging */
  guint64 overlapped;           /* left on the device while the next came */
  guint64 stream_ordered;       /* pushed with its work in flight, ordered
                                 * by the memories' streams (>= 1.24) */
  guint64 timed_frames;         /* frames whose device time was measured
                                 * (one in GST_CUDA_PLANE_FILTER_TIMED_EVERY) */
  guint64 device_ns;            /* their span on the device: from the
                                 * frame's first operation on its stream to
                                 * its last, idle gaps between launches
                                 * included */
  guint64 filter_builds;        /* filters made (make_filter): new caps, a
                                 * property change, a region size not kept
                                 * (counted by the element, not per frame) */
} GstCudaPlaneFilterFrameStats;

/* One frame in this many has its device time measured (two timed events;
 * the time is read without waiting at a later frame). */
#define GST_CUDA_PLANE_FILTER_TIMED_EVERY 16

/* A mapped buffer and where its planes are. */
typedef struct
{
  GstVideoFrame frame;
  gboolean mapped;
  gboolean device;              /* plane pointers are device pointers */
  gboolean pinned;              /* host planes in page-locked memory */
} GstCudaPlaneFilterMappedFrame;

/* Where the filter reads and writes plane 0 of one frame or rectangle:
 * device images queued on @stream (CUDA), or host images (CPU). */
typedef struct
{
  cm_image_packed src;
  cm_image_packed dst;
  cm_stream stream;
  gboolean device;
  gboolean timed;               /* the frame's device time is measured */
  gboolean active;              /* an analysis began: its end synchronises */
} GstCudaPlaneFilterViews;

/* A chroma plane of the negotiated frames that is filtered or made
 * neutral (gstcudaplanefilterchroma.c) */
typedef struct
{
  gint width, height;           /* pixels of the plane */
  gint channels;                /* samples a pixel: 2 for NV12's */
  gsize row_bytes;
  cm_image_packed dev_in;       /* device scratch of host frames */
  cm_image_packed dev_out;
  guint8 *staging_in;           /* pinned copies */
  guint8 *staging_out;
  gsize staging_pitch;
  gboolean staged;              /* this frame's output waits in staging_out */
} GstCudaPlaneFilterChromaPlane;

typedef enum
{
  GST_CUDA_PLANE_FILTER_LAYOUT_PLANAR,    /* GRAY, YUV: plane 0 filtered */
  GST_CUDA_PLANE_FILTER_LAYOUT_PACKED     /* RGB(A): colour channels of plane 0 */
} GstCudaPlaneFilterLayout;

typedef struct
{
  /* set by the owner before configure: the backend, the stream the work
   * is queued on, and the GstCudaContext whose CUDA memory is read and
   * written in place (NULL: every frame mapped for the host) */
  cm_backend backend;
  cm_stream stream;
  gpointer context;
  gboolean host_results;        /* results read on the host after each
                                 * frame: the stream is synchronised */

  /* per caps, from configure */
  GstVideoInfo info;
  GstVideoInfo out_info;
  gboolean convert;             /* output format != input: process_convert */
  cm_depth out_depth;           /* samples of the converted frame: 8-bit
                                 * colour, 16-bit labels */
  gint out_channels;            /* samples per pixel of the converted frame */
  gsize out_row_bytes;          /* bytes of one row of output plane 0 */
  GstCudaPlaneFilterLayout layout;
  cm_depth depth;
  gint pixel_channels;          /* samples per pixel of plane 0 */
  gint n_colour;
  gint colour_channel[GST_VIDEO_MAX_COMPONENTS];
  gsize row_bytes;              /* bytes of one row of plane 0 */

  /* CPU backend, packed formats: one channel out of the frame and back */
  cm_image host_in;
  cm_image host_out;

  /* CUDA backend */
  cm_image dev_in;              /* the planes the filter runs on */
  cm_image dev_out;
  cm_image_packed dev_packed_in;
  cm_image_packed dev_packed_out;
  guint8 *staging_in;           /* pinned copy of plane 0 */
  guint8 *staging_out;
  gsize staging_pitch;          /* of staging_in */
  gsize staging_out_pitch;
  gboolean download_staged;     /* this frame's output waits in staging_out */
  cm_event order_event;         /* a producer's stream, ordered before ours */
  cm_event time_start;          /* device time of one frame in TIMED_EVERY */
  cm_event time_end;
  gboolean time_pending;        /* time_end recorded, not yet read */
  guint time_counter;
  gboolean regions_timed;       /* this frame's regions are timed */

  /* YUV chroma planes: chroma_scratch (filtered planes: their device
   * scratch and pinned staging) and chroma_neutral (the device's neutral
   * plane) set by the owner before configure, which allocates them;
   * chroma before each frame */
  gboolean chroma_scratch;
  gboolean chroma_neutral;
  GstCudaPlaneFilterChroma chroma;
  guint n_chroma;               /* planes 1 .. n_chroma */
  GstCudaPlaneFilterChromaPlane chroma_planes[GST_VIDEO_MAX_PLANES];
  cm_image_packed dev_neutral;  /* the widest, tallest chroma plane, grey */
} GstCudaPlaneFilterFramePath;

cm_status gst_cuda_plane_filter_frame_path_configure
    (GstCudaPlaneFilterFramePath * fp, const GstVideoInfo * info,
    const GstVideoInfo * out_info);
void gst_cuda_plane_filter_frame_path_clear (GstCudaPlaneFilterFramePath * fp);
void gst_cuda_plane_filter_frame_path_free (GstCudaPlaneFilterFramePath * fp);

gboolean gst_cuda_plane_filter_frame_path_map (GstCudaPlaneFilterFramePath * fp,
    GstCudaPlaneFilterMappedFrame * mf, const GstVideoInfo * info,
    GstBuffer * buf, GstMapFlags flags, GstCudaPlaneFilterFrameStats * st);
void gst_cuda_plane_filter_frame_path_unmap (GstCudaPlaneFilterMappedFrame * mf);

/* One frame around the filter: begin gives the views the filter reads and
 * writes, end moves the result where the output lies (the caller runs the
 * filter between them; the path knows nothing of it). */
cm_status gst_cuda_plane_filter_frame_path_begin
    (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, GstCudaPlaneFilterFrameStats * st,
    GstCudaPlaneFilterViews * v);
cm_status gst_cuda_plane_filter_frame_path_end (GstCudaPlaneFilterFramePath *
    fp, cm_status status, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, const GstCudaPlaneFilterViews * v,
    GstCudaPlaneFilterFrameStats * st, cm_event defer);
cm_status gst_cuda_plane_filter_frame_path_analyse_begin
    (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterFrameStats * st, GstCudaPlaneFilterViews * v);
cm_status gst_cuda_plane_filter_frame_path_analyse_end
    (GstCudaPlaneFilterFramePath * fp, cm_status status,
    const GstCudaPlaneFilterViews * v, cm_event defer);

/* Packed RGB(A) views filtered channel by channel (when the filter does
 * not take the whole frame): alpha first, then each colour channel in and
 * out of the scratch planes. */
cm_image gst_cuda_plane_filter_frame_as_plane (const cm_image_packed * v);
cm_status gst_cuda_plane_filter_frame_path_copy_alpha
    (GstCudaPlaneFilterFramePath * fp, const GstCudaPlaneFilterViews * v);
cm_status gst_cuda_plane_filter_frame_path_channel_in
    (GstCudaPlaneFilterFramePath * fp, const GstCudaPlaneFilterViews * v,
    gint c, cm_image * in, cm_image * out);
cm_status gst_cuda_plane_filter_frame_path_channel_out
    (GstCudaPlaneFilterFramePath * fp, const GstCudaPlaneFilterViews * v,
    gint c, const cm_image * out);

/* Chroma planes filtered by the subclass's filters (CHROMA_FILTER,
 * gstcudaplanefilterchroma.c): between begin and end, for each plane p,
 * chroma_begin gives the views of plane p (@frame: the frame's, from
 * begin), the caller runs that plane's filter, chroma_end moves its
 * result; end then copies nothing of them. */
cm_status gst_cuda_plane_filter_frame_path_chroma_begin
    (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, guint p,
    const GstCudaPlaneFilterViews * frame, GstCudaPlaneFilterViews * v);
cm_status gst_cuda_plane_filter_frame_path_chroma_end
    (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * out,
    guint p, const GstCudaPlaneFilterViews * v);

/* Regions of interest (gstcudaplanefilterregion.c): regions_begin, then
 * per rectangle rect_begin, the filter made for its size, rect_end (or
 * analyse_rect_begin, the filter, analyse_end), then regions_end. */
cm_status gst_cuda_plane_filter_frame_path_regions_begin
    (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, GstCudaPlaneFilterFrameStats * st);
cm_status gst_cuda_plane_filter_frame_path_rect_begin
    (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, const GstVideoRectangle * r,
    GstCudaPlaneFilterFrameStats * st, GstCudaPlaneFilterViews * v);
cm_status gst_cuda_plane_filter_frame_path_rect_end
    (GstCudaPlaneFilterFramePath * fp, cm_status status,
    GstCudaPlaneFilterMappedFrame * out, const GstVideoRectangle * r,
    const GstCudaPlaneFilterViews * v, GstCudaPlaneFilterFrameStats * st);
cm_status gst_cuda_plane_filter_frame_path_regions_end
    (GstCudaPlaneFilterFramePath * fp, cm_status status,
    GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterMappedFrame * out,
    const GstVideoRectangle * rects, guint n,
    GstCudaPlaneFilterFrameStats * st);
cm_status gst_cuda_plane_filter_frame_path_analyse_rect_begin
    (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * in,
    const GstVideoRectangle * r, GstCudaPlaneFilterFrameStats * st,
    GstCudaPlaneFilterViews * v);
cm_status gst_cuda_plane_filter_frame_path_copy (GstCudaPlaneFilterFramePath *
    fp, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out);

/* the statistics (gstcudaplanefilterframemap.c) */
void gst_cuda_plane_filter_frame_stats_add (GstCudaPlaneFilterFrameStats *
    sum, const GstCudaPlaneFilterFrameStats * frame);
void gst_cuda_plane_filter_frame_stats_to_structure (const
    GstCudaPlaneFilterFrameStats * st, GstStructure * s);

G_END_DECLS
