/* weir — status values and per-thread error messages.
 *
 * Every fallible call in weir returns a weir_status. WEIR_OK is zero; any other
 * value names a class of failure, and weir_last_error() returns the message of
 * the most recent failure on the calling thread: what failed, the values
 * involved, and a "Fix: ..." hint. Messages are per thread so that concurrent
 * backend instances on different threads never overwrite each other's. */
#ifndef WEIR_STATUS_H
#define WEIR_STATUS_H

#include "weir/export.h"

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define WEIR_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#define WEIR_NODISCARD __attribute__((warn_unused_result))
#else
#define WEIR_PRINTF(fmt_index, first_arg)
#define WEIR_NODISCARD
#endif

typedef enum weir_status {
  WEIR_OK = 0,
  WEIR_ERR_INVALID_ARGUMENT = 1, /* a value the caller passed is wrong */
  WEIR_ERR_OUT_OF_RANGE = 2,     /* an offset/length/index past the end */
  WEIR_ERR_FOREIGN_RESOURCE = 3, /* a buffer of another backend instance, or freed */
  WEIR_ERR_UNSUPPORTED = 4,      /* valid request the backend cannot serve (format, op) */
  WEIR_ERR_UNAVAILABLE = 5,      /* backend/device/driver not present */
  WEIR_ERR_OUT_OF_MEMORY = 6,    /* host or device memory exhausted or capped */
  WEIR_ERR_IO = 7,               /* a file could not be read or written */
  WEIR_ERR_PARSE = 8,            /* malformed input text (problem file, bench file) */
  WEIR_ERR_DEVICE = 9,           /* the device or driver reported a failure */
  WEIR_ERR_INTERNAL = 10         /* a bug in weir: please report it */
} weir_status;

/* Stable short name of a status ("WEIR_ERR_OUT_OF_RANGE"). */
WEIR_API const char *weir_status_name(weir_status status);

/* Message of the last failure on this thread; "" if none since weir_clear_error. */
WEIR_API const char *weir_last_error(void);
WEIR_API void weir_clear_error(void);

/* Records a message for this thread and returns `status`, so that a failing
 * path reads `return weir_fail(WEIR_ERR_OUT_OF_RANGE, "...Fix: ...", ...);`.
 * Messages longer than the internal buffer are cut with a trailing "...".
 * Exported for backends and plugins. */
WEIR_API weir_status weir_fail(weir_status status, const char *fmt, ...) WEIR_PRINTF(2, 3);
WEIR_API weir_status weir_failv(weir_status status, const char *fmt, va_list ap);

/* Prefixes the current thread's message with "CONTEXT: " and returns status;
 * used when a lower layer's message needs the caller's context. */
WEIR_API weir_status weir_fail_context(weir_status status, const char *fmt, ...) WEIR_PRINTF(2, 3);

#define WEIR_TRY(expr)                                                                   \
  do {                                                                                   \
    weir_status weir_try_status_ = (expr);                                               \
    if (weir_try_status_ != WEIR_OK) return weir_try_status_;                            \
  } while (0)

#ifdef __cplusplus
}
#endif
#endif
