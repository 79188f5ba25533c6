/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU reference of the linear spectrum (linspectrum.h), written as the
 * definition there: for every orientation, every scan line is cut to the
 * image, its run of pixels is eroded then dilated by the segment of L
 * positions with windows cut at the ends of the run (NEUTRAL border), and
 * the result feeds the spectrum, the supremum and the orientation map.
 * The sliding minimum/maximum over the cut windows uses the classic
 * monotone double-ended queue (O(1) amortised per sample, the queue idea
 * of Bartovsky et al., paper 000 section 4.1), not a per-window loop, so
 * that the reference stays usable on real frames. The scan-line geometry
 * (cm_linspectrum_line_geometry) and the orientation list are computed
 * here once for both the reference and the CUDA plan, which uploads the
 * same lround () tables.
 * cm_linspectrum_ref_mt splits the orientations in contiguous bands over
 * threads (cpu-bands.h): each band sums its own spectrum entries and keeps
 * its own extreme and argument per pixel, fed run by run with no image of
 * one orientation; the bands are merged in band order with the tie rule of
 * cm_linspectrum_ref, so the results are the same bit for bit. */
#include "linspectrum.h"
#include "cm-sample.h"
#include "cpu-bands.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- descriptor --------------------------------------------------------- */

double
cm_linspectrum_angle (const cm_linspectrum_desc * desc, int i)
{
  return desc->angle_min + (double) i * desc->angle_step;
}

/* Number of orientations, or CM_LINSPECTRUM_MAX_ANGLES + 1 when there are
 * more (angles, step and order already checked). */
static int
count_raw (const cm_linspectrum_desc * desc)
{
  double est = (desc->angle_max - desc->angle_min) / desc->angle_step;
  int n;

  if (!(est <= (double) CM_LINSPECTRUM_MAX_ANGLES + 2.0))
    return CM_LINSPECTRUM_MAX_ANGLES + 1;
  n = (int) ceil (est);
  if (n < 0)
    n = 0;
  /* the rounded estimate may be one off either way: settle it on the
   * definition (alpha_i < angle_max) */
  while (n > 0 && cm_linspectrum_angle (desc, n - 1) >= desc->angle_max)
    n--;
  while (n <= CM_LINSPECTRUM_MAX_ANGLES &&
      cm_linspectrum_angle (desc, n) < desc->angle_max)
    n++;
  return n;
}

cm_status
cm_linspectrum_desc_check (const cm_linspectrum_desc * desc)
{
  int n;

  if (!desc)
    return CM_ERR_INVALID_ARG;
  if (desc->length < 1 || desc->length > CM_LINSPECTRUM_MAX_LENGTH)
    return CM_ERR_INVALID_ARG;
  if (desc->op != CM_MORPH_OPEN && desc->op != CM_MORPH_CLOSE)
    return CM_ERR_INVALID_ARG;
  if (!isfinite (desc->angle_min) || !isfinite (desc->angle_max) ||
      !isfinite (desc->angle_step))
    return CM_ERR_INVALID_ARG;
  if (!(desc->angle_step > 0.0) || !(desc->angle_max > desc->angle_min))
    return CM_ERR_INVALID_ARG;
  n = count_raw (desc);
  if (n < 1 || n > CM_LINSPECTRUM_MAX_ANGLES)
    return CM_ERR_INVALID_ARG;
  return CM_OK;
}

int
cm_linspectrum_count_angles (const cm_linspectrum_desc * desc)
{
  if (cm_linspectrum_desc_check (desc) != CM_OK)
    return 0;
  return count_raw (desc);
}

void
cm_linspectrum_line_geometry (double angle_deg, int *steep, double *slope)
{
  double r = fmod (angle_deg, 180.0);
  int st;
  double k;

  if (r < 0.0)
    r += 180.0;
  if (r >= 180.0)
    r = 0.0;
  if (r <= 45.0 || r >= 135.0) {
    double t = r <= 45.0 ? r : r - 180.0;
    st = 0;
    k = tan (t * M_PI / 180.0);
  } else {
    st = 1;
    k = tan ((90.0 - r) * M_PI / 180.0);
  }
  if (steep)
    *steep = st;
  if (slope)
    *slope = k;
}

/* ---- images ------------------------------------------------------------- */

static void
pix_set (const cm_image * img, int x, int y, uint32_t v)
{
  uint8_t *row = (uint8_t *) img->data + (size_t) y * img->pitch;

  if (img->depth == CM_DEPTH_16) {
    uint16_t s = (uint16_t) v;
    memcpy (row + 2 * (size_t) x, &s, 2);
  } else
    row[x] = (uint8_t) v;
}

/* ---- one orientation ---------------------------------------------------- */

typedef struct
{
  int w, h, len;
  uint32_t maxv;
  int *d;                       /* lround (q * k), q < max (w, h)          */
  int *dq;                      /* deque of indices                        */
  int *px, *py;                 /* the run's pixels                        */
  uint32_t *g, *e, *o;          /* run samples, erosion, opening           */
  uint32_t *f;                  /* w * h filtered image of one orientation,
                                 * or NULL: the runs go to the sink below */
  /* cm_linspectrum_ref_mt's sink: the spectrum entry of orientation idx
   * and, when best is not NULL, the extreme and its smallest orientation
   * per pixel over the band's orientations so far (first: idx is the
   * band's first) */
  uint64_t sum;
  uint16_t *best, *arg;
  uint16_t idx;
  int first;
  const cm_cpu_opts *opts;      /* checked between scan lines */
} ref_ctx;

static void
ctx_clear (ref_ctx * c)
{
  free (c->d);
  free (c->dq);
  free (c->px);
  free (c->py);
  free (c->g);
  free (c->e);
  free (c->o);
  free (c->f);
  free (c->best);
  free (c->arg);
  memset (c, 0, sizeof (*c));
}

/* The scratch of one orientation; the w * h image f only when @with_f. */
static cm_status
ctx_init (ref_ctx * c, const cm_image * src, int length, int with_f)
{
  size_t m;

  memset (c, 0, sizeof (*c));
  c->w = src->width;
  c->h = src->height;
  c->len = length;
  c->maxv = cm_depth_max (src->depth);
  m = (size_t) (c->w > c->h ? c->w : c->h);
  c->d = malloc (sizeof (int) * m);
  c->dq = malloc (sizeof (int) * m);
  c->px = malloc (sizeof (int) * m);
  c->py = malloc (sizeof (int) * m);
  c->g = malloc (sizeof (uint32_t) * m);
  c->e = malloc (sizeof (uint32_t) * m);
  c->o = malloc (sizeof (uint32_t) * m);
  if (with_f)
    c->f = malloc (sizeof (uint32_t) * (size_t) c->w * (size_t) c->h);
  if (!c->d || !c->dq || !c->px || !c->py || !c->g || !c->e || !c->o ||
      (with_f && !c->f)) {
    ctx_clear (c);
    return CM_ERR_NO_MEMORY;
  }
  return CM_OK;
}

/* out[i] = min (is_min) or max of in[j] over j in [i - before, i + after]
 * cut to [0, n): a sliding window over a monotone queue of indices whose
 * values increase (min) or decrease (max) from head to tail. */
static void
window_extreme (const uint32_t * in, uint32_t * out, int n, int before,
    int after, int is_min, int *dq)
{
  int head = 0, tail = 0, next = 0;

  for (int i = 0; i < n; i++) {
    int lo = i - before, hi = i + after;

    if (hi > n - 1)
      hi = n - 1;
    while (next <= hi) {
      uint32_t v = in[next];

      while (tail > head && (is_min ? in[dq[tail - 1]] >= v
              : in[dq[tail - 1]] <= v))
        tail--;
      dq[tail++] = next++;
    }
    while (dq[head] < lo)
      head++;
    out[i] = in[dq[head]];
  }
}

/* The filtered run c->o of n samples into the sink (c->f NULL): the sum
 * and, when tracked, the strict extreme per pixel (ties keep the earlier,
 * smaller orientation, as in cm_linspectrum_ref). */
static void
sink_run (ref_ctx * c, int n, int close)
{
  for (int j = 0; j < n; j++) {
    uint32_t v = close ? c->maxv - c->o[j] : c->o[j];
    size_t at = (size_t) c->py[j] * c->w + c->px[j];

    c->sum += v;
    if (c->best && (c->first || (close ? v < c->best[at]
                : v > c->best[at]))) {
      c->best[at] = (uint16_t) v;
      c->arg[at] = c->idx;
    }
  }
}

/* c->f (or the sink) = gamma (OPEN) or phi (CLOSE) of src along the scan
 * lines of angle_deg. Returns 0 when c->opts asked to stop (checked
 * between scan lines), else 1. */
static int
filter_orientation (ref_ctx * c, const cm_image * src, double angle_deg,
    int close)
{
  int steep, span, ext, dmin, dmax, o = c->len / 2;
  double k;

  cm_linspectrum_line_geometry (angle_deg, &steep, &k);
  span = steep ? c->h : c->w;   /* positions p: x (shallow) or y (steep) */
  ext = steep ? c->w : c->h;    /* the other coordinate: 0 .. ext - 1    */
  dmin = dmax = 0;
  for (int q = 0; q < span; q++) {
    c->d[q] = (int) lround (q * k);
    if (c->d[q] < dmin)
      dmin = c->d[q];
    if (c->d[q] > dmax)
      dmax = c->d[q];
  }

  /* Line b holds the position q when 0 <= b - d[q] < ext, i.e. when
   * b - ext + 1 <= d[q] <= b: a run [lo, hi) of positions. d is
   * non-decreasing when k >= 0 and non-increasing when k < 0; walking b
   * up in the first case and down in the second moves both ends of the
   * run only forwards. Every line that meets the image has
   * b in [dmin, dmax + ext - 1]. */
  int lo = 0, hi = 0, nb = dmax + ext - dmin;

  for (int bi = 0; bi < nb; bi++) {
    int b = k >= 0.0 ? dmin + bi : dmax + ext - 1 - bi;
    int n = 0;

    if (cm_cpu_cancelled (c->opts))
      return 0;
    if (k >= 0.0) {
      while (lo < span && c->d[lo] < b - ext + 1)
        lo++;
      while (hi < span && c->d[hi] <= b)
        hi++;
    } else {
      while (lo < span && c->d[lo] > b)
        lo++;
      while (hi < span && c->d[hi] >= b - ext + 1)
        hi++;
    }
    for (int q = lo; q < hi; q++) {
      int cc = b - c->d[q];
      uint32_t v;

      c->px[n] = steep ? cc : q;
      c->py[n] = steep ? q : cc;
      v = cm_image_sample (src, c->px[n], c->py[n]);
      c->g[n] = close ? c->maxv - v : v;
      n++;
    }
    if (n == 0)
      continue;
    /* erosion: window [a - o, a - o + L - 1]; dilation: anchors
     * [p - (L - 1 - o), p + o]; both cut to the run */
    window_extreme (c->g, c->e, n, o, c->len - 1 - o, 1, c->dq);
    window_extreme (c->e, c->o, n, c->len - 1 - o, o, 0, c->dq);
    if (!c->f) {
      sink_run (c, n, close);
      continue;
    }
    for (int j = 0; j < n; j++)
      c->f[(size_t) c->py[j] * c->w + c->px[j]] =
          close ? c->maxv - c->o[j] : c->o[j];
  }
  return 1;
}

/* ---- public ------------------------------------------------------------- */

static int
same_size (const cm_image * a, const cm_image * b)
{
  return a->width == b->width && a->height == b->height;
}

cm_status
cm_linopen_ref (int length, double angle_deg, cm_morph_op op,
    const cm_image * src, const cm_image * dst)
{
  ref_ctx c;
  cm_status st;

  if (length < 1 || length > CM_LINSPECTRUM_MAX_LENGTH ||
      !isfinite (angle_deg) || (op != CM_MORPH_OPEN && op != CM_MORPH_CLOSE))
    return CM_ERR_INVALID_ARG;
  if (!cm_image_ok (src) || !cm_image_ok (dst) || !same_size (src, dst) ||
      src->depth != dst->depth)
    return CM_ERR_INVALID_ARG;
  st = ctx_init (&c, src, length, 1);
  if (st != CM_OK)
    return st;
  filter_orientation (&c, src, angle_deg, op == CM_MORPH_CLOSE);
  for (int y = 0; y < c.h; y++)
    for (int x = 0; x < c.w; x++)
      pix_set (dst, x, y, c.f[(size_t) y * c.w + x]);
  ctx_clear (&c);
  return CM_OK;
}

/* The arguments of cm_linspectrum_ref (_mt) */
static cm_status
spectrum_args_check (const cm_linspectrum_desc * desc, const cm_image * src,
    const uint64_t * spectrum, const cm_image * sup, const cm_image * orient)
{
  cm_status st = cm_linspectrum_desc_check (desc);

  if (st != CM_OK)
    return st;
  if (!cm_image_ok (src) || !spectrum)
    return CM_ERR_INVALID_ARG;
  if (sup && (!cm_image_ok (sup) || !same_size (src, sup) ||
          sup->depth != src->depth))
    return CM_ERR_INVALID_ARG;
  if (orient && (!cm_image_ok (orient) || !same_size (src, orient) ||
          orient->depth != CM_DEPTH_16))
    return CM_ERR_INVALID_ARG;
  return CM_OK;
}

cm_status
cm_linspectrum_ref (const cm_linspectrum_desc * desc, const cm_image * src,
    uint64_t * spectrum, const cm_image * sup, const cm_image * orient)
{
  ref_ctx c;
  cm_status st;
  uint32_t *best = NULL;
  uint16_t *arg = NULL;
  size_t npix;
  int n, close, track;

  st = spectrum_args_check (desc, src, spectrum, sup, orient);
  if (st != CM_OK)
    return st;
  n = cm_linspectrum_count_angles (desc);
  close = desc->op == CM_MORPH_CLOSE;
  track = sup || orient;

  st = ctx_init (&c, src, desc->length, 1);
  if (st != CM_OK)
    return st;
  npix = (size_t) c.w * (size_t) c.h;
  if (track) {
    best = malloc (sizeof (uint32_t) * npix);
    arg = malloc (sizeof (uint16_t) * npix);
    if (!best || !arg) {
      free (best);
      free (arg);
      ctx_clear (&c);
      return CM_ERR_NO_MEMORY;
    }
  }

  for (int i = 0; i < n; i++) {
    uint64_t sum = 0;

    filter_orientation (&c, src, cm_linspectrum_angle (desc, i), close);
    for (size_t j = 0; j < npix; j++)
      sum += c.f[j];
    spectrum[i] = sum;
    if (!track)
      continue;
    for (size_t j = 0; j < npix; j++) {
      uint32_t v = c.f[j];

      /* strictly better only: ties keep the smallest index */
      if (i == 0 || (close ? v < best[j] : v > best[j])) {
        best[j] = v;
        arg[j] = (uint16_t) i;
      }
    }
  }

  for (int y = 0; y < c.h && track; y++) {
    for (int x = 0; x < c.w; x++) {
      size_t j = (size_t) y * c.w + x;

      if (sup)
        pix_set (sup, x, y, best[j]);
      if (orient)
        pix_set (orient, x, y, arg[j]);
    }
  }
  free (best);
  free (arg);
  ctx_clear (&c);
  return CM_OK;
}

/* ---- over threads ------------------------------------------------------- */

/* cm_linspectrum_ref_mt's run: one ref_ctx per band of orientations */
typedef struct
{
  const cm_linspectrum_desc *desc;
  const cm_image *src, *sup, *orient;
  uint64_t *spectrum;
  ref_ctx *band;
  int bands, close;
  const cm_cpu_opts *opts;
} mt_run;

/* Orientations [i0, i1) into band @b's sink, for cm_cpu_bands */
static cm_status
orientations_band (void *data, int b, int i0, int i1)
{
  const mt_run *r = data;
  ref_ctx *c = &r->band[b];

  for (int i = i0; i < i1; i++) {
    if (cm_cpu_cancelled (r->opts))
      return CM_ERR_CANCELLED;
    c->sum = 0;
    c->idx = (uint16_t) i;
    c->first = i == i0;
    if (!filter_orientation (c, r->src, cm_linspectrum_angle (r->desc, i),
            r->close))
      return CM_ERR_CANCELLED;
    r->spectrum[i] = c->sum;
  }
  return CM_OK;
}

/* Rows [y0, y1) of sup and orient: the bands' extremes merged in band
 * order, a later band winning only when strictly better, for
 * cm_cpu_bands */
static cm_status
merge_band (void *data, int band, int y0, int y1)
{
  const mt_run *r = data;
  const int w = r->src->width;

  (void) band;
  for (int y = y0; y < y1; y++) {
    if (cm_cpu_cancelled (r->opts))
      return CM_ERR_CANCELLED;
    for (int x = 0; x < w; x++) {
      size_t j = (size_t) y * w + x;
      uint32_t v = r->band[0].best[j], a = r->band[0].arg[j];

      for (int t = 1; t < r->bands; t++) {
        uint32_t u = r->band[t].best[j];

        if (r->close ? u < v : u > v) {
          v = u;
          a = r->band[t].arg[j];
        }
      }
      if (r->sup)
        pix_set (r->sup, x, y, v);
      if (r->orient)
        pix_set (r->orient, x, y, a);
    }
  }
  return CM_OK;
}

cm_status
cm_linspectrum_ref_mt (const cm_linspectrum_desc * desc, const cm_image * src,
    uint64_t * spectrum, const cm_image * sup, const cm_image * orient,
    const cm_cpu_opts * opts)
{
  mt_run r;
  cm_status st;
  size_t npix;
  int n, track;

  if (opts == NULL)
    return cm_linspectrum_ref (desc, src, spectrum, sup, orient);
  st = spectrum_args_check (desc, src, spectrum, sup, orient);
  if (st != CM_OK)
    return st;
  n = cm_linspectrum_count_angles (desc);
  track = sup || orient;
  npix = (size_t) src->width * (size_t) src->height;

  memset (&r, 0, sizeof (r));
  r.desc = desc;
  r.src = src;
  r.sup = sup;
  r.orient = orient;
  r.spectrum = spectrum;
  r.close = desc->op == CM_MORPH_CLOSE;
  r.opts = opts;
  /* the scratch of every band, made once: the scan-line buffers and, when
   * tracked, 4 bytes per pixel */
  r.bands = cm_cpu_band_count (opts, n);
  r.band = calloc ((size_t) r.bands, sizeof (ref_ctx));
  if (!r.band)
    return CM_ERR_NO_MEMORY;
  for (int t = 0; t < r.bands && st == CM_OK; t++) {
    ref_ctx *c = &r.band[t];

    st = ctx_init (c, src, desc->length, 0);
    if (st != CM_OK)
      break;
    c->opts = opts;
    if (track) {
      c->best = malloc (sizeof (uint16_t) * npix);
      c->arg = malloc (sizeof (uint16_t) * npix);
      if (!c->best || !c->arg)
        st = CM_ERR_NO_MEMORY;
    }
  }
  if (st == CM_OK)
    st = cm_cpu_bands (opts, n, orientations_band, &r);
  if (st == CM_OK && track)
    st = cm_cpu_bands (opts, src->height, merge_band, &r);
  for (int t = 0; t < r.bands; t++)
    ctx_clear (&r.band[t]);
  free (r.band);
  return st;
}

cm_status
cm_linspectrum_dominant (const cm_linspectrum_desc * desc,
    const uint64_t * spectrum, int n, double *angle, double *value)
{
  int best = 0, wrap, close;
  double step, ym, y0, yp, d = 0.0, a;

  if (cm_linspectrum_desc_check (desc) != CM_OK || !spectrum || !angle)
    return CM_ERR_INVALID_ARG;
  if (n < 1 || n != cm_linspectrum_count_angles (desc))
    return CM_ERR_INVALID_ARG;
  close = desc->op == CM_MORPH_CLOSE;
  for (int i = 1; i < n; i++)
    if (close ? spectrum[i] < spectrum[best] : spectrum[i] > spectrum[best])
      best = i;

  step = desc->angle_step;
  wrap = n >= 3 && fabs (n * step - 180.0) <= 180.0 * 1e-9;
  y0 = (double) spectrum[best];
  if (n >= 3 && (wrap || (best > 0 && best < n - 1))) {
    double den;

    ym = (double) spectrum[best > 0 ? best - 1 : n - 1];
    yp = (double) spectrum[best < n - 1 ? best + 1 : 0];
    den = ym - 2.0 * y0 + yp;
    if (den != 0.0)
      d = 0.5 * (ym - yp) / den;
    if (d > 0.5)
      d = 0.5;
    if (d < -0.5)
      d = -0.5;
    if (value)
      *value = y0 - 0.25 * (ym - yp) * d;
  } else if (value)
    *value = y0;

  a = cm_linspectrum_angle (desc, best) + d * step;
  if (wrap) {
    if (a < desc->angle_min)
      a += 180.0;
    else if (a >= desc->angle_min + 180.0)
      a -= 180.0;
  }
  *angle = a;
  return CM_OK;
}
