/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cudamorphology plugin: GPU mathematical morphology.
 *
 * Registering the elements touches no CUDA API (with gstreamer-cuda,
 * plugin_init only tries to load the driver library), so the plugin loads
 * (and gst-inspect-1.0 works) on a machine without an NVIDIA driver; the
 * elements choose their backend when they start. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstcudamorph.h"
#include "gstcudamedian.h"
#include "gstcudalinspectrum.h"
#include "gstcudablobs.h"
#include "gstcudatemporal.h"
#include "base/gstcudaplanefiltermemory.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  /* loads libcuda once when present and keeps the result; without a
   * driver the elements work in system memory only */
  gst_cuda_plane_filter_memory_init ();

  ret |= GST_ELEMENT_REGISTER (cudamorph, plugin);

  ret |= GST_ELEMENT_REGISTER (cudamedian, plugin);

  ret |= GST_ELEMENT_REGISTER (cudalinspectrum, plugin);

  ret |= GST_ELEMENT_REGISTER (cudablobs, plugin);
  ret |= GST_ELEMENT_REGISTER (cudatemporal, plugin);

  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudamorphology,
    "Mathematical morphology on CUDA GPUs, with a CPU reference backend",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
