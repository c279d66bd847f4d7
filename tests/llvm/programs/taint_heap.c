/* Heap blocks: a malloc'd buffer filled by fgets reaches system(); a second
 * block from another allocation site holds a constant command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_line(void) {
  char *line = malloc(100);
  if (line == NULL) exit(1);
  if (fgets(line, 100, stdin) == NULL) line[0] = '\0';
  return line;
}

static char *fixed_command(void) {
  char *command = malloc(100);
  if (command == NULL) exit(1);
  strcpy(command, "ls -l");
  return command;
}

int main(void) {
  char *data = read_line();
  char *safe = fixed_command();
  system(data); /* EXPECT weir-taint-command-injection from=fgets */
  system(safe); /* EXPECT-NOT weir-taint */
  free(data);
  free(safe);
  return 0;
}
