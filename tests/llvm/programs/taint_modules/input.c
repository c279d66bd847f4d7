/* The input side of a two-module program: reads a request from stdin into
 * the caller's buffer, or gives a constant default. */
#include <stdio.h>
#include <string.h>

#include "input.h"

int read_request(char *out, int size) {
  if (fgets(out, size, stdin) == NULL) return -1;
  out[strcspn(out, "\n")] = '\0';
  return 0;
}

const char *default_request(void) { return "uptime"; }

void run_request(const char *request) {
  FILE *pipe = popen(request, "r"); /* EXPECT weir-taint-command-injection from=fgets */
  if (pipe != NULL) pclose(pipe);
}
