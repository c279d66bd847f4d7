/* Library functions that write through their pointer arguments initialise
 * the memory: scanf, sscanf, memset, fgets, read, time, getline. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(void) {
  int a;
  if (scanf("%d", &a) != 1) return 1;
  printf("%d\n", a); /* EXPECT-NOT weir-uninit */
  int b, c;
  if (sscanf("4 5", "%d %d", &b, &c) != 2) return 1;
  printf("%d\n", b + c); /* EXPECT-NOT weir-uninit */
  char zero[32];
  memset(zero, 0, sizeof zero);
  printf("%d\n", zero[3]); /* EXPECT-NOT weir-uninit */
  char line[64];
  if (fgets(line, sizeof line, stdin) == NULL) return 1;
  printf("%d\n", line[0]); /* EXPECT-NOT weir-uninit */
  char block[16];
  if (read(0, block, sizeof block) != (ssize_t)sizeof block) return 1;
  printf("%d\n", block[15]); /* EXPECT-NOT weir-uninit */
  time_t now;
  time(&now);
  printf("%ld\n", (long)now); /* EXPECT-NOT weir-uninit */
  char *text = NULL;
  size_t cap = 0;
  if (getline(&text, &cap, stdin) > 0) printf("%c\n", text[0]); /* EXPECT-NOT weir-uninit */
  free(text);
  return 0;
}
