/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The frame path: one frame of the negotiated caps to the filter and back
 * (maps, uploads and downloads through pinned staging, channel split,
 * chroma and alpha copies, cm_filter_run on the CPU or the element's
 * stream, whole frames or regions). It owns the per-caps buffers and
 * knows nothing of the element. */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include "cm-image.h"
#include "cm-status.h"
#include "device.h"
#include "cm-filter.h"
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

typedef enum
{
  GST_CUDA_PLANE_FILTER_LAYOUT_PLANAR,    /* GRAY, YUV: plane 0 filtered */
  GST_CUDA_PLANE_FILTER_LAYOUT_PACKED     /* RGB(A): colour channels of plane 0 */
} GstCudaPlaneFilterLayout;

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

  /* YUV chroma planes: chroma_scratch set by the owner before configure
   * (their scratch allocated then), chroma before each frame (COPY: as
   * the other planes' filters are absent) */
  gboolean chroma_scratch;
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

cm_status gst_cuda_plane_filter_frame_path_process
    (GstCudaPlaneFilterFramePath * fp, cm_filter * filter,
    cm_filter * const *chroma_filters, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, GstCudaPlaneFilterFrameStats * st,
    cm_event defer);
cm_status gst_cuda_plane_filter_frame_path_analyse
    (GstCudaPlaneFilterFramePath * fp, cm_filter * filter,
    GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterFrameStats * st);

/* Regions of interest (gstcudaplanefilterregion.c): begin, each
 * rectangle with the filter made for its size, end. */
cm_status gst_cuda_plane_filter_frame_path_regions_begin
    (GstCudaPlaneFilterFramePath * fp, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out, GstCudaPlaneFilterFrameStats * st);
cm_status gst_cuda_plane_filter_frame_path_process_rect
    (GstCudaPlaneFilterFramePath * fp, cm_filter * filter,
    GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterMappedFrame * out,
    const GstVideoRectangle * r, GstCudaPlaneFilterFrameStats * st);
cm_status gst_cuda_plane_filter_frame_path_regions_end
    (GstCudaPlaneFilterFramePath * fp, cm_status status,
    GstCudaPlaneFilterMappedFrame * in, GstCudaPlaneFilterMappedFrame * out,
    const GstVideoRectangle * rects, guint n,
    GstCudaPlaneFilterFrameStats * st);
cm_status gst_cuda_plane_filter_frame_path_analyse_region
    (GstCudaPlaneFilterFramePath * fp, cm_filter * filter,
    GstCudaPlaneFilterMappedFrame * in, const GstVideoRectangle * r,
    GstCudaPlaneFilterFrameStats * st);
cm_status gst_cuda_plane_filter_frame_path_copy (GstCudaPlaneFilterFramePath *
    fp, GstCudaPlaneFilterMappedFrame * in,
    GstCudaPlaneFilterMappedFrame * out);

/* the statistics (gstcudaplanefilterframemap.c) */
void gst_cuda_plane_filter_frame_stats_add (GstCudaPlaneFilterFrameStats *
    sum, const GstCudaPlaneFilterFrameStats * frame);
void gst_cuda_plane_filter_frame_stats_to_structure (const
    GstCudaPlaneFilterFrameStats * st, GstStructure * s);

G_END_DECLS
