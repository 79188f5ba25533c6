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
#include "morph-passes.h"

#define LIN_WARP 32
#define LIN_CHUNK 8             /* samples fetched ahead per lane         */
#define LIN_MAX_WPB 4           /* warps per block                        */
#define LIN_FULL 0xffffffffu

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

/* ---- the per-lane stream (host and device) ----------------------------- */

#ifdef __CUDA_ARCH__
#define LIN_LDG(p) __ldg (p)
#define LIN_UNROLL _Pragma ("unroll")
#else
#define LIN_LDG(p) (*(p))
#define LIN_UNROLL
#endif

/* first q in [0, n) with e[q] >= v, n if none (e non-decreasing) */
static __host__ __device__ __forceinline__ int
lin_lower_bound (const int *e, int n, int v)
{
  int lo = 0, hi = n;

  while (lo < hi) {
    int mid = (lo + hi) >> 1;

    if (LIN_LDG (e + mid) < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* What one warp item streams, from the union [u0, u1] of the positions
 * its lines have inside the image: outputs p in [pstart, plast] of zone z,
 * samples q in [q0, qlast]. 0 when the item has nothing to do. */
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
  r->pend = min (r->p + zlen, span) - 1;
  pstart = max (r->p, u0);
  plast = min (r->pend, u1);
  if (pstart > plast)
    return 0;
  /* from L - 1 before the zone (the windows reaching into it), or from
   * the first position any line of the warp has inside the image: all
   * samples before it are neutral, so the stream is exact from there */
  r->q0 = max (r->p - (L - 1), u0);
  /* the opening of p is out L steps after sample p */
  r->qlast = plast + L;
  return 1;
}

struct lin_no_sink
{
  __host__ __device__ __forceinline__ void emit (int, uint32_t)
  {
  }
};

/* The stream of one lane: the line whose run is [first, last] (empty when
 * first > last), sample q at column cbase + csign * e(q) of row q of src;
 * samples q0 .. qlast of the item, outputs p >= zone start. be, bd: the
 * lane's two FIFOs of L + 1 samples, element i at i * bstride. Returns the
 * lane's part of the spectrum; sink.emit (p, opening) for the supremum.
 *
 * Speed (issue 4). The stream walks the FIFO blocks of L samples in
 * chunks of LIN_CHUNK steps that never cross a block end, so that the
 * chunk's FIFO reads (the previous block's suffixes at j + 1 .. j + C,
 * not written before step j + 1) can all be issued before its first step
 * and the next chunk's input is fetched while this one is computed; the
 * backward pass is batched the same way. Before, every step waited for its
 * two shared-memory reads and every block end for L dependent read/write
 * pairs, so the kernel needed ~32 resident warps per multiprocessor to
 * hide latency; at L = 251 the FIFOs (16 KB per warp) leave room for 12
 * and the time rose by 55..62 %. With the chunked stream one warp keeps
 * ~3 x LIN_CHUNK independent loads in flight, which should make 12 warps
 * enough (expected: L = 251 within the tail cost, (run + L) / run, of
 * L = 11; about 1.1-1.2 at 4K). The per-step bookkeeping is also smaller:
 * the lane's run comes from two binary searches on e () instead of being
 * tracked, a sentinel at index L (M in be, 0 in bd) and a neutral fill at
 * the start replace the edge selects, and the closing's M - v is v ^ M.
 * The arithmetic of every step is that of the definition: the results do
 * not change by a bit. */
template <typename T>
static __host__ __device__ __forceinline__ void
lin_fetch (uint32_t * g, const uint8_t * src, size_t pitch, const int *e,
    int cbase, int csign, int first, int last, int qmax, int qs,
    uint32_t M, uint32_t inv)
{
LIN_UNROLL
  for (int k = 0; k < LIN_CHUNK; k++) {
    const int q = qs + k;
    uint32_t v = M;

    if (q >= first && q <= last && q <= qmax) {
      const T *row = (const T *) (src + (size_t) q * pitch);
      v = (uint32_t) LIN_LDG (row + (cbase + csign * LIN_LDG (e + q))) ^ inv;
    }
    g[k] = v;
  }
}

template <typename T, typename Sink>
static __host__ __device__ __forceinline__ uint32_t
lin_stream (const uint8_t * src, size_t pitch, const int *e, int cbase,
    int csign, int first, int last, const lin_range & r, int L, int o,
    uint32_t M, uint32_t inv, T * be, T * bd, int bstride, Sink & sink)
{
  /* an erosion's window [q - L + 1, q] has its origin at q - L + 1 + o:
   * outside the run it must not win the dilation */
  const int alo = first + (L - 1 - o), ahi = last + (L - 1 - o);
  const int pmin = max (r.p, first);
  uint32_t eprev = 0, sum = 0;
  uint32_t gn[LIN_CHUNK];

  /* no block before the first: its suffixes are neutral (and the sentinel
   * at L stays so) */
  for (int i = 0; i <= L; i++) {
    be[i * bstride] = (T) M;
    bd[i * bstride] = (T) 0;
  }
  lin_fetch<T> (gn, src, pitch, e, cbase, csign, first, last, r.qlast, r.q0,
      M, inv);

  for (int qb = r.q0; qb <= r.qlast; qb += L) {
    const int nb = min (L, r.qlast - qb + 1);   /* steps of this block */
    uint32_t pe = M, pd = 0;

    for (int jc = 0; jc < nb; jc += LIN_CHUNK) {
      uint32_t g[LIN_CHUNK], sv[LIN_CHUNK], sw[LIN_CHUNK];

LIN_UNROLL
      for (int k = 0; k < LIN_CHUNK; k++) {
        const int i = min (jc + k + 1, L);

        g[k] = gn[k];
        sv[k] = be[i * bstride];
        sw[k] = bd[i * bstride];
      }
      /* the next chunk: in this block, or the first of the next */
      lin_fetch<T> (gn, src, pitch, e, cbase, csign, first, last, r.qlast,
          jc + LIN_CHUNK < nb ? qb + jc + LIN_CHUNK : qb + L, M, inv);

LIN_UNROLL
      for (int k = 0; k < LIN_CHUNK; k++) {
        const int j = jc + k, q = qb + j, p = q - L;

        if (j >= nb)
          break;
        /* stage 1: erosion of the window [q - L + 1, q] */
        pe = min (pe, g[k]);
        be[j * bstride] = (T) g[k];
        const uint32_t ero = min (sv[k], pe);
        /* stage 2: dilation over the erosions up to the previous step */
        pd = max (pd, eprev);
        bd[j * bstride] = (T) eprev;
        const uint32_t dil = max (sw[k], pd);

        if (p >= pmin && p <= last) {
          sum += dil ^ inv;
          sink.emit (p, dil);
        }
        eprev = q >= alo && q <= ahi ? ero : 0u;
      }
    }

    if (nb == L) {
      /* block complete: suffix extremes in place (backward pass) */
      uint32_t s1 = M, s2 = 0;

      for (int ib = L - 1; ib >= 0; ib -= LIN_CHUNK) {
        uint32_t x[LIN_CHUNK], y[LIN_CHUNK];

LIN_UNROLL
        for (int k = 0; k < LIN_CHUNK; k++) {
          const int i = max (ib - k, 0);

          x[k] = be[i * bstride];
          y[k] = bd[i * bstride];
        }
LIN_UNROLL
        for (int k = 0; k < LIN_CHUNK; k++) {
          const int i = ib - k;

          if (i < 0)
            break;
          s1 = min (s1, x[k]);
          be[i * bstride] = (T) s1;
          s2 = max (s2, y[k]);
          bd[i * bstride] = (T) s2;
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
  uint32_t maxv;
} lin_args;

/* Supremum/orientation candidate: (opening << 16) | (0xFFFF - index), so
 * that atomicMax keeps the largest opening and, among equal ones, the
 * smallest index. The plain read first skips most atomics: words only
 * grow, so a stale value is a lower bound. */
struct lin_word_sink
{
  uint32_t *words;
  const int *e;
  int ext, line, flip;
  uint32_t tag;

  __device__ __forceinline__ void emit (int p, uint32_t v)
  {
    int u = line - __ldg (e + p);
    uint32_t *w = words + (size_t) p * ext + (flip ? ext - 1 - u : u);
    uint32_t packed = (v << 16) | tag;

    if (packed > __ldcg (w))
      atomicMax (w, packed);
  }
};

/* 8 blocks of 128: at most 64 registers (sm_90: 63-64, no spills), 32
 * resident warps; without the bound the supremum variant took 96 and
 * fell to 20 warps */
template <typename T, bool SUP>
static __global__ void __launch_bounds__ (LIN_MAX_WPB * LIN_WARP, 8)
lin_kernel (lin_args a)
{
  extern __shared__ __align__ (16) unsigned char lin_smem[];
  const int oi = (int) blockIdx.y;
  const int warp = (int) (threadIdx.x >> 5), lane = (int) (threadIdx.x & 31);
  const int item = (int) blockIdx.x * (int) (blockDim.x >> 5) + warp;
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

  if (SUP) {
    lin_word_sink sink;

    sink.words = s ? a.words1 : a.words0;
    sink.e = e;
    sink.ext = ext;
    sink.line = line;
    sink.flip = flip;
    sink.tag = 0xFFFFu - (uint32_t) oi;
    sum = lin_stream<T> (src, pitch, e, cbase, csign, first, last, r, a.L,
        a.o, a.maxv, inv, be, bd, LIN_WARP, sink);
  } else {
    lin_no_sink sink;

    sum = lin_stream<T> (src, pitch, e, cbase, csign, first, last, r, a.L,
        a.o, a.maxv, inv, be, bd, LIN_WARP, sink);
  }

  unsigned long long v = sum;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync (LIN_FULL, v, off);
  if (lane == 0 && v)
    atomicAdd (a.spectrum + oi, v);
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
  char describe[128];
};

/* Test and tuning switches, read at plan creation: CM_LINSPECTRUM_WPB=1|2|4
 * forces the warps per block, CM_LINSPECTRUM_ZLEN=n the zone length in
 * positions (e.g. 40 splits every line into many zones, so that the zone
 * overlap code runs on every size). def when unset or not a positive
 * number. */
static int
lin_env_int (const char *name, int def)
{
  const char *v = getenv (name);
  long x;

  if (!v || !*v)
    return def;
  x = strtol (v, NULL, 10);
  return x > 0 && x <= INT_MAX ? (int) x : def;
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
lin_kernel_ptr (cm_depth depth, int sup)
{
  if (depth == CM_DEPTH_16)
    return sup ? (const void *) lin_kernel<uint16_t, true>
        : (const void *) lin_kernel<uint16_t, false>;
  return sup ? (const void *) lin_kernel<uint8_t, true>
      : (const void *) lin_kernel<uint8_t, false>;
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
  (void) cudaGetLastError ();
  free (plan);
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
  kfn = lin_kernel_ptr (depth, p->sup);
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
  if (e == cudaSuccess && p->sup && p->any_steep)
    e = cudaMalloc ((void **) &p->d_words0,
        sizeof (uint32_t) * (size_t) width * height);
  if (e == cudaSuccess && p->sup && p->any_shallow)
    e = cudaMalloc ((void **) &p->d_words1,
        sizeof (uint32_t) * (size_t) width * height);
  /* A pageable cudaMemcpy may return before its DMA has landed, and runs
   * go to non-blocking streams that do not wait for the legacy default
   * stream: finish the uploads here, once per plan. */
  if (e == cudaSuccess)
    e = cudaStreamSynchronize (0);
  lin_layout_clear (&lay);
  if (e != cudaSuccess) {
    st = lin_status (e);
    cm_linspectrum_plan_free (p);
    return st;
  }
  memset (p->h_spec, 0, sizeof (uint64_t) * p->n);
  snprintf (p->describe, sizeof (p->describe),
      "stream wpb=%d smem=%zu zlen=%d items=%d %s%s%s%s", p->wpb, p->smem,
      p->zlen, p->max_items, p->any_shallow ? "shallow" : "",
      p->any_shallow && p->any_steep ? "+" : "",
      p->any_steep ? "steep" : "", p->sup ? " sup" : "");
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

extern "C" cm_status
cm_linspectrum_plan_run (cm_linspectrum_plan * plan, const cm_image * src,
    const cm_image * sup, const cm_image * orient, void *stream)
{
  cudaStream_t s = (cudaStream_t) stream;
  const int w = plan ? plan->width : 0, h = plan ? plan->height : 0;
  const int sup16 = plan && plan->depth == CM_DEPTH_16;
  cudaError_t e;
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
  if (e == cudaSuccess && plan->d_words0)
    e = cudaMemsetAsync (plan->d_words0, 0,
        sizeof (uint32_t) * (size_t) w * h, s);
  if (e == cudaSuccess && plan->d_words1)
    e = cudaMemsetAsync (plan->d_words1, 0,
        sizeof (uint32_t) * (size_t) w * h, s);
  if (e != cudaSuccess)
    return lin_status (e);

  if (plan->any_shallow) {
    if (sup16)
      lin_transpose_kernel<uint16_t> <<< tgrid, tblk, 0, s >>>
          ((const uint8_t *) src->data, src->pitch, plan->d_tsrc,
          plan->tpitch, w, h);
    else
      lin_transpose_kernel<uint8_t> <<< tgrid, tblk, 0, s >>>
          ((const uint8_t *) src->data, src->pitch, plan->d_tsrc,
          plan->tpitch, w, h);
    e = cudaGetLastError ();
    if (e != cudaSuccess)
      return lin_status (e);
  }

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

    if (sup16 && plan->sup)
      lin_kernel<uint16_t, true> <<< grid, blk, plan->smem, s >>> (a);
    else if (sup16)
      lin_kernel<uint16_t, false> <<< grid, blk, plan->smem, s >>> (a);
    else if (plan->sup)
      lin_kernel<uint8_t, true> <<< grid, blk, plan->smem, s >>> (a);
    else
      lin_kernel<uint8_t, false> <<< grid, blk, plan->smem, s >>> (a);
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
