/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Grey-level morphology plans (morph.h): the operations of docs/design.md
 * (Definitions) composed from single passes (morph-passes.h).
 *
 * The plan reads the structuring element's mask and picks:
 *  - the centred 3 x 3 square: the rank-0 / rank-8 filter of the median's
 *    streaming 3 x 3 kernel (median-stream3.cu), one pass;
 *  - any other full rectangle: a horizontal then a vertical van Herk /
 *    Gil-Werman pass (van Herk 1992, Gil & Werman 1993; separable as in
 *    paper 004). Exact for every border rule: the index maps act per
 *    axis, so the vertical pass's out-of-range rows are the mapped rows of
 *    the horizontal result, and a constant border is constant along every
 *    row and column, so a row outside yields the constant whatever the
 *    horizontal extent;
 *  - one contiguous row or column: a single vHGW pass;
 *  - a contiguous diagonal or anti-diagonal through the origin: one
 *    diagonal vHGW pass (a vertical pass on the sheared image);
 *  - a row and a column through the origin (a cross): the min/max of a
 *    horizontal and a vertical pass (the extreme over a union of sets);
 *  - anything else: the general runs pass (morph-runs.cu).
 * Each vHGW pass's kernel and tile are chosen with it, when the plan is
 * built (cm_vhgw_segment_plan); cm_morph_tuning (morph.h) moves those
 * choices for tests and benchmarks. Erosion by B is the min-pass over the
 * offsets B, dilation the max-pass over -B. NEUTRAL borders become
 * CONSTANT with the identity of the pass. All device memory is allocated
 * when the plan is built; running it only queues kernels on the stream.
 * Which path wins where: docs/design.md and docs/bench/history.md (today's
 * figures: docs/PERFORMANCE.md). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "morph.h"
#include "morph-passes.h"
#include "median/median.h"

typedef enum
{
  ALGO_SEGMENTS,                /* 1 or 2 vHGW passes in sequence         */
  ALGO_CROSS,                   /* min/max of 2 vHGW passes               */
  ALGO_RANK3,                   /* centred 3 x 3: median-stream3 min/max  */
  ALGO_RUNS                     /* morph-runs.cu                          */
} plan_algo;

enum
{ TMP_P0, TMP_P1, TMP_A, TMP_B, TMP_COUNT };

struct cm_morph_plan
{
  cm_morph_op op;
  int iterations;
  cm_border_mode border;        /* as the passes get it: never NEUTRAL    */
  uint32_t bval_min, bval_max;  /* constant of min-passes, of max-passes  */
  int width, height;
  cm_depth depth;
  cm_se *se, *se_refl;
  plan_algo algo;
  int nseg;
  cm_segment ero[2], dil[2];
  cm_runs_pass *runs_ero, *runs_dil;
  cm_median_plan *rank_min, *rank_max;  /* ALGO_RANK3                     */
  cm_image tmp[TMP_COUNT];
  const char *name;
};

/* runtime status, clearing the runtime's last error */
static cm_status
status_of (cudaError_t e)
{
  if (e != cudaSuccess)
    (void) cudaGetLastError ();
  return cm_status_from_cuda (e);
}

/* ---- element-wise kernels ----------------------------------------------
 * One thread per 4 bytes of a row (4 samples of 8 bits, 2 of 16 bits)
 * with the packed SIMD intrinsics when all rows are 4-byte aligned, else
 * sample by sample. */

enum
{ EW_SUB, EW_MIN, EW_MAX };

#define EW_BX 64
#define EW_BY 4

template <int OP>
static __device__ __forceinline__ uint32_t
ew_word8 (uint32_t a, uint32_t b)
{
  return OP == EW_SUB ? __vsubus4 (a, b) : OP == EW_MIN ? __vminu4 (a, b)
      : __vmaxu4 (a, b);
}

template <int OP>
static __device__ __forceinline__ uint32_t
ew_word16 (uint32_t a, uint32_t b)
{
  return OP == EW_SUB ? __vsubus2 (a, b) : OP == EW_MIN ? __vminu2 (a, b)
      : __vmaxu2 (a, b);
}

template <int OP>
static __device__ __forceinline__ uint32_t
ew_sample (uint32_t a, uint32_t b)
{
  return OP == EW_SUB ? (a > b ? a - b : 0u) : OP == EW_MIN ? min (a, b)
      : max (a, b);
}

template <typename Pix, int OP>
static __global__ void __launch_bounds__ (EW_BX * EW_BY)
ew_kernel (const uint8_t * a, size_t apitch, const uint8_t * b,
    size_t bpitch, uint8_t * d, size_t dpitch, int width, int height,
    int aligned)
{
  const int wi = (int) (blockIdx.x * EW_BX + threadIdx.x);
  const int y = (int) (blockIdx.y * EW_BY + threadIdx.y);
  const int per = 4 / (int) sizeof (Pix);
  const int x = wi * per;

  if (x >= width || y >= height)
    return;
  const uint8_t *ra = a + (size_t) y * apitch;
  const uint8_t *rb = b + (size_t) y * bpitch;
  uint8_t *rd = d + (size_t) y * dpitch;
  if (aligned && x + per <= width) {
    uint32_t va = ((const uint32_t *) ra)[wi];
    uint32_t vb = ((const uint32_t *) rb)[wi];
    ((uint32_t *) rd)[wi] = sizeof (Pix) == 1 ? ew_word8<OP> (va, vb)
        : ew_word16<OP> (va, vb);
    return;
  }
  for (int i = x; i < x + per && i < width; i++)
    ((Pix *) rd)[i] = (Pix) ew_sample<OP> (((const Pix *) ra)[i],
        ((const Pix *) rb)[i]);
}

static int
same_shape (const cm_image * a, const cm_image * b)
{
  return a->width == b->width && a->height == b->height &&
      a->depth == b->depth;
}

template <int OP>
static cudaError_t
ew_launch (const cm_image * a, const cm_image * b, const cm_image * dst,
    cudaStream_t stream)
{
  int per, words, aligned;
  uintptr_t any;
  dim3 block (EW_BX, EW_BY), grid;

  if (!cm_image_aligned_ok (a) || !cm_image_aligned_ok (b) ||
      !cm_image_aligned_ok (dst) || !same_shape (a, b) || !same_shape (a, dst))
    return cudaErrorInvalidValue;
  per = 4 / cm_depth_bytes (dst->depth);
  words = (dst->width + per - 1) / per;
  grid = dim3 ((unsigned) ((words + EW_BX - 1) / EW_BX),
      (unsigned) ((dst->height + EW_BY - 1) / EW_BY));
  if (grid.y > 65535u)
    return cudaErrorInvalidValue;
  any = (uintptr_t) a->data | (uintptr_t) a->pitch | (uintptr_t) b->data |
      (uintptr_t) b->pitch | (uintptr_t) dst->data | (uintptr_t) dst->pitch;
  aligned = (any & 3) == 0;
  if (dst->depth == CM_DEPTH_16)
    ew_kernel<uint16_t, OP> <<< grid, block, 0, stream >>>
        ((const uint8_t *) a->data, a->pitch, (const uint8_t *) b->data,
        b->pitch, (uint8_t *) dst->data, dst->pitch, dst->width,
        dst->height, aligned);
  else
    ew_kernel<uint8_t, OP> <<< grid, block, 0, stream >>>
        ((const uint8_t *) a->data, a->pitch, (const uint8_t *) b->data,
        b->pitch, (uint8_t *) dst->data, dst->pitch, dst->width,
        dst->height, aligned);
  return cudaGetLastError ();
}

cudaError_t
cm_subtract_sat (const cm_image * a, const cm_image * b,
    const cm_image * dst, cudaStream_t stream)
{
  return ew_launch<EW_SUB> (a, b, dst, stream);
}

cudaError_t
cm_combine (const cm_image * a, const cm_image * b, const cm_image * dst,
    int is_min, cudaStream_t stream)
{
  return is_min ? ew_launch<EW_MIN> (a, b, dst, stream)
      : ew_launch<EW_MAX> (a, b, dst, stream);
}

/* ---- choosing the algorithm from the mask ------------------------------ */

/* Set offsets of se: bounding box, count, and whether they all lie on one
 * of the lines dy = 0, dx = 0, dy = dx, dy = -dx. */
typedef struct
{
  int x0, x1, y0, y1, count;
  int on_row, on_col, on_diag, on_anti, on_axes;
  int row_x0, row_x1, row_n;    /* set offsets with dy = 0 */
  int col_y0, col_y1, col_n;    /* set offsets with dx = 0 */
} mask_info;

static void
mask_scan (const cm_se * se, mask_info * m)
{
  memset (m, 0, sizeof (*m));
  m->x0 = m->y0 = m->row_x0 = m->col_y0 = 1 << 30;
  m->x1 = m->y1 = m->row_x1 = m->col_y1 = -(1 << 30);
  m->on_row = m->on_col = m->on_diag = m->on_anti = m->on_axes = 1;
  for (int r = 0; r < se->height; r++) {
    for (int c = 0; c < se->width; c++) {
      int dx = c - se->origin_x, dy = r - se->origin_y;

      if (!se->mask[(size_t) r * se->width + c])
        continue;
      m->count++;
      m->x0 = dx < m->x0 ? dx : m->x0;
      m->x1 = dx > m->x1 ? dx : m->x1;
      m->y0 = dy < m->y0 ? dy : m->y0;
      m->y1 = dy > m->y1 ? dy : m->y1;
      m->on_row &= dy == 0;
      m->on_col &= dx == 0;
      m->on_diag &= dy == dx;
      m->on_anti &= dy == -dx;
      m->on_axes &= dx == 0 || dy == 0;
      if (dy == 0) {
        m->row_n++;
        m->row_x0 = dx < m->row_x0 ? dx : m->row_x0;
        m->row_x1 = dx > m->row_x1 ? dx : m->row_x1;
      }
      if (dx == 0) {
        m->col_n++;
        m->col_y0 = dy < m->col_y0 ? dy : m->col_y0;
        m->col_y1 = dy > m->col_y1 ? dy : m->col_y1;
      }
    }
  }
}

/* the segment's kernel is chosen by cm_vhgw_segment_plan */
static cm_segment
segment (int dir_x, int dir_y, int first, int len)
{
  cm_segment s;

  memset (&s, 0, sizeof (s));
  s.dir_x = dir_x;
  s.dir_y = dir_y;
  s.first = first;
  s.len = len;
  return s;
}

/* The algorithm and the segments of the erosion from the mask; 0 when
 * the runs pass is needed */
static int
choose_segments (cm_morph_plan * p, const mask_info * m,
    const cm_morph_tuning * t)
{
  int w = m->x1 - m->x0 + 1, h = m->y1 - m->y0 + 1;

  /* The centred 3 x 3 square is the rank-0 / rank-8 filter of a 3 x 3
   * window: the median's streaming kernel (median-stream3.cu) does it in
   * one pass at about the speed of a frame copy, faster than the
   * separable passes and NPP's 3 x 3 erosion (docs/bench/history.md,
   * "Figures moved from code comments"); on small frames the median plan
   * takes its narrow network instead (the name stays). It is symmetric,
   * so the dilation uses the same window. */
  if (m->count == 9 && w == 3 && h == 3 && m->x0 == -1 && m->y0 == -1 &&
      t->paths == CM_MORPH_PATHS_AUTO) {
    p->algo = ALGO_RANK3;
    p->name = "rank3-stream";
    return 1;
  }
  if (m->count == w * h) {
    int need_h = !(w == 1 && m->x0 == 0), need_v = !(h == 1 && m->y0 == 0);

    p->algo = ALGO_SEGMENTS;
    p->nseg = 0;
    if (need_h || !need_v)
      p->ero[p->nseg++] = segment (1, 0, m->x0, w);
    if (need_v)
      p->ero[p->nseg++] = segment (0, 1, m->y0, h);
    p->name = p->nseg == 2 ? "vhgw-separable" : need_v ? "vhgw-column"
        : "vhgw-row";
    return 1;
  }
  if ((m->on_diag || m->on_anti) && m->count == w) {
    /* w distinct dx on one diagonal, count == w: contiguous */
    p->algo = ALGO_SEGMENTS;
    p->nseg = 1;
    p->ero[0] = segment (1, m->on_diag ? 1 : -1, m->x0, w);
    p->name = t->paths == CM_MORPH_PATHS_LEGACY ? "vhgw-diagonal-lanes" :
        "vhgw-diagonal";
    return 1;
  }
  if (m->on_axes && m->row_n > 0 && m->col_n > 0 &&
      m->row_n == m->row_x1 - m->row_x0 + 1 &&
      m->col_n == m->col_y1 - m->col_y0 + 1) {
    p->algo = ALGO_CROSS;
    p->nseg = 2;
    p->ero[0] = segment (1, 0, m->row_x0, m->row_n);
    p->ero[1] = segment (0, 1, m->col_y0, m->col_n);
    p->name = "vhgw-cross";
    return 1;
  }
  return 0;
}

/* ---- plan --------------------------------------------------------------- */

void
cm_morph_plan_free (cm_morph_plan * plan)
{
  if (!plan)
    return;
  for (int i = 0; i < TMP_COUNT; i++)
    if (plan->tmp[i].data)
      (void) status_of (cudaFree (plan->tmp[i].data));
  /* each takes NULL */
  cm_runs_pass_free (plan->runs_ero);
  cm_runs_pass_free (plan->runs_dil);
  cm_median_plan_free (plan->rank_min);
  cm_median_plan_free (plan->rank_max);
  cm_se_free (plan->se);
  cm_se_free (plan->se_refl);
  free (plan);
}

static cm_status
tmp_alloc (cm_morph_plan * p, int i)
{
  cm_image *t = &p->tmp[i];
  void *data = NULL;
  size_t pitch = 0;
  cm_status st;

  st = status_of (cudaMallocPitch (&data, &pitch,
          (size_t) p->width * cm_depth_bytes (p->depth), (size_t) p->height));
  if (st != CM_OK)
    return st;
  t->data = data;
  t->pitch = pitch;
  t->width = p->width;
  t->height = p->height;
  t->depth = p->depth;
  return CM_OK;
}

static int
se_ok (const cm_se * se)
{
  if (!cm_se_ok (se))
    return 0;
  for (size_t i = 0; i < (size_t) se->width * (size_t) se->height; i++)
    if (se->mask[i])
      return 1;
  return 0;                     /* no set pixel */
}

static cm_status
plan_build (cm_morph_plan * p, const cm_morph_desc * desc,
    const cm_morph_tuning * tuning)
{
  const uint32_t maxv = cm_depth_max (p->depth);
  int need_ero = desc->op != CM_MORPH_DILATE;
  int need_dil = desc->op != CM_MORPH_ERODE;
  int need_p0, need_p1;
  mask_info m;
  cm_status st;

  p->se = cm_se_copy (desc->se);
  if (!p->se)
    return CM_ERR_NO_MEMORY;
  st = cm_se_reflect (p->se, &p->se_refl);
  if (st != CM_OK)
    return st;

  if (desc->border == CM_BORDER_NEUTRAL) {
    p->border = CM_BORDER_CONSTANT;
    p->bval_min = maxv;
    p->bval_max = 0;
  } else {
    p->border = desc->border;
    p->bval_min = p->bval_max =
        desc->border_value < maxv ? desc->border_value : maxv;
  }

  mask_scan (p->se, &m);
  if (!choose_segments (p, &m, tuning))
    p->algo = ALGO_RUNS;
  if (p->algo == ALGO_SEGMENTS || p->algo == ALGO_CROSS) {
    for (int i = 0; i < p->nseg; i++) {
      p->dil[i] = p->ero[i];
      p->dil[i].first = -(p->ero[i].first + p->ero[i].len - 1);
      st = cm_vhgw_segment_plan (&p->ero[i], p->width, p->height, p->depth,
          tuning);
      if (st == CM_OK)
        st = cm_vhgw_segment_plan (&p->dil[i], p->width, p->height,
            p->depth, tuning);
      if (st != CM_OK)
        return st;
    }
  } else if (p->algo == ALGO_RANK3) {
    /* border as the passes get it: NEUTRAL already became CONSTANT with
     * the min-pass and max-pass values */
    cm_median_desc md = { 3, 3, 0.0, p->border, p->bval_min,
      CM_MEDIAN_AUTO, 0
    };
    if (need_ero && (st = cm_median_plan_new (&p->rank_min, &md, p->width,
                p->height, p->depth)) != CM_OK)
      return st;
    md.percentile = 100.0;
    md.border_value = p->bval_max;
    if (need_dil && (st = cm_median_plan_new (&p->rank_max, &md, p->width,
                p->height, p->depth)) != CM_OK)
      return st;
  } else if (p->algo == ALGO_RUNS) {
    if (need_ero) {
      st = cm_runs_pass_new (&p->runs_ero, p->se, p->width, p->height,
          p->depth, tuning->runs_rows);
      if (st != CM_OK)
        return st;
    }
    if (need_dil) {
      st = cm_runs_pass_new (&p->runs_dil, p->se_refl, p->width, p->height,
          p->depth, tuning->runs_rows);
      if (st != CM_OK)
        return st;
    }
    p->name = cm_runs_pass_describe (need_ero ? p->runs_ero : p->runs_dil);
    if (!p->name)
      p->name = "runs";
  }

  /* scratch images: see plan_run for who uses which */
  need_p0 = p->iterations > 1 || (need_ero && need_dil);
  need_p1 = desc->op == CM_MORPH_TOPHAT || desc->op == CM_MORPH_BLACKHAT ||
      desc->op == CM_MORPH_GRADIENT ||
      (p->iterations > 1 && (desc->op == CM_MORPH_OPEN ||
          desc->op == CM_MORPH_CLOSE));
  if (need_p0 && (st = tmp_alloc (p, TMP_P0)) != CM_OK)
    return st;
  if (need_p1 && (st = tmp_alloc (p, TMP_P1)) != CM_OK)
    return st;
  if ((p->algo == ALGO_CROSS || (p->algo == ALGO_SEGMENTS && p->nseg == 2))
      && (st = tmp_alloc (p, TMP_A)) != CM_OK)
    return st;
  if (p->algo == ALGO_CROSS && (st = tmp_alloc (p, TMP_B)) != CM_OK)
    return st;
  return CM_OK;
}

cm_status
cm_morph_plan_new (cm_morph_plan ** out, const cm_morph_desc * desc,
    int width, int height, cm_depth depth)
{
  return cm_morph_plan_new_tuned (out, desc, width, height, depth, NULL);
}

cm_status
cm_morph_plan_new_tuned (cm_morph_plan ** out, const cm_morph_desc * desc,
    int width, int height, cm_depth depth, const cm_morph_tuning * tuning)
{
  static const cm_morph_tuning automatic = { };
  cm_morph_plan *p;
  cm_status st;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (!cm_morph_desc_ok (desc) || !se_ok (desc->se) ||
      !cm_frame_ok (width, height, depth))
    return CM_ERR_INVALID_ARG;

  p = (cm_morph_plan *) calloc (1, sizeof (*p));
  if (!p)
    return CM_ERR_NO_MEMORY;
  p->op = desc->op;
  p->iterations = desc->iterations;
  p->width = width;
  p->height = height;
  p->depth = depth;
  st = plan_build (p, desc, tuning ? tuning : &automatic);
  if (st != CM_OK) {
    cm_morph_plan_free (p);
    return st;
  }
  *out = p;
  return CM_OK;
}

const char *
cm_morph_plan_algorithm (const cm_morph_plan * plan)
{
  return plan && plan->name ? plan->name : "none";
}

/* One erosion (erode) or dilation of in into out; in, out and the plan's
 * TMP_A/TMP_B are four different images. */
static cudaError_t
basic (cm_morph_plan * p, int erode, const cm_image * in,
    const cm_image * out, cudaStream_t s)
{
  const cm_segment *seg = erode ? p->ero : p->dil;
  uint32_t bv = erode ? p->bval_min : p->bval_max;
  const cm_image *ta = &p->tmp[TMP_A], *tb = &p->tmp[TMP_B];
  cudaError_t e;

  switch (p->algo) {
    case ALGO_RANK3:
      /* the median plan keeps the CUDA error text in its status; the
       * runtime's last error still holds the code */
      if (cm_median_plan_run (erode ? p->rank_min : p->rank_max, in, out,
              s) != CM_OK) {
        e = cudaGetLastError ();
        return e != cudaSuccess ? e : cudaErrorLaunchFailure;
      }
      return cudaSuccess;
    case ALGO_SEGMENTS:
      if (p->nseg == 1)
        return cm_vhgw_pass (in, out, &seg[0], erode, p->border, bv, s);
      e = cm_vhgw_pass (in, ta, &seg[0], erode, p->border, bv, s);
      if (e != cudaSuccess)
        return e;
      return cm_vhgw_pass (ta, out, &seg[1], erode, p->border, bv, s);
    case ALGO_CROSS:
      e = cm_vhgw_pass (in, ta, &seg[0], erode, p->border, bv, s);
      if (e == cudaSuccess)
        e = cm_vhgw_pass (in, tb, &seg[1], erode, p->border, bv, s);
      if (e != cudaSuccess)
        return e;
      return cm_combine (ta, tb, out, erode, s);
    default:
      return cm_runs_pass_run (erode ? p->runs_ero : p->runs_dil, in, out,
          erode, p->border, bv, s);
  }
}

/* iterations erosions/dilations of in, ending in out. The steps write out
 * and other alternately; in is read by the first step only and is neither
 * out nor other. other is used only when iterations > 1. */
static cudaError_t
repeat (cm_morph_plan * p, int erode, const cm_image * in,
    const cm_image * out, const cm_image * other, cudaStream_t s)
{
  const cm_image *cur = in;

  for (int i = 0; i < p->iterations; i++) {
    const cm_image *next = (p->iterations - 1 - i) % 2 == 0 ? out : other;
    cudaError_t e = basic (p, erode, cur, next, s);

    if (e != cudaSuccess)
      return e;
    cur = next;
  }
  return cudaSuccess;
}

/* The opening (erosions, then as many dilations) or the closing of in,
 * ending in out, through mid; each repeat's other image: other1, other2
 * (repeat) */
static cudaError_t
open_close (cm_morph_plan * p, int opening, const cm_image * in,
    const cm_image * mid, const cm_image * out, const cm_image * other1,
    const cm_image * other2, cudaStream_t s)
{
  cudaError_t e = repeat (p, opening, in, mid, other1, s);

  if (e == cudaSuccess)
    e = repeat (p, !opening, mid, out, other2, s);
  return e;
}

cm_status
cm_morph_plan_run (cm_morph_plan * plan, const cm_image * src,
    const cm_image * dst, void *stream)
{
  cudaStream_t s = (cudaStream_t) stream;
  const cm_image *p0, *p1;
  cudaError_t e;
  int tophat;

  if (!plan || !cm_image_aligned_ok (src) || !cm_image_aligned_ok (dst))
    return CM_ERR_INVALID_ARG;
  if (src->width != plan->width || src->height != plan->height ||
      src->depth != plan->depth || !same_shape (src, dst) ||
      cm_images_overlap (src, dst))
    return CM_ERR_INVALID_ARG;

  p0 = &plan->tmp[TMP_P0];
  p1 = &plan->tmp[TMP_P1];
  switch (plan->op) {
    case CM_MORPH_ERODE:
    case CM_MORPH_DILATE:
      e = repeat (plan, plan->op == CM_MORPH_ERODE, src, dst, p0, s);
      break;
    case CM_MORPH_OPEN:
    case CM_MORPH_CLOSE:
      e = open_close (plan, plan->op == CM_MORPH_OPEN, src, p0, dst, dst, p1,
          s);
      break;
    case CM_MORPH_TOPHAT:
    case CM_MORPH_BLACKHAT:
      /* src - its opening; its closing - src */
      tophat = plan->op == CM_MORPH_TOPHAT;
      e = open_close (plan, tophat, src, p1, p0, dst, dst, s);
      if (e == cudaSuccess)
        e = tophat ? cm_subtract_sat (src, p0, dst, s) :
            cm_subtract_sat (p0, src, dst, s);
      break;
    case CM_MORPH_GRADIENT:
      e = repeat (plan, 0, src, p0, dst, s);
      if (e == cudaSuccess)
        e = repeat (plan, 1, src, p1, dst, s);
      if (e == cudaSuccess)
        e = cm_subtract_sat (p0, p1, dst, s);
      break;
    default:
      return CM_ERR_INVALID_ARG;
  }
  return status_of (e);
}
