/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The vector loops of the CPU median (median-cpu.c): a network of
 * median-cpu-net.h run over arrays, and the rows split into and joined
 * from g phases (sample x of phase p is sample g * x + p of the row). Plain
 * C whose fixed-length inner loops the compiler vectorises (gcc -O2
 * included); on x86-64 with glibc each is also built for AVX2 and
 * AVX-512 (x86-64-v4) and picked when the processor has it. */
#pragma once

#include <stdint.h>

#include "median-cpu-net.h"

CM_BEGIN_DECLS

/* Every length below is a multiple of this */
#define CM_MNET_BLOCK 64

/* Runs @net over arrays of @len samples: loc[i] is the array of location i
 * (median-cpu-net.h; NULL for an input no comparator reads). Samples of
 * @bpp bytes (1 or 2), arrays aligned to their sample size. */
void cm_mnet_run (const cm_mnet * net, void *const *loc, int len, int bpp);

/* dst[p * q + x] = src[g * x + p] for p < g, x < q */
void cm_mrow_split (void *dst, const void *src, int g, int q, int bpp);

/* dst[g * x + p] = src[p][x] for p < g, x < len */
void cm_mrow_join (void *dst, void *const *src, int g, int len, int bpp);

/* The 3x3 median (rank 4) of three rows extended by one sample each side:
 * out[x] from samples x .. x + 2 of rows[0 .. 2] (len + CM_MNET_BLOCK
 * samples each, read), for x < len; tmp: three arrays of len +
 * CM_MNET_BLOCK samples. */
void cm_mrow_median3 (void *out, void *const *rows, void *const *tmp,
    int len, int bpp);

CM_END_DECLS
