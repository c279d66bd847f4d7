/* Helpers of the engine tests: the backends to run on, result bytes, and a
 * comparison of the engine against the reference solver. */
#ifndef WEIR_TESTS_ENGINE_CHECK_H
#define WEIR_TESTS_ENGINE_CHECK_H

#include <stddef.h>

#include "weir/ifds.h"
#include "weir/ifds_gen.h"

#define ENGINE_MAX_BACKENDS 4

/* cpu always; vulkan when weir_backend_open("vulkan") works (lavapipe in CI).
 * WEIR_TEST_BACKENDS="cpu,vulkan" overrides the list. */
size_t engine_open_backends(weir_backend **out, size_t capacity);
/* The same, each opened with `options` (NULL: defaults). */
size_t engine_open_backends_ex(weir_backend **out, size_t capacity,
                               const weir_open_options *options);
void engine_close_backends(weir_backend **backends, size_t count);
/* 1 (with the reason on stderr) when WEIR_TEST_BACKENDS names backends and
 * none of them opens here: the test is then skipped, not failed. */
int engine_requested_backends_missing(void);

/* The spec's result file as a NUL-terminated malloc'd string. */
char *engine_result_text(const weir_ifds_result *result);

/* Solves `problem` with the engine on `backend` and with the reference
 * solver; returns 1 when the result files are byte-identical. On a mismatch
 * or error writes what differs to `why` (capacity bytes). */
int engine_matches_reference(weir_backend *backend, const weir_ifds_problem *problem,
                             const weir_ifds_engine_options *options, weir_ifds_stats *stats,
                             char *why, size_t capacity);

/* The `weir gen` command line that writes the same problem. */
void engine_gen_command(const weir_ifds_gen_options *o, char *out, size_t capacity);

#endif
