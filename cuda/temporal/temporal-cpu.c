/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU backend of the temporal percentile (temporal-cpu.h).
 *
 * The rank-k sample v* of a window is the largest t with fewer than k + 1
 * samples below t; its bits are found from the top: with the bits above b
 * known (prefix p), t = p | 1 << b is kept when count (samples < t) <= k.
 * Each test is one pass of compares over the window's rows, CHUNK samples
 * at a time, counts in the samples' own width (a window holds at most 255
 * samples): loops of fixed length that the compiler turns into vector
 * compares and subtractions. Ring rows are padded to whole chunks (zeroed
 * once), so no chunk has a tail. */
#include "temporal-cpu.h"
#include "cm-rank.h"
#include "cpu-bands.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the hot loops built for AVX-512, AVX2 and the baseline, picked at load
 * time */
#include "cm-cpu-clones.h"

#define CHUNK 64

struct cm_temporal_cpu
{
  cm_temporal_desc desc;
  int width, height, samples;   /* samples a row: width x channels */
  cm_depth depth;
  cm_cpu_opts opts;
  size_t row_bytes;             /* a ring row: samples rounded up to CHUNK */
  uint8_t *ring;                /* frames x height rows of row_bytes     */
  int pos;                      /* the slot of the next push             */
  int seen;                     /* frames pushed since the reset, <= frames */
  int window;                   /* n of the last push                    */
};

static size_t
ring_row_bytes (int samples, cm_depth depth)
{
  return (((size_t) samples + CHUNK - 1) / CHUNK) * CHUNK *
      cm_depth_bytes (depth);
}

size_t
cm_temporal_cpu_ring_bytes (const cm_temporal_desc * desc, int width,
    int height, cm_depth depth)
{
  if (cm_temporal_desc_check (desc) != CM_OK ||
      cm_temporal_frame_bytes (width, height, depth, desc->channels) == 0)
    return 0;
  return ring_row_bytes (width * desc->channels, depth) * (size_t) height *
      (size_t) desc->frames;
}

/* Whether @bytes fit in the machine's memory. Where memory is overcommitted
 * a calloc far beyond it succeeds, and the first frames' writes bring in
 * the OOM killer instead of the element's error. */
static int
fits_in_memory (size_t bytes)
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  const long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);

  if (pages > 0 && page > 0)
    return bytes / (size_t) page <= (size_t) pages;
#endif
  return 1;
}

cm_status
cm_temporal_cpu_new (cm_temporal_cpu ** out, const cm_temporal_desc * desc,
    int width, int height, cm_depth depth, const cm_cpu_opts * opts)
{
  size_t bytes = cm_temporal_cpu_ring_bytes (desc, width, height, depth);
  cm_temporal_cpu *p;

  if (out == NULL)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (bytes == 0 || (size_t) width * desc->channels > INT32_MAX)
    return CM_ERR_INVALID_ARG;
  if (!fits_in_memory (bytes))
    return CM_ERR_NO_MEMORY;
  p = calloc (1, sizeof (*p));
  if (p == NULL)
    return CM_ERR_NO_MEMORY;
  p->desc = *desc;
  p->width = width;
  p->height = height;
  p->samples = width * desc->channels;
  p->depth = depth;
  if (opts != NULL)
    p->opts = *opts;
  p->row_bytes = ring_row_bytes (p->samples, depth);
  /* zeroed: the padding of each row is read (and its result dropped) */
  p->ring = calloc (1, bytes);
  if (p->ring == NULL) {
    free (p);
    return CM_ERR_NO_MEMORY;
  }
  *out = p;
  return CM_OK;
}

void
cm_temporal_cpu_free (cm_temporal_cpu * p)
{
  if (p == NULL)
    return;
  free (p->ring);
  free (p);
}

void
cm_temporal_cpu_reset (cm_temporal_cpu * p)
{
  p->pos = 0;
  p->seen = 0;
  p->window = 0;
}

int
cm_temporal_cpu_window (const cm_temporal_cpu * p)
{
  return p->window;
}

cm_status
cm_temporal_cpu_set_rank (cm_temporal_cpu * p, double percentile,
    cm_temporal_output output)
{
  cm_temporal_desc d = p->desc;

  d.percentile = percentile;
  d.output = output;
  if (cm_temporal_desc_check (&d) != CM_OK)
    return CM_ERR_INVALID_ARG;
  p->desc = d;
  return CM_OK;
}

/* ---- the rank of a chunk ----------------------------------------------- */

/* out[x] = the rank-k sample of rows[0..n)[x], x < CHUNK, for samples of
 * type T with BITS bits; the counts in T too (a window holds at most 255
 * samples). One definition per depth, so that each keeps its own vector
 * width. */
#define DEFINE_RANK_CHUNK(name, T, BITS) \
CM_CPU_CLONES static void \
name (const T *const *rows, int n, int k, T * out) \
{ \
  T p[CHUNK], t[CHUNK], c[CHUNK]; \
  const T kk = (T) k; \
\
  memset (p, 0, sizeof (p)); \
  for (int b = BITS - 1; b >= 0; b--) { \
    for (int x = 0; x < CHUNK; x++) { \
      t[x] = p[x] | (T) (1u << b); \
      c[x] = 0; \
    } \
    for (int j = 0; j < n; j++) { \
      const T *r = rows[j]; \
\
      for (int x = 0; x < CHUNK; x++) \
        c[x] += r[x] < t[x]; \
    } \
    for (int x = 0; x < CHUNK; x++) \
      p[x] = c[x] <= kk ? t[x] : p[x]; \
  } \
  memcpy (out, p, sizeof (p)); \
}

DEFINE_RANK_CHUNK (rank_chunk8, uint8_t, 8)
DEFINE_RANK_CHUNK (rank_chunk16, uint16_t, 16)

/* ---- a push ------------------------------------------------------------ */

typedef struct
{
  const cm_temporal_cpu *p;
  const cm_image_packed *src, *dst;
  int n, k, pos;
} push_job;

static uint8_t *
ring_row (const cm_temporal_cpu * p, int slot, int y)
{
  return p->ring + ((size_t) slot * p->height + y) * p->row_bytes;
}

/* Row y's output from its ring rows; the current frame's row is already
 * in slot j->pos */
static void
output_row (const push_job * j, int y)
{
  const cm_temporal_cpu *p = j->p;
  const int bpp = cm_depth_bytes (p->depth), ch = p->desc.channels;
  const int alpha = p->desc.alpha;
  const int diff = p->desc.output == CM_TEMPORAL_DIFFERENCE;
  const uint8_t *rows[CM_TEMPORAL_MAX_FRAMES];
  const uint8_t *cur = ring_row (p, j->pos, y);
  uint8_t *out = (uint8_t *) j->dst->data + (size_t) y * j->dst->pitch;
  uint16_t bg[CHUNK];           /* 8-bit chunks use its first bytes */

  for (int s = 0; s < j->n; s++)
    rows[s] = ring_row (p, s, y);
  for (int x0 = 0; x0 < p->samples; x0 += CHUNK) {
    const int len = p->samples - x0 < CHUNK ? p->samples - x0 : CHUNK;

    if (bpp == 1)
      rank_chunk8 (rows, j->n, j->k, (uint8_t *) bg);
    else
      rank_chunk16 ((const uint16_t * const *) rows, j->n, j->k, bg);
    for (int x = 0; x < len; x++) {
      const int s = x0 + x;
      uint32_t c, b, v;

      if (bpp == 1) {
        c = cur[s];
        b = ((const uint8_t *) bg)[x];
      } else {
        c = ((const uint16_t *) cur)[s];
        b = bg[x];
      }
      v = s % ch == alpha ? c : !diff ? b : c > b ? c - b : b - c;
      if (bpp == 1)
        out[s] = (uint8_t) v;
      else
        memcpy (out + 2 * (size_t) s, &(uint16_t) { (uint16_t) v }, 2);
    }
    for (int s = 0; s < j->n; s++)
      rows[s] += CHUNK * bpp;
  }
}

static cm_status
push_band (void *data, int band, int y0, int y1)
{
  const push_job *j = data;
  const cm_temporal_cpu *p = j->p;
  const size_t bytes = (size_t) p->samples * cm_depth_bytes (p->depth);

  for (int y = y0; y < y1; y++) {
    if (cm_cpu_cancelled (&p->opts))
      return CM_ERR_CANCELLED;
    memcpy (ring_row (p, j->pos, y), (const uint8_t *) j->src->data +
        (size_t) y * j->src->pitch, bytes);
    output_row (j, y);
  }
  return CM_OK;
}

static int
image_fits (const cm_temporal_cpu * p, const cm_image_packed * img)
{
  return img != NULL && img->data != NULL && img->width == p->width &&
      img->height == p->height && img->depth == p->depth &&
      img->channels == p->desc.channels &&
      img->pitch >= (size_t) p->samples * cm_depth_bytes (p->depth);
}

cm_status
cm_temporal_cpu_push (cm_temporal_cpu * p, const cm_image_packed * src,
    const cm_image_packed * dst)
{
  push_job j;
  cm_status st;

  if (p == NULL || !image_fits (p, src) || !image_fits (p, dst))
    return CM_ERR_INVALID_ARG;
  j.p = p;
  j.src = src;
  j.dst = dst;
  j.pos = p->pos;
  /* slots 0 .. n - 1 hold the window: the ring fills from slot 0 after a
   * reset, and once full every slot is in it */
  j.n = p->seen < p->desc.frames ? p->seen + 1 : p->desc.frames;
  j.k = cm_percentile_rank (p->desc.percentile, j.n);
  st = cm_cpu_bands (&p->opts, p->height, push_band, &j);
  if (st != CM_OK)
    return st;
  p->window = j.n;
  p->seen = j.n;
  p->pos = (p->pos + 1) % p->desc.frames;
  return CM_OK;
}
