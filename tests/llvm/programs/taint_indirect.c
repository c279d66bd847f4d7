/* A flow through an indirect call: the function pointer may be either
 * handler of type void (const char *); one of them runs the command. */
#include <stdio.h>
#include <stdlib.h>

static void run_it(const char *what) {
  system(what); /* EXPECT weir-taint from=getenv */
}

static void log_it(const char *what) { fputs(what, stderr); }

int main(int argc, char **argv) {
  void (*handler)(const char *) = argc > 1 ? run_it : log_it;
  (void)argv;
  handler(getenv("ACTION"));
  return 0;
}
