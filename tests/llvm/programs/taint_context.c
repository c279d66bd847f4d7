/* The same helper called with tainted and with clean data: only the tainted
 * call's result is tainted (context sensitivity). No finding. */
#include <stdio.h>
#include <stdlib.h>

static const char *identity(const char *s) { return s; }

int main(void) {
  const char *user = identity(getenv("USER_INPUT"));
  const char *fixed = identity("ls -l");
  puts(user);
  return system(fixed);
}
