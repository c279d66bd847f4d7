/* Data across modules: input.c fills the buffer (out-parameter), main.c
 * formats and prints it, and input.c's run_request runs it. The default
 * request (a constant from input.c) is printed as a format: no finding. */
#include <stdio.h>

#include "input.h"

int main(void) {
  char request[128];
  if (read_request(request, sizeof request) != 0) return 1;
  printf(default_request()); /* EXPECT-NOT weir-taint */
  fprintf(stderr, request); /* EXPECT weir-taint-format-string from=fgets */
  run_request(request);
  return 0;
}
