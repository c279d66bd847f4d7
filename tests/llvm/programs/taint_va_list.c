/* A printf-like logger built on vfprintf (Juliet's CWE134 *_vasinks): the
 * tainted string is the format in the bad logger, an argument behind a
 * constant format in the good one. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void badVaSink(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vfprintf(stdout, format, args); /* EXPECT weir-taint-format-string from=getenv */
  va_end(args);
}

static void goodVaSink(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vfprintf(stdout, format, args); /* EXPECT-NOT weir-taint */
  va_end(args);
}

int main(void) {
  char *data = getenv("MESSAGE");
  if (data == NULL) return 1;
  badVaSink(data, data);
  goodVaSink("%s\n", data);
  return 0;
}
