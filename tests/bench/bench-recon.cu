/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reconstruction benchmark: device time of cm_recon_plan_run (CUDA events
 * behind the gate, warm-up, median of --runs) for the operations an
 * inspection line uses, on photographs tiled to the frame size (8-bit PGM
 * files given with --image; 16-bit rows scale them by 257), on
 * synthetic piecewise-constant blobs, and on the framed serpentine maze
 * (the longest propagation a frame can hold). Each row also gives the
 * passes the run needed and, when asked (--check), whether the result
 * equals the CPU twin. NPP has no reconstruction; scikit-image and cuCIM
 * are timed by bench-recon-peers.py on the same images.
 *
 *   bench-recon [--image a.pgm ...] [--size 3840x2160] [--runs 21]
 *               [--band 0,32,128] [--blocks-per-sm N] [--only IMAGE]
 *               [--chunked-rows] [--check]
 * (--only: the rows of one image, by name: "camera.pgm", "flat", ...) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "bench-common.cuh"
#include "device.h"
#include "reconstruct/reconstruct.h"
#include "morph/se.h"
extern "C" {
#include "test-util.h"
}

/* the frame @w x @h at @depth, the image tiled over it */
static cm_image
frame_of (const bench_photo &img, int w, int h, cm_depth depth)
{
  cm_image f = test_image_new (w, h, depth, 0);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint32_t v = img.px[(size_t) (y % img.h) * img.w + x % img.w];
      test_image_set (&f, x, y, depth == CM_DEPTH_16 ? v * 257 : v);
    }
  return f;
}

struct op_row
{
  cm_recon_op op;
  const char *what;
};

int
main (int argc, char **argv)
{
  std::vector<bench_photo> images;
  std::vector<int> bands = { 0 };
  int w = 3840, h = 2160, runs = 21, check = 0, blocks_per_sm = 0;
  int chunked = 0;
  const char *only = NULL;
  cudaDeviceProp prop;
  bench_timer t;
  cm_se *disk7;
  test_rng r;

  for (int i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--image") && i + 1 < argc) {
      if (!bench_add_photo (argv[++i], images))
        return 2;
    } else if (!strcmp (argv[i], "--size") && i + 1 < argc) {
      if (sscanf (argv[++i], "%dx%d", &w, &h) != 2 || w < 1 || h < 1)
        return 2;
    } else if (!strcmp (argv[i], "--runs") && i + 1 < argc) {
      runs = atoi (argv[++i]);
    } else if (!strcmp (argv[i], "--band") && i + 1 < argc) {
      bands.clear ();
      for (char *s = strtok (argv[++i], ","); s; s = strtok (NULL, ","))
        bands.push_back (atoi (s));
    } else if (!strcmp (argv[i], "--blocks-per-sm") && i + 1 < argc) {
      blocks_per_sm = atoi (argv[++i]);
    } else if (!strcmp (argv[i], "--only") && i + 1 < argc) {
      only = argv[++i];
    } else if (!strcmp (argv[i], "--chunked-rows")) {
      chunked = 1;
    } else if (!strcmp (argv[i], "--check")) {
      check = 1;
    } else {
      fprintf (stderr, "usage: %s [--image a.pgm ...] [--size WxH] "
          "[--runs N] [--band 0,32,...] [--blocks-per-sm N] "
          "[--only IMAGE] [--chunked-rows] [--check]\n", argv[0]);
      return 2;
    }
  }
  if (int rc = bench_open_device (0, &prop))
    return rc;
  bench_timer_init (t, 0);
  CK (cm_se_new_disk (&disk7, 7) == CM_OK ? cudaSuccess : cudaErrorUnknown);

  /* synthetic inputs after the photographs */
  {
    bench_photo blobs, maze, flat;
    cm_image b = test_image_new (w, h, CM_DEPTH_8, 0);
    cm_image m = test_image_new (w, h, CM_DEPTH_8, 0);

    test_rng_seed (&r, 4096);
    test_image_fill_blobs (&b, &r, 24, 16);
    test_image_fill_maze (&m, 230, 20, 0, 1);
    blobs.name = "blobs";
    maze.name = "framed maze";
    blobs.w = maze.w = w;
    blobs.h = maze.h = h;
    blobs.px.assign ((uint8_t *) b.data, (uint8_t *) b.data + (size_t) w * h);
    maze.px.assign ((uint8_t *) m.data, (uint8_t *) m.data + (size_t) w * h);
    /* one value: fill holes converges in two passes (the row sweeps reach
     * every pixel from the frame's sides), a pass's cost */
    flat.name = "flat";
    flat.w = w;
    flat.h = h;
    flat.px.assign ((size_t) w * h, 100);
    images.push_back (blobs);
    images.push_back (flat);
    images.push_back (maze);
    test_image_free (&b);
    test_image_free (&m);
  }

  static const op_row ops[] = {
    {CM_RECON_FILL_HOLES, "fill-holes"},
    {CM_RECON_OPEN, "open-rec disk r7"},
    {CM_RECON_CLEAR_BORDER, "clear-border"},
    {CM_RECON_HDOME, "hdome h=10"},
  };

  printf ("timing: %s\nframe %dx%d, median of %d runs after 3 warm-up "
      "runs, 8-connectivity\n\n", bench_timing_name (t), w, h, runs);
  printf ("| image | depth | operation | band rows (0: default) | passes | ms | first ms "
      "|%s\n", check ? " equals CPU |" : "");
  printf ("| --- | --- | --- | --- | --- | --- | --- |%s\n",
      check ? " --- |" : "");

  for (const bench_photo &img : images)
    for (int depth = 8; depth <= 16; depth += 8)
      for (const op_row &o : ops) {
        if (only && img.name != only)
          continue;
        /* the maze: fill holes floods its corridor; the rest say little */
        if ((img.name == "framed maze" || img.name == "flat") &&
            o.op != CM_RECON_FILL_HOLES)
          continue;
        cm_image hf = frame_of (img, w, h, (cm_depth) depth);
        cm_image src = bench_device_image (w, h, (cm_depth) depth);
        cm_image dst = bench_device_image (w, h, (cm_depth) depth);

        bench_copy_image (src, hf, cudaMemcpyHostToDevice);

        for (int band : bands) {
          cm_recon_desc d;
          cm_recon_tuning tun = { band, blocks_per_sm, chunked };
          cm_recon_plan *plan = NULL;
          double first = 0, ms;
          const char *eq = "";

          memset (&d, 0, sizeof (d));
          d.op = o.op;
          d.connectivity = 8;
          d.height = depth == 16 ? 10 * 257 : 10;
          d.marker.se = disk7;
          d.marker.iterations = 1;
          d.marker.border = CM_BORDER_NEUTRAL;
          if (cm_recon_plan_new_tuned (&plan, &d, w, h, (cm_depth) depth,
                  &tun) != CM_OK) {
            fprintf (stderr, "plan refused\n");
            return 1;
          }
          ms = time_median (t, 3, runs, [&] () {
                return cm_recon_plan_run (plan, &src, &dst, t.stream) ==
                CM_OK;}, &first);
          CK (cudaStreamSynchronize (t.stream));
          if (check) {
            cm_image want = test_image_new (w, h, (cm_depth) depth, 0);
            cm_image got = test_image_new (w, h, (cm_depth) depth, 0);

            bench_copy_image (got, dst, cudaMemcpyDeviceToHost);
            eq = cm_recon_ref (&d, &hf, &want) == CM_OK &&
                test_image_equal (&got, &want, o.what) ? " yes |" : " NO |";
            test_image_free (&want);
            test_image_free (&got);
          }
          printf ("| %s | %d | %s | %d | %d | %.3f | %.3f |%s\n",
              img.name.c_str (), depth, o.what, band,
              cm_recon_plan_passes (plan), ms, first, eq);
          fflush (stdout);
          cm_recon_plan_free (plan);
        }
        cm_device_free (src.data);
        cm_device_free (dst.data);
        test_image_free (&hf);
      }

  cm_se_free (disk7);
  bench_timer_free (t);
  return 0;
}
