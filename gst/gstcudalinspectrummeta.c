/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The metas cudalinspectrum attaches to its output buffers
 * (gstcudalinspectrummeta.h): the custom meta and, with GStreamer >= 1.24,
 * the analytics entry. What goes in them is gstcudalinspectrumoutput.c's. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/video/video.h>

#include "gstcudalinspectrummeta.h"
#include "gstcudalinspectrumenums.h"
#include "base/gstcudaplanefilterenums.h"

/**
 * gst_cuda_lin_spectrum_meta_get_info:
 *
 * Registers the custom meta "GstCudaLinSpectrumMeta" (once per process:
 * when another copy of this code registered it first, its registration is
 * used). Tags: the result depends on the picture and on its orientation
 * (an element that rotates or flips frames drops it). Without a transform
 * function, copies of the buffer copy it and other transformations
 * (scaling) drop it.
 *
 * Returns: (transfer none): the meta's info
 */
const GstMetaInfo *
gst_cuda_lin_spectrum_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const gchar *tags[] = { GST_META_TAG_VIDEO_STR,
      GST_META_TAG_VIDEO_ORIENTATION_STR, NULL
    };
    const GstMetaInfo *i = gst_meta_get_info (GST_CUDA_LIN_SPECTRUM_META_NAME);

    if (i == NULL)
      i = gst_meta_register_custom (GST_CUDA_LIN_SPECTRUM_META_NAME, tags,
          NULL, NULL, NULL);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) i);
  }
  return info;
}

/**
 * gst_cuda_lin_spectrum_meta_add:
 * @buffer: a writable buffer
 *
 * Returns: (transfer none) (nullable): the structure of a new
 * "GstCudaLinSpectrumMeta" of @buffer, empty, to be filled
 */
GstStructure *
gst_cuda_lin_spectrum_meta_add (GstBuffer * buffer)
{
  const GstMetaInfo *info = gst_cuda_lin_spectrum_meta_get_info ();
  GstCustomMeta *meta;

  g_return_val_if_fail (gst_buffer_is_writable (buffer), NULL);
  if (info == NULL)
    return NULL;
  meta = (GstCustomMeta *) gst_buffer_add_meta (buffer, info, NULL);
  return meta ? gst_custom_meta_get_structure (meta) : NULL;
}

#ifdef HAVE_GST_ANALYTICS

/* Its data is plain values: the relation meta's copy (memcpy) is the
 * whole transformation, and scaling keeps it (no coordinates in it). */
static const GstAnalyticsMtdImpl spectrum_mtd_impl = {
  .name = GST_CUDA_LIN_SPECTRUM_MTD_NAME,
};

/**
 * gst_cuda_lin_spectrum_mtd_add:
 * @meta: a buffer's #GstAnalyticsRelationMeta
 * @n_angles: the number of orientations
 * @mtd: (out caller-allocates): the new entry
 * @data: (out) (transfer none): its data, n_angles set, to be filled
 *
 * Returns: %FALSE when the relation meta could not take it
 */
gboolean
gst_cuda_lin_spectrum_mtd_add (GstAnalyticsRelationMeta * meta,
    guint n_angles, GstAnalyticsMtd * mtd, GstCudaLinSpectrumMtdData ** data)
{
  gsize size = sizeof (GstCudaLinSpectrumMtdData) +
      2 * (gsize) n_angles * sizeof (gdouble);
  GstCudaLinSpectrumMtdData *d;

  mtd->meta = NULL;
  d = gst_analytics_relation_meta_add_mtd (meta, &spectrum_mtd_impl, size,
      mtd);
  /* on failure (no room) the library returns an offset from NULL and
   * leaves @mtd as it was */
  if (d == NULL || mtd->meta != meta)
    return FALSE;
  memset (d, 0, sizeof (*d));
  d->n_angles = n_angles;
  *data = d;
  return TRUE;
}

#endif /* HAVE_GST_ANALYTICS */

/* ---- the GEnums (gstcudalinspectrumenums.h) ---- */


/* numbered from 0, as GStreamer's own enums are (a binding that sets 0
 * gets the default); the element maps them to the core's cm_morph_op */
GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_lin_spectrum_operation,
    GstCudaLinSpectrumOperation,
    {GST_CUDA_LIN_SPECTRUM_OPERATION_OPEN,
        "Openings by lines: bright linear structures", "open"},
    {GST_CUDA_LIN_SPECTRUM_OPERATION_CLOSE,
        "Closings by lines: dark linear structures", "close"});

GST_CUDA_MORPHOLOGY_DEFINE_ENUM_TYPE (gst_cuda_lin_spectrum_output,
    GstCudaLinSpectrumOutput,
    {GST_CUDA_LIN_SPECTRUM_OUTPUT_PASSTHROUGH,
        "Frames unchanged, results in messages only", "passthrough"},
    {GST_CUDA_LIN_SPECTRUM_OUTPUT_SUPREMUM,
        "Luma replaced by the supremum of the openings (infimum of the "
          "closings)", "supremum"},
    {GST_CUDA_LIN_SPECTRUM_OUTPUT_ORIENTATION,
        "RGBA orientation map: hue = orientation, brightness = strength",
          "orientation"});
