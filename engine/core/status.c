/* Status names and the per-thread error message. */
#include <stdio.h>
#include <string.h>

#include "weir/status.h"

#define WEIR_MESSAGE_BYTES 2048

/* Per-thread, so instances used on different threads never mix messages.
 * This is the only thread-local state in weir and holds no resources. */
static _Thread_local char message[WEIR_MESSAGE_BYTES];

const char *weir_status_name(weir_status status) {
  switch (status) {
    case WEIR_OK: return "WEIR_OK";
    case WEIR_ERR_INVALID_ARGUMENT: return "WEIR_ERR_INVALID_ARGUMENT";
    case WEIR_ERR_OUT_OF_RANGE: return "WEIR_ERR_OUT_OF_RANGE";
    case WEIR_ERR_FOREIGN_RESOURCE: return "WEIR_ERR_FOREIGN_RESOURCE";
    case WEIR_ERR_UNSUPPORTED: return "WEIR_ERR_UNSUPPORTED";
    case WEIR_ERR_UNAVAILABLE: return "WEIR_ERR_UNAVAILABLE";
    case WEIR_ERR_OUT_OF_MEMORY: return "WEIR_ERR_OUT_OF_MEMORY";
    case WEIR_ERR_IO: return "WEIR_ERR_IO";
    case WEIR_ERR_PARSE: return "WEIR_ERR_PARSE";
    case WEIR_ERR_DEVICE: return "WEIR_ERR_DEVICE";
    case WEIR_ERR_INTERNAL: return "WEIR_ERR_INTERNAL";
  }
  return "WEIR_ERR_UNKNOWN";
}

const char *weir_last_error(void) { return message; }

void weir_clear_error(void) { message[0] = '\0'; }

static void mark_truncated(int written) {
  if (written >= WEIR_MESSAGE_BYTES) memcpy(message + WEIR_MESSAGE_BYTES - 4, "...", 4);
}

weir_status weir_failv(weir_status status, const char *fmt, va_list ap) {
  mark_truncated(vsnprintf(message, sizeof message, fmt, ap));
  return status;
}

weir_status weir_fail(weir_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  weir_failv(status, fmt, ap);
  va_end(ap);
  return status;
}

weir_status weir_fail_context(weir_status status, const char *fmt, ...) {
  char previous[WEIR_MESSAGE_BYTES];
  memcpy(previous, message, sizeof previous);
  char context[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(context, sizeof context, fmt, ap);
  va_end(ap);
  mark_truncated(snprintf(message, sizeof message, "%s: %s", context, previous));
  return status;
}
