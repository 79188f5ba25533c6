/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The linear spectrum on either backend (linspectrum-filter.h). */
#include <stdlib.h>

#include "cm-align.h"
#include "cm-filter-impl.h"
#include "device.h"
#include "linspectrum-filter.h"
#include "orientation-rgba.h"

typedef struct
{
  cm_filter base;               /* first; its cpu runs the CPU twin */
  cm_linspectrum_desc desc;
  int count;                    /* orientations */
  /* the orientation map's inputs (want_orientation), host or device */
  cm_image sup, orient;
  /* CPU */
  uint64_t *spectrum;
  /* CUDA */
  cm_linspectrum_plan *plan;
  cm_orientation_rgba_plan *rgba_plan;
} linspectrum_filter;

/* A host image, rows padded to 64 bytes */
static cm_status
host_image_alloc (cm_image * img, int width, int height, cm_depth depth)
{
  img->pitch = cm_align64 ((size_t) width * cm_depth_bytes (depth));
  img->width = width;
  img->height = height;
  img->depth = depth;
  img->data = malloc (img->pitch * (size_t) height);
  return img->data != NULL ? CM_OK : CM_ERR_NO_MEMORY;
}

/* The orientation map's inputs, host or device (@alloc) */
static cm_status
map_inputs_alloc (linspectrum_filter * f, cm_status (*alloc) (cm_image *,
        int, int, cm_depth))
{
  const cm_filter *b = &f->base;
  cm_status status = alloc (&f->sup, b->width, b->height, b->depth);

  if (status == CM_OK)
    status = alloc (&f->orient, b->width, b->height, CM_DEPTH_16);
  return status;
}

static cm_status
make_cpu (linspectrum_filter * f)
{
  f->spectrum = (uint64_t *) calloc ((size_t) f->count, sizeof (uint64_t));
  if (f->spectrum == NULL)
    return CM_ERR_NO_MEMORY;
  return f->desc.want_orientation ? map_inputs_alloc (f, host_image_alloc) :
      CM_OK;
}

static cm_status
make_cuda (linspectrum_filter * f)
{
  const cm_filter *b = &f->base;
  cm_status status;

  status = cm_linspectrum_plan_new (&f->plan, &f->desc, b->width, b->height,
      b->depth);
  if (status != CM_OK || !f->desc.want_orientation)
    return status;
  status = cm_orientation_rgba_plan_new (&f->rgba_plan, &f->desc);
  if (status == CM_OK)
    status = map_inputs_alloc (f, cm_device_image_alloc);
  return status;
}

/* The spectrum of @src, the supremum into @sup and the orientation into
 * @orient when they are not NULL. */
static cm_status
run_backend (linspectrum_filter * f, const cm_image * src,
    const cm_image * sup, const cm_image * orient, void *stream)
{
  if (f->base.backend == CM_BACKEND_CUDA)
    return cm_linspectrum_plan_run (f->plan, src, sup, orient, stream);
  return cm_linspectrum_ref_mt (&f->desc, src, f->spectrum, sup, orient,
      &f->base.cpu);
}

static cm_status
linspectrum_run (cm_filter * base, const cm_image * src,
    const cm_image * sup, void *stream)
{
  linspectrum_filter *f = (linspectrum_filter *) base;

  if (sup != NULL && !f->desc.want_supremum)
    return CM_ERR_INVALID_ARG;
  return run_backend (f, src, sup, NULL, stream);
}

static cm_status
linspectrum_run_rgba (cm_filter * base, const cm_image * src,
    const cm_image_packed * dst, void *stream)
{
  linspectrum_filter *f = (linspectrum_filter *) base;
  cm_status status;

  if (dst->depth != CM_DEPTH_8 || dst->channels != 4)
    return CM_ERR_INVALID_ARG;
  status = run_backend (f, src, &f->sup, &f->orient, stream);
  if (status != CM_OK)
    return status;
  if (base->backend == CM_BACKEND_CUDA)
    return cm_orientation_rgba_plan_run (f->rgba_plan, &f->sup, &f->orient,
        dst, stream);
  return cm_orientation_rgba_ref (&f->desc, &f->sup, &f->orient, dst);
}

static const char *
linspectrum_algorithm (const cm_filter * base)
{
  const linspectrum_filter *f = (const linspectrum_filter *) base;

  return f->plan != NULL ? cm_linspectrum_plan_describe (f->plan) :
      "reference";
}

static void
linspectrum_free (cm_filter * base)
{
  linspectrum_filter *f = (linspectrum_filter *) base;

  if (base->backend == CM_BACKEND_CUDA) {
    cm_linspectrum_plan_free (f->plan);
    cm_orientation_rgba_plan_free (f->rgba_plan);
    if (f->sup.data != NULL)
      cm_device_free (f->sup.data);
    if (f->orient.data != NULL)
      cm_device_free (f->orient.data);
  } else {
    free (f->sup.data);
    free (f->orient.data);
  }
  free (f->spectrum);
}

static cm_status
linspectrum_make (cm_filter * base, const void *desc)
{
  linspectrum_filter *f = (linspectrum_filter *) base;

  f->desc = *(const cm_linspectrum_desc *) desc;
  f->count = cm_linspectrum_count_angles (&f->desc);
  base->flags = CM_FILTER_MEASURES |
      (f->desc.want_orientation ? CM_FILTER_TO_PACKED : 0);
  return base->backend == CM_BACKEND_CUDA ? make_cuda (f) : make_cpu (f);
}

static const cm_filter_ops linspectrum_ops = {
  .run = linspectrum_run,
  .run_to_packed = linspectrum_run_rgba,
  .algorithm = linspectrum_algorithm,
  .make = linspectrum_make,
  .free = linspectrum_free,
};

cm_status
cm_linspectrum_filter_new (cm_filter ** out, cm_backend backend,
    const cm_linspectrum_desc * desc, int width, int height, cm_depth depth,
    const cm_cpu_opts * cpu)
{
  /* (cm_linspectrum_desc_check refuses a NULL desc, and only ever with
   * CM_ERR_INVALID_ARG) */
  return cm_filter_new (out, sizeof (linspectrum_filter), &linspectrum_ops,
      cm_linspectrum_desc_check (desc) == CM_OK, backend, width, height,
      depth, cpu, desc);
}

/* @base as a linear spectrum filter, NULL when it is none */
static const linspectrum_filter *
as_linspectrum (const cm_filter * base)
{
  return base != NULL && base->ops == &linspectrum_ops ?
      (const linspectrum_filter *) base : NULL;
}

const uint64_t *
cm_linspectrum_filter_spectrum (const cm_filter * base)
{
  const linspectrum_filter *f = as_linspectrum (base);

  if (f == NULL)
    return NULL;
  if (f->base.backend == CM_BACKEND_CUDA)
    return cm_linspectrum_plan_spectrum (f->plan);
  return f->spectrum;
}

int
cm_linspectrum_filter_count (const cm_filter * base)
{
  const linspectrum_filter *f = as_linspectrum (base);

  return f != NULL ? f->count : 0;
}
