/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Attribute openings and closings: the area opening removes every bright
 * structure (a connected component of an upper level set {f >= h}) of
 * fewer than min_area pixels and leaves the rest untouched; the area
 * closing does the same for dark structures (lower level sets {f <= h}).
 *
 *   open(f)(x)  = max { h : the component of {f >= h} holding x has at
 *                       least min_area pixels }      (0 when none has)
 *   close(f)(x) = min { h : the component of {f <= h} holding x has at
 *                       least min_area pixels }      (max when none has)
 *
 * Components are 4- or 8-connected, inside the frame only (no border
 * rule). This is scikit-image's morphology.area_opening / area_closing
 * with area_threshold = min_area (its connectivity 1 is 4, 2 is 8).
 *
 * Three implementations with one result: the reference (attribute-ref.c,
 * the definition: the binary area opening of every level set present,
 * stacked), the CPU backend (attribute-cpu.c, a union-find max-tree) and
 * the CUDA plan (attribute.cu, a max-tree built by concurrent merges). */
#pragma once

#include <stdint.h>

#include "cm-image.h"
#include "cm-status.h"

CM_BEGIN_DECLS

typedef enum
{
  CM_ATTR_OPEN = 0,             /* bright structures removed              */
  CM_ATTR_CLOSE = 1             /* dark structures removed                */
} cm_attr_op;

#define CM_ATTR_OP_COUNT 2

/* The attribute a structure is measured by; increasing (a component's
 * value is at least that of any component inside it), so that the filter
 * is one pass over the max-tree. */
typedef enum
{
  CM_ATTR_AREA = 0              /* pixels in the component                */
} cm_attr_kind;

#define CM_ATTR_KIND_COUNT 1

typedef struct
{
  cm_attr_op op;
  cm_attr_kind attribute;
  uint32_t min_area;            /* >= 1: structures whose attribute is
                                 * below it are removed (1 keeps all)    */
  int connectivity;             /* 4 or 8                                 */
} cm_attr_desc;

/* The descriptor is complete and in range */
int cm_attr_desc_ok (const cm_attr_desc * desc);

/* The reference, written as the definition above: for every grey level
 * present in @src, the components of its level set by a flood fill, those
 * of at least min_area pixels raising (open) or lowering (close) their
 * pixels' result to the level. O(pixels x levels present): the oracle of
 * the tests, not a backend. @src, @dst: host images of one size and depth
 * that do not overlap. */
cm_status cm_attr_ref (const cm_attr_desc * desc, const cm_image * src,
    const cm_image * dst);

/* The CPU backend: a max-tree by union-find over the pixels sorted by
 * level (attribute-cpu.c), scratch allocated once for frames of exactly
 * @width x @height at @depth; the reference's result. @cpu (copied, NULL:
 * one thread): its threads build the trees of bands of rows, joined
 * after; its cancel flag is looked at every 65536 pixels. */
typedef struct cm_attr_cpu cm_attr_cpu;

cm_status cm_attr_cpu_new (cm_attr_cpu ** out, const cm_attr_desc * desc,
    int width, int height, cm_depth depth, const cm_cpu_opts * cpu);
/* src, dst: host images of the plan's size and depth, not overlapping */
cm_status cm_attr_cpu_run (cm_attr_cpu * plan, const cm_image * src,
    const cm_image * dst);
void cm_attr_cpu_free (cm_attr_cpu * plan);

/* The CUDA plan of one operation for frames of exactly @width x @height at
 * @depth (device images): the max-tree by concurrent merges, its area by
 * a bottom-up pass, the filter by a walk to the first large ancestor
 * (attribute.cu, docs/design.md). The plan owns its device scratch; a run
 * allocates nothing and does not wait for the device. */
typedef struct cm_attr_plan cm_attr_plan;

/* Tuning of the CUDA plan (tests and benchmarks; NULL or zeros: the
 * defaults). */
typedef struct
{
  int tile_rows;                /* rows of the tiles (32 columns) merged
                                 * in shared memory: a power of two up
                                 * to 128, 0: chosen by min_area and the
                                 * frame's size on the current device    */
  int no_tiles;                 /* 1: every edge merged in global memory
                                 * (the tiles' pass skipped)             */
  int stop_after;               /* benchmarks: 1, 2, 3, 4: the run stops
                                 * after the tiles, the seams, the nodes,
                                 * the area (no output); 0: whole run    */
} cm_attr_tuning;

/* The CUDA plan's tiles: CM_ATTR_TILE_COLS columns (a warp a row), up
 * to CM_ATTR_TILE_MAX_ROWS rows */
#define CM_ATTR_TILE_COLS 32
#define CM_ATTR_TILE_MAX_ROWS 128  /* 40 KiB of shared memory */

/* The CUDA plan's default tile height (rows of 32 columns) for
 * @min_area: cm_attr_tile_rows_base, halved for frames of @width x
 * @height whose tiles would not fill twice the @resident blocks (of the
 * base height) the device holds at once, while the half still holds
 * twice min_area pixels (0 resident: not halved) */
int cm_attr_tile_rows_base (uint32_t min_area);
int cm_attr_tile_rows (uint32_t min_area, int width, int height,
    int resident);

cm_status cm_attr_plan_new (cm_attr_plan ** out, const cm_attr_desc * desc,
    int width, int height, cm_depth depth);
cm_status cm_attr_plan_new_tuned (cm_attr_plan ** out,
    const cm_attr_desc * desc, int width, int height, cm_depth depth,
    const cm_attr_tuning * tuning);
/* src, dst: device images of the plan's size and depth, not overlapping.
 * stream: a cudaStream_t or NULL. Asynchronous. */
cm_status cm_attr_plan_run (cm_attr_plan * plan, const cm_image * src,
    const cm_image * dst, void *stream);
void cm_attr_plan_free (cm_attr_plan * plan);

/* "area-open", "area-close" (static strings; "invalid" otherwise) */
const char *cm_attr_op_name (const cm_attr_desc * desc);

CM_END_DECLS
