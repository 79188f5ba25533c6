/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Grey-level morphological reconstruction and the operations built on it
 * (fill holes, clear border, opening and closing by reconstruction,
 * h-maxima/minima, h-domes/basins): the CPU reference (reconstruct-ref.c).
 *
 * Reconstruction by dilation of a marker g under a mask f (g <= f): the
 * limit of g_{k+1} = min(dilation of g_k by the unit neighbourhood, f),
 * which is reached after finitely many steps; by erosion, the dual (g >= f,
 * max and erosion). The unit neighbourhood is the 4 or 8 neighbours of a
 * pixel plus itself, inside the frame only: a reconstruction never
 * propagates through the frame's border, so no border rule applies to it.
 * The structuring element and its border rule apply where an erosion or
 * dilation makes the marker (opening and closing by reconstruction). */
#pragma once

#include "cm-status.h"
#include "cm-image.h"
#include "morph/morph.h"

CM_BEGIN_DECLS

typedef enum
{
  CM_RECON_BY_DILATION = 0,     /* marker grows under the mask             */
  CM_RECON_BY_EROSION = 1       /* marker shrinks over the mask            */
} cm_recon_mode;

typedef enum
{
  CM_RECON_FILL_HOLES = 0,      /* by erosion over f of (f on the frame's
                                 * outer rows and columns, max elsewhere) */
  CM_RECON_CLEAR_BORDER = 1,    /* f - by dilation under f of (f on the
                                 * outer rows and columns, 0 elsewhere)   */
  CM_RECON_OPEN = 2,            /* by dilation under f of erode(f)         */
  CM_RECON_CLOSE = 3,           /* by erosion over f of dilate(f)          */
  CM_RECON_HMAX = 4,            /* by dilation under f of max(f - h, 0)    */
  CM_RECON_HMIN = 5,            /* by erosion over f of min(f + h, max)    */
  CM_RECON_HDOME = 6,           /* f - hmax                                */
  CM_RECON_HBASIN = 7           /* hmin - f                                */
} cm_recon_op;

#define CM_RECON_OP_COUNT 8

typedef struct
{
  cm_recon_op op;
  int connectivity;             /* 4 or 8                                  */
  uint32_t height;              /* h of hmax ... hbasin, clamped to the
                                 * sample depth's maximum                  */
  /* open, close: the erosion (dilation) that makes the marker: se,
   * iterations, border and border_value are used, op is ignored */
  cm_morph_desc marker;
} cm_recon_desc;

/* @desc is given, with a known operation, a connectivity of 4 or 8 and,
 * for open and close, a marker SE and at least one iteration */
int cm_recon_desc_ok (const cm_recon_desc * desc);
/* @desc is an opening or closing by reconstruction: its marker is made
 * with the SE of desc->marker */
int cm_recon_se_marker (const cm_recon_desc * desc);
/* That marker's morphology: desc->marker as the erosion (open) or the
 * dilation (close) */
cm_morph_desc cm_recon_marker_desc (const cm_recon_desc * desc);

/* Reconstruction in place: @marker (host image, same size and depth as
 * @mask) is first clamped to the mask's side (min for by-dilation, max
 * for by-erosion), then replaced by its reconstruction. Vincent's hybrid
 * algorithm (a raster and an anti-raster scan, then a FIFO queue for what
 * is left): exact, O(pixels) on natural images. */
cm_status cm_reconstruct_ref (cm_recon_mode mode, int connectivity,
    const cm_image * mask, const cm_image * marker);

/* The operation @desc of @src into @dst (host images, same size and depth,
 * dst must not overlap src). */
cm_status cm_recon_ref (const cm_recon_desc * desc, const cm_image * src,
    const cm_image * dst);
/* The same with the options @cpu (NULL: none), the same result: the
 * marker of open-rec and close-rec (the erosion or dilation) on its
 * threads, the reconstruction itself on the calling thread (Vincent's
 * hybrid is sequential). Stops with CM_ERR_CANCELLED within a row (or
 * 65536 queued pixels) of cpu->cancel being set. */
cm_status cm_recon_ref_mt (const cm_recon_desc * desc, const cm_image * src,
    const cm_image * dst, const cm_cpu_opts * cpu);


/* CUDA plan of one operation for frames of exactly @width x @height at
 * @depth (device images). The reconstruction runs in one cooperative
 * kernel that sweeps rows and column bands until a whole pass changes
 * nothing (chaotic relaxation: every update is monotone and bounded by the
 * result, so the fixpoint it stops at is the reconstruction), on the
 * device, without a host round trip. Open and close make their marker
 * with a cm_morph_plan. The plan owns its device scratch. */
typedef struct cm_recon_plan cm_recon_plan;

/* Tuning of the CUDA plan (tests and benchmarks; NULL or zeros: the
 * defaults). */
typedef struct
{
  int band_rows;                /* rows of a column band, 0: default      */
  int blocks_per_sm;            /* cooperative blocks per SM, 0: as many
                                 * as fit                                  */
  int chunked_rows;             /* 1: rows through the 512-sample staging
                                 * even where whole rows fit in shared
                                 * memory (the path of very wide frames)  */
} cm_recon_tuning;

cm_status cm_recon_plan_new (cm_recon_plan ** out, const cm_recon_desc * desc,
    int width, int height, cm_depth depth);
cm_status cm_recon_plan_new_tuned (cm_recon_plan ** out,
    const cm_recon_desc * desc, int width, int height, cm_depth depth,
    const cm_recon_tuning * tuning);
/* src, dst: device images of the plan's size and depth, may not overlap.
 * stream: a cudaStream_t or NULL. Asynchronous. */
cm_status cm_recon_plan_run (cm_recon_plan * plan, const cm_image * src,
    const cm_image * dst, void *stream);
/* Sweeps (passes) the last run needed, the final pass that changed
 * nothing included; valid once that run's stream has been synchronised. */
int cm_recon_plan_passes (const cm_recon_plan * plan);
void cm_recon_plan_free (cm_recon_plan * plan);

const char *cm_recon_op_name (cm_recon_op op);

CM_END_DECLS
