/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CUDA plan of the linear spectrum (linspectrum.h): the one place where
 * its kernels are chosen. Linear openings or closings in every orientation
 * of a descriptor after paper 000 (Karas, Morard, Bartovsky et al., JRTIP
 * 2015, sections 4-5), the kernels and their algorithm in
 * linspectrum-kernels.cu, the host tables in linspectrum-layout.cu, the
 * CPU twin in linspectrum-ref.c.
 *
 * What a plan chooses, once, from the descriptor, the device and the
 * tuning (cm_linspectrum_tuning, zero for the defaults):
 *  - the path: one orientation has its own (lin_single_kernel, the opening
 *    stored directly; up to LIN_SHEARED_MAX samples the sheared tile of
 *    linspectrum-sheared.cu instead), several orientations the general
 *    kernel (lin_kernel) and the finalisation of the packed words;
 *  - the general kernel's sink: the spectrum alone, or the supremum words
 *    read at each step, or read one chunk ahead (above L = 128);
 *  - warps per block (the most resident warps), the zones that split the
 *    lines (paper 000 section 5.4), the transposed input for shallow
 *    lines. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "linspectrum.h"
#include "cm-cuda.h"
#include "linspectrum-impl.cuh"
#include "linspectrum-sheared.h"

/* The longest segment of the sheared tile in one-orientation plans: the
 * tile beats the stream kernel up to here, at steep and shallow angles
 * alike; from L = 64 the tile takes C = 64 (twice the registers, and a
 * halo of 2 (L - 1) rows) and the stream kernel wins. Figures:
 * docs/bench/history.md (Linear spectrum; "Figures moved from code
 * comments (median, linear spectrum)"). */
#define LIN_SHEARED_MAX 63

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
  int items_major;              /* general kernel: items along grid.x    */
  char describe[224];
};

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

/* ---- plan creation, step by step --------------------------------------- */

/* The tuning's fields in their ranges (linspectrum.h) */
static int
lin_tuning_ok (const cm_linspectrum_tuning * t)
{
  return (t->warps_per_block == 0 || t->warps_per_block == 1 ||
      t->warps_per_block == 2 || t->warps_per_block == 4) &&
      t->zone_length >= 0 && t->sup_reads_ahead >= -1 &&
      t->sup_reads_ahead <= 1 && t->single_target >= 0 &&
      t->sheared_max >= -1 && t->sheared_tile >= 0;
}

/* Step 1: the path and the general kernel's sink */
static void
lin_choose_path (cm_linspectrum_plan * p, const cm_linspectrum_tuning * t)
{
  const cm_linspectrum_desc *desc = &p->desc;

  p->sup = desc->want_supremum || desc->want_orientation;
  p->items_major = t->items_major != 0;
  p->single = cm_linspectrum_count_angles (desc) == 1 && !t->general_kernel;
  /* The sink with reads ahead needs 96 registers: slower than the plain
   * sink up to L = 101, where the plain one keeps more warps resident,
   * and faster at L = 251, where the FIFOs already limit the resident
   * warps (docs/bench/history.md, Linear spectrum). */
  p->mode = !p->sup ? LIN_MODE_SPECTRUM :
      (t->sup_reads_ahead ? t->sup_reads_ahead > 0 : desc->length > 128) ?
      LIN_MODE_WORDS_PF : LIN_MODE_WORDS;
}

/* Step 2: warps per block and shared memory of the chosen kernel; *nb:
 * its resident blocks per multiprocessor */
static cm_status
lin_choose_blocks (cm_linspectrum_plan * p, const cm_linspectrum_tuning * t,
    int optin, int *nb)
{
  /* two FIFOs of L + 1 samples per lane (sentinel at L), 32 lanes per
   * warp */
  const size_t per_warp = (size_t) 2 * (p->desc.length + 1) * LIN_WARP *
      cm_depth_bytes (p->depth);
  const void *kfn;
  cudaError_t e;

  if (per_warp > (size_t) optin)
    return CM_ERR_UNSUPPORTED;
  /* The dynamic shared memory limit is a property of the kernel, not of
   * the launch: set it to the device's maximum once, so that plans of
   * different lengths never lower it under each other. */
  kfn = p->single ? lin_single_ptr (p->depth, p->desc.want_supremum)
      : lin_kernel_ptr (p->depth, p->mode);
  e = cudaFuncSetAttribute (kfn, cudaFuncAttributeMaxDynamicSharedMemorySize,
      optin);
  if (e != cudaSuccess)
    return cm_cuda_status (e);
  /* warps per block: the most resident warps per multiprocessor, the
   * larger block on ties (at L = 251, 8-bit, 2 warps per block fit 14
   * warps where 4 fit 12: each block also costs 1 KB of reserve) */
  p->wpb = 0;
  *nb = 0;
  for (int w = 1; w <= LIN_MAX_WPB; w *= 2) {
    int nbw = 0;

    if (t->warps_per_block > 0 && w != t->warps_per_block)
      continue;
    if ((size_t) w * per_warp > (size_t) optin)
      break;
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor (&nbw, kfn,
        w * LIN_WARP, (size_t) w * per_warp);
    if (e != cudaSuccess)
      return cm_cuda_status (e);
    if (nbw >= 1 && nbw * w >= *nb * p->wpb) {
      p->wpb = w;
      *nb = nbw;
    }
  }
  if (p->wpb < 1)
    return CM_ERR_UNSUPPORTED;
  p->smem = (size_t) p->wpb * per_warp;
  return CM_OK;
}

/* Step 3: the host tables, the zones and, for one orientation, its items
 * and the sheared tile. The tables stay in *lay, *h_lines, *h_items for
 * the upload; the caller frees them. */
static cm_status
lin_choose_zones (cm_linspectrum_plan * p, const cm_linspectrum_tuning * t,
    int sms, int nb, lin_layout * lay, int2 ** h_lines, int2 ** h_items)
{
  const cm_linspectrum_desc *desc = &p->desc;
  const int sheared_max = t->sheared_max < 0 ? 0 : t->sheared_max > 0 ?
      t->sheared_max : LIN_SHEARED_MAX;
  /* zones: aim at 16 warps per multiprocessor at most (the stream is
   * issue-bound beyond that; more zones only add overlap) */
  const long resident = (long) nb * p->wpb * sms;
  const long target = resident < 16L * sms ? resident : 16L * sms;
  long t1;
  cm_status st;

  st = lin_layout_build (lay, desc, p->width, p->height, target,
      t->zone_length);
  if (st != CM_OK || !p->single)
    return st;
  t1 = (long) (t->single_target > 0 ? t->single_target : 16) * sms;
  if (t1 > resident)
    t1 = resident;
  st = lin_single_tables (lay, (int) (t1 > 1 ? t1 : 1), t->zone_length,
      h_lines, h_items, &p->s_nitems, &lay->zlen);
  if (st != CM_OK)
    return st;
  p->s_nlines = lay->orient[0].nlines;
  p->s_span = lay->orient[0].src ? p->width : p->height;
  p->s_ext = lay->orient[0].src ? p->height : p->width;
  p->s_flip = lay->orient[0].flip;
  lay->max_items = p->s_nitems;
  /* the sheared tile (linspectrum-sheared.cu) up to sheared_max samples */
  if (desc->length <= sheared_max)
    st = lin_sheared_new (&p->sheared, lay->etab + lay->orient[0].etab,
        p->s_span, p->s_ext, p->s_flip, desc->length, p->depth,
        desc->want_supremum, t->sheared_tile);
  return st;
}

/* Step 4: the device buffers and the tables' upload */
static cudaError_t
lin_upload (cm_linspectrum_plan * p, const lin_layout * lay,
    const int2 * h_lines, const int2 * h_items)
{
  const int width = p->width, height = p->height;
  const int bpp = cm_depth_bytes (p->depth);
  cudaError_t e;

  e = cudaMalloc ((void **) &p->d_orient, sizeof (lin_orient) * lay->n);
  if (e == cudaSuccess)
    e = cudaMemcpy (p->d_orient, lay->orient, sizeof (lin_orient) * lay->n,
        cudaMemcpyHostToDevice);
  if (e == cudaSuccess)
    e = cudaMalloc ((void **) &p->d_etab, sizeof (int) * lay->etab_len);
  if (e == cudaSuccess)
    e = cudaMemcpy (p->d_etab, lay->etab, sizeof (int) * lay->etab_len,
        cudaMemcpyHostToDevice);
  if (e == cudaSuccess)
    e = cudaMalloc ((void **) &p->d_spec,
        sizeof (unsigned long long) * lay->n);
  if (e == cudaSuccess)
    e = cudaMallocHost ((void **) &p->h_spec, sizeof (uint64_t) * lay->n);
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
    if (e == cudaSuccess && p->any_shallow && p->desc.want_supremum)
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
  return e;
}

/* Step 5: the description (cm_linspectrum_plan_describe) */
static void
lin_describe (cm_linspectrum_plan * p)
{
  const cm_linspectrum_desc *desc = &p->desc;

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
}

extern "C" cm_status
cm_linspectrum_plan_new (cm_linspectrum_plan ** out,
    const cm_linspectrum_desc * desc, int width, int height, cm_depth depth)
{
  return cm_linspectrum_plan_new_tuned (out, desc, width, height, depth,
      NULL);
}

extern "C" cm_status
cm_linspectrum_plan_new_tuned (cm_linspectrum_plan ** out,
    const cm_linspectrum_desc * desc, int width, int height, cm_depth depth,
    const cm_linspectrum_tuning * tuning)
{
  static const cm_linspectrum_tuning defaults = { 0, 0, 0, 0, 0, 0, 0, 0 };
  const cm_linspectrum_tuning *t = tuning ? tuning : &defaults;
  cm_linspectrum_plan *p;
  lin_layout lay;
  cm_status st;
  cudaError_t e;
  int sms = 0, optin = 0, nb = 0;
  int2 *h_lines = NULL, *h_items = NULL;

  if (!out)
    return CM_ERR_INVALID_ARG;
  *out = NULL;
  st = cm_linspectrum_desc_check (desc);
  if (st != CM_OK)
    return st;
  if (!cm_frame_ok (width, height, depth) ||
      width > CM_LINSPECTRUM_MAX_SIZE || height > CM_LINSPECTRUM_MAX_SIZE ||
      !lin_tuning_ok (t))
    return CM_ERR_INVALID_ARG;

  e = cm_device_attribute (cudaDevAttrMultiProcessorCount, &sms);
  if (e == cudaSuccess)
    e = cm_device_attribute (cudaDevAttrMaxSharedMemoryPerBlockOptin, &optin);
  if (e != cudaSuccess)
    return cm_cuda_status (e);

  p = cm_plan_alloc<cm_linspectrum_plan> (desc, width, height, depth);
  if (!p)
    return CM_ERR_NO_MEMORY;
  memset (&lay, 0, sizeof (lay));

  lin_choose_path (p, t);
  st = lin_choose_blocks (p, t, optin, &nb);
  if (st == CM_OK)
    st = lin_choose_zones (p, t, sms, nb, &lay, &h_lines, &h_items);
  if (st == CM_OK) {
    p->n = lay.n;
    p->any_shallow = lay.any_shallow;
    p->any_steep = lay.any_steep;
    p->zlen = lay.zlen;
    p->max_items = lay.max_items;
    st = cm_cuda_status (lin_upload (p, &lay, h_lines, h_items));
  }
  lin_layout_clear (&lay);
  free (h_lines);
  free (h_items);
  if (st != CM_OK) {
    cm_linspectrum_plan_free (p);
    return st;
  }
  memset (p->h_spec, 0, sizeof (uint64_t) * p->n);
  lin_describe (p);
  *out = p;
  return CM_OK;
}

/* What the arguments of every kernel (lin_args, lin_sargs) take from the
 * plan alike: the spectrum, the line length and its origin, the zone
 * length, closing by inversion, the largest sample */
template <class Args>
static void
lin_line_args (Args * a, const cm_linspectrum_plan * plan)
{
  a->spectrum = plan->d_spec;
  a->L = plan->desc.length;
  a->o = plan->desc.length / 2;
  a->zlen = plan->zlen;
  a->invert = plan->desc.op == CM_MORPH_CLOSE;
  a->maxv = cm_depth_max (plan->depth);
}

static int
lin_view_ok (const cm_image * img, int w, int h, cm_depth depth)
{
  return cm_image_aligned_ok (img) && img->width == w && img->height == h &&
      img->depth == depth;
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
  a.nitems = plan->s_nitems;
  a.nlines = plan->s_nlines;
  a.span = plan->s_span;
  a.ext = plan->s_ext;
  a.flip = plan->s_flip;
  lin_line_args (&a, plan);

  if (plan->any_shallow)
    e = lin_transpose (sixteen, (const uint8_t *) src->data, src->pitch,
        plan->d_tsrc, plan->tpitch, w, h, s);
  if (e == cudaSuccess && plan->sheared)
    e = lin_sheared_run (plan->sheared, plan->d_etab, a.src, a.pitch, a.dst,
        a.dpitch, a.invert, plan->d_spec, s);
  else if (e == cudaSuccess && plan->s_nitems > 0) {
    dim3 blk ((unsigned) (plan->wpb * LIN_WARP));
    dim3 grid ((unsigned) ((plan->s_nitems + plan->wpb - 1) / plan->wpb));

    e = lin_single_launch (plan->depth, store, grid, blk, plan->smem, &a, s);
  }
  /* the transposed opening back: [x][y] (h wide, w tall) -> sup */
  if (e == cudaSuccess && store && plan->any_shallow)
    e = lin_transpose (sixteen, plan->d_tdst, plan->tdpitch,
        (uint8_t *) sup->data, sup->pitch, h, w, s);
  /* one orientation: its index, 0, is the orientation of every pixel */
  if (e == cudaSuccess && plan->desc.want_orientation)
    e = cudaMemset2DAsync (orient->data, orient->pitch, 0,
        (size_t) w * sizeof (uint16_t), (size_t) h, s);
  return cm_cuda_status (e);
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
    return cm_cuda_status (e);
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
    return cm_cuda_status (e);

  memset (&a, 0, sizeof (a));
  a.src0 = (const uint8_t *) src->data;
  a.pitch0 = src->pitch;
  a.src1 = plan->d_tsrc;
  a.pitch1 = plan->tpitch;
  a.width = w;
  a.height = h;
  a.orient = plan->d_orient;
  a.etab = plan->d_etab;
  a.words0 = plan->d_words0;
  a.words1 = plan->d_words1;
  lin_line_args (&a, plan);
  {
    dim3 blk ((unsigned) (plan->wpb * LIN_WARP));
    dim3 grid ((unsigned) ((plan->max_items + plan->wpb - 1) / plan->wpb),
        (unsigned) plan->n);

    /* Orientations along grid.x: the blocks resident together are then
     * neighbouring orientations of the same group of lines and zone, whose
     * samples and supremum words lie close together, instead of all the
     * lines of one or two orientations, which touch the whole image (the
     * two word arrays of 4K do not stay in L2). Faster for the spectrum
     * and more so for the supremum (docs/bench/history.md, Linear spectrum,
     * "the block order"). grid.y holds at most 65,535 blocks of items: a
     * larger plan keeps the items along grid.x, as does
     * cm_linspectrum_tuning.items_major. */
    a.omajor = !plan->items_major && grid.x <= 65535u;
    if (a.omajor)
      grid = dim3 (grid.y, grid.x);

    e = lin_kernel_launch (plan->depth, plan->mode, grid, blk, plan->smem,
        &a, s);
    if (e != cudaSuccess)
      return cm_cuda_status (e);
  }

  if (plan->sup) {
    uint8_t *sd = plan->desc.want_supremum ? (uint8_t *) sup->data : NULL;
    size_t sp = plan->desc.want_supremum ? sup->pitch : 0;
    uint8_t *od = plan->desc.want_orientation ?
        (uint8_t *) orient->data : NULL;
    size_t op = plan->desc.want_orientation ? orient->pitch : 0;

    e = lin_finalize (sup16, plan->d_words0, plan->d_words1, sd, sp, od, op,
        w, h, a.maxv, a.invert, s);
    if (e != cudaSuccess)
      return cm_cuda_status (e);
  }

download:
  e = cudaMemcpyAsync (plan->h_spec, plan->d_spec,
      sizeof (uint64_t) * plan->n, cudaMemcpyDeviceToHost, s);
  return cm_cuda_status (e);
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
