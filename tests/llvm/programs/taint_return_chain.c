/* The source is read three calls down and comes back up through return
 * values; a sibling chain returns a constant. The same wrapper
 * (pass_through) is used by both chains: its result is tainted only in the
 * calling context that passed tainted data. */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE char *pass_through(char *s) { return s; }

static NOINLINE char *badSource3(void) { return getenv("CMD"); }
static NOINLINE char *badSource2(void) { return pass_through(badSource3()); }
static NOINLINE char *badSource1(void) { return badSource2(); }

static NOINLINE char *goodSource3(void) { return "ls -l"; }
static NOINLINE char *goodSource2(void) { return pass_through(goodSource3()); }
static NOINLINE char *goodSource1(void) { return goodSource2(); }

int main(void) {
  char *data = badSource1();
  if (data != NULL) system(data); /* EXPECT weir-taint-command-injection from=getenv */
  char *safe = goodSource1();
  system(safe); /* EXPECT-NOT weir-taint */
  return 0;
}
