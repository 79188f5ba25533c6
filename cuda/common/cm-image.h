/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Image views (NPP style): the view never owns its pixels. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cm-decls.h"

CM_BEGIN_DECLS

typedef enum
{
  CM_DEPTH_8 = 8,               /* uint8_t samples                          */
  CM_DEPTH_16 = 16              /* uint16_t samples, host byte order        */
} cm_depth;

/* A single-channel (planar) image of width x height samples. Row y starts at
 * (uint8_t *) data + y * pitch. pitch >= width * bytes-per-sample. The same
 * struct describes host and device memory; functions say which they take. */
typedef struct
{
  void *data;
  size_t pitch;                 /* bytes between row starts */
  int width;
  int height;
  cm_depth depth;
} cm_image;

/* Interleaved image with `channels` samples per pixel (4 for RGBA-like
 * formats). Used only to split into / merge from planar cm_images. */
typedef struct
{
  void *data;
  size_t pitch;
  int width;
  int height;
  cm_depth depth;
  int channels;
} cm_image_packed;

static inline int
cm_depth_bytes (cm_depth d)
{
  return d == CM_DEPTH_16 ? 2 : 1;
}

static inline uint32_t
cm_depth_max (cm_depth d)
{
  return d == CM_DEPTH_16 ? 65535u : 255u;
}

/* The frames a plan, a CPU state or a filter is made for: a size of at
 * least 1x1 at depth 8 or 16 */
static inline int
cm_frame_ok (int width, int height, cm_depth depth)
{
  return width >= 1 && height >= 1 &&
      (depth == CM_DEPTH_8 || depth == CM_DEPTH_16);
}

/* A view of pixels: data, a size of at least 1x1, depth 8 or 16 and a
 * pitch that holds a row */
static inline int
cm_image_ok (const cm_image * img)
{
  return img && img->data && cm_frame_ok (img->width, img->height,
      img->depth) &&
      img->pitch >= (size_t) img->width * cm_depth_bytes (img->depth);
}

/* The same of an interleaved view, with 1 to 4 channels */
static inline int
cm_image_packed_ok (const cm_image_packed * img)
{
  return img && img->data && cm_frame_ok (img->width, img->height,
      img->depth) && img->channels >= 1 && img->channels <= 4 &&
      img->pitch >= (size_t) img->width * img->channels *
      cm_depth_bytes (img->depth);
}

/* cm_image_ok, and 16-bit rows 2-byte aligned: what a kernel that reads
 * 16-bit samples whole takes */
static inline int
cm_image_aligned_ok (const cm_image * img)
{
  return cm_image_ok (img) && (img->depth == CM_DEPTH_8 ||
      (((uintptr_t) img->data | (uintptr_t) img->pitch) & 1) == 0);
}

/* The bytes of a view: @height rows of @row_bytes, @pitch apart */
static inline size_t
cm_view_span (size_t pitch, int height, size_t row_bytes)
{
  return (size_t) (height - 1) * pitch + row_bytes;
}

/* Byte ranges [a, a + alen) and [b, b + blen) intersect */
static inline int
cm_ranges_overlap (const void *a, size_t alen, const void *b, size_t blen)
{
  uintptr_t a0 = (uintptr_t) a, b0 = (uintptr_t) b;

  return a0 < b0 + blen && b0 < a0 + alen;
}

/* The bytes of two images intersect */
static inline int
cm_images_overlap (const cm_image * a, const cm_image * b)
{
  return cm_ranges_overlap (a->data, cm_view_span (a->pitch, a->height,
          (size_t) a->width * cm_depth_bytes (a->depth)), b->data,
      cm_view_span (b->pitch, b->height,
          (size_t) b->width * cm_depth_bytes (b->depth)));
}

/* src and dst: images (cm_image_ok) of one size and depth whose bytes do
 * not intersect, what a filter that is not in place takes */
static inline int
cm_image_pair_ok (const cm_image * src, const cm_image * dst)
{
  return cm_image_ok (src) && cm_image_ok (dst) &&
      src->width == dst->width && src->height == dst->height &&
      src->depth == dst->depth && !cm_images_overlap (src, dst);
}

/* *img: a host image of @width x @height and @depth, rows packed
 * (pitch = width samples), from malloc (free img->data); 0 when out of
 * memory */
static inline int
cm_image_host_new (cm_image * img, int width, int height, cm_depth depth)
{
  img->width = width;
  img->height = height;
  img->depth = depth;
  img->pitch = (size_t) width * cm_depth_bytes (depth);
  img->data = malloc (img->pitch * (size_t) height);
  return img->data != NULL;
}

/* r, g, b: distinct channel indices of an interleaved image of ch
 * channels; a: its alpha channel (distinct from them) or -1 */
static inline int
cm_channels_ok (int ch, int r, int g, int b, int a)
{
  if (r < 0 || g < 0 || b < 0 || r >= ch || g >= ch || b >= ch)
    return 0;
  if (r == g || r == b || g == b)
    return 0;
  if (a == -1)
    return 1;
  return a >= 0 && a < ch && a != r && a != g && a != b;
}

CM_END_DECLS
