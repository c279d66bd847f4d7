/* Data handed to a callee in a file-scope variable: the callee reads the
 * global (and what it points to), so the caller's tainted buffer must enter
 * it, and what the callee writes through the global must come back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static char *g;
static char *g_clean;
static char g_line[128];
static struct { char *cmd; int len; } g_req;

static NOINLINE void sink(void) {
  system(g); /* EXPECT weir-taint-command-injection from=fgets */
}

static NOINLINE void sink_clean(void) {
  system(g_clean); /* EXPECT-NOT weir-taint */
}

static NOINLINE void sink_array(void) {
  system(g_line); /* EXPECT weir-taint-command-injection from=fgets */
}

static NOINLINE void sink_field(void) {
  system(g_req.cmd); /* EXPECT weir-taint-command-injection from=getenv */
}

static NOINLINE void fill(void) { fgets(g_line, sizeof g_line, stdin); }

static NOINLINE void read_into_global(void) {
  char *p = g;
  fgets(p, 100, stdin);
}

static NOINLINE void run_back(void) {
  char buf[100] = "ls";
  g = buf;
  read_into_global();
  system(buf); /* EXPECT weir-taint-command-injection from=fgets */
}

static NOINLINE void f(void) {
  char buf[100];
  char safe[100] = "ls -l";
  fgets(buf, 100, stdin);
  g = buf;
  g_clean = safe;
  sink();
  sink_clean();
}

int main(void) {
  f();
  fill();
  sink_array();
  g_req.cmd = getenv("CMD");
  sink_field();
  run_back();
  return 0;
}
