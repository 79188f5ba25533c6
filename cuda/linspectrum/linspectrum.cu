/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CUDA plan of the linear spectrum (linspectrum.h): linear openings or
 * closings in every orientation of a descriptor, in one launch.
 *
 * Algorithm: paper 000 (Karas, Morard, Bartovsky et al., "GPU
 * implementation of linear morphological openings with arbitrary angle",
 * JRTIP 2015) sections 4-5: one thread per scan line and orientation
 * (Fig. 4, eq. 4), a one-pass streaming opening per line with a FIFO
 * bounded by lambda in shared memory (Bartovsky, Dokladal, Dokladalova,
 * Bilodeau, "Fast streaming algorithm for 1-D morphological opening and
 * closing on 2-D support", ISMM 2011), read-only cached input, zones with
 * a lambda overlap to fill the GPU on small images (section 5.1, eq. 5),
 * all orientations in one launch (blockIdx.y = orientation), the spectrum
 * reduced on the device (eq. 6), supremum and orientation (eq. 3) by
 * atomicMax on packed words, closing by duality (invert on load).
 *
 * The per-line stream. A warp takes 32 consecutive scan lines of one
 * orientation (one lane each) and a zone of positions. Each lane pushes
 * its samples g(q) (M outside the image) through two streaming van Herk /
 * Gil-Werman stages, the form of Bartovsky's FIFO that needs no data-
 * dependent branches: every lane of a warp executes the same steps, and a
 * lane's FIFO is one column of L samples in shared memory, written and
 * read at the same row by all lanes (conflict-free). Stage 1 gives the
 * erosion E over the window ending at the current sample: the suffix
 * minimum of the previous block of L samples (computed in place by a
 * backward pass when a block completes) against the running prefix
 * minimum of the current block. Stage 2 is the same with max over the
 * erosions, masked to 0 where the window's origin lies outside the run
 * (the NEUTRAL rule of linspectrum.h), one step behind stage 1 so that
 * both stages share the block phase. The opening of position p comes out
 * L steps after sample p was read.
 *
 * Geometry. The host evaluates the scan-line formula of linspectrum.h
 * (cm_linspectrum_line_geometry, lround in double) once per orientation
 * and uploads, per orientation, e(q) = |lround (q * k)| for every position
 * q; the device never evaluates a trigonometric function. A shallow
 * orientation reads a transposed copy of the input (made once per run),
 * so that for every orientation a line advances by one row per position
 * and the 32 lanes of a warp read 32 neighbouring samples of one row
 * (coalesced), the paper's transposition (section 5.3) applied to the
 * input. In that frame line l has, at row q, the column
 * u = l - e(q) (0 <= u < ext), or ext - 1 - u when k < 0. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "linspectrum.h"
#include "linspectrum-sheared.h"
#include "morph-passes.h"

#define LIN_WARP 32
#define LIN_CHUNK 8             /* samples fetched ahead per lane         */
#define LIN_MAX_WPB 4           /* warps per block                        */
#define LIN_FULL 0xffffffffu
/* longest segment of the sheared tile in one-orientation plans. H100,
 * 3840x2160, opened image written, 30 / 90 degrees (2026-11-24): sheared
 * against stream 126 / 205 against 98 / 127 Gpx/s at L = 41, 118 / 205
 * against 98 / 113 at L = 56, 79 / 112 against 90 / 127 at L = 64 (C = 64
 * from there: twice the registers, and the halo of 2 (L - 1) rows) */
#define LIN_SHEARED_MAX 63

/* ---- host-side layout (no CUDA calls) ---------------------------------- */

/* per orientation, read by the kernel */
typedef struct
{
  int src;                      /* 0: input image (steep), 1: transposed  */
  int flip;                     /* slope < 0                              */
  int nlines;                   /* e(span - 1) + ext                      */
  int ngroups;                  /* ceil (nlines / 32)                     */
  int nzones;                   /* ceil (span / zlen)                     */
  int nitems;                   /* ngroups * nzones warps                 */
  int etab;                     /* offset of e () in the table            */
  int pad;
} lin_orient;

typedef struct
{
  int n, width, height, length;
  int any_shallow, any_steep;
  int zlen;                     /* zone length in positions               */
  int max_items;                /* largest nitems                         */
  lin_orient *orient;           /* n                                      */
  int *etab;                    /* sum of the spans                       */
  size_t etab_len;
} lin_layout;

static void
lin_layout_clear (lin_layout * lay)
{
  free (lay->orient);
  free (lay->etab);
  memset (lay, 0, sizeof (*lay));
}

/* Tables for desc on a width x height image. target_warps: how many warp
 * items the device wants in flight; zones split the lines when the
 * orientations alone give fewer than half of them (paper 000 section 5.4,
 * rules 2 and 3), never into zones shorter than 2 L (the overlap would
 * cost more than the zone). */
static cm_status
lin_layout_build (lin_layout * lay, const cm_linspectrum_desc * desc,
    int width, int height, long target_warps, int force_zlen)
{
  long groups_total = 0;
  int maxspan = width > height ? width : height;
  size_t off = 0;

  memset (lay, 0, sizeof (*lay));
  lay->n = cm_linspectrum_count_angles (desc);
  if (lay->n < 1)
    return CM_ERR_INVALID_ARG;
  lay->width = width;
  lay->height = height;
  lay->length = desc->length;
  lay->orient = (lin_orient *) calloc ((size_t) lay->n, sizeof (lin_orient));
  if (!lay->orient)
    return CM_ERR_NO_MEMORY;
  for (int i = 0; i < lay->n; i++) {
    int steep;

    cm_linspectrum_line_geometry (cm_linspectrum_angle (desc, i), &steep,
        NULL);
    lay->etab_len += (size_t) (steep ? height : width);
  }
  lay->etab = (int *) malloc (sizeof (int) * lay->etab_len);
  if (!lay->etab) {
    lin_layout_clear (lay);
    return CM_ERR_NO_MEMORY;
  }

  for (int i = 0; i < lay->n; i++) {
    lin_orient *o = &lay->orient[i];
    int steep, span, ext;
    double k;

    cm_linspectrum_line_geometry (cm_linspectrum_angle (desc, i), &steep,
        &k);
    span = steep ? height : width;
    ext = steep ? width : height;
    o->src = steep ? 0 : 1;
    o->flip = k < 0.0;
    o->etab = (int) off;
    /* the expression of linspectrum-ref.c, then |.|: lround is odd */
    for (int q = 0; q < span; q++)
      lay->etab[off + q] = (int) labs (lround (q * k));
    o->nlines = lay->etab[off + span - 1] + ext;
    o->ngroups = (o->nlines + LIN_WARP - 1) / LIN_WARP;
    off += (size_t) span;
    groups_total += o->ngroups;
    if (steep)
      lay->any_steep = 1;
    else
      lay->any_shallow = 1;
  }

  lay->zlen = maxspan;
  if (target_warps > 0 && 2 * groups_total < target_warps) {
    long nz = (target_warps + groups_total - 1) / groups_total;
    long z = (maxspan + nz - 1) / nz;

    if (z < 2L * desc->length)
      z = 2L * desc->length;
    if (z < 32)
      z = 32;
    if (z < maxspan)
      lay->zlen = (int) z;
  }
  if (force_zlen > 0)
    lay->zlen = force_zlen < maxspan ? force_zlen : maxspan;
  lay->max_items = 0;
  for (int i = 0; i < lay->n; i++) {
    lin_orient *o = &lay->orient[i];
    int span = o->src ? width : height;

    o->nzones = (span + lay->zlen - 1) / lay->zlen;
    o->nitems = o->ngroups * o->nzones;
    if (o->nitems > lay->max_items)
      lay->max_items = o->nitems;
  }
  return CM_OK;
}

/* ---- the per-lane stream (device) -------------------------------------- */

/* first q in [0, n) with e[q] >= v, n if none (e non-decreasing) */
static __device__ __forceinline__ int
lin_lower_bound (const int *e, int n, int v)
{
  int lo = 0, hi = n;

  while (lo < hi) {
    int mid = (lo + hi) >> 1;

    if (__ldg (e + mid) < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* What one warp item streams, from the union [u0, u1] of the positions
 * its lines have inside the image: outputs p in [pstart, plast] of zone z,
 * samples q in [q0, qlast]. 0 when the item has nothing to do. The host
 * (lin_single_items) uses the same rule to list the items. */
typedef struct
{
  int p, pend, q0, qlast;
} lin_range;

static __host__ __device__ __forceinline__ int
lin_item_range (int z, int zlen, int span, int L, int u0, int u1,
    lin_range * r)
{
  int pstart, plast;

  r->p = z * zlen;
  r->pend = (r->p + zlen < span ? r->p + zlen : span) - 1;
  pstart = r->p > u0 ? r->p : u0;
  plast = r->pend < u1 ? r->pend : u1;
  if (pstart > plast)
    return 0;
  /* from L - 1 before the zone (the windows reaching into it), or from
   * the first position any line of the warp has inside the image: all
   * samples before it are neutral, so the stream is exact from there */
  r->q0 = r->p - (L - 1) > u0 ? r->p - (L - 1) : u0;
  /* the opening of p is out L steps after sample p */
  r->qlast = plast + L;
  return 1;
}

/* The chunk sequence of a stream: blocks of L steps from q0, each walked
 * in chunks of LIN_CHUNK steps that never cross a block end. (b, j): the
 * chunk starting at b + j; advance to the next one. */
static __device__ __forceinline__ void
lin_next_chunk (int &b, int &j, int L, int qlast)
{
  const int nb = min (L, qlast - b + 1);

  j += LIN_CHUNK;
  if (j >= nb) {
    b += L;
    j = 0;
  }
}

/* The e () window of the chunk starting at qs, one load per lane: lanes
 * 0-7 (and 16-23) hold e (qs + i), the sample columns; lanes 8-15 (24-31)
 * e (qs + i - L), the output columns (the opening of p = q - L comes out
 * at step q). Indices are clamped into the table: outside a run the value
 * is never used. */
static __device__ __forceinline__ int
lin_ewin (const int *e, int espan, int qs, int L)
{
  const int i = (int) threadIdx.x & 15;
  int q = (i < 8 ? qs : qs - L) + (i & 7);

  q = min (max (q, 0), espan - 1);
  return __ldg (e + q);
}

/* Samples qs .. qs + LIN_CHUNK - 1 of the lane's line (M outside its run
 * [first, first + nrun)): column cbase + csign * e(q) of row q, e from the
 * window ew. Branch-free address arithmetic and no dependent load: the
 * loads of a chunk are all in flight together. */
template <typename T>
static __device__ __forceinline__ void
lin_fetch (uint32_t * g, const uint8_t * src, size_t pitch, int ew,
    int cbase, int csign, int first, int nrun, int qs, uint32_t M,
    uint32_t inv)
{
#pragma unroll
  for (int k = 0; k < LIN_CHUNK; k++) {
    const int ek = __shfl_sync (LIN_FULL, ew, k);
    /* one wide multiply per sample: cheaper in registers than 8 hoisted
     * 64-bit row offsets */
    const T *row = (const T *) (src + (size_t) (unsigned) (qs + k) *
        (unsigned) pitch);
    uint32_t v = M;

    if ((unsigned) (qs + k - first) < (unsigned) nrun)
      v = (uint32_t) __ldg (row + (cbase + csign * ek)) ^ inv;
    g[k] = v;
  }
}

/* Sinks: what happens to the opening dil of position p (the closing's
 * is dil ^ inv). pre (ew, qs): the chunk starting at qs is the next one
 * (ew: its window); advance (): a chunk starts; step (k, p, dil, ok, ew):
 * step k of the current chunk (window ew), ok when p is a pixel of the
 * lane's run in the zone. Every lane calls them (shuffles inside). */
struct lin_no_sink
{
  __device__ __forceinline__ void pre (int, int)
  {
  }
  __device__ __forceinline__ void advance ()
  {
  }
  __device__ __forceinline__ void step (int, int, uint32_t, bool, int)
  {
  }
};

/* The stream of one lane: the line whose run is [first, last] (empty when
 * first > last), sample q at column cbase + csign * e(q) of row q of src;
 * samples q0 .. qlast of the item, outputs p >= zone start. be, bd: the
 * lane's two FIFOs of L + 1 samples, element i at i * LIN_WARP. Returns
 * the lane's part of the spectrum; the sink gets every opening.
 *
 * Speed (issue 4). The stream walks the FIFO blocks of L samples in
 * chunks of LIN_CHUNK steps that never cross a block end, so that the
 * chunk's FIFO reads (the previous block's suffixes at j + 1 .. j + C,
 * not written before step j + 1) can all be issued before its first step
 * and the next chunk's input is fetched while this one is computed; the
 * backward pass is batched the same way. A sentinel at index L (M in be,
 * 0 in bd) and a neutral fill at the start replace the edge selects, and
 * the closing's M - v is v ^ M.
 *
 * Run 3 (helper C2): the fetch of the previous version loaded e(q) and
 * then the sample at the column it gives, eight times per chunk; the
 * warp stalled on each e () load (an L2 hit: the table entry is read once
 * per item), ~8 latencies per chunk, which is why one opening at 4K ran
 * at 200-350 cycles per step with 10-16 warps per SM. Now one load per
 * lane fetches the e () window of a chunk two chunks ahead (sample and
 * output columns), the sample addresses come from shuffles, and the loads
 * carry no branch. Expected: the single-orientation kernel ~2x faster per
 * step; the 180-orientation kernel, which hid the latency with 32 warps,
 * gains the ~10 fewer instructions per step (64-bit multiplies and the e
 * loads of the fetch), ~10-20 %. The arithmetic of every step is that of
 * the definition: the results do not change by a bit. */
template <typename T, typename Sink>
static __device__ __forceinline__ uint32_t
lin_stream (const uint8_t * src, size_t pitch, const int *e, int espan,
    int cbase, int csign, int first, int last, const lin_range & r, int L,
    int o, uint32_t M, uint32_t inv, T * be, T * bd, Sink & sink)
{
  /* an erosion's window [q - L + 1, q] has its origin at q - L + 1 + o:
   * outside the run it must not win the dilation */
  const int alo = first + (L - 1 - o), ahi = last + (L - 1 - o);
  const int pmin = max (r.p, first);
  const int nrun = max (last - first + 1, 0);
  uint32_t eprev = 0, sum = 0;
  uint32_t gn[LIN_CHUNK];
  int fb = r.q0, fj = 0;        /* the fetch cursor: one chunk ahead     */
  int ew0, ew1;                 /* windows of this chunk and the next    */

  /* no block before the first: its suffixes are neutral (and the sentinel
   * at L stays so) */
  for (int i = 0; i <= L; i++) {
    be[i * LIN_WARP] = (T) M;
    bd[i * LIN_WARP] = (T) 0;
  }
  ew0 = lin_ewin (e, espan, r.q0, L);
  lin_fetch<T> (gn, src, pitch, ew0, cbase, csign, first, nrun, r.q0, M,
      inv);
  sink.pre (ew0, r.q0);
  lin_next_chunk (fb, fj, L, r.qlast);
  ew1 = lin_ewin (e, espan, fb + fj, L);

  for (int qb = r.q0; qb <= r.qlast; qb += L) {
    const int nb = min (L, r.qlast - qb + 1);   /* steps of this block */
    uint32_t pe = M, pd = 0;

    for (int jc = 0; jc < nb; jc += LIN_CHUNK) {
      uint32_t g[LIN_CHUNK], sv[LIN_CHUNK], sw[LIN_CHUNK];
      const int qn = fb + fj;   /* the next chunk */
      int ew2;

#pragma unroll
      for (int k = 0; k < LIN_CHUNK; k++) {
        const int i = min (jc + k + 1, L);

        g[k] = gn[k];
        sv[k] = be[i * LIN_WARP];
        sw[k] = bd[i * LIN_WARP];
      }
      sink.advance ();
      lin_fetch<T> (gn, src, pitch, ew1, cbase, csign, first, nrun, qn, M,
          inv);
      sink.pre (ew1, qn);
      lin_next_chunk (fb, fj, L, r.qlast);
      ew2 = lin_ewin (e, espan, fb + fj, L);

#pragma unroll
      for (int k = 0; k < LIN_CHUNK; k++) {
        const int j = jc + k, q = qb + j, p = q - L;

        if (j >= nb)
          break;
        /* stage 1: erosion of the window [q - L + 1, q] */
        pe = min (pe, g[k]);
        be[j * LIN_WARP] = (T) g[k];
        const uint32_t ero = min (sv[k], pe);
        /* stage 2: dilation over the erosions up to the previous step */
        pd = max (pd, eprev);
        bd[j * LIN_WARP] = (T) eprev;
        const uint32_t dil = max (sw[k], pd);
        const bool ok = p >= pmin && p <= last;

        sum += ok ? dil ^ inv : 0u;
        sink.step (k, p, dil, ok, ew0);
        eprev = q >= alo && q <= ahi ? ero : 0u;
      }
      ew0 = ew1;
      ew1 = ew2;
    }

    if (nb == L) {
      /* block complete: suffix extremes in place (backward pass) */
      uint32_t s1 = M, s2 = 0;

      for (int ib = L - 1; ib >= 0; ib -= LIN_CHUNK) {
        uint32_t x[LIN_CHUNK], y[LIN_CHUNK];

#pragma unroll
        for (int k = 0; k < LIN_CHUNK; k++) {
          const int i = max (ib - k, 0);

          x[k] = be[i * LIN_WARP];
          y[k] = bd[i * LIN_WARP];
        }
#pragma unroll
        for (int k = 0; k < LIN_CHUNK; k++) {
          const int i = ib - k;

          if (i < 0)
            break;
          s1 = min (s1, x[k]);
          be[i * LIN_WARP] = (T) s1;
          s2 = max (s2, y[k]);
          bd[i * LIN_WARP] = (T) s2;
        }
      }
    }
  }
  return sum;
}

/* ---- kernels ------------------------------------------------------------ */

typedef struct
{
  const uint8_t *src0, *src1;   /* input, transposed input               */
  size_t pitch0, pitch1;
  int width, height;
  const lin_orient *orient;
  const int *etab;
  unsigned long long *spectrum;
  uint32_t *words0, *words1;    /* [y][x], [x][y]                        */
  int L, o, zlen, invert;
  int omajor;                   /* grid (orientations, items): see run  */
  uint32_t maxv;
} lin_args;

/* Supremum/orientation candidate: (opening << 16) | (0xFFFF - index), so
 * that atomicMax keeps the largest opening and, among equal ones, the
 * smallest index. A plain read first skips most atomics: words only
 * grow, so a stale value is a lower bound. The word of position p is at
 * p * ext + column (the column formula of the samples). */
struct lin_word_sink
{
  uint32_t *words;
  int ext, cbase, csign;
  uint32_t tag;

  __device__ __forceinline__ void pre (int, int)
  {
  }
  __device__ __forceinline__ void advance ()
  {
  }
  __device__ __forceinline__ void step (int k, int p, uint32_t v, bool ok,
      int ew)
  {
    const int ep = __shfl_sync (LIN_FULL, ew, 8 + k);

    if (ok) {
      uint32_t *w = words + (size_t) (unsigned) p * (unsigned) ext +
          (cbase + csign * ep);
      const uint32_t packed = (v << 16) | tag;

      if (packed > __ldcg (w))
        atomicMax (w, packed);
    }
  }
};

/* The same with the plain reads of a chunk issued one chunk ahead, with
 * the sample loads (CM_LINSPECTRUM_SUPPF, default on).
 *
 * Why (issue 4, sup+orient x1.65 at L = 251): every output step of the
 * sink above waits for its read (the word arrays, 2 x 4 bytes per pixel,
 * do not stay in L2: ~6 GB of reads per 4K run of 180 orientations come
 * from DRAM), one read in flight per warp. The spectrum-only kernel hides
 * its latencies within the chunk, so it stays flat when L = 251 leaves 14
 * resident warps per SM instead of 32; this sink did not, and its time
 * grew with 32 / 14. Here a warp has a chunk's 8 reads in flight and a
 * chunk of time to wait for them. A stale read is still a lower bound
 * (the skip stays exact). Expected: L = 251 at ~L = 11 + 10 % (4K: from
 * 13.8 to ~8-9 ms), and L = 11 about as before. Costs 16 registers. */
struct lin_word_sink_pf
{
  uint32_t *words;
  int ext, cbase, csign, pmin, last, L;
  uint32_t tag;
  uint32_t cur[LIN_CHUNK], nxt[LIN_CHUNK];

  __device__ __forceinline__ void pre (int ew, int qs)
  {
#pragma unroll
    for (int k = 0; k < LIN_CHUNK; k++) {
      const int ep = __shfl_sync (LIN_FULL, ew, 8 + k);
      const int p = qs + k - L;
      uint32_t v = 0xFFFFFFFFu;

      if (p >= pmin && p <= last)
        v = __ldcg (words + (size_t) (unsigned) p * (unsigned) ext +
          (cbase + csign * ep));
      nxt[k] = v;
    }
  }
  __device__ __forceinline__ void advance ()
  {
#pragma unroll
    for (int k = 0; k < LIN_CHUNK; k++)
      cur[k] = nxt[k];
  }
  __device__ __forceinline__ void step (int k, int p, uint32_t v, bool ok,
      int ew)
  {
    const int ep = __shfl_sync (LIN_FULL, ew, 8 + k);
    const uint32_t packed = (v << 16) | tag;

    if (ok && packed > cur[k])
      atomicMax (words + (size_t) (unsigned) p * (unsigned) ext +
          (cbase + csign * ep), packed);
  }
};

/* One orientation: the opening itself, stored in the frame of the
 * samples (row p, the sample column): the output image for steep lines,
 * a transposed scratch image for shallow ones. Plain byte/short stores;
 * the 32 lanes of a warp write 32 neighbouring samples of one row. */
template <typename T>
struct lin_store_sink
{
  uint8_t *dst;
  size_t pitch;
  int cbase, csign;
  uint32_t inv;

  __device__ __forceinline__ void pre (int, int)
  {
  }
  __device__ __forceinline__ void advance ()
  {
  }
  __device__ __forceinline__ void step (int k, int p, uint32_t v, bool ok,
      int ew)
  {
    const int ep = __shfl_sync (LIN_FULL, ew, 8 + k);

    if (ok)
      ((T *) (dst + (size_t) (unsigned) p * (unsigned) pitch))[cbase +
            csign * ep] = (T) (v ^ inv);
  }
};

#define LIN_MODE_SPECTRUM 0
#define LIN_MODE_WORDS 1        /* supremum words, read at each step      */
#define LIN_MODE_WORDS_PF 2     /* supremum words, reads one chunk ahead  */

/* 8 blocks of 128: at most 64 registers (sm_90: 63-64, no spills), 32
 * resident warps; without the bound the supremum variant took 96 and
 * fell to 20 warps. The prefetching supremum variant needs its 16 more
 * registers: 5 blocks of 128 (96 registers, 20 warps; it spilled at 80),
 * and it needs warps less than the others. */
template <typename T, int MODE>
static __global__ void
__launch_bounds__ (LIN_MAX_WPB * LIN_WARP, MODE == LIN_MODE_WORDS_PF ? 5 : 8)
lin_kernel (lin_args a)
{
  extern __shared__ __align__ (16) unsigned char lin_smem[];
  const int oi = (int) (a.omajor ? blockIdx.x : blockIdx.y);
  const int warp = (int) (threadIdx.x >> 5), lane = (int) (threadIdx.x & 31);
  const int item = (int) (a.omajor ? blockIdx.y : blockIdx.x) *
      (int) (blockDim.x >> 5) + warp;
  const lin_orient *ori = a.orient + oi;
  const int nitems = __ldg (&ori->nitems);

  if (item >= nitems)
    return;                     /* whole warps only: no block barrier below */

  const int s = __ldg (&ori->src), ngroups = __ldg (&ori->ngroups);
  const int nlines = __ldg (&ori->nlines), flip = __ldg (&ori->flip);
  const int ext = s ? a.height : a.width, span = s ? a.width : a.height;
  const int *e = a.etab + __ldg (&ori->etab);
  const int g = item % ngroups, z = item / ngroups;
  const int la = g * LIN_WARP, lb = min (la + LIN_WARP - 1, nlines - 1);

  /* the lane's run [first, last] (e non-decreasing: u = line - e(q) is in
   * [0, ext) on one interval of q); the union of the warp's runs goes
   * from the first line's first position to the last line's last */
  const int line = la + lane;
  const int first = lin_lower_bound (e, span, line - ext + 1);
  const int last = lin_lower_bound (e, span, line + 1) - 1;
  const int u0 = __shfl_sync (LIN_FULL, first, 0);
  const int u1 = __shfl_sync (LIN_FULL, last, lb - la);
  lin_range r;

  if (!lin_item_range (z, a.zlen, span, a.L, u0, u1, &r))
    return;

  T *be = (T *) lin_smem + (size_t) warp * 2 * (a.L + 1) * LIN_WARP + lane;
  T *bd = be + (size_t) (a.L + 1) * LIN_WARP;
  const uint8_t *src = s ? a.src1 : a.src0;
  const size_t pitch = s ? a.pitch1 : a.pitch0;
  /* column of the line at position q: u = line - e(q), or ext - 1 - u */
  const int cbase = flip ? ext - 1 - line : line, csign = flip ? 1 : -1;
  const uint32_t inv = a.invert ? a.maxv : 0u;
  uint32_t sum;

  if (MODE == LIN_MODE_WORDS_PF) {
    lin_word_sink_pf sink;

    sink.words = s ? a.words1 : a.words0;
    sink.ext = ext;
    sink.cbase = cbase;
    sink.csign = csign;
    sink.pmin = max (r.p, first);
    sink.last = last;
    sink.L = a.L;
    sink.tag = 0xFFFFu - (uint32_t) oi;
    sum = lin_stream<T> (src, pitch, e, span, cbase, csign, first, last, r,
        a.L, a.o, a.maxv, inv, be, bd, sink);
  } else if (MODE == LIN_MODE_WORDS) {
    lin_word_sink sink;

    sink.words = s ? a.words1 : a.words0;
    sink.ext = ext;
    sink.cbase = cbase;
    sink.csign = csign;
    sink.tag = 0xFFFFu - (uint32_t) oi;
    sum = lin_stream<T> (src, pitch, e, span, cbase, csign, first, last, r,
        a.L, a.o, a.maxv, inv, be, bd, sink);
  } else {
    lin_no_sink sink;

    sum = lin_stream<T> (src, pitch, e, span, cbase, csign, first, last, r,
        a.L, a.o, a.maxv, inv, be, bd, sink);
  }

  unsigned long long v = sum;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync (LIN_FULL, v, off);
  if (lane == 0 && v)
    atomicAdd (a.spectrum + oi, v);
}

/* ---- one orientation ------------------------------------------------------
 * A plan of one orientation (one opening; its supremum is the opened
 * image and its orientation image is 0) takes its own path
 * (CM_LINSPECTRUM_SINGLE, default on):
 *  - the opening is stored directly (lin_store_sink), in the frame of the
 *    samples: into the output image for steep lines, for shallow lines
 *    into a transposed scratch image that one tiled transposition brings
 *    back. No packed words, no memset of 2 x 4 bytes per pixel, no
 *    atomics, no finalisation, and the orientation image is a memset;
 *  - the host lists the warp items that have work (a group of 32 lines
 *    and a zone meeting their runs) and each line's run [first, last]:
 *    no empty warps (at 45 degrees 60 % of the (group, zone) grid of the
 *    general kernel is empty, at 30 degrees ~45 %), no binary searches;
 *  - the zone length is chosen from those items and the orientation's own
 *    span, for CM_LINSPECTRUM_TARGET (default 16) warps per SM.
 * Expected at 3840x2160, L = 41 (H100): 90 deg ~35-45 us, shallow angles
 * ~45-60 us (the transpositions cost ~2 x 6 us), i.e. 140-240 Gpx/s with
 * the image written, against 28-47 before. */
typedef struct
{
  const uint8_t *src;           /* the frame: input or transposed input  */
  size_t pitch;
  uint8_t *dst;                 /* the frame of the output, or NULL      */
  size_t dpitch;
  const int *e;
  const int2 *items;            /* (group, zone)                         */
  const int2 *lines;            /* (first, last) per line                */
  unsigned long long *spectrum;
  int nitems, nlines, span, ext, flip;
  int L, o, zlen, invert;
  uint32_t maxv;
} lin_sargs;

/* 6 blocks of 128: 80 registers (the store sink spills at 64), up to 24
 * warps per SM, more than the zones aim at */
template <typename T, bool STORE>
static __global__ void __launch_bounds__ (LIN_MAX_WPB * LIN_WARP, 6)
lin_single_kernel (lin_sargs a)
{
  extern __shared__ __align__ (16) unsigned char lin_smem[];
  const int warp = (int) (threadIdx.x >> 5), lane = (int) (threadIdx.x & 31);
  const int item = (int) blockIdx.x * (int) (blockDim.x >> 5) + warp;

  if (item >= a.nitems)
    return;                     /* whole warps only: no block barrier below */

  const int2 it = __ldg (a.items + item);
  const int la = it.x * LIN_WARP, lb = min (la + LIN_WARP - 1, a.nlines - 1);
  const int line = la + lane;
  const int2 run = line < a.nlines ? __ldg (a.lines + line) : make_int2 (1, 0);
  const int u0 = __shfl_sync (LIN_FULL, run.x, 0);
  const int u1 = __shfl_sync (LIN_FULL, run.y, lb - la);
  lin_range r;

  if (!lin_item_range (it.y, a.zlen, a.span, a.L, u0, u1, &r))
    return;

  T *be = (T *) lin_smem + (size_t) warp * 2 * (a.L + 1) * LIN_WARP + lane;
  T *bd = be + (size_t) (a.L + 1) * LIN_WARP;
  const int cbase = a.flip ? a.ext - 1 - line : line, csign = a.flip ? 1 : -1;
  const uint32_t inv = a.invert ? a.maxv : 0u;
  uint32_t sum;

  if (STORE) {
    lin_store_sink<T> sink;

    sink.dst = a.dst;
    sink.pitch = a.dpitch;
    sink.cbase = cbase;
    sink.csign = csign;
    sink.inv = inv;
    sum = lin_stream<T> (a.src, a.pitch, a.e, a.span, cbase, csign, run.x,
        run.y, r, a.L, a.o, a.maxv, inv, be, bd, sink);
  } else {
    lin_no_sink sink;

    sum = lin_stream<T> (a.src, a.pitch, a.e, a.span, cbase, csign, run.x,
        run.y, r, a.L, a.o, a.maxv, inv, be, bd, sink);
  }

  unsigned long long v = sum;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync (LIN_FULL, v, off);
  if (lane == 0 && v)
    atomicAdd (a.spectrum, v);
}

#define LIN_TILE 32
#define LIN_TROWS 8

/* dst (h columns, w rows) = transpose of src (w x h) */
template <typename T>
static __global__ void __launch_bounds__ (LIN_TILE * LIN_TROWS)
lin_transpose_kernel (const uint8_t * src, size_t spitch, uint8_t * dst,
    size_t dpitch, int w, int h)
{
  __shared__ uint32_t tile[LIN_TILE][LIN_TILE + 1];
  const int x0 = (int) blockIdx.x * LIN_TILE, y0 = (int) blockIdx.y * LIN_TILE;
  const int tx = (int) threadIdx.x, ty = (int) threadIdx.y;

  for (int r = ty; r < LIN_TILE; r += LIN_TROWS) {
    int x = x0 + tx, y = y0 + r;

    if (x < w && y < h)
      tile[r][tx] = ((const T *) (src + (size_t) y * spitch))[x];
  }
  __syncthreads ();
  for (int r = ty; r < LIN_TILE; r += LIN_TROWS) {
    int x = x0 + r, y = y0 + tx;

    if (x < w && y < h)
      ((T *) (dst + (size_t) x * dpitch))[y] = (T) tile[tx][r];
  }
}

/* Per pixel: the best packed word of the steep ([y][x]) and shallow
 * ([x][y]) accumulators -> supremum (infimum for CLOSE) and index. */
template <typename T>
static __global__ void __launch_bounds__ (LIN_TILE * LIN_TROWS)
lin_finalize_kernel (const uint32_t * wn, const uint32_t * wt,
    uint8_t * sup, size_t sup_pitch, uint8_t * ori, size_t ori_pitch,
    int w, int h, uint32_t maxv, int invert)
{
  __shared__ uint32_t tile[LIN_TILE][LIN_TILE + 1];
  const int x0 = (int) blockIdx.x * LIN_TILE, y0 = (int) blockIdx.y * LIN_TILE;
  const int tx = (int) threadIdx.x, ty = (int) threadIdx.y;

  if (wt) {                     /* kernel argument: uniform */
    for (int r = ty; r < LIN_TILE; r += LIN_TROWS) {
      int x = x0 + r, y = y0 + tx;

      tile[r][tx] = x < w && y < h ? wt[(size_t) x * h + y] : 0u;
    }
  }
  __syncthreads ();
  for (int r = ty; r < LIN_TILE; r += LIN_TROWS) {
    int x = x0 + tx, y = y0 + r;
    uint32_t v;

    if (x >= w || y >= h)
      continue;
    v = wt ? tile[tx][r] : 0u;
    if (wn)
      v = max (v, wn[(size_t) y * w + x]);
    if (sup) {
      uint32_t val = v >> 16;
      ((T *) (sup + (size_t) y * sup_pitch))[x] =
          (T) (invert ? maxv - val : val);
    }
    if (ori)
      ((uint16_t *) (ori + (size_t) y * ori_pitch))[x] =
          (uint16_t) (0xFFFFu - (v & 0xFFFFu));
  }
}

/* ---- plan --------------------------------------------------------------- */

struct cm_linspectrum_plan
{
  cm_linspectrum_desc desc;
  int n, width, height;
  cm_depth depth;
  int sup;                      /* supremum or orientation wanted         */
  int mode;                     /* LIN_MODE_* of the general kernel       */
  int any_shallow, any_steep;
  int wpb, zlen, max_items;
  size_t smem;
  lin_orient *d_orient;
  int *d_etab;
  unsigned long long *d_spec;
  uint64_t *h_spec;             /* pinned                                 */
  uint8_t *d_tsrc;              /* transposed input (shallow)             */
  size_t tpitch;
  uint32_t *d_words0, *d_words1;
  /* one orientation (single): */
  int single, s_nitems, s_nlines, s_span, s_ext, s_flip;
  int2 *d_items, *d_lines;
  uint8_t *d_tdst;              /* transposed opening (shallow, sup)      */
  size_t tdpitch;
  lin_sheared *sheared;         /* the sheared tile instead of the stream */
  int omajor;                   /* orientations along grid.x (run)       */
  char describe[224];
};

/* Test and tuning switches, read at plan creation: CM_LINSPECTRUM_WPB=1|2|4
 * forces the warps per block, CM_LINSPECTRUM_ZLEN=n the zone length in
 * positions (e.g. 40 splits every line into many zones, so that the zone
 * overlap code runs on every size), CM_LINSPECTRUM_SINGLE=0 sends one
 * orientation through the general kernel (packed words and finalisation)
 * instead of its own path, CM_LINSPECTRUM_SUPPF=0 makes the general
 * supremum kernel read its words at each step (the previous sink),
 * CM_LINSPECTRUM_TARGET=n the warps per SM that the one-orientation path
 * aims at when it chooses its zones (default 16),
 * CM_LINSPECTRUM_SHEARED_MAX=n the longest segment that a one-orientation
 * plan runs on the sheared tile (0: never; default LIN_SHEARED_MAX),
 * CM_LINSPECTRUM_SHEARED_TILE=n its output rows per block,
 * CM_LINSPECTRUM_OMAJOR=0 the general kernel's former block order (every
 * line of one orientation, then the next). def when unset
 * or not a non-negative number. */
static int
lin_env_int (const char *name, int def)
{
  const char *v = getenv (name);
  char *end;
  long x;

  if (!v || !*v)
    return def;
  x = strtol (v, &end, 10);
  return end != v && x >= 0 && x <= INT_MAX ? (int) x : def;
}

/* runtime status, clearing the runtime's last error */
static cm_status
lin_status (cudaError_t e)
{
  if (e != cudaSuccess)
    (void) cudaGetLastError ();
  return cm_status_from_cuda (e);
}

static const void *
lin_kernel_ptr (cm_depth depth, int mode)
{
  if (depth == CM_DEPTH_16)
    return mode == LIN_MODE_WORDS_PF ?
        (const void *) lin_kernel<uint16_t, LIN_MODE_WORDS_PF>
        : mode == LIN_MODE_WORDS ?
        (const void *) lin_kernel<uint16_t, LIN_MODE_WORDS>
        : (const void *) lin_kernel<uint16_t, LIN_MODE_SPECTRUM>;
  return mode == LIN_MODE_WORDS_PF ?
      (const void *) lin_kernel<uint8_t, LIN_MODE_WORDS_PF>
      : mode == LIN_MODE_WORDS ?
      (const void *) lin_kernel<uint8_t, LIN_MODE_WORDS>
      : (const void *) lin_kernel<uint8_t, LIN_MODE_SPECTRUM>;
}

static const void *
lin_single_ptr (cm_depth depth, int store)
{
  if (depth == CM_DEPTH_16)
    return store ? (const void *) lin_single_kernel<uint16_t, true>
        : (const void *) lin_single_kernel<uint16_t, false>;
  return store ? (const void *) lin_single_kernel<uint8_t, true>
      : (const void *) lin_single_kernel<uint8_t, false>;
}

extern "C" void
cm_linspectrum_plan_free (cm_linspectrum_plan * plan)
{
  if (!plan)
    return;
  cudaFree (plan->d_orient);
  cudaFree (plan->d_etab);
  cudaFree (plan->d_spec);
  cudaFreeHost (plan->h_spec);
  cudaFree (plan->d_tsrc);
  cudaFree (plan->d_words0);
  cudaFree (plan->d_words1);
  cudaFree (plan->d_items);
  cudaFree (plan->d_lines);
  cudaFree (plan->d_tdst);
  lin_sheared_free (plan->sheared);
  (void) cudaGetLastError ();
  free (plan);
}

/* The host tables of the one-orientation path, from the layout's e ():
 * each line's run (first, last) (first > last: none) and the (group,
 * zone) items with work, for zones of *zlen positions. The zone length:
 * the longest (>= 2 L, >= 32) whose items reach target warps, or
 * force_zlen. */
static cm_status
lin_single_tables (const lin_layout * lay, int target, int force_zlen,
    int2 ** lines_out, int2 ** items_out, int *nitems_out, int *zlen_out)
{
  const lin_orient *o = &lay->orient[0];
  const int *e = lay->etab + o->etab;
  const int span = o->src ? lay->width : lay->height;
  const int ext = o->src ? lay->height : lay->width;
  const int L = lay->length, ng = o->ngroups;
  int2 *lines = (int2 *) malloc (sizeof (int2) * (size_t) o->nlines);
  int2 *items = NULL;
  int *gu0 = (int *) malloc (sizeof (int) * (size_t) ng);
  int *gu1 = (int *) malloc (sizeof (int) * (size_t) ng);
  int zlen, zmin, n = 0;

  if (!lines || !gu0 || !gu1)
    goto fail;
  /* run of line l: e(q) in (l - ext, l], found by lower bounds on the
   * non-decreasing e (the binary searches of the general kernel) */
  for (int l = 0; l < o->nlines; l++) {
    int v[2] = { l - ext + 1, l + 1 }, b[2];

    for (int t = 0; t < 2; t++) {
      int lo = 0, hi = span;

      while (lo < hi) {
        int mid = (lo + hi) >> 1;

        if (e[mid] < v[t])
          lo = mid + 1;
        else
          hi = mid;
      }
      b[t] = lo;
    }
    lines[l].x = b[0];
    lines[l].y = b[1] - 1;
  }
  for (int gi = 0; gi < ng; gi++) {
    int la = gi * LIN_WARP, lb = la + LIN_WARP - 1;

    if (lb > o->nlines - 1)
      lb = o->nlines - 1;
    gu0[gi] = lines[la].x;
    gu1[gi] = lines[lb].y;
  }

  /* zones: items (z) = sum over groups of the zones that meet [u0, u1] */
  zmin = 2 * L > 32 ? 2 * L : 32;
  if (force_zlen > 0)
    zlen = force_zlen < span ? force_zlen : span;
  else {
    int lo = zmin < span ? zmin : span, hi = span;

    /* largest z in [lo, hi] with items (z) >= target (items falls with z,
     * near enough monotonically for a bisection) */
    while (lo < hi) {
      int mid = lo + (hi - lo + 1) / 2;
      long cnt = 0;

      for (int gi = 0; gi < ng; gi++)
        if (gu0[gi] <= gu1[gi])
          cnt += gu1[gi] / mid - gu0[gi] / mid + 1;
      if (cnt >= target)
        lo = mid;
      else
        hi = mid - 1;
    }
    zlen = lo;
  }
  for (int pass = 0; pass < 2; pass++) {
    n = 0;
    for (int gi = 0; gi < ng; gi++) {
      if (gu0[gi] > gu1[gi])
        continue;
      for (int z = gu0[gi] / zlen; z <= gu1[gi] / zlen; z++) {
        lin_range r;

        if (!lin_item_range (z, zlen, span, L, gu0[gi], gu1[gi], &r))
          continue;
        if (pass)
          items[n] = make_int2 (gi, z);
        n++;
      }
    }
    if (!pass) {
      items = (int2 *) malloc (sizeof (int2) * (size_t) (n > 0 ? n : 1));
      if (!items)
        goto fail;
    }
  }
  free (gu0);
  free (gu1);
  *lines_out = lines;
  *items_out = items;
  *nitems_out = n;
  *zlen_out = zlen;
  return CM_OK;
fail:
  free (lines);
  free (items);
  free (gu0);
  free (gu1);
  return CM_ERR_NO_MEMORY;
}

extern "C" cm_status
cm_linspectrum_plan_new (cm_linspectrum_plan ** out,
    const cm_linspectrum_desc * desc, int width, int height, cm_depth depth)
{
  cm_linspectrum_plan *p;
  lin_layout lay;
  cm_status st;
  cudaError_t e;
  int dev, sms = 0, optin = 0, nb = 0, bpp, env_wpb;
  size_t per_warp;
  const void *kfn;
  int2 *h_lines = NULL, *h_items = NULL;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  st = cm_linspectrum_desc_check (desc);
  if (st != CM_OK)
    return st;
  if (width < 1 || height < 1 || width > CM_LINSPECTRUM_MAX_SIZE ||
      height > CM_LINSPECTRUM_MAX_SIZE ||
      (depth != CM_DEPTH_8 && depth != CM_DEPTH_16))
    return CM_ERR_INVALID_ARG;

  e = cudaGetDevice (&dev);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (&optin,
        cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  if (e != cudaSuccess)
    return lin_status (e);

  p = (cm_linspectrum_plan *) calloc (1, sizeof (*p));
  if (!p)
    return CM_ERR_NO_MEMORY;
  p->desc = *desc;
  p->width = width;
  p->height = height;
  p->depth = depth;
  p->sup = desc->want_supremum || desc->want_orientation;
  p->omajor = lin_env_int ("CM_LINSPECTRUM_OMAJOR", 1) != 0;
  p->single = cm_linspectrum_count_angles (desc) == 1 &&
      lin_env_int ("CM_LINSPECTRUM_SINGLE", 1) != 0;
  /* The sink with reads ahead needs 96 registers: measured on an H100
   * (3840x2160, 180 orientations, 2026-11-22) it is 15-19% slower than the
   * plain sink up to L = 101 (8.59 against 7.32 ms at L = 41) and 21%
   * faster at L = 251 (10.8 against 13.8 ms), where the FIFOs already
   * limit the resident warps. CM_LINSPECTRUM_SUPPF=0/1 forces either. */
  p->mode = !p->sup ? LIN_MODE_SPECTRUM :
      lin_env_int ("CM_LINSPECTRUM_SUPPF", desc->length > 128) ?
      LIN_MODE_WORDS_PF : LIN_MODE_WORDS;

  /* two FIFOs of L + 1 samples per lane (sentinel at L), 32 lanes per
   * warp */
  bpp = cm_depth_bytes (depth);
  per_warp = (size_t) 2 * (desc->length + 1) * LIN_WARP * bpp;
  if (per_warp > (size_t) optin) {
    free (p);
    return CM_ERR_UNSUPPORTED;
  }
  /* The dynamic shared memory limit is a property of the kernel, not of
   * the launch: set it to the device's maximum once, so that plans of
   * different lengths never lower it under each other. */
  kfn = p->single ? lin_single_ptr (depth, desc->want_supremum)
      : lin_kernel_ptr (depth, p->mode);
  e = cudaFuncSetAttribute (kfn, cudaFuncAttributeMaxDynamicSharedMemorySize,
      optin);
  if (e != cudaSuccess) {
    free (p);
    return lin_status (e);
  }
  /* warps per block: the most resident warps per multiprocessor, the
   * larger block on ties (at L = 251, 8-bit, 2 warps per block fit 14
   * warps where 4 fit 12: each block also costs 1 KB of reserve) */
  env_wpb = lin_env_int ("CM_LINSPECTRUM_WPB", 0);
  p->wpb = 0;
  for (int w = 1; w <= LIN_MAX_WPB; w *= 2) {
    int nbw = 0;

    if (env_wpb > 0 && w != env_wpb)
      continue;
    if ((size_t) w * per_warp > (size_t) optin)
      break;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor (&nbw, kfn,
        w * LIN_WARP, (size_t) w * per_warp);
    if (e != cudaSuccess) {
      free (p);
      return lin_status (e);
    }
    if (nbw >= 1 && nbw * w >= nb * p->wpb) {
      p->wpb = w;
      nb = nbw;
    }
  }
  if (p->wpb < 1) {
    free (p);
    return CM_ERR_UNSUPPORTED;
  }
  p->smem = (size_t) p->wpb * per_warp;

  /* zones: aim at 16 warps per multiprocessor at most (the stream is
   * issue-bound beyond that; more zones only add overlap) */
  {
    long resident = (long) nb * p->wpb * sms;
    long target = resident < 16L * sms ? resident : 16L * sms;

    st = lin_layout_build (&lay, desc, width, height, target,
        lin_env_int ("CM_LINSPECTRUM_ZLEN", 0));
    if (st != CM_OK) {
      free (p);
      return st;
    }
    if (p->single) {
      long t1 = (long) lin_env_int ("CM_LINSPECTRUM_TARGET", 16) * sms;

      if (t1 > resident)
        t1 = resident;
      st = lin_single_tables (&lay, (int) (t1 > 1 ? t1 : 1),
          lin_env_int ("CM_LINSPECTRUM_ZLEN", 0), &h_lines, &h_items,
          &p->s_nitems, &lay.zlen);
      if (st != CM_OK) {
        lin_layout_clear (&lay);
        free (p);
        return st;
      }
      p->s_nlines = lay.orient[0].nlines;
      p->s_span = lay.orient[0].src ? width : height;
      p->s_ext = lay.orient[0].src ? height : width;
      p->s_flip = lay.orient[0].flip;
      lay.max_items = p->s_nitems;
      /* the sheared tile (linspectrum-sheared.cu) up to
       * CM_LINSPECTRUM_SHEARED_MAX (default LIN_SHEARED_MAX) samples */
      if (desc->length <= lin_env_int ("CM_LINSPECTRUM_SHEARED_MAX",
              LIN_SHEARED_MAX))
        st = lin_sheared_new (&p->sheared, lay.etab + lay.orient[0].etab,
            p->s_span, p->s_ext, p->s_flip, desc->length, depth,
            desc->want_supremum,
            lin_env_int ("CM_LINSPECTRUM_SHEARED_TILE", 0));
      if (st != CM_OK) {
        free (h_lines);
        free (h_items);
        lin_layout_clear (&lay);
        free (p);
        return st;
      }
    }
  }
  p->n = lay.n;
  p->any_shallow = lay.any_shallow;
  p->any_steep = lay.any_steep;
  p->zlen = lay.zlen;
  p->max_items = lay.max_items;

  e = cudaMalloc ((void **) &p->d_orient, sizeof (lin_orient) * lay.n);
  if (e == cudaSuccess)
    e = cudaMemcpy (p->d_orient, lay.orient, sizeof (lin_orient) * lay.n,
        cudaMemcpyHostToDevice);
  if (e == cudaSuccess)
    e = cudaMalloc ((void **) &p->d_etab, sizeof (int) * lay.etab_len);
  if (e == cudaSuccess)
    e = cudaMemcpy (p->d_etab, lay.etab, sizeof (int) * lay.etab_len,
        cudaMemcpyHostToDevice);
  if (e == cudaSuccess)
    e = cudaMalloc ((void **) &p->d_spec,
        sizeof (unsigned long long) * lay.n);
  if (e == cudaSuccess)
    e = cudaMallocHost ((void **) &p->h_spec, sizeof (uint64_t) * lay.n);
  if (e == cudaSuccess && p->any_shallow)
    e = cudaMallocPitch ((void **) &p->d_tsrc, &p->tpitch,
        (size_t) height * bpp, (size_t) width);
  if (p->single) {
    if (e == cudaSuccess)
      e = cudaMalloc ((void **) &p->d_lines, sizeof (int2) * p->s_nlines);
    if (e == cudaSuccess)
      e = cudaMemcpy (p->d_lines, h_lines, sizeof (int2) * p->s_nlines,
          cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
      e = cudaMalloc ((void **) &p->d_items,
          sizeof (int2) * (p->s_nitems > 0 ? p->s_nitems : 1));
    if (e == cudaSuccess && p->s_nitems > 0)
      e = cudaMemcpy (p->d_items, h_items, sizeof (int2) * p->s_nitems,
          cudaMemcpyHostToDevice);
    if (e == cudaSuccess && p->any_shallow && desc->want_supremum)
      e = cudaMallocPitch ((void **) &p->d_tdst, &p->tdpitch,
          (size_t) height * bpp, (size_t) width);
  } else {
    if (e == cudaSuccess && p->sup && p->any_steep)
      e = cudaMalloc ((void **) &p->d_words0,
          sizeof (uint32_t) * (size_t) width * height);
    if (e == cudaSuccess && p->sup && p->any_shallow)
      e = cudaMalloc ((void **) &p->d_words1,
          sizeof (uint32_t) * (size_t) width * height);
  }
  /* A pageable cudaMemcpy may return before its DMA has landed, and runs
   * go to non-blocking streams that do not wait for the legacy default
   * stream: finish the uploads here, once per plan. */
  if (e == cudaSuccess)
    e = cudaStreamSynchronize (0);
  lin_layout_clear (&lay);
  free (h_lines);
  free (h_items);
  if (e != cudaSuccess) {
    st = lin_status (e);
    cm_linspectrum_plan_free (p);
    return st;
  }
  memset (p->h_spec, 0, sizeof (uint64_t) * p->n);
  if (p->single && p->sheared)
    snprintf (p->describe, sizeof (p->describe), "single %s %s%s%s",
        lin_sheared_describe (p->sheared),
        p->any_shallow ? "shallow" : "steep",
        desc->want_supremum ? " store" : "",
        desc->want_orientation ? " orient0" : "");
  else if (p->single)
    snprintf (p->describe, sizeof (p->describe),
        "single wpb=%d smem=%zu zlen=%d items=%d %s%s%s", p->wpb, p->smem,
        p->zlen, p->s_nitems, p->any_shallow ? "shallow" : "steep",
        desc->want_supremum ? " store" : "",
        desc->want_orientation ? " orient0" : "");
  else
    snprintf (p->describe, sizeof (p->describe),
        "stream wpb=%d smem=%zu zlen=%d items=%d %s%s%s%s", p->wpb, p->smem,
        p->zlen, p->max_items, p->any_shallow ? "shallow" : "",
        p->any_shallow && p->any_steep ? "+" : "",
        p->any_steep ? "steep" : "",
        p->mode == LIN_MODE_WORDS_PF ? " sup" :
        p->mode == LIN_MODE_WORDS ? " sup-nopf" : "");
  *out = p;
  return CM_OK;
}

static int
lin_view_ok (const cm_image * img, int w, int h, cm_depth depth)
{
  return img && img->data && img->width == w && img->height == h &&
      img->depth == depth &&
      img->pitch >= (size_t) w * cm_depth_bytes (depth) &&
      (depth == CM_DEPTH_8 ||
      (((uintptr_t) img->data | (uintptr_t) img->pitch) & 1) == 0);
}

/* dst (h columns, w rows) = transpose of src (w x h), on stream s */
static cudaError_t
lin_transpose (int sixteen, const uint8_t * src, size_t spitch,
    uint8_t * dst, size_t dpitch, int w, int h, cudaStream_t s)
{
  dim3 tblk (LIN_TILE, LIN_TROWS);
  dim3 tgrid ((unsigned) ((w + LIN_TILE - 1) / LIN_TILE),
      (unsigned) ((h + LIN_TILE - 1) / LIN_TILE));

  if (!sixteen && lin_transpose8_supported (src, spitch, dst, dpitch))
    return lin_transpose8 (src, spitch, dst, dpitch, w, h, s);
  if (sixteen)
    lin_transpose_kernel<uint16_t> <<< tgrid, tblk, 0, s >>> (src, spitch,
        dst, dpitch, w, h);
  else
    lin_transpose_kernel<uint8_t> <<< tgrid, tblk, 0, s >>> (src, spitch,
        dst, dpitch, w, h);
  return cudaGetLastError ();
}

/* one orientation: spectrum, the opening stored directly, orientation 0 */
static cm_status
lin_run_single (cm_linspectrum_plan * plan, const cm_image * src,
    const cm_image * sup, const cm_image * orient, cudaStream_t s)
{
  const int w = plan->width, h = plan->height;
  const int sixteen = plan->depth == CM_DEPTH_16;
  const int store = plan->desc.want_supremum;
  cudaError_t e = cudaSuccess;
  lin_sargs a;

  memset (&a, 0, sizeof (a));
  if (plan->any_shallow) {
    a.src = plan->d_tsrc;
    a.pitch = plan->tpitch;
    a.dst = store ? plan->d_tdst : NULL;
    a.dpitch = plan->tdpitch;
  } else {
    a.src = (const uint8_t *) src->data;
    a.pitch = src->pitch;
    a.dst = store ? (uint8_t *) sup->data : NULL;
    a.dpitch = store ? sup->pitch : 0;
  }
  a.e = plan->d_etab;
  a.items = plan->d_items;
  a.lines = plan->d_lines;
  a.spectrum = plan->d_spec;
  a.nitems = plan->s_nitems;
  a.nlines = plan->s_nlines;
  a.span = plan->s_span;
  a.ext = plan->s_ext;
  a.flip = plan->s_flip;
  a.L = plan->desc.length;
  a.o = plan->desc.length / 2;
  a.zlen = plan->zlen;
  a.invert = plan->desc.op == CM_MORPH_CLOSE;
  a.maxv = cm_depth_max (plan->depth);

  if (plan->any_shallow)
    e = lin_transpose (sixteen, (const uint8_t *) src->data, src->pitch,
        plan->d_tsrc, plan->tpitch, w, h, s);
  if (e == cudaSuccess && plan->sheared)
    e = lin_sheared_run (plan->sheared, plan->d_etab, a.src, a.pitch, a.dst,
        a.dpitch, a.invert, plan->d_spec, s);
  else if (e == cudaSuccess && plan->s_nitems > 0) {
    dim3 blk ((unsigned) (plan->wpb * LIN_WARP));
    dim3 grid ((unsigned) ((plan->s_nitems + plan->wpb - 1) / plan->wpb));

    if (sixteen && store)
      lin_single_kernel<uint16_t, true> <<< grid, blk, plan->smem, s >>> (a);
    else if (sixteen)
      lin_single_kernel<uint16_t, false> <<< grid, blk, plan->smem, s >>> (a);
    else if (store)
      lin_single_kernel<uint8_t, true> <<< grid, blk, plan->smem, s >>> (a);
    else
      lin_single_kernel<uint8_t, false> <<< grid, blk, plan->smem, s >>> (a);
    e = cudaGetLastError ();
  }
  /* the transposed opening back: [x][y] (h wide, w tall) -> sup */
  if (e == cudaSuccess && store && plan->any_shallow)
    e = lin_transpose (sixteen, plan->d_tdst, plan->tdpitch,
        (uint8_t *) sup->data, sup->pitch, h, w, s);
  /* one orientation: its index, 0, is the orientation of every pixel */
  if (e == cudaSuccess && plan->desc.want_orientation)
    e = cudaMemset2DAsync (orient->data, orient->pitch, 0,
        (size_t) w * sizeof (uint16_t), (size_t) h, s);
  return lin_status (e);
}

extern "C" cm_status
cm_linspectrum_plan_run (cm_linspectrum_plan * plan, const cm_image * src,
    const cm_image * sup, const cm_image * orient, void *stream)
{
  cudaStream_t s = (cudaStream_t) stream;
  const int w = plan ? plan->width : 0, h = plan ? plan->height : 0;
  const int sup16 = plan && plan->depth == CM_DEPTH_16;
  cudaError_t e;
  cm_status st;
  lin_args a;
  dim3 tblk (LIN_TILE, LIN_TROWS);
  dim3 tgrid ((unsigned) ((w + LIN_TILE - 1) / LIN_TILE),
      (unsigned) ((h + LIN_TILE - 1) / LIN_TILE));

  if (!plan || !lin_view_ok (src, w, h, plan->depth))
    return CM_ERR_INVALID_ARG;
  if (plan->desc.want_supremum && !lin_view_ok (sup, w, h, plan->depth))
    return CM_ERR_INVALID_ARG;
  if (plan->desc.want_orientation &&
      !lin_view_ok (orient, w, h, CM_DEPTH_16))
    return CM_ERR_INVALID_ARG;

  e = cudaMemsetAsync (plan->d_spec, 0,
      sizeof (unsigned long long) * plan->n, s);
  if (e != cudaSuccess)
    return lin_status (e);
  if (plan->single) {
    st = lin_run_single (plan, src, sup, orient, s);
    if (st != CM_OK)
      return st;
    goto download;
  }
  if (plan->d_words0)
    e = cudaMemsetAsync (plan->d_words0, 0,
        sizeof (uint32_t) * (size_t) w * h, s);
  if (e == cudaSuccess && plan->d_words1)
    e = cudaMemsetAsync (plan->d_words1, 0,
        sizeof (uint32_t) * (size_t) w * h, s);
  if (e == cudaSuccess && plan->any_shallow)
    e = lin_transpose (sup16, (const uint8_t *) src->data, src->pitch,
        plan->d_tsrc, plan->tpitch, w, h, s);
  if (e != cudaSuccess)
    return lin_status (e);

  memset (&a, 0, sizeof (a));
  a.src0 = (const uint8_t *) src->data;
  a.pitch0 = src->pitch;
  a.src1 = plan->d_tsrc;
  a.pitch1 = plan->tpitch;
  a.width = w;
  a.height = h;
  a.orient = plan->d_orient;
  a.etab = plan->d_etab;
  a.spectrum = plan->d_spec;
  a.words0 = plan->d_words0;
  a.words1 = plan->d_words1;
  a.L = plan->desc.length;
  a.o = plan->desc.length / 2;
  a.zlen = plan->zlen;
  a.invert = plan->desc.op == CM_MORPH_CLOSE;
  a.maxv = cm_depth_max (plan->depth);
  {
    dim3 blk ((unsigned) (plan->wpb * LIN_WARP));
    dim3 grid ((unsigned) ((plan->max_items + plan->wpb - 1) / plan->wpb),
        (unsigned) plan->n);

    /* Orientations along grid.x (CM_LINSPECTRUM_OMAJOR=0: along grid.y,
     * the order before 2026-11-24): the blocks resident together are then
     * neighbouring orientations of the same group of lines and zone, whose
     * samples and supremum words lie close together, instead of all the
     * lines of one or two orientations, which touch the whole image
     * (the two word arrays of 4K, 66 MB, do not stay in the 50 MB of L2).
     * H100, 180 orientations, sup + orient: 4K L = 251 10.83 -> 8.33 ms,
     * L = 11 8.11 -> 7.51 ms; 640x640 L = 251 0.786 -> 0.598 ms; the
     * spectrum alone 8-15 % faster. */
    a.omajor = plan->omajor && grid.x <= 65535u;
    if (a.omajor)
      grid = dim3 (grid.y, grid.x);

    if (sup16) {
      if (plan->mode == LIN_MODE_WORDS_PF)
        lin_kernel<uint16_t, LIN_MODE_WORDS_PF> <<< grid, blk, plan->smem,
            s >>> (a);
      else if (plan->mode == LIN_MODE_WORDS)
        lin_kernel<uint16_t, LIN_MODE_WORDS> <<< grid, blk, plan->smem,
            s >>> (a);
      else
        lin_kernel<uint16_t, LIN_MODE_SPECTRUM> <<< grid, blk, plan->smem,
            s >>> (a);
    } else {
      if (plan->mode == LIN_MODE_WORDS_PF)
        lin_kernel<uint8_t, LIN_MODE_WORDS_PF> <<< grid, blk, plan->smem,
            s >>> (a);
      else if (plan->mode == LIN_MODE_WORDS)
        lin_kernel<uint8_t, LIN_MODE_WORDS> <<< grid, blk, plan->smem,
            s >>> (a);
      else
        lin_kernel<uint8_t, LIN_MODE_SPECTRUM> <<< grid, blk, plan->smem,
            s >>> (a);
    }
    e = cudaGetLastError ();
    if (e != cudaSuccess)
      return lin_status (e);
  }

  if (plan->sup) {
    uint8_t *sd = plan->desc.want_supremum ? (uint8_t *) sup->data : NULL;
    size_t sp = plan->desc.want_supremum ? sup->pitch : 0;
    uint8_t *od = plan->desc.want_orientation ?
        (uint8_t *) orient->data : NULL;
    size_t op = plan->desc.want_orientation ? orient->pitch : 0;

    if (sup16)
      lin_finalize_kernel<uint16_t> <<< tgrid, tblk, 0, s >>>
          (plan->d_words0, plan->d_words1, sd, sp, od, op, w, h, a.maxv,
          a.invert);
    else
      lin_finalize_kernel<uint8_t> <<< tgrid, tblk, 0, s >>>
          (plan->d_words0, plan->d_words1, sd, sp, od, op, w, h, a.maxv,
          a.invert);
    e = cudaGetLastError ();
    if (e != cudaSuccess)
      return lin_status (e);
  }

download:
  e = cudaMemcpyAsync (plan->h_spec, plan->d_spec,
      sizeof (uint64_t) * plan->n, cudaMemcpyDeviceToHost, s);
  return lin_status (e);
}

extern "C" const uint64_t *
cm_linspectrum_plan_spectrum (const cm_linspectrum_plan * plan)
{
  return plan ? plan->h_spec : NULL;
}

extern "C" const uint64_t *
cm_linspectrum_plan_spectrum_device (const cm_linspectrum_plan * plan)
{
  return plan ? (const uint64_t *) plan->d_spec : NULL;
}

extern "C" int
cm_linspectrum_plan_count (const cm_linspectrum_plan * plan)
{
  return plan ? plan->n : 0;
}

extern "C" const char *
cm_linspectrum_plan_describe (const cm_linspectrum_plan * plan)
{
  return plan ? plan->describe : "none";
}
