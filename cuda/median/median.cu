/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CUDA plans of the median / rank filters (median.h): argument checks,
 * algorithm choice and launches, plus the luminance-based colour median
 * of Szántó & Fehér (paper 001, section 4):
 *
 *  1. the luminance plane Y = (77 r + 150 g + 29 b) >> 8 (one kernel);
 *  2. Y* = rank k of Y over the window, by the plan's own grey algorithm
 *     (networks, median-net*.cu: paper 001 section 3.3 and Adams 2021;
 *     or sliding histograms, median-hist.cu: paper 001 section 3.6 and
 *     Perreault & Hébert 2007);
 *  3. per output, the winner: with `less` window samples below Y*, the
 *     (k - less)-th sample equal to Y* in window raster order (the order
 *     of the key (Y, window index) of median.h), whose colour is copied
 *     ("complete search" of the paper, two passes over the window).
 *
 * Algorithm choice (CM_MEDIAN_AUTO): a single sample is a copy; square
 * windows of side up to MED_AUTO_NET_SIDE_8 (8-bit) / _16 (16-bit) at the
 * median, minimum or maximum rank use the shared-work selection networks;
 * other windows of up to MED_AUTO_SORT_N_8 / _16 samples one sorting
 * network per output; everything else the sliding histograms. The limits
 * follow the H100 measurements of tests/bench/bench-median (the networks
 * several times faster than the sliding histograms up to 11x11) and the
 * instruction counts of the 13x13 and 15x15 networks; figures in
 * docs/bench/history.md (Median); re-measure when a kernel changes.
 *
 * The 3 x 3 median, minimum and maximum stream (median-stream3.cu), with
 * the shared-memory network of median-net3.cu as the fallback for rows
 * that are not 16-byte aligned; the 16-bit sliding histogram is the walk
 * kernel (median-hist16.cu) with a band of 8 high bytes. Tests and
 * benchmarks pick the other variants through cm_median_tuning
 * (cm_median_plan_new_tuned): the 3 x 3 network on every image, a band
 * of 16. */
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "median.h"
#include "cm-cuda.h"
#include "device.h"
#include "median-impl.cuh"

#define MED_AUTO_NET_SIDE_8 15
#define MED_AUTO_NET_SIDE_16 15
#define MED_AUTO_SORT_N_8 16
#define MED_AUTO_SORT_N_16 32

enum med_alg
{
  MED_ALG_COPY,
  MED_ALG_NET_TILE,
  MED_ALG_STREAM3,
  MED_ALG_NET_SORT,
  MED_ALG_HIST
};

struct cm_median_plan
{
  cm_median_desc desc;
  int width, height;
  cm_depth depth;
  int n, k;
  enum med_alg alg;
  int side, variant;            /* MED_ALG_NET_TILE                       */
  int narrow;                   /* MED_ALG_NET_TILE, its STREAM3 fallback */
  int nmax;                     /* MED_ALG_NET_SORT                       */
  cm_median_tuning tuning;      /* the variants asked for                 */
  struct med_hist_config hist;  /* MED_ALG_HIST                           */
  const char *name;
  /* luma scratch: luminance and its rank plane (plan depth) */
  void *yplane, *ystar;
  size_t ypitch, yspitch;
};

/* ---- algorithm choice --------------------------------------------------- */

int
med_net_tile_available (int side)
{
  return side >= 3 && side <= 15 && side % 2 == 1;
}

cudaError_t
med_net_tile_launch (int side, int variant, int narrow, const med_args *a,
    cudaStream_t stream)
{
  /* by (side - 3) / 2 */
  static med_net_launch_fn *const launch[] = {
    med_net3_launch, med_net5_launch, med_net7_launch, med_net9_launch,
    med_net11_launch, med_net13_launch, med_net15_launch
  };

  if (!med_net_tile_available (side))
    return cudaErrorInvalidValue;
  return launch[(side - 3) / 2] (variant, narrow, a, stream);
}

#define TILE_NAMES(S, SUFFIX) \
    {"network-" S "-min" SUFFIX, "network-" S SUFFIX, "network-" S "-max" SUFFIX}
#define TILE_SIDES(SUFFIX) { TILE_NAMES ("3x3", SUFFIX), \
      TILE_NAMES ("5x5", SUFFIX), TILE_NAMES ("7x7", SUFFIX), \
      TILE_NAMES ("9x9", SUFFIX), TILE_NAMES ("11x11", SUFFIX), \
      TILE_NAMES ("13x13", SUFFIX), TILE_NAMES ("15x15", SUFFIX) }

/* e.g. "network-5x5-narrow": the 5 x 5 median, narrow tiles */
static const char *
tile_name (int side, int variant, int narrow)
{
  static const char *names[2][7][3] = { TILE_SIDES (""),
    TILE_SIDES ("-narrow")
  };
  return names[narrow][(side - 3) / 2][variant];
}

/* Small frames: wide tiles (64 rows of 64 outputs for 16 a thread) that
 * would not give every SM two blocks leave most of the device idle, and
 * a block's time is one thread's long network; narrow tiles cut it, and
 * beat the 3 x 3 stream there too (5 x 5 at 512 x 512 on an H100: 12.2 us
 * wide, 6.8 narrow; docs/bench/history.md, "Median networks on small
 * frames: narrow tiles").
 * Sides of 13 and 15 are narrow already. */
static int
tile_narrow (const cm_median_plan *p, int side)
{
  int sms = 0, ow;
  long blocks;

  if (p->tuning.network_tiles != CM_MEDIAN_TILES_AUTO)
    return p->tuning.network_tiles == CM_MEDIAN_TILES_NARROW;
  if (side >= 13)
    return 0;
  if (cm_device_attribute (cudaDevAttrMultiProcessorCount, &sms) !=
      cudaSuccess) {
    (void) cudaGetLastError ();         /* its own error: the wide tiles */
    return 0;
  }
  ow = 4 * (side == 11 ? 8 : 16);       /* 4 warps of the side's own TX */
  blocks = (long) ((p->width + ow - 1) / ow) * ((p->height + 63) / 64);
  return blocks < 2L * sms;
}

static const char *
sort_name (int nmax)
{
  return nmax == 16 ? "network-sort-16" : nmax == 32 ? "network-sort-32" :
      "network-sort-64";
}

static cm_status
choose (cm_median_plan *p)
{
  const cm_median_desc *d = &p->desc;
  const int is16 = p->depth == CM_DEPTH_16;
  int variant = -1, tile_ok, nmax;

  if (p->n == 1) {
    p->alg = MED_ALG_COPY;
    p->name = "copy";
    return CM_OK;
  }
  if (p->k == 0)
    variant = MED_NET_MIN;
  else if (p->k == p->n - 1)
    variant = MED_NET_MAX;
  else if (p->k == (p->n - 1) / 2)
    variant = MED_NET_MEDIAN;
  tile_ok = variant >= 0 && d->window_w == d->window_h &&
      med_net_tile_available (d->window_w);
  nmax = med_net_sort_size (p->n);

  switch (d->algorithm) {
    case CM_MEDIAN_NETWORK:
      if (tile_ok)
        goto tile;
      if (nmax)
        goto sort;
      return CM_ERR_UNSUPPORTED;
    case CM_MEDIAN_HISTOGRAM:
      goto hist;
    default:
      if (tile_ok && d->window_w <= (is16 ? MED_AUTO_NET_SIDE_16 :
              MED_AUTO_NET_SIDE_8))
        goto tile;
      if (nmax && p->n <= (is16 ? MED_AUTO_SORT_N_16 : MED_AUTO_SORT_N_8))
        goto sort;
      goto hist;
  }

tile:
  p->alg = MED_ALG_NET_TILE;
  p->side = d->window_w;
  p->variant = variant;
  p->narrow = tile_narrow (p, p->side);
  p->name = tile_name (p->side, variant, p->narrow);
  /* small frames: the narrow network beats the stream's 8-row strips */
  if (p->side == 3 && !p->tuning.network3_shared && !p->narrow) {
    static const char *names[3] = { "network-3x3-min-stream",
      "network-3x3-stream", "network-3x3-max-stream"
    };
    p->alg = MED_ALG_STREAM3;
    p->name = names[variant];
  }
  return CM_OK;
sort:
  p->alg = MED_ALG_NET_SORT;
  p->nmax = nmax;
  p->name = sort_name (nmax);
  return CM_OK;
hist:
  p->alg = MED_ALG_HIST;
  p->name = !is16 ? "histogram-8" : p->tuning.hist16_band == 16 ?
      "histogram-16-walk-b16" : "histogram-16-walk";
  return CM_OK;
}

/* med_args of the plan for src -> dst (planes of the plan's size) */
static med_args
plan_args (const cm_median_plan *p, const void *src, size_t spitch,
    void *dst, size_t dpitch)
{
  med_args a;
  uint32_t maxv = cm_depth_max (p->depth);

  memset (&a, 0, sizeof (a));
  a.src = (const uint8_t *) src;
  a.dst = (uint8_t *) dst;
  a.src_pitch = spitch;
  a.dst_pitch = dpitch;
  a.width = p->width;
  a.height = p->height;
  a.bpp = cm_depth_bytes (p->depth);
  a.border = p->desc.border == CM_BORDER_NEUTRAL ? CM_BORDER_REPLICATE :
      (int) p->desc.border;
  a.cval = p->desc.border_value < maxv ? p->desc.border_value : maxv;
  a.k = p->k;
  a.ww = p->desc.window_w;
  a.wh = p->desc.window_h;
  a.dst_aligned4 = ((uintptr_t) dst % 4 == 0) && (dpitch % 4 == 0);
  a.src_aligned4 = ((uintptr_t) src % 4 == 0) && (spitch % 4 == 0);
  return a;
}

/* ---- plans ---------------------------------------------------------------- */

extern "C" cm_status
cm_median_plan_new (cm_median_plan **out, const cm_median_desc *desc,
    int width, int height, cm_depth depth)
{
  return cm_median_plan_new_tuned (out, desc, width, height, depth, NULL);
}

extern "C" cm_status
cm_median_plan_new_tuned (cm_median_plan **out, const cm_median_desc *desc,
    int width, int height, cm_depth depth, const cm_median_tuning *tuning)
{
  cm_median_plan *p;
  cm_status st;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  if (cm_median_desc_check (desc) != CM_OK ||
      !cm_frame_ok (width, height, depth))
    return CM_ERR_INVALID_ARG;
  if (tuning && ((tuning->hist16_band != 0 && tuning->hist16_band != 8 &&
              tuning->hist16_band != 16) || tuning->network_tiles < 0 ||
          tuning->network_tiles > CM_MEDIAN_TILES_NARROW))
    return CM_ERR_INVALID_ARG;

  p = cm_plan_alloc<cm_median_plan> (desc, width, height, depth);
  if (!p)
    return CM_ERR_NO_MEMORY;
  p->n = desc->window_w * desc->window_h;
  p->k = cm_median_rank (desc);
  if (tuning)
    p->tuning = *tuning;
  if (p->tuning.hist16_band == 0)
    p->tuning.hist16_band = 8;

  st = choose (p);
  if (st == CM_OK && p->alg == MED_ALG_HIST) {
    med_args a = plan_args (p, NULL, 0, NULL, 0);
    p->hist.band16 = p->tuning.hist16_band;
    st = cm_cuda_status (med_hist_configure (&a, &p->hist));
  }
  if (st == CM_OK && (desc->plan_flags & CM_MEDIAN_PLAN_LUMA)) {
    size_t row = (size_t) width * cm_depth_bytes (depth);
    st = cm_cuda_status (cudaMallocPitch (&p->yplane, &p->ypitch, row,
            (size_t) height));
    if (st == CM_OK)
      st = cm_cuda_status (cudaMallocPitch (&p->ystar, &p->yspitch, row,
              (size_t) height));
  }
  if (st != CM_OK) {
    cm_median_plan_free (p);
    return st;
  }
  *out = p;
  return CM_OK;
}

extern "C" void
cm_median_plan_free (cm_median_plan *plan)
{
  if (!plan)
    return;
  if (plan->yplane)
    (void) cm_cuda_status (cudaFree (plan->yplane));
  if (plan->ystar)
    (void) cm_cuda_status (cudaFree (plan->ystar));
  free (plan);
}

extern "C" const char *
cm_median_plan_algorithm (const cm_median_plan *plan)
{
  return plan ? plan->name : "none";
}

/* Grey rank filter of the plan between device planes */
static cm_status
run_plane (const cm_median_plan *p, const void *src, size_t spitch,
    void *dst, size_t dpitch, cudaStream_t stream)
{
  med_args a = plan_args (p, src, spitch, dst, dpitch);

  switch (p->alg) {
    case MED_ALG_COPY:
      return cm_copy_2d_async (dst, dpitch, src, spitch,
          (size_t) p->width * a.bpp, p->height, CM_COPY_D2D, stream);
    case MED_ALG_NET_TILE:
      return cm_cuda_status (med_net_tile_launch (p->side, p->variant,
              p->narrow, &a, stream));
    case MED_ALG_STREAM3:
      if (med_s3_supported (&a))
        return cm_cuda_status (med_s3_launch (p->variant, &a, stream));
      return cm_cuda_status (med_net_tile_launch (3, p->variant, p->narrow,
              &a, stream));
    case MED_ALG_NET_SORT:
      return cm_cuda_status (med_net_sort_launch (p->nmax, &a, stream));
    default:
      return cm_cuda_status (med_hist_launch (&a, &p->hist, stream));
  }
}

/* a device image of the plan's size and depth, pitch and data aligned to
 * the sample */
static int
plane_ok (const cm_median_plan *p, const cm_image *img)
{
  const size_t bpp = (size_t) cm_depth_bytes (p->depth);

  return img && img->data && img->width == p->width &&
      img->height == p->height && img->depth == p->depth &&
      img->pitch >= (size_t) p->width * bpp && img->pitch % bpp == 0 &&
      (uintptr_t) img->data % bpp == 0;
}

extern "C" cm_status
cm_median_plan_run (cm_median_plan *plan, const cm_image *src,
    const cm_image *dst, void *stream)
{
  size_t row;

  if (!plan || !plane_ok (plan, src) || !plane_ok (plan, dst))
    return CM_ERR_INVALID_ARG;
  row = (size_t) plan->width * cm_depth_bytes (plan->depth);
  if (cm_ranges_overlap (src->data, cm_view_span (src->pitch, plan->height,
              row), dst->data, cm_view_span (dst->pitch, plan->height, row)))
    return CM_ERR_INVALID_ARG;
  return run_plane (plan, src->data, src->pitch, dst->data, dst->pitch,
      (cudaStream_t) stream);
}

/* ---- luma mode ------------------------------------------------------------ */

struct med_luma_args
{
  const uint8_t *src;           /* interleaved source                     */
  uint8_t *dst;
  size_t src_pitch, dst_pitch;
  const uint8_t *y, *ystar;     /* luminance and its rank-k planes        */
  size_t ypitch, yspitch;
  int width, height, bpp, ch;
  int r, g, b, alpha;
  int border;
  uint32_t cval;
  int k, ww, wh;
};

static __device__ __forceinline__ uint32_t
med_channel (const uint8_t *row, int x, int ch, int c, int bpp)
{
  return med_load (row, x * ch + c, bpp);
}

__global__ void
med_luma_y_kernel (med_luma_args l)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= l.width || y >= l.height)
    return;
  const uint8_t *row = l.src + (size_t) y * l.src_pitch;
  uint32_t r = med_channel (row, x, l.ch, l.r, l.bpp);
  uint32_t g = med_channel (row, x, l.ch, l.g, l.bpp);
  uint32_t b = med_channel (row, x, l.ch, l.b, l.bpp);
  med_store ((uint8_t *) l.y + (size_t) y * l.ypitch, x, l.bpp,
      (77u * r + 150u * g + 29u * b) >> 8);
}

/* Luminance of the window sample at virtual (vx, vy) */
static __device__ __forceinline__ uint32_t
med_luma_at (const med_luma_args &l, int vx, int vy)
{
  return med_fetch (l.y, l.ypitch, l.width, l.height, l.bpp, l.border,
      l.cval, vx, vy);
}

__global__ void
med_luma_pick_kernel (med_luma_args l)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int rx = l.ww / 2, ry = l.wh / 2;

  if (x >= l.width || y >= l.height)
    return;
  const uint32_t ys = med_load (l.ystar + (size_t) y * l.yspitch, x, l.bpp);

  const bool inside = x - rx >= 0 && x + rx < l.width && y - ry >= 0 &&
      y + ry < l.height;
  int less = 0, want, wx = x, wy = y;

  if (inside) {
    /* samples below Y*, then the (k - less)-th equal to Y* in raster
     * order, straight from the rows */
    for (int dy = -ry; dy <= ry; dy++) {
      const uint8_t *row = l.y + (size_t) (y + dy) * l.ypitch;
      for (int dx = -rx; dx <= rx; dx++)
        less += med_load (row, x + dx, l.bpp) < ys;
    }
    want = l.k - less;
    for (int dy = -ry; dy <= ry && want >= 0; dy++) {
      const uint8_t *row = l.y + (size_t) (y + dy) * l.ypitch;
      for (int dx = -rx; dx <= rx; dx++)
        if (med_load (row, x + dx, l.bpp) == ys && want-- == 0) {
          wx = x + dx;
          wy = y + dy;
          break;
        }
    }
  } else {
    /* the same through the border rule */
    for (int dy = -ry; dy <= ry; dy++)
      for (int dx = -rx; dx <= rx; dx++)
        less += med_luma_at (l, x + dx, y + dy) < ys;
    want = l.k - less;
    for (int dy = -ry; dy <= ry && want >= 0; dy++)
      for (int dx = -rx; dx <= rx; dx++)
        if (med_luma_at (l, x + dx, y + dy) == ys && want-- == 0) {
          wx = x + dx;
          wy = y + dy;
          break;
        }
  }

  const int mx = med_border_index (l.border, wx, l.width);
  const int my = med_border_index (l.border, wy, l.height);
  const uint8_t *wrow = (mx | my) < 0 ? NULL :
      l.src + (size_t) my * l.src_pitch;
  const uint8_t *crow = l.src + (size_t) y * l.src_pitch;
  uint8_t *drow = l.dst + (size_t) y * l.dst_pitch;
  for (int c = 0; c < l.ch; c++) {
    uint32_t v;
    if (c == l.alpha)
      v = med_channel (crow, x, l.ch, c, l.bpp);
    else if (!wrow)
      v = l.cval;
    else
      v = med_channel (wrow, mx, l.ch, c, l.bpp);
    med_store (drow, x * l.ch + c, l.bpp, v);
  }
}

static int
packed_ok (const cm_median_plan *p, const cm_image_packed *img)
{
  const size_t bpp = (size_t) cm_depth_bytes (p->depth);

  return img && img->data && img->width == p->width &&
      img->height == p->height && img->depth == p->depth &&
      img->channels >= 3 && img->channels <= 4 &&
      img->pitch >= (size_t) p->width * img->channels * bpp &&
      img->pitch % bpp == 0 && (uintptr_t) img->data % bpp == 0;
}

extern "C" cm_status
cm_median_plan_run_luma (cm_median_plan *plan, const cm_image_packed *src,
    const cm_image_packed *dst, int r_idx, int g_idx, int b_idx, int a_idx,
    void *stream)
{
  cudaStream_t s = (cudaStream_t) stream;
  med_luma_args l;
  size_t row;
  cm_status st;

  if (!plan || !packed_ok (plan, src) || !packed_ok (plan, dst) ||
      src->channels != dst->channels)
    return CM_ERR_INVALID_ARG;
  if (!cm_channels_ok (src->channels, r_idx, g_idx, b_idx, a_idx))
    return CM_ERR_INVALID_ARG;
  row = (size_t) plan->width * src->channels * cm_depth_bytes (plan->depth);
  if (cm_ranges_overlap (src->data, cm_view_span (src->pitch, plan->height,
              row), dst->data, cm_view_span (dst->pitch, plan->height, row)))
    return CM_ERR_INVALID_ARG;
  if (!plan->yplane || !plan->ystar)
    return CM_ERR_INVALID_ARG;  /* plan made without CM_MEDIAN_PLAN_LUMA */

  if (plan->alg == MED_ALG_COPY)        /* the winner is the centre */
    return cm_copy_2d_async (dst->data, dst->pitch, src->data, src->pitch,
        row, plan->height, CM_COPY_D2D, s);

  memset (&l, 0, sizeof (l));
  l.src = (const uint8_t *) src->data;
  l.dst = (uint8_t *) dst->data;
  l.src_pitch = src->pitch;
  l.dst_pitch = dst->pitch;
  l.y = (const uint8_t *) plan->yplane;
  l.ystar = (const uint8_t *) plan->ystar;
  l.ypitch = plan->ypitch;
  l.yspitch = plan->yspitch;
  l.width = plan->width;
  l.height = plan->height;
  l.bpp = cm_depth_bytes (plan->depth);
  l.ch = src->channels;
  l.r = r_idx;
  l.g = g_idx;
  l.b = b_idx;
  l.alpha = a_idx;
  {
    med_args a = plan_args (plan, NULL, 0, NULL, 0);
    l.border = a.border;
    l.cval = a.cval;
  }
  l.k = plan->k;
  l.ww = plan->desc.window_w;
  l.wh = plan->desc.window_h;

  dim3 block (32, 8);
  dim3 grid ((unsigned) ((plan->width + 31) / 32),
      (unsigned) ((plan->height + 7) / 8));
  med_luma_y_kernel<<<grid, block, 0, s>>> (l);
  st = cm_cuda_status (cudaGetLastError ());
  if (st != CM_OK)
    return st;
  st = run_plane (plan, plan->yplane, plan->ypitch, plan->ystar,
      plan->yspitch, s);
  if (st != CM_OK)
    return st;
  med_luma_pick_kernel<<<grid, block, 0, s>>> (l);
  return cm_cuda_status (cudaGetLastError ());
}
