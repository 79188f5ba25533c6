/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rows of a CPU reference split among threads: band i of n covers rows
 * [rows * i / n, rows * (i + 1) / n); the calling thread runs band 0, and
 * a band whose thread cannot start runs in the calling thread too. The
 * threads are the options' pool's when it has one and is free, else
 * started for the run. */
#pragma once

#include "cm-status.h"

CM_BEGIN_DECLS

/* The work of one band: rows [y0, y1), @band its index (for per-band
 * scratch). */
typedef cm_status (*cm_band_fn) (void *ctx, int band, int y0, int y1);

/* The number of bands cm_cpu_bands makes for @rows rows with @opts. */
int cm_cpu_band_count (const cm_cpu_opts * opts, int rows);

/* Runs @fn over every band and returns the first failure in band order
 * (CM_ERR_CANCELLED when a band saw opts->cancel), else CM_OK. */
cm_status cm_cpu_bands (const cm_cpu_opts * opts, int rows, cm_band_fn fn,
    void *ctx);

/* Whether @opts asks the run to stop (from any thread). */
int cm_cpu_cancelled (const cm_cpu_opts * opts);

/* @threads - 1 threads kept waiting for the bands of runs (starting a
 * thread per band and run costs more than a small frame's work on many
 * cores). A pool serves one run at a time; a run that finds it busy (a
 * band's own bands) starts its threads. NULL when @threads < 2 or no
 * thread starts. */
cm_cpu_pool *cm_cpu_pool_new (int threads);
void cm_cpu_pool_free (cm_cpu_pool * pool);

CM_END_DECLS
