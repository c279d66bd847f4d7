/* A small C program with two classic bugs, for `weir analyze`:
 *   - the user's name reaches a shell command through a helper (taint);
 *   - `greeting` is read on a path where it was never set (uninit).
 * Build and analyse it (README.md in this folder shows the output):
 *   clang-14 -g -O0 -emit-llvm -c examples/analyze/command-injection.c -o command-injection.bc
 *   weir analyze taint command-injection.bc --sarif command-injection.sarif
 *   weir analyze uninit command-injection.bc */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Builds "echo Hello, NAME" into out: the name is copied verbatim. */
static void build_command(char *out, size_t size, const char *name) {
  snprintf(out, size, "echo Hello, %s", name);
}

static const char *pick_greeting(int hour) {
  const char *greeting;
  if (hour < 12) greeting = "Good morning";
  else if (hour < 18) greeting = "Good afternoon";
  return greeting; /* no greeting after 18:00 */
}

int main(int argc, char **argv) {
  char name[64];
  char command[128];
  if (!fgets(name, sizeof name, stdin)) return 1;
  name[strcspn(name, "\n")] = '\0';
  build_command(command, sizeof command, name);
  system(command); /* a name like "x; rm -rf ~" runs a second command */
  puts(pick_greeting(argc > 1 ? atoi(argv[1]) : 9));
  return 0;
}
