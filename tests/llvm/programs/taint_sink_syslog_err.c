/* Format-string sinks that log: syslog, and the BSD err/errx/warn/warnx
 * family (err and errx do not return, so each runs on its own path). */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>

int main(int argc, char **argv) {
  (void)argv;
  const char *data = getenv("MSG");
  if (data == NULL) return 1;
  syslog(LOG_INFO, data); /* EXPECT weir-taint-format-string from=getenv */
  warn(data); /* EXPECT weir-taint-format-string from=getenv */
  warnx(data); /* EXPECT weir-taint-format-string from=getenv */
  syslog(LOG_INFO, "%s", data); /* EXPECT-NOT weir-taint */
  warnx("%s", data); /* EXPECT-NOT weir-taint */
  if (argc > 3) err(1, data); /* EXPECT weir-taint-format-string from=getenv */
  if (argc > 2) errx(1, data); /* EXPECT weir-taint-format-string from=getenv */
  errx(0, "%s", data); /* EXPECT-NOT weir-taint */
}
