/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GPU linear spectrum == CPU reference (cm_linspectrum_ref), bit for bit:
 * the uint64 spectrum exactly, the supremum/infimum and orientation images
 * over the whole image.
 *
 * Table: image sizes 1x1 .. 640x480, lengths 1, 2, 11, 41, 251 (longer
 * than most of the images), orientation sets 0..180 step 1, -10..10 step
 * 0.25, 0..180 step 7.5 and two single orientations (30 and 100 degrees:
 * few lines, so the plan splits them into zones), OPEN and CLOSE, 8 and
 * 16 bits, seeded random or few-level images (ties). Each case runs the
 * plan twice with different outputs wanted (supremum + orientation,
 * spectrum only, one of the two images), cycling through device layouts
 * (the allocator's pitch, a doubled pitch, a one-sample offset). Output
 * allocations are pre-filled with noise and read back whole, so writes
 * outside the views are caught; the source must come back unchanged.
 * One orientation (its own path): 16 angles x 7 sizes up to 1023x769 x
 * lengths 1..251, every output variant, on the sheared tile, on the
 * stream kernel and on the sheared tile with small tiles.
 * Plus: long segments (1, 2 and 4 warps per block; both block orders of
 * the general kernel), reusing a plan,
 * the device copy of the spectrum, CM_ERR_UNSUPPORTED and argument checks.
 *
 * Against cudamorph: at 0, 45, 90 and 135 degrees (and the same lines 180
 * degrees on) a single-orientation plan's supremum equals cm_morph_plan's
 * opening (closing: by the reflected segment) with the neutral border on
 * the same device, odd and even lengths 1..250, random and few-level
 * images, 8 and 16 bits; its spectrum is the sum of that image.
 * Applications (tests/common/synthetic-lines.c): parallel lines give their
 * angle within a quarter of the step (OPEN, L = 101, 0..180 step 1), a page
 * of staves rotated by -7.6 .. 9.1 degrees gives its skew within 0.25
 * degrees (CLOSE, L = 250, -10..10 step 0.25); in both the GPU spectrum
 * equals cm_linspectrum_ref's exactly.
 *
 * Exit 77 (meson SKIP) without a CUDA device; one line per failing check on
 * stderr (case, plan description, first mismatch), "N passed, M failed" at
 * the end, exit 1 on any failure. CM_TEST_VERBOSE=1 prints every case;
 * CM_TEST_MAX_PIXELS=n skips larger images. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "kernel-test.h"
#include "linspectrum/linspectrum.h"
#include "morph/morph.h"
#include "morph/se.h"
#include "synthetic-lines.h"
#include "test-util.h"

static int n_pass, n_fail, verbose;
static long max_pixels;
static cm_stream stream;
/* the variants check_case's plans are made with (NULL: the defaults) */
static const cm_linspectrum_tuning *tuning;

#define FAIL(...) do { fprintf (stderr, "FAIL: " __VA_ARGS__); \
    fputc ('\n', stderr); n_fail++; } while (0)

#define N_OF(a) ((int) (sizeof (a) / sizeof ((a)[0])))

/* ---- device images with a layout ----------------------------------------
 * 0: cm_device_image_alloc's own pitch; 1: every other row of a twice as
 * tall allocation; 2: one sample in from the left of a two samples wider
 * allocation. The whole allocation is pre-filled with noise. */
#define LAYOUTS 3

typedef struct
{
  cm_image alloc;               /* device allocation                      */
  cm_image view;                /* what the plan gets                     */
  cm_image noise;               /* host copy of the allocation's fill     */
} dimg;

static int
dimg_new (dimg * d, int layout, int w, int h, cm_depth depth, test_rng * r)
{
  int aw = layout == 2 ? w + 2 : w, ah = layout == 1 ? 2 * h : h;
  cm_status st;

  memset (d, 0, sizeof (*d));
  st = cm_device_image_alloc (&d->alloc, aw, ah, depth);
  if (st != CM_OK) {
    FAIL ("cm_device_image_alloc %dx%d: %s", aw, ah, cm_status_string (st));
    return 0;
  }
  d->view = d->alloc;
  d->view.width = w;
  d->view.height = h;
  if (layout == 1)
    d->view.pitch = 2 * d->alloc.pitch;
  else if (layout == 2)
    d->view.data = (uint8_t *) d->alloc.data + cm_depth_bytes (depth);
  d->noise = test_image_new (aw, ah, depth, 0);
  test_image_fill_random (&d->noise, r);
  st = image_copy_async (&d->alloc, &d->noise, CM_COPY_H2D, stream);
  if (st != CM_OK) {
    FAIL ("upload of noise: %s", cm_status_string (st));
    return 0;
  }
  return 1;
}

static void
dimg_free (dimg * d)
{
  cm_device_free (d->alloc.data);
  test_image_free (&d->noise);
  memset (d, 0, sizeof (*d));
}

/* upload host (view-sized) into the view */
static int
dimg_upload (const dimg * d, const cm_image * host)
{
  cm_status st = image_copy_async (&d->view, host, CM_COPY_H2D, stream);

  if (st != CM_OK)
    FAIL ("upload: %s", cm_status_string (st));
  return st == CM_OK;
}

/* Download the whole allocation; the view goes to host (view-sized), and
 * every sample outside the view must still hold the noise. */
static int
dimg_download_check (const dimg * d, const cm_image * host, const char *what)
{
  int bpp = cm_depth_bytes (d->alloc.depth), ok = 1;
  cm_image all = test_image_new (d->alloc.width, d->alloc.height,
      d->alloc.depth, 0);
  uint8_t *inside = calloc ((size_t) d->alloc.width * d->alloc.height, 1);
  cm_status st;

  st = image_copy (&all, &d->alloc, CM_COPY_D2H, stream);
  if (st != CM_OK) {
    FAIL ("%s: download: %s", what, cm_status_string (st));
    ok = 0;
    goto out;
  }
  for (int y = 0; y < host->height; y++) {
    for (int x = 0; x < host->width; x++) {
      size_t off = (size_t) ((uint8_t *) d->view.data -
          (uint8_t *) d->alloc.data) + (size_t) y * d->view.pitch +
          (size_t) x * bpp;
      int ay = (int) (off / d->alloc.pitch);
      int ax = (int) ((off % d->alloc.pitch) / bpp);

      inside[(size_t) ay * d->alloc.width + ax] = 1;
      test_image_set (host, x, y, test_image_get (&all, ax, ay));
    }
  }
  for (int y = 0; y < all.height && ok; y++) {
    for (int x = 0; x < all.width; x++) {
      if (!inside[(size_t) y * all.width + x] &&
          test_image_get (&all, x, y) != test_image_get (&d->noise, x, y)) {
        FAIL ("%s: wrote outside the view at allocation (%d, %d): %u, "
            "noise was %u", what, x, y, test_image_get (&all, x, y),
            test_image_get (&d->noise, x, y));
        ok = 0;
        break;
      }
    }
  }
out:
  free (inside);
  test_image_free (&all);
  return ok;
}

/* ---- one case ------------------------------------------------------------ */

typedef struct
{
  double a0, a1, step;
} angle_set;

static const char *
op_name (cm_morph_op op)
{
  return op == CM_MORPH_CLOSE ? "close" : "open";
}

/* which outputs run k of a case wants: 0 both images, 1 spectrum only,
 * 2 supremum only, 3 orientation only */
static void
wanted (int variant, int *ws, int *wo)
{
  *ws = variant == 0 || variant == 2;
  *wo = variant == 0 || variant == 3;
}

static int
compare_spectrum (const uint64_t * got, const uint64_t * exp, int n,
    const cm_linspectrum_desc * d, const char *what, const char *plan_desc)
{
  for (int i = 0; i < n; i++) {
    if (got[i] != exp[i]) {
      int bad = 0;

      for (int j = i; j < n; j++)
        bad += got[j] != exp[j];
      FAIL ("%s [%s]: spectrum[%d] (angle %.4f) = %llu, expected %llu "
          "(diff %lld; %d of %d orientations differ)", what, plan_desc, i,
          cm_linspectrum_angle (d, i), (unsigned long long) got[i],
          (unsigned long long) exp[i], (long long) (got[i] - exp[i]), bad, n);
      return 0;
    }
  }
  return 1;
}

/* Output @part of a run: @d read back into @host (dimg_download_check)
 * equals @ref; @what and @plan_desc name the case. */
static int
output_equal (const dimg * d, const cm_image * host, const cm_image * ref,
    const char *what, const char *plan_desc, const char *part)
{
  char w2[340];

  snprintf (w2, sizeof (w2), "%s [%s] %s", what, plan_desc, part);
  if (!dimg_download_check (d, host, w2))
    return 0;
  if (!test_image_equal (host, ref, w2)) {
    n_fail++;
    return 0;
  }
  return 1;
}

/* Plan, run and compare. ref_spec/ref_sup/ref_ori: the reference (sup and
 * ori for every pixel). Returns 1 when everything matched. */
static int
run_gpu (const cm_linspectrum_desc * dref, const cm_image * src,
    const dimg * dsrc, const uint64_t * ref_spec, const cm_image * ref_sup,
    const cm_image * ref_ori, int variant, int layout, int runs,
    test_rng * rng, const char *name)
{
  cm_linspectrum_desc d = *dref;
  cm_linspectrum_plan *plan = NULL;
  int w = src->width, h = src->height, n = cm_linspectrum_count_angles (&d);
  int ok = 1, ws, wo;
  dimg dsup, dori;
  cm_image hsup = test_image_new (w, h, src->depth, 0);
  cm_image hori = test_image_new (w, h, CM_DEPTH_16, 0);
  char what[300];
  cm_status st;

  memset (&dsup, 0, sizeof (dsup));
  memset (&dori, 0, sizeof (dori));
  wanted (variant, &ws, &wo);
  d.want_supremum = ws;
  d.want_orientation = wo;
  snprintf (what, sizeof (what), "%s want=%s%s layout %d", name,
      ws ? "sup" : "", wo ? "+orient" : "", layout);

  st = cm_linspectrum_plan_new_tuned (&plan, &d, w, h, src->depth, tuning);
  if (st != CM_OK) {
    FAIL ("%s: cm_linspectrum_plan_new: %s", what, cm_status_string (st));
    ok = 0;
    goto out;
  }
  if (cm_linspectrum_plan_count (plan) != n) {
    FAIL ("%s: plan count %d, expected %d", what,
        cm_linspectrum_plan_count (plan), n);
    ok = 0;
  }
  if ((ws && !dimg_new (&dsup, layout, w, h, src->depth, rng)) ||
      (wo && !dimg_new (&dori, (layout + 1) % LAYOUTS, w, h, CM_DEPTH_16,
              rng))) {
    ok = 0;
    goto out;
  }

  for (int r = 0; r < runs && ok; r++) {
    const uint64_t *hs;

    st = kernel_test_synced (cm_linspectrum_plan_run (plan, &dsrc->view,
            ws ? &dsup.view : NULL, wo ? &dori.view : NULL, stream), stream);
    if (st != CM_OK) {
      FAIL ("%s [%s]: run %d: %s", what, cm_linspectrum_plan_describe (plan),
          r, cm_status_string (st));
      ok = 0;
      break;
    }
    hs = cm_linspectrum_plan_spectrum (plan);
    if (!hs) {
      FAIL ("%s: no host spectrum", what);
      ok = 0;
      break;
    }
    ok &= compare_spectrum (hs, ref_spec, n, &d, what,
        cm_linspectrum_plan_describe (plan));
  }
  if (ok) {
    /* the device copy of the spectrum is the same */
    uint64_t *dev = calloc ((size_t) n, sizeof (uint64_t));

    st = cm_copy_2d_async (dev, sizeof (uint64_t) * n,
        cm_linspectrum_plan_spectrum_device (plan), sizeof (uint64_t) * n,
        sizeof (uint64_t) * n, 1, CM_COPY_D2H, stream);
    if (st == CM_OK)
      st = cm_stream_sync (stream);
    if (st != CM_OK || memcmp (dev, ref_spec, sizeof (uint64_t) * n) != 0) {
      FAIL ("%s: device spectrum differs (%s)", what, cm_status_string (st));
      ok = 0;
    }
    free (dev);
  }
  if (ok && ws)
    ok = output_equal (&dsup, &hsup, ref_sup, what,
        cm_linspectrum_plan_describe (plan), "supremum");
  if (ok && wo)
    ok = output_equal (&dori, &hori, ref_ori, what,
        cm_linspectrum_plan_describe (plan), "orientation");
  if (ok && verbose)
    printf ("ok %s [%s]\n", what, cm_linspectrum_plan_describe (plan));
out:
  cm_linspectrum_plan_free (plan);
  dimg_free (&dsup);
  dimg_free (&dori);
  test_image_free (&hsup);
  test_image_free (&hori);
  return ok;
}

/* Reference once, then the GPU with two output variants. */
static void
check_case (int w, int h, cm_depth depth, int L, const angle_set * as,
    cm_morph_op op, int levels, int case_no, uint64_t seed)
{
  cm_linspectrum_desc d = { L, as->a0, as->a1, as->step, op, 1, 1 };
  int n = cm_linspectrum_count_angles (&d);
  int layout = case_no % LAYOUTS;
  cm_image src = test_image_new (w, h, depth, 0);
  cm_image back = test_image_new (w, h, depth, 0);
  cm_image rsup = test_image_new (w, h, depth, 0);
  cm_image rori = test_image_new (w, h, CM_DEPTH_16, 0);
  uint64_t *rspec = calloc ((size_t) (n > 0 ? n : 1), sizeof (uint64_t));
  dimg dsrc;
  test_rng rng;
  char name[200];
  cm_status st;
  int ok = 1;

  memset (&dsrc, 0, sizeof (dsrc));
  snprintf (name, sizeof (name), "%dx%d/%d L=%d %g..%g step %g (%d) %s%s",
      w, h, depth, L, as->a0, as->a1, as->step, n, op_name (op),
      levels ? " few-levels" : "");
  test_rng_seed (&rng, seed);
  if (levels)
    test_image_fill_levels (&src, &rng, levels);
  else
    test_image_fill_random (&src, &rng);
  test_image_set (&src, w / 2, h / 2, cm_depth_max (depth));  /* never 0 */

  st = cm_linspectrum_ref (&d, &src, rspec, &rsup, &rori);
  if (st != CM_OK) {
    FAIL ("%s: cm_linspectrum_ref: %s", name, cm_status_string (st));
    ok = 0;
    goto out;
  }
  if (!dimg_new (&dsrc, (layout + 2) % LAYOUTS, w, h, depth, &rng) ||
      !dimg_upload (&dsrc, &src)) {
    ok = 0;
    goto out;
  }
  /* both images, then one of the other variants; re-run the plan on the
   * first cases (its scratch must be reset by every run) */
  ok &= run_gpu (&d, &src, &dsrc, rspec, &rsup, &rori, 0, layout,
      case_no < 40 ? 2 : 1, &rng, name);
  ok &= run_gpu (&d, &src, &dsrc, rspec, &rsup, &rori, 1 + case_no % 3,
      (layout + 1) % LAYOUTS, 1, &rng, name);
  if (ok) {
    dimg_download_check (&dsrc, &back, name);
    if (!test_image_equal (&back, &src, "source changed")) {
      FAIL ("%s: the source was modified", name);
      ok = 0;
    }
  }
out:
  if (ok)
    n_pass++;
  dimg_free (&dsrc);
  test_image_free (&src);
  test_image_free (&back);
  test_image_free (&rsup);
  test_image_free (&rori);
  free (rspec);
}

static void
test_table (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 9}, {9, 1}, {37, 23}, {257, 131}, {640, 480}
  };
  static const int lengths[] = { 1, 2, 11, 41, 251 };
  static const angle_set sets[] = {
    {0, 180, 1}, {-10, 10, 0.25}, {0, 180, 7.5}, {30, 31, 1}, {100, 101, 1}
  };
  int case_no = 0;
  uint64_t seed = 1000;

  for (int si = 0; si < N_OF (sizes); si++) {
    if (max_pixels > 0 && (long) sizes[si][0] * sizes[si][1] > max_pixels)
      continue;
    for (int li = 0; li < N_OF (lengths); li++)
      for (int ai = 0; ai < N_OF (sets); ai++)
        for (int op = 0; op < 2; op++)
          for (int di = 0; di < 2; di++, case_no++, seed++)
            check_case (sizes[si][0], sizes[si][1],
                di ? CM_DEPTH_16 : CM_DEPTH_8, lengths[li], &sets[ai],
                op ? CM_MORPH_CLOSE : CM_MORPH_OPEN,
                (case_no % 4 == 3) ? 3 : 0, case_no, seed);
  }
}

/* long segments: fewer warps per block, more shared memory per warp */
static void
test_long (void)
{
  static const struct
  {
    int w, h, L;
    cm_depth depth;
  } rows[] = {
    {37, 23, 1500, CM_DEPTH_16}, {37, 23, 1500, CM_DEPTH_8},
    {90, 61, 1023, CM_DEPTH_8}, {61, 90, 401, CM_DEPTH_16}
  };
  static const angle_set sets[] = { {0, 180, 7.5}, {-10, 10, 0.25} };
  int case_no = 1000;

  for (int i = 0; i < N_OF (rows); i++) {
    cm_linspectrum_desc d = { rows[i].L, 0, 180, 7.5, CM_MORPH_OPEN, 1, 1 };
    cm_linspectrum_plan *plan = NULL;
    cm_status st = cm_linspectrum_plan_new_tuned (&plan, &d, rows[i].w,
        rows[i].h, rows[i].depth, tuning);

    /* 2 * L * 32 samples per warp: 1 (16-bit L = 1500), 2 or 4 warps per
     * block on an H100/H200; smaller devices may refuse some */
    if (st == CM_ERR_UNSUPPORTED) {
      printf ("long segments L=%d/%d: not supported by this device, "
          "skipped\n", rows[i].L, rows[i].depth);
      continue;
    }
    if (verbose && st == CM_OK)
      printf ("long segments L=%d/%d: %s\n", rows[i].L, rows[i].depth,
          cm_linspectrum_plan_describe (plan));
    cm_linspectrum_plan_free (plan);
    for (int op = 0; op < 2; op++)
      check_case (rows[i].w, rows[i].h, rows[i].depth, rows[i].L,
          &sets[(i + op) % 2], op ? CM_MORPH_CLOSE : CM_MORPH_OPEN, 0,
          case_no++, 5000 + (uint64_t) i * 2 + op);
  }
}

/* ---- one orientation ------------------------------------------------------
 * Plans of one orientation take their own path (linspectrum.cu: the
 * opening stored directly, transposed back for shallow lines, orientation
 * image 0, host-listed items; cm_linspectrum_tuning.general_kernel turns
 * it off): many
 * angles, both line kinds and slope signs, angles on the shallow/steep
 * boundary, odd sizes, short and long segments, 8 and 16 bits, OPEN and
 * CLOSE, every output variant (check_case), against cm_linspectrum_ref. */
static void
test_single_angles (int case_no)
{
  static const double angles[] = { 0, 7.3, 30, 44.9, 45, 45.1, 60, 89.5, 90,
    100, 134.9, 135, 150, 179.2, -30, 200
  };
  static const int sizes[][2] = { {1, 1}, {3, 50}, {61, 7}, {37, 23},
  {257, 131}, {640, 480}, {1023, 769}
  };
  static const int lengths[] = { 1, 2, 11, 41, 251 };

  for (int si = 0; si < N_OF (sizes); si++) {
    if (max_pixels > 0 && (long) sizes[si][0] * sizes[si][1] > max_pixels)
      continue;
    for (int ai = 0; ai < N_OF (angles); ai++) {
      angle_set as = { angles[ai], angles[ai] + 0.5, 1 };
      /* every length on the small sizes, two on the large ones */
      for (int li = 0; li < N_OF (lengths); li++, case_no++) {
        if (si >= 5 && li != (ai % 3) + 2)
          continue;
        check_case (sizes[si][0], sizes[si][1],
            (case_no & 1) ? CM_DEPTH_16 : CM_DEPTH_8, lengths[li], &as,
            (case_no & 2) ? CM_MORPH_CLOSE : CM_MORPH_OPEN,
            (case_no % 5 == 4) ? 3 : 0, case_no, 20000 + (uint64_t) case_no);
      }
    }
  }
}

/* The one-orientation plan has two kernels (linspectrum.cu): the sheared
 * tile (linspectrum-sheared.cu) up to cm_linspectrum_tuning.sheared_max
 * samples, the stream kernel beyond. The table runs with the default
 * split, with the stream kernel everywhere, and with the sheared tile
 * everywhere on tiles of 8 output rows, rounded up to the chunk (8 to 64
 * rows: many blocks per strip, halos over several tiles, L = 251 too). */
static void
test_single (void)
{
  static const cm_linspectrum_tuning stream_only = {.sheared_max = -1 };
  static const cm_linspectrum_tuning sheared_small = {
    .sheared_max = CM_LINSPECTRUM_MAX_LENGTH, .sheared_tile = 8
  };

  test_single_angles (2000);
  tuning = &stream_only;
  test_single_angles (4001);      /* other depths and operations */
  tuning = &sheared_small;
  test_single_angles (6002);
  tuning = NULL;
}

/* ---- cudamorph's 2-D operation at 0, 45, 90 and 135 degrees --------------
 * linspectrum.h: at these angles the scan-line opening is the 2-D opening
 * by the straight segment with the neutral border, and the closing the 2-D
 * closing by the reflected segment (the same one for odd L). A
 * single-orientation plan with want_supremum writes exactly that
 * operation, so it must equal cm_morph_plan's result (the vHGW row,
 * column and diagonal passes) on the same device, and the spectrum must be
 * the sum of it. */

static int
download (const cm_image * dev, const cm_image * host, const char *what)
{
  cm_status st = image_copy (host, dev, CM_COPY_D2H, stream);

  if (st != CM_OK)
    FAIL ("%s: download: %s", what, cm_status_string (st));
  return st == CM_OK;
}

static uint64_t
image_sum (const cm_image * img)
{
  uint64_t s = 0;

  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      s += test_image_get (img, x, y);
  return s;
}

/* angle: 0, 45, 90 or 135; turns: added multiples of 180 degrees (the
 * same scan lines) */
static void
check_vs_morph (int w, int h, cm_depth depth, int L, int angle, int turns,
    cm_morph_op op, int levels, uint64_t seed)
{
  double a = angle + 180.0 * turns;
  cm_linspectrum_desc d = { L, a, a + 1, 1, op, 1, 0 };
  cm_se *se = synth_segment_se (L, angle), *refl = NULL;
  cm_morph_plan *mplan = NULL;
  cm_linspectrum_plan *lplan = NULL;
  cm_image src = test_image_new (w, h, depth, 0);
  cm_image hlin = test_image_new (w, h, depth, 0);
  cm_image hmor = test_image_new (w, h, depth, 0);
  cm_image rsup = test_image_new (w, h, depth, 0);
  cm_image dsrc = { 0 }, dlin = { 0 }, dmor = { 0 };
  uint64_t rspec = 0;
  test_rng rng;
  char name[300];
  cm_status st;
  int ok = 1;

  snprintf (name, sizeof (name), "vs cudamorph %dx%d/%d L=%d at %g %s%s", w,
      h, depth, L, a, op_name (op), levels ? " few-levels" : "");
  if (!se || cm_se_reflect (se, &refl) != CM_OK) {
    FAIL ("%s: no segment", name);
    ok = 0;
    goto out;
  }
  {
    /* closing by the reflected segment: dilation by the segment first */
    cm_morph_desc md = { op, op == CM_MORPH_CLOSE ? refl : se, 1,
      CM_BORDER_NEUTRAL, 0
    };

    st = cm_morph_plan_new (&mplan, &md, w, h, depth);
  }
  if (st == CM_OK)
    st = cm_linspectrum_plan_new (&lplan, &d, w, h, depth);
  if (st == CM_OK)
    st = cm_device_image_alloc (&dsrc, w, h, depth);
  if (st == CM_OK)
    st = cm_device_image_alloc (&dlin, w, h, depth);
  if (st == CM_OK)
    st = cm_device_image_alloc (&dmor, w, h, depth);
  if (st != CM_OK) {
    FAIL ("%s: setup: %s", name, cm_status_string (st));
    ok = 0;
    goto out;
  }

  test_rng_seed (&rng, seed);
  if (levels)
    test_image_fill_levels (&src, &rng, levels);
  else
    test_image_fill_random (&src, &rng);
  st = image_copy_async (&dsrc, &src, CM_COPY_H2D, stream);
  if (st == CM_OK)
    st = cm_morph_plan_run (mplan, &dsrc, &dmor, stream);
  if (st == CM_OK)
    st = cm_linspectrum_plan_run (lplan, &dsrc, &dlin, NULL, stream);
  if (st != CM_OK) {
    FAIL ("%s: run: %s", name, cm_status_string (st));
    ok = 0;
    goto out;
  }
  if (!download (&dlin, &hlin, name) || !download (&dmor, &hmor, name)) {
    ok = 0;
    goto out;
  }
  snprintf (name + strlen (name), sizeof (name) - strlen (name),
      " [morph %s | linspectrum %s]", cm_morph_plan_algorithm (mplan),
      cm_linspectrum_plan_describe (lplan));
  /* the two GPU operations, then the spectrum against its sum and the
   * CPU reference */
  if (!test_image_equal (&hlin, &hmor, name)) {
    FAIL ("%s: supremum != cudamorph plan", name);
    ok = 0;
  } else if (cm_linspectrum_ref (&d, &src, &rspec, &rsup, NULL) != CM_OK ||
      !test_image_equal (&hlin, &rsup, name)) {
    FAIL ("%s: supremum != cm_linspectrum_ref", name);
    ok = 0;
  } else if (cm_linspectrum_plan_spectrum (lplan)[0] != rspec ||
      rspec != image_sum (&hmor)) {
    FAIL ("%s: spectrum %llu, reference %llu, sum of the opening %llu",
        name, (unsigned long long) cm_linspectrum_plan_spectrum (lplan)[0],
        (unsigned long long) rspec, (unsigned long long) image_sum (&hmor));
    ok = 0;
  }
out:
  if (ok) {
    n_pass++;
    if (verbose)
      printf ("ok %s\n", name);
  }
  cm_linspectrum_plan_free (lplan);
  cm_morph_plan_free (mplan);
  cm_se_free (se);
  cm_se_free (refl);
  cm_device_free (dsrc.data);
  cm_device_free (dlin.data);
  cm_device_free (dmor.data);
  test_image_free (&src);
  test_image_free (&hlin);
  test_image_free (&hmor);
  test_image_free (&rsup);
}

static void
test_vs_morph (void)
{
  static const int sizes[][2] = { {1, 1}, {37, 23}, {7, 300}, {256, 199},
  {640, 480}
  };
  static const int lengths[] = { 1, 2, 3, 4, 11, 16, 41, 250 };
  static const int angles[] = { 0, 45, 90, 135 };
  int case_no = 0;

  for (int si = 0; si < N_OF (sizes); si++) {
    if (max_pixels > 0 && (long) sizes[si][0] * sizes[si][1] > max_pixels)
      continue;
    for (int li = 0; li < N_OF (lengths); li++)
      for (int ai = 0; ai < N_OF (angles); ai++)
        for (int op = 0; op < 2; op++)
          for (int di = 0; di < 2; di++, case_no++)
            /* 0 / +180 / -180 degrees and few levels (ties) in turn */
            check_vs_morph (sizes[si][0], sizes[si][1],
                di ? CM_DEPTH_16 : CM_DEPTH_8, lengths[li], angles[ai],
                case_no % 3 == 1 ? 1 : case_no % 3 == 2 ? -1 : 0,
                op ? CM_MORPH_CLOSE : CM_MORPH_OPEN,
                case_no % 5 == 4 ? 3 : 0, 9000 + (uint64_t) case_no);
  }
}

/* ---- applications on the GPU ---------------------------------------------
 * The synthetic images of tests/common/synthetic-lines.c, as in the core
 * test, but through the plan: the spectrum equals cm_linspectrum_ref's and
 * its dominant orientation is the angle drawn. */

/* spectrum on the GPU == reference; *angle: dominant of the GPU spectrum */
static int
gpu_dominant (const cm_linspectrum_desc * d, const cm_image * img,
    double *angle, const char *what)
{
  int n = cm_linspectrum_count_angles (d), ok = 0;
  uint64_t *rspec = calloc ((size_t) n, sizeof (uint64_t));
  cm_linspectrum_plan *plan = NULL;
  cm_image dsrc = { 0 };
  cm_status st;

  st = cm_linspectrum_plan_new (&plan, d, img->width, img->height,
      img->depth);
  if (st == CM_OK)
    st = cm_device_image_alloc (&dsrc, img->width, img->height, img->depth);
  if (st == CM_OK)
    st = image_copy_async (&dsrc, img, CM_COPY_H2D, stream);
  if (st == CM_OK)
    st = cm_linspectrum_plan_run (plan, &dsrc, NULL, NULL, stream);
  if (st == CM_OK)
    st = cm_stream_sync (stream);
  if (st != CM_OK) {
    FAIL ("%s: %s", what, cm_status_string (st));
    goto out;
  }
  if (cm_linspectrum_ref (d, img, rspec, NULL, NULL) != CM_OK) {
    FAIL ("%s: cm_linspectrum_ref failed", what);
    goto out;
  }
  if (!compare_spectrum (cm_linspectrum_plan_spectrum (plan), rspec, n, d,
          what, cm_linspectrum_plan_describe (plan)))
    goto out;
  ok = cm_linspectrum_dominant (d, cm_linspectrum_plan_spectrum (plan), n,
      angle, NULL) == CM_OK;
  if (!ok)
    FAIL ("%s: cm_linspectrum_dominant failed", what);
out:
  cm_linspectrum_plan_free (plan);
  cm_device_free (dsrc.data);
  free (rspec);
  return ok;
}

/* angle found vs drawn, modulo 180 when the orientations wrap */
static void
check_angle (double found, double drawn, double tol, const char *what)
{
  double err = fabs (found - drawn);

  if (err > 90)
    err = 180 - err;
  if (err > tol) {
    FAIL ("%s: dominant %.3f, drawn %.3f (tolerance %.3f)", what, found,
        drawn, tol);
    return;
  }
  n_pass++;
  if (verbose)
    printf ("ok %s: dominant %.3f\n", what, found);
}

/* bright lines every 11 px, OPEN, L = 101, 0..180 step 1: within a quarter
 * of the step (angles near multiples of 45 degrees are biased by the
 * digital geometry, see the core test) */
static void
test_parallel_lines (void)
{
  static const double thetas[] = { 30.0, 72.4, 121.3, 163.8, 58.7, 101.1,
    4.6
  };
  cm_linspectrum_desc d = { 101, 0, 180, 1, CM_MORPH_OPEN, 0, 0 };

  for (int ti = 0; ti < N_OF (thetas); ti++) {
    cm_depth depth = (ti & 1) ? CM_DEPTH_16 : CM_DEPTH_8;
    cm_image img = test_image_new (200, 200, depth, 0);
    char what[120];
    double angle;

    synth_parallel_lines (&img, thetas[ti], 11.0, 77 + (uint64_t) ti);
    snprintf (what, sizeof (what), "parallel lines at %g, %d-bit",
        thetas[ti], depth);
    if (gpu_dominant (&d, &img, &angle, what))
      check_angle (angle, thetas[ti], 0.25 * d.angle_step, what);
    test_image_free (&img);
  }
}

/* the skewed page of staves (paper 000 section 6.1.3): CLOSE, L = 250,
 * -10..10 step 0.25, within 0.25 degrees */
static void
test_staff_page (void)
{
  static const double thetas[] = { 3.3, -7.6, 1.3, -2.45, 9.1, -5.15, 0.8 };
  cm_linspectrum_desc d = { 250, -10, 10, 0.25, CM_MORPH_CLOSE, 0, 0 };

  for (int ti = 0; ti < N_OF (thetas); ti++) {
    cm_depth depth = ti == 4 ? CM_DEPTH_16 : CM_DEPTH_8;
    cm_image img = test_image_new (800, 600, depth, 0);
    char what[120];
    double angle;

    synth_staff_page (&img, thetas[ti], 91 + (uint64_t) ti);
    snprintf (what, sizeof (what), "staff page rotated by %g, %d-bit",
        thetas[ti], depth);
    if (gpu_dominant (&d, &img, &angle, what))
      check_angle (angle, thetas[ti], 0.25, what);
    test_image_free (&img);
  }
}

static void
check_status (cm_status got, cm_status exp, const char *what)
{
  if (got != exp)
    FAIL ("%s: status %d (%s), expected %d", what, (int) got,
        cm_status_string (got), (int) exp);
  else
    n_pass++;
}

static void
test_args (void)
{
  cm_linspectrum_desc d = { 11, 0, 180, 1, CM_MORPH_OPEN, 1, 1 };
  cm_linspectrum_plan *plan = NULL;
  cm_image img = { 0 }, img16 = { 0 }, odd = { 0 }, small = { 0 };
  cm_status st;

  check_status (cm_linspectrum_plan_new (NULL, &d, 8, 8, CM_DEPTH_8),
      CM_ERR_INVALID_ARG, "plan_new NULL out");
  check_status (cm_linspectrum_plan_new (&plan, NULL, 8, 8, CM_DEPTH_8),
      CM_ERR_INVALID_ARG, "plan_new NULL desc");
  check_status (cm_linspectrum_plan_new (&plan, &d, 0, 8, CM_DEPTH_8),
      CM_ERR_INVALID_ARG, "plan_new width 0");
  check_status (cm_linspectrum_plan_new (&plan, &d, 8,
          CM_LINSPECTRUM_MAX_SIZE + 1, CM_DEPTH_8), CM_ERR_INVALID_ARG,
      "plan_new height too large");
  check_status (cm_linspectrum_plan_new (&plan, &d, 8, 8, (cm_depth) 12),
      CM_ERR_INVALID_ARG, "plan_new depth 12");
  d.length = 0;
  check_status (cm_linspectrum_plan_new (&plan, &d, 8, 8, CM_DEPTH_8),
      CM_ERR_INVALID_ARG, "plan_new length 0");
  d.length = 11;
  d.angle_step = 0;
  check_status (cm_linspectrum_plan_new (&plan, &d, 8, 8, CM_DEPTH_8),
      CM_ERR_INVALID_ARG, "plan_new step 0");
  d.angle_step = 1;
  d.op = CM_MORPH_GRADIENT;
  check_status (cm_linspectrum_plan_new (&plan, &d, 8, 8, CM_DEPTH_8),
      CM_ERR_INVALID_ARG, "plan_new op gradient");
  d.op = CM_MORPH_OPEN;
  /* a FIFO that no multiprocessor can hold */
  d.length = CM_LINSPECTRUM_MAX_LENGTH;
  check_status (cm_linspectrum_plan_new (&plan, &d, 8, 8, CM_DEPTH_16),
      CM_ERR_UNSUPPORTED, "plan_new 16-bit length 4095");
  if (plan)
    FAIL ("plan_new: *out not NULL after a failure");
  d.length = 11;
  {
    cm_linspectrum_tuning t = {.warps_per_block = 3 };

    check_status (cm_linspectrum_plan_new_tuned (&plan, &d, 8, 8,
            CM_DEPTH_8, &t), CM_ERR_INVALID_ARG, "tuning: 3 warps a block");
    t.warps_per_block = 0;
    t.sup_reads_ahead = 2;
    check_status (cm_linspectrum_plan_new_tuned (&plan, &d, 8, 8,
            CM_DEPTH_8, &t), CM_ERR_INVALID_ARG, "tuning: reads ahead 2");
    t.sup_reads_ahead = 0;
    t.sheared_max = -2;
    check_status (cm_linspectrum_plan_new_tuned (&plan, &d, 8, 8,
            CM_DEPTH_8, &t), CM_ERR_INVALID_ARG, "tuning: sheared_max -2");
    if (plan)
      FAIL ("plan_new_tuned: *out not NULL after a failure");
    t.sheared_max = 0;
    t.warps_per_block = 2;
    t.zone_length = 40;
    check_status (cm_linspectrum_plan_new_tuned (&plan, &d, 8, 8,
            CM_DEPTH_8, &t), CM_OK, "tuning: 2 warps a block, zones of 40");
    cm_linspectrum_plan_free (plan);
    plan = NULL;
  }

  st = cm_linspectrum_plan_new (&plan, &d, 8, 8, CM_DEPTH_8);
  if (st != CM_OK) {
    FAIL ("plan_new 8x8: %s", cm_status_string (st));
    return;
  }
  if (cm_device_image_alloc (&img, 8, 8, CM_DEPTH_8) != CM_OK ||
      cm_device_image_alloc (&img16, 8, 8, CM_DEPTH_16) != CM_OK ||
      cm_device_image_alloc (&small, 7, 8, CM_DEPTH_8) != CM_OK) {
    FAIL ("device_image_alloc");
    goto out;
  }
  check_status (cm_linspectrum_plan_run (NULL, &img, &img, &img16, stream),
      CM_ERR_INVALID_ARG, "run NULL plan");
  check_status (cm_linspectrum_plan_run (plan, NULL, &img, &img16, stream),
      CM_ERR_INVALID_ARG, "run NULL src");
  check_status (cm_linspectrum_plan_run (plan, &small, &img, &img16, stream),
      CM_ERR_INVALID_ARG, "run src of another size");
  check_status (cm_linspectrum_plan_run (plan, &img16, &img, &img16, stream),
      CM_ERR_INVALID_ARG, "run src of another depth");
  check_status (cm_linspectrum_plan_run (plan, &img, NULL, &img16, stream),
      CM_ERR_INVALID_ARG, "run wanted supremum NULL");
  check_status (cm_linspectrum_plan_run (plan, &img, &img, NULL, stream),
      CM_ERR_INVALID_ARG, "run wanted orientation NULL");
  check_status (cm_linspectrum_plan_run (plan, &img, &img, &img, stream),
      CM_ERR_INVALID_ARG, "run 8-bit orientation");
  check_status (cm_linspectrum_plan_run (plan, &img, &img16, &img16, stream),
      CM_ERR_INVALID_ARG, "run 16-bit supremum of an 8-bit plan");
  check_status (cm_linspectrum_plan_run (plan, &img, &small, &img16, stream),
      CM_ERR_INVALID_ARG, "run supremum of another size");
  odd = img16;
  odd.data = (uint8_t *) img16.data + 1;  /* never dereferenced */
  check_status (cm_linspectrum_plan_run (plan, &img, &img, &odd, stream),
      CM_ERR_INVALID_ARG, "run odd 16-bit address");
  check_status (cm_linspectrum_plan_run (plan, &img, &img, &img16, stream),
      CM_OK, "run good");
  check_status (cm_stream_sync (stream), CM_OK, "sync");
out:
  cm_linspectrum_plan_free (plan);
  cm_linspectrum_plan_free (NULL);
  cm_device_free (img.data);
  cm_device_free (img16.data);
  cm_device_free (small.data);
  if (cm_linspectrum_plan_count (NULL) != 0 ||
      cm_linspectrum_plan_spectrum (NULL) != NULL)
    FAIL ("NULL plan accessors");
}

int
main (void)
{
  int rc = kernel_test_open_verbose (&stream, &verbose);

  if (rc != 0)
    return rc;
  if (getenv ("CM_TEST_MAX_PIXELS"))
    max_pixels = atol (getenv ("CM_TEST_MAX_PIXELS"));

  test_args ();
  test_long ();
  test_table ();
  /* the general kernel's other block order (orientations along grid.y),
   * which plans with more than 65,535 blocks of items take */
  {
    static const cm_linspectrum_tuning items_major = {.items_major = 1 };

    tuning = &items_major;
    test_long ();
    tuning = NULL;
  }
  test_single ();
  test_vs_morph ();
  test_parallel_lines ();
  test_staff_page ();

  return kernel_test_close (stream, n_pass, n_fail);
}
