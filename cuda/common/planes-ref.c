/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU interleaved <-> planar channel copies (the twins of planes.cu). */
#include "planes.h"

#include <string.h>

static cm_status
check_args (const cm_image_packed * packed, int channel,
    const cm_image * plane)
{
  int bpp;

  if (!packed || !plane || !packed->data || !plane->data)
    return CM_ERR_INVALID_ARG;
  if (packed->depth != CM_DEPTH_8 && packed->depth != CM_DEPTH_16)
    return CM_ERR_INVALID_ARG;
  if (packed->channels < 1 || packed->channels > 4 || channel < 0 ||
      channel >= packed->channels)
    return CM_ERR_INVALID_ARG;
  if (packed->width < 1 || packed->height < 1 ||
      plane->width != packed->width || plane->height != packed->height ||
      plane->depth != packed->depth)
    return CM_ERR_INVALID_ARG;
  bpp = cm_depth_bytes (packed->depth);
  if (packed->pitch < (size_t) packed->width * packed->channels * bpp ||
      plane->pitch < (size_t) plane->width * bpp)
    return CM_ERR_INVALID_ARG;
  return CM_OK;
}

/* Sample size copies go through memcpy so that odd pitches of 16-bit
 * images never cause unaligned accesses. */
cm_status
cm_extract_channel_ref (const cm_image_packed * src, int channel,
    const cm_image * dst)
{
  cm_status st = check_args (src, channel, dst);
  int bpp, step;

  if (st != CM_OK)
    return st;
  bpp = cm_depth_bytes (src->depth);
  step = src->channels * bpp;
  for (int y = 0; y < src->height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + (size_t) y * src->pitch
        + (size_t) channel * bpp;
    uint8_t *out = (uint8_t *) dst->data + (size_t) y * dst->pitch;

    if (bpp == 1) {
      for (int x = 0; x < src->width; x++)
        out[x] = in[(size_t) x * step];
    } else {
      for (int x = 0; x < src->width; x++)
        memcpy (out + 2 * (size_t) x, in + (size_t) x * step, 2);
    }
  }
  return CM_OK;
}

cm_status
cm_insert_channel_ref (const cm_image * src, int channel,
    const cm_image_packed * dst)
{
  cm_status st = check_args (dst, channel, src);
  int bpp, step;

  if (st != CM_OK)
    return st;
  bpp = cm_depth_bytes (dst->depth);
  step = dst->channels * bpp;
  for (int y = 0; y < dst->height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + (size_t) y * src->pitch;
    uint8_t *out = (uint8_t *) dst->data + (size_t) y * dst->pitch
        + (size_t) channel * bpp;

    if (bpp == 1) {
      for (int x = 0; x < dst->width; x++)
        out[(size_t) x * step] = in[x];
    } else {
      for (int x = 0; x < dst->width; x++)
        memcpy (out + (size_t) x * step, in + 2 * (size_t) x, 2);
    }
  }
  return CM_OK;
}
