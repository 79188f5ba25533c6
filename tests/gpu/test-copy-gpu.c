/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Device-to-device cm_copy_2d_async (a kernel, device.cu) == the same
 * copy made on the host, byte for byte, over the whole destination
 * buffer: the rows land where they should and nothing around them (row
 * padding, bytes before and after) is touched.
 *
 * Cases: row widths from 1 byte to 4K RGBA rows and off every word size,
 * heights 1 to 70,000 (past the 65,535 rows of one grid), addresses and
 * pitches aligned to 16, 8, 4 bytes or to none (each picks another word,
 * the last the runtime's copy). Exit 77 (meson SKIP) without a CUDA
 * device; one line per failing case on stderr, exit 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "kernel-test.h"
#include "test-util.h"

#define N_OF(a) (sizeof (a) / sizeof ((a)[0]))

static int n_pass, n_fail;
static cm_stream stream;

typedef struct
{
  size_t width, height;         /* bytes of a row, rows */
  size_t src_offset, dst_offset;        /* of the first row in its buffer */
  size_t src_pad, dst_pad;      /* pitch - width */
} CopyCase;

static void
fill_random (uint8_t * p, size_t n, test_rng * r)
{
  for (size_t i = 0; i < n; i++)
    p[i] = (uint8_t) test_rng_next (r);
}

/* A device buffer of @n bytes holding @host */
static uint8_t *
device_bytes (const uint8_t * host, size_t n)
{
  cm_image img;

  if (cm_device_image_alloc (&img, (int) n, 1, CM_DEPTH_8) != CM_OK)
    return NULL;
  if (cm_copy_2d_async (img.data, n, host, n, n, 1, CM_COPY_H2D,
          stream) != CM_OK) {
    cm_device_free (img.data);
    return NULL;
  }
  return img.data;
}

static void
run_case (const CopyCase * c, test_rng * r)
{
  size_t sp = c->width + c->src_pad, dp = c->width + c->dst_pad;
  size_t sn = c->src_offset + sp * c->height + 32;
  size_t dn = c->dst_offset + dp * c->height + 32;
  uint8_t *src = malloc (sn), *dst = malloc (dn), *want = malloc (dn);
  uint8_t *dsrc, *ddst;
  cm_status st = CM_ERR_NO_MEMORY;

  fill_random (src, sn, r);
  fill_random (dst, dn, r);
  memcpy (want, dst, dn);
  for (size_t y = 0; y < c->height; y++)
    memcpy (want + c->dst_offset + y * dp, src + c->src_offset + y * sp,
        c->width);

  dsrc = device_bytes (src, sn);
  ddst = device_bytes (dst, dn);
  if (dsrc && ddst) {
    st = cm_copy_2d_async (ddst + c->dst_offset, dp, dsrc + c->src_offset,
        sp, c->width, (int) c->height, CM_COPY_D2D, stream);
    if (st == CM_OK)
      st = cm_copy_2d_async (dst, dn, ddst, dn, dn, 1, CM_COPY_D2H, stream);
    if (st == CM_OK)
      st = cm_stream_sync (stream);
  }
  if (st != CM_OK) {
    fprintf (stderr, "FAIL: %zux%zu: %s\n", c->width, c->height,
        cm_status_string (st));
    n_fail++;
  } else {
    size_t i = 0;

    while (i < dn && dst[i] == want[i])
      i++;
    if (i < dn) {
      fprintf (stderr, "FAIL: %zux%zu offsets %zu,%zu pads %zu,%zu: byte "
          "%zu is %u, not %u\n", c->width, c->height, c->src_offset,
          c->dst_offset, c->src_pad, c->dst_pad, i, dst[i], want[i]);
      n_fail++;
    } else {
      n_pass++;
    }
  }
  cm_device_free (dsrc);
  cm_device_free (ddst);
  free (src);
  free (dst);
  free (want);
}

int
main (void)
{
  static const size_t widths[] = { 1, 3, 4, 7, 8, 15, 16, 17, 31, 100,
    513, 3840, 4097, 15360
  };
  static const size_t heights[] = { 1, 2, 5, 67 };
  /* offset and pad pairs: aligned to 16, 8, 4, 2 and 1 */
  static const size_t aligns[][2] = { {0, 0}, {16, 32}, {8, 8}, {4, 12},
    {2, 6}, {1, 3}
  };
  static const CopyCase tall[] = {
    {16, 70000, 0, 0, 0, 16},   /* 16-byte words, rows past one grid */
    {5, 70000, 1, 2, 3, 0},     /* the runtime's copy */
    {12, 70000, 4, 4, 0, 4},    /* 4-byte words */
  };
  test_rng r;
  int rc = kernel_test_open (&stream);

  if (rc != 0)
    return rc;
  test_rng_seed (&r, 20261126);
  for (size_t w = 0; w < N_OF (widths); w++)
    for (size_t h = 0; h < N_OF (heights); h++)
      for (size_t a = 0; a < N_OF (aligns); a++)
        for (size_t b = 0; b < N_OF (aligns); b++) {
          /* the pads make the pitches multiples of the alignment */
          size_t sa = aligns[a][0] ? aligns[a][0] : 16;
          size_t da = aligns[b][0] ? aligns[b][0] : 16;
          CopyCase c = { widths[w], heights[h], aligns[a][0], aligns[b][0],
            (sa - widths[w] % sa) % sa + aligns[a][1],
            (da - widths[w] % da) % da + aligns[b][1]
          };

          run_case (&c, &r);
        }
  for (size_t t = 0; t < N_OF (tall); t++)
    run_case (&tall[t], &r);

  return kernel_test_close (stream, n_pass, n_fail);
}
