/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The element harness of the element tests (tests/check on the CPU
 * backend, tests/gpu on CUDA): an element of the plugin on a backend, a
 * cudamorph set up from a parameter row (morphology or reconstruction) in
 * a GstHarness, the properties' nicks and descriptions for failure
 * messages, the bus read without gst_bus_pop_filtered ()'s trap, GLib's
 * refusal of out-of-range values asserted on every GLib version, and the
 * main () of the GPU element tests. The frames are in padded-frames.h,
 * their comparison in frame-compare.h, the other elements in
 * median-harness.h and lin-harness.h. */
#pragma once

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "morph/morph.h"
#include "reconstruct/reconstruct.h"
#include "attribute/attribute.h"
#include "morph/se.h"
#include "test-suite.h"

/* Runs @code, which sets a property to a value outside its GParamSpec
 * range (or NaN): GLib refuses it and the old value stays. GLib says so
 * with a warning up to 2.74 (Debian 12) and with a critical in newer
 * releases (2.84 of Debian 13); either is expected, nothing else passes.
 * Values the element itself refuses keep ASSERT_WARNING: its warning is
 * the same on every version. */
#define ASSERT_OUT_OF_RANGE(code)                                         \
  G_STMT_START {                                                          \
    _gst_check_expecting_log = TRUE;                                      \
    _gst_check_raised_warning = FALSE;                                    \
    _gst_check_raised_critical = FALSE;                                   \
    code;                                                                 \
    if (!_gst_check_raised_warning && !_gst_check_raised_critical)        \
      _ck_assert_failed (__FILE__, __LINE__, "Expected GLib to refuse "   \
          "an out-of-range value with a warning or critical, got nothing", \
          NULL);                                                          \
    _gst_check_expecting_log = FALSE;                                     \
  } G_STMT_END

/* Sets the int or uint property @name of @e to @bad, a value outside its
 * GParamSpec range (ASSERT_OUT_OF_RANGE): the property still reads
 * @kept. */
void test_expect_int_refused (GstElement * e, const char *name, gint bad,
    gint64 kept);

/* gst_bus_pop_filtered () without its trap: GStreamer 1.26 (seen with
 * 1.26.2) drops the messages it skips while it holds the bus lock. A
 * skipped message that holds the last reference to a pad (the
 * structure-change messages of a harness teardown) finalizes the pad,
 * which unlinks itself and posts to the same bus: the thread waits for
 * itself forever. Here the skipped messages are dropped after the bus is
 * let go. */
GstMessage *test_bus_pop_filtered (GstBus * bus, GstMessageType types);

/* Pops every message of @types (errors, warnings) from @bus, prints each
 * one's text ("bus: ...") to stderr and returns how many there were. */
guint test_bus_count_problems (GstBus * bus, GstMessageType types);

/* How many filters @e has built (the "cudamorphology-stats" query's
 * filter-builds), asserted answered. */
guint64 test_filter_builds (GstElement * e);

/* main () of a GPU element test: exits 77 (meson: SKIP) before
 * gst_check_init () when there is no usable CUDA device, else runs the
 * suite @name of @tests (test-suite.h; one TCase "cuda-vs-cpu", 600 s a
 * test) in this process (CUDA is initialised: a forked child could not
 * use it); @file: the test's __FILE__. */
int test_gpu_check_main (int *argc, char ***argv, const char *name,
    const TestSuiteEntry * tests, const char *file);

/* The main () of a GPU element test program: test_gpu_check_main (). */
#define TEST_GPU_CHECK_MAIN(name, tests)                                 \
  int main (int argc, char **argv)                                       \
  {                                                                       \
    return test_gpu_check_main (&argc, &argv, (name), (tests), __FILE__); \
  }

typedef struct
{
  cm_morph_op op;
  cm_shape shape;
  int width, height;            /* rect, cross */
  int radius;                   /* diamond, disk, octagon */
  int length;                   /* line */
  double angle;                 /* line */
  const char *mask;             /* custom */
  int iterations;
  cm_border_mode border;
  unsigned border_value;
} MorphParams;

/* MorphParams rows that name only what their structuring element takes,
 * the other shape parameters at the element's defaults: a size (rect,
 * cross), a radius (diamond, disk, octagon), a line's length and angle, a
 * custom mask; then iterations, border and border-value. */
#define MORPH_SIZE(op, shape, w, h, ...) \
  { op, shape, w, h, 1, 15, 0.0, "010;111;010", __VA_ARGS__ }
#define MORPH_RADIUS(op, shape, r, ...) \
  { op, shape, 3, 3, r, 15, 0.0, "010;111;010", __VA_ARGS__ }
#define MORPH_LINE(op, length, angle, ...) \
  { op, CM_SHAPE_LINE, 3, 3, 1, length, angle, "010;111;010", __VA_ARGS__ }
#define MORPH_MASK(op, mask, ...) \
  { op, CM_SHAPE_CUSTOM, 3, 3, 1, 15, 0.0, mask, __VA_ARGS__ }

/* the element's defaults */
#define MORPH_PARAMS_DEFAULT \
  MORPH_SIZE (CM_MORPH_ERODE, CM_SHAPE_RECT, 3, 3, 1, CM_BORDER_NEUTRAL, 0)

/* A reconstruction operation of the element: operation, connectivity,
 * dome-height, and the structuring element, iterations and border that
 * make the marker of open-rec and close-rec (marker.op is not used). */
typedef struct
{
  cm_recon_op op;
  int connectivity;
  unsigned dome_height;
  MorphParams marker;
} ReconParams;

/* An area operation of the element: area-open or area-close, through
 * connectivity neighbours, structures of fewer than min-area pixels
 * removed (the structuring element's properties left at their
 * defaults). */
typedef struct
{
  cm_attr_op op;
  int connectivity;
  unsigned min_area;
} AreaParams;

#define MORPH_N_FORMATS 9

/* Template format @i (0 ... MORPH_N_FORMATS - 1) of cudamorph and
 * cudamedian. */
const char *morph_format (int i);

/* The element's nicks of an operation, a shape and a border. */
const char *morph_op_nick (cm_morph_op op);
const char *morph_shape_nick (cm_shape shape);
const char *morph_border_nick (cm_border_mode border);

/* the element's nicks, in cm_recon_op's order */
const char *recon_op_nick (cm_recon_op op);

/* the element's nicks, in cm_attr_op's order */
const char *area_op_nick (cm_attr_op op);

/* "open line L=41 a=70 it=1 border=neutral(0)", for failure messages */
gchar *morph_params_describe (const MorphParams * p);

/* "hmax c=4 h=40 (marker: erode rect 3x3 ...)", for failure messages */
gchar *recon_params_describe (const ReconParams * p);

/* "area-open c=8 min-area=20", for failure messages */
gchar *area_params_describe (const AreaParams * p);

/* Sets every filter property of @e from @p (by nick for the enums). */
void morph_params_apply (GstElement * e, const MorphParams * p);

/* The same for a reconstruction operation. */
void recon_params_apply (GstElement * e, const ReconParams * p);

/* operation, connectivity and min-area of @e from @p */
void area_params_apply (GstElement * e, const AreaParams * p);

/* Element @factory of this plugin with backend @backend ("cpu", "cuda",
 * "auto"). */
GstElement *test_element_new (const char *factory, const char *backend);

/* Sets @args on @e as gst-launch-1.0 would: "name=value" words separated
 * by single spaces (values without spaces); NULL or "" sets nothing. */
void test_element_set_args (GstElement * e, const char *args);

/* Sets the filter properties of an element from a parameter row
 * (morph_params_apply, median_params_apply). */
typedef void (*TestParamsApply) (GstElement * e, gconstpointer params);

/* test_element_new (), then @apply (e, @params) unless @params is NULL
 * (the element's defaults). */
GstElement *test_element_new_with (const char *factory, const char *backend,
    TestParamsApply apply, gconstpointer params);

/* A cudamorph with backend @backend ("cpu", "cuda", "auto") and @p. */
GstElement *morph_element_new (const char *backend, const MorphParams * p);

/* Tears down @h, then lets go of @e and of @bus, the bus it was given
 * (gst_element_set_bus ()). */
void test_element_teardown (GstHarness * h, GstElement * e, GstBus * bus);
/* The start of @e fails at once with an error message on @bus (the
 * message is returned: unref it) */
GstMessage *test_start_fails (GstElement * e, GstBus * bus);
/* @e stopped (which must succeed), off @bus, and both unreffed */
void test_element_stop (GstElement * e, GstBus * bus);
/* @e, with a bus of its own, in a harness given caps @format @width x
 * @height: the message of the error it must post then (g_free () it);
 * the harness, the bus and @e let go. */
gchar *test_caps_error (GstElement * e, const char *format, int width,
    int height);

/* Harness around @e (the harness takes its own reference). */
GstHarness *morph_harness_new (GstElement * e);

/* Caps @format @width x @height at 30/1 on @h's source (asserted taken),
 * *@info set to them. */
void morph_harness_set_caps (GstHarness * h, const char *format, int width,
    int height, GstVideoInfo * info);

/* The structuring element of @p, built with the core's constructors. */
cm_se *morph_params_se (const MorphParams * p);
