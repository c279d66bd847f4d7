/* Data through one to five calls: every level forwards the pointer to the
 * next, the fifth runs it. A parallel chain of the same depth carries a
 * constant command. The functions are not inlined, so the chain stays
 * interprocedural at -O2. */
#include <stdio.h>
#include <stdlib.h>

/* Kept as real calls at -O2 too. */
#define NOINLINE __attribute__((noinline))

static NOINLINE void badSink5(const char *data) { system(data); /* EXPECT weir-taint-command-injection from=fgets */ }
static NOINLINE void badSink4(const char *data) { badSink5(data); }
static NOINLINE void badSink3(const char *data) { badSink4(data); }
static NOINLINE void badSink2(const char *data) { badSink3(data); }
static NOINLINE void badSink1(const char *data) { badSink2(data); }

static NOINLINE void goodSink5(const char *data) { system(data); /* EXPECT-NOT weir-taint */ }
static NOINLINE void goodSink4(const char *data) { goodSink5(data); }
static NOINLINE void goodSink3(const char *data) { goodSink4(data); }
static NOINLINE void goodSink2(const char *data) { goodSink3(data); }
static NOINLINE void goodSink1(const char *data) { goodSink2(data); }

int main(void) {
  char dataBuffer[100] = "";
  if (fgets(dataBuffer, sizeof dataBuffer, stdin) == NULL) return 1;
  badSink1(dataBuffer);
  goodSink1("ls -l");
  return 0;
}
