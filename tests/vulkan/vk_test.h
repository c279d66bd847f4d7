/* Shared helpers of the Vulkan suites (tests/vulkan). Every test opens its
 * backends itself, inside Check's forked child: a Vulkan device created
 * before the fork does not survive it. */
#ifndef WEIR_TESTS_VULKAN_VK_TEST_H
#define WEIR_TESTS_VULKAN_VK_TEST_H

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "weir/weir.h"

#define OK(expr) ck_assert_msg((expr) == WEIR_OK, "%s failed: %s", #expr, weir_last_error())
#define FAILS_WITH(expr, status)                                                              \
  do {                                                                                        \
    weir_status st_ = (expr);                                                                 \
    ck_assert_msg(st_ == (status), "%s returned %s, expected %s (%s)", #expr,                 \
                  weir_status_name(st_), weir_status_name(status), weir_last_error());       \
    ck_assert_msg(strstr(weir_last_error(), "Fix:") != NULL, "message lacks a Fix: hint: %s",  \
                  weir_last_error());                                                         \
  } while (0)

/* Opens `spec` or fails the test with the reason. */
weir_backend *vt_open(const char *spec);
/* Deterministic pseudo-random bytes / words (xorshift32 from `seed`). */
void vt_fill_random(void *dst, size_t bytes, uint32_t seed);
uint32_t vt_next(uint32_t *state);
/* Whole-buffer download into a new malloc block (test fails on error). */
void *vt_download(weir_backend *b, weir_buffer buf, uint64_t *bytes);
const weir_program *vt_program(weir_backend *b, const char *name);

Suite *vt_cross_suite(void);
Suite *vt_device_suite(void);
Suite *vt_replica_suite(void);
Suite *vt_nodriver_suite(void);

#endif
