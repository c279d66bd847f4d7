/* The backend conformance suite, written once and run against any backend
 * (in-tree or plugin). Part of the product: built as the static library
 * `weir_conformance` (no Check, no test framework) and linked into `weir
 * conformance`; weir's own CTest runner (tests/conformance/main.c) calls the
 * same function. */
#ifndef WEIR_TOOLS_CONFORMANCE_H
#define WEIR_TOOLS_CONFORMANCE_H

#include <stdio.h>

/* Exit code for "backend not available here" (CTest SKIP_RETURN_CODE). */
#define WEIR_CONFORMANCE_SKIPPED 77

/* Runs every case against backend `spec` (anything weir_backend_open takes).
 * Prints one line per case to `out` ("PASS suite:case", "FAIL suite:case:
 * message") and a closing "N passed, N failed" line. If the backend is not
 * available here (WEIR_ERR_UNAVAILABLE: no driver, no device, not compiled
 * in), prints "SKIP <spec>: <reason>" and returns WEIR_CONFORMANCE_SKIPPED; any
 * other failure to open it (a plugin of the wrong ABI) fails with 1, and a
 * spec that names nothing (an unknown id, a plugin path with no file) with 2.
 * Returns 0 when every case passed, 1 otherwise. `filter` (NULL for all)
 * runs only the cases whose name contains it; one that matches no case
 * returns 2 (nothing was tested). */
int weir_conformance_run(const char *spec, const char *filter, FILE *out);

#endif
