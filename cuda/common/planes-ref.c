/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU interleaved <-> planar channel copies (the twins of planes.cu). */
#include "planes.h"

#include <string.h>

int
cm_channel_copy_ok (const cm_image_packed * packed, int channel,
    const cm_image * plane)
{
  return cm_image_packed_ok (packed) && cm_image_ok (plane) &&
      channel >= 0 && channel < packed->channels &&
      plane->width == packed->width && plane->height == packed->height &&
      plane->depth == packed->depth;
}

/* @n samples of @bpp bytes from @in to @out, @in_step and @out_step bytes
 * apart. 16-bit samples go through memcpy so that odd pitches never cause
 * unaligned accesses. */
static void
copy_samples (uint8_t * out, size_t out_step, const uint8_t * in,
    size_t in_step, int n, int bpp)
{
  if (bpp == 1) {
    for (int x = 0; x < n; x++)
      out[(size_t) x * out_step] = in[(size_t) x * in_step];
  } else {
    for (int x = 0; x < n; x++)
      memcpy (out + (size_t) x * out_step, in + (size_t) x * in_step, 2);
  }
}

/* Channel @channel of @packed to @plane (@to_plane) or back */
static cm_status
copy_channel (const cm_image_packed * packed, int channel,
    const cm_image * plane, int to_plane)
{
  int bpp;
  size_t step;

  if (!cm_channel_copy_ok (packed, channel, plane))
    return CM_ERR_INVALID_ARG;
  bpp = cm_depth_bytes (packed->depth);
  step = (size_t) packed->channels * bpp;
  for (int y = 0; y < packed->height; y++) {
    uint8_t *pk = (uint8_t *) packed->data + (size_t) y * packed->pitch
        + (size_t) channel * bpp;
    uint8_t *pl = (uint8_t *) plane->data + (size_t) y * plane->pitch;

    if (to_plane)
      copy_samples (pl, bpp, pk, step, packed->width, bpp);
    else
      copy_samples (pk, step, pl, bpp, packed->width, bpp);
  }
  return CM_OK;
}

cm_status
cm_extract_channel_ref (const cm_image_packed * src, int channel,
    const cm_image * dst)
{
  return copy_channel (src, channel, dst, 1);
}

cm_status
cm_insert_channel_ref (const cm_image * src, int channel,
    const cm_image_packed * dst)
{
  return copy_channel (dst, channel, src, 0);
}
