/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "synthetic-lines.h"

#include <math.h>
#include <stdlib.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* xorshift64*, private so that the examples need nothing else from the
 * test helpers */
static uint32_t
noise_next (uint64_t * s)
{
  uint64_t x = *s;

  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return (uint32_t) ((x * 0x2545F4914F6CDD1Dull) >> 32);
}

static uint64_t
noise_seed (uint64_t seed)
{
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;

  return s ? s : 1;
}

static uint32_t
noise_below (uint64_t * s, uint32_t n)
{
  return (uint32_t) (((uint64_t) noise_next (s) * n) >> 32);
}

/* v: an 8-bit grey value, clamped, scaled to the image's depth */
static void
put (const cm_image * img, int x, int y, double v)
{
  uint8_t *row = (uint8_t *) img->data + (size_t) y * img->pitch;
  uint32_t s = v <= 0.0 ? 0 : v >= 255.0 ? 255 : (uint32_t) v;

  if (img->depth == CM_DEPTH_16)
    ((uint16_t *) row)[x] = (uint16_t) (s * 257u);
  else
    row[x] = (uint8_t) s;
}

void
synth_parallel_lines (const cm_image * img, double theta, double period,
    uint64_t seed)
{
  double t = theta * M_PI / 180.0, cx = img->width / 2.0;
  double cy = img->height / 2.0;
  uint64_t s = noise_seed (seed);

  for (int y = 0; y < img->height; y++) {
    for (int x = 0; x < img->width; x++) {
      /* signed distance to the line through the centre: the direction is
       * (cos, -sin) with y down, the normal (sin, cos) */
      double dist = (x - cx) * sin (t) + (y - cy) * cos (t);
      double m = fmod (fabs (dist), period);
      double d = m < period / 2 ? m : period - m;
      double v = 30.0 + 200.0 * exp (-d * d / (2 * 1.2 * 1.2));

      put (img, x, y, v + (double) noise_below (&s, 20));
    }
  }
}

void
synth_staff_page (const cm_image * img, double theta, uint64_t seed)
{
  int w = img->width, h = img->height;
  double t = theta * M_PI / 180.0, cx = w / 2.0, cy = h / 2.0;
  uint64_t s = noise_seed (seed);

  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      /* page coordinates of the pixel (u along the staff, v down the
       * page): rotate back by theta */
      double dx = x - cx, dy = y - cy;
      double u = dx * cos (t) - dy * sin (t) + cx;
      double v = dx * sin (t) + dy * cos (t) + cy;
      double ink = 0.0;

      if (u > 40 && u < w - 40 && v > 30 && v < h - 30) {
        double sv = fmod (v - 30, 70.0);
        double nu = fmod (u, 37.0), nl = fmod (sv, 12.0);

        for (int l = 0; l < 5; l++) {
          double dl = fabs (sv - (8.0 + 8.0 * l));

          if (dl < 1.2)
            ink = fmax (ink, 1.0 - fmax (0.0, dl - 0.5));
        }
        /* note heads in two of every three 37 px columns */
        if (((int) (u / 37.0) % 3) != 1 && nu > 15 && nu < 22 && nl > 3 &&
            nl < 8)
          ink = 1.0;
      }
      put (img, x, y, 250.0 - 230.0 * ink - (double) noise_below (&s, 12));
    }
  }
}

cm_se *
synth_segment_se (int length, int angle)
{
  int o = length / 2, ddx, ddy;
  int x0, y0, w, h;
  uint8_t *mask;
  cm_se *se = NULL;

  /* one step along the segment, t -> t + 1 */
  switch (angle) {
    case 0:
      ddx = 1, ddy = 0;
      break;
    case 45:
      ddx = 1, ddy = -1;
      break;
    case 90:
      ddx = 0, ddy = 1;
      break;
    case 135:
      ddx = 1, ddy = 1;
      break;
    default:
      return NULL;
  }
  if (length < 1)
    return NULL;
  /* bounding box of the offsets t * (ddx, ddy), t = -o .. length - 1 - o */
  x0 = ddx * -o;
  y0 = ddy > 0 ? -o : ddy < 0 ? -(length - 1 - o) : 0;
  w = ddx ? length : 1;
  h = ddy ? length : 1;
  mask = calloc ((size_t) w * h, 1);
  if (!mask)
    return NULL;
  for (int t = -o; t <= length - 1 - o; t++)
    mask[(size_t) (t * ddy - y0) * w + (t * ddx - x0)] = 1;
  if (cm_se_new_from_mask (&se, mask, w, h, -x0, -y0) != CM_OK)
    se = NULL;
  free (mask);
  return se;
}
