/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/reconstruct/reconstruct.cu: a column walk, a warp per
 * 32 columns of a band of rows, down or up, 16 rows loaded at a time,
 * going on past its band while it writes. Included by
 * reconstruct-sweeps.cuh, after its arguments, warp reductions, dirty
 * flags and the rows (ROW_CHUNK). */
#pragma once

/* A column walk works on its samples as they are: JOIN propagates (max
 * by dilation, min by erosion), MEET clamps to the mask, BOTTOM is JOIN's
 * neutral value (complementing every sample, as the rows do, cost a walk
 * step four instructions) */
template <typename T, bool EROSION>
struct walk_ops
{
  static constexpr unsigned bottom = EROSION ? (unsigned) (T) ~0u : 0u;

  static __device__ __forceinline__ unsigned join (unsigned a, unsigned b)
  {
    return EROSION ? min (a, b) : max (a, b);
  }
  static __device__ __forceinline__ unsigned join3 (unsigned a, unsigned b,
      unsigned c)
  {
    return EROSION ? __vimin3_u32 (a, b, c) : __vimax3_u32 (a, b, c);
  }
  static __device__ __forceinline__ unsigned meet (unsigned a, unsigned b)
  {
    return EROSION ? max (a, b) : min (a, b);
  }
};

/* The samples of COL_PREFETCH rows of a walk, loaded back to back (loads
 * behind a branch each waited for the one before, one memory latency a
 * step: a 128-step walk took 45 us, 25 us with the loads unconditional;
 * docs/bench/history.md, "column walks waited for each of their loads").
 * *@gp, *@fp: the marker's and the mask's sample of the next row. The
 * pointers move by a row per load (no multiplication a row: the walk's
 * instructions were mostly address arithmetic); CLAMP: the batch passes
 * @last, the last step the walk may take (its band and extension), where
 * they stop, so that every load stays in the frame. */
template <typename T, bool CLAMP>
static __device__ __forceinline__ void
walk_load (const uint8_t ** gp, const uint8_t ** fp, ptrdiff_t gstep,
    ptrdiff_t fstep, int k0, int last, unsigned *gv, unsigned *fv)
{
#pragma unroll
  for (int r = 0; r < COL_PREFETCH; r++) {
    gv[r] = __ldcg ((const T *) *gp);
    fv[r] = __ldg ((const T *) *fp);
    if (!CLAMP || k0 + r < last) {
      *gp += gstep;
      *fp += fstep;
    }
  }
}

/* The outer neighbours of a batch, one load for the warp: lane r < 16
 * takes the sample left of the walk's 32 columns in the row before walk
 * row k0 + r, lane 16 + r the one right of them; BOTTOM where there is
 * none (past the frame's side, or before a walk that starts at its
 * edge). Step r's edge lanes take theirs by a shuffle. */
template <typename T, bool EROSION>
static __device__ __forceinline__ unsigned
walk_outer (const recon_args & a, int x0, int ystart, int step, int k0,
    int last, bool have_prev, int lane)
{
  const int j = min (k0 + (lane & 15) - 1, last);       /* walk row */
  const int xo = lane < 16 ? x0 - 1 : x0 + 32;

  if (xo < 0 || xo >= a.width || (j < 0 && !have_prev))
    return walk_ops<T, EROSION>::bottom;
  return __ldcg (row_of<T> (a.g, a.gpitch, ystart + step * j) + xo);
}

/* The rows a walk wrote: lane b of @held, those of batch @first + b
 * (bit r, walk row (first + b) * COL_PREFETCH + r); their chunks
 * @chunks are marked after a fence (one a walk: a fence a batch kept a
 * walk waiting for its stores every 16 rows). Whole warp. */
static __device__ void
mark_walk_rows (const recon_args & a, unsigned held, int first, int ystart,
    int step, unsigned chunks, int lane)
{
  __threadfence ();
  for (unsigned any = __ballot_sync (0xffffffffu, held != 0); any;
      any &= any - 1) {
    const int b = __ffs (any) - 1;
    const unsigned rows = __shfl_sync (0xffffffffu, held, b);

    if (lane < COL_PREFETCH && (rows >> lane & 1u))
      atomicOr ((unsigned *) a.row_dirty + ystart + step * ((first + b) *
              COL_PREFETCH + lane), chunks);
  }
}

/* One band of rows [y0, y1) of the 32 columns from x0: DOWN walks y up
 * from y0, otherwise down from y1 - 1. A walk that still wrote its last
 * row goes on past the band, COL_PREFETCH rows at a time while it
 * writes, up to a.walk_extend rows (the next band would otherwise see
 * the new value only when it is walked, often a pass later); *@end: the
 * last row it walked. After a write it has fenced and marked the rows it
 * wrote. */
template <typename T, bool EROSION, bool CONN8, bool DOWN>
static __device__ bool
col_sweep_dir (const recon_args & a, int x0, int y0, int y1, int lane,
    int *end)
{
  typedef walk_ops<T, EROSION> op;
  const int x = x0 + lane;
  const bool valid = x < a.width;
  const int ystart = DOWN ? y0 : y1 - 1;
  const int step = DOWN ? 1 : -1;
  int n = y1 - y0;
  /* the steps the walk may take: the band and its extension */
  const int limit = n % COL_PREFETCH != 0 ? n : DOWN ?
      min (a.height, y1 + a.walk_extend) - y0 :
      y1 - max (0, y0 - a.walk_extend);
  const int yp = ystart - step;         /* the row the walk starts from */
  const bool have_prev = yp >= 0 && yp < a.height;
  /* lanes 0 and 31 fold in their outer neighbour column (walk_outer);
   * the loads of columns past the frame are clamped into it and their
   * values unused */
  const bool edge = CONN8 && (lane == 0 || lane == 31);
  const int esrc = lane == 0 ? 0 : 16;
  const int xs = min (x, a.width - 1);
  const ptrdiff_t gstep = DOWN ? (ptrdiff_t) a.gpitch : -(ptrdiff_t) a.gpitch;
  const ptrdiff_t fstep = DOWN ? (ptrdiff_t) a.fpitch : -(ptrdiff_t) a.fpitch;
  const uint8_t *gp = a.g + (size_t) ystart * a.gpitch + xs * sizeof (T);
  const uint8_t *fp = a.f + (size_t) ystart * a.fpitch + xs * sizeof (T);
  /* the row chunks this walk's writes neighbour: its own, and the one
   * beside an edge column that starts or ends a chunk (rows wider than
   * 32 chunks, swept whole, take any bit) */
  const int cx = x0 / ROW_CHUNK;
  const unsigned chunks = 1u << min (cx, 31) |
      (x0 % ROW_CHUNK == 0 && x0 > 0 ? 1u << min (cx - 1, 31) : 0u) |
      ((x0 + 32) % ROW_CHUNK == 0 && x0 + 32 < a.width ?
      1u << min (cx + 1, 31) : 0u);
  unsigned prev = op::bottom;
  unsigned held = 0;            /* mark_walk_rows' rows, from batch first */
  int first = 0;
  bool changed = false;

  if (valid && have_prev)
    prev = __ldcg (row_of<T> (a.g, a.gpitch, yp) + x);

  for (int k0 = 0; k0 < n; k0 += COL_PREFETCH) {
    unsigned gv[COL_PREFETCH], fv[COL_PREFETCH], eb = op::bottom;
    T *out = (T *) gp;          /* this batch's first row, column xs */
    unsigned wrote_rows = 0;    /* bit r: this lane wrote row k0 + r */

    if (CONN8)
      eb = walk_outer<T, EROSION> (a, x0, ystart, step, k0, limit - 1,
          have_prev, lane);
    if (k0 + COL_PREFETCH <= limit)
      walk_load<T, false> (&gp, &fp, gstep, fstep, k0, limit - 1, gv, fv);
    else
      walk_load<T, true> (&gp, &fp, gstep, fstep, k0, limit - 1, gv, fv);

    /* Step r. The chain from row to row is prev -> shuffles -> join ->
     * meet: the sample, the mask (BOTTOM past the frame, so that such
     * columns inject nothing) and the outer neighbour are folded in
     * beside it, while the shuffles are in flight. */
    auto walk_step =[&](int r) {
      const unsigned g1 = gv[r];
      const unsigned fm = valid ? fv[r] : op::bottom;
      unsigned m = op::join (g1, prev);

      if (CONN8) {
        const unsigned eo = __shfl_sync (0xffffffffu, eb, esrc + r);
        /* lanes 0 and 31 get their own value back, harmless in a
         * join: their outer neighbour is eo */
        const unsigned pl = __shfl_up_sync (0xffffffffu, prev, 1);
        const unsigned pr = __shfl_down_sync (0xffffffffu, prev, 1);

        m = op::join3 (pl, pr, op::join (m, edge ? eo : op::bottom));
      }
      const unsigned v = op::meet (m, fm);

      if (valid && v != g1) {
        *out = (T) v;
        wrote_rows |= 1u << r;
      }
      prev = v;
      out = (T *) ((uint8_t *) out + gstep);
    };
    /* a whole batch without a bound a step (n is the same in every lane) */
    if (k0 + COL_PREFETCH <= n) {
#pragma unroll
      for (int r = 0; r < COL_PREFETCH; r++)
        walk_step (r);
    } else {
#pragma unroll
      for (int r = 0; r < COL_PREFETCH; r++) {
        if (k0 + r >= n)
          break;
        walk_step (r);
      }
    }
    wrote_rows = warp_or (wrote_rows);
    if (wrote_rows) {
      /* those rows' horizontal neighbours saw a new value: marked at the
       * end (or every 32 batches) */
      int b = k0 / COL_PREFETCH - first;

      if (b >= 32) {
        mark_walk_rows (a, held, first, ystart, step, chunks, lane);
        first += b;
        held = 0;
        b = 0;
      }
      if (lane == b)
        held = wrote_rows;
      changed = true;
    }
    /* the band's (or the extension's) last row written: on */
    if (k0 + COL_PREFETCH == n && n < limit &&
        (wrote_rows >> (COL_PREFETCH - 1) & 1u))
      n = min (n + COL_PREFETCH, limit);
  }
  *end = ystart + step * (n - 1);
  if (changed)
    mark_walk_rows (a, held, first, ystart, step, chunks, lane);
  return changed;
}
