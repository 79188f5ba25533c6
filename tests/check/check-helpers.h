/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the element tests of tests/check share beyond tests/common: the
 * documentation and the values of properties, the PLAYING state a
 * property change is tried in, the rows of cudamorph and cudamedian
 * parameters tried on a list of formats, and one cudalinspectrum on the
 * CPU backend in a harness (LinRun: parameters, element, bus, harness and
 * the caps' video info, set up and torn down in one call each). */
#pragma once

#include <gst/check/gstharness.h>

#include "lin-harness.h"
#include "median-harness.h"

/* Fails unless every property of @props (@n of them) exists on @e with a
 * blurb longer than @min_blurb characters, and can change while PLAYING
 * (but backend and cuda-device-id). */
void check_properties_documented (GstElement * e, const char *const *props,
    guint n, gsize min_blurb);

/* The odd frame sizes the filters are tried at on every template format:
 * 1x1, one row, one column, 2x3 and one larger. */
typedef struct
{
  int width, height;
} CheckSize;

#define CHECK_N_ODD_SIZES 5
extern const CheckSize check_odd_sizes[CHECK_N_ODD_SIZES];

/* A filter of the morphology family on the CPU backend. */
typedef enum
{
  CHECK_MORPH,                  /* cudamorph, MorphParams rows */
  CHECK_MEDIAN                  /* cudamedian, MedianParams rows */
} CheckFilter;

/* Every row of @rows (@n_rows of them, of @filter's type) on every format
 * of @formats at @width x @height: a new element, one seeded frame (seeds
 * from @seed) checked against the core's reference; @ctx names the
 * cases. */
void check_rows_on_formats (CheckFilter filter, gconstpointer rows,
    guint n_rows, const char *const *formats, guint n_formats, int width,
    int height, guint64 seed, const char *ctx);

/* Fails unless each property of the NULL-terminated list of names and
 * values that follows (of the properties' types, as g_object_set () takes
 * them) holds exactly that value. */
void check_properties_equal (GstElement * e, const char *first_property,
    ...);

/* Fails unless @e is in PLAYING, with no state change pending (a harness
 * with caps has set it so). */
void check_element_playing (GstElement * e);

/* A cudamorph on the CPU backend taken to and from other operations
 * while PLAYING: @m is what its frames are checked against. */
typedef struct
{
  MorphParams m;
  GstElement *e;
  GstHarness *h;
  GstVideoInfo info;
} MorphRun;

/* A cudamorph on the CPU backend under the defaults (in @r->m), in a
 * harness with caps GRAY8 37x23 (in @r->info), checked PLAYING, and one
 * frame (seed 1) checked, named "erode first". */
void morph_run_start (MorphRun * r);

/* Back to morphology: @r's element and @r->m set to dilate, one frame
 * (seed 7) checked as @what; then the harness torn down and the element
 * let go. */
void morph_run_finish_dilate (MorphRun * r, const char *what);

/* One cudalinspectrum under test: @p is what it was set to (and what its
 * results are checked against); the rest is filled by lin_run_start (). */
typedef struct
{
  LinParams p;
  GstElement *e;
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo info;
  GstVideoInfo out_info;        /* RGBA, from lin_run_orientation_ok () */
  const char *sink_caps;        /* what downstream takes; NULL: anything */
  gchar *what;                  /* "GRAY8 37x23 open L=9 ...", the caps and
                                 * parameters, for failure messages */
} LinRun;

/* A cudalinspectrum on the CPU backend set as @r->p says, with a bus of
 * its own. */
void lin_run_new (LinRun * r);

/* @r's element in a harness (downstream taking @r->sink_caps) with caps
 * @format @width x @height (in @r->info), @r->what naming them. */
void lin_run_set_caps (LinRun * r, const char *format, int width,
    int height);

/* Both: lin_run_new (), then the properties of the NULL-terminated list
 * of names and values that follows, then lin_run_set_caps (). */
void lin_run_start (LinRun * r, const char *format, int width, int height,
    const char *first_property, ...);

/* The output property set to @output, in @r->p too. */
void lin_run_set_output (LinRun * r, const char *output);

/* lin_push_random () through @r's harness with @r's caps. */
GstBuffer *lin_run_push (LinRun * r, guint64 seed, int extra,
    GstBuffer ** out);

/* The output of @in is the orientation map of @r->p in RGBA caps of the
 * input's size (in @r->out_info): lin_check_rgba_caps () and
 * lin_check_orientation (). */
gboolean lin_run_orientation_ok (LinRun * r, GstBuffer * in, GstBuffer * out,
    const char *what);

/* One random frame (seed @seed, @extra bytes of row padding) through
 * @r, its output what @r->p.output says (the input passed through, the
 * supremum, or the orientation map in RGBA caps), with the reference's
 * message and meta. */
void lin_run_push_checked (LinRun * r, guint64 seed, int extra,
    const char *what);

/* The harness torn down, the element and its bus let go. */
void lin_run_clear (LinRun * r);

/* lin_check_frame_result (), lin_check_one_message () and
 * lin_check_supremum () with @r's bus, caps and parameters. */
void lin_run_check_frame (LinRun * r, GstBuffer * in, GstBuffer * out,
    const char *what);
void lin_run_check_message (LinRun * r, GstBuffer * in, const char *what);
gboolean lin_run_supremum_ok (LinRun * r, GstBuffer * in, GstBuffer * out,
    const char *what);
