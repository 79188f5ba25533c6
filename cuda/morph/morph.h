/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Grey-level morphology: CPU reference (morph-ref.c) and CUDA plans
 * (morph.cu). Both implement exactly the definitions of docs/design.md
 * and must agree bit for bit. */
#pragma once

#include "cm-status.h"
#include "cm-image.h"
#include "cm-border.h"
#include "se.h"

#ifdef __cplusplus
extern "C" {
#endif

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
/* src, dst: device images, may not overlap. stream: a cudaStream_t or NULL.
 * Asynchronous: returns after queueing the work. */
cm_status cm_morph_plan_run (cm_morph_plan * plan, const cm_image * src,
    const cm_image * dst, void *stream);
void cm_morph_plan_free (cm_morph_plan * plan);

/* Which algorithm a plan chose, for logs and benchmarks (static string). */
const char *cm_morph_plan_algorithm (const cm_morph_plan * plan);

const char *cm_morph_op_name (cm_morph_op op);

#ifdef __cplusplus
}
#endif
