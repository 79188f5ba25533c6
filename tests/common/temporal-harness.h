/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudatemporal in the element tests (tests/check's own test and the
 * reliability tests): a frame's output checked against the core's
 * reference (cm_temporal_ref) over the test's own copy of the window. */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include "temporal/temporal.h"

/* TRUE when @outbuf is what the window @win (the GstBuffers of @info since
 * the history began, oldest first, at most @d->frames) gives under @d:
 * each plane by the reference (chroma neutral for a difference; RGB with
 * the current frame's alpha byte); prints the first difference. Only
 * @d's frames, percentile and output are read. */
gboolean temporal_output_ok (const GstVideoInfo * info,
    const cm_temporal_desc * d, GPtrArray * win, GstBuffer * outbuf,
    const char *what);
