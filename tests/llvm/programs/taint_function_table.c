/* A table of handlers chosen by a runtime index: the tainted argument
 * reaches every handler of the table, one of which runs it; handlers of a
 * second table only receive a constant string. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*handler_fn)(const char *);

static int do_echo(const char *arg) { return printf("%s\n", arg); }
static int do_run(const char *arg) { return system(arg); /* EXPECT weir-taint-command-injection from=fgets */ }
static int do_count(const char *arg) { return (int)strlen(arg); }

static int show_help(const char *arg) { return puts(arg); }
static int show_date(const char *arg) { return system(arg); /* EXPECT-NOT weir-taint */ }

static const handler_fn handlers[] = {do_echo, do_run, do_count};
static const handler_fn helpers[] = {show_help, show_date};

int main(int argc, char **argv) {
  (void)argv;
  char line[128];
  if (fgets(line, sizeof line, stdin) == NULL) return 1;
  int which = argc % 3;
  handlers[which](line);
  helpers[argc % 2]("date");
  return 0;
}
