/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Area opening benchmark: device time of cm_attr_plan_run (CUDA events
 * behind the gate, warm-up, median of --runs) on photographs tiled to the
 * frame size (8-bit PGM files given with --image, as bench-area-peers.py
 * --write leaves them; 16-bit rows scale them by 257 and add a random
 * low byte, so that the levels are many and the structure the same) and
 * on uniform noise (one node per pixel or nearly: the worst case), at
 * 3840x2160 and 1920x1080, min_area 64 and 1000. With --steps each row
 * also gives the time of the passes (runs stopped after each pass, the
 * differences); with --check whether the result equals the CPU backend
 * (itself equal to the reference, tests/core) and the CPU backend's time
 * (one run each on one thread and on every core, wall clock, the
 * comparison included); with --dump DIR the
 * frames and results as PGM files for bench-area-peers.py --dir. NPP has
 * no attribute filter; scikit-image, DIPlib and Higra are timed by
 * bench-area-peers.py on the same frames.
 *
 *   bench-area [--image a.pgm ...] [--size 3840x2160,1920x1080]
 *              [--runs 21] [--areas 64,1000] [--depths 8,16] [--close]
 *              [--conn 8] [--tile-rows N] [--flat] [--no-noise]
 *              [--low-noise N] [--steps] [--check] [--dump DIR]
 * (--flat: a row of one level after the noise, the longest chains of
 * level roots on the seams; --low-noise N: 16-bit photographs get
 * uniform noise of 0 to N added, as a sensor's low bits: many more
 * levels, a deeper tree) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "bench-common.cuh"
#include "device.h"
#include "attribute/attribute.h"
extern "C" {
#include "test-util.h"
}

/* @name without its .pgm */
static void
strip_pgm (std::string &name)
{
  if (name.size () > 4 && name.substr (name.size () - 4) == ".pgm")
    name.resize (name.size () - 4);
}

/* a PGM of @img (8 bits, or 16 big-endian as PGM wants) */
static void
write_pgm (const char *path, const cm_image &img)
{
  FILE *f = fopen (path, "wb");

  if (!f)
    return;
  fprintf (f, "P5 %d %d %u\n", img.width, img.height,
      cm_depth_max (img.depth));
  for (int y = 0; y < img.height; y++)
    for (int x = 0; x < img.width; x++) {
      uint32_t v = test_image_get (&img, x, y);

      if (img.depth == CM_DEPTH_16)
        fputc (v >> 8, f);
      fputc (v & 255, f);
    }
  fclose (f);
}

/* the frame @w x @h at @depth: the image tiled over it, or noise, or
 * with @flat one level */
static cm_image
frame_of (const bench_photo *img, int w, int h, cm_depth depth, test_rng &r,
    bool flat, uint32_t low_noise)
{
  cm_image f = test_image_new (w, h, depth, 0);

  if (img == NULL) {
    if (flat)
      test_image_fill (&f, cm_depth_max (depth) / 3);
    else
      test_image_fill_random (&f, &r);
    return f;
  }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint32_t v = img->px[(size_t) (y % img->h) * img->w + x % img->w];

      if (depth == CM_DEPTH_16) {
        v = v * 257 + (low_noise ? test_rng_below (&r, low_noise + 1) : 0);
        v = v > 65535 ? 65535 : v;
      }
      test_image_set (&f, x, y, v);
    }
  return f;
}

static std::vector<int>
int_list (char *s)
{
  std::vector<int> v;

  for (char *t = strtok (s, ","); t; t = strtok (NULL, ","))
    v.push_back (atoi (t));
  return v;
}

int
main (int argc, char **argv)
{
  std::vector<bench_photo> images;
  std::vector<int> areas = { 64, 1000 }, depths = { 8, 16 };
  std::vector<std::pair<int, int>> sizes = { {3840, 2160}, {1920, 1080} };
  int runs = 21, check = 0, steps = 0, conn = 8, tile_rows = 0;
  int flat = 0;
  uint32_t low_noise = 0;
  int no_noise = 0;
  cm_attr_op op = CM_ATTR_OPEN;
  const char *dump = NULL;
  cudaDeviceProp prop;
  bench_timer t;
  test_rng r;

  for (int i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--image") && i + 1 < argc) {
      if (!bench_add_photo (argv[++i], images))
        return 2;
      strip_pgm (images.back ().name);
    } else if (!strcmp (argv[i], "--size") && i + 1 < argc) {
      sizes.clear ();
      for (char *s = strtok (argv[++i], ","); s; s = strtok (NULL, ",")) {
        int w, h;

        if (sscanf (s, "%dx%d", &w, &h) != 2 || w < 1 || h < 1)
          return 2;
        sizes.push_back ({w, h});
      }
    } else if (!strcmp (argv[i], "--runs") && i + 1 < argc) {
      runs = atoi (argv[++i]);
    } else if (!strcmp (argv[i], "--areas") && i + 1 < argc) {
      areas = int_list (argv[++i]);
    } else if (!strcmp (argv[i], "--depths") && i + 1 < argc) {
      depths = int_list (argv[++i]);
    } else if (!strcmp (argv[i], "--conn") && i + 1 < argc) {
      conn = atoi (argv[++i]);
    } else if (!strcmp (argv[i], "--tile-rows") && i + 1 < argc) {
      tile_rows = atoi (argv[++i]);
    } else if (!strcmp (argv[i], "--flat")) {
      flat = 1;
    } else if (!strcmp (argv[i], "--no-noise")) {
      no_noise = 1;
    } else if (!strcmp (argv[i], "--low-noise") && i + 1 < argc) {
      low_noise = (uint32_t) atoi (argv[++i]);
    } else if (!strcmp (argv[i], "--close")) {
      op = CM_ATTR_CLOSE;
    } else if (!strcmp (argv[i], "--steps")) {
      steps = 1;
    } else if (!strcmp (argv[i], "--check")) {
      check = 1;
    } else if (!strcmp (argv[i], "--dump") && i + 1 < argc) {
      dump = argv[++i];
    } else {
      fprintf (stderr, "usage: %s [--image a.pgm ...] [--size WxH,...] "
          "[--runs N] [--areas 64,1000] [--depths 8,16] [--close] "
          "[--conn 4|8] [--tile-rows N] [--flat] [--no-noise] "
          "[--low-noise N] [--steps] [--check] [--dump DIR]\n", argv[0]);
      return 2;
    }
  }
  if (int rc = bench_open_device (0, &prop))
    return rc;
  bench_timer_init (t, 0);
  test_rng_seed (&r, 4242);

  printf ("timing: %s\n%s, median of %d runs after 3 warm-up runs, "
      "%d-connectivity, tiles of 32 columns and %s rows\n\n",
      bench_timing_name (t), op == CM_ATTR_OPEN ? "area opening" :
      "area closing", runs, conn, tile_rows ? std::to_string (tile_rows)
      .c_str () : "the plan's");
  printf ("| image | size | depth | min_area | ms | first ms | Mpx/s |%s%s\n",
      steps ? " tiles | seams | nodes | area | output |" : "",
      check ? " equals CPU | CPU ms 1 thread | CPU ms all cores |" : "");
  printf ("| --- | --- | --- | --- | --- | --- | --- |%s%s\n",
      steps ? " --- | --- | --- | --- | --- |" : "",
      check ? " --- | --- | --- |" : "");

  for (auto sz : sizes)
    for (size_t ii = 0; ii <= images.size () + flat; ii++)
      for (int depth : depths) {
        const bench_photo *img = ii < images.size () ? &images[ii] : NULL;
        bool is_flat = ii > images.size ();

        if (no_noise && ii == images.size ())
          continue;
        const char *name = img ? img->name.c_str () : is_flat ? "flat" :
            "noise";
        int w = sz.first, h = sz.second;
        cm_image hf = frame_of (img, w, h, (cm_depth) depth, r, is_flat,
            low_noise);
        cm_image src = bench_device_image (w, h, (cm_depth) depth);
        cm_image dst = bench_device_image (w, h, (cm_depth) depth);

        bench_copy_image (src, hf, cudaMemcpyHostToDevice);
        if (dump) {
          char path[1024];

          snprintf (path, sizeof (path), "%s/%s-%dx%d-%d.pgm", dump, name,
              w, h, depth);
          write_pgm (path, hf);
        }

        for (int area : areas) {
          cm_attr_desc d = { op, CM_ATTR_AREA, (uint32_t) area, conn };
          cm_attr_tuning tun = { tile_rows, 0, 0 };
          cm_attr_plan *plan = NULL;
          double first = 0, ms, part[5] = { 0 };
          const char *eq = "";
          char stepcols[200] = "", cpucol[64] = "";

          if (cm_attr_plan_new_tuned (&plan, &d, w, h, (cm_depth) depth,
                  &tun) != CM_OK) {
            fprintf (stderr, "plan refused\n");
            return 1;
          }
          ms = time_median (t, 3, runs, [&] () {
                return cm_attr_plan_run (plan, &src, &dst, t.stream) ==
                CM_OK;}, &first);
          CK (cudaStreamSynchronize (t.stream));
          if (check || dump) {
            cm_image want = test_image_new (w, h, (cm_depth) depth, 0);
            cm_image got = test_image_new (w, h, (cm_depth) depth, 0);
            cm_attr_cpu *cpu = NULL;

            bench_copy_image (got, dst, cudaMemcpyDeviceToHost);
            if (check) {
              double cms[2] = { -1, -1 };
              bool ran = true;

              /* one thread, then every core */
              for (int k = 0; k < 2; k++) {
                cm_cpu_opts o = { k ? (int) sysconf (_SC_NPROCESSORS_ONLN) :
                  1, NULL, NULL };
                bool made = cm_attr_cpu_new (&cpu, &d, w, h,
                    (cm_depth) depth, &o) == CM_OK;
                auto t0 = std::chrono::steady_clock::now ();

                ran = ran && made && cm_attr_cpu_run (cpu, &hf, &want) ==
                    CM_OK && test_image_equal (&got, &want, name);
                auto t1 = std::chrono::steady_clock::now ();

                cms[k] = std::chrono::duration<double, std::milli> (t1 -
                    t0).count ();
                cm_attr_cpu_free (cpu);
                cpu = NULL;
              }
              eq = ran ? " yes |" : " NO |";
              snprintf (cpucol, sizeof (cpucol), " %.0f | %.0f |", cms[0],
                  cms[1]);
            }
            if (dump) {
              char path[1024];

              snprintf (path, sizeof (path), "%s/%s-%dx%d-%d-%s-%d.pgm",
                  dump, name, w, h, depth, cm_attr_op_name (&d), area);
              write_pgm (path, got);
            }
            cm_attr_cpu_free (cpu);
            test_image_free (&want);
            test_image_free (&got);
          }
          if (steps) {
            for (int s = 1; s <= 4; s++) {
              cm_attr_tuning st = { tile_rows, 0, s };
              cm_attr_plan *sp = NULL;

              if (cm_attr_plan_new_tuned (&sp, &d, w, h, (cm_depth) depth,
                      &st) != CM_OK)
                return 1;
              part[s - 1] = time_median (t, 2, runs, [&] () {
                    return cm_attr_plan_run (sp, &src, &dst, t.stream) ==
                    CM_OK;});
              cm_attr_plan_free (sp);
            }
            part[4] = ms;
            snprintf (stepcols, sizeof (stepcols),
                " %.3f | %.3f | %.3f | %.3f | %.3f |", part[0],
                part[1] - part[0], part[2] - part[1], part[3] - part[2],
                part[4] - part[3]);
          }
          printf ("| %s | %dx%d | %d | %d | %.3f | %.3f | %.0f |%s%s%s\n",
              name, w, h, depth, area, ms, first, (double) w * h / ms /
              1000.0, stepcols, eq, cpucol);
          fflush (stdout);
          cm_attr_plan_free (plan);
        }
        cm_device_free (src.data);
        cm_device_free (dst.data);
        test_image_free (&hf);
      }

  bench_timer_free (t);
  return 0;
}
