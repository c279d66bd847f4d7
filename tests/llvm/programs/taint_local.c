/* Taint kept in a local and loaded later, after unrelated work; a clean
 * local next to it stays clean. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
  char request[256];
  char clean[32] = "date";
  ssize_t got = read(0, request, sizeof request - 1);
  if (got <= 0) return 1;
  request[got] = '\0';
  int total = 0;
  for (int i = 0; i < 10; ++i) total += i;
  char copy[256];
  strcpy(copy, request);
  system(clean);
  if (total > 5) popen(copy, "r"); /* EXPECT weir-taint from=read */
  return 0;
}
