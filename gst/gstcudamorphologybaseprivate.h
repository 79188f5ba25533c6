/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The base class's state, shared by its two files:
 * gstcudamorphologybase.c (the element: properties, start and stop, caps,
 * the GstBaseTransform methods) and gstcudamorphologybaseframe.c (one
 * frame's way from the buffers to the frame path and back). */
#pragma once

#include "gstcudamorphologybase.h"
#include "gstcudamorphologydevice.h"
#include "gstcudamorphologyfiltercache.h"
#include "gstcudamorphologyframe.h"
#include "gstcudamorphologyoverlap.h"
#include "gstcudamorphologyroi.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_morphology_base_debug);

typedef struct
{
  /* properties, protected by the object lock */
  GstCudaMorphologyBackend backend;
  gint device_id;
  GstCudaMorphologyOverlap overlap_mode;
  GstCudaMorphologyRoi roi;     /* its properties and a frame's regions */

  /* chosen in start (): the device, its stream and context */
  GstCudaMorphologyDevice dev;
  gboolean started;             /* object lock */
  GstCudaMorphologyOverlapState overlap;        /* frames left on the device */
  /* how frames came and left since the start (STATS_QUERY_NAME), object
   * lock */
  GstCudaMorphologyFrameStats stats;
  gint dirty;                   /* mark_dirty (), any thread, atomic */

  /* CPU backend: threads over rows, and a flag (atomic) that stops a
   * running frame on a flush or a stop (unlock) */
  gint cpu_cancel;
  cm_cpu_opts cpu_opts;

  /* per caps, streaming thread */
  gboolean configured;
  GstCudaMorphologyFramePath frames;    /* the negotiated frames' path */
  GstCudaMorphologyFilterOps filter;    /* the subclass, as frames call it */
  gint filter_width, filter_height;     /* the size of the subclass's filter
                                         * in use (0: none valid) */
  GstCudaMorphologyFilterCache filters; /* its filters of other sizes */
  gboolean same_caps;           /* input and output caps equal (set_caps) */
  gboolean in_place;            /* this frame's regions, collected in
                                 * prepare_output_buffer, are filtered in
                                 * the input buffer */
} GstCudaMorphologyBasePrivate;

G_GNUC_INTERNAL GstCudaMorphologyBasePrivate
    * gst_cuda_morphology_base_private (GstCudaMorphologyBase * self);

/* gstcudamorphologybaseframe.c */
G_GNUC_INTERNAL gboolean gst_cuda_morphology_base_enter
    (GstCudaMorphologyBase * self, gboolean * pushed);
G_GNUC_INTERNAL gboolean gst_cuda_morphology_base_resize (gpointer owner,
    gint width, gint height);
G_GNUC_INTERNAL gboolean gst_cuda_morphology_base_build
    (GstCudaMorphologyBase * self, gint width, gint height);
G_GNUC_INTERNAL void gst_cuda_morphology_base_drop_filters
    (GstCudaMorphologyBase * self);
G_GNUC_INTERNAL GstFlowReturn gst_cuda_morphology_base_run_frame
    (GstCudaMorphologyBase * self, GstBuffer * inbuf, GstBuffer * outbuf);

G_END_DECLS
