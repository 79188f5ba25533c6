/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frame comparison of the element tests: an output frame against the
 * core's CPU reference applied to the input (the luma / GRAY plane or each
 * colour channel filtered, chroma, alpha and padding bytes equal to the
 * input), or two frames byte for byte; the first difference is printed
 * to stderr. */
#pragma once

#include <gst/video/video.h>

#include "element-harness.h"
#include "padded-frames.h"

/* The expected result of one plane: @src filtered into @dst (a new image
 * of @src's size and depth) by the core's CPU reference. */
typedef cm_status (*MorphPlaneRef) (gconstpointer params, const cm_image * src,
    const cm_image * dst);

/* cm_morph_ref for a MorphParams, border-value clamped like the element */
cm_status morph_plane_ref (gconstpointer params, const cm_image * src,
    const cm_image * dst);

/* cm_recon_ref for a ReconParams, dome-height and border-value clamped
 * like the element */
cm_status recon_plane_ref (gconstpointer params, const cm_image * src,
    const cm_image * dst);

/* cm_attr_ref for an AreaParams */
cm_status area_plane_ref (gconstpointer params, const cm_image * src,
    const cm_image * dst);

/* The expected result of a packed RGB frame filtered as whole pixels
 * (cudamedian's luma mode): @src filtered into @dst, @info telling where
 * the colour and alpha bytes are. */
typedef cm_status (*MorphPixelRef) (gconstpointer params,
    const cm_image_packed * src, const cm_image_packed * dst,
    const GstVideoInfo * info);

/* TRUE when @got (@got_stride bytes a row) equals @exp over @rows rows of
 * @row_bytes; else prints the first difference ("@what: row, byte"). */
gboolean frame_bytes_equal (const guint8 * got, gsize got_stride,
    const guint8 * exp, gsize exp_stride, gsize row_bytes, int rows,
    const char *what);

/* TRUE when the visible bytes of planes @first_plane... of @got and @exp
 * are equal; else prints the first difference. */
gboolean frame_planes_equal (GstVideoFrame * got, GstVideoFrame * exp,
    guint first_plane, const char *what);

/* TRUE when @outbuf is @inbuf filtered as @ref says: @ref applied to the
 * luma / GRAY plane or to each colour byte of packed RGB (@pixel_ref, when
 * set, to whole RGB pixels instead), chroma, alpha and padding bytes equal
 * to the input; both frames' layouts inside their buffers. Prints the
 * first difference to stderr. */
gboolean morph_check_output_pixels (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, MorphPlaneRef ref, MorphPixelRef pixel_ref,
    gconstpointer params, const char *what);

/* TRUE when @outbuf is @inbuf filtered as @p says (morphology). */
gboolean morph_check_output (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const MorphParams * p, const char *what);

/* TRUE when @outbuf is @inbuf filtered as @p says (reconstruction). */
gboolean recon_check_output (GstBuffer * inbuf, GstBuffer * outbuf,
    const GstVideoInfo * info, const ReconParams * p, const char *what);

/* TRUE when the visible bytes of every plane of @a and @b are equal. */
gboolean morph_frames_equal (GstBuffer * a, GstBuffer * b,
    const GstVideoInfo * info,
    const char *what);

/* Pushes @in through @h, pulls the output and asserts that it is @in
 * filtered as morph_check_output_pixels () says; @what names the case. */
void frame_push_and_check (GstHarness * h, GstBuffer * in,
    const GstVideoInfo * info, MorphPlaneRef ref, MorphPixelRef pixel_ref,
    gconstpointer params, const char *what);

/* "@ctx GRAY8 37x23 padded, @desc, seed 5", for failure messages */
gchar *frame_case_name (const char *ctx, const GstVideoInfo * info,
    int extra_stride, const char *desc, guint64 seed);

/* The same for a random frame of @info (morph_make_input ()); @ctx and
 * @desc (freed here) name the case with frame_case_name (). */
void frame_push_random_and_check (GstHarness * h, const GstVideoInfo * info,
    guint64 seed, int extra_stride, MorphPlaneRef ref,
    MorphPixelRef pixel_ref, gconstpointer params, gchar * desc,
    const char *ctx);

/* Pushes one random frame of @info (morph_make_input ()) through @h,
 * pulls the output and asserts that it is the frame filtered as @p says;
 * @ctx opens the failure message. */
void morph_push_and_check (GstHarness * h, const GstVideoInfo * info,
    const MorphParams * p, guint64 seed, int extra_stride, const char *ctx);

/* Pushes @in through @h and asserts that the output is @in reconstructed
 * as @p says (cm_recon_ref); @ctx opens the failure message. */
void recon_push_and_check (GstHarness * h, const GstVideoInfo * info,
    const ReconParams * p, GstBuffer * in, const char *ctx);

/* Pushes @in through @h and asserts that the output is @in filtered as @p
 * says (cm_attr_ref); @ctx opens the failure message. */
void area_push_and_check (GstHarness * h, const GstVideoInfo * info,
    const AreaParams * p, GstBuffer * in, const char *ctx);

/* One frame through a harness with the input and the output mapped for
 * reading, for the tests that read the samples themselves. */
typedef struct
{
  GstBuffer *inbuf, *outbuf;
  GstVideoFrame in, out;
} FrameRun;

/* Pushes @inbuf (its reference taken over) through @h, pulls the output
 * (asserted) and maps both as @info says. */
void frame_run_push (FrameRun * r, GstHarness * h, const GstVideoInfo * info,
    GstBuffer * inbuf);

/* Unmaps both frames and lets go of the buffers. */
void frame_run_clear (FrameRun * r);

