/* Helpers of the IDE tests. */
#ifndef WEIR_TESTS_IDE_UTIL_H
#define WEIR_TESTS_IDE_UTIL_H

#include "weir/ide.h"

/* "n d VALUE\n" per row of the result (caller frees). */
char *ide_test_rows(const weir_ide_problem *p, const weir_ide_result *r);
/* Loads `text` (failing the test on an error), solves it with the
 * reference, checks the resident engine gives the same result file
 * (ide_engine_check), and returns the reference's rows (caller frees). */
char *ide_test_solve_text(const char *text);
/* The same with the engine checked on `engine_backends` (a comma list). */
char *ide_test_solve_text_on(const char *text, const char *engine_backends);

#endif
