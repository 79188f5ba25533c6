/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU median of 8-bit images in constant time per pixel, whatever the
 * window (Perreault & Hébert, "Median filtering in constant time", IEEE
 * TIP 16 (9), 2007): a histogram per image column of the window's rows,
 * moved down one row by one removal and one addition, and the window's
 * histogram moved right by adding the column that enters and subtracting
 * the one that leaves (256 counters, vector adds), read through 16 coarse
 * counters. Exactly cm_median_ref (median.h), for large windows where the
 * networks of median-cpu-net.h cost more. */
#pragma once

#include "median.h"

#include <stddef.h>

CM_BEGIN_DECLS

/* The bytes of scratch a run on rows of @width samples split into @bands
 * bands (cm_cpu_band_count) needs. */
size_t cm_median_hist8_scratch (const cm_median_desc * desc, int width,
    int bands);
/* desc valid, k = cm_median_rank (desc), src and dst 8-bit host images of
 * one size, not overlapping; threads and cancel as cm_median_ref_mt;
 * @scratch: cm_median_hist8_scratch bytes, 64-byte aligned, any content
 * (the run zeroes what it counts in). */
cm_status cm_median_hist8_run (const cm_median_desc * desc, int k,
    const cm_image * src, const cm_image * dst, const cm_cpu_opts * opts,
    void *scratch);

CM_END_DECLS
