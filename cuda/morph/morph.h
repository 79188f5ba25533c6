/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Grey-level morphology: CPU reference (morph-ref.c) and CUDA plans
 * (morph.cu). Both implement exactly the definitions of docs/design.md
 * and must agree bit for bit. */
#pragma once

#include "cm-status.h"
#include "cm-image.h"
#include "cm-border.h"
#include "se.h"

CM_BEGIN_DECLS

typedef enum
{
  CM_MORPH_ERODE = 0,
  CM_MORPH_DILATE = 1,
  CM_MORPH_OPEN = 2,            /* N erosions then N dilations              */
  CM_MORPH_CLOSE = 3,           /* N dilations then N erosions              */
  CM_MORPH_TOPHAT = 4,          /* max(f - open, 0)                         */
  CM_MORPH_BLACKHAT = 5,        /* max(close - f, 0)                        */
  CM_MORPH_GRADIENT = 6         /* max(dilate^N - erode^N, 0)               */
} cm_morph_op;

#define CM_MORPH_OP_COUNT 7

typedef struct
{
  cm_morph_op op;
  const cm_se *se;              /* borrowed; plans copy what they need      */
  int iterations;               /* >= 1                                     */
  cm_border_mode border;
  uint32_t border_value;        /* for CM_BORDER_CONSTANT, clamped to depth */
} cm_morph_desc;

/* @desc is given, with an SE, at least one iteration, a known operation
 * and a known border rule (the SE's own shape is checked where it is
 * used) */
int cm_morph_desc_ok (const cm_morph_desc * desc);

/* CPU reference: src and dst are host images of the same size and depth,
 * dst must not overlap src. Written as the definition (loops over the SE,
 * border rule per sample). */
cm_status cm_morph_ref (const cm_morph_desc * desc, const cm_image * src,
    const cm_image * dst);
/* The same on @opts->threads threads (rows split in bands, stage by
 * stage), stoppable through @opts->cancel; @opts NULL: cm_morph_ref. The
 * result is the same whatever the number of threads. */
cm_status cm_morph_ref_mt (const cm_morph_desc * desc, const cm_image * src,
    const cm_image * dst, const cm_cpu_opts * opts);

/* Single erosion (is_min = 1) or dilation (is_min = 0) by the offsets of se
 * as given (no reflection): out(x) = min/max over b of f_border(x + b),
 * border applied with the neutral value of min/max for NEUTRAL. */
cm_status cm_morph_ref_rank_extreme (const cm_se * se, int is_min,
    cm_border_mode border, uint32_t border_value, const cm_image * src,
    const cm_image * dst);

/* CUDA plan: built once per (desc, width, height, depth), owns its device
 * scratch, run on any stream for images of exactly that size/depth. */
typedef struct cm_morph_plan cm_morph_plan;

cm_status cm_morph_plan_new (cm_morph_plan ** out, const cm_morph_desc * desc,
    int width, int height, cm_depth depth);

/* Tuning of a plan, for tests and benchmarks: which of the passes' kernels
 * run and their tiles. A zero-initialised struct (or NULL) is the
 * automatic choice, the one cm_morph_plan_new makes; the library reads no
 * environment. Every setting gives the same result as the automatic
 * choice, only the kernels or their launch configuration differ. */
typedef enum
{
  CM_MORPH_PATHS_AUTO = 0,
  CM_MORPH_PATHS_LEGACY = 1     /* the former paths: the centred 3 x 3 on
                                   the separable passes instead of the
                                   median's streaming kernel, diagonals by
                                   the per-lane line kernel instead of the
                                   sheared tile                           */
} cm_morph_paths;

typedef enum
{
  CM_MORPH_ROWS_AUTO = 0,       /* short centred rows by doubling, long
                                   8-bit ones by two windows of P, the
                                   others on the vHGW tile                */
  CM_MORPH_ROWS_TILE = 1,       /* every row on the vHGW tile kernel      */
  CM_MORPH_ROWS_PWIN = 2        /* the two-window kernel wherever it takes
                                   the row (from 32 samples, short ones
                                   included)                              */
} cm_morph_rows;

typedef struct
{
  cm_morph_paths paths;
  cm_morph_rows rows;
  int vtile;                    /* > 0: output rows per block of the
                                   vertical and diagonal passes (rounded
                                   up to the chunk; ignored when it does
                                   not fit in shared memory)              */
  int htile;                    /* > 0: output columns per block of the
                                   horizontal tile pass (likewise)        */
  int cmax;                     /* > 0: cap on the chunk C (windows per
                                   thread) of every vHGW pass; 64 lets the
                                   diagonals take C = 64 (default 32)     */
  int diag_grid;                /* diagonals: tiles on the fixed grid of
                                   rows, not from where each strip enters
                                   the image                              */
  int diag_checked;             /* diagonals: the checked stores also in
                                   blocks whose output lies inside the
                                   image                                  */
  int diag_flip;                /* diagonals: the strips in the other
                                   order                                  */
  int pwin_parts;               /* > 0: parts (one warp each) per row of
                                   the two-window kernel (default: about
                                   32 warps per SM)                       */
  int no_pdl;                   /* plain launches instead of programmatic
                                   dependent launches on sm_90            */
  int smem_limit;               /* > 0: cap in bytes on the shared memory
                                   of the vHGW tile kernels, below the
                                   device's, so that the smaller tiles and
                                   the line kernel of devices with less
                                   shared memory run on any GPU (tests)   */
  int runs_rows;                /* 1 or 4: output rows per thread of the
                                   runs pass's shared path (one: four
                                   times the threads per tile, for small
                                   images); 0: its cost estimate chooses  */
} cm_morph_tuning;

/* cm_morph_plan_new with @tuning (NULL: the automatic choice) */
cm_status cm_morph_plan_new_tuned (cm_morph_plan ** out,
    const cm_morph_desc * desc, int width, int height, cm_depth depth,
    const cm_morph_tuning * tuning);
/* src, dst: device images, may not overlap. stream: a cudaStream_t or NULL.
 * Asynchronous: returns after queueing the work. */
cm_status cm_morph_plan_run (cm_morph_plan * plan, const cm_image * src,
    const cm_image * dst, void *stream);
void cm_morph_plan_free (cm_morph_plan * plan);

/* Which algorithm a plan chose, for logs and benchmarks (static string). */
const char *cm_morph_plan_algorithm (const cm_morph_plan * plan);

const char *cm_morph_op_name (cm_morph_op op);

CM_END_DECLS
