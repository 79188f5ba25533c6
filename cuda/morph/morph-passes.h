/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/: the single-pass kernels that morph.cu composes into
 * operations. A "pass" computes, for every pixel x of a device image,
 *
 *     out(x) = min (is_min) or max (!is_min) over s in S of f_b(x + s)
 *
 * where S is a set of offsets given exactly as they must be applied (the
 * plan reflects the SE for dilations) and f_b is f extended by the border
 * rule: REPLICATE / REFLECT / MIRROR map the index (cm_border_map), CONSTANT
 * uses `border_value`. NEUTRAL never reaches a pass: the plan turns it into
 * CONSTANT with the neutral value (max for min-passes, 0 for max-passes).
 * src and dst never overlap. All launches are asynchronous on `stream`. */
#pragma once

#include <cuda_runtime.h>
#include "cm-cuda.h"
#include "cm-status.h"
#include "cm-image.h"
#include "cm-border.h"
#include "se.h"
#include "morph.h"

/* ---- van Herk / Gil-Werman 1-D passes (morph-vhgw*.cu) -------------------
 * S = { k * (dir_x, dir_y) : k = first .. first + len - 1 }, len >= 1,
 * direction one of (1,0) horizontal, (0,1) vertical, (1,1) and (1,-1)
 * diagonals (a vertical pass on the sheared image). O(1) comparisons per
 * pixel whatever len (O(log len) for the doubling kernel).
 *
 * The kernel of a segment is chosen once, by cm_vhgw_segment_plan when the
 * plan is built (from the mask, the frame, the device and the tuning);
 * cm_vhgw_pass then launches that variant. The one choice left to a run:
 * the row kernels by doubling and by two windows of P need 16-byte aligned
 * rows, and a run whose images do not have them takes the segment's
 * tile_variant. */
typedef enum
{
  CM_PASS_VERTICAL,             /* vHGW on a staged strip of columns      */
  CM_PASS_HORIZONTAL,           /* vHGW on a transposed shared tile       */
  CM_PASS_SHEARED,              /* diagonals: the vertical kernel on the
                                   sheared image                          */
  CM_PASS_LINES,                /* a lane per line, samples from global
                                   memory: when no tile fits in shared
                                   memory, and the diagonals of
                                   CM_MORPH_PATHS_LEGACY                  */
  CM_PASS_ROW_DOUBLING,         /* short centred rows by doubling
                                   (morph-row-doubling.cu)                */
  CM_PASS_ROW_PWIN              /* long 8-bit rows as two windows of P
                                   (morph-row-pwin.cu)                    */
} cm_pass_variant;

typedef struct
{
  int dir_x, dir_y;
  int first, len;
  /* set by cm_vhgw_segment_plan */
  cm_pass_variant variant;
  cm_pass_variant tile_variant; /* ROW_*: HORIZONTAL or LINES, the pass
                                   for rows that are not 16-byte aligned;
                                   else variant                           */
  int c;                        /* the vHGW kernel's chunk (windows per
                                   thread)                                */
  int tile;                     /* its outputs per block along the pass:
                                   rows (vertical, sheared) or columns
                                   (horizontal); 0 for LINES              */
  size_t smem;                  /* its dynamic shared bytes               */
  int grid_tiles;               /* sheared: the tuning's diag_grid        */
  int diag_checked;             /* sheared: the tuning's diag_checked     */
  int diag_flip;                /* sheared: the tuning's diag_flip        */
  int pwin_parts;               /* ROW_PWIN: the tuning's pwin_parts      */
  int pdl;                      /* programmatic dependent launches        */
} cm_segment;

/* The kernel and launch configuration of seg (direction, first and len
 * set) for frames of width x height at depth on the current device, with
 * tuning (NULL: automatic). Errors: an invalid segment, or the device's
 * attributes cannot be read. */
cm_status cm_vhgw_segment_plan (cm_segment * seg, int width, int height,
    cm_depth depth, const cm_morph_tuning * tuning);

/* ---- short horizontal windows by doubling (morph-row-doubling.cu) -------
 * Odd len up to 65 (8-bit) or 33 (16-bit) samples, centred (first =
 * -(len - 1) / 2): takes () says whether the kernel has the window; the
 * rows of both images must also be 16-byte aligned (cm_rows_vec_aligned).
 * border: no NEUTRAL (turned into CONSTANT with cval by the caller). */
int cm_row_doubling_takes (cm_depth depth, int first, int len);
cudaError_t cm_row_doubling_pass (const cm_image * src, const cm_image * dst,
    int len, int is_min, cm_border_mode border, uint32_t cval, int pdl,
    cudaStream_t stream);

/* ---- long horizontal windows as two windows of P (morph-row-pwin.cu) ---
 * 8-bit, len 32 .. 511, first >= -512 and first + len - P <= 511 (P the
 * power of two with P <= len < 2P; any centred window), rows of both
 * images 16-byte aligned. border: no NEUTRAL. parts: parts per row (0:
 * about 32 warps per SM). */
int cm_row_pwin_takes (cm_depth depth, int first, int len);
cudaError_t cm_row_pwin_pass (const cm_image * src, const cm_image * dst,
    int first, int len, int is_min, cm_border_mode border, uint32_t cval,
    int parts, int pdl, cudaStream_t stream);

/* the rows of both images allow 16-byte accesses */
static inline int
cm_rows_vec_aligned (const cm_image * src, const cm_image * dst)
{
  return ((((uintptr_t) src->data | src->pitch | (uintptr_t) dst->data |
              dst->pitch) & 15) == 0);
}

cudaError_t cm_vhgw_pass (const cm_image * src, const cm_image * dst,
    const cm_segment * seg, int is_min, cm_border_mode border,
    uint32_t border_value, cudaStream_t stream);

/* ---- general SE by runs (morph-runs.cu) ---------------------------------
 * Exact for any offset set: decomposed into row or column runs, each run's
 * extreme taken from a sparse table (min of two overlapping power-of-two
 * windows), tiled through shared memory when the SE's box fits, else from a
 * table in global memory. Built once per plan. */
typedef struct cm_runs_pass cm_runs_pass;

/* se: offsets as they must be applied (already reflected for dilations). */
/* @rows_per_thread: output rows per thread of the shared path, 1 or 4;
 * 0: chosen by the planner's cost estimate (tests and benchmarks force
 * one through cm_morph_tuning.runs_rows) */
cm_status cm_runs_pass_new (cm_runs_pass ** out, const cm_se * se,
    int width, int height, cm_depth depth, int rows_per_thread);
cudaError_t cm_runs_pass_run (cm_runs_pass * pass, const cm_image * src,
    const cm_image * dst, int is_min, cm_border_mode border,
    uint32_t border_value, cudaStream_t stream);
void cm_runs_pass_free (cm_runs_pass * pass);
/* short description for cm_morph_plan_algorithm, e.g. "runs-rows-shared"
 * ("-1": the shared gather takes one row per thread) */
const char *cm_runs_pass_describe (const cm_runs_pass * pass);

/* ---- element-wise helpers (morph.cu) ------------------------------------ */
/* dst = max(a - b, 0) */
cudaError_t cm_subtract_sat (const cm_image * a, const cm_image * b,
    const cm_image * dst, cudaStream_t stream);
/* dst = min (is_min) / max of a and b */
cudaError_t cm_combine (const cm_image * a, const cm_image * b,
    const cm_image * dst, int is_min, cudaStream_t stream);
