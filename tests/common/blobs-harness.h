/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudablobs in the element tests (tests/check on the CPU backend,
 * tests/gpu on CUDA): frames whose plane 0 holds the blobs tests' kinds
 * (tests/common/blobs-cases.h), the reference's blobs of a frame or of
 * its regions in frame coordinates, and a message or a meta checked
 * against them, read as an application reads them: by the names of the
 * message's fields and of the custom meta, with no header of the
 * plugin. */
#pragma once

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "blobs/blobs.h"

/* the name of the custom meta (and of its structure) */
#define BLOBS_META_NAME "GstCudaBlobsMeta"

/* The blobs a frame should give: the reference's, region after region. */
typedef struct
{
  guint total, count;
  guint64 foreground;
  GArray *x, *y, *width, *height, *min, *max;   /* guint32 */
  GArray *area;                 /* guint64 */
  GArray *cx, *cy, *mean;       /* gdouble */
} BlobsExpected;

/* A frame of @info (random padding, @extra_stride bytes more per row as
 * padded-frames.h does) whose plane 0 is @kind with @param
 * (blobs_fill ()); *@t: the threshold that goes with it; chroma random. */
GstBuffer *blobs_make_input (const GstVideoInfo * info, int kind, int param,
    guint64 seed, int extra_stride, guint * t);

/* The reference's blobs of plane 0 of @buf under @d: the whole frame
 * (@rects NULL) or each of the @n_rects rectangles as a frame, in frame
 * coordinates (a centroid is the region's plus the region's offset). */
void blobs_expected_compute (BlobsExpected * e, const cm_blobs_desc * d,
    GstBuffer * buf, const GstVideoInfo * info,
    const GstVideoRectangle * rects, guint n_rects);
void blobs_expected_clear (BlobsExpected * e);

/* @s ("cudablobs" message: @bytes FALSE, arrays as GstValueArrays; the
 * custom meta's structure: @bytes TRUE, arrays as GBytes) holds exactly
 * @e, every value bit for bit; else a line on stderr and FALSE. */
gboolean blobs_structure_equal (const GstStructure * s, gboolean bytes,
    const BlobsExpected * e, const char *what);

/* The custom meta's structure of @buf (looked up by name), or NULL; how
 * many such metas @buf has. */
const GstStructure *blobs_meta_structure (GstBuffer * buf);
guint blobs_meta_count (GstBuffer * buf);

/* The next "cudablobs" element message on @bus, or NULL; the messages
 * before it are dropped, the warnings among them counted in *@warnings
 * (nullable). The element posts its messages from a thread of its own:
 * blobs_pop_message takes what is on the bus now (all of them once an
 * EOS went through), blobs_wait_message waits up to 10 s for one. */
GstMessage *blobs_pop_message (GstBus * bus, guint * warnings);
GstMessage *blobs_wait_message (GstBus * bus, guint * warnings);

/* Every message the element behind @h posted so far dropped (a serialized
 * event pushed first: the element posts them all before passing it on);
 * how many "cudablobs" ones there were */
guint blobs_flush_messages (GstHarness * h, GstBus * bus);

/* Plane 0 of @out (@out_info: the input's format for a mask, GRAY16_LE
 * for labels) is the reference's image of plane 0 of @in (@in_info) under
 * @d; for a YUV mask in system memory the chroma is neutral (128). */
gboolean blobs_check_image (GstBuffer * in, const GstVideoInfo * in_info,
    GstBuffer * out, const GstVideoInfo * out_info, const cm_blobs_desc * d,
    const char *what);

/* @d from the element's settings (threshold clamped to @depth as the
 * element does) */
void blobs_desc_from_element (GstElement * e, cm_depth depth,
    cm_blobs_desc * d);
