/* A global pointer: one function frees the block, another uses it later.
 * A second global's block is freed only at the end. */
#include <stdio.h>
#include <stdlib.h>

static char *gCache;
static char *gLog;

static void init(void) {
  gCache = malloc(64);
  gLog = malloc(64);
  if (gCache == NULL || gLog == NULL) exit(1);
  if (fgets(gCache, 64, stdin) == NULL) gCache[0] = '\0';
  if (fgets(gLog, 64, stdin) == NULL) gLog[0] = '\0';
}

static void flush(void) { free(gCache); }

static void report(void) {
  fputs(gLog, stdout); /* EXPECT-NOT weir-use-after-free */
  fputs(gCache, stdout); /* EXPECT weir-use-after-free */
}

int main(void) {
  init();
  flush();
  report();
  free(gLog);
  return 0;
}
