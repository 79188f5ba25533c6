/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cpu-bands.h"

#include <pthread.h>
#include <stddef.h>

#define MAX_BANDS 256

typedef struct
{
  cm_band_fn fn;
  void *ctx;
  int band, y0, y1;
  cm_status status;
} band_job;

static void *
band_run (void *data)
{
  band_job *j = data;

  j->status = j->fn (j->ctx, j->band, j->y0, j->y1);
  return NULL;
}

int
cm_cpu_band_count (const cm_cpu_opts * opts, int rows)
{
  int n = opts && opts->threads > 1 ? opts->threads : 1;

  if (n > MAX_BANDS)
    n = MAX_BANDS;
  if (n > rows)
    n = rows > 0 ? rows : 1;
  return n;
}

int
cm_cpu_cancelled (const cm_cpu_opts * opts)
{
  return opts != NULL && opts->cancel != NULL &&
      __atomic_load_n (opts->cancel, __ATOMIC_RELAXED) != 0;
}

cm_status
cm_cpu_bands (const cm_cpu_opts * opts, int rows, cm_band_fn fn, void *ctx)
{
  int n = cm_cpu_band_count (opts, rows);
  band_job job[MAX_BANDS];
  pthread_t tid[MAX_BANDS];
  int started[MAX_BANDS] = { 0 };
  cm_status st = CM_OK;

  if (n == 1)
    return fn (ctx, 0, 0, rows);
  for (int i = 0; i < n; i++) {
    job[i].fn = fn;
    job[i].ctx = ctx;
    job[i].band = i;
    job[i].y0 = (int) ((long long) rows * i / n);
    job[i].y1 = (int) ((long long) rows * (i + 1) / n);
    job[i].status = CM_OK;
  }
  for (int i = 1; i < n; i++)
    started[i] = pthread_create (&tid[i], NULL, band_run, &job[i]) == 0;
  band_run (&job[0]);
  for (int i = 1; i < n; i++) {
    if (started[i])
      pthread_join (tid[i], NULL);
    else
      band_run (&job[i]);
  }
  for (int i = 0; i < n && st == CM_OK; i++)
    st = job[i].status;
  return st;
}
