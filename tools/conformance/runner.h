/* Runs the conformance cases: each in a child process by default (a crash or
 * a hang fails that case only, and drivers that do not survive a fork after
 * device creation start fresh), or all in this process when CK_FORK=no or
 * WEIR_CONFORMANCE_FORK=no (CUDA after cuInit cannot be used in a forked
 * child). Prints "PASS name" or "FAIL name: file:line: message" per case. */
#ifndef WEIR_CONFORMANCE_RUNNER_H
#define WEIR_CONFORMANCE_RUNNER_H

#include <stdio.h>

typedef struct conf_case {
  const char *name;
  void (*run)(void);
} conf_case;

typedef struct conf_totals {
  int ran, passed, failed;
} conf_totals;

/* Runs the cases whose name contains `filter` (NULL: all), each between
 * setup() and teardown(), with a limit of timeout_s seconds per case (forked
 * mode only). */
conf_totals conf_run_cases(const conf_case *cases, size_t count, const char *filter,
                           void (*setup)(void), void (*teardown)(void), unsigned timeout_s,
                           FILE *out);

#endif
