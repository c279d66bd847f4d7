/* The conformance suite's assertion layer: a few macros in the spirit of
 * Check's ck_assert_*, so that the suite is part of the `weir` command with
 * no test framework at run time (Check stays for weir's own tests). A failed
 * assertion ends the current case with "file:line: message"; runner.c runs
 * each case in a child process (or, without fork, jumps back to it). */
#ifndef WEIR_CONFORMANCE_ASSERT_H
#define WEIR_CONFORMANCE_ASSERT_H

#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define CONF_NORETURN __attribute__((noreturn))
#define CONF_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define CONF_NORETURN
#define CONF_PRINTF(fmt_index, first_arg)
#endif

/* Ends the running case as failed with "file:line: message". */
CONF_NORETURN void conf_fail_at(const char *file, int line, const char *fmt, ...) CONF_PRINTF(3, 4);

/* A case: `CONF_TEST(name) { ... }`, listed in the suite's table. */
#define CONF_TEST(name) static void name(void)

#define conf_fail(...) conf_fail_at(__FILE__, __LINE__, __VA_ARGS__)
#define conf_assert_msg(expr, ...)                                                           \
  do {                                                                                       \
    if (!(expr)) conf_fail_at(__FILE__, __LINE__, __VA_ARGS__);                               \
  } while (0)
#define conf_assert(expr) conf_assert_msg(expr, "Assertion '%s' failed", #expr)

#define conf_assert_uint_eq(a, b)                                                            \
  do {                                                                                       \
    uintmax_t conf_a_ = (a), conf_b_ = (b);                                                  \
    if (conf_a_ != conf_b_)                                                                  \
      conf_fail_at(__FILE__, __LINE__, "Assertion '%s == %s' failed: %s == %ju, %s == %ju", #a, \
                   #b, #a, conf_a_, #b, conf_b_);                                            \
  } while (0)
#define conf_assert_int_eq(a, b)                                                             \
  do {                                                                                       \
    intmax_t conf_a_ = (a), conf_b_ = (b);                                                   \
    if (conf_a_ != conf_b_)                                                                  \
      conf_fail_at(__FILE__, __LINE__, "Assertion '%s == %s' failed: %s == %jd, %s == %jd", #a, \
                   #b, #a, conf_a_, #b, conf_b_);                                            \
  } while (0)
#define conf_assert_ptr_eq(a, b)                                                             \
  do {                                                                                       \
    const void *conf_a_ = (a), *conf_b_ = (b);                                               \
    if (conf_a_ != conf_b_)                                                                  \
      conf_fail_at(__FILE__, __LINE__, "Assertion '%s == %s' failed: %s == %p, %s == %p", #a, \
                   #b, #a, conf_a_, #b, conf_b_);                                            \
  } while (0)
#define conf_assert_ptr_null(p) conf_assert_ptr_eq(p, NULL)
#define conf_assert_str_eq(a, b)                                                             \
  do {                                                                                       \
    const char *conf_a_ = (a), *conf_b_ = (b);                                               \
    if (!conf_a_ || !conf_b_ || strcmp(conf_a_, conf_b_) != 0)                               \
      conf_fail_at(__FILE__, __LINE__, "Assertion '%s == %s' failed: %s == \"%s\", %s == \"%s\"", \
                   #a, #b, #a, conf_a_ ? conf_a_ : "(null)", #b, conf_b_ ? conf_b_ : "(null)"); \
  } while (0)

#endif
