/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The suite of a GstCheck test program: one TCase built from a table of
 * tests, and the runner of the programs that choose their own main (). */
#pragma once

#include <gst/check/gstcheck.h>

/* A row of a test table: GST_START_TEST's function, its name, and the
 * loop range (start <= i < end; 0, 1 for a plain test). */
typedef struct
{
  TFun fn;
  const char *name;
  int start, end;
} TestSuiteEntry;

#define TEST_SUITE_TEST(fn) { (fn), #fn, 0, 1 }
#define TEST_SUITE_LOOP(fn, s, e) { (fn), #fn, (s), (e) }

/* A suite @name with one TCase @tcase holding @tests (ended by a row
 * whose fn is NULL), in the table's order; @timeout: seconds per test,
 * 0 for check's default. */
Suite *test_suite_new (const char *name, const char *tcase, int timeout,
    const TestSuiteEntry * tests);

/* Runs @s (CK_NORMAL output), frees it and returns the exit status of
 * the program: 0 when no test failed, else 1. */
int test_suite_run (Suite * s);

/* The suite function @prefix##_suite () and GST_CHECK_MAIN (@prefix)
 * of a program whose tests are all in @tests, one TCase "general". */
#define TEST_SUITE_MAIN(prefix, name, timeout, tests)                    \
  static Suite *prefix##_suite (void)                                    \
  {                                                                       \
    return test_suite_new ((name), "general", (timeout), (tests));       \
  }                                                                       \
  GST_CHECK_MAIN (prefix)
