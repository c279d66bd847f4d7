/* Helpers of the IFDS tests. */
#ifndef WEIR_TESTS_IFDS_UTIL_H
#define WEIR_TESTS_IFDS_UTIL_H

#include <stddef.h>

#include "weir/ifds.h"

/* The whole file (NUL-terminated, caller frees), or NULL. */
char *ifds_test_read_file(const char *path, size_t *length);
/* The result file's text for a result (caller frees). */
char *ifds_test_result_text(const weir_ifds_result *result);
/* The canonical problem text (caller frees). */
char *ifds_test_problem_text(const weir_ifds_problem *problem);
/* Solves with the reference solver and returns the result text (caller frees). */
char *ifds_test_solve_text(const weir_ifds_problem *problem, weir_ifds_stats *stats);

/* The same problem, array by array (flows compared by content). */
void ifds_test_assert_same_problem(const weir_ifds_problem *a, const weir_ifds_problem *b);

#endif
