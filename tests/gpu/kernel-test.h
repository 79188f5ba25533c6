/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the GPU kernel tests (test-morph-gpu, test-median-gpu,
 * test-linspectrum-gpu, test-reconstruct-gpu) share: the device and stream
 * their main () opens, and whole-image copies between host and device. */
#pragma once

#include <stdio.h>

#include "device.h"
#include "test-util.h"

/* Opens device 0 and a new stream on it (*@stream) and prints the
 * device's name. Returns 0 when done, TEST_SKIP (meson: SKIP) when there
 * is no usable device, 1 (after a message on stderr) when the setup
 * fails: main () returns anything but 0. */
static inline int
kernel_test_open (cm_stream * stream)
{
  char name[256];
  cm_status st;

  if (cm_device_count () == 0) {
    printf ("no CUDA device: skipped\n");
    return TEST_SKIP;
  }
  st = cm_device_set (-1);
  if (st == CM_OK)
    st = cm_stream_new (stream);
  if (st != CM_OK) {
    fprintf (stderr, "FAIL: device setup: %s\n", cm_status_string (st));
    return 1;
  }
  if (cm_device_name (-1, name, sizeof (name)) == CM_OK)
    printf ("device: %s\n", name);
  return 0;
}

/* The @src->width x @src->height samples of @src copied into @dst (@kind:
 * host to device or back), queued on @stream. */
static inline cm_status
image_copy_async (const cm_image * dst, const cm_image * src,
    cm_copy_kind kind, cm_stream stream)
{
  return cm_copy_2d_async (dst->data, dst->pitch, src->data, src->pitch,
      (size_t) src->width * cm_depth_bytes (src->depth), src->height, kind,
      stream);
}

/* The same, waited for. */
static inline cm_status
image_copy (const cm_image * dst, const cm_image * src, cm_copy_kind kind,
    cm_stream stream)
{
  cm_status st = image_copy_async (dst, src, kind, stream);

  return st == CM_OK ? cm_stream_sync (stream) : st;
}
