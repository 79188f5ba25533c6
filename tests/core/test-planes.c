/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Interleaved <-> planar channel copies on the CPU: every channel of 1..4
 * channel images (8 and 16-bit, padded pitches) extracted and inserted back,
 * other channels and padding untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planes.h"
#include "test-count.h"
#include "test-util.h"

/* Whole buffers, padding included, are byte-identical */
static int
packed_same_bytes (const cm_image_packed * a, const cm_image_packed * b)
{
  return a->pitch == b->pitch &&
      memcmp (a->data, b->data, a->pitch * a->height) == 0;
}

/* One check: a call on channel c returned CM_OK */
static int
call_ok (cm_status st, const char *name, const char *call, int c)
{
  checks++;
  if (st != CM_OK)
    FAIL ("%s: %s channel %d returned %d", name, call, c, (int) st);
  return st == CM_OK;
}

static void
check_round_trip (int w, int h, cm_depth depth, int channels, int extra,
    uint64_t seed)
{
  char name[128];
  test_rng rng;
  cm_image_packed src = test_packed_new (w, h, depth, channels, extra);
  cm_image_packed dst = test_packed_new (w, h, depth, channels, extra);
  cm_image_packed single = test_packed_new (w, h, depth, channels, extra);
  uint32_t range = cm_depth_max (depth) + 1;

  snprintf (name, sizeof (name), "%dx%d depth=%d channels=%d pitch+%d", w, h,
      (int) depth, channels, extra);
  test_rng_seed (&rng, seed);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < channels; c++) {
        test_packed_set (&src, x, y, c, test_rng_below (&rng, range));
        /* dst and single start from other values, padding stays 0xA5 */
        test_packed_set (&dst, x, y, c, 0);
        test_packed_set (&single, x, y, c, 1);
      }

  for (int c = 0; c < channels; c++) {
    cm_image plane = test_image_new (w, h, depth, extra + 1);
    cm_image_packed before = test_packed_new (w, h, depth, channels, extra);

    if (!call_ok (cm_extract_channel_ref (&src, c, &plane), name, "extract",
            c))
      goto next;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        if (test_image_get (&plane, x, y) != test_packed_get (&src, x, y, c)) {
          FAIL ("%s: extract channel %d: first mismatch at (%d,%d)", name, c,
              x, y);
          goto next;
        }
    for (int y = 0; y < h; y++) {
      const uint8_t *row = (const uint8_t *) plane.data + y * plane.pitch;
      for (size_t i = (size_t) w * cm_depth_bytes (depth); i < plane.pitch;
          i++)
        if (row[i] != 0xA5) {
          FAIL ("%s: extract channel %d wrote padding", name, c);
          goto next;
        }
    }

    /* inserting into `single` changes exactly channel c */
    memcpy (before.data, single.data, single.pitch * h);
    if (!call_ok (cm_insert_channel_ref (&plane, c, &single), name, "insert",
            c))
      goto next;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        for (int k = 0; k < channels; k++) {
          uint32_t want = k == c ? test_packed_get (&src, x, y, k) :
              test_packed_get (&before, x, y, k);
          if (test_packed_get (&single, x, y, k) != want) {
            FAIL ("%s: insert channel %d: first mismatch at (%d,%d) "
                "channel %d", name, c, x, y, k);
            goto next;
          }
        }
    /* and rebuild dst channel by channel */
    cm_insert_channel_ref (&plane, c, &dst);
    /* restore single for the next channel */
    memcpy (single.data, before.data, single.pitch * h);
  next:
    test_image_free (&plane);
    free (before.data);
  }

  checks++;
  if (!packed_same_bytes (&dst, &src))
    FAIL ("%s: round trip differs (samples or padding)", name);
  free (src.data);
  free (dst.data);
  free (single.data);
}

static void
check_bad_args (void)
{
  cm_image_packed p = test_packed_new (4, 3, CM_DEPTH_8, 4, 0);
  cm_image plane = test_image_new (4, 3, CM_DEPTH_8, 0);
  /* p and plane with one thing wrong */
  cm_image_packed five = p, none = p, pitch15 = p;
  cm_image narrow = plane, flat = plane, deep = plane, pitch3 = plane,
      nodata = plane;

  five.channels = 5;
  none.channels = 0;
  pitch15.pitch = 15;
  narrow.width = 3;
  flat.height = 2;
  deep.depth = CM_DEPTH_16;
  pitch3.pitch = 3;
  nodata.data = NULL;
  {
    const struct
    {
      int insert;               /* cm_insert_channel_ref, else extract */
      cm_image_packed *packed;
      int channel;
      cm_image *plane;
      const char *what;
    } bad[] = {
      {0, NULL, 0, &plane, "NULL src"},
      {0, &p, 0, NULL, "NULL dst"},
      {1, &p, 0, NULL, "NULL plane"},
      {0, &p, 4, &plane, "channel 4 of 4"},
      {0, &p, -1, &plane, "channel -1"},
      {1, &p, 4, &plane, "insert channel 4 of 4"},
      {0, &five, 0, &plane, "5 channels"},
      {0, &none, 0, &plane, "0 channels"},
      {0, &p, 0, &narrow, "width mismatch"},
      {1, &p, 0, &flat, "height mismatch"},
      {0, &p, 0, &deep, "depth mismatch"},
      {0, &pitch15, 0, &plane, "packed pitch too small"},
      {1, &p, 0, &pitch3, "plane pitch too small"},
      {0, &p, 0, &nodata, "NULL plane data"},
    };

    checks++;
    if (cm_extract_channel_ref (&p, 3, &plane) != CM_OK ||
        cm_insert_channel_ref (&plane, 0, &p) != CM_OK)
      FAIL ("planes: valid arguments refused");
    for (int i = 0; i < N_OF (bad); i++) {
      cm_status st = bad[i].insert ?
          cm_insert_channel_ref (bad[i].plane, bad[i].channel,
          bad[i].packed) : cm_extract_channel_ref (bad[i].packed,
          bad[i].channel, bad[i].plane);

      checks++;
      if (st != CM_ERR_INVALID_ARG)
        FAIL ("planes: %s accepted", bad[i].what);
    }
  }

  free (p.data);
  test_image_free (&plane);
}

int
main (void)
{
  static const int sizes[][2] = { {1, 1}, {7, 1}, {1, 5}, {13, 11},
  {64, 9}
  };
  static const cm_depth depths[] = { CM_DEPTH_8, CM_DEPTH_16 };
  static const int extras[] = { 0, 3, 8 };
  uint64_t seed = 1;

  for (size_t s = 0; s < sizeof (sizes) / sizeof (sizes[0]); s++)
    for (int d = 0; d < 2; d++)
      for (int ch = 1; ch <= 4; ch++)
        for (int e = 0; e < 3; e++)
          check_round_trip (sizes[s][0], sizes[s][1], depths[d], ch,
              extras[e], seed++);
  check_bad_args ();

  return test_count_report ("test-planes");
}
