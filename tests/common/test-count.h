/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The counters and the failure report of a core test program: include it
 * once, count each check in `checks`, report each failure with FAIL (a
 * printf-style message, one line on stderr). */
#pragma once

#include <stdio.h>

static int failures;
static int checks;

#define FAIL(...) do { \
    fprintf (stderr, __VA_ARGS__); \
    fputc ('\n', stderr); \
    failures++; \
  } while (0)

#define N_OF(a) ((int) (sizeof (a) / sizeof ((a)[0])))

/* The last line of a core test's main (): the counts on stdout (stderr
 * when a check failed) and the exit status, 1 when a check failed. */
static inline int
test_count_report (const char *program)
{
  if (failures) {
    fprintf (stderr, "%s: %d of %d checks failed\n", program, failures,
        checks);
    return 1;
  }
  printf ("%s: %d checks passed\n", program, checks);
  return 0;
}
