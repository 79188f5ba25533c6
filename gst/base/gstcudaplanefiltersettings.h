/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Properties kept in a settings struct: set and get by a table of fields,
 * and controlled properties synced before each buffer. */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

/* The flags of the elements' properties: all may change while PLAYING;
 * the controllable ones are per-frame settings that a GstController
 * binding may drive (values taken at each buffer's stream time,
 * gst_cuda_plane_filter_before_transform()). */
#define GST_CUDA_PLANE_FILTER_PARAM_FLAGS \
  (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING)
#define GST_CUDA_PLANE_FILTER_CONTROLLABLE_FLAGS \
  (GST_CUDA_PLANE_FILTER_PARAM_FLAGS | GST_PARAM_CONTROLLABLE)

/**
 * GstCudaPlaneFilterField:
 * @prop_id: a property of the element
 * @offset: where its value is kept in the element's settings struct
 *     (G_STRUCT_OFFSET)
 *
 * A property kept in a field of the type of its value: gint, guint,
 * gboolean, gdouble (brought into the spec's range), an enum or a string
 * (gchar *, owned). A property listed twice sets both fields and reads
 * back the first. See gst_cuda_plane_filter_settings_set().
 */
typedef struct
{
  guint prop_id;
  gsize offset;
} GstCudaPlaneFilterField;

gdouble gst_cuda_plane_filter_double_in_range (const GValue * value,
    GParamSpec * pspec);

gboolean gst_cuda_plane_filter_connectivity_ok (GstElement * element,
    const GValue * value);
gboolean gst_cuda_plane_filter_percentile_ok (GstElement * element,
    const GValue * value, GParamSpec * pspec);

void gst_cuda_plane_filter_settings_init (GObject * object,
    gpointer settings, const GstCudaPlaneFilterField * fields,
    guint n_fields);

gboolean gst_cuda_plane_filter_settings_set (GObject * object,
    gpointer settings, const GstCudaPlaneFilterField * fields,
    guint n_fields, guint prop_id, const GValue * value, GParamSpec * pspec);

void gst_cuda_plane_filter_settings_get (GObject * object,
    gconstpointer settings, const GstCudaPlaneFilterField * fields,
    guint n_fields, guint prop_id, GValue * value, GParamSpec * pspec);

void gst_cuda_plane_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer);

G_END_DECLS
