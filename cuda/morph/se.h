/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Structuring elements in plain C (docs/design.md).
 *
 * An SE is a binary mask of width x height with its origin at
 * (origin_x, origin_y). A set pixel at mask column c, row r is the offset
 * (dx, dy) = (c - origin_x, r - origin_y). Erosion takes
 * min over offsets of f(x + dx, y + dy); dilation max of f(x - dx, y - dy).
 *
 * The shape kind and parameters are kept so that the GPU planner can pick a
 * fast algorithm (separable van Herk/Gil-Werman for rectangles, ...); the
 * mask alone defines the result. */
#pragma once

#include <stdint.h>
#include "cm-status.h"

CM_BEGIN_DECLS

typedef enum
{
  CM_SHAPE_RECT = 0,            /* width x height, all set                  */
  CM_SHAPE_CROSS = 1,           /* centre row and centre column of w x h    */
  CM_SHAPE_DIAMOND = 2,         /* |dx| + |dy| <= r                         */
  CM_SHAPE_DISK = 3,            /* dx^2 + dy^2 <= r^2 (exact)               */
  CM_SHAPE_OCTAGON = 4,         /* |dx|,|dy| <= r, |dx|+|dy| <= r + r/2     */
  CM_SHAPE_LINE = 5,            /* L pixels at angle theta (degrees)        */
  CM_SHAPE_CUSTOM = 6           /* mask "010;111;010"                       */
} cm_shape;

#define CM_SHAPE_COUNT 7

/* Limits, checked by the constructors (CM_ERR_INVALID_ARG beyond them). */
#define CM_SE_MAX_EXTENT 1023   /* max width/height/length of any SE      */
#define CM_SE_MAX_RADIUS 511    /* max radius: 2r+1 <= CM_SE_MAX_EXTENT   */
#define CM_SE_MAX_CUSTOM 255    /* max rows/columns of a custom mask      */

typedef struct
{
  cm_shape shape;
  /* parameters as given (those that apply to the shape) */
  int param_w, param_h, param_r, param_len;
  double param_angle;

  int width, height;            /* mask size                                */
  int origin_x, origin_y;       /* = width / 2, height / 2                  */
  uint8_t *mask;                /* width * height bytes, row-major, 0 or 1  */
  int count;                    /* number of set pixels                     */
} cm_se;

/* Constructors: *out receives a new SE to release with cm_se_free. */
cm_status cm_se_new_rect (cm_se ** out, int w, int h);
cm_status cm_se_new_cross (cm_se ** out, int w, int h);
cm_status cm_se_new_diamond (cm_se ** out, int r);
cm_status cm_se_new_disk (cm_se ** out, int r);
cm_status cm_se_new_octagon (cm_se ** out, int r);
/* Line of `length` pixels at `angle_deg` (counter-clockwise from +x, image y
 * down). t = -(L/2) .. L-1-(L/2); if |cos| >= |sin|: (t, -lround(t tan)),
 * else (lround(t cot), -t). The mask is the bounding box of the offsets
 * with the origin at the offset (0,0), which need not be the box centre for
 * even lengths: origin_x/origin_y say where it is. */
cm_status cm_se_new_line (cm_se ** out, int length, double angle_deg);
/* Rows of '0'/'1' separated by ';' (spaces ignored), all rows the same
 * length, 1..CM_SE_MAX_CUSTOM each way, at least one '1'. Origin at
 * (cols/2, rows/2). */
cm_status cm_se_new_custom (cm_se ** out, const char *mask);
/* General constructor from a mask (copied); origin given. */
cm_status cm_se_new_from_mask (cm_se ** out, const uint8_t * mask, int width,
    int height, int origin_x, int origin_y);
cm_se *cm_se_copy (const cm_se * se);
/* @se is given, with a mask of at least 1x1 (the SE every function below
 * takes; whether any of its pixels is set is theirs to check) */
int cm_se_ok (const cm_se * se);
void cm_se_free (cm_se * se);

static inline int
cm_se_get (const cm_se * se, int dx, int dy)
{
  int c = dx + se->origin_x, r = dy + se->origin_y;
  if (c < 0 || r < 0 || c >= se->width || r >= se->height)
    return 0;
  return se->mask[r * se->width + c];
}

/* The reflected SE (-B): dilation by B is max over f(x + b) for b in -B. */
cm_status cm_se_reflect (const cm_se * se, cm_se ** out);

/* Runs: maximal sets of consecutive set pixels along rows (axis 0) or
 * columns (axis 1). For axis 0 a run is (dy, dx0, len): offsets
 * (dx0 .. dx0+len-1, dy); for axis 1 it is (dx, dy0, len). */
typedef struct
{
  int fixed;                    /* dy for row runs, dx for column runs      */
  int start;                    /* first dx (row) / dy (column)             */
  int len;
} cm_se_run;

/* Fills runs (caller frees with free()) and count. axis 0 = rows. */
cm_status cm_se_runs (const cm_se * se, int axis, cm_se_run ** runs,
    int *count);

/* Offsets bounding box relative to the origin. */
void cm_se_bounds (const cm_se * se, int *min_dx, int *max_dx, int *min_dy,
    int *max_dy);

const char *cm_shape_name (cm_shape shape);

CM_END_DECLS
