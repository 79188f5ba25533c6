/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* 1-D min/max filters along a segment of a line by the van Herk /
 * Gil-Werman algorithm (M. van Herk, Pattern Recognition Letters 13(7),
 * 1992; J. Gil and M. Werman, IEEE PAMI 15(5), 1993), GPU layout after
 * Thurley and Danell, LTU-CUDA (paper 004): one thread runs the vHGW
 * recurrences sequentially along its own line, so no window needs
 * communication between threads, and threads of a warp own neighbouring
 * lines so that their memory accesses coalesce.
 *
 * Window of length L starting at t: the thread owns C consecutive windows
 * t0 .. t0+C-1 (C a power of two <= L, a template parameter). With the
 * split point P = t0 + C every window contains [t0+i, P) and [P, t0+i+L),
 * so out(t0+i) = op (R[i], A[i]) with R the suffix extremes of [t0, P)
 * (kept in registers) and A the running prefix extreme from P on. That is
 * C + L - 1 reads and about as many operations for C outputs, i.e.
 * 1 + (L - 1) / C per output with C = the largest power of two <= L up to
 * 64 (vertical) or 32 (horizontal, lines): at most 3 for L <= 64, 5 and 9
 * for L = 255; the reads of samples that belong to neighbouring threads
 * come from shared memory (or L1 for the line kernel).
 *
 * Four kernels:
 *  - vertical (0,1): a block stages a strip of 64 columns by
 *    tile + L - 1 rows in shared memory (coalesced row loads, 16 bytes per
 *    lane when the strip lies inside the image; border rule applied once
 *    per staged row); a lane owns a pair of columns packed as
 *    two 16-bit halves (8-bit samples widened) and uses __vminu2/__vmaxu2,
 *    one instruction on sm_90 (VIMNMX.U16x2), for two pixels;
 *  - horizontal (1,0): the same on a transposed tile: the block stages
 *    64 rows by tile + L - 1 columns, each shared word holding the samples
 *    of two rows at one column, computes like the vertical kernel and
 *    writes its result through a second shared tile so that both global
 *    reads and writes run along rows;
 *  - sheared vertical (diagonals (1,1) and (1,-1)): the vertical kernel on
 *    the image sheared so that each diagonal is a column; staged rows and
 *    stored rows stay runs of one image row;
 *  - lines (the fall-back of the three above when their tile does not fit
 *    in shared memory, and the diagonals' former path, kept for
 *    comparisons): a lane owns one line,
 *    lanes of a warp neighbouring lines, samples read from global memory
 *    (consecutive lanes read consecutive columns of one row), with a fast
 *    path when the thread's whole window range lies inside the image.
 *
 * Border samples follow cm_border_map (cm-border.h) through one device
 * helper; a diagonal sample maps x and y independently and is the constant
 * when either lies outside.
 *
 * This file is the host side: the choice of a segment's kernel and tile
 * when the plan is built (cm_vhgw_segment_plan) and the launch of that
 * choice (cm_vhgw_pass). The kernels: morph-vhgw-columns.cu (vertical,
 * sheared), morph-vhgw-rows.cu (horizontal, lines); what they share:
 * morph-vhgw-kernels.cuh. */
#include <stdint.h>
#include <cuda_runtime.h>

#include "cm-cuda.h"
#include "morph-passes.h"
#include "vhgw.cuh"
#include "morph-vhgw-kernels.cuh"

/* ---- host side ---------------------------------------------------------- */

/* largest power of two <= min (len, cmax) */
static int
chunk_for (int len, int cmax)
{
  int c = 1;
  while (c * 2 <= len && c * 2 <= cmax)
    c *= 2;
  return c;
}

/* the kernel's cap on C, lowered by the tuning's (cmax > 0) */
static int
cmax_for (int cmax, int kernel_max)
{
  return cmax > 0 && cmax < kernel_max ? cmax : kernel_max;
}

static int
round_up (int v, int m)
{
  return (v + m - 1) / m * m;
}

/* Tile kernels: kind 0 the vertical and sheared ones (a staged strip),
 * kind 1 the horizontal one (the input and output tiles) */
enum
{ TILE_STRIP = 0, TILE_ROWS = 1 };

/* Shared bytes of a tile kernel for `tile` outputs per block */
static size_t
tile_bytes (int kind, int tile, int len)
{
  if (kind == TILE_STRIP)
    return (size_t) (tile + len - 1) * LANES * 4;
  return (size_t) (2 * tile + len - 1) * HT_STRIDE * 4;
}

/* Tile kernels: outputs per block along the walk and shared bytes, or 0
 * when even the smallest tile does not fit. */
static int
tile_plan (int kind, int c, int len, int extent, int smem_max, size_t *bytes)
{
  /* the tiles of the tile sweep in docs/bench/history.md ("Run of
   * 2026-11-24 on an H100: device time, rows by doubling"; 3840 x 2160):
   * vertical 192 rows for C <= 16 (faster than 128), 8 C from 32 on;
   * horizontal 128 columns up to C = 16 */
  int tile = c >= 32 ? 8 * c : kind == TILE_STRIP ? 192 : 128;
  size_t b = 0;

  if (tile > round_up (extent, c))
    tile = round_up (extent, c);
  for (;;) {
    b = tile_bytes (kind, tile, len);
    if (b <= (size_t) smem_max)
      break;
    if (tile <= c)
      return 0;
    tile = tile / 2 / c * c;
    if (tile < c)
      tile = c;
  }
  *bytes = b;
  return tile;
}

/* Vertical tiles of 8 C rows (one chunk per warp) against one of 9 C
 * (one warp takes two): the taller one when it makes the grid fit in
 * fewer waves of blocks (an H100 at 4K, C = 64: 512 rows give 300 blocks
 * at 2 per SM, 1.14 waves, 576 rows 240 blocks, one wave; the gain is in
 * docs/bench/history.md, "Figures moved from code comments"). */
static int
v_tile_waves (int tile, int c, int len, int width, int height, int smem_max,
    size_t *bytes)
{
  const int strips = (width + 2 * LANES - 1) / (2 * LANES);
  const size_t alt_bytes = tile_bytes (TILE_STRIP, tile + c, len);
  long waves[2];

  if (tile != 8 * c || tile >= height || alt_bytes > (size_t) smem_max)
    return tile;
  const int sms = current_device_attr (cudaDevAttrMultiProcessorCount);
  const int smem_sm =
      current_device_attr (cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  if (sms < 1 || smem_sm < 1)
    return tile;
  for (int i = 0; i < 2; i++) {
    const int t = tile + i * c;
    /* 1 KiB per block reserved by the system */
    const long per_sm = smem_sm / (long) (tile_bytes (TILE_STRIP, t, len) +
        1024);
    const long blocks = (long) strips * ((height + t - 1) / t);
    if (per_sm < 1)
      return tile;
    waves[i] = (blocks + per_sm * sms - 1) / (per_sm * sms);
  }
  if (waves[1] < waves[0]) {
    *bytes = alt_bytes;
    return tile + c;
  }
  return tile;
}

/* The tile kernels' outputs per block from the tuning (want > 0) when it
 * fits, rounded up to C; else the default tile. */
static int
tile_override (int kind, int want, int c, int len, int extent, int smem_max,
    int tile, size_t *bytes)
{
  int t = round_up (want, c);
  size_t b;

  if (want <= 0)
    return tile;
  if (t > round_up (extent, c))
    t = round_up (extent, c);
  b = tile_bytes (kind, t, len);
  if (b > (size_t) smem_max)
    return tile;
  *bytes = b;
  return t;
}

/* A tile kernel's chunk, tile and shared bytes: the default tile for the
 * frame and device, then the tuning's (want); LINES with smem 0 when no
 * tile fits. */
static cm_pass_variant
tile_config (cm_segment * seg, cm_pass_variant variant, int kind, int c,
    int extent, int width, int height, int want, int smem_max)
{
  size_t smem = 0;
  int tile = tile_plan (kind, c, seg->len, extent, smem_max, &smem);

  if (tile > 0 && variant == CM_PASS_VERTICAL && c >= 32)
    tile = v_tile_waves (tile, c, seg->len, width, height, smem_max, &smem);
  if (tile > 0)
    tile = tile_override (kind, want, c, seg->len, extent, smem_max, tile,
        &smem);
  seg->c = c;
  seg->tile = tile;
  seg->smem = tile > 0 ? smem : 0;
  return tile > 0 ? variant : CM_PASS_LINES;
}

/* The kernel of a pass of @variant: the columns kernel for vertical and
 * sheared tiles, the rows kernel for horizontal tiles and lines (the
 * plan's shared-memory attribute and the launch both ask here) */
static pass_kernel
pass_kernel_for (cm_pass_variant variant, cm_depth depth, int is_min, int c)
{
  return variant == CM_PASS_VERTICAL || variant == CM_PASS_SHEARED ?
      vhgw_columns_kernel (variant, depth, is_min, c) :
      vhgw_rows_kernel (variant, depth, is_min, c);
}

/* The tile kernel of @seg for erosion and dilation, allowed its shared
 * memory past the default 48 KiB once, when the plan is built */
static cm_status
allow_tile_smem (const cm_segment * seg, cm_depth depth)
{
  const cm_pass_variant v = seg->tile_variant;

  if (seg->smem <= 48 * 1024 || (v != CM_PASS_VERTICAL &&
          v != CM_PASS_HORIZONTAL && v != CM_PASS_SHEARED))
    return CM_OK;
  for (int is_min = 0; is_min < 2; is_min++) {
    const pass_kernel k = pass_kernel_for (v, depth, is_min, seg->c);
    const cudaError_t e = cudaFuncSetAttribute ((const void *) k,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) seg->smem);

    if (e != cudaSuccess) {
      (void) cudaGetLastError ();
      return cm_status_from_cuda (e);
    }
  }
  return CM_OK;
}

cm_status
cm_vhgw_segment_plan (cm_segment * seg, int width, int height,
    cm_depth depth, const cm_morph_tuning * tuning)
{
  static const cm_morph_tuning automatic = { };
  const cm_morph_tuning *t = tuning ? tuning : &automatic;
  int smem_max;
  cudaError_t e;

  if (!seg || seg->len < 1 || seg->len > (1 << 20) || width < 1 ||
      height < 1)
    return CM_ERR_INVALID_ARG;
  e = cm_device_attribute (cudaDevAttrMaxSharedMemoryPerBlockOptin,
      &smem_max);
  if (e != cudaSuccess) {
    (void) cudaGetLastError ();
    return cm_status_from_cuda (e);
  }
  if (t->smem_limit > 0 && t->smem_limit < smem_max)
    smem_max = t->smem_limit;   /* the tests' smaller devices */

  seg->grid_tiles = t->diag_grid;
  seg->diag_checked = t->diag_checked;
  seg->diag_flip = t->diag_flip;
  seg->pwin_parts = t->pwin_parts;
  seg->pdl = !t->no_pdl;
  /* the line kernel's chunk, when it is the choice */
  seg->c = chunk_for (seg->len, cmax_for (t->cmax, 32));
  seg->tile = 0;
  seg->smem = 0;

  if (seg->dir_x == 0 && seg->dir_y == 1) {
    seg->variant = tile_config (seg, CM_PASS_VERTICAL, TILE_STRIP,
        chunk_for (seg->len, cmax_for (t->cmax, 64)), height, width, height,
        t->vtile, smem_max);
    if (seg->variant == CM_PASS_LINES)
      seg->c = chunk_for (seg->len, cmax_for (t->cmax, 32));
  } else if (seg->dir_x == 1 && seg->dir_y == 0) {
    const int rows_tile = t->rows == CM_MORPH_ROWS_TILE;
    const int pwin = !rows_tile && cm_row_pwin_takes (depth, seg->first,
        seg->len);

    /* the tile kernel: every other row, and rows that are not 16-byte
     * aligned at run time */
    seg->tile_variant = tile_config (seg, CM_PASS_HORIZONTAL, TILE_ROWS,
        chunk_for (seg->len, cmax_for (t->cmax, 32)), width, width, height,
        t->htile, smem_max);
    /* short centred windows: 16-byte accesses and doublings beat the
     * tile's staging (morph-row-doubling.cu); longer ones: two windows of
     * P in registers, no staged tile (morph-row-pwin.cu), which takes
     * over from the doubling kernel where that needs two neighbour
     * vectors (the figures of the line 63 at 0 degrees are in
     * docs/bench/history.md, "Figures moved from code comments") */
    if (!rows_tile && !(pwin && (t->rows == CM_MORPH_ROWS_PWIN ||
                seg->len > 33)) &&
        cm_row_doubling_takes (depth, seg->first, seg->len))
      seg->variant = CM_PASS_ROW_DOUBLING;
    else if (pwin)
      seg->variant = CM_PASS_ROW_PWIN;
    else
      seg->variant = seg->tile_variant;
    return allow_tile_smem (seg, depth);
  } else if (seg->dir_x == 1 && (seg->dir_y == 1 || seg->dir_y == -1)) {
    seg->variant = CM_PASS_LINES;
    if (t->paths != CM_MORPH_PATHS_LEGACY) {
      /* C <= 32 on tiles of 8 C rows (256) for every length: C = 64 on
       * 512-row tiles ran the longest diagonals faster or slower than C =
       * 32 depending on the order of the strips, the faster order being a
       * different one on different H100s; C = 32 is close to the better
       * of the two in either order (docs/bench/history.md, "The order of
       * the strips (not explained)") */
      seg->variant = tile_config (seg, CM_PASS_SHEARED, TILE_STRIP,
          chunk_for (seg->len, cmax_for (t->cmax, t->cmax > 32 ? 64 : 32)),
          height, width, height, t->vtile, smem_max);
    }
    if (seg->variant == CM_PASS_LINES)
      seg->c = chunk_for (seg->len, cmax_for (t->cmax, 32));
  } else
    return CM_ERR_INVALID_ARG;
  seg->tile_variant = seg->variant;
  return allow_tile_smem (seg, depth);
}

static int
pair_aligned (const cm_image * img)
{
  uintptr_t a = (uintptr_t) img->data | (uintptr_t) img->pitch;
  return img->depth == CM_DEPTH_16 ? (a & 3) == 0 : (a & 1) == 0;
}

/* 16-byte accesses at every run of 32 bytes of every row */
static int
vec_aligned (const cm_image * img)
{
  return (((uintptr_t) img->data | (uintptr_t) img->pitch) & 15) == 0;
}

cudaError_t
cm_vhgw_pass (const cm_image * src, const cm_image * dst,
    const cm_segment * seg, int is_min, cm_border_mode border,
    uint32_t border_value, cudaStream_t stream)
{
  cm_pass_variant variant;
  pass_args a;
  pass_kernel k;
  dim3 block (LANES, WARPS), grid;
  uint32_t maxv;
  cudaError_t e;

  if (!cm_image_aligned_ok (src) || !cm_image_aligned_ok (dst) || !seg)
    return cudaErrorInvalidValue;
  if (src->width != dst->width || src->height != dst->height ||
      src->depth != dst->depth)
    return cudaErrorInvalidValue;
  if (seg->len < 1 || seg->len > (1 << 20))
    return cudaErrorInvalidValue;
  if ((int) border < 0 || (int) border >= CM_BORDER_MODE_COUNT)
    return cudaErrorInvalidValue;

  maxv = cm_depth_max (src->depth);
  if (border == CM_BORDER_NEUTRAL) {
    border = CM_BORDER_CONSTANT;
    border_value = is_min ? maxv : 0;
  }

  pass_set_views (a, src, dst);
  a.first = seg->first;
  a.len = seg->len;
  a.tile = seg->tile;
  a.border = (int) border;
  a.cval = border_value < maxv ? border_value : maxv;
  a.src_aligned = pair_aligned (src);
  a.dst_aligned = pair_aligned (dst);
  a.src_vec = vec_aligned (src);
  a.dst_vec = vec_aligned (dst);
  a.sigma = 0;
  a.trans = 0;
  a.e_min = 0;
  a.e_count = 0;
  a.grid_tiles = seg->grid_tiles;
  a.diag_checked = 0;
  a.reverse = 0;

  variant = seg->variant;
  if ((variant == CM_PASS_ROW_DOUBLING || variant == CM_PASS_ROW_PWIN) &&
      !cm_rows_vec_aligned (src, dst))
    variant = seg->tile_variant;
  if (seg->dir_x == 1 && seg->dir_y != 0) {
    /* diagonals: walk along y, line e */
    a.sigma = seg->dir_y;
    if (a.sigma > 0) {
      /* (x + k, y + k): e = x - y, b' = y + k */
      a.e_min = -(a.height - 1);
    } else {
      /* (x + k, y - k): e = x + y, b' = y - k */
      a.first = -(seg->first + seg->len - 1);
      a.e_min = 0;
    }
    a.e_count = a.width + a.height - 1;
  }

  switch (variant) {
    case CM_PASS_ROW_DOUBLING:
      return cm_row_doubling_pass (src, dst, seg->len, is_min, border,
          a.cval, seg->pdl, stream);
    case CM_PASS_ROW_PWIN:
      return cm_row_pwin_pass (src, dst, seg->first, seg->len, is_min,
          border, a.cval, seg->pwin_parts, seg->pdl, stream);
    case CM_PASS_VERTICAL:
      grid = dim3 ((unsigned) ((a.width + 2 * LANES - 1) / (2 * LANES)),
          (unsigned) ((a.height + a.tile - 1) / a.tile));
      break;
    case CM_PASS_HORIZONTAL:
      grid = dim3 ((unsigned) ((a.width + a.tile - 1) / a.tile),
          (unsigned) ((a.height + HT_ROWS - 1) / HT_ROWS));
      break;
    case CM_PASS_SHEARED:
      a.diag_checked = seg->diag_checked;
      a.reverse = seg->diag_flip;
      grid = dim3 ((unsigned) ((a.e_count + 2 * LANES - 1) / (2 * LANES)),
          (unsigned) ((a.height + a.tile - 1) / a.tile));
      break;
    default:                   /* CM_PASS_LINES */
      if (seg->dir_y == 0) {
        a.trans = 1;            /* lines along x: one per row */
        a.e_count = a.height;
      } else if (seg->dir_x == 0)
        a.e_count = a.width;    /* lines along y: one per column */
      {
        const int walk = a.trans ? a.width : a.height;
        grid = dim3 ((unsigned) ((a.e_count + LANES - 1) / LANES),
            (unsigned) (((walk + seg->c - 1) / seg->c + WARPS - 1) / WARPS));
      }
      break;
  }
  if (grid.y > 65535u)
    return cudaErrorInvalidValue;

  k = pass_kernel_for (variant, src->depth, is_min, seg->c);
  if (variant == CM_PASS_VERTICAL || variant == CM_PASS_SHEARED)
    /* passes of chains: see pdl_wait */
    e = pdl_launch (k, grid, block, seg->smem, stream, a, seg->pdl);
  else {
    k <<< grid, block, seg->smem, stream >>> (a);
    e = cudaGetLastError ();
  }
  return e;
}
