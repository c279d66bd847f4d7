/* A function pointer held in a local: the tainted data goes to the sink
 * through an indirect call; the good variant calls through a pointer to a
 * function that only prints the data as a value. */
#include <stdio.h>
#include <stdlib.h>

static void badSink(char *data) {
  system(data); /* EXPECT weir-taint-command-injection from=getenv */
}

static void goodSink(char *data) {
  printf("%s\n", data); /* EXPECT-NOT weir-taint */
}

static void bad(void) {
  void (*funcPtr)(char *) = badSink;
  char *data = getenv("CMD");
  if (data == NULL) return;
  funcPtr(data);
}

static void good(void) {
  void (*funcPtr)(char *) = goodSink;
  char *data = getenv("CMD");
  if (data == NULL) return;
  funcPtr(data);
}

int main(void) {
  bad();
  good();
  return 0;
}
