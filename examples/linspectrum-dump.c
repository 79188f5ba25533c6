/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * linspectrum-dump: prints the angular spectrum of an image as CSV, through
 * the core API (cuda/linspectrum/linspectrum.h) without GStreamer. Input for
 * scripts/plot-spectrum.py.
 *
 *   linspectrum-dump [-c] [-o IMAGE.pgm] page [SKEW]
 *       page of staves rotated by SKEW degrees (default 3.3), 800 x 600;
 *       closings, L = 250, -10 .. 10 step 0.25 (the skew detector)
 *   linspectrum-dump [-c] [-o IMAGE.pgm] texture
 *       bright lines along 30 degrees (strong) and 115 degrees (weaker),
 *       512 x 512; openings, L = 101, 0 .. 180 step 1
 *   linspectrum-dump [-c] pgm FILE LENGTH MIN MAX STEP open|close
 *       any binary PGM (P5, 8 or 16 bits)
 *
 *   -c            CPU reference even when a CUDA device works
 *   -o IMAGE.pgm  also write the generated input image
 *
 * Output: '#' comment lines (input, parameters, backend, dominant angle),
 * then "angle,sum,mean" per orientation: the sum of the filtered image and
 * the sum divided by the pixel count (what cudalinspectrum posts as
 * "spectrum"). The CUDA plan and the CPU reference give the same sums bit
 * for bit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "linspectrum/linspectrum.h"
#include "synthetic-lines.h"

static void
usage (void)
{
  fprintf (stderr, "usage: linspectrum-dump [-c] [-o IMAGE.pgm] page "
      "[SKEW]\n"
      "       linspectrum-dump [-c] [-o IMAGE.pgm] texture\n"
      "       linspectrum-dump [-c] pgm FILE LENGTH MIN MAX STEP "
      "open|close\n");
  exit (2);
}

static int
image_alloc (cm_image * img, int w, int h, cm_depth depth)
{
  img->width = w;
  img->height = h;
  img->depth = depth;
  img->pitch = (size_t) w * cm_depth_bytes (depth);
  img->data = calloc ((size_t) h, img->pitch);
  return img->data != NULL;
}

/* lines at 30 degrees every 11 px, and at 115 degrees every 16 px at half
 * the contrast: per pixel the brighter of the two patterns */
static int
make_texture (cm_image * img)
{
  cm_image second;

  if (!image_alloc (img, 512, 512, CM_DEPTH_8) ||
      !image_alloc (&second, 512, 512, CM_DEPTH_8))
    return 0;
  synth_parallel_lines (img, 30.0, 11.0, 1);
  synth_parallel_lines (&second, 115.0, 16.0, 2);
  for (size_t i = 0; i < (size_t) 512 * 512; i++) {
    uint8_t *a = (uint8_t *) img->data + i, b = ((uint8_t *) second.data)[i];
    uint8_t half = (uint8_t) (30 + (b > 30 ? (b - 30) / 2 : 0));

    if (half > *a)
      *a = half;
  }
  free (second.data);
  return 1;
}

/* binary PGM (P5), maxval <= 65535; 16-bit samples are big-endian in the
 * file */
static int
read_pgm (const char *path, cm_image * img)
{
  FILE *f = fopen (path, "rb");
  int w, h, maxval, ok = 0;
  size_t n;

  if (!f)
    return 0;
  if (fscanf (f, "P5 %d %d %d", &w, &h, &maxval) != 3 || w < 1 || h < 1 ||
      maxval < 1 || maxval > 65535 || fgetc (f) == EOF)
    goto out;
  if (!image_alloc (img, w, h, maxval > 255 ? CM_DEPTH_16 : CM_DEPTH_8))
    goto out;
  n = (size_t) h * img->pitch;
  if (fread (img->data, 1, n, f) != n)
    goto out;
  if (img->depth == CM_DEPTH_16) {
    uint8_t *p = img->data;

    for (size_t i = 0; i < n; i += 2) {
      uint16_t v = (uint16_t) (p[i] << 8 | p[i + 1]);
      memcpy (p + i, &v, 2);
    }
  }
  ok = 1;
out:
  fclose (f);
  return ok;
}

static int
write_pgm (const char *path, const cm_image * img)
{
  FILE *f = fopen (path, "wb");
  int ok;

  if (!f)
    return 0;
  /* 8-bit only: the generated images */
  fprintf (f, "P5\n%d %d\n255\n", img->width, img->height);
  ok = fwrite (img->data, img->pitch, (size_t) img->height, f) ==
      (size_t) img->height;
  return fclose (f) == 0 && ok;
}

/* The spectrum on the GPU: upload, one plan run, the pinned host copy.
 * Any failure (no device, CPU-only build) returns it and the caller falls
 * back to the reference. */
static cm_status
spectrum_cuda (const cm_linspectrum_desc * d, const cm_image * img,
    uint64_t * spec, char *how, size_t how_size)
{
  cm_linspectrum_plan *plan = NULL;
  cm_image dev = { 0 };
  cm_stream stream = NULL;
  cm_status st;
  int n = cm_linspectrum_count_angles (d);

  if (cm_device_count () == 0)
    return CM_ERR_NO_DEVICE;
  st = cm_device_set (-1);
  if (st == CM_OK)
    st = cm_stream_new (&stream);
  if (st == CM_OK)
    st = cm_linspectrum_plan_new (&plan, d, img->width, img->height,
        img->depth);
  if (st == CM_OK)
    st = cm_device_image_alloc (&dev, img->width, img->height, img->depth);
  if (st == CM_OK)
    st = cm_copy_2d_async (dev.data, dev.pitch, img->data, img->pitch,
        (size_t) img->width * cm_depth_bytes (img->depth), img->height,
        CM_COPY_H2D, stream);
  if (st == CM_OK)
    st = cm_linspectrum_plan_run (plan, &dev, NULL, NULL, stream);
  if (st == CM_OK)
    st = cm_stream_sync (stream);
  if (st == CM_OK) {
    char name[128] = "";

    memcpy (spec, cm_linspectrum_plan_spectrum (plan), sizeof (*spec) * n);
    cm_device_name (-1, name, sizeof (name));
    snprintf (how, how_size, "cuda (%s; %s)", name,
        cm_linspectrum_plan_describe (plan));
  }
  cm_linspectrum_plan_free (plan);
  cm_device_free (dev.data);
  if (stream)
    cm_stream_free (stream);
  return st;
}

int
main (int argc, char **argv)
{
  cm_linspectrum_desc d = { 0 };
  cm_image img = { 0 };
  const char *out = NULL;
  char what[256], how[256] = "cpu reference";
  int cpu = 0, a = 1, n;
  uint64_t *spec;
  double angle, value, pixels;
  cm_status st;

  for (; a < argc && argv[a][0] == '-'; a++) {
    if (!strcmp (argv[a], "-c"))
      cpu = 1;
    else if (!strcmp (argv[a], "-o") && a + 1 < argc)
      out = argv[++a];
    else
      usage ();
  }
  if (a == argc)
    usage ();
  if (!strcmp (argv[a], "page") && argc - a <= 2) {
    double skew = argc - a == 2 ? atof (argv[a + 1]) : 3.3;
    cm_linspectrum_desc page = { 250, -10, 10, 0.25, CM_MORPH_CLOSE, 0, 0 };

    d = page;
    if (!image_alloc (&img, 800, 600, CM_DEPTH_8))
      return 1;
    synth_staff_page (&img, skew, 1);
    snprintf (what, sizeof (what), "page of staves skewed by %g degrees",
        skew);
  } else if (!strcmp (argv[a], "texture") && argc - a == 1) {
    cm_linspectrum_desc tex = { 101, 0, 180, 1, CM_MORPH_OPEN, 0, 0 };

    d = tex;
    if (!make_texture (&img))
      return 1;
    snprintf (what, sizeof (what), "bright lines at 30 and 115 degrees");
  } else if (!strcmp (argv[a], "pgm") && argc - a == 7) {
    d.length = atoi (argv[a + 2]);
    d.angle_min = atof (argv[a + 3]);
    d.angle_max = atof (argv[a + 4]);
    d.angle_step = atof (argv[a + 5]);
    d.op = !strcmp (argv[a + 6], "close") ? CM_MORPH_CLOSE : CM_MORPH_OPEN;
    if (!read_pgm (argv[a + 1], &img)) {
      fprintf (stderr, "cannot read %s as a binary PGM\n", argv[a + 1]);
      return 1;
    }
    snprintf (what, sizeof (what), "%s", argv[a + 1]);
    out = NULL;
  } else {
    usage ();
  }
  if (cm_linspectrum_desc_check (&d) != CM_OK) {
    fprintf (stderr, "invalid length or angles\n");
    return 2;
  }
  if (out && !write_pgm (out, &img))
    fprintf (stderr, "cannot write %s\n", out);

  n = cm_linspectrum_count_angles (&d);
  spec = calloc ((size_t) n, sizeof (uint64_t));
  st = cpu ? CM_ERR_NO_DEVICE : spectrum_cuda (&d, &img, spec, how,
      sizeof (how));
  if (st != CM_OK) {
    if (!cpu)
      snprintf (how, sizeof (how), "cpu reference (cuda: %s)",
          cm_status_string (st));
    st = cm_linspectrum_ref (&d, &img, spec, NULL, NULL);
  }
  if (st == CM_OK)
    st = cm_linspectrum_dominant (&d, spec, n, &angle, &value);
  if (st != CM_OK) {
    fprintf (stderr, "linspectrum: %s\n", cm_status_string (st));
    return 1;
  }

  pixels = (double) img.width * img.height;
  printf ("# input: %s, %dx%d, %d-bit\n", what, img.width, img.height,
      (int) img.depth);
  printf ("# operation: %s, length %d, angles %g .. %g step %g\n",
      d.op == CM_MORPH_CLOSE ? "close" : "open", d.length, d.angle_min,
      d.angle_max, d.angle_step);
  printf ("# backend: %s\n", how);
  printf ("# dominant: %.4f degrees, mean %.4f\n", angle, value / pixels);
  printf ("angle,sum,mean\n");
  for (int i = 0; i < n; i++)
    printf ("%.6g,%llu,%.6f\n", cm_linspectrum_angle (&d, i),
        (unsigned long long) spec[i], (double) spec[i] / pixels);
  free (spec);
  free (img.data);
  return 0;
}
