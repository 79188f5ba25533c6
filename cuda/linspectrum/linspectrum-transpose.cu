/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* 8-bit transposition in 4 x 4 byte blocks (linspectrum-sheared.h), for
 * the shallow lines of the linear spectrum.
 *
 * Why: the sample-by-sample transposition of linspectrum.cu moves one
 * byte per thread and instruction, so a warp's load or store carries 32
 * bytes. Here a thread loads one 4-byte word from each of 4 rows,
 * transposes the 4 x 4 bytes in registers (8 byte permutations) and
 * parks the 4 resulting words in shared memory; a warp then stores 128
 * contiguous bytes of an output row. A block moves a 128 x 128 byte tile.
 * Tiles that reach past the image take the byte path of the same block. */
#include <stdint.h>
#include <cuda_runtime.h>

#include "linspectrum-sheared.h"

#define TR_SIDE 128             /* bytes of a tile side                   */
#define TR_WORDS (TR_SIDE / 4)  /* 32 words: one per lane                 */
#define TR_WARPS 8

/* the 4 bytes of row y, columns x .. x + 3 (0 beyond the image) */
static __device__ __forceinline__ uint32_t
tr_word (const uint8_t * src, size_t spitch, int x, int y, int w, int h)
{
  const uint8_t *p = src + (size_t) y * spitch + x;
  uint32_t v = 0;

  if (y >= h)
    return 0u;
  if (x + 3 < w)
    return __ldg ((const uint32_t *) p);
  for (int j = 0; j < 4 && x + j < w; j++)
    v |= (uint32_t) __ldg (p + j) << (8 * j);
  return v;
}

static __global__ void __launch_bounds__ (TR_WORDS * TR_WARPS)
lin_transpose8_kernel (const uint8_t * src, size_t spitch, uint8_t * dst,
    size_t dpitch, int w, int h)
{
  /* tile[r][k]: output row x0 + r, bytes 4k .. 4k + 3 of the tile's
   * columns (input rows y0 + 4k ..); +1 word against bank conflicts */
  __shared__ uint32_t tile[TR_SIDE][TR_WORDS + 1];
  const int x0 = (int) blockIdx.x * TR_SIDE, y0 = (int) blockIdx.y * TR_SIDE;
  const int tx = (int) threadIdx.x, ty = (int) threadIdx.y;
  const int x = x0 + 4 * tx;

  /* a tile at the right or bottom edge takes the checked loads and
   * stores; whole words everywhere else */
  const bool inside = x0 + TR_SIDE <= w && y0 + TR_SIDE <= h;

#pragma unroll
  for (int k = ty; k < TR_WORDS; k += TR_WARPS) {
    const int y = y0 + 4 * k;
    uint32_t r0, r1, r2, r3;

    if (inside) {
      const uint8_t *p = src + (size_t) y * spitch + x;

      r0 = __ldg ((const uint32_t *) p);
      r1 = __ldg ((const uint32_t *) (p + spitch));
      r2 = __ldg ((const uint32_t *) (p + 2 * spitch));
      r3 = __ldg ((const uint32_t *) (p + 3 * spitch));
    } else {
      r0 = tr_word (src, spitch, x, y, w, h);
      r1 = tr_word (src, spitch, x, y + 1, w, h);
      r2 = tr_word (src, spitch, x, y + 2, w, h);
      r3 = tr_word (src, spitch, x, y + 3, w, h);
    }
    /* byte j of word i is input (x + j, y + i) */
    const uint32_t t0 = __byte_perm (r0, r1, 0x5140);
    const uint32_t t1 = __byte_perm (r0, r1, 0x7362);
    const uint32_t t2 = __byte_perm (r2, r3, 0x5140);
    const uint32_t t3 = __byte_perm (r2, r3, 0x7362);

    tile[4 * tx + 0][k] = __byte_perm (t0, t2, 0x5410);
    tile[4 * tx + 1][k] = __byte_perm (t0, t2, 0x7632);
    tile[4 * tx + 2][k] = __byte_perm (t1, t3, 0x5410);
    tile[4 * tx + 3][k] = __byte_perm (t1, t3, 0x7632);
  }
  __syncthreads ();

  /* output row x0 + r, columns y0 + 4 tx .. + 3 */
  const int yo = y0 + 4 * tx;
#pragma unroll 4
  for (int r = ty; r < TR_SIDE; r += TR_WARPS) {
    uint8_t *p = dst + (size_t) (x0 + r) * dpitch + yo;
    const uint32_t v = tile[r][tx];

    if (inside || (x0 + r < w && yo + 3 < h))
      *(uint32_t *) p = v;
    else if (x0 + r < w)
      for (int j = 0; j < 4 && yo + j < h; j++)
        p[j] = (uint8_t) (v >> (8 * j));
  }
}

int
lin_transpose8_supported (const uint8_t * src, size_t spitch,
    const uint8_t * dst, size_t dpitch)
{
  return (((uintptr_t) src | (uintptr_t) dst | spitch | dpitch) & 3) == 0;
}

cudaError_t
lin_transpose8 (const uint8_t * src, size_t spitch, uint8_t * dst,
    size_t dpitch, int w, int h, cudaStream_t s)
{
  dim3 grid ((unsigned) ((w + TR_SIDE - 1) / TR_SIDE),
      (unsigned) ((h + TR_SIDE - 1) / TR_SIDE));

  lin_transpose8_kernel <<< grid, dim3 (TR_WORDS, TR_WARPS), 0, s >>> (src,
      spitch, dst, dpitch, w, h);
  return cudaGetLastError ();
}
