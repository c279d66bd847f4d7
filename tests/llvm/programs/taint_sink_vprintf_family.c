/* Format-string sinks taking a va_list: vprintf, vfprintf, vsprintf and
 * vsnprintf inside printf-like wrappers, called with a tainted format.
 * A wrapper called only with constant formats is clean. At -O2 glibc's
 * inline vprintf (<bits/stdio.h>) turns the first call into
 * vfprintf(stdout, ...) inside the header: the finding stays at the line of
 * the vprintf call in this file. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void log_vprintf(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vprintf(format, args); /* EXPECT weir-taint-format-string from=getenv */
  va_end(args);
}

static void log_vfprintf(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vfprintf(stderr, format, args); /* EXPECT weir-taint-format-string from=getenv */
  va_end(args);
}

static void log_vsprintf(const char *format, ...) {
  char out[256];
  va_list args;
  va_start(args, format);
  vsprintf(out, format, args); /* EXPECT weir-taint-format-string from=getenv */
  va_end(args);
  puts(out);
}

static void log_vsnprintf(const char *format, ...) {
  char out[256];
  va_list args;
  va_start(args, format);
  vsnprintf(out, sizeof out, format, args); /* EXPECT weir-taint-format-string from=getenv */
  va_end(args);
  puts(out);
}

static void log_fixed(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vfprintf(stderr, format, args); /* EXPECT-NOT weir-taint */
  va_end(args);
}

int main(void) {
  const char *data = getenv("MSG");
  if (data == NULL) return 1;
  log_vprintf(data);
  log_vfprintf(data);
  log_vsprintf(data);
  log_vsnprintf(data);
  log_fixed("%s\n", data);
  return 0;
}
