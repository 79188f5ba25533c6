/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Colour picture of a linear-spectrum orientation map (cudalinspectrum
 * output=orientation): hue from the orientation of the winning line,
 * brightness from the strength of the supremum (infimum for closings).
 * CPU reference in orientation-rgba-ref.c, CUDA plan in
 * orientation-rgba.cu; both implement exactly the definition below and
 * agree bit for bit.
 *
 * ---- Definition ---------------------------------------------------------
 *
 * Inputs are the outputs of cm_linspectrum_ref / cm_linspectrum_plan_run
 * for a descriptor desc with n = cm_linspectrum_count_angles (desc)
 * orientations: sup (the supremum for CM_MORPH_OPEN, the infimum for
 * CM_MORPH_CLOSE, depth 8 or 16, M = 2^depth - 1) and orient (16-bit
 * orientation indices; an index >= n, which those functions never write,
 * is read as n - 1).
 *
 * Hue table (host, IEEE double, computed once per descriptor by
 * cm_orientation_hue_table for both implementations; the kernels do no
 * floating point). Lines at alpha and alpha + 180 degrees are the same
 * line, so the hue turns twice as fast as the angle and 0 meets 180:
 *     a = fmod (2.0 * alpha_i, 360.0); a += 360.0 if a < 0;
 *     hue[i] = lround (a * 1536.0 / 360.0), and 0 if that is 1536;
 * in units of 1/1536 of a turn: six sectors of 256 steps, red at 0,
 * yellow at 256, green 512, cyan 768, blue 1024, magenta 1280.
 *
 * Per pixel, all in unsigned integers:
 *     u = sup (OPEN) or M - sup (CLOSE)        strength, 0 .. M
 *     v = (u * 255 + M / 2) / M                brightness, 0 .. 255
 *                                              (v = u for 8-bit)
 *     h = hue[min (orient, n - 1)], s = h / 256, f = h % 256
 *     t = (v * f + 128) / 256, q = v - t
 *     (R, G, B) = (v, t, 0) s = 0;  (q, v, 0) s = 1;  (0, v, t) s = 2;
 *                 (0, q, v) s = 3;  (t, 0, v) s = 4;  (v, 0, q) s = 5
 *     A = 255
 * i.e. HSV with full saturation, written as the bytes R, G, B, A of an
 * 8-bit, 4-channel packed image (GStreamer's RGBA).
 * ------------------------------------------------------------------------ */
#pragma once

#include <stdint.h>
#include "cm-status.h"
#include "cm-image.h"
#include "linspectrum.h"

/* The colour of a pixel in the definition (R, G, B from the brightness v
 * and the hue h), one function for the CPU reference and the kernel:
 * compiled by nvcc it is also a device function. */
#ifdef __CUDACC__
#define CM_ORIENTATION_HD __host__ __device__
#else
#define CM_ORIENTATION_HD
#endif

static inline CM_ORIENTATION_HD void
cm_orientation_rgb (uint32_t v, uint32_t h, uint32_t * rgb)
{
  const uint32_t f = h % 256u;
  const uint32_t t = (v * f + 128u) / 256u;
  const uint32_t q = v - t;
  uint32_t r, g, b;

  switch (h / 256u) {
    case 0:
      r = v, g = t, b = 0;
      break;
    case 1:
      r = q, g = v, b = 0;
      break;
    case 2:
      r = 0, g = v, b = t;
      break;
    case 3:
      r = 0, g = q, b = v;
      break;
    case 4:
      r = t, g = 0, b = v;
      break;
    default:
      r = v, g = 0, b = q;
      break;
  }
  rgb[0] = r;
  rgb[1] = g;
  rgb[2] = b;
}

/* The images of a colouring as the definition takes them: sup (depth 8 or
 * 16) and orient (16-bit) of one size, dst 8-bit, 4 channels, that size */
static inline int
cm_orientation_rgba_views_ok (const cm_image * sup, const cm_image * orient,
    const cm_image_packed * dst)
{
  return cm_image_ok (sup) && cm_image_ok (orient) &&
      orient->depth == CM_DEPTH_16 && orient->width == sup->width &&
      orient->height == sup->height && dst && dst->data &&
      dst->depth == CM_DEPTH_8 && dst->channels == 4 &&
      dst->width == sup->width && dst->height == sup->height &&
      dst->pitch >= (size_t) dst->width * 4;
}

CM_BEGIN_DECLS

/* hue units in a full turn */
#define CM_ORIENTATION_HUE_STEPS 1536

/* The hue table of the definition: hue[i] for the n orientations of desc.
 * CM_ERR_INVALID_ARG when desc is invalid, hue is NULL or n is not
 * cm_linspectrum_count_angles (desc). */
cm_status cm_orientation_hue_table (const cm_linspectrum_desc * desc,
    uint16_t * hue, int n);

/* CPU reference. sup: depth 8 or 16; orient: same size, CM_DEPTH_16;
 * dst: same size, CM_DEPTH_8, 4 channels (R, G, B, A). Host memory; desc
 * gives the orientations and the operation (OPEN or CLOSE). */
cm_status cm_orientation_rgba_ref (const cm_linspectrum_desc * desc,
    const cm_image * sup, const cm_image * orient,
    const cm_image_packed * dst);

/* ---- CUDA plan -----------------------------------------------------------
 * Built once per descriptor on the current device: uploads the hue table
 * (the only allocation). */
typedef struct cm_orientation_rgba_plan cm_orientation_rgba_plan;

cm_status cm_orientation_rgba_plan_new (cm_orientation_rgba_plan ** out,
    const cm_linspectrum_desc * desc);

/* Queues the colouring on stream (a cudaStream_t, NULL = legacy default
 * stream). Device images as for cm_orientation_rgba_ref; 16-bit views need
 * even addresses and pitches. */
cm_status cm_orientation_rgba_plan_run (cm_orientation_rgba_plan * plan,
    const cm_image * sup, const cm_image * orient,
    const cm_image_packed * dst, void *stream);

void cm_orientation_rgba_plan_free (cm_orientation_rgba_plan * plan);

CM_END_DECLS
