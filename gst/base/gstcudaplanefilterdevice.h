/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The device of an element: the CUDA device, its stream, and the
 * pipeline's GstCudaContext shared with nvcodec (all device work runs
 * with it pushed). The context is written under the object lock while not
 * started (or by the starting thread), read unlocked by the data path. */
#pragma once

#include <gst/gst.h>

#include "cm-status.h"
#include "cm-backend.h"
#include "device.h"
#include "gstcudaplanefilterenums.h"

G_BEGIN_DECLS

typedef struct
{
  GstElement *element;          /* the owner (not a reference) */
  GstDebugCategory *category;   /* the subclass's, errors logged there */
  cm_backend backend;           /* opened: CM_BACKEND_CUDA when CUDA runs */
  gint device_id;               /* the device in use (-1: the default) */
  cm_stream stream;             /* the element's stream, in the context */
  gpointer gst_stream;          /* GstCudaStream that stream is the handle
                                 * of (GStreamer >= 1.24), or NULL */
  gpointer context;             /* GstCudaContext, or NULL */
  GThread *starting;            /* the thread in open, else NULL */
  gint failed;                  /* a CUDA error in this run (atomic) */
} GstCudaPlaneFilterDevice;

#define GST_CUDA_PLANE_FILTER_DEVICE_DEFAULT_BACKEND \
  GST_CUDA_MORPHOLOGY_BACKEND_AUTO
#define GST_CUDA_PLANE_FILTER_DEVICE_DEFAULT_ID -1

void gst_cuda_plane_filter_device_install_properties (GObjectClass * klass,
    guint prop_backend, guint prop_device_id);

void gst_cuda_plane_filter_device_init (GstCudaPlaneFilterDevice * dev,
    GstElement * element, GstDebugCategory * category);
void gst_cuda_plane_filter_device_post_error (GstCudaPlaneFilterDevice * dev,
    cm_status status, const gchar * what);

void gst_cuda_plane_filter_device_begin_start (GstCudaPlaneFilterDevice * dev);
void gst_cuda_plane_filter_device_end_start (GstCudaPlaneFilterDevice * dev);
gboolean gst_cuda_plane_filter_device_start (GstCudaPlaneFilterDevice * dev,
    gboolean cpu_backend, gboolean cuda_only, gint device_id);
void gst_cuda_plane_filter_device_finish_work (GstCudaPlaneFilterDevice * dev);
cm_status gst_cuda_plane_filter_device_open (GstCudaPlaneFilterDevice * dev,
    gint device_id, gchar ** reason);
void gst_cuda_plane_filter_device_free_stream (GstCudaPlaneFilterDevice * dev);
void gst_cuda_plane_filter_device_end_run (GstCudaPlaneFilterDevice * dev);
void gst_cuda_plane_filter_device_drop_context (GstCudaPlaneFilterDevice * dev);

cm_status gst_cuda_plane_filter_device_enter (GstCudaPlaneFilterDevice * dev,
    gboolean * pushed);
void gst_cuda_plane_filter_device_leave (GstCudaPlaneFilterDevice * dev,
    gboolean pushed);

gboolean gst_cuda_plane_filter_device_can_share (GstCudaPlaneFilterDevice * dev,
    gboolean started, gboolean cpu_backend);
void gst_cuda_plane_filter_device_set_context (GstCudaPlaneFilterDevice * dev,
    GstContext * context, gint device_id, gboolean started);
gboolean gst_cuda_plane_filter_device_query_context (GstCudaPlaneFilterDevice *
    dev, GstQuery * query);

G_END_DECLS
