/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cudalinspectrum part of the element harness (tests/check on the
 * CPU backend, tests/gpu on CUDA): the element set up from a parameter
 * row with its own bus, the "cudalinspectrum" messages read back from it,
 * their schema checked field by field, the result on the output buffers
 * (GstCudaLinSpectrumMeta) in the messages' form, and the CPU reference
 * of every output (spectrum, supremum, orientation colours). */
#pragma once

#include <gst/video/video.h>

#include "frame-compare.h"
#include "linspectrum/linspectrum.h"

typedef struct
{
  int length;
  double angle_min, angle_max, angle_step;
  cm_morph_op op;               /* CM_MORPH_OPEN or CM_MORPH_CLOSE */
  const char *output;           /* "passthrough", "supremum", "orientation" */
} LinParams;

#define LIN_N_FORMATS 5

/* Template format @i (0 ... LIN_N_FORMATS - 1) of cudalinspectrum. */
const char *lin_format (int i);

/* The core's description of @p. */
void lin_params_desc (const LinParams * p, cm_linspectrum_desc * d);

/* "open L=41 0..180 step 1 output=passthrough", for failure messages */
gchar *lin_params_describe (const LinParams * p);

/* Sets every analysis property of @e from @p. The angles go through a
 * wide range first so that no intermediate combination is refused. */
void lin_params_apply (GstElement * e, const LinParams * p);

/* A cudalinspectrum with backend @backend, parameters @p (NULL: the
 * defaults) and a bus of its own in *@bus. */
GstElement *lin_element_new (const char *backend, const LinParams * p,
    GstBus ** bus);

/* The next "cudalinspectrum" element message on @bus, or NULL. */
GstMessage *lin_pop_message (GstBus * bus);

/* Pops the "cudalinspectrum" messages of @bus; returns how many. */
guint lin_count_messages (GstBus * bus);

/* The double at @i of the GstValueArray field @name of @s. */
gdouble lin_array_get (const GstStructure * s, const char *name, guint i);

/* Every field of the schema with its type; returns the number of
 * orientations. */
guint lin_check_schema (const GstStructure * s, const char *what);

/* ---- the result on the buffer ------------------------------------------
 * The custom meta GstCudaLinSpectrumMeta, read as an application reads it:
 * by name, with no header of the plugin. */

#define LIN_META_NAME "GstCudaLinSpectrumMeta"

/* The number of GstCudaLinSpectrumMeta on @buf. */
guint lin_meta_count (GstBuffer * buf);

/* The structure of the one GstCudaLinSpectrumMeta of @buf. */
const GstStructure *lin_meta_structure (GstBuffer * buf, const char *what);

/* The GBytes field @name of the meta's structure @s as *@n doubles. */
const gdouble *lin_meta_doubles (const GstStructure * s, const char *name,
    guint * n);

/* The meta's structure @s in the form of the message: named
 * "cudalinspectrum", angles and spectrum as GstValueArray. Compared with
 * gst_structure_is_equal () (doubles exactly) and checked against the
 * reference with lin_check_message (). */
GstStructure *lin_meta_as_message (const GstStructure * s);

/* Passthrough: @out is @in, or, when the caller held @in (the element
 * cannot add its meta to a buffer someone else holds), a copy that shares
 * every memory of @in, and @in got no meta. */
void lin_check_passed_through (GstBuffer * in, GstBuffer * out,
    const char *what);

/* The GstCudaLinSpectrumMeta of @out, in the message's form, is the
 * message @msg of the same frame, exactly. */
void lin_check_meta_is_message (GstBuffer * out, const GstStructure * msg,
    const char *what);

/* TRUE when the message @s is the reference analysis of @inbuf: the
 * angles, spectrum / pixels, dominant angle and value, length and
 * operation, all exact. */
gboolean lin_check_message (const GstStructure * s, GstBuffer * inbuf,
    const GstVideoInfo * info, const LinParams * p, const char *what);

/* TRUE when the RGBA pixels of @got and @exp are equal. */
gboolean lin_rgba_equal (const cm_image_packed * got,
    const cm_image_packed * exp,
    const char *what);

/* TRUE when @outbuf (RGBA, @out_info) is the reference colouring of the
 * orientation map of @inbuf (@in_info). */
gboolean lin_check_orientation (GstBuffer * inbuf, const GstVideoInfo * in_info,
    GstBuffer * outbuf, const GstVideoInfo * out_info, const LinParams * p,
    const char *what);

/* TRUE when @outbuf is @inbuf with its plane 0 replaced by the reference
 * supremum (infimum for closings) and the other planes copied. */
gboolean lin_check_supremum (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const LinParams * p, const char *what);

/* ---- one harnessed element --------------------------------------------- */

/* A harness around @e with caps @format @w x @h (*@info) sent. */
GstHarness *lin_harness_new (GstElement * e, const char *format, int w, int h,
    GstVideoInfo * info);

/* The harness torn down, @e (made by lin_element_new ()) and its @bus
 * unreferenced. */
void lin_teardown (GstHarness * h, GstElement * e, GstBus * bus);

/* Pushes a random frame (morph_make_input ()), returns the input; *@out
 * gets the output. */
GstBuffer *lin_push_random (GstHarness * h, const GstVideoInfo * info,
    guint64 seed, int extra, GstBuffer ** out);

/* The one message on @bus is the reference analysis of @in. */
void lin_check_one_message (GstBus * bus, GstBuffer * in,
    const GstVideoInfo * info, const LinParams * p, const char *what);

/* The "cudalinspectrum-spectrum" entries of @buf's analytics relation
 * meta (0 without GStreamer's analytics library). */
guint lin_mtd_count (GstBuffer * buf);

/* The meta of @out carries the message @msg of the same frame: every
 * field, angles and spectrum as GBytes of doubles with the message's
 * values, exactly; and so does the analytics entry (with GStreamer's
 * analytics library), read with the plugin header's inline readers. */
void lin_check_result_is_message (GstBuffer * out, const GstStructure * msg,
    const char *what);

/* The one message of the frame @in is its reference analysis, and the
 * output buffer @out carries the same result. */
void lin_check_frame_result (GstBus * bus, GstBuffer * in, GstBuffer * out,
    const GstVideoInfo * info, const LinParams * p, const char *what);

/* The harness's output caps: RGBA @w x @hgt at 30/1 (*@out_info). */
void lin_check_rgba_caps (GstHarness * h, int w, int hgt,
    GstVideoInfo * out_info);

/* TRUE when @caps can intersect video/x-raw,format=@format. */
gboolean lin_caps_has_format (GstCaps * caps, const char *format);
