/* A `char **` alias of the data pointer: the source is read through one
 * name, the sink through the other. The good variant redirects the alias to
 * a clean string before the sink. */
#include <stdio.h>
#include <stdlib.h>

static void bad(void) {
  char *data = NULL;
  char **alias = &data;
  *alias = getenv("ADD");
  if (data == NULL) return;
  char *command = *alias;
  system(command); /* EXPECT weir-taint-command-injection from=getenv */
}

static void good(void) {
  char *data = getenv("ADD");
  char **alias = &data;
  if (data == NULL) return;
  puts(data);
  *alias = "ls -l";
  system(data); /* EXPECT-NOT weir-taint */
}

int main(void) {
  bad();
  good();
  return 0;
}
