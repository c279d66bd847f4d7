/* secret-log on the constructs it follows: values, memory, library copies,
 * helpers and returns. Markers as in tests/llvm (EXPECT RULE [from=NAME]). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

static void log_line(const char *what) {
  printf("log: %s\n", what); /* EXPECT secret-to-output from=getpass */
}

static const char *home(void) { return getenv("HOME"); }

int main(void) {
  char *pass = getpass("password: ");
  log_line(pass);
  char copy[64];
  strcpy(copy, pass);
  syslog(LOG_INFO, "copy %s", copy); /* EXPECT secret-to-output from=getpass */
  const char *h = home();
  fputs(h, stderr); /* EXPECT secret-to-output from=getenv */
  puts("no secret here"); /* EXPECT-NOT secret-to-output */
  char buf[32];
  snprintf(buf, sizeof buf, "%d", 42);
  puts(buf); /* EXPECT-NOT secret-to-output */
  return 0;
}
