/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the GPU kernel tests (test-morph-gpu, test-median-gpu,
 * test-linspectrum-gpu, test-reconstruct-gpu, test-attribute-gpu,
 * test-blobs-gpu) share: the device and stream their main () opens,
 * whole-image copies between host and device, and device images whose
 * view starts off the allocation's first sample. */
#pragma once

#include <stdio.h>
#include <stdlib.h>

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

/* kernel_test_open (), and *@verbose: whether CM_TEST_VERBOSE is above 0
 * (print every case) */
static inline int
kernel_test_open_verbose (cm_stream * stream, int *verbose)
{
  const char *v = getenv ("CM_TEST_VERBOSE");
  int rc = kernel_test_open (stream);

  *verbose = v && atoi (v) > 0;
  return rc;
}

/* The status of a call that queued work on @stream (@queued): its own
 * error, else the stream's once all is done */
static inline cm_status
kernel_test_synced (cm_status queued, cm_stream stream)
{
  return queued == CM_OK ? cm_stream_sync (stream) : queued;
}

/* The end of main (): the stream let go, the counts printed; the exit
 * status, 1 on any failure */
static inline int
kernel_test_close (cm_stream stream, int n_pass, int n_fail)
{
  cm_stream_free (stream);
  printf ("%d passed, %d failed\n", n_pass, n_fail);
  return n_fail ? 1 : 0;
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
  return kernel_test_synced (image_copy_async (dst, src, kind, stream),
      stream);
}

/* A device image two samples wider than its view; layout 0: the view at
 * the allocation's start (the allocator's pitch), 1: one sample in */
typedef struct
{
  cm_image alloc;
  cm_image view;
} kernel_test_image;

static inline int
kernel_test_image_new (kernel_test_image * d, int w, int h, cm_depth depth,
    int layout)
{
  if (cm_device_image_alloc (&d->alloc, w + 2, h, depth) != CM_OK)
    return 0;
  d->view = d->alloc;
  d->view.width = w;
  if (layout == 1)
    d->view.data = (uint8_t *) d->alloc.data + cm_depth_bytes (depth);
  return 1;
}

/* The view of @layout, @w wide, inside a host copy of the whole
 * allocation */
static inline cm_image
kernel_test_host_view (const cm_image * whole, int layout, int w)
{
  cm_image v = *whole;

  v.width = w;
  if (layout == 1)
    v.data = (uint8_t *) whole->data + cm_depth_bytes (whole->depth);
  return v;
}

/* @a and @b made (their views @w x @h at @da and @db, @layout), or 0 with
 * neither */
static inline int
kernel_test_images_new (kernel_test_image * a, kernel_test_image * b, int w,
    int h, cm_depth da, cm_depth db, int layout)
{
  if (!kernel_test_image_new (a, w, h, da, layout))
    return 0;
  if (!kernel_test_image_new (b, w, h, db, layout)) {
    cm_device_free (a->alloc.data);
    return 0;
  }
  return 1;
}

/* The samples of @whole outside the view of @layout, @w wide, are still
 * those of @noise (the first that is not said on stderr) */
static inline int
kernel_test_outside_untouched (const cm_image * whole, const cm_image * noise,
    int layout, int w, const char *what)
{
  for (int y = 0; y < whole->height; y++)
    for (int x = 0; x < whole->width; x++) {
      const int inside = x >= layout && x < layout + w;

      if (!inside && test_image_get (whole, x, y) !=
          test_image_get (noise, x, y)) {
        fprintf (stderr, "%s: wrote outside the view at (%d, %d)\n", what,
            x, y);
        return 0;
      }
    }
  return 1;
}

/* The output in @d downloaded whole into @whole: @want in the view of
 * @layout, @noise (what was uploaded before the run) around it */
static inline int
kernel_test_output_ok (const kernel_test_image * d, const cm_image * whole,
    const cm_image * want, const cm_image * noise, int layout,
    cm_stream stream, const char *what)
{
  cm_image got;

  image_copy (whole, &d->alloc, CM_COPY_D2H, stream);
  got = kernel_test_host_view (whole, layout, want->width);
  return test_image_equal (&got, want, what) &&
      kernel_test_outside_untouched (whole, noise, layout, want->width,
      what);
}

/* The source in @d still the @whole allocation uploaded */
static inline int
kernel_test_source_unchanged (const kernel_test_image * d,
    const cm_image * whole, cm_stream stream)
{
  cm_image back = test_image_new (whole->width, whole->height,
      whole->depth, 0);
  int ok;

  image_copy (&back, &d->alloc, CM_COPY_D2H, stream);
  ok = test_image_equal (&back, whole, "source unchanged");
  test_image_free (&back);
  return ok;
}
