/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The reliability tests' harness (tests/check/test-bad-input.c,
 * test-faults-nodevice.c, tests/gpu/test-faults.c, test-concurrency.c):
 * one setting of any of the five elements, the element made from it on
 * the backend of CM_TEST_BACKEND (default cpu), and a frame pushed,
 * pulled and compared with the CPU reference (cudalinspectrum: its
 * message and its supremum or passthrough output; cudablobs: the meta on
 * its output and its mask or passthrough output; cudatemporal: over the
 * frames since its history began). */
#pragma once

#include "test-suite.h"

#include "lin-harness.h"
#include "median-harness.h"
#include "temporal-harness.h"

/* ---- elements and their reference --------------------------------------- */

typedef enum
{
  EL_MORPH,
  EL_MEDIAN,
  EL_LIN,
  EL_BLOBS,
  EL_TEMPORAL
} ElemKind;

/* cudablobs: its properties (gst-launch syntax, output passthrough or
 * mask) and its frames: @kind and @param of blobs-cases.h (blobs_fill ()),
 * the threshold set to the frame's before each push */
typedef struct
{
  const char *args;
  int kind;
  int param;
} BlobsParams;

/* cudatemporal: its frames, percentile and output */
typedef struct
{
  guint frames;
  gdouble percentile;
  cm_temporal_output output;
} TemporalParams;

/* One filter setting of one element. */
typedef struct
{
  ElemKind kind;
  MorphParams morph;
  MedianParams median;
  LinParams lin;
  BlobsParams blobs;
  TemporalParams temporal;
} Setting;

/* CM_TEST_BACKEND, default "cpu" */
const gchar *test_backend (void);

/* main () of a test that runs on either backend (the gst suite on the
 * CPU, the gpu suite again with CM_TEST_BACKEND=cuda): gst_check_init (),
 * TEST_SKIP on cuda without a device, else the suite @name of @tests. */
int test_backend_main (int *argc, char ***argv, const char *name,
    const TestSuiteEntry * tests);

/* The element factory of @k. */
const gchar *kind_name (ElemKind k);

/* The element of @s on the test backend with a bus of its own. */
GstElement *setting_element_new (const Setting * s, GstBus ** bus);

/* @s in words, for failure messages */
gchar *setting_describe (const Setting * s);

/* cudamorph and cudamedian: plane 0 / each colour channel filtered, the
 * other planes and bytes copied; the colour median on whole pixels. */
gboolean check_filtered (const Setting * s, GstBuffer * inbuf,
    GstBuffer * outbuf, const GstVideoInfo * info, const char *what);

/* Pops every message of @bus: fails on an ERROR, returns the
 * "cudalinspectrum" element messages in order (the rest is dropped:
 * cudablobs posts its messages from a thread of its own, so its tests
 * here read the meta). */
GList *drain_bus (GstBus * bus, const char *what);

/* drain_bus (), its messages dropped */
void assert_no_error (GstBus * bus, const char *what);

/* Pushes one seeded frame of @info, pulls the output and checks it (and
 * for cudalinspectrum the message of this frame, for cudablobs the meta
 * on the output). For cudatemporal the harness keeps the frames since
 * the element's history began (new caps, or setting_history_reset ()). */
void push_and_check (GstHarness * h, GstBus * bus, const Setting * s,
    const GstVideoInfo * info, guint64 seed, int extra_stride,
    const char *ctx);

/* The element's history begins anew (a restart, a flush): for
 * cudatemporal the harness forgets its frames too. */
void setting_history_reset (GstElement * e);

/* @in (of @info) was pushed into @e (of @s) outside push_and_check ():
 * for cudatemporal the harness' window takes it too. */
void setting_frame_pushed (const Setting * s, GstElement * e,
    const GstVideoInfo * info, GstBuffer * in);

/* TRUE for the analysers that take grey and YUV only (cudalinspectrum,
 * cudablobs: no RGB) */
gboolean kind_grey_yuv_only (ElemKind k);

/* The template formats of @k: how many, and the @i-th. */
int n_formats (ElemKind k);
const char *format_name (ElemKind k, int i);

#define BLOBS_PARAMS_NONE { NULL, 0, 0 }
#define TEMPORAL_PARAMS_NONE { 0, 0.0, CM_TEMPORAL_BACKGROUND }
#define MEDIAN_PARAMS_DEFAULT { 3, 3, 50, CM_BORDER_REPLICATE, 0, TRUE }
#define LIN_PARAMS_DEFAULT { 41, 0, 180, 1, CM_MORPH_OPEN, "passthrough" }
#define MORPH_SETTING(...) { EL_MORPH, { __VA_ARGS__ }, \
      MEDIAN_PARAMS_DEFAULT, LIN_PARAMS_DEFAULT, BLOBS_PARAMS_NONE, \
      TEMPORAL_PARAMS_NONE }
#define MEDIAN_SETTING(...) { EL_MEDIAN, MORPH_PARAMS_DEFAULT, \
    { __VA_ARGS__ }, LIN_PARAMS_DEFAULT, BLOBS_PARAMS_NONE, \
    TEMPORAL_PARAMS_NONE }
#define LIN_SETTING(...) { EL_LIN, MORPH_PARAMS_DEFAULT, \
      MEDIAN_PARAMS_DEFAULT, { __VA_ARGS__ }, BLOBS_PARAMS_NONE, \
      TEMPORAL_PARAMS_NONE }
#define BLOBS_SETTING(...) { EL_BLOBS, MORPH_PARAMS_DEFAULT, \
      MEDIAN_PARAMS_DEFAULT, LIN_PARAMS_DEFAULT, { __VA_ARGS__ }, \
      TEMPORAL_PARAMS_NONE }
#define TEMPORAL_SETTING(...) { EL_TEMPORAL, MORPH_PARAMS_DEFAULT, \
      MEDIAN_PARAMS_DEFAULT, LIN_PARAMS_DEFAULT, BLOBS_PARAMS_NONE, \
      { __VA_ARGS__ } }
