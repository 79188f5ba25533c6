/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One orientation of the linear spectrum on a sheared tile
 * (linspectrum-sheared.h).
 *
 * Why (issue 4, the throughput target of one opening): the stream kernel
 * (linspectrum-kernels.cu) gives one thread a whole scan line. With one
 * orientation a 3840x2160 frame has only 2,000-4,000 lines, so it must cut
 * them into zones whose 2 L overlap it pays again and again, and each step
 * walks a FIFO in shared memory: it missed the target, shallow lines (two
 * transpositions) more than steep ones (docs/bench/history.md, Linear
 * spectrum; "Figures moved from code comments (median, linear spectrum)").
 * Seen from the lines, one orientation is a 1-D opening along the columns
 * of the sheared frame
 * g (b, q) = the sample of line b at position q: here a block stages a
 * strip of 64 lines over a tile of positions (each staged row is a run of
 * 64 neighbouring samples of one image row: coalesced), and the 1-D
 * opening is the vHGW chunk of common/vhgw.cuh twice, erosion then
 * dilation, through shared memory: no per-line state, no zones, as many
 * blocks as the frame has tiles. The price is the halo of 2 (L - 1) staged rows per tile, so the
 * plan keeps the stream kernel for long segments (linspectrum.cu).
 *
 * Exactness: a sample outside the image (q outside [0, span) or its
 * column outside [0, ext)) is M, the neutral of the erosion, and an
 * erosion whose origin lies outside the image is 0, the neutral of the
 * dilation: the NEUTRAL rule of linspectrum.h stage by stage, the lines
 * being cut at the border exactly where their runs end. Closing: the
 * input is inverted on load and the result on store (v ^ M). The lanes
 * hold two lines as the 16-bit halves of a word (__vminu2 / __vmaxu2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "linspectrum-sheared.h"
#include "cm-cuda.h"
#include "vhgw.cuh"

#define SH_LANES 32
#define SH_WARPS 8
#define SH_LINES (2 * SH_LANES)  /* lines per strip: two per lane        */

struct lin_sheared
{
  int span, ext, flip, emax, L, c, tile, na, nitems;
  cm_depth depth;
  int store;
  size_t smem;
  int2 *d_items;                /* (strip, first output row)             */
  char describe[96];
};

typedef struct
{
  const uint8_t *src;
  size_t spitch;
  uint8_t *dst;
  size_t dpitch;
  const int *e;
  const int2 *items;
  unsigned long long *spectrum;
  int span, ext, sgn, bmin;     /* column of line b at q: b + sgn e(q)   */
  int L, o, tile, na;           /* output rows, erosions per tile       */
  uint32_t inv, m2;             /* inversion mask, M in both halves      */
} sh_args;

/* staged or eroded column t of the lane: p[t * SH_LANES] */
struct sh_reader
{
  const uint32_t *p;
  __device__ __forceinline__ uint32_t operator () (int t) const
  {
    return p[t * SH_LANES];
  }
};

/* 0xFFFF per half whose line (columns c, c + 1) has position q inside
 * the image: the run of the definition */
static __device__ __forceinline__ uint32_t
sh_inside (const sh_args & a, int c0, int q)
{
  if ((unsigned) q >= (unsigned) a.span)
    return 0u;
  const int c = c0 + a.sgn * __ldg (a.e + q);
  return ((unsigned) c < (unsigned) a.ext ? 0x0000FFFFu : 0u) |
      ((unsigned) (c + 1) < (unsigned) a.ext ? 0xFFFF0000u : 0u);
}

/* erosion i of a chunk: origin q = a0 + i; 0 outside the run */
struct sh_ero_emitter
{
  uint32_t *out;
  const sh_args *a;
  int a0, c0;
  __device__ __forceinline__ void operator () (int i, uint32_t v)
  {
    out[i * SH_LANES] = v & sh_inside (*a, c0, a0 + i);
  }
};

/* opening i of a chunk: position p0 + i, stored when inside, summed */
template <typename Pix, bool STORE>
struct sh_out_emitter
{
  const sh_args *a;
  int p0, c0;
  uint32_t sum;
  __device__ __forceinline__ void operator () (int i, uint32_t v)
  {
    const int p = p0 + i;

    if ((unsigned) p >= (unsigned) a->span)
      return;
    const int c = c0 + a->sgn * __ldg (a->e + p);
    Pix *row = (Pix *) (a->dst + (size_t) p * a->dpitch);
    const uint32_t lo = (v & 0xFFFFu) ^ a->inv, hi = (v >> 16) ^ a->inv;

    if ((unsigned) c < (unsigned) a->ext) {
      sum += lo;
      if (STORE)
        row[c] = (Pix) lo;
    }
    if ((unsigned) (c + 1) < (unsigned) a->ext) {
      sum += hi;
      if (STORE)
        row[c + 1] = (Pix) hi;
    }
  }
};

/* grid.x: items (strip of 64 lines, tile of output rows y0 ..). Shared:
 * the staged strip, rows y0 - L + 1 .. (na + L - 1 rows), then the na
 * erosions of origins y0 - (L - 1 - o) .. */
template <typename Pix, int C, bool STORE>
static __global__ void __launch_bounds__ (SH_LANES * SH_WARPS)
lin_sheared_kernel (const __grid_constant__ sh_args a)
{
  extern __shared__ uint32_t sh_smem[];
  const int lane = (int) threadIdx.x, warp = (int) threadIdx.y;
  const int2 it = __ldg (a.items + blockIdx.x);
  const int c0 = a.bmin + it.x * SH_LINES + 2 * lane;
  const int y0 = it.y;
  const int ns = a.na + a.L - 1;
  uint32_t *stg = sh_smem, *ero = sh_smem + (size_t) ns * SH_LANES;
  const int qs = y0 - a.L + 1;

  /* staging: row q of the strip, M outside the image. The warp's rows
   * are t = warp + 8 j; lane j holds e () of the j-th of the next 32, so
   * that the sample loads of 8 rows wait for no table load and are in
   * flight together */
  for (int tb = warp; tb < ns; tb += SH_WARPS * SH_LANES) {
    const int qe = qs + tb + SH_WARPS * lane;
    const int ew = (unsigned) qe < (unsigned) a.span ? __ldg (a.e + qe) : 0;

#pragma unroll 8
    for (int j = 0; j < SH_LANES; j++) {
      const int t = tb + SH_WARPS * j, q = qs + t;
      const int c = c0 + a.sgn * __shfl_sync (0xffffffffu, ew, j);
      uint32_t w = a.m2;

      if (t >= ns)
        break;                  /* uniform in the warp */
      if ((unsigned) q < (unsigned) a.span) {
        const Pix *row = (const Pix *) (a.src + (size_t) q * a.spitch);
        uint32_t lo = a.m2 & 0xFFFFu, hi = a.m2 >> 16;

        if ((unsigned) c < (unsigned) a.ext)
          lo = (uint32_t) __ldg (row + c) ^ a.inv;
        if ((unsigned) (c + 1) < (unsigned) a.ext)
          hi = (uint32_t) __ldg (row + c + 1) ^ a.inv;
        w = lo | hi << 16;
      }
      stg[t * SH_LANES + lane] = w;
    }
  }
  __syncthreads ();

  /* erosions: origin y0 - (L - 1 - o) + i reads staged rows i .. i + L - 1 */
  for (int k = warp; k * C < a.na; k += SH_WARPS) {
    sh_reader rd = { stg + (size_t) k * C * SH_LANES + lane };
    sh_ero_emitter em = { ero + (size_t) k * C * SH_LANES + lane, &a,
      y0 - (a.L - 1 - a.o) + k * C, c0
    };
    vhgw_chunk<C, op_min2> (rd, a.L, em);
  }
  __syncthreads ();

  /* openings: position y0 + j takes the erosions j .. j + L - 1 */
  sh_out_emitter<Pix, STORE> em = { &a, 0, c0, 0u };
  for (int k = warp; k * C < a.tile; k += SH_WARPS) {
    sh_reader rd = { ero + (size_t) k * C * SH_LANES + lane };

    em.p0 = y0 + k * C;
    vhgw_chunk<C, op_max2> (rd, a.L, em);
  }

  unsigned long long v = em.sum;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync (0xffffffffu, v, off);
  if (lane == 0 && v)
    atomicAdd (a.spectrum, v);
}

typedef void (*sh_kernel) (const sh_args);

/* lin_sheared_kernel<Pix, C, STORE> by C (cm_pow2_pick) */
template <typename Pix, bool STORE>
struct sh_by_c
{
  template <int C>
  static sh_kernel get ()
  {
    return lin_sheared_kernel<Pix, C, STORE>;
  }
};

template <typename Pix, bool STORE>
static sh_kernel
sh_kernel_for_c (int c)
{
  return cm_pow2_pick<sh_by_c<Pix, STORE>, 1, 64> (c);
}

static sh_kernel
sh_kernel_for (cm_depth depth, int store, int c)
{
  if (depth == CM_DEPTH_16)
    return store ? sh_kernel_for_c<uint16_t, true> (c)
        : sh_kernel_for_c<uint16_t, false> (c);
  return store ? sh_kernel_for_c<uint8_t, true> (c)
      : sh_kernel_for_c<uint8_t, false> (c);
}

static int
sh_round_up (int v, int m)
{
  return (v + m - 1) / m * m;
}

/* erosions per tile of `tile` output rows (a multiple of C): the tile's
 * rows plus the L - 1 origins after them, in whole chunks; the openings'
 * chunks read the first tile + L - 1 of them */
static int
sh_na (int tile, int L, int c)
{
  return tile + sh_round_up (L - 1, c);
}

static size_t
sh_smem_bytes (int tile, int L, int c)
{
  const int na = sh_na (tile, L, c);

  return (size_t) (2 * na + L - 1) * SH_LANES * sizeof (uint32_t);
}

cm_status
lin_sheared_new (lin_sheared ** out, const int *e_host, int span, int ext,
    int flip, int L, cm_depth depth, int store, int force_tile)
{
  lin_sheared *sh;
  int optin = 0, c = 1, tile, emax, nstrips, n;
  cudaError_t e;

  *out = NULL;
  if (span < 1 || ext < 1 || L < 1)
    return CM_ERR_INVALID_ARG;
  e = cm_device_attribute (cudaDevAttrMaxSharedMemoryPerBlockOptin, &optin);
  if (e != cudaSuccess)
    return cm_cuda_status (e);

  /* C: the largest power of two <= L up to 64 (vhgw_chunk needs C <= L).
   * The tile: 128 rows, the fastest of a sweep from 64 to 512 rows
   * (docs/bench/history.md, Linear spectrum: beyond 128 the shared memory
   * leaves fewer blocks per multiprocessor, below it the halo of
   * 2 (L - 1) rows dominates),
   * halved while two blocks do not fit in a multiprocessor's shared
   * memory (the opt-in limit per block approximates half of it) */
  while (c * 2 <= L && c * 2 <= 64)
    c *= 2;
  tile = sh_round_up (128, c);
  if (force_tile > 0)
    tile = sh_round_up (force_tile, c);
  if (tile > sh_round_up (span, c))
    tile = sh_round_up (span, c);
  while (force_tile <= 0 && tile > c &&
      sh_smem_bytes (tile, L, c) > (size_t) optin / 2)
    tile = sh_round_up (tile / 2, c);
  if (sh_smem_bytes (tile, L, c) > (size_t) optin)
    return CM_OK;               /* no tile: the stream kernel stays */

  sh = (lin_sheared *) calloc (1, sizeof (*sh));
  if (!sh)
    return CM_ERR_NO_MEMORY;
  sh->span = span;
  sh->ext = ext;
  sh->flip = flip;
  sh->emax = e_host[span - 1];
  sh->L = L;
  sh->c = c;
  sh->tile = tile;
  sh->na = sh_na (tile, L, c);
  sh->depth = depth;
  sh->store = store;
  sh->smem = sh_smem_bytes (tile, L, c);

  /* items: per strip of 64 lines, the rows where one of its lines is in
   * the image (an interval: e is monotone), cut into tiles */
  emax = e_host[span - 1];
  nstrips = (ext + emax + SH_LINES - 1) / SH_LINES;
  int2 *items = (int2 *) malloc (sizeof (int2) *
      (size_t) nstrips * (size_t) ((span + tile - 1) / tile + 1));
  if (!items) {
    free (sh);
    return CM_ERR_NO_MEMORY;
  }
  n = 0;
  for (int si = 0; si < nstrips; si++) {
    const int b0 = (flip ? -emax : 0) + si * SH_LINES;
    int qa = -1, qb = -1;

    for (int q = 0; q < span; q++) {
      const int lo = flip ? b0 + e_host[q] : b0 - e_host[q];

      if (lo <= ext - 1 && lo + SH_LINES - 1 >= 0) {
        if (qa < 0)
          qa = q;
        qb = q;
      }
    }
    for (int y0 = qa; qa >= 0 && y0 <= qb; y0 += tile)
      items[n++] = make_int2 (si, y0);
  }
  sh->nitems = n;
  e = cudaMalloc ((void **) &sh->d_items, sizeof (int2) * (size_t) (n > 0 ?
          n : 1));
  if (e == cudaSuccess && n > 0)
    e = cudaMemcpy (sh->d_items, items, sizeof (int2) * (size_t) n,
        cudaMemcpyHostToDevice);
  /* the kernel's limit on dynamic shared memory, set to the device's
   * maximum once (a property of the kernel, not of the launch) */
  for (int st = 0; st < 2 && e == cudaSuccess; st++)
    e = cudaFuncSetAttribute ((const void *) sh_kernel_for (depth, st, c),
        cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
  /* the upload must have landed before a run on another stream */
  if (e == cudaSuccess)
    e = cudaStreamSynchronize (0);
  free (items);
  if (e != cudaSuccess) {
    cm_status st = cm_cuda_status (e);

    lin_sheared_free (sh);
    return st;
  }
  snprintf (sh->describe, sizeof (sh->describe),
      "sheared C=%d tile=%d blocks=%d smem=%zu", c, tile, n, sh->smem);
  *out = sh;
  return CM_OK;
}

void
lin_sheared_free (lin_sheared * sh)
{
  if (!sh)
    return;
  cudaFree (sh->d_items);
  (void) cudaGetLastError ();
  free (sh);
}

const char *
lin_sheared_describe (const lin_sheared * sh)
{
  return sh ? sh->describe : "";
}

cudaError_t
lin_sheared_run (const lin_sheared * sh, const int *e_dev,
    const uint8_t * src, size_t spitch, uint8_t * dst, size_t dpitch,
    int invert, unsigned long long *spectrum, cudaStream_t s)
{
  const uint32_t maxv = sh->depth == CM_DEPTH_16 ? 0xFFFFu : 0xFFu;
  sh_args a;

  if (sh->nitems == 0)
    return cudaSuccess;
  memset (&a, 0, sizeof (a));
  a.src = src;
  a.spitch = spitch;
  a.dst = dst;
  a.dpitch = dpitch;
  a.e = e_dev;
  a.items = sh->d_items;
  a.spectrum = spectrum;
  a.span = sh->span;
  a.ext = sh->ext;
  a.sgn = sh->flip ? 1 : -1;
  a.bmin = sh->flip ? -sh->emax : 0;
  a.L = sh->L;
  a.o = sh->L / 2;
  a.tile = sh->tile;
  a.na = sh->na;
  a.inv = invert ? maxv : 0u;
  a.m2 = maxv | maxv << 16;
  sh_kernel_for (sh->depth, sh->store && dst, sh->c) <<< sh->nitems,
      dim3 (SH_LANES, SH_WARPS), sh->smem, s >>> (a);
  return cudaGetLastError ();
}
