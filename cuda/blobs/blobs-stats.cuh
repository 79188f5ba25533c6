/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The statistics of blobs.cu: a set of them (a blob_record) is kept for
 * each tile root, made in shared memory while the tile is labelled; a
 * blob's is its root's, found through its rank.
 *
 * label_tiles adds up each run of a row (between two background pixels:
 * one tile root), each lane its four pixels, then the warp's shuffles
 * across lanes, and makes one set of shared-memory atomics per run on
 * its tile root's slot; the tile root writes the slot out as its record,
 * in frame coordinates.
 * compress_roots then adds every other tile root's record into the
 * record of its blob's root (a warp takes 32 consecutive tile roots and
 * adds up those of one blob before its atomics), and
 * rank_roots keeps each blob's area and record index by its rank. The
 * pixels are read once, by the labelling; the atomics that cost are those
 * on a large blob's record: one set per warp of tile roots. */
#pragma once

#include <stdint.h>
#include <cuda_runtime.h>

/* One record, whole in two 32-byte sectors (48 bytes at a multiple of
 * 16): the compression adds a tile root's record into its blob's root's
 * by atomics, which a struct of arrays sent to a sector each (and its
 * loads to nine). The area, which the ranks read of every blob, stays an
 * array of its own. */
struct __align__ (16) blob_record
{
  unsigned long long sum_x, sum_y, sum_v;
  uint32_t x0, x1, y0, y1, vmin, vmax;
};

struct blobs_stats
{
  blob_record *rec;
  uint32_t *area;
};

/* The sum of @v over the lanes of @peers (each lane of it calls it with
 * the same @peers): the sm_80 reduction, or a walk over the lanes */
static __device__ __forceinline__ uint32_t
warp_sum (unsigned peers, uint32_t v)
{
#if __CUDA_ARCH__ >= 800
  return __reduce_add_sync (peers, v);
#else
  uint32_t r = 0;

  for (unsigned m = peers; m != 0; m &= m - 1)
    r += __shfl_sync (peers, v, __ffs (m) - 1);
  return r;
#endif
}

/* One record in registers (its first row y0 is its root's and does not
 * change when others are added) */
struct blob_part
{
  uint32_t n, x0, x1, y1, vmin, vmax;
  unsigned long long sx, sy, sv;
};

static __device__ __forceinline__ blob_part
part_load (const blob_record *rec, const uint32_t *area, uint32_t c)
{
  const blob_record r = rec[c];
  blob_part p;

  p.n = area[c];
  p.x0 = r.x0;
  p.x1 = r.x1;
  p.y1 = r.y1;
  p.vmin = r.vmin;
  p.vmax = r.vmax;
  p.sx = r.sum_x;
  p.sy = r.sum_y;
  p.sv = r.sum_v;
  return p;
}

static __device__ __forceinline__ void
part_add (blob_part &a, const blob_part &b)
{
  a.n += b.n;
  a.x0 = b.x0 < a.x0 ? b.x0 : a.x0;
  a.x1 = b.x1 > a.x1 ? b.x1 : a.x1;
  a.y1 = b.y1 > a.y1 ? b.y1 : a.y1;
  a.vmin = b.vmin < a.vmin ? b.vmin : a.vmin;
  a.vmax = b.vmax > a.vmax ? b.vmax : a.vmax;
  a.sx += b.sx;
  a.sy += b.sy;
  a.sv += b.sv;
}

/* The part into record *@r and area *@area (global or shared memory), by
 * atomics */
static __device__ __forceinline__ void
part_flush (blob_record *r, uint32_t *area, const blob_part &p)
{
  atomicAdd (area, p.n);
  atomicAdd (&r->sum_x, p.sx);
  atomicAdd (&r->sum_y, p.sy);
  atomicAdd (&r->sum_v, p.sv);
  atomicMin (&r->x0, p.x0);
  atomicMax (&r->x1, p.x1);
  atomicMax (&r->y1, p.y1);
  atomicMin (&r->vmin, p.vmin);
  atomicMax (&r->vmax, p.vmax);
}

/* A record that adds nothing: what part_flush starts from */
static __device__ __forceinline__ void
record_clear (blob_record *r)
{
  r->sum_x = r->sum_y = r->sum_v = 0;
  r->x0 = r->vmin = 0xffffffffu;
  r->x1 = r->y1 = r->vmax = 0;
}

/* The parts of the lanes of @peers (each of them calls it with the same
 * @peers) added up in the first of them */
static __device__ __forceinline__ void
part_gather (unsigned peers, blob_part &p)
{
  const int lane = threadIdx.x & 31, first = __ffs (peers) - 1;

  for (unsigned m = peers & (peers - 1); m != 0; m &= m - 1) {
    const int from = __ffs (m) - 1;
    blob_part o;

    o.n = __shfl_sync (peers, p.n, from);
    o.x0 = __shfl_sync (peers, p.x0, from);
    o.x1 = __shfl_sync (peers, p.x1, from);
    o.y1 = __shfl_sync (peers, p.y1, from);
    o.vmin = __shfl_sync (peers, p.vmin, from);
    o.vmax = __shfl_sync (peers, p.vmax, from);
    o.sx = __shfl_sync (peers, p.sx, from);
    o.sy = __shfl_sync (peers, p.sy, from);
    o.sv = __shfl_sync (peers, p.sv, from);
    if (lane == first)
      part_add (p, o);
  }
}
