/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Host tables of the linear spectrum's plans (linspectrum-impl.cuh), no
 * CUDA calls: per orientation the scan-line table e(q) = |lround (q k)|
 * of linspectrum.h and the zones that split the lines (paper 000 section
 * 5.4); for one orientation, each line's run and the warp items that have
 * work. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "linspectrum-impl.cuh"

void
lin_layout_clear (lin_layout * lay)
{
  free (lay->orient);
  free (lay->etab);
  memset (lay, 0, sizeof (*lay));
}

/* Tables for desc on a width x height image. target_warps: how many warp
 * items the device wants in flight; zones split the lines when the
 * orientations alone give fewer than half of them (paper 000 section 5.4,
 * rules 2 and 3), never into zones shorter than 2 L (the overlap would
 * cost more than the zone). */
cm_status
lin_layout_build (lin_layout * lay, const cm_linspectrum_desc * desc,
    int width, int height, long target_warps, int force_zlen)
{
  long groups_total = 0;
  int maxspan = width > height ? width : height;
  size_t off = 0;

  memset (lay, 0, sizeof (*lay));
  lay->n = cm_linspectrum_count_angles (desc);
  if (lay->n < 1)
    return CM_ERR_INVALID_ARG;
  lay->width = width;
  lay->height = height;
  lay->length = desc->length;
  lay->orient = (lin_orient *) calloc ((size_t) lay->n, sizeof (lin_orient));
  if (!lay->orient)
    return CM_ERR_NO_MEMORY;
  for (int i = 0; i < lay->n; i++) {
    int steep;

    cm_linspectrum_line_geometry (cm_linspectrum_angle (desc, i), &steep,
        NULL);
    lay->etab_len += (size_t) (steep ? height : width);
  }
  lay->etab = (int *) malloc (sizeof (int) * lay->etab_len);
  if (!lay->etab) {
    lin_layout_clear (lay);
    return CM_ERR_NO_MEMORY;
  }

  for (int i = 0; i < lay->n; i++) {
    lin_orient *o = &lay->orient[i];
    int steep, span, ext;
    double k;

    cm_linspectrum_line_geometry (cm_linspectrum_angle (desc, i), &steep,
        &k);
    span = steep ? height : width;
    ext = steep ? width : height;
    o->src = steep ? 0 : 1;
    o->flip = k < 0.0;
    o->etab = (int) off;
    /* the expression of linspectrum-ref.c, then |.|: lround is odd */
    for (int q = 0; q < span; q++)
      lay->etab[off + q] = (int) labs (lround (q * k));
    o->nlines = lay->etab[off + span - 1] + ext;
    o->ngroups = (o->nlines + LIN_WARP - 1) / LIN_WARP;
    off += (size_t) span;
    groups_total += o->ngroups;
    if (steep)
      lay->any_steep = 1;
    else
      lay->any_shallow = 1;
  }

  lay->zlen = maxspan;
  if (target_warps > 0 && 2 * groups_total < target_warps) {
    long nz = (target_warps + groups_total - 1) / groups_total;
    long z = (maxspan + nz - 1) / nz;

    if (z < 2L * desc->length)
      z = 2L * desc->length;
    if (z < 32)
      z = 32;
    if (z < maxspan)
      lay->zlen = (int) z;
  }
  if (force_zlen > 0)
    lay->zlen = force_zlen < maxspan ? force_zlen : maxspan;
  lay->max_items = 0;
  for (int i = 0; i < lay->n; i++) {
    lin_orient *o = &lay->orient[i];
    int span = o->src ? width : height;

    o->nzones = (span + lay->zlen - 1) / lay->zlen;
    o->nitems = o->ngroups * o->nzones;
    if (o->nitems > lay->max_items)
      lay->max_items = o->nitems;
  }
  return CM_OK;
}

/* The host tables of the one-orientation path, from the layout's e ():
 * each line's run (first, last) (first > last: none) and the (group,
 * zone) items with work, for zones of *zlen positions. The zone length:
 * the longest (>= 2 L, >= 32) whose items reach target warps, or
 * force_zlen. */
cm_status
lin_single_tables (const lin_layout * lay, int target, int force_zlen,
    int2 ** lines_out, int2 ** items_out, int *nitems_out, int *zlen_out)
{
  const lin_orient *o = &lay->orient[0];
  const int *e = lay->etab + o->etab;
  const int span = o->src ? lay->width : lay->height;
  const int ext = o->src ? lay->height : lay->width;
  const int L = lay->length, ng = o->ngroups;
  int2 *lines = (int2 *) malloc (sizeof (int2) * (size_t) o->nlines);
  int2 *items = NULL;
  int *gu0 = (int *) malloc (sizeof (int) * (size_t) ng);
  int *gu1 = (int *) malloc (sizeof (int) * (size_t) ng);
  int zlen, zmin, n = 0;

  if (!lines || !gu0 || !gu1)
    goto fail;
  /* run of line l: e(q) in (l - ext, l], found by lower bounds on the
   * non-decreasing e (the binary searches of the general kernel) */
  for (int l = 0; l < o->nlines; l++) {
    int v[2] = { l - ext + 1, l + 1 }, b[2];

    for (int t = 0; t < 2; t++) {
      int lo = 0, hi = span;

      while (lo < hi) {
        int mid = (lo + hi) >> 1;

        if (e[mid] < v[t])
          lo = mid + 1;
        else
          hi = mid;
      }
      b[t] = lo;
    }
    lines[l].x = b[0];
    lines[l].y = b[1] - 1;
  }
  for (int gi = 0; gi < ng; gi++) {
    int la = gi * LIN_WARP, lb = la + LIN_WARP - 1;

    if (lb > o->nlines - 1)
      lb = o->nlines - 1;
    gu0[gi] = lines[la].x;
    gu1[gi] = lines[lb].y;
  }

  /* zones: items (z) = sum over groups of the zones that meet [u0, u1] */
  zmin = 2 * L > 32 ? 2 * L : 32;
  if (force_zlen > 0)
    zlen = force_zlen < span ? force_zlen : span;
  else {
    int lo = zmin < span ? zmin : span, hi = span;

    /* largest z in [lo, hi] with items (z) >= target (items falls with z,
     * near enough monotonically for a bisection) */
    while (lo < hi) {
      int mid = lo + (hi - lo + 1) / 2;
      long cnt = 0;

      for (int gi = 0; gi < ng; gi++)
        if (gu0[gi] <= gu1[gi])
          cnt += gu1[gi] / mid - gu0[gi] / mid + 1;
      if (cnt >= target)
        lo = mid;
      else
        hi = mid - 1;
    }
    zlen = lo;
  }
  for (int pass = 0; pass < 2; pass++) {
    n = 0;
    for (int gi = 0; gi < ng; gi++) {
      if (gu0[gi] > gu1[gi])
        continue;
      for (int z = gu0[gi] / zlen; z <= gu1[gi] / zlen; z++) {
        lin_range r;

        if (!lin_item_range (z, zlen, span, L, gu0[gi], gu1[gi], &r))
          continue;
        if (pass)
          items[n] = make_int2 (gi, z);
        n++;
      }
    }
    if (!pass) {
      items = (int2 *) malloc (sizeof (int2) * (size_t) (n > 0 ? n : 1));
      if (!items)
        goto fail;
    }
  }
  free (gu0);
  free (gu1);
  *lines_out = lines;
  *items_out = items;
  *nitems_out = n;
  *zlen_out = zlen;
  return CM_OK;
fail:
  free (lines);
  free (items);
  free (gu0);
  free (gu1);
  return CM_ERR_NO_MEMORY;
}
