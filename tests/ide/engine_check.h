/* Checks of the resident IDE engine (weir_ide_solve_engine) against the
 * reference: the result file's bytes, on every test backend. */
#ifndef WEIR_TESTS_IDE_ENGINE_CHECK_H
#define WEIR_TESTS_IDE_ENGINE_CHECK_H

#include "weir/ide.h"

#define IDE_ENGINE_MAX_BACKENDS 4

/* The backends of `only` (a comma list) or, when NULL, of WEIR_TEST_BACKENDS
 * (default "cpu,vulkan"; vulkan skipped where it does not open; a backend
 * named in the variable must open). At least one. */
size_t ide_engine_backends(const char *only, weir_backend **out, size_t capacity);
/* The engine on b gives the bytes `want` (the reference's result file) and
 * sane figures; `what` names the problem in messages. */
void ide_engine_check_on(weir_backend *b, const weir_ide_problem *p, const char *want,
                         const char *what);
/* The reference's result, then ide_engine_check_on each of the n backends. */
void ide_engine_check(weir_backend *const *b, size_t n, const weir_ide_problem *p,
                      const char *what);
/* The same on backends opened for it (ide_engine_backends(only, ...)). */
void ide_engine_check_here(const weir_ide_problem *p, const char *only, const char *what);

#endif
