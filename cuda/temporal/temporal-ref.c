/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU reference of the temporal percentile (temporal.h), written as the
 * definition: per sample, the window's n samples gathered, sorted
 * (insertion sort: n <= 255), the rank k picked. The tests' oracle. */
#include "temporal.h"
#include "cm-rank.h"
#include "cm-sample.h"

#include <stdint.h>

cm_status
cm_temporal_desc_check (const cm_temporal_desc * desc)
{
  if (desc == NULL)
    return CM_ERR_INVALID_ARG;
  if (desc->frames < 1 || desc->frames > CM_TEMPORAL_MAX_FRAMES)
    return CM_ERR_INVALID_ARG;
  /* NaN fails both comparisons */
  if (!(desc->percentile >= 0.0 && desc->percentile <= 100.0))
    return CM_ERR_INVALID_ARG;
  if ((int) desc->output < 0 || (int) desc->output >= CM_TEMPORAL_OUTPUT_COUNT)
    return CM_ERR_INVALID_ARG;
  if (desc->channels < 1 || desc->channels > 4)
    return CM_ERR_INVALID_ARG;
  if (desc->alpha < -1 || desc->alpha >= desc->channels)
    return CM_ERR_INVALID_ARG;
  return CM_OK;
}

int
cm_temporal_rank (const cm_temporal_desc * desc, int n)
{
  if (cm_temporal_desc_check (desc) != CM_OK || n < 1 || n > desc->frames)
    return -1;
  return cm_percentile_rank (desc->percentile, n);
}

size_t
cm_temporal_frame_bytes (int width, int height, cm_depth depth, int channels)
{
  if (!cm_frame_ok (width, height, depth) || channels < 1 || channels > 4)
    return 0;
  return (size_t) width * (size_t) channels * (size_t) cm_depth_bytes (depth)
      * (size_t) height;
}

size_t
cm_temporal_ring_layout (const cm_temporal_desc * desc, int width,
    int height, cm_depth depth, int by_sample, size_t *pitch, size_t *run)
{
  const int bpp = cm_depth_bytes (depth);
  size_t row;

  if (cm_temporal_desc_check (desc) != CM_OK ||
      cm_temporal_frame_bytes (width, height, depth, desc->channels) == 0)
    return 0;
  /* 16-bit: the high bytes' run, then the low bytes' */
  *run = by_sample ? ((size_t) desc->frames + 15) / 16 * 16 * bpp : 0;
  /* by sample: runs in groups of 32 (their words interleaved) */
  row = by_sample ? ((size_t) width * desc->channels + 31) / 32 * 32 * *run :
      (size_t) width * desc->channels * bpp;
  *pitch = (row + 511) / 512 * 512;
  return *pitch * (size_t) height * (by_sample ? 1 : desc->frames);
}

size_t
cm_temporal_plan_ring_bytes (const cm_temporal_desc * desc, int width,
    int height, cm_depth depth)
{
  size_t pitch, run;

  return cm_temporal_ring_layout (desc, width, height, depth, desc != NULL &&
      desc->frames > CM_TEMPORAL_NETWORK_MAX, &pitch, &run);
}

const char *
cm_temporal_output_name (cm_temporal_output output)
{
  switch (output) {
    case CM_TEMPORAL_BACKGROUND:
      return "background";
    case CM_TEMPORAL_DIFFERENCE:
      return "difference";
    default:
      return "unknown";
  }
}

static int
packed_like (const cm_image_packed * a, const cm_image_packed * b)
{
  return a->width == b->width && a->height == b->height &&
      a->depth == b->depth && a->channels == b->channels;
}

static const uint8_t *
row_of (const cm_image_packed * p, int y)
{
  return (const uint8_t *) p->data + (size_t) y * p->pitch;
}

cm_status
cm_temporal_ref (const cm_temporal_desc * desc,
    const cm_image_packed * window, int n, const cm_image_packed * dst)
{
  uint32_t s[CM_TEMPORAL_MAX_FRAMES];
  int k, bpp, samples;

  k = cm_temporal_rank (desc, n);
  if (k < 0 || window == NULL || dst == NULL || !cm_image_packed_ok (dst) ||
      dst->channels != desc->channels)
    return CM_ERR_INVALID_ARG;
  for (int i = 0; i < n; i++)
    if (!cm_image_packed_ok (&window[i]) || !packed_like (&window[i], dst))
      return CM_ERR_INVALID_ARG;
  bpp = cm_depth_bytes (dst->depth);
  samples = dst->width * dst->channels;
  for (int y = 0; y < dst->height; y++) {
    const uint8_t *cur = row_of (&window[n - 1], y);
    uint8_t *out = (uint8_t *) dst->data + (size_t) y * dst->pitch;

    for (int x = 0; x < samples; x++) {
      const uint32_t c = cm_load_sample (cur, x, bpp);
      uint32_t bg;

      if (x % desc->channels == desc->alpha) {
        cm_store_sample (out, x, bpp, c);
        continue;
      }
      /* insertion sort of the window's samples */
      for (int i = 0; i < n; i++) {
        uint32_t v = cm_load_sample (row_of (&window[i], y), x, bpp);
        int j = i;

        for (; j > 0 && s[j - 1] > v; j--)
          s[j] = s[j - 1];
        s[j] = v;
      }
      bg = s[k];
      cm_store_sample (out, x, bpp, desc->output == CM_TEMPORAL_BACKGROUND ?
          bg : (c > bg ? c - bg : bg - c));
    }
  }
  return CM_OK;
}
