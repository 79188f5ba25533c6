/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One sample of a host row or image, for the CPU twins. 16-bit samples are
 * read and written through memcpy: the references accept any pitch,
 * including odd ones, without unaligned accesses. */
#pragma once

#include <stdint.h>
#include <string.h>

#include "cm-image.h"

CM_BEGIN_DECLS

/* sample x of row (bpp bytes a sample: 1 or 2) */
static inline uint32_t
cm_load_sample (const uint8_t * row, int x, int bpp)
{
  uint16_t v;

  if (bpp == 1)
    return row[x];
  memcpy (&v, row + 2 * (size_t) x, 2);
  return v;
}

static inline void
cm_store_sample (uint8_t * row, int x, int bpp, uint32_t v)
{
  uint16_t w = (uint16_t) v;

  if (bpp == 1)
    row[x] = (uint8_t) v;
  else
    memcpy (row + 2 * (size_t) x, &w, 2);
}

/* sample (x, y) of a single-channel image */
static inline uint32_t
cm_image_sample (const cm_image * img, int x, int y)
{
  return cm_load_sample ((const uint8_t *) img->data + (size_t) y *
      img->pitch, x, cm_depth_bytes (img->depth));
}

CM_END_DECLS
