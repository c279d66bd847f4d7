/* A small C program with an uninitialised read, for `weir analyze uninit`:
 * `timeout` is set only when a second argument is given, but printed
 * always. `port` is set by parse_port() on the path where it is used.
 * Build and analyse it (README.md shows the output):
 *   clang-14 -g -O0 -emit-llvm -c examples/analyze/uninitialized.c -o uninitialized.bc
 *   weir analyze uninit uninitialized.bc */
#include <stdio.h>
#include <stdlib.h>

/* Returns 0 and sets *port when text is a number, -1 otherwise. */
static int parse_port(const char *text, int *port) {
  char *end;
  long value = strtol(text, &end, 10);
  if (end == text || *end != '\0') return -1;
  *port = (int)value;
  return 0;
}

int main(int argc, char **argv) {
  int port;
  int timeout;
  if (argc > 2) timeout = atoi(argv[2]);
  if (parse_port(argc > 1 ? argv[1] : "8080", &port) != 0) return 2;
  printf("port %d\n", port);
  printf("timeout %d\n", timeout); /* unset when there is no second argument */
  return 0;
}
