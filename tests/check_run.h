/* The end of every Check test program: run the suites (CK_NORMAL prints a
 * line per failure and the closing summary), free the runner, and turn the
 * failure count into the process exit code. */
#ifndef WEIR_TESTS_CHECK_RUN_H
#define WEIR_TESTS_CHECK_RUN_H

#include <check.h>

static inline int weir_check_run(SRunner *runner) {
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed ? 1 : 0;
}

#endif
