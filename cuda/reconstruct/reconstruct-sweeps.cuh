/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/reconstruct/reconstruct.cu: the arguments of the
 * cooperative kernel and the items a pass is made of (a row, in
 * reconstruct-rows.cuh; a band of 32 columns down and up, in
 * reconstruct-walks.cuh), with the dirty flags that let a pass skip what
 * nothing changed around. reconstruct.cu says why any order of these
 * updates gives the reconstruction. Included once, after ROW_PER_LANE
 * and COL_PREFETCH are defined. */
#pragma once

struct recon_args
{
  const uint8_t *f;
  size_t fpitch;
  uint8_t *g;
  size_t gpitch;
  int width, height;
  int band_rows, nbands, ncols;
  int walk_extend;              /* rows a walk may go on past its band   */
  int row_padded;               /* WHOLE: samples of a row in shared memory */
  int *flags;
  /* "may be unstable": row_dirty[y] for row y's horizontal neighbours, a
   * bit per chunk of ROW_CHUNK samples,
   * band_dirty[2 (b * ncols + c)] and [... + 1] for the vertical and
   * diagonal neighbours in band b of column group c, the down and the up
   * walk's (see mark_* below) */
  int *row_dirty;
  int *band_dirty;
};

/* samples in the "by dilation" orientation: erosion complements them */
template <typename T, bool EROSION>
static __device__ __forceinline__ unsigned
to_dil (T v)
{
  return EROSION ? (unsigned) (T) ~v : (unsigned) v;
}

template <typename T>
static __device__ __forceinline__ unsigned
clampu (unsigned v, unsigned lo, unsigned hi)
{
  return min (max (v, lo), hi);
}

template <typename T>
static __device__ __forceinline__ const T *
row_of (const uint8_t * base, size_t pitch, int y)
{
  return (const T *) (base + (size_t) y * pitch);
}

/* warp reductions by shuffles (__reduce_*_sync needs sm_80): v combined
 * by @op with the other lanes' values, the result in every lane */
template <typename T, typename Op>
static __device__ __forceinline__ T
warp_reduce (T v, Op op)
{
#pragma unroll
  for (int off = 16; off > 0; off >>= 1)
    v = op (v, __shfl_xor_sync (0xffffffffu, v, off));
  return v;
}

static __device__ __forceinline__ unsigned
warp_or (unsigned v)
{
  return warp_reduce (v, [] (unsigned a, unsigned b) { return a | b; });
}

static __device__ __forceinline__ int
warp_min (int v)
{
  return warp_reduce (v, [] (int a, int b) { return min (a, b); });
}

static __device__ __forceinline__ int
warp_max (int v)
{
  return warp_reduce (v, [] (int a, int b) { return max (a, b); });
}

/* ---- dirty flags ---------------------------------------------------------
 * A sweep skips a row or band whose flag is clear: clear means that it was
 * swept and that nothing it depends on was written since. The sweeper
 * clears the flag and then reads; a writer writes and then sets the flags
 * of what its samples neighbour. Both sides fence (sequentially
 * consistent), so either the sweeper reads the new sample or the flag
 * stays set and the next pass sweeps again: a pass that wrote nothing
 * still proves the fixpoint everywhere. */

static __device__ __forceinline__ bool
take_dirty (int *flag, int lane)
{
  const int was = __shfl_sync (0xffffffffu, lane == 0 ?
      *(volatile int *) flag : 0, 0);

  if (!was)
    return false;
  if (lane == 0)
    *(volatile int *) flag = 0;
  __syncwarp ();
  __threadfence ();
  return true;
}

/* A row's dirty chunks, cleared (whole warp; 0: nothing to sweep) */
static __device__ __forceinline__ unsigned
take_chunks (int *flag, int lane)
{
  unsigned m = 0;

  if (lane == 0 && *(volatile int *) flag)
    m = atomicExch ((unsigned *) flag, 0u);
  m = __shfl_sync (0xffffffffu, m, 0);
  if (m)
    __threadfence ();
  return m;
}

/* the bands of column groups [c0, c1] and rows [y0, y1] (clipped), both
 * walks of each, after a fence: called by every lane of the warp, the
 * stores spread over them */
static __device__ void
mark_bands (const recon_args & a, int c0, int c1, int y0, int y1, int lane)
{
  c0 = max (c0, 0);
  c1 = min (c1, a.ncols - 1);
  const int b0 = max (y0, 0) / a.band_rows;
  const int b1 = min (y1, a.height - 1) / a.band_rows;
  const int nc = c1 - c0 + 1;

  for (int i = lane; i < 2 * nc * (b1 - b0 + 1); i += 32) {
    const int band = (b0 + i / 2 / nc) * a.ncols + c0 + i / 2 % nc;

    *(volatile int *) (a.band_dirty + 2 * band + (i & 1)) = 1;
  }
}

#include "reconstruct-rows.cuh"
#include "reconstruct-walks.cuh"

/* Item @y of a pass: row y, if it is dirty, through the warp's part of
 * shared memory @mine (the whole row, from its dirty chunks on, or all
 * of it through the chunk staging). Returns TRUE in every lane when it
 * wrote. */
template <typename T, bool EROSION, bool WHOLE>
static __device__ bool
sweep_row (const recon_args & a, int y, int lane, unsigned char *mine)
{
  const unsigned marked = take_chunks (a.row_dirty + y, lane);

  if (!marked)
    return false;
  if (WHOLE) {
    T *r_f = (T *) mine;

    return row_sweep_shared<T, EROSION> (a, y, marked, lane, r_f,
        r_f + a.row_padded, r_f + 2 * a.row_padded, a.row_padded);
  }
  unsigned *s_f = (unsigned *) mine;
  const bool fwd = row_sweep_dir<T, EROSION, true> (a, y, lane, s_f,
      s_f + ROW_STAGE);

  return row_sweep_dir<T, EROSION, false> (a, y, lane, s_f, s_f + ROW_STAGE)
      || fwd;
}

/* Item @it of a pass: the DOWN (or up) walk of band it / ncols of column
 * group it % ncols, if it is dirty. The two walks of a band are items of
 * their own, so that a pass's longest item is one walk (they may run at
 * the same time: the up walk sees what the down walk wrote then, or in
 * the next pass). Returns TRUE (whole warp) when it wrote. */
template <typename T, bool EROSION, bool CONN8, bool DOWN>
static __device__ bool
sweep_band (const recon_args & a, int it, int lane)
{
  const int x0 = (it % a.ncols) * 32;
  const int y0 = (it / a.ncols) * a.band_rows;
  const int y1 = min (y0 + a.band_rows, a.height);
  int end;                      /* the last row the walk reached */
  bool wrote;

  if (!take_dirty (a.band_dirty + 2 * it + (DOWN ? 0 : 1), lane))
    return false;
  wrote = col_sweep_dir<T, EROSION, CONN8, DOWN> (a, x0, y0, y1, lane, &end);
  if (!__any_sync (0xffffffffu, wrote))
    return false;
  /* after a write, the bands walked (the other walk may raise a
   * diagonal neighbour of what this one settled, and a sweep that raised
   * a sample this one read may have lost it to this write) and the bands
   * around them (the walk fenced after its writes) */
  mark_bands (a, x0 / 32 - 1, x0 / 32 + 1, (DOWN ? y0 : end) - 1,
      (DOWN ? end : y1 - 1) + 1, lane);
  return true;
}
