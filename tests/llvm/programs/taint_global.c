/* A global written in one function and read in another: the tainted
 * pointer travels through a static global, the clean one through another. */
#include <stdio.h>
#include <stdlib.h>

static char *gCommand;
static char *gSafeCommand;

static void set_command(void) {
  gCommand = getenv("CMD");
  gSafeCommand = "ls -l";
}

static void run_command(void) {
  if (gCommand != NULL) system(gCommand); /* EXPECT weir-taint-command-injection from=getenv */
}

static void run_safe_command(void) {
  system(gSafeCommand); /* EXPECT-NOT weir-taint */
}

int main(void) {
  set_command();
  run_command();
  run_safe_command();
  return 0;
}
