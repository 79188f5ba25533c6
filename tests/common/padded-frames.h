/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Input frames of the element tests: seeded random bytes (padding
 * included) with default strides or larger ones and plane offsets
 * described by a GstVideoMeta, piecewise-constant blobs and serpentine
 * mazes for reconstruction, the attribute filters' frames (specks,
 * hills, staircases, ...), and the plane extents and layouts they are
 * read back with. */
#pragma once

#include <gst/video/video.h>

#include "cm-image.h"
#include "attribute-frames.h"

/* Plane @plane of @frame: bytes of one visible row and number of rows. */
void morph_plane_extent (GstVideoFrame * frame, guint plane, gsize * row_bytes,
    int *rows);

/* A frame of @info with every byte random (seeded), padding included. With
 * @extra_stride > 0 the planes get larger strides and a non-zero offset,
 * described by a GstVideoMeta. */
GstBuffer *morph_make_input (const GstVideoInfo * info, guint64 seed,
    int extra_stride);

/* Sets sample (@x, @y) of the processed plane of @frame: the luma / GRAY
 * plane, or colour component @comp (0..2) of a packed RGB frame. */
void morph_frame_set (GstVideoFrame * frame, int comp, int x, int y, guint v);

/* A frame like morph_make_input (), whose processed samples are
 * piecewise-constant blobs instead: a random level on each @cell x @cell
 * square plus random noise below @noise (in 8-bit units, scaled to
 * 16-bit), so that there are plateaus, regional extrema, holes and
 * objects touching the border for reconstruction to work on. */
GstBuffer *morph_make_input_blobs (const GstVideoInfo * info, guint64 seed,
    int extra_stride, int cell, guint noise);

/* A frame like morph_make_input (), whose processed samples (each colour
 * channel of packed RGB) are an attribute filter test frame of @kind
 * (attr_frame_fill (), seeded from @seed). */
GstBuffer *morph_make_input_attr (const GstVideoInfo * info, guint64 seed,
    int extra_stride, attr_frame_kind kind);

/* A frame whose processed samples are a serpentine maze: @wall around the
 * frame and between the corridor rows (odd rows), @corridor along them,
 * the rows joined at alternate ends, and the one opening to the frame's
 * edge at (0, 1). Reconstruction from the border then has to follow the
 * whole corridor: half the frame's pixels, one after the other. With
 * @vertical the same along columns (opening at (1, 0)). */
GstBuffer *morph_make_input_maze (const GstVideoInfo * info, guint64 seed,
    guint wall, guint corridor, gboolean vertical);

/* The luma / GRAY plane of @frame as a core image view (no copy). */
cm_image morph_frame_plane0 (GstVideoFrame * frame);

/* Channel @byte of every pixel of the packed 8-bit plane 0 of @frame. */
cm_image morph_extract_byte (GstVideoFrame * frame, int byte);

/* TRUE when every plane of @frame, as its GstVideoMeta (if any) lays it
 * out, lies inside the mapped memory: catches an input meta wrongly copied
 * onto an output buffer of another layout. */
gboolean morph_frame_fits (GstVideoFrame * frame, const char *what);
