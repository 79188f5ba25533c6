/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cpu-bands.h"

#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>

#define MAX_BANDS 256
/* How long a pool's thread looks for the next run before it sleeps, and
 * the caller for its bands before it does: a frame's passes follow each
 * other within microseconds; a longer spin would keep the threads busy
 * between the frames of a small-frame stream */
#define SPIN_NS 20000

typedef struct
{
  cm_band_fn fn;
  void *ctx;
  int band, y0, y1;
  cm_status status;
} band_job;

struct cm_cpu_pool
{
  pthread_mutex_t lock;
  pthread_cond_t wake;          /* a new run, or quit */
  pthread_cond_t done;          /* the last worker finished */
  pthread_t tid[MAX_BANDS];
  int workers;                  /* started; worker i runs band i + 1 */
  unsigned run;                 /* bumped for each run (atomic) */
  unsigned pending;             /* workers not done with the run (atomic) */
  int busy;                     /* a run holds the pool (atomic) */
  int quit;
  band_job *jobs;               /* the run's, published by run */
  int bands;
};

typedef struct
{
  cm_cpu_pool *pool;
  int index;
} worker_arg;

static void *
band_run (void *data)
{
  band_job *j = data;

  j->status = j->fn (j->ctx, j->band, j->y0, j->y1);
  return NULL;
}

static void
cpu_relax (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#elif defined(__aarch64__)
  __asm__ __volatile__ ("yield");
#endif
}

static long long
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Spins until *@word differs from @than (@differ) or equals it, at most
 * SPIN_NS; whether it got there. After the first few hundred turns each
 * turn yields the core: with more threads than cores (several pools) a
 * spinner would hold back the thread it waits for. */
static int
spin_until (const unsigned *word, unsigned than, int differ)
{
  const long long end = now_ns () + SPIN_NS;

  for (int i = 0;; i++) {
    if ((__atomic_load_n (word, __ATOMIC_ACQUIRE) != than) == differ)
      return 1;
    if (i < 256)
      cpu_relax ();
    else
      sched_yield ();
    if ((i & 15) == 15 && now_ns () > end)
      return 0;
  }
}

static void *
worker_main (void *data)
{
  worker_arg *a = data;
  cm_cpu_pool *p = a->pool;
  const int band = a->index + 1;
  unsigned seen = 0;

  free (a);
  for (;;) {
    if (!spin_until (&p->run, seen, 1)) {
      pthread_mutex_lock (&p->lock);
      while (__atomic_load_n (&p->run, __ATOMIC_ACQUIRE) == seen && !p->quit)
        pthread_cond_wait (&p->wake, &p->lock);
      pthread_mutex_unlock (&p->lock);
    }
    if (__atomic_load_n (&p->run, __ATOMIC_ACQUIRE) == seen)
      return NULL;              /* quit */
    seen++;
    if (band < p->bands)
      band_run (&p->jobs[band]);
    if (__atomic_sub_fetch (&p->pending, 1, __ATOMIC_ACQ_REL) == 0) {
      pthread_mutex_lock (&p->lock);
      pthread_cond_signal (&p->done);
      pthread_mutex_unlock (&p->lock);
    }
  }
}

cm_cpu_pool *
cm_cpu_pool_new (int threads)
{
  cm_cpu_pool *p;

  if (threads < 2)
    return NULL;
  if (threads > MAX_BANDS)
    threads = MAX_BANDS;
  p = calloc (1, sizeof (*p));
  if (p == NULL)
    return NULL;
  pthread_mutex_init (&p->lock, NULL);
  pthread_cond_init (&p->wake, NULL);
  pthread_cond_init (&p->done, NULL);
  for (int i = 0; i < threads - 1; i++) {
    worker_arg *a = malloc (sizeof (*a));

    if (a == NULL)
      break;
    a->pool = p;
    a->index = i;
    if (pthread_create (&p->tid[i], NULL, worker_main, a) != 0) {
      free (a);
      break;
    }
    p->workers++;
  }
  if (p->workers == 0) {
    cm_cpu_pool_free (p);
    return NULL;
  }
  return p;
}

void
cm_cpu_pool_free (cm_cpu_pool * p)
{
  if (p == NULL)
    return;
  pthread_mutex_lock (&p->lock);
  p->quit = 1;
  pthread_cond_broadcast (&p->wake);
  pthread_mutex_unlock (&p->lock);
  for (int i = 0; i < p->workers; i++)
    pthread_join (p->tid[i], NULL);
  pthread_cond_destroy (&p->done);
  pthread_cond_destroy (&p->wake);
  pthread_mutex_destroy (&p->lock);
  free (p);
}

/* The @n bands of @job on the pool's workers and this thread; bands past
 * the workers run here after band 0 */
static void
pool_run (cm_cpu_pool * p, band_job * job, int n)
{
  p->jobs = job;
  p->bands = n;
  __atomic_store_n (&p->pending, (unsigned) p->workers, __ATOMIC_RELAXED);
  pthread_mutex_lock (&p->lock);
  __atomic_add_fetch (&p->run, 1, __ATOMIC_RELEASE);
  pthread_cond_broadcast (&p->wake);
  pthread_mutex_unlock (&p->lock);
  band_run (&job[0]);
  for (int i = p->workers + 1; i < n; i++)
    band_run (&job[i]);
  if (!spin_until (&p->pending, 0, 0)) {
    pthread_mutex_lock (&p->lock);
    while (__atomic_load_n (&p->pending, __ATOMIC_ACQUIRE) != 0)
      pthread_cond_wait (&p->done, &p->lock);
    pthread_mutex_unlock (&p->lock);
  }
}

/* The @n bands of @job on threads started for them */
static void
spawn_run (band_job * job, int n)
{
  pthread_t tid[MAX_BANDS];
  int started[MAX_BANDS] = { 0 };

  for (int i = 1; i < n; i++)
    started[i] = pthread_create (&tid[i], NULL, band_run, &job[i]) == 0;
  band_run (&job[0]);
  for (int i = 1; i < n; i++) {
    if (started[i])
      pthread_join (tid[i], NULL);
    else
      band_run (&job[i]);
  }
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
  cm_cpu_pool *pool = opts != NULL ? opts->pool : NULL;
  band_job job[MAX_BANDS];
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
  if (pool != NULL && !__atomic_exchange_n (&pool->busy, 1, __ATOMIC_ACQUIRE)) {
    pool_run (pool, job, n);
    __atomic_store_n (&pool->busy, 0, __ATOMIC_RELEASE);
  } else
    spawn_run (job, n);
  for (int i = 0; i < n && st == CM_OK; i++)
    st = job[i].status;
  return st;
}
