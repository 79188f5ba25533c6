/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudalinspectrum's result on the buffers it pushes, for applications
 * that take frames from an appsink (or a pad probe) rather than messages
 * from the bus:
 *
 * - always: a custom meta (gst_meta_register_custom ()) named
 *   "GstCudaLinSpectrumMeta". Its structure has the fields of the element
 *   message (gstcudalinspectrum.c, "Messages"), except that "angles" and
 *   "spectrum" are G_TYPE_BYTES: the values as IEEE doubles in the
 *   machine's byte order. PyGObject reads a GBytes without GStreamer's
 *   Python overrides (it cannot read a GstValueArray), and GStreamer
 *   serialises one (base64).
 * - with GStreamer >= 1.24 (HAVE_GST_ANALYTICS): an entry of the buffer's
 *   GstAnalyticsRelationMeta of the type named "cudalinspectrum-spectrum"
 *   holding a GstCudaLinSpectrumMtdData.
 *
 * The plugin exports no library, so the readers of the analytics entry are
 * static inline functions here: an application includes this header
 * (copied, or from the source tree) and needs only GStreamer and
 * gstreamer-analytics-1.0. An entry is recognised by the name of its type,
 * not by its address, which is the plugin's own. The custom meta needs no
 * code of ours: gst_buffer_get_custom_meta () and the structure's getters.
 */
#pragma once

#include <gst/gst.h>

#ifdef HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

G_BEGIN_DECLS

/* the name of the custom meta (its structure has the same name) */
#define GST_CUDA_LIN_SPECTRUM_META_NAME "GstCudaLinSpectrumMeta"

/* the element's side: registers the custom meta once per process and
 * adds one to a writable buffer, returning its (empty, writable)
 * structure */
const GstMetaInfo *gst_cuda_lin_spectrum_meta_get_info (void);
GstStructure *gst_cuda_lin_spectrum_meta_add (GstBuffer * buffer);

#ifdef HAVE_GST_ANALYTICS

/* the name of the analytics entry's type */
#define GST_CUDA_LIN_SPECTRUM_MTD_NAME "cudalinspectrum-spectrum"

/**
 * GstCudaLinSpectrumMtdData:
 * @dominant_angle: the message's dominant-angle, degrees
 * @dominant_value: its dominant-value (spectrum units)
 * @length: the segment length in pixels
 * @closing: 1 for closings, 0 for openings (the message's operation)
 * @n_angles: the number of orientations
 * @values: @n_angles angles in degrees, then the @n_angles spectrum values
 *     (the mean of the opened or closed plane, as in the message)
 *
 * The data of a "cudalinspectrum-spectrum" entry of a
 * #GstAnalyticsRelationMeta. Copies of the buffer copy it byte for byte.
 */
typedef struct
{
  gdouble dominant_angle;
  gdouble dominant_value;
  guint32 length;
  guint32 closing;
  guint32 n_angles;
  guint32 reserved;
  gdouble values[];
} GstCudaLinSpectrumMtdData;

/* the element's side: adds an entry to @meta and gives its data, with
 * n_angles set and room for the values, in *@data */
gboolean gst_cuda_lin_spectrum_mtd_add (GstAnalyticsRelationMeta * meta,
    guint n_angles, GstAnalyticsMtd * mtd, GstCudaLinSpectrumMtdData ** data);

/**
 * gst_cuda_lin_spectrum_mtd_get_data:
 * @mtd: an entry of a #GstAnalyticsRelationMeta
 *
 * Returns: (nullable) (transfer none): the data of @mtd when it is a
 * "cudalinspectrum-spectrum" entry of a consistent size, else %NULL
 */
static inline const GstCudaLinSpectrumMtdData *
gst_cuda_lin_spectrum_mtd_get_data (GstAnalyticsMtd * mtd)
{
  const GstCudaLinSpectrumMtdData *d;
  GstAnalyticsMtdType type;
  gsize size;

  if (mtd == NULL || mtd->meta == NULL)
    return NULL;
  type = gst_analytics_mtd_get_mtd_type (mtd);
  if (type == GST_ANALYTICS_MTD_TYPE_ANY ||
      g_strcmp0 (gst_analytics_mtd_type_get_name (type),
          GST_CUDA_LIN_SPECTRUM_MTD_NAME) != 0)
    return NULL;
  size = gst_analytics_mtd_get_size (mtd);
  d = (const GstCudaLinSpectrumMtdData *)
      gst_analytics_relation_meta_get_mtd_data (mtd->meta, mtd->id);
  if (d == NULL || size < sizeof (GstCudaLinSpectrumMtdData) ||
      size < sizeof (GstCudaLinSpectrumMtdData) +
      2 * (gsize) d->n_angles * sizeof (gdouble))
    return NULL;
  return d;
}

/**
 * gst_cuda_lin_spectrum_mtd_find:
 * @meta: a buffer's #GstAnalyticsRelationMeta
 * @mtd: (out caller-allocates): the entry found
 *
 * The first "cudalinspectrum-spectrum" entry of @meta (one per
 * cudalinspectrum element the buffer went through, in their order).
 *
 * Returns: %TRUE when there is one
 */
static inline gboolean
gst_cuda_lin_spectrum_mtd_find (GstAnalyticsRelationMeta * meta,
    GstAnalyticsMtd * mtd)
{
  gpointer state = NULL;

  while (meta != NULL && gst_analytics_relation_meta_iterate (meta, &state,
          GST_ANALYTICS_MTD_TYPE_ANY, mtd)) {
    if (gst_cuda_lin_spectrum_mtd_get_data (mtd) != NULL)
      return TRUE;
  }
  return FALSE;
}

/**
 * gst_cuda_lin_spectrum_mtd_get_dominant:
 * @mtd: a "cudalinspectrum-spectrum" entry
 * @angle: (out) (optional): the dominant orientation, degrees
 * @value: (out) (optional): the spectrum there
 *
 * Returns: %FALSE when @mtd is not such an entry
 */
static inline gboolean
gst_cuda_lin_spectrum_mtd_get_dominant (GstAnalyticsMtd * mtd,
    gdouble * angle, gdouble * value)
{
  const GstCudaLinSpectrumMtdData *d = gst_cuda_lin_spectrum_mtd_get_data
      (mtd);

  if (d == NULL)
    return FALSE;
  if (angle)
    *angle = d->dominant_angle;
  if (value)
    *value = d->dominant_value;
  return TRUE;
}

/**
 * gst_cuda_lin_spectrum_mtd_get_spectrum:
 * @mtd: a "cudalinspectrum-spectrum" entry
 * @n_angles: (out): the number of orientations
 * @angles: (out) (optional) (transfer none): the orientations, degrees
 * @spectrum: (out) (optional) (transfer none): the spectrum values
 *
 * The arrays live as long as the buffer's meta.
 *
 * Returns: %FALSE when @mtd is not such an entry
 */
static inline gboolean
gst_cuda_lin_spectrum_mtd_get_spectrum (GstAnalyticsMtd * mtd,
    guint * n_angles, const gdouble ** angles, const gdouble ** spectrum)
{
  const GstCudaLinSpectrumMtdData *d = gst_cuda_lin_spectrum_mtd_get_data
      (mtd);

  if (d == NULL)
    return FALSE;
  *n_angles = d->n_angles;
  if (angles)
    *angles = d->values;
  if (spectrum)
    *spectrum = d->values + d->n_angles;
  return TRUE;
}

/**
 * gst_cuda_lin_spectrum_mtd_get_params:
 * @mtd: a "cudalinspectrum-spectrum" entry
 * @length: (out) (optional): the segment length in pixels
 * @closing: (out) (optional): %TRUE for closings, %FALSE for openings
 *
 * Returns: %FALSE when @mtd is not such an entry
 */
static inline gboolean
gst_cuda_lin_spectrum_mtd_get_params (GstAnalyticsMtd * mtd, guint * length,
    gboolean * closing)
{
  const GstCudaLinSpectrumMtdData *d = gst_cuda_lin_spectrum_mtd_get_data
      (mtd);

  if (d == NULL)
    return FALSE;
  if (length)
    *length = d->length;
  if (closing)
    *closing = d->closing != 0;
  return TRUE;
}

#endif /* HAVE_GST_ANALYTICS */

G_END_DECLS
