/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the core tests share beyond test-count.h and test-util.h: CHECK, a
 * counted check with its failure message; CHECK_NAMES, the names of an
 * enum's values; now_s (), monotonic seconds
 * (bench-cpu times with it too); cancel_later (), a thread body that sets
 * a cancel flag after a delay, for the cancellation tests of the _mt
 * references. */
#pragma once

#include <string.h>
#include <time.h>
#include <unistd.h>

/* one check (test-count.h): the printf-style message when cond is false */
#define CHECK(cond, ...) do { \
    checks++; \
    if (!(cond)) \
      FAIL (__VA_ARGS__); \
  } while (0)

/* One check per value of the enum type, 0, 1, ...: name_of (value) is
 * the value's name in the list that follows */
#define CHECK_NAMES(kind, type, name_of, ...) do { \
    static const char *const names_[] = { __VA_ARGS__ }; \
    for (int i_ = 0; i_ < (int) (sizeof (names_) / sizeof (names_[0])); \
        i_++) \
      CHECK (strcmp (name_of ((type) i_), names_[i_]) == 0, \
          "%s %d named \"%s\"", kind, i_, name_of ((type) i_)); \
  } while (0)

static inline double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct
{
  int *flag;
  unsigned delay_us;
  double set_at;                /* when the flag was set (now_s) */
} canceller;

/* pthread_create's start routine: sets *c->flag after c->delay_us */
static inline void *
cancel_later (void *data)
{
  canceller *c = data;

  usleep (c->delay_us);
  c->set_at = now_s ();
  __atomic_store_n (c->flag, 1, __ATOMIC_RELAXED);
  return NULL;
}
