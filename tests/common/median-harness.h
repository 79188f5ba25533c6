/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cudamedian part of the element harness (tests/check, the
 * reliability tests): the element set up from a parameter row, and its
 * output checked against the core's CPU reference, per plane or channel
 * and, in luma mode, on whole RGB pixels. */
#pragma once

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "median/median.h"

typedef struct
{
  int width, height;
  double percentile;
  cm_border_mode border;
  unsigned border_value;
  gboolean luma;                /* color-mode=luma, else channels */
} MedianParams;

/* Sets every filter property of @e from @p. */
void median_params_apply (GstElement * e, const MedianParams * p);

/* A cudamedian with backend @backend ("cpu", "cuda", "auto") and @p (NULL:
 * the defaults). */
GstElement *median_element_new (const char *backend, const MedianParams * p);

/* The core's description of @p on samples of @depth, border-value clamped
 * like the element. */
void median_params_desc (const MedianParams * p, cm_depth depth,
    cm_median_desc * desc);

/* "median 3x3 p=50 border=replicate(0) luma", for failure messages */
gchar *median_params_describe (const MedianParams * p);

/* TRUE when @outbuf is @inbuf filtered as @p says: cm_median_ref on the
 * luma / GRAY plane or each colour channel, cm_median_luma_ref on whole
 * pixels of packed RGB in luma mode; the rest equal to the input. */
gboolean median_check_output (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const MedianParams * p, const char *what);

/* Pushes one random frame of @info (morph_make_input ()) through @h,
 * pulls the output and asserts that it is the frame filtered as @p says;
 * @ctx opens the failure message. */
void median_push_and_check (GstHarness * h, const GstVideoInfo * info,
    const MedianParams * p, guint64 seed, int extra_stride, const char *ctx);
