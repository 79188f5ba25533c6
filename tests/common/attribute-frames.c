/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inputs of the attribute filter tests (attribute-frames.h). */
#include <math.h>

#include "attribute-frames.h"

const char *
attr_frame_name (attr_frame_kind k)
{
  static const char *const names[] = { "hills", "noise", "stairs-x",
    "stairs-y", "rings", "flat", "levels", "blobs", "specks"
  };

  return k >= 0 && k < ATTR_FRAME_KINDS ? names[k] : "invalid";
}

/* a sum of random smooth bumps over a gentle slope, in [0, 1] */
static void
fill_hills (cm_image * img, test_rng * r, double scale)
{
  double cx[6], cy[6], s[6], a[6];
  int w = img->width, h = img->height;

  for (int i = 0; i < 6; i++) {
    cx[i] = test_rng_below (r, (uint32_t) w);
    cy[i] = test_rng_below (r, (uint32_t) h);
    s[i] = 2.0 + test_rng_below (r, 1 + (uint32_t) (w + h) / 4);
    a[i] = 0.2 + test_rng_below (r, 800) / 1000.0;
  }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double v = 0.1 * x / (w + 1.0) + 0.05 * y / (h + 1.0);

      for (int i = 0; i < 6; i++) {
        double dx = x - cx[i], dy = y - cy[i];

        v += a[i] * exp (-(dx * dx + dy * dy) / (2 * s[i] * s[i]));
      }
      v = v / 3.2 * scale + test_rng_below (r, 3) * (scale / 255.0);
      test_image_set (img, x, y, v > scale ? (uint32_t) scale :
          (uint32_t) v);
    }
}

void
attr_frame_fill (cm_image * img, attr_frame_kind k, test_rng * r)
{
  uint32_t maxv = cm_depth_max (img->depth);
  int w = img->width, h = img->height;

  switch (k) {
    case ATTR_FRAME_HILLS:
      fill_hills (img, r, maxv);
      break;
    case ATTR_FRAME_NOISE:
      test_image_fill_random (img, r);
      break;
    case ATTR_FRAME_STAIRS_X:
    case ATTR_FRAME_STAIRS_Y:
    case ATTR_FRAME_RINGS:{
      /* descending or ascending at random, a step every 1 to 3 pixels */
      int step = 1 + (int) test_rng_below (r, 3), up = test_rng_below (r, 2);
      uint32_t mul = 1 + test_rng_below (r, img->depth == CM_DEPTH_16 ?
          300 : 4);

      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          int t = k == ATTR_FRAME_STAIRS_X ? x : k == ATTR_FRAME_STAIRS_Y ?
              y : (int) sqrt ((double) (x - w / 2) * (x - w / 2) +
              (double) (y - h / 2) * (y - h / 2));
          uint32_t v = (uint32_t) (t / step) * mul % (maxv + 1);

          test_image_set (img, x, y, up ? v : maxv - v);
        }
      break;
    }
    case ATTR_FRAME_FLAT:
      test_image_fill (img, test_rng_below (r, maxv + 1));
      break;
    case ATTR_FRAME_LEVELS:
      test_image_fill_levels (img, r, 2 + (int) test_rng_below (r, 4));
      break;
    case ATTR_FRAME_BLOBS:
      test_image_fill_blobs (img, r, 3 + (int) test_rng_below (r, 9),
          maxv / 64);
      break;
    case ATTR_FRAME_SPECKS:{
      uint32_t base = maxv / 8;

      test_image_fill (img, base);
      for (int i = 0; i < (w * h) / 64 + 1; i++) {
        int sx = test_rng_below (r, (uint32_t) w);
        int sy = test_rng_below (r, (uint32_t) h);
        int len = 1 + (int) test_rng_below (r, 40);
        uint32_t v = base + 1 + test_rng_below (r, maxv - base);

        /* a random walk of len pixels */
        for (int j = 0; j < len; j++) {
          test_image_set (img, sx, sy, v);
          sx += (int) test_rng_below (r, 3) - 1;
          sy += (int) test_rng_below (r, 3) - 1;
          sx = sx < 0 ? 0 : sx >= w ? w - 1 : sx;
          sy = sy < 0 ? 0 : sy >= h ? h - 1 : sy;
        }
      }
      break;
    }
    default:
      break;
  }
}
