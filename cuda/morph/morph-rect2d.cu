/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Erosion / dilation by a full rectangle in one launch: the horizontal and
 * the vertical van Herk / Gil-Werman recurrences (van Herk 1992, Gil &
 * Werman 1993) on one shared-memory tile, so that the intermediate image of
 * the separable form (morph-vhgw.cu: two launches, the intermediate frame
 * written and read back) never leaves the SM.
 *
 * A block owns an output tile of tw x th pixels (multiples of the chunk
 * C). It stages the input window of the tile, (tw + w - 1) x (th + h - 1)
 * samples, by aligned 4-byte words inside the image and with the border
 * rule applied sample by sample near the edges: a staged sample is
 * exactly f_b (x, y) of the 2-D definition (CONSTANT when the column or
 * the row is outside, else the index maps of both axes), so the tile's
 * min/max over the rectangle is the definition itself, no separability
 * argument needed. Then
 *  1. horizontal: H[r][c] = op over the w samples of staged row r from
 *     column c, by vHGW chunks of C columns (lanes own rows: the row
 *     stride is an odd number of words, so a warp's accesses fall on
 *     distinct banks);
 *  2. vertical: out[r][c] = op over H[r .. r + h - 1][c], by vHGW chunks
 *     of C rows on whole 4-byte words of H (four 8-bit or two 16-bit
 *     columns per packed min/max: __vminu4, __vminu2), lanes on
 *     neighbouring words, stored straight to the destination a word per
 *     lane (sample by sample at the right edge or when rows are not
 *     4-byte aligned).
 * A side of length 1 skips its stage (w = 1: H is the staged tile; h = 1,
 * a row: the vertical stage copies H out). C, a power of two <= the lengths
 * above 1 and <= 32, gives 1 + (len - 1) / C shared reads per output of a
 * stage.
 *
 * Global traffic: the tile's input with its halo (x (1 + (w-1)/tw)
 * (1 + (h-1)/th), mostly served by L2 for neighbouring tiles) and the
 * output once. Tiles are sized on the host: up to 64 x 64 the whole input
 * tile is staged at once (128 columns, 64 or 128 rows, about 64 KiB of
 * shared memory: three or more blocks per SM); larger rectangles get tall
 * narrow tiles (64 x 512 and more, so that the vertical halo is paid on
 * few rows) whose input is staged and filtered by slabs of 128 rows while
 * only H is kept whole (about 100 KiB: two blocks per SM), their height
 * balanced against the SM count. A rectangle whose tile cannot fit at all
 * is refused (the plan then uses the separable passes). */
#include <stdint.h>
#include <cuda_runtime.h>

#include "morph-passes.h"
#include "morph-vhgw.cuh"

#define R2_THREADS 256
#define R2_WARPS (R2_THREADS / 32)
#define R2_CMAX 32
#define R2_SMEM_TARGET (64 * 1024)
#define R2_SMEM_TALL (100 * 1024)   /* two blocks per SM */
/* blocks per SM the registers must allow: small windows have small tiles
 * (up to 8 per SM by shared memory), larger chunks need r[C] registers */
#define R2_MIN_BLOCKS(c) ((c) <= 4 ? 8 : (c) <= 8 ? 6 : (c) <= 16 ? 5 : 3)

struct r2_args
{
  const uint8_t *src;
  uint8_t *dst;
  size_t spitch, dpitch;
  int width, height;
  int fx, fy, w, h;             /* window: x + fx .. x + fx + w - 1       */
  int tw, th;                   /* output tile; multiples of C            */
  int iw, ih;                   /* staged input tile                      */
  int slab;                     /* rows of in: staged and filtered at once */
  int sin, sh;                  /* row strides (samples) of in and H      */
  int wshift;                   /* log2 (words per tile row)              */
  int dst_aligned;              /* destination rows allow word stores     */
  int src_aligned;              /* source rows allow word loads           */
  int border;                   /* REPLICATE, REFLECT, MIRROR, CONSTANT   */
  uint32_t cval;
};

/* samples along a row (stride 1) or a column (stride s) of a tile */
template <typename Pix>
struct r2_reader
{
  const Pix *p;
  int s;
  __device__ __forceinline__ uint32_t operator () (int t) const
  {
    return p[t * s];
  }
};

template <typename Pix>
struct r2_h_emitter
{
  Pix *p;
  __device__ __forceinline__ void operator () (int i, uint32_t v)
  {
    p[i] = (Pix) v;
  }
};

/* one word of packed samples per output row */
template <typename Pix>
struct r2_v_emitter
{
  uint8_t *p;                   /* destination word of the chunk's row 0  */
  size_t pitch;
  int rows;                     /* rows left in the image                 */
  int n;                        /* samples of the word inside the image   */
  bool word;                    /* one aligned 4-byte store               */
  __device__ __forceinline__ void operator () (int i, uint32_t v)
  {
    if (i >= rows)
      return;
    uint8_t *d = p + (size_t) i * pitch;
    if (word) {
      *(uint32_t *) d = v;
      return;
    }
    for (int k = 0; k < n; k++)
      ((Pix *) d)[k] = (Pix) (v >> (8 * sizeof (Pix) * k));
  }
};

/* Staged row r < n: samples x = xs .. xs + iw - 1 of image row ys + r */
template <typename Pix>
static __device__ __forceinline__ void
r2_stage_border (Pix * in, const r2_args & a, int xs, int ys, int n)
{
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  for (int r = warp; r < n; r += R2_WARPS) {
    Pix *d = in + (size_t) r * a.sin;
    int y = ys + r;
    const bool rout = y < 0 || y >= a.height;

    if (rout && a.border == CM_BORDER_CONSTANT) {
      for (int c = lane; c < a.iw; c += 32)
        d[c] = (Pix) a.cval;
      continue;
    }
    if (rout)
      y = cm_border_map ((cm_border_mode) a.border, y, a.height);
    const Pix *row = (const Pix *) (a.src + (size_t) y * a.spitch);
    for (int c = lane; c < a.iw; c += 32) {
      int x = xs + c;
      if (x < 0 || x >= a.width) {
        if (a.border == CM_BORDER_CONSTANT) {
          d[c] = (Pix) a.cval;
          continue;
        }
        x = cm_border_map ((cm_border_mode) a.border, x, a.width);
      }
      d[c] = row[x];
    }
  }
}

/* Op: on one sample (horizontal stage); OpW: on a word of packed samples
 * (vertical stage) */
template <typename Pix, int C, class Op, class OpW>
static __global__ void __launch_bounds__ (R2_THREADS, R2_MIN_BLOCKS (C))
rect2d_kernel (const __grid_constant__ r2_args a)
{
  extern __shared__ __align__ (16) uint8_t r2_smem[];
  Pix *in = (Pix *) r2_smem;
  Pix *hb = in + (size_t) a.slab * a.sin;
  const int tid = threadIdx.x;
  const int lane = tid % 32, warp = tid / 32;
  const int x0 = (int) blockIdx.x * a.tw, y0 = (int) blockIdx.y * a.th;
  const int xs = x0 + a.fx, ys = y0 + a.fy;

  /* 1 and 2, by slabs of a.slab staged rows (all of them unless the
   * tile is tall: then only H is kept whole). */
  const int per = 4 / (int) sizeof (Pix);
  const int xa = xs & ~(per - 1);
  const int nw = (xs + a.iw - xa + per - 1) / per;
  for (int s0 = 0; s0 < a.ih; s0 += a.slab) {
    const int n = min (a.slab, a.ih - s0);
    const int ys0 = ys + s0;
    const bool rows_in = ys0 >= 0 && ys0 + n <= a.height;
    int skip = 0;

    /* 1. stage rows s0 .. s0 + n - 1. Inside the image (most tiles):
     * aligned 4-byte words copied as they are, the staged row then
     * starting `skip` samples before xs (not for a one-column window,
     * whose vertical stage reads whole words of the staged tile); else
     * sample by sample. */
    if (rows_in && xs >= 0 && a.src_aligned && xa + nw * per <= a.width &&
        (a.w > 1 || xa == xs)) {
      const uint8_t *base = a.src + (size_t) ys0 * a.spitch +
          (size_t) xa * sizeof (Pix);
      skip = xs - xa;
#pragma unroll 4
      for (int r = warp; r < n; r += R2_WARPS) {
        const uint32_t *row =
            (const uint32_t *) (base + (size_t) r * a.spitch);
        uint32_t *d = (uint32_t *) (in + (size_t) r * a.sin);
        for (int k = lane; k < nw; k += 32)
          d[k] = row[k];
      }
    } else if (rows_in && xs >= 0 && xs + a.iw <= a.width) {
      const uint8_t *base = a.src + (size_t) ys0 * a.spitch +
          (size_t) xs * sizeof (Pix);
#pragma unroll 4
      for (int r = warp; r < n; r += R2_WARPS) {
        const Pix *row = (const Pix *) (base + (size_t) r * a.spitch);
        Pix *d = in + (size_t) r * a.sin;
        for (int c = lane; c < a.iw; c += 32)
          d[c] = row[c];
      }
    } else {
      r2_stage_border<Pix> (in, a, xs, ys0, n);
    }
    __syncthreads ();

    /* 2. horizontal: n rows x tw / C chunks, lanes on neighbouring rows
     * (unit u = q * n + r, stepped without a division per unit) */
    if (a.w > 1) {
      const int units = n * (a.tw / C);
      const int sq = R2_THREADS / n, sr = R2_THREADS % n;
      int r = tid % n, q = tid / n;
      for (int u = tid; u < units; u += R2_THREADS) {
        r2_reader<Pix> rd = { in + (size_t) r * a.sin + skip + q * C, 1 };
        r2_h_emitter<Pix> em = { hb + (size_t) (s0 + r) * a.sh + q * C };
        vhgw_chunk<C, Op> (rd, a.w, em);
        r += sr;
        q += sq;
        if (r >= n) {
          r -= n;
          q++;
        }
      }
      __syncthreads ();         /* before the next slab overwrites in */
    }
  }
  const Pix *hs = a.w > 1 ? hb : in;
  const int hstride = a.w > 1 ? a.sh : a.sin;

  /* 3. vertical: tw columns x th / C chunks, lanes on neighbouring
   * columns; no barrier below */
  const int cols = min (a.tw, a.width - x0);
  const int rows = min (a.th, a.height - y0);
  uint8_t *dbase = a.dst + (size_t) y0 * a.dpitch + (size_t) x0 * sizeof (Pix);
  const int wstride = hstride / per;
  const uint32_t *hw = (const uint32_t *) hs;
  if (a.h == 1) {
    /* a row: H is the result, copied out a word per lane */
    const int nwc = (cols + per - 1) / per;
    for (int r = warp; r < rows; r += R2_WARPS) {
      for (int cw = lane; cw < nwc; cw += 32) {
        const int c = cw * per;
        r2_v_emitter<Pix> em = { dbase + (size_t) r * a.dpitch +
              (size_t) c * sizeof (Pix), 0, 1, min (per, cols - c),
          a.dst_aligned && c + per <= cols
        };
        em (0, hw[(size_t) r * wstride + cw]);
      }
    }
    return;
  }
  const int wmask = (1 << a.wshift) - 1;
  const int units = ((rows + C - 1) / C) << a.wshift;
  for (int u = tid; u < units; u += R2_THREADS) {
    const int cw = u & wmask, q = u >> a.wshift;
    const int c = cw * per;
    if (c >= cols)
      continue;
    r2_reader<uint32_t> rd = { hw + (size_t) q * C * wstride + cw, wstride };
    r2_v_emitter<Pix> em = { dbase + (size_t) q * C * a.dpitch +
          (size_t) c * sizeof (Pix), a.dpitch, rows - q * C,
      min (per, cols - c), a.dst_aligned && c + per <= cols
    };
    vhgw_chunk<C, OpW> (rd, a.h, em);
  }
}

/* ---- host side ---------------------------------------------------------- */

typedef void (*r2_kernel) (const r2_args);

template <typename Pix, class Op, class OpW>
static r2_kernel
r2_kernel_for_op (int c)
{
  switch (c) {
    case 1:
      return rect2d_kernel<Pix, 1, Op, OpW>;
    case 2:
      return rect2d_kernel<Pix, 2, Op, OpW>;
    case 4:
      return rect2d_kernel<Pix, 4, Op, OpW>;
    case 8:
      return rect2d_kernel<Pix, 8, Op, OpW>;
    case 16:
      return rect2d_kernel<Pix, 16, Op, OpW>;
    default:
      return rect2d_kernel<Pix, 32, Op, OpW>;
  }
}

static r2_kernel
r2_kernel_for (cm_depth depth, int is_min, int c)
{
  if (depth == CM_DEPTH_16)
    return is_min ? r2_kernel_for_op<uint16_t, op_min1, op_min2> (c)
        : r2_kernel_for_op<uint16_t, op_max1, op_max2> (c);
  return is_min ? r2_kernel_for_op<uint8_t, op_min1, op_min4> (c)
      : r2_kernel_for_op<uint8_t, op_max1, op_max4> (c);
}

typedef struct
{
  int c, tw, th, iw, ih, sin, sh;
  int slab;                     /* staged rows held at once (w > 1)       */
  size_t bytes;
} r2_geometry;

/* Smallest stride >= n whose row is an odd number of 4-byte words, so
 * that lanes on neighbouring rows hit distinct banks. */
static int
r2_stride (int n, int bps)
{
  int per = 4 / bps;            /* samples per word */
  int s = (n + per - 1) / per;
  if (s % 2 == 0)
    s++;
  return s * per;
}

static void
r2_measure (r2_geometry * g, int w, int h, int bps)
{
  g->iw = g->tw + w - 1;
  g->ih = h > 1 ? g->th + h - 1 : g->th;
  /* word staging may start up to 3 samples early and end in a word */
  g->sin = r2_stride (g->iw + 6, bps);
  g->sh = w > 1 ? r2_stride (g->tw, bps) : 0;
  /* without a horizontal stage the staged tile is H: all rows */
  g->slab = w > 1 ? min (g->slab, g->ih) : g->ih;
  g->bytes = ((size_t) g->slab * g->sin + (size_t) g->ih * g->sh) *
      (size_t) bps;
}

/* Tile for a w x h rectangle within smem_max bytes; 0 if none fits. */
static int
r2_plan (r2_geometry * g, int w, int h, cm_depth depth, int smem_max)
{
  const int bps = cm_depth_bytes (depth);
  int lmin = 1 << 30;

  if (w > 1)
    lmin = w;
  if (h > 1 && h < lmin)
    lmin = h;
  g->c = 1;
  while (g->c * 2 <= lmin && g->c * 2 <= R2_CMAX)
    g->c *= 2;
  if (h == 1 || (w <= 64 && h <= 64)) {
    /* a row: wide tiles (the halo is horizontal only); else 128 columns
     * and as many rows as the halo calls for; the whole input tile
     * staged at once */
    g->tw = h == 1 ? 256 : 128;
    g->th = h <= 16 ? 64 : 128;
    g->slab = 1 << 30;
    r2_measure (g, w, h, bps);
    while (g->bytes > R2_SMEM_TARGET && g->th > 32) {
      g->th /= 2;
      r2_measure (g, w, h, bps);
    }
  } else {
    /* large: tall narrow tiles so that the vertical halo h - 1 is paid
     * on few rows, the input staged by slabs of 128 rows (one chunk per
     * thread and slab) while H is kept whole */
    g->tw = 64;
    g->th = 512;
    g->slab = 128;
    r2_measure (g, w, h, bps);
    while (g->bytes > R2_SMEM_TALL && g->th > 32) {
      g->th /= 2;
      r2_measure (g, w, h, bps);
    }
  }
  while (g->bytes > (size_t) smem_max && g->tw > 32) {
    g->tw /= 2;
    r2_measure (g, w, h, bps);
  }
  while (g->bytes > (size_t) smem_max && w > 1 && g->slab > 32) {
    g->slab /= 2;
    r2_measure (g, w, h, bps);
  }
  return g->bytes <= (size_t) smem_max;
}

/* Tall tiles: a few hundred blocks of two or three per SM, so a last
 * partial wave can cost as much as a full one. Taller tiles (up to 256
 * rows more) that fit the frame in fewer waves are taken when the waves
 * times the staged rows per block (the block's time) come out smaller. */
static void
r2_balance (r2_geometry * g, int w, int h, cm_depth depth, int smem_max,
    int width, int height)
{
  const int bps = cm_depth_bytes (depth);
  const int strips = (width + g->tw - 1) / g->tw;
  const int regs_blocks = R2_MIN_BLOCKS (g->c);
  r2_geometry best = *g, t = *g;
  double best_cost = -1;
  int dev, sms, smem_sm;

  if (g->slab >= g->ih || cudaGetDevice (&dev) != cudaSuccess ||
      cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev)
      != cudaSuccess || cudaDeviceGetAttribute (&smem_sm,
          cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev) != cudaSuccess) {
    (void) cudaGetLastError ();
    return;                     /* whole tiles, or no device data */
  }
  for (int th = g->th; th <= g->th + 256; th += 32) {
    long blocks, slots, per_sm;
    double cost;

    t.th = th;
    r2_measure (&t, w, h, bps);
    if (th > g->th && (t.bytes > R2_SMEM_TALL || t.bytes > (size_t) smem_max))
      break;
    per_sm = (long) smem_sm / (long) (t.bytes + 1024);
    per_sm = per_sm < regs_blocks ? per_sm : regs_blocks;
    per_sm = per_sm > 0 ? per_sm : 1;
    blocks = (long) strips * ((height + th - 1) / th);
    slots = (long) sms * per_sm;
    cost = (double) ((blocks + slots - 1) / slots) * t.ih;
    if (best_cost < 0 || cost < best_cost) {
      best_cost = cost;
      best = t;
    }
  }
  *g = best;
}

static int
r2_smem_max (int *out)
{
  int dev;
  cudaError_t e = cudaGetDevice (&dev);

  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute (out, cudaDevAttrMaxSharedMemoryPerBlockOptin,
        dev);
  if (e != cudaSuccess) {
    (void) cudaGetLastError ();
    return 0;
  }
  if (cm_vhgw_tile_limit () > 0 && cm_vhgw_tile_limit () < *out)
    *out = cm_vhgw_tile_limit ();
  return 1;
}

int
cm_rect2d_supported (int w, int h, cm_depth depth)
{
  return cm_rect2d_staged_percent (w, h, depth) > 0;
}

int
cm_rect2d_staged_percent (int w, int h, cm_depth depth)
{
  r2_geometry g;
  int smem_max;

  if (w < 1 || h < 1 || w > (1 << 16) || h > (1 << 16) ||
      !r2_smem_max (&smem_max) || !r2_plan (&g, w, h, depth, smem_max))
    return 0;
  return (int) (100.0 * g.iw * g.ih / ((double) g.tw * g.th) + 0.5);
}

static int
r2_image_ok (const cm_image * img)
{
  return img && img->data && img->width >= 1 && img->height >= 1 &&
      (img->depth == CM_DEPTH_8 || img->depth == CM_DEPTH_16) &&
      img->pitch >= (size_t) img->width * cm_depth_bytes (img->depth) &&
      (img->depth == CM_DEPTH_8 ||
      (((uintptr_t) img->data | img->pitch) & 1) == 0);
}

cudaError_t
cm_rect2d_pass (const cm_image * src, const cm_image * dst,
    const cm_rect * rect, int is_min, cm_border_mode border,
    uint32_t border_value, cudaStream_t stream)
{
  r2_geometry g;
  r2_args a;
  r2_kernel k;
  dim3 grid;
  int smem_max;
  uint32_t maxv;

  if (!r2_image_ok (src) || !r2_image_ok (dst) || !rect)
    return cudaErrorInvalidValue;
  if (src->width != dst->width || src->height != dst->height ||
      src->depth != dst->depth || rect->w < 1 || rect->h < 1 ||
      (int) border < 0 || (int) border >= CM_BORDER_MODE_COUNT)
    return cudaErrorInvalidValue;
  if (!r2_smem_max (&smem_max))
    return cudaErrorInvalidDevice;
  if (!r2_plan (&g, rect->w, rect->h, src->depth, smem_max))
    return cudaErrorInvalidValue;
  r2_balance (&g, rect->w, rect->h, src->depth, smem_max, src->width,
      src->height);

  maxv = cm_depth_max (src->depth);
  if (border == CM_BORDER_NEUTRAL) {
    border = CM_BORDER_CONSTANT;
    border_value = is_min ? maxv : 0;
  }
  pass_set_views (a, src, dst);
  a.fx = rect->x;
  a.fy = rect->y;
  a.w = rect->w;
  a.h = rect->h;
  a.tw = g.tw;
  a.th = g.th;
  a.iw = g.iw;
  a.ih = g.ih;
  a.slab = g.slab;
  a.sin = g.sin;
  a.sh = g.sh;
  a.border = (int) border;
  a.cval = border_value < maxv ? border_value : maxv;
  a.wshift = 0;
  while ((1 << a.wshift) < g.tw * cm_depth_bytes (src->depth) / 4)
    a.wshift++;
  a.dst_aligned = (((uintptr_t) dst->data | (uintptr_t) dst->pitch) & 3) == 0;
  a.src_aligned = (((uintptr_t) src->data | (uintptr_t) src->pitch) & 3) == 0;

  grid = dim3 ((unsigned) ((a.width + g.tw - 1) / g.tw),
      (unsigned) ((a.height + g.th - 1) / g.th));
  if (grid.y > 65535u)
    return cudaErrorInvalidValue;
  k = r2_kernel_for (src->depth, is_min, g.c);
  if (g.bytes > 48 * 1024) {
    cudaError_t e = cudaFuncSetAttribute ((const void *) k,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) g.bytes);
    if (e != cudaSuccess)
      return e;
  }
  k <<< grid, R2_THREADS, g.bytes, stream >>> (a);
  return cudaGetLastError ();
}
