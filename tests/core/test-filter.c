/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The filter handle (cm-filter.h) as each family fills it (morph-filter.h,
 * median-filter.h, reconstruct-filter.h, linspectrum-filter.h,
 * blobs-filter.h, attribute-filter.h, temporal-filter.h): on the CPU
 * backend a filter's run gives exactly the reference's output
 * (cm_morph_ref, cm_median_ref, cm_median_luma_ref, cm_recon_ref,
 * cm_linspectrum_ref, cm_orientation_rgba_ref, cm_blobs_ref, cm_attr_ref
 * and cm_temporal_ref of the frames run so far, on the calling thread) for
 * seeded random
 * images of both depths, odd sizes, 1-pixel frames and every border
 * mode, whatever the number of threads; the CUDA backend of a build
 * without CUDA is refused cleanly (CM_ERR_NO_CUDA, no filter); arguments
 * are checked. No GPU is used: in a CUDA build a CUDA filter is only made
 * and freed when a device is there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blobs-cases.h"
#include "blobs/blobs-filter.h"
#include "attribute/attribute-filter.h"
#include "device.h"
#include "linspectrum/linspectrum-filter.h"
#include "linspectrum/orientation-rgba.h"
#include "median/median-filter.h"
#include "morph/morph-filter.h"
#include "reconstruct/reconstruct-filter.h"
#include "temporal/temporal-filter.h"
#include "test-count.h"
#include "test-util.h"

static const cm_cpu_opts cpu_opts = { 3, NULL };

typedef struct
{
  int width, height;
  cm_depth depth;
} size_row;

static const size_row sizes[] = {
  {1, 1, CM_DEPTH_8}, {1, 9, CM_DEPTH_8}, {13, 1, CM_DEPTH_16},
  {17, 11, CM_DEPTH_8}, {33, 20, CM_DEPTH_16}, {64, 7, CM_DEPTH_8},
};

static const cm_border_mode borders[] = {
  CM_BORDER_NEUTRAL, CM_BORDER_REPLICATE, CM_BORDER_REFLECT,
  CM_BORDER_MIRROR, CM_BORDER_CONSTANT,
};

/* The images of one size row: the source (rows padded by 8 bytes), the
 * reference's output and the filter's (padded by 24) */
typedef struct
{
  cm_image src, ref, got;
} row_images;

static row_images
row_images_new (const size_row * z)
{
  row_images im = {
    test_image_new (z->width, z->height, z->depth, 8),
    test_image_new (z->width, z->height, z->depth, 0),
    test_image_new (z->width, z->height, z->depth, 24)
  };

  return im;
}

static void
row_images_free (row_images * im)
{
  test_image_free (&im->src);
  test_image_free (&im->ref);
  test_image_free (&im->got);
}

/* The start of one case, counted as a check: whether its reference ran */
static int
reference_ran (int ok, const char *what)
{
  checks++;
  if (!ok)
    FAIL ("%s: reference failed", what);
  return ok;
}

/* A filter's run (st: of making it and running it) against the reference:
 * whether it ran and got equals ref; the failure said, differs saying how
 * an unequal image differs */
static int
run_matches (cm_status st, const cm_image * got, const cm_image * ref,
    const char *what, const char *differs)
{
  if (st != CM_OK)
    FAIL ("%s: %s", what, cm_status_string (st));
  else if (!test_image_equal (got, ref, what))
    FAIL ("%s: %s", what, differs);
  else
    return 1;
  return 0;
}

/* ---- morphology --------------------------------------------------------- */

static void
test_morph (test_rng * rng)
{
  cm_se *ses[3] = { NULL, NULL, NULL };
  char what[160];

  cm_se_new_rect (&ses[0], 5, 3);
  cm_se_new_disk (&ses[1], 2);
  cm_se_new_line (&ses[2], 7, 30.0);

  for (int i = 0; i < N_OF (sizes); i++) {
    const size_row *z = &sizes[i];
    row_images im = row_images_new (z);

    test_image_fill_random (&im.src, rng);
    for (int op = 0; op < CM_MORPH_OP_COUNT; op++) {
      for (int b = 0; b < N_OF (borders); b++) {
        cm_morph_desc d = { (cm_morph_op) op, ses[(op + b) % 3], 1 + b % 2,
          borders[b], 77 + 1000 * (uint32_t) b
        };
        cm_filter *f = NULL;
        cm_status st;

        snprintf (what, sizeof (what), "morph %s border %d %dx%d/%d",
            cm_morph_op_name (d.op), (int) d.border, z->width, z->height,
            (int) z->depth);
        if (!reference_ran (cm_morph_ref (&d, &im.src, &im.ref) == CM_OK,
                what))
          continue;
        st = cm_morph_filter_new (&f, CM_BACKEND_CPU, &d, z->width,
            z->height, z->depth, &cpu_opts);
        if (st == CM_OK)
          st = cm_filter_run (f, &im.src, &im.got, NULL);
        if (run_matches (st, &im.got, &im.ref, what,
                "differs from cm_morph_ref") &&
            (cm_filter_backend (f) != CM_BACKEND_CPU ||
                strncmp (cm_filter_algorithm (f), "cpu-", 4) != 0))
          FAIL ("%s: backend or algorithm", what);
        cm_filter_free (f);
      }
    }
    row_images_free (&im);
  }
  for (int i = 0; i < 3; i++)
    cm_se_free (ses[i]);
}

/* The filter copies the structuring element: the caller's may go. */
static void
test_morph_owns_se (test_rng * rng)
{
  cm_image src = test_image_new (19, 14, CM_DEPTH_8, 0);
  cm_image ref = test_image_new (19, 14, CM_DEPTH_8, 0);
  cm_image got = test_image_new (19, 14, CM_DEPTH_8, 0);
  cm_se *se = NULL;
  cm_filter *f = NULL;
  cm_morph_desc d = { CM_MORPH_GRADIENT, NULL, 2, CM_BORDER_REFLECT, 0 };

  test_image_fill_random (&src, rng);
  cm_se_new_octagon (&se, 3);
  d.se = se;
  cm_morph_ref (&d, &src, &ref);
  checks++;
  if (cm_morph_filter_new (&f, CM_BACKEND_CPU, &d, 19, 14, CM_DEPTH_8,
          NULL) != CM_OK) {
    FAIL ("morph filter with its own SE: not made");
  } else {
    cm_se_free (se);
    se = NULL;
    if (cm_filter_run (f, &src, &got, NULL) != CM_OK ||
        !test_image_equal (&got, &ref, "morph, SE freed by the caller"))
      FAIL ("morph filter after the caller freed its SE");
  }
  cm_filter_free (f);
  cm_se_free (se);
  test_image_free (&src);
  test_image_free (&ref);
  test_image_free (&got);
}

/* ---- median ------------------------------------------------------------- */

static const struct
{
  int w, h;
  double percentile;
} windows[] = {
  {3, 3, 50}, {5, 5, 50}, {7, 3, 90}, {1, 9, 0}, {11, 11, 100}, {3, 5, 25},
};

/* A packed view of @img, whose width holds @channels samples per pixel */
static cm_image_packed
packed_of (const cm_image * img, int channels)
{
  cm_image_packed p = { img->data, img->pitch, img->width / channels,
    img->height, img->depth, channels
  };
  return p;
}

static void
test_median (test_rng * rng)
{
  char what[160];

  for (int i = 0; i < N_OF (sizes); i++) {
    const size_row *z = &sizes[i];
    row_images im = row_images_new (z);
    cm_image psrc = test_image_new (4 * z->width, z->height, z->depth, 8);
    cm_image pref = test_image_new (4 * z->width, z->height, z->depth, 0);
    cm_image pgot = test_image_new (4 * z->width, z->height, z->depth, 0);
    cm_image_packed ps = packed_of (&psrc, 4), pr = packed_of (&pref, 4),
        pg = packed_of (&pgot, 4);

    test_image_fill_random (&im.src, rng);
    test_image_fill_random (&psrc, rng);
    for (int w = 0; w < N_OF (windows); w++) {
      for (int b = 0; b < N_OF (borders); b++) {
        cm_median_desc d;
        cm_filter *f = NULL;
        cm_status st;

        memset (&d, 0, sizeof (d));
        d.window_w = windows[w].w;
        d.window_h = windows[w].h;
        d.percentile = windows[w].percentile;
        d.border = borders[b];
        d.border_value = 200;
        d.plan_flags = CM_MEDIAN_PLAN_LUMA;
        snprintf (what, sizeof (what), "median %dx%d p%g border %d %dx%d/%d",
            d.window_w, d.window_h, d.percentile, (int) d.border, z->width,
            z->height, (int) z->depth);
        if (!reference_ran (cm_median_ref (&d, &im.src, &im.ref) == CM_OK &&
                cm_median_luma_ref (&d, &ps, &pr, 2, 1, 0, 3) == CM_OK, what))
          continue;
        st = cm_median_filter_new (&f, CM_BACKEND_CPU, &d, z->width,
            z->height, z->depth, &cpu_opts);
        if (st == CM_OK)
          st = cm_filter_run (f, &im.src, &im.got, NULL);
        run_matches (st, &im.got, &im.ref, what, "differs from cm_median_ref");
        if (st == CM_OK) {
          st = cm_median_filter_set_channels (f, 2, 1, 0, 3);
          if (st == CM_OK)
            st = cm_filter_run_packed (f, &ps, &pg, NULL);
          if (st != CM_OK)
            FAIL ("%s, luma: %s", what, cm_status_string (st));
          else if (!test_image_equal (&pgot, &pref, what))
            FAIL ("%s: luma differs from cm_median_luma_ref", what);
        }
        cm_filter_free (f);
      }
    }
    row_images_free (&im);
    test_image_free (&psrc);
    test_image_free (&pref);
    test_image_free (&pgot);
  }
}

/* ---- reconstruction ----------------------------------------------------- */

static void
test_recon (test_rng * rng)
{
  cm_se *se = NULL;
  char what[160];

  cm_se_new_rect (&se, 3, 5);
  for (int i = 0; i < N_OF (sizes); i++) {
    const size_row *z = &sizes[i];
    row_images im = row_images_new (z);

    test_image_fill_levels (&im.src, rng, 6);
    for (int op = 0; op < CM_RECON_OP_COUNT; op++) {
      for (int conn = 4; conn <= 8; conn += 4) {
        cm_recon_desc d;
        cm_filter *f = NULL;
        cm_status st;

        memset (&d, 0, sizeof (d));
        d.op = (cm_recon_op) op;
        d.connectivity = conn;
        d.height = 30;
        d.marker.op = op == CM_RECON_CLOSE ? CM_MORPH_DILATE : CM_MORPH_ERODE;
        d.marker.se = se;
        d.marker.iterations = 1;
        d.marker.border = borders[(op + conn) % N_OF (borders)];
        d.marker.border_value = 9;
        snprintf (what, sizeof (what), "recon %s conn %d %dx%d/%d",
            cm_recon_op_name (d.op), conn, z->width, z->height,
            (int) z->depth);
        if (!reference_ran (cm_recon_ref (&d, &im.src, &im.ref) == CM_OK,
                what))
          continue;
        st = cm_recon_filter_new (&f, CM_BACKEND_CPU, &d, z->width,
            z->height, z->depth, &cpu_opts);
        if (st == CM_OK)
          st = cm_filter_run (f, &im.src, &im.got, NULL);
        run_matches (st, &im.got, &im.ref, what, "differs from cm_recon_ref");
        cm_filter_free (f);
      }
    }
    row_images_free (&im);
  }
  cm_se_free (se);
}

/* ---- temporal percentile ------------------------------------------------ */

/* Four frames through a filter of 3: each output against cm_temporal_ref
 * of the window (the frames since the start, at most 3, kept here) */
static void
test_temporal (test_rng * rng)
{
  char what[160];

  for (int i = 0; i < N_OF (sizes); i++) {
    const size_row *z = &sizes[i];
    const cm_temporal_desc d = { 3, 20.0 * i, (cm_temporal_output) (i % 2),
      1, -1
    };
    cm_image frames[4];
    cm_image_packed win[4], ref;
    cm_image got = test_image_new (z->width, z->height, z->depth, 24);
    cm_filter *f = NULL;
    cm_status st;

    st = cm_temporal_filter_new (&f, CM_BACKEND_CPU, &d, z->width,
        z->height, z->depth, &cpu_opts);
    for (int t = 0; t < 4; t++) {
      const int first = t < 2 ? 0 : t - 2;
      cm_image want = test_image_new (z->width, z->height, z->depth, 0);

      frames[t] = test_image_new (z->width, z->height, z->depth, 8);
      test_image_fill_random (&frames[t], rng);
      for (int j = first; j <= t; j++)
        win[j - first] = packed_of (&frames[j], 1);
      ref = packed_of (&want, 1);
      snprintf (what, sizeof (what), "temporal %dx%d/%d frame %d",
          z->width, z->height, (int) z->depth, t);
      if (st == CM_OK)
        st = cm_filter_run (f, &frames[t], &got, NULL);
      if (reference_ran (cm_temporal_ref (&d, win, t - first + 1, &ref) ==
              CM_OK, what))
        run_matches (st, &got, &want, what, "differs from cm_temporal_ref");
      test_image_free (&want);
    }
    checks++;
    if (cm_temporal_filter_window (f) != 3)
      FAIL ("temporal: window %d after 4 frames", cm_temporal_filter_window
          (f));
    for (int t = 0; t < 4; t++)
      test_image_free (&frames[t]);
    test_image_free (&got);
    cm_filter_free (f);
  }
}

/* ---- area opening and closing ------------------------------------------ */

static void
test_attr (test_rng * rng)
{
  char what[160];

  for (int i = 0; i < N_OF (sizes); i++) {
    const size_row *z = &sizes[i];
    row_images im = row_images_new (z);

    test_image_fill_levels (&im.src, rng, 5);
    for (int op = 0; op < CM_ATTR_OP_COUNT; op++)
      for (int conn = 4; conn <= 8; conn += 4) {
        cm_attr_desc d = { (cm_attr_op) op, CM_ATTR_AREA, 4, conn };
        cm_filter *f = NULL;
        cm_status st;

        snprintf (what, sizeof (what), "%s conn %d %dx%d/%d",
            cm_attr_op_name (&d), conn, z->width, z->height, (int) z->depth);
        if (!reference_ran (cm_attr_ref (&d, &im.src, &im.ref) == CM_OK,
                what))
          continue;
        st = cm_attr_filter_new (&f, CM_BACKEND_CPU, &d, z->width,
            z->height, z->depth, &cpu_opts);
        if (st == CM_OK)
          st = cm_filter_run (f, &im.src, &im.got, NULL);
        run_matches (st, &im.got, &im.ref, what, "differs from cm_attr_ref");
        cm_filter_free (f);
      }
    row_images_free (&im);
  }
}

/* ---- linear spectrum ---------------------------------------------------- */

static void
test_linspectrum (test_rng * rng)
{
  char what[160];

  for (int i = 0; i < N_OF (sizes); i++) {
    const size_row *z = &sizes[i];
    cm_image src = test_image_new (z->width, z->height, z->depth, 8);
    cm_image sup_ref = test_image_new (z->width, z->height, z->depth, 0);
    cm_image orient_ref = test_image_new (z->width, z->height, CM_DEPTH_16,
        0);
    cm_image sup = test_image_new (z->width, z->height, z->depth, 16);
    cm_image rgba_ref = test_image_new (4 * z->width, z->height, CM_DEPTH_8,
        0);
    cm_image rgba = test_image_new (4 * z->width, z->height, CM_DEPTH_8, 4);
    cm_image_packed pr = packed_of (&rgba_ref, 4), pg = packed_of (&rgba, 4);

    test_image_fill_random (&src, rng);
    for (int op = 0; op < 2; op++) {
      cm_linspectrum_desc d;
      cm_filter *f = NULL;
      uint64_t *spectrum;
      cm_status st;
      int n;

      memset (&d, 0, sizeof (d));
      d.length = 5 + 2 * op;
      d.angle_min = 0;
      d.angle_max = 180;
      d.angle_step = op ? 15 : 22.5;
      d.op = op ? CM_MORPH_CLOSE : CM_MORPH_OPEN;
      d.want_supremum = d.want_orientation = 1;
      n = cm_linspectrum_count_angles (&d);
      spectrum = (uint64_t *) calloc ((size_t) n, sizeof (uint64_t));
      snprintf (what, sizeof (what), "linspectrum %s L %d %dx%d/%d",
          op ? "close" : "open", d.length, z->width, z->height,
          (int) z->depth);
      if (!reference_ran (cm_linspectrum_ref (&d, &src, spectrum, &sup_ref,
                  &orient_ref) == CM_OK && cm_orientation_rgba_ref (&d,
                  &sup_ref, &orient_ref, &pr) == CM_OK, what)) {
        free (spectrum);
        continue;
      }
      st = cm_linspectrum_filter_new (&f, CM_BACKEND_CPU, &d, z->width,
          z->height, z->depth, &cpu_opts);
      if (st == CM_OK)
        st = cm_filter_run (f, &src, &sup, NULL);
      if (run_matches (st, &sup, &sup_ref, what,
              "supremum differs from cm_linspectrum_ref") &&
          (cm_linspectrum_filter_count (f) != n ||
              memcmp (cm_linspectrum_filter_spectrum (f), spectrum,
                  (size_t) n * sizeof (uint64_t)) != 0))
        FAIL ("%s: spectrum differs from cm_linspectrum_ref", what);
      if (st == CM_OK) {
        st = cm_filter_run_to_packed (f, &src, &pg, NULL);
        if (st != CM_OK)
          FAIL ("%s, rgba: %s", what, cm_status_string (st));
        else if (!test_image_equal (&rgba, &rgba_ref, what))
          FAIL ("%s: orientation map differs from the references", what);
        /* the spectrum alone: no dst */
        st = cm_filter_run (f, &src, NULL, NULL);
        checks++;
        if (st != CM_OK || memcmp (cm_linspectrum_filter_spectrum (f),
                spectrum, (size_t) n * sizeof (uint64_t)) != 0)
          FAIL ("%s, spectrum alone: %s", what, cm_status_string (st));
      }
      cm_filter_free (f);
      free (spectrum);
    }
    test_image_free (&src);
    test_image_free (&sup_ref);
    test_image_free (&orient_ref);
    test_image_free (&sup);
    test_image_free (&rgba_ref);
    test_image_free (&rgba);
  }
}

/* ---- blobs ------------------------------------------------------------- */

/* the mask and the results, 4- and 8-connected, the largest 3 */
static void
test_blobs (test_rng * rng)
{
  char what[160];

  for (int i = 0; i < N_OF (sizes); i++) {
    const size_row *z = &sizes[i];
    row_images im = row_images_new (z);

    test_image_fill_levels (&im.src, rng, 3);
    for (int conn = 4; conn <= 8; conn += 4) {
      cm_blobs_desc d;
      cm_blobs_results want;
      cm_filter *f = NULL;
      cm_status st;

      memset (&d, 0, sizeof (d));
      d.threshold = cm_depth_max (z->depth) / 2;
      d.connectivity = conn;
      d.max_blobs = 3;
      d.output = CM_BLOBS_OUTPUT_MASK;
      snprintf (what, sizeof (what), "blobs conn %d %dx%d/%d", conn,
          z->width, z->height, (int) z->depth);
      cm_blobs_results_alloc (&want, 3);
      if (reference_ran (cm_blobs_ref (&d, &im.src, &im.ref, &want) ==
              CM_OK, what)) {
        st = cm_blobs_filter_new (&f, CM_BACKEND_CPU, &d, z->width,
            z->height, z->depth, &cpu_opts);
        if (st == CM_OK)
          st = cm_filter_run (f, &im.src, &im.got, NULL);
        if (run_matches (st, &im.got, &im.ref, what, "differs from "
                "cm_blobs_ref") && !blobs_results_equal
            (cm_blobs_filter_results (f), &want, what))
          FAIL ("%s: results differ from cm_blobs_ref", what);
        cm_filter_free (f);
      }
      cm_blobs_results_free (&want);
    }
    row_images_free (&im);
  }
}

/* ---- the CUDA backend and arguments ------------------------------------- */

/* In a build without CUDA every CUDA filter is refused with
 * CM_ERR_NO_CUDA and *out is NULL; in a CUDA build a failure (no device)
 * leaves *out NULL too, and a filter that was made is freed. */
static void
check_cuda_refusal (const char *what, cm_status st, const void *f)
{
  checks++;
  if (!cm_have_cuda () && st != CM_ERR_NO_CUDA)
    FAIL ("%s on CUDA without CUDA: %s, not CM_ERR_NO_CUDA", what,
        cm_status_string (st));
  else if (st != CM_OK && f != NULL)
    FAIL ("%s on CUDA: failed (%s) but gave a filter", what,
        cm_status_string (st));
}

static void
test_cuda_backend (void)
{
  cm_se *se = NULL;
  cm_morph_desc md = { CM_MORPH_OPEN, NULL, 1, CM_BORDER_NEUTRAL, 0 };
  cm_median_desc ad;
  cm_recon_desc rd;
  cm_filter *mf = (cm_filter *) & md;
  cm_filter *af = (cm_filter *) & ad;
  cm_filter *rf = (cm_filter *) & rd;
  cm_linspectrum_desc ld = { 7, 0, 180, 30, CM_MORPH_OPEN, 1, 1 };
  cm_filter *lf = (cm_filter *) & ld;
  cm_blobs_desc bd = { 128, 0, 8, 1, 0, 0, 256, CM_BLOBS_OUTPUT_LABELS };
  cm_filter *bf = (cm_filter *) & bd;
  cm_attr_desc td = { CM_ATTR_CLOSE, CM_ATTR_AREA, 10, 4 };
  cm_filter *tf = (cm_filter *) & td;
  cm_temporal_desc pd = { 9, 50, CM_TEMPORAL_BACKGROUND, 4, 3 };
  cm_filter *pf = (cm_filter *) & pd;
  cm_status st;

  cm_se_new_rect (&se, 3, 3);
  md.se = se;
  memset (&ad, 0, sizeof (ad));
  ad.window_w = ad.window_h = 3;
  ad.percentile = 50;
  memset (&rd, 0, sizeof (rd));
  rd.op = CM_RECON_FILL_HOLES;
  rd.connectivity = 8;
  rd.marker = md;

  /* *out is reset even when it held something */
  st = cm_morph_filter_new (&mf, CM_BACKEND_CUDA, &md, 32, 16, CM_DEPTH_8,
      NULL);
  check_cuda_refusal ("morph", st, mf);
  cm_filter_free (st == CM_OK ? mf : NULL);
  st = cm_median_filter_new (&af, CM_BACKEND_CUDA, &ad, 32, 16, CM_DEPTH_16,
      NULL);
  check_cuda_refusal ("median", st, af);
  cm_filter_free (st == CM_OK ? af : NULL);
  st = cm_recon_filter_new (&rf, CM_BACKEND_CUDA, &rd, 32, 16, CM_DEPTH_8,
      NULL);
  check_cuda_refusal ("reconstruction", st, rf);
  cm_filter_free (st == CM_OK ? rf : NULL);
  st = cm_blobs_filter_new (&bf, CM_BACKEND_CUDA, &bd, 32, 16, CM_DEPTH_8,
      NULL);
  check_cuda_refusal ("blobs", st, bf);
  cm_filter_free (st == CM_OK ? bf : NULL);
  st = cm_linspectrum_filter_new (&lf, CM_BACKEND_CUDA, &ld, 32, 16,
      CM_DEPTH_8, NULL);
  check_cuda_refusal ("linear spectrum", st, lf);
  cm_filter_free (st == CM_OK ? lf : NULL);
  st = cm_attr_filter_new (&tf, CM_BACKEND_CUDA, &td, 32, 16, CM_DEPTH_16,
      NULL);
  check_cuda_refusal ("area closing", st, tf);
  cm_filter_free (st == CM_OK ? tf : NULL);
  st = cm_temporal_filter_new (&pf, CM_BACKEND_CUDA, &pd, 32, 16,
      CM_DEPTH_8, NULL);
  check_cuda_refusal ("temporal", st, pf);
  cm_filter_free (st == CM_OK ? pf : NULL);
  cm_se_free (se);
}

static void
test_arguments (void)
{
  cm_se *se = NULL;
  cm_morph_desc md = { CM_MORPH_ERODE, NULL, 1, CM_BORDER_NEUTRAL, 0 };
  cm_morph_desc bad_md;
  cm_recon_desc bad_rd;
  cm_median_desc ad;
  cm_filter *mf = NULL;
  cm_filter *af = NULL;
  cm_filter *rf = NULL;
  cm_image a = test_image_new (8, 8, CM_DEPTH_8, 0);
  cm_image b = test_image_new (8, 8, CM_DEPTH_8, 0);
  cm_image small = test_image_new (7, 8, CM_DEPTH_8, 0);
  cm_image deep = test_image_new (8, 8, CM_DEPTH_16, 0);
  cm_image_packed pa = packed_of (&a, 4), pb = packed_of (&b, 4);

  cm_se_new_rect (&se, 3, 3);
  md.se = se;
  memset (&ad, 0, sizeof (ad));
  ad.window_w = ad.window_h = 3;
  ad.percentile = 50;

#define EXPECT(call, want) do { \
    cm_status got_ = (call); \
    checks++; \
    if (got_ != (want)) \
      FAIL ("%s: %s, expected %s", #call, cm_status_string (got_), \
          cm_status_string (want)); \
  } while (0)

  EXPECT (cm_morph_filter_new (NULL, CM_BACKEND_CPU, &md, 8, 8, CM_DEPTH_8,
          NULL), CM_ERR_INVALID_ARG);
  EXPECT (cm_morph_filter_new (&mf, CM_BACKEND_CPU, NULL, 8, 8, CM_DEPTH_8,
          NULL), CM_ERR_INVALID_ARG);
  EXPECT (cm_morph_filter_new (&mf, CM_BACKEND_CPU, &md, 0, 8, CM_DEPTH_8,
          NULL), CM_ERR_INVALID_ARG);
  EXPECT (cm_morph_filter_new (&mf, (cm_backend) 7, &md, 8, 8, CM_DEPTH_8,
          NULL), CM_ERR_INVALID_ARG);
  EXPECT (cm_median_filter_new (&af, CM_BACKEND_CPU, &ad, 8, 8,
          (cm_depth) 12, NULL), CM_ERR_INVALID_ARG);
  /* a descriptor its plans refuse is refused here, not left to fail at
   * every run (the CPU backend's definition took it before) */
  bad_md = md;
  bad_md.op = (cm_morph_op) 99;
  EXPECT (cm_morph_filter_new (&mf, CM_BACKEND_CPU, &bad_md, 8, 8,
          CM_DEPTH_8, NULL), CM_ERR_INVALID_ARG);
  bad_md = md;
  bad_md.iterations = 0;
  EXPECT (cm_morph_filter_new (&mf, CM_BACKEND_CPU, &bad_md, 8, 8,
          CM_DEPTH_8, NULL), CM_ERR_INVALID_ARG);
  memset (&bad_rd, 0, sizeof (bad_rd));
  bad_rd.op = CM_RECON_FILL_HOLES;
  bad_rd.connectivity = 6;
  EXPECT (cm_recon_filter_new (&rf, CM_BACKEND_CPU, &bad_rd, 8, 8,
          CM_DEPTH_8, NULL), CM_ERR_INVALID_ARG);
  checks++;
  if (mf != NULL || af != NULL || rf != NULL)
    FAIL ("a refused filter was given");

  /* images of another size or depth than the filter's */
  EXPECT (cm_morph_filter_new (&mf, CM_BACKEND_CPU, &md, 8, 8, CM_DEPTH_8,
          NULL), CM_OK);
  EXPECT (cm_filter_run (mf, &a, &b, NULL), CM_OK);
  EXPECT (cm_filter_run (mf, &small, &b, NULL), CM_ERR_INVALID_ARG);
  EXPECT (cm_filter_run (mf, &a, &deep, NULL), CM_ERR_INVALID_ARG);
  EXPECT (cm_filter_run (NULL, &a, &b, NULL), CM_ERR_INVALID_ARG);
  cm_filter_free (mf);

  /* luma only for a filter made for it, once told its channels */
  EXPECT (cm_median_filter_new (&af, CM_BACKEND_CPU, &ad, 2, 8, CM_DEPTH_8,
          NULL), CM_OK);
  checks++;
  if (cm_filter_has_packed (af) || cm_filter_has_to_packed (af))
    FAIL ("a median filter without luma mode has a packed path");
  EXPECT (cm_filter_run_packed (af, &pa, &pb, NULL), CM_ERR_UNSUPPORTED);
  EXPECT (cm_median_filter_set_channels (af, 0, 1, 2, 3),
      CM_ERR_INVALID_ARG);
  EXPECT (cm_filter_run_to_packed (af, &a, &pb, NULL), CM_ERR_UNSUPPORTED);
  cm_filter_free (af);
  ad.plan_flags = CM_MEDIAN_PLAN_LUMA;
  EXPECT (cm_median_filter_new (&af, CM_BACKEND_CPU, &ad, 2, 8, CM_DEPTH_8,
          NULL), CM_OK);
  EXPECT (cm_filter_run_packed (af, &pa, &pb, NULL), CM_ERR_INVALID_ARG);
  EXPECT (cm_median_filter_set_channels (af, 0, 1, 2, 3), CM_OK);
  EXPECT (cm_filter_run_packed (af, &pa, &pb, NULL), CM_OK);
  /* a plane filter takes no NULL dst; a family's accessor no other family */
  EXPECT (cm_filter_run (af, &a, NULL, NULL), CM_ERR_INVALID_ARG);
  checks++;
  if (cm_linspectrum_filter_spectrum (af) != NULL ||
      cm_linspectrum_filter_count (af) != 0)
    FAIL ("a median filter taken for a linear spectrum filter");
  checks++;
  if (cm_blobs_filter_results (af) != NULL)
    FAIL ("a median filter taken for a blobs filter");
  cm_filter_free (af);

  cm_filter_free (NULL);
  checks++;
  if (strcmp (cm_filter_algorithm (NULL), "none") != 0)
    FAIL ("the algorithm of no filter");
#undef EXPECT

  test_image_free (&a);
  test_image_free (&b);
  test_image_free (&small);
  test_image_free (&deep);
  cm_se_free (se);
}

int
main (void)
{
  test_rng rng;

  test_rng_seed (&rng, 20261126);
  test_morph (&rng);
  test_morph_owns_se (&rng);
  test_median (&rng);
  test_recon (&rng);
  test_attr (&rng);
  test_temporal (&rng);
  test_linspectrum (&rng);
  test_blobs (&rng);
  test_cuda_backend ();
  test_arguments ();

  printf ("test-filter: %d checks, %d failures (%s build)\n", checks,
      failures, cm_have_cuda ()? "CUDA" : "no-CUDA");
  return failures ? 1 : 0;
}
