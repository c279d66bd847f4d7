/* Shared helpers of the residency suites. */
#ifndef WEIR_TESTS_RESIDENCY_UTIL_H
#define WEIR_TESTS_RESIDENCY_UTIL_H

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "weir/residency.h"

/* Asserts WEIR_OK and shows the error message otherwise. */
#define CHECK_OK(expr)                                                                      \
  do {                                                                                      \
    weir_status check_ok_status_ = (expr);                                                  \
    ck_assert_msg(check_ok_status_ == WEIR_OK, "%s -> %s: %s", #expr,                       \
                  weir_status_name(check_ok_status_), weir_last_error());                   \
  } while (0)

/* Asserts a specific failure whose message ends in a Fix: hint. */
#define CHECK_FAILS(expr, expected)                                                         \
  do {                                                                                      \
    weir_clear_error();                                                                     \
    weir_status check_fails_status_ = (expr);                                               \
    ck_assert_msg(check_fails_status_ == (expected), "%s -> %s (wanted %s): %s", #expr,     \
                  weir_status_name(check_fails_status_), weir_status_name(expected),        \
                  weir_last_error());                                                       \
    ck_assert_msg(strstr(weir_last_error(), "Fix:") != NULL, "no Fix: hint in \"%s\"",      \
                  weir_last_error());                                                       \
  } while (0)

/* Opens `spec` or fails the test with the reason. */
weir_backend *util_open(const char *spec);
/* Deterministic pseudo-random bytes (xorshift64*). */
void util_fill_random(void *data, size_t bytes, uint64_t seed);
/* Downloads a whole chunk into a new malloc() block. */
unsigned char *util_download(weir_chunk *chunk);
/* Uploads `bytes` at offset 0 of a chunk. */
void util_upload(weir_chunk *chunk, const void *data, uint64_t bytes);
/* Live buffers on a backend right now. */
uint64_t util_live_buffers(weir_backend *backend);

Suite *chunk_suite(void);
Suite *replica_suite(void);
Suite *partition_suite(void);
Suite *transport_suite(void);
Suite *dlpack_suite(void);

#endif
