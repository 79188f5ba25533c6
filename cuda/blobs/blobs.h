/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Connected components of a thresholded frame and their statistics
 * (bounding box, area, centroid, min / max / mean of the samples under
 * each): the CPU reference (blobs-ref.c, a flood fill per blob), the fast
 * CPU backend (blobs-cpu.c, two raster passes) and the CUDA plan
 * (blobs.cu).
 *
 * A pixel is foreground when its sample is >= threshold (< threshold with
 * invert). Two foreground pixels are connected when a path of 4- (or 8-)
 * neighbours inside the frame joins them; a blob is a maximal connected
 * set. Blobs are ordered by their first pixel in raster order (top-most
 * row, then left-most): scikit-image's label order. A blob passes when
 * min_area <= area, area <= max_area (0: no limit) and, with
 * exclude_border, it touches no edge of the frame. Of the passing blobs
 * the max_blobs largest by area are reported (ties: the earlier in the
 * order first), listed in the order; all pass with max_blobs 0. cx, cy,
 * mean: the exact integer sums divided by the area in double precision
 * (one IEEE division: every backend gives the same bits). */
#pragma once

#include <stdint.h>

#include "cm-image.h"
#include "cm-status.h"

CM_BEGIN_DECLS

typedef enum
{
  CM_BLOBS_OUTPUT_NONE = 0,     /* statistics only, no image written      */
  CM_BLOBS_OUTPUT_MASK = 1,     /* the frame's depth: the depth's maximum
                                 * on every passing blob (whatever
                                 * max_blobs), 0 elsewhere                 */
  CM_BLOBS_OUTPUT_LABELS = 2    /* 16-bit: 0 background and dropped blobs,
                                 * the passing blobs 1, 2 ... in the order,
                                 * those past 65535 all 65535             */
} cm_blobs_output;

typedef struct
{
  uint32_t threshold;           /* clamped to the depth's maximum         */
  int invert;                   /* foreground: sample < threshold         */
  int connectivity;             /* 4 or 8                                 */
  uint64_t min_area;            /* 0 acts as 1                            */
  uint64_t max_area;            /* 0: no limit                            */
  int exclude_border;           /* drop blobs touching the frame's edge   */
  uint32_t max_blobs;           /* 0: no limit                            */
  cm_blobs_output output;
  int result_slots;             /* CUDA: the results of this many runs
                                 * kept apart (0 or 1: one; at most
                                 * CM_BLOBS_MAX_RESULT_SLOTS), so that a
                                 * run's stay readable while the next is
                                 * queued (frames in flight). The CPU
                                 * keeps one.                             */
} cm_blobs_desc;

#define CM_BLOBS_MAX_RESULT_SLOTS 2

/* One frame's results. The arrays hold @count entries (struct of arrays,
 * as the element posts them), at most the capacity they were made for
 * (cm_blobs_capacity). */
typedef struct
{
  uint32_t total;               /* blobs that passed the filters          */
  uint32_t count;               /* reported: min (total, max_blobs)       */
  uint64_t foreground;          /* foreground pixels of the frame         */
  int labels_saturated;         /* output labels and total > 65535        */
  uint32_t *x, *y, *width, *height;     /* bounding box                  */
  uint64_t *area;               /* pixels                                 */
  double *cx, *cy;              /* mean of the pixels' coordinates        */
  uint32_t *min, *max;          /* of the samples under the blob          */
  double *mean;
} cm_blobs_results;

/* A valid descriptor: connectivity 4 or 8, a known output, 0 to
 * CM_BLOBS_MAX_RESULT_SLOTS result slots */
int cm_blobs_desc_ok (const cm_blobs_desc * desc);

/* The most blobs a run can report on @width x @height: max_blobs, or
 * with 0 the most blobs such a frame can hold (every other pixel for
 * 4-connectivity, every other pixel of every other row for 8) */
uint32_t cm_blobs_capacity (const cm_blobs_desc * desc, int width,
    int height);

/* The depth of the output image of a frame at @depth: the frame's for a
 * mask, 16 bits for labels */
cm_depth cm_blobs_output_depth (const cm_blobs_desc * desc, cm_depth depth);

/* Host arrays for @capacity blobs (one allocation: free with
 * cm_blobs_results_free). CM_ERR_NO_MEMORY when out of memory. */
cm_status cm_blobs_results_alloc (cm_blobs_results * res, uint32_t capacity);
void cm_blobs_results_free (cm_blobs_results * res);

/* The reference: the components of host image @src into @res (arrays of
 * cm_blobs_capacity (desc, ...) entries at least) and, unless the output
 * is none, the mask or labels into @dst (host image of src's size at
 * cm_blobs_output_depth, not overlapping src; NULL for output none). A
 * flood fill (explicit stack) from every unlabelled foreground pixel in
 * raster order: the definition, written plainly. */
cm_status cm_blobs_ref (const cm_blobs_desc * desc, const cm_image * src,
    const cm_image * dst, cm_blobs_results * res);


/* CUDA plan for frames of exactly @width x @height at @depth (device
 * images), block-based union-find (blobs.cu). Everything it needs, the
 * results' pinned host arrays included (one set per result slot), is
 * allocated when it is made.
 *
 * Results: cm_blobs_plan_run queues the whole frame on @stream, the
 * results' copy to the host included (the last kernel writes them to
 * mapped pinned memory, count entries only). Once the caller has
 * synchronised the stream (cudaStreamSynchronize, or an event recorded
 * after the run), cm_blobs_plan_results points at them; they stay valid
 * until the next run is queued. */
typedef struct cm_blobs_plan cm_blobs_plan;

/* Tuning (tests and benchmarks; NULL or zeros: the defaults) */
typedef struct
{
  int tile_rows;                /* rows of a labelling tile (128 wide):
                                 * 0 (default 8), 1 ... 16                */
  int steps;                    /* benchmarks: only the first @steps
                                 * steps of blobs.cu are queued (0: all;
                                 * the results are then undefined), so
                                 * that each step can be timed           */
  int merge_finds;              /* the merge's finds: 0 chosen by the
                                 * plan, 1 halving the paths, 2 reading
                                 * only                                   */
  int no_pdl;                   /* plain launches instead of programmatic
                                 * dependent ones (sm_90), as morph's     */
} cm_blobs_tuning;

cm_status cm_blobs_plan_new (cm_blobs_plan ** out, const cm_blobs_desc * desc,
    int width, int height, cm_depth depth);
cm_status cm_blobs_plan_new_tuned (cm_blobs_plan ** out,
    const cm_blobs_desc * desc, int width, int height, cm_depth depth,
    const cm_blobs_tuning * tuning);
/* src: device image of the plan's size and depth; dst: device image of
 * that size at cm_blobs_output_depth (NULL with output none), not
 * overlapping src. @stream: a cudaStream_t or NULL. Asynchronous. */
cm_status cm_blobs_plan_run (cm_blobs_plan * plan, const cm_image * src,
    const cm_image * dst, void *stream);
/* The results of the last run into the slot in use, valid once its
 * stream has been synchronised (or an event recorded after that run has
 * completed), until the next run into that slot is queued */
const cm_blobs_results *cm_blobs_plan_results (const cm_blobs_plan * plan);
/* The slot (0 ... the desc's result_slots - 1; 0 with one) that the next
 * runs write their results to and cm_blobs_plan_results reads.
 * CM_ERR_INVALID_ARG for another. */
cm_status cm_blobs_plan_use_slot (cm_blobs_plan * plan, int slot);
void cm_blobs_plan_free (cm_blobs_plan * plan);

CM_END_DECLS
