/* Formatting propagators: sprintf and snprintf write tainted arguments
 * into their buffer; vsprintf and vsnprintf do the same inside variadic
 * helpers. The same helpers formatting constants produce clean buffers
 * (the helpers are reached in a tainted and a clean calling context). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void format_v(char *out, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsprintf(out, format, args);
  va_end(args);
}

static void format_vn(char *out, size_t size, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(out, size, format, args);
  va_end(args);
}

int main(void) {
  const char *name = getenv("NAME");
  if (name == NULL) return 1;
  char a[256], b[256], c[256], d[256], e[256];
  sprintf(a, "ls %.200s", name);
  system(a); /* EXPECT weir-taint-command-injection from=getenv */
  snprintf(b, sizeof b, "id %s", name);
  system(b); /* EXPECT weir-taint-command-injection from=getenv */
  format_v(c, "cat %.200s", name);
  system(c); /* EXPECT weir-taint-command-injection from=getenv */
  format_vn(d, sizeof d, "wc %s", name);
  system(d); /* EXPECT weir-taint-command-injection from=getenv */
  format_vn(e, sizeof e, "echo %d", 42);
  system(e); /* EXPECT-NOT weir-taint */
  return 0;
}
