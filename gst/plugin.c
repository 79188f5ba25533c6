/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cudamorphology plugin: GPU mathematical morphology.
 *
 * Registering the elements touches no CUDA API, so the plugin loads (and
 * gst-inspect-1.0 works) on a machine without an NVIDIA driver; the
 * elements choose their backend when they start. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstcudamorph.h"
#include "gstcudamedian.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  ret |= GST_ELEMENT_REGISTER (cudamorph, plugin);

  ret |= GST_ELEMENT_REGISTER (cudamedian, plugin);

  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudamorphology,
    "Mathematical morphology on CUDA GPUs, with a CPU reference backend",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
