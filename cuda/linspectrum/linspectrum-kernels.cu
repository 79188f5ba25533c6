/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kernels of the linear spectrum (linspectrum.h): linear openings or
 * closings in every orientation of a descriptor, in one launch; the plan
 * that chooses among them is linspectrum.cu.
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
#include <stdint.h>
#include <cuda_runtime.h>

#include "linspectrum-impl.cuh"
#include "linspectrum-sheared.h"

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
 * lane's run in the zone. Every lane calls them (shuffles inside). A
 * sink with nothing to do before a chunk takes the empty pre and advance
 * of lin_no_sink. */
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

/* Supremum/orientation candidate: (opening << 16) | (0xFFFF - index), so
 * that atomicMax keeps the largest opening and, among equal ones, the
 * smallest index. A plain read first skips most atomics: words only
 * grow, so a stale value is a lower bound. The word of position p is at
 * p * ext + column (the column formula of the samples). */
struct lin_word_sink : lin_no_sink
{
  uint32_t *words;
  int ext, cbase, csign;
  uint32_t tag;

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
 * the sample loads (the plan's sink above L = 128; cm_linspectrum_tuning
 * .sup_reads_ahead forces either).
 *
 * Why (issue 4, sup+orient x1.65 at L = 251): every output step of the
 * sink above waits for its read (the word arrays, 2 x 4 bytes per pixel,
 * do not stay in L2: ~6 GB of reads per 4K run of 180 orientations come
 * from DRAM), one read in flight per warp. The spectrum-only kernel hides
 * its latencies within the chunk, so it stays flat when L = 251 leaves 14
 * resident warps per SM instead of 32; this sink did not, and its time
 * grew with 32 / 14. Here a warp has a chunk's 8 reads in flight and a
 * chunk of time to wait for them. A stale read is still a lower bound
 * (the skip stays exact). Expected: L = 251 at about L = 11 + 10 %, and
 * L = 11 about as before; measured in docs/bench/history.md (Linear
 * spectrum). Costs 16 registers. */
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
struct lin_store_sink : lin_no_sink
{
  uint8_t *dst;
  size_t pitch;
  int cbase, csign;
  uint32_t inv;

  __device__ __forceinline__ void step (int k, int p, uint32_t v, bool ok,
      int ew)
  {
    const int ep = __shfl_sync (LIN_FULL, ew, 8 + k);

    if (ok)
      ((T *) (dst + (size_t) (unsigned) p * (unsigned) pitch))[cbase +
            csign * ep] = (T) (v ^ inv);
  }
};


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
 * image and its orientation image is 0) takes its own path (unless
 * cm_linspectrum_tuning.general_kernel):
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
 *    span, for 16 warps per SM (cm_linspectrum_tuning.single_target).
 * The expected and measured throughput (the shallow angles pay for two
 * transpositions): docs/bench/history.md (Linear spectrum). */

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

/* ---- launches -------------------------------------------------------------- */

const void *
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

const void *
lin_single_ptr (cm_depth depth, int store)
{
  if (depth == CM_DEPTH_16)
    return store ? (const void *) lin_single_kernel<uint16_t, true>
        : (const void *) lin_single_kernel<uint16_t, false>;
  return store ? (const void *) lin_single_kernel<uint8_t, true>
      : (const void *) lin_single_kernel<uint8_t, false>;
}

/* One launch of @kernel (lin_kernel_ptr, lin_single_ptr) on its argument
 * block @args */
static cudaError_t
lin_launch (const void *kernel, dim3 grid, dim3 blk, size_t smem,
    const void *args, cudaStream_t s)
{
  void *params[] = { (void *) args };

  (void) cudaLaunchKernel (kernel, grid, blk, params, smem, s);
  return cudaGetLastError ();
}

cudaError_t
lin_kernel_launch (cm_depth depth, int mode, dim3 grid, dim3 blk,
    size_t smem, const lin_args * pa, cudaStream_t s)
{
  return lin_launch (lin_kernel_ptr (depth, mode), grid, blk, smem, pa, s);
}

cudaError_t
lin_single_launch (cm_depth depth, int store, dim3 grid, dim3 blk,
    size_t smem, const lin_sargs * pa, cudaStream_t s)
{
  return lin_launch (lin_single_ptr (depth, store), grid, blk, smem, pa, s);
}

/* dst (h columns, w rows) = transpose of src (w x h), on stream s */
cudaError_t
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

cudaError_t
lin_finalize (int sixteen, const uint32_t * wn, const uint32_t * wt,
    uint8_t * sup, size_t sup_pitch, uint8_t * ori, size_t ori_pitch,
    int w, int h, uint32_t maxv, int invert, cudaStream_t s)
{
  dim3 tblk (LIN_TILE, LIN_TROWS);
  dim3 tgrid ((unsigned) ((w + LIN_TILE - 1) / LIN_TILE),
      (unsigned) ((h + LIN_TILE - 1) / LIN_TILE));

  if (sixteen)
    lin_finalize_kernel<uint16_t> <<< tgrid, tblk, 0, s >>> (wn, wt, sup,
        sup_pitch, ori, ori_pitch, w, h, maxv, invert);
  else
    lin_finalize_kernel<uint8_t> <<< tgrid, tblk, 0, s >>> (wn, wt, sup,
        sup_pitch, ori, ori_pitch, w, h, maxv, invert);
  return cudaGetLastError ();
}
