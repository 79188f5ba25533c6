/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Built instead of the .cu files when the CUDA toolkit is absent: every
 * device entry point reports CM_ERR_NO_CUDA so callers fall back to the CPU
 * reference. */
#include <stdio.h>
#include "device.h"
#include "morph.h"
#include "planes.h"
#include "reconstruct.h"

const char *cm_cuda_error_text (int cuda_error);

const char *
cm_cuda_error_text (int cuda_error)
{
  (void) cuda_error;
  return "CUDA error (this build has no CUDA support)";
}

int
cm_have_cuda (void)
{
  return 0;
}

int
cm_device_count (void)
{
  return 0;
}

cm_status
cm_device_set (int device_id)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_device_name (int device_id, char *buf, size_t size)
{
  if (buf && size)
    snprintf (buf, size, "none");
  return CM_ERR_NO_CUDA;
}

cm_status
cm_stream_new (cm_stream * out)
{
  if (out)
    *out = NULL;
  return CM_ERR_NO_CUDA;
}

cm_status
cm_stream_free (cm_stream stream)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_stream_sync (cm_stream stream)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_event_new (cm_event * out)
{
  if (out)
    *out = NULL;
  return CM_ERR_NO_CUDA;
}

cm_status
cm_event_free (cm_event event)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_event_record (cm_event event, cm_stream stream)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_event_sync (cm_event event)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_stream_wait_event (cm_stream stream, cm_event event)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_event_new_timed (cm_event * out)
{
  if (out)
    *out = NULL;
  return CM_ERR_NO_CUDA;
}

cm_status
cm_event_elapsed_us (cm_event start, cm_event end, double *us, int *done)
{
  if (done)
    *done = 0;
  return CM_ERR_NO_CUDA;
}

cm_status
cm_device_image_alloc (cm_image * img, int width, int height, cm_depth depth)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_device_packed_alloc (cm_image_packed * img, int width, int height,
    cm_depth depth, int channels)
{
  return CM_ERR_NO_CUDA;
}

void
cm_device_free (void *ptr)
{
}

cm_status
cm_host_alloc_pinned (void **out, size_t size)
{
  return CM_ERR_NO_CUDA;
}

void
cm_host_free_pinned (void *ptr)
{
}

cm_status
cm_copy_2d_async (void *dst, size_t dst_pitch, const void *src,
    size_t src_pitch, size_t width_bytes, int height, cm_copy_kind kind,
    cm_stream stream)
{
  return CM_ERR_NO_CUDA;
}

/* ---- plans (<op>.h): none is made here ---- */

/* cm_<op>_plan_new, _new_tuned and _free of the family @op, whose
 * descriptor is @desc_t and tuning @tuning_t */
#define NO_CUDA_PLAN(op, desc_t, tuning_t)                                  \
  cm_status                                                                 \
  cm_##op##_plan_new (cm_##op##_plan ** out, const desc_t * desc,          \
      int width, int height, cm_depth depth)                                \
  {                                                                         \
    return cm_##op##_plan_new_tuned (out, desc, width, height, depth,       \
        NULL);                                                              \
  }                                                                         \
                                                                            \
  cm_status                                                                 \
  cm_##op##_plan_new_tuned (cm_##op##_plan ** out, const desc_t * desc,    \
      int width, int height, cm_depth depth, const tuning_t * tuning)       \
  {                                                                         \
    if (out)                                                                \
      *out = NULL;                                                          \
    return CM_ERR_NO_CUDA;                                                  \
  }                                                                         \
                                                                            \
  void                                                                      \
  cm_##op##_plan_free (cm_##op##_plan * plan)                              \
  {                                                                         \
  }

/* cm_<op>_plan_run of a family that runs on one src and one dst image */
#define NO_CUDA_PLAN_RUN(op)                                                \
  cm_status                                                                 \
  cm_##op##_plan_run (cm_##op##_plan * plan, const cm_image * src,         \
      const cm_image * dst, void *stream)                                   \
  {                                                                         \
    return CM_ERR_NO_CUDA;                                                  \
  }

NO_CUDA_PLAN (morph, cm_morph_desc, cm_morph_tuning)
NO_CUDA_PLAN_RUN (morph)

const char *
cm_morph_plan_algorithm (const cm_morph_plan * plan)
{
  return "none";
}

cm_status
cm_extract_channel_cuda (const cm_image_packed * src, int channel,
    const cm_image * dst, void *stream)
{
  return CM_ERR_NO_CUDA;
}

cm_status
cm_insert_channel_cuda (const cm_image * src, int channel,
    const cm_image_packed * dst, void *stream)
{
  return CM_ERR_NO_CUDA;
}

/* ---- median plans (median.h) ---- */
#include "median.h"

NO_CUDA_PLAN (median, cm_median_desc, cm_median_tuning)
NO_CUDA_PLAN_RUN (median)

cm_status
cm_median_plan_run_luma (cm_median_plan * plan,
    const cm_image_packed * src, const cm_image_packed * dst, int r_idx,
    int g_idx, int b_idx, int a_idx, void *stream)
{
  return CM_ERR_NO_CUDA;
}

const char *
cm_median_plan_algorithm (const cm_median_plan * plan)
{
  return "none";
}

/* ---- linspectrum.h plans ------------------------------------------------ */
#include "linspectrum.h"

NO_CUDA_PLAN (linspectrum, cm_linspectrum_desc, cm_linspectrum_tuning)

cm_status
cm_linspectrum_plan_run (cm_linspectrum_plan * plan, const cm_image * src,
    const cm_image * sup, const cm_image * orient, void *stream)
{
  return CM_ERR_NO_CUDA;
}

const uint64_t *
cm_linspectrum_plan_spectrum (const cm_linspectrum_plan * plan)
{
  return NULL;
}

const uint64_t *
cm_linspectrum_plan_spectrum_device (const cm_linspectrum_plan * plan)
{
  return NULL;
}

int
cm_linspectrum_plan_count (const cm_linspectrum_plan * plan)
{
  return 0;
}

const char *
cm_linspectrum_plan_describe (const cm_linspectrum_plan * plan)
{
  return "none";
}

/* ---- orientation-rgba.h plans ------------------------------------------- */
#include "orientation-rgba.h"

cm_status
cm_orientation_rgba_plan_new (cm_orientation_rgba_plan ** out,
    const cm_linspectrum_desc * desc)
{
  if (out)
    *out = NULL;
  return CM_ERR_NO_CUDA;
}

cm_status
cm_orientation_rgba_plan_run (cm_orientation_rgba_plan * plan,
    const cm_image * sup, const cm_image * orient,
    const cm_image_packed * dst, void *stream)
{
  return CM_ERR_NO_CUDA;
}

void
cm_orientation_rgba_plan_free (cm_orientation_rgba_plan * plan)
{
}

/* ---- reconstruction plans (reconstruct.h) ------------------------------ */

NO_CUDA_PLAN (recon, cm_recon_desc, cm_recon_tuning)
NO_CUDA_PLAN_RUN (recon)

int
cm_recon_plan_passes (const cm_recon_plan * plan)
{
  return 0;
}
