/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The reference of blobs.h, written as the definition: every foreground
 * pixel not yet in a blob, in raster order, starts a flood fill (explicit
 * stack) that gathers its blob's statistics; then the filters, the
 * largest max_blobs by a sort, and the output image. Also the functions that
 * every backend shares (capacity, results arrays). */
#include <stdlib.h>
#include <string.h>

#include "blobs.h"
#include "blobs-arrays.h"
#include "cm-sample.h"

int
cm_blobs_desc_ok (const cm_blobs_desc * desc)
{
  return desc != NULL && (desc->connectivity == 4 ||
      desc->connectivity == 8) && (desc->output == CM_BLOBS_OUTPUT_NONE ||
      desc->output == CM_BLOBS_OUTPUT_MASK ||
      desc->output == CM_BLOBS_OUTPUT_LABELS) && desc->result_slots >= 0 &&
      desc->result_slots <= CM_BLOBS_MAX_RESULT_SLOTS;
}

uint32_t
cm_blobs_capacity (const cm_blobs_desc * desc, int width, int height)
{
  uint64_t most;

  if (desc->connectivity == 4)
    most = ((uint64_t) width * (uint64_t) height + 1) / 2;
  else
    most = (uint64_t) ((width + 1) / 2) * (uint64_t) ((height + 1) / 2);
  if (desc->max_blobs != 0 && desc->max_blobs < most)
    return desc->max_blobs;
  return most > UINT32_MAX ? UINT32_MAX : (uint32_t) most;
}

cm_depth
cm_blobs_output_depth (const cm_blobs_desc * desc, cm_depth depth)
{
  return desc->output == CM_BLOBS_OUTPUT_LABELS ? CM_DEPTH_16 : depth;
}

size_t
cm_blobs_arrays_bytes (size_t n)
{
  return n * (6 * sizeof (uint32_t) + sizeof (uint64_t) + 3 * sizeof (double));
}

void
cm_blobs_arrays_place (cm_blobs_results * res, void *block, size_t n)
{
  res->area = (uint64_t *) block;
  res->cx = (double *) (res->area + n);
  res->cy = res->cx + n;
  res->mean = res->cy + n;
  res->x = (uint32_t *) (res->mean + n);
  res->y = res->x + n;
  res->width = res->y + n;
  res->height = res->width + n;
  res->min = res->height + n;
  res->max = res->min + n;
}

cm_status
cm_blobs_results_alloc (cm_blobs_results * res, uint32_t capacity)
{
  void *p;
  size_t n = capacity ? capacity : 1;

  memset (res, 0, sizeof (*res));
  p = malloc (cm_blobs_arrays_bytes (n));
  if (p == NULL)
    return CM_ERR_NO_MEMORY;
  cm_blobs_arrays_place (res, p, n);
  return CM_OK;
}

void
cm_blobs_results_free (cm_blobs_results * res)
{
  if (res == NULL)
    return;
  free (res->area);
  memset (res, 0, sizeof (*res));
}

/* ---- the reference ------------------------------------------------------ */

typedef struct
{
  uint64_t area, sum_x, sum_y, sum_v;
  uint32_t x0, y0, x1, y1;      /* bounding box, inclusive */
  uint32_t vmin, vmax;
  int passes;
  uint32_t number;              /* 1, 2 ... among the passing blobs */
} ref_blob;

static int
is_foreground (const cm_blobs_desc * d, uint32_t threshold, uint32_t v)
{
  return d->invert ? v < threshold : v >= threshold;
}

/* The blob of (x0, y0) into *b, its pixels labelled @id in @label */
static void
flood_fill (const cm_blobs_desc * d, uint32_t threshold, const cm_image * src,
    int32_t * label, int32_t id, int x0, int y0, uint32_t * stack,
    ref_blob * b)
{
  const int w = src->width, h = src->height;
  size_t top = 0;

  memset (b, 0, sizeof (*b));
  b->x0 = b->x1 = (uint32_t) x0;
  b->y0 = b->y1 = (uint32_t) y0;
  b->vmin = UINT32_MAX;
  label[(size_t) y0 * w + x0] = id;
  stack[top++] = (uint32_t) ((size_t) y0 * w + x0);
  while (top > 0) {
    const uint32_t p = stack[--top];
    const int x = (int) (p % (uint32_t) w), y = (int) (p / (uint32_t) w);
    const uint32_t v = cm_image_sample (src, x, y);

    b->area++;
    b->sum_x += (uint64_t) x;
    b->sum_y += (uint64_t) y;
    b->sum_v += v;
    if ((uint32_t) x < b->x0)
      b->x0 = (uint32_t) x;
    if ((uint32_t) x > b->x1)
      b->x1 = (uint32_t) x;
    if ((uint32_t) y < b->y0)
      b->y0 = (uint32_t) y;
    if ((uint32_t) y > b->y1)
      b->y1 = (uint32_t) y;
    if (v < b->vmin)
      b->vmin = v;
    if (v > b->vmax)
      b->vmax = v;
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        const int nx = x + dx, ny = y + dy;
        size_t q;

        if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= h)
          continue;
        if (d->connectivity == 4 && dx != 0 && dy != 0)
          continue;
        q = (size_t) ny * w + nx;
        if (label[q] == 0 && is_foreground (d, threshold,
                cm_image_sample (src, nx, ny))) {
          label[q] = id;
          stack[top++] = (uint32_t) q;
        }
      }
  }
}

static const ref_blob *sort_blobs;

/* larger area first, then the earlier blob */
static int
by_area_then_order (const void *a, const void *b)
{
  const uint32_t i = *(const uint32_t *) a, j = *(const uint32_t *) b;

  if (sort_blobs[i].area != sort_blobs[j].area)
    return sort_blobs[i].area > sort_blobs[j].area ? -1 : 1;
  return i < j ? -1 : i > j;
}

static int
by_order (const void *a, const void *b)
{
  const uint32_t i = *(const uint32_t *) a, j = *(const uint32_t *) b;

  return i < j ? -1 : i > j;
}

cm_status
cm_blobs_ref (const cm_blobs_desc * desc, const cm_image * src,
    const cm_image * dst, cm_blobs_results * res)
{
  const uint32_t maxv = src ? cm_depth_max (src->depth) : 0;
  uint32_t threshold, nblobs = 0, total = 0, count, *stack, *pick;
  uint64_t min_area;
  int32_t *label;
  ref_blob *blobs;
  size_t npix;
  int w, h;

  if (!cm_blobs_desc_ok (desc) || !cm_image_ok (src) || res == NULL)
    return CM_ERR_INVALID_ARG;
  if (desc->output != CM_BLOBS_OUTPUT_NONE && (!cm_image_ok (dst) ||
          dst->width != src->width || dst->height != src->height ||
          dst->depth != cm_blobs_output_depth (desc, src->depth) ||
          cm_images_overlap (src, dst)))
    return CM_ERR_INVALID_ARG;
  w = src->width;
  h = src->height;
  npix = (size_t) w * h;
  if (npix > INT32_MAX)
    return CM_ERR_UNSUPPORTED;
  threshold = desc->threshold > maxv ? maxv : desc->threshold;
  min_area = desc->min_area ? desc->min_area : 1;

  label = calloc (npix, sizeof (*label));
  stack = malloc (npix * sizeof (*stack));
  blobs = malloc ((npix / 2 + 1) * sizeof (*blobs));
  pick = malloc ((npix / 2 + 1) * sizeof (*pick));
  if (!label || !stack || !blobs || !pick) {
    free (label);
    free (stack);
    free (blobs);
    free (pick);
    return CM_ERR_NO_MEMORY;
  }

  res->foreground = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      if (!is_foreground (desc, threshold, cm_image_sample (src, x, y)))
        continue;
      res->foreground++;
      if (label[(size_t) y * w + x] == 0) {
        flood_fill (desc, threshold, src, label, (int32_t) nblobs + 1, x, y,
            stack, &blobs[nblobs]);
        nblobs++;
      }
    }

  /* the filters, and the passing blobs' numbers */
  for (uint32_t i = 0; i < nblobs; i++) {
    ref_blob *b = &blobs[i];

    b->passes = b->area >= min_area &&
        (desc->max_area == 0 || b->area <= desc->max_area) &&
        !(desc->exclude_border && (b->x0 == 0 || b->y0 == 0 ||
            b->x1 == (uint32_t) w - 1 || b->y1 == (uint32_t) h - 1));
    if (b->passes) {
      b->number = total + 1;
      pick[total++] = i;
    }
  }

  /* the largest max_blobs, back in the order */
  count = total;
  if (desc->max_blobs != 0 && total > desc->max_blobs) {
    sort_blobs = blobs;
    qsort (pick, total, sizeof (*pick), by_area_then_order);
    count = desc->max_blobs;
    qsort (pick, count, sizeof (*pick), by_order);
  }
  res->total = total;
  res->count = count;
  res->labels_saturated = desc->output == CM_BLOBS_OUTPUT_LABELS &&
      total > 65535;
  for (uint32_t k = 0; k < count; k++) {
    const ref_blob *b = &blobs[pick[k]];

    res->x[k] = b->x0;
    res->y[k] = b->y0;
    res->width[k] = b->x1 - b->x0 + 1;
    res->height[k] = b->y1 - b->y0 + 1;
    res->area[k] = b->area;
    res->cx[k] = (double) b->sum_x / (double) b->area;
    res->cy[k] = (double) b->sum_y / (double) b->area;
    res->min[k] = b->vmin;
    res->max[k] = b->vmax;
    res->mean[k] = (double) b->sum_v / (double) b->area;
  }

  if (desc->output != CM_BLOBS_OUTPUT_NONE) {
    const int bpp = cm_depth_bytes (dst->depth);

    for (int y = 0; y < h; y++) {
      uint8_t *row = (uint8_t *) dst->data + (size_t) y * dst->pitch;

      for (int x = 0; x < w; x++) {
        const int32_t id = label[(size_t) y * w + x];
        uint32_t v = 0;

        if (id != 0 && blobs[id - 1].passes)
          v = desc->output == CM_BLOBS_OUTPUT_MASK ?
              cm_depth_max (dst->depth) :
              (blobs[id - 1].number > 65535 ? 65535 : blobs[id - 1].number);
        cm_store_sample (row, x, bpp, v);
      }
    }
  }
  free (label);
  free (stack);
  free (blobs);
  free (pick);
  return CM_OK;
}
