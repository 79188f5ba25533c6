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
#include "cm-status.h"
#include "cm-image.h"
#include "cm-border.h"
#include "se.h"

/* ---- van Herk / Gil-Werman 1-D passes (morph-vhgw.cu) -------------------
 * S = { k * (dir_x, dir_y) : k = first .. first + len - 1 }, len >= 1,
 * direction one of (1,0) horizontal, (0,1) vertical, (1,1) and (1,-1)
 * diagonals (a vertical pass on the sheared image). O(1) comparisons per
 * pixel whatever len. */
typedef struct
{
  int dir_x, dir_y;
  int first, len;
  int legacy;                   /* diagonals: the per-lane line kernel
                                   instead of the sheared tile (kept for
                                   comparisons, CM_MORPH_FORCE=legacy)    */
  int tile;                     /* outputs per block along the pass: rows
                                   (vertical, diagonal) or columns
                                   (horizontal); 0: the default
                                   (CM_VHGW_TILE, CM_VHGW_HTILE)          */
  int cmax;                     /* cap on the chunk C (windows per thread),
                                   0: the default (CM_VHGW_CMAX)          */
  int tile_rows;                /* horizontal: always the vHGW tile kernel,
                                   never the doubling kernel
                                   (CM_VHGW_ROWS=tile; tests, benchmarks) */
  int pwin_rows;                /* horizontal: the two-P-window kernel
                                   wherever it applies, short windows
                                   included (CM_VHGW_ROWS=pwin)           */
  int grid_tiles;               /* diagonals: tiles on the fixed grid of
                                   rows, not from where each strip enters
                                   the image (CM_VHGW_DIAG=grid; for
                                   comparisons)                           */
  int diag_checked;             /* diagonals: the checked stores also in
                                   blocks whose output lies inside the
                                   image (CM_VHGW_DIAG=checked; for
                                   comparisons)                           */
  int diag_flip;                /* diagonals: the other order of strips
                                   (CM_VHGW_DIAG=flip; for comparisons)   */
} cm_segment;

/* ---- short horizontal windows by doubling (morph-row-doubling.cu) -------
 * Odd len up to 65 (8-bit) or 33 (16-bit) samples, centred (first =
 * -(len - 1) / 2), rows of both images 16-byte aligned: supported () says
 * whether the pass can take it; cm_vhgw_pass () then does. border: no
 * NEUTRAL (turned into CONSTANT with cval by the caller). */
int cm_row_doubling_supported (const cm_image * src, const cm_image * dst,
    int first, int len);
cudaError_t cm_row_doubling_pass (const cm_image * src, const cm_image * dst,
    int len, int is_min, cm_border_mode border, uint32_t cval,
    cudaStream_t stream);

/* ---- long horizontal windows as two windows of P (morph-row-pwin.cu) ---
 * 8-bit, len 32 .. 511, first >= -512 and first + len - P <= 511 (P the
 * power of two with P <= len < 2P; any centred window), rows of both
 * images 16-byte aligned. border: no NEUTRAL. */
int cm_row_pwin_supported (const cm_image * src, const cm_image * dst,
    int first, int len);
cudaError_t cm_row_pwin_pass (const cm_image * src, const cm_image * dst,
    int first, int len, int is_min, cm_border_mode border, uint32_t cval,
    cudaStream_t stream);

cudaError_t cm_vhgw_pass (const cm_image * src, const cm_image * dst,
    const cm_segment * seg, int is_min, cm_border_mode border,
    uint32_t border_value, void *scratch, size_t scratch_size,
    cudaStream_t stream);
/* The test hook's cap on shared memory per block (0: none) */
int cm_vhgw_tile_limit (void);
/* Device scratch bytes cm_vhgw_pass needs for this image and segment
 * (0 when none). The plan allocates it once. */
size_t cm_vhgw_scratch_size (int width, int height, cm_depth depth,
    const cm_segment * seg);

/* ---- full rectangles in one launch (morph-rect2d.cu) ---------------------
 * S = { (dx, dy) : x <= dx < x + w, y <= dy < y + h }: the horizontal and
 * vertical vHGW recurrences on one shared-memory tile, no intermediate
 * image. cm_rect2d_supported says whether the tile of a w x h rectangle
 * fits in the current device's shared memory (else the pass refuses). */
typedef struct
{
  int x, y, w, h;
} cm_rect;

int cm_rect2d_supported (int w, int h, cm_depth depth);
/* Staged input samples per output sample of the tile, x 100 (the halo's
 * cost), 0 when no tile fits */
int cm_rect2d_staged_percent (int w, int h, cm_depth depth);
cudaError_t cm_rect2d_pass (const cm_image * src, const cm_image * dst,
    const cm_rect * rect, int is_min, cm_border_mode border,
    uint32_t border_value, cudaStream_t stream);

/* ---- general SE by runs (morph-runs.cu) ---------------------------------
 * Exact for any offset set: decomposed into row or column runs, each run's
 * extreme taken from a sparse table (min of two overlapping power-of-two
 * windows), tiled through shared memory when the SE's box fits, else from a
 * table in global memory. Built once per plan. */
typedef struct cm_runs_pass cm_runs_pass;

/* se: offsets as they must be applied (already reflected for dilations). */
cm_status cm_runs_pass_new (cm_runs_pass ** out, const cm_se * se,
    int width, int height, cm_depth depth);
cudaError_t cm_runs_pass_run (cm_runs_pass * pass, const cm_image * src,
    const cm_image * dst, int is_min, cm_border_mode border,
    uint32_t border_value, cudaStream_t stream);
void cm_runs_pass_free (cm_runs_pass * pass);
/* short description for cm_morph_plan_algorithm, e.g. "runs-rows-shared" */
const char *cm_runs_pass_describe (const cm_runs_pass * pass);

/* ---- element-wise helpers (morph.cu) ------------------------------------ */
/* dst = max(a - b, 0) */
cudaError_t cm_subtract_sat (const cm_image * a, const cm_image * b,
    const cm_image * dst, cudaStream_t stream);
/* dst = min (is_min) / max of a and b */
cudaError_t cm_combine (const cm_image * a, const cm_image * b,
    const cm_image * dst, int is_min, cudaStream_t stream);

/* CUDA error -> status */
static inline cm_status
cm_status_from_cuda (cudaError_t e)
{
  return e == cudaSuccess ? CM_OK : (cm_status) (CM_ERR_CUDA_BASE + (int) e);
}
