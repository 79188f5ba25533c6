/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU reference of the orientation colouring (orientation-rgba.h), written
 * as the definition there, and the hue table that the CUDA plan uploads. */
#include "orientation-rgba.h"
#include "cm-sample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

cm_status
cm_orientation_hue_table (const cm_linspectrum_desc * desc, uint16_t * hue,
    int n)
{
  if (!hue || cm_linspectrum_desc_check (desc) != CM_OK ||
      n != cm_linspectrum_count_angles (desc))
    return CM_ERR_INVALID_ARG;

  for (int i = 0; i < n; i++) {
    double a = fmod (2.0 * cm_linspectrum_angle (desc, i), 360.0);
    long h;

    if (a < 0.0)
      a += 360.0;
    h = lround (a * (double) CM_ORIENTATION_HUE_STEPS / 360.0);
    if (h >= CM_ORIENTATION_HUE_STEPS)
      h = 0;
    hue[i] = (uint16_t) h;
  }
  return CM_OK;
}

cm_status
cm_orientation_rgba_ref (const cm_linspectrum_desc * desc,
    const cm_image * sup, const cm_image * orient,
    const cm_image_packed * dst)
{
  uint16_t *hue;
  uint32_t m;
  int n, close;

  if (cm_linspectrum_desc_check (desc) != CM_OK ||
      !cm_orientation_rgba_views_ok (sup, orient, dst))
    return CM_ERR_INVALID_ARG;

  n = cm_linspectrum_count_angles (desc);
  hue = malloc (sizeof (uint16_t) * (size_t) n);
  if (!hue)
    return CM_ERR_NO_MEMORY;
  cm_orientation_hue_table (desc, hue, n);
  close = desc->op == CM_MORPH_CLOSE;
  m = cm_depth_max (sup->depth);

  for (int y = 0; y < sup->height; y++) {
    uint8_t *out = (uint8_t *) dst->data + (size_t) y * dst->pitch;

    for (int x = 0; x < sup->width; x++) {
      uint32_t s = cm_image_sample (sup, x, y);
      uint32_t i = cm_image_sample (orient, x, y);
      uint32_t u = close ? m - s : s;
      uint32_t v = (u * 255u + m / 2u) / m;
      uint32_t rgb[3];

      cm_orientation_rgb (v, hue[i < (uint32_t) n ? i : (uint32_t) n - 1],
          rgb);
      out[4 * x + 0] = (uint8_t) rgb[0];
      out[4 * x + 1] = (uint8_t) rgb[1];
      out[4 * x + 2] = (uint8_t) rgb[2];
      out[4 * x + 3] = 255;
    }
  }
  free (hue);
  return CM_OK;
}
