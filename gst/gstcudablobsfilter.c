/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cudablobs' filter: the blobs family's CUDA plan and CPU backend
 * (cuda/blobs/blobs.h, blobs-cpu.h) behind the cm_filter handle that the
 * base class runs. cuda/blobs/ has its own filter, written before the
 * handle; once it fills the handle (cm_blobs_filter_new giving a
 * cm_filter, its results by cm_blobs_filter_results) this file goes and
 * the element calls it instead. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cm-filter-impl.h"
#include "gstcudablobsprivate.h"
#include "blobs/blobs-cpu.h"

typedef struct
{
  cm_filter base;               /* first */
  cm_blobs_desc desc;
  cm_blobs_plan *plan;          /* CUDA */
  cm_blobs_cpu *cpu;            /* CPU */
  int ran;
} GstCudaBlobsFilter;

static cm_status
blobs_run (cm_filter * f, const cm_image * src, const cm_image * dst,
    void *stream)
{
  GstCudaBlobsFilter *b = (GstCudaBlobsFilter *) f;
  cm_status status;

  /* the output is the description's: none takes no image */
  if (b->desc.output == CM_BLOBS_OUTPUT_NONE)
    dst = NULL;
  else if (dst == NULL)
    return CM_ERR_INVALID_ARG;
  if (f->backend == CM_BACKEND_CUDA)
    status = cm_blobs_plan_run (b->plan, src, dst, stream);
  else
    status = cm_blobs_cpu_run (b->cpu, src, dst);
  if (status == CM_OK)
    b->ran = 1;
  return status;
}

/* labels of an 8-bit frame: one 16-bit plane, the handle's other output */
static cm_status
blobs_run_to_packed (cm_filter * f, const cm_image * src,
    const cm_image_packed * dst, void *stream)
{
  cm_image plane;

  if (dst->channels != 1 || dst->depth != CM_DEPTH_16)
    return CM_ERR_INVALID_ARG;
  plane.data = dst->data;
  plane.pitch = dst->pitch;
  plane.width = dst->width;
  plane.height = dst->height;
  plane.depth = dst->depth;
  return blobs_run (f, src, &plane, stream);
}

static const char *
blobs_algorithm (const cm_filter * f)
{
  return f->backend == CM_BACKEND_CUDA ?
      "block-based union-find, statistics in the same passes" :
      "two-pass union-find";
}

static void
blobs_free (cm_filter * f)
{
  GstCudaBlobsFilter *b = (GstCudaBlobsFilter *) f;

  if (b->plan != NULL)
    cm_blobs_plan_free (b->plan);
  cm_blobs_cpu_free (b->cpu);
}

static const cm_filter_ops blobs_ops = {
  .run = blobs_run,
  .run_to_packed = blobs_run_to_packed,
  .algorithm = blobs_algorithm,
  .free = blobs_free,
};

/**
 * gst_cuda_blobs_filter_new:
 * @out: (out): the filter
 * @backend: where it runs (CUDA: on the current device)
 * @desc: the blobs' description
 * @width, @height, @depth: the planes it takes
 * @cpu: (nullable): the CPU backend's cancel flag
 *
 * A filter that measures (cm_filter_run with a %NULL destination) with
 * output none, writes the mask or the labels otherwise; 16-bit labels of
 * an 8-bit plane by cm_filter_run_to_packed (one channel).
 *
 * Returns: the core's status
 */
cm_status
gst_cuda_blobs_filter_new (cm_filter ** out, cm_backend backend,
    const cm_blobs_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  GstCudaBlobsFilter *b;
  cm_status status = CM_OK;

  b = cm_filter_alloc (out, sizeof (*b), &blobs_ops,
      desc != NULL && cm_blobs_desc_ok (desc), backend, width, height, depth,
      cpu, &status);
  if (b == NULL)
    return status;
  b->desc = *desc;
  if (desc->output == CM_BLOBS_OUTPUT_NONE)
    b->base.flags |= CM_FILTER_MEASURES;
  if (cm_blobs_output_depth (desc, depth) != depth)
    b->base.flags |= CM_FILTER_TO_PACKED;
  if (backend == CM_BACKEND_CUDA)
    status = cm_blobs_plan_new (&b->plan, &b->desc, width, height, depth);
  else
    status = cm_blobs_cpu_new (&b->cpu, &b->desc, width, height, depth,
        &b->base.cpu);
  return cm_filter_done (out, &b->base, status);
}

/**
 * gst_cuda_blobs_filter_results:
 * @filter: a filter of gst_cuda_blobs_filter_new()
 *
 * Returns: (nullable): the last run's results, once its stream has been
 * synchronised (CUDA); %NULL before the first run
 */
const cm_blobs_results *
gst_cuda_blobs_filter_results (const cm_filter * filter)
{
  const GstCudaBlobsFilter *b = (const GstCudaBlobsFilter *) filter;

  if (filter == NULL || filter->ops != &blobs_ops || !b->ran)
    return NULL;
  return filter->backend == CM_BACKEND_CUDA ?
      cm_blobs_plan_results (b->plan) : cm_blobs_cpu_results (b->cpu);
}
