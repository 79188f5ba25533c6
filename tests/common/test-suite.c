/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A one-TCase suite from a table of tests */

#include "test-suite.h"
#include "test-util.h"

Suite *
test_suite_new (const char *name, const char *tcase, int timeout,
    const TestSuiteEntry * tests)
{
  Suite *s = suite_create (name);
  TCase *tc = tcase_create (tcase);

  suite_add_tcase (s, tc);
  if (timeout > 0)
    tcase_set_timeout (tc, timeout);
  /* CM_TEST_SHARD=k/n: every n-th test (each iteration of a loop test
   * counts as one) from the k-th */
  for (long i = 0; tests->fn != NULL; tests++) {
    if (test_shard_count () == 1) {
      _tcase_add_test (tc, tests->fn, tests->name, 0, 0, tests->start,
          tests->end);
      continue;
    }
    for (int it = tests->start; it < tests->end; it++, i++)
      if (test_shard_keep (i))
        _tcase_add_test (tc, tests->fn, tests->name, 0, 0, it, it + 1);
  }
  return s;
}

int
test_suite_run (Suite * s)
{
  SRunner *sr = srunner_create (s);
  int nf;

  srunner_run_all (sr, CK_NORMAL);
  nf = srunner_ntests_failed (sr);
  srunner_free (sr);
  return nf == 0 ? 0 : 1;
}
