/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to cuda/linspectrum: what the plan (linspectrum.cu, where every
 * kernel is chosen) shares with the host tables (linspectrum-layout.cu)
 * and the stream kernels (linspectrum-kernels.cu). C++ linkage: included
 * by .cu files only. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime.h>

#include "linspectrum.h"

#define LIN_WARP 32
#define LIN_CHUNK 8             /* samples fetched ahead per lane         */
#define LIN_MAX_WPB 4           /* warps per block                        */
#define LIN_FULL 0xffffffffu

/* the general kernel's sinks (lin_kernel<T, MODE>) */
#define LIN_MODE_SPECTRUM 0
#define LIN_MODE_WORDS 1        /* supremum words, read at each step      */
#define LIN_MODE_WORDS_PF 2     /* supremum words, reads one chunk ahead  */

/* tiles of the transposition and the finalisation */
#define LIN_TILE 32
#define LIN_TROWS 8

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

void lin_layout_clear (lin_layout * lay);
/* Tables for desc on a width x height image (linspectrum-layout.cu).
 * target_warps: how many warp items the device wants in flight;
 * force_zlen > 0: the zone length. */
cm_status lin_layout_build (lin_layout * lay,
    const cm_linspectrum_desc * desc, int width, int height,
    long target_warps, int force_zlen);
/* The host tables of the one-orientation path (linspectrum-layout.cu) */
cm_status lin_single_tables (const lin_layout * lay, int target,
    int force_zlen, int2 ** lines_out, int2 ** items_out, int *nitems_out,
    int *zlen_out);

/* ---- the warp items (host and device) ----------------------------------- */

/* What one warp item streams, from the union [u0, u1] of the positions
 * its lines have inside the image: outputs p in [pstart, plast] of zone z,
 * samples q in [q0, qlast]. 0 when the item has nothing to do. The host
 * (lin_single_tables) uses the same rule to list the items. */
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

/* ---- kernel arguments ------------------------------------------------------ */

/* the general kernel (every orientation of the descriptor) */
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

/* the one-orientation kernel */
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

/* ---- kernels (linspectrum-kernels.cu) -------------------------------------
 * Launches are asynchronous and return the launch error. */

/* the kernels, for their attributes and occupancy */
const void *lin_kernel_ptr (cm_depth depth, int mode);
const void *lin_single_ptr (cm_depth depth, int store);

/* lin_kernel<T, mode> on grid x blk with smem bytes */
cudaError_t lin_kernel_launch (cm_depth depth, int mode, dim3 grid,
    dim3 blk, size_t smem, const lin_args * a, cudaStream_t s);
/* lin_single_kernel<T, store> */
cudaError_t lin_single_launch (cm_depth depth, int store, dim3 grid,
    dim3 blk, size_t smem, const lin_sargs * a, cudaStream_t s);
/* dst (h columns, w rows) = transpose of src (w x h) */
cudaError_t lin_transpose (int sixteen, const uint8_t * src, size_t spitch,
    uint8_t * dst, size_t dpitch, int w, int h, cudaStream_t s);
/* per pixel, the best packed word of wn ([y][x]) and wt ([x][y]) (either
 * NULL) -> supremum (infimum when invert) into sup and index into ori
 * (either NULL) */
cudaError_t lin_finalize (int sixteen, const uint32_t * wn,
    const uint32_t * wt, uint8_t * sup, size_t sup_pitch, uint8_t * ori,
    size_t ori_pitch, int w, int h, uint32_t maxv, int invert,
    cudaStream_t s);
