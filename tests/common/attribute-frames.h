/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The inputs of the attribute filter tests (core and GPU): smooth hills
 * like a photograph's (few large components, long level chains), uniform
 * noise (the most nodes), staircases (one level per column, row or ring:
 * a chain as deep as the image is wide), a flat frame (one node), few
 * levels (large plateaus with ties), blobs with a little noise, and
 * specks: dark frames with bright dots of 1 to 40 pixels (what an area
 * opening removes). */
#pragma once

#include "cm-image.h"
#include "test-util.h"

typedef enum
{
  ATTR_FRAME_HILLS, ATTR_FRAME_NOISE, ATTR_FRAME_STAIRS_X,
  ATTR_FRAME_STAIRS_Y, ATTR_FRAME_RINGS, ATTR_FRAME_FLAT,
  ATTR_FRAME_LEVELS, ATTR_FRAME_BLOBS, ATTR_FRAME_SPECKS,
  ATTR_FRAME_KINDS
} attr_frame_kind;

/* Fills @img (any size, 8 or 16 bits) with a frame of @kind; 16-bit
 * frames use the whole range */
void attr_frame_fill (cm_image * img, attr_frame_kind kind, test_rng * r);
/* "hills", "noise", ... (static string) */
const char *attr_frame_name (attr_frame_kind kind);
