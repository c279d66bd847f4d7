/* A sanitized flow: with `sanitizer shell_quote` (taint_sanitized.cfg) the
 * quoted command is clean; the unquoted one still is not. */
#include <stdlib.h>

extern char *shell_quote(const char *text);

int main(void) {
  char *raw = getenv("NAME");
  char *quoted = shell_quote(raw);
  system(quoted);
  return system(raw); /* EXPECT weir-taint from=getenv */
}
