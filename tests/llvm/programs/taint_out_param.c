/* Out-parameters: a callee fills the caller's buffer from the network-ish
 * stdin, another returns a heap copy through a `char **`; a third fills a
 * buffer with a constant. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_request(char *out, size_t size) {
  if (fgets(out, (int)size, stdin) == NULL) return -1;
  out[strcspn(out, "\n")] = '\0';
  return 0;
}

static int copy_request(char **out, const char *line) {
  *out = strdup(line);
  return *out == NULL ? -1 : 0;
}

static void default_request(char *out, size_t size) {
  snprintf(out, size, "%s", "uptime");
}

int main(void) {
  char line[128];
  char fallback[128];
  char *copy = NULL;
  if (read_request(line, sizeof line) != 0) return 1;
  if (copy_request(&copy, line) != 0) return 1;
  default_request(fallback, sizeof fallback);
  system(copy); /* EXPECT weir-taint-command-injection from=fgets */
  system(fallback); /* EXPECT-NOT weir-taint */
  free(copy);
  return 0;
}
