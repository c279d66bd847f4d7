/* strdup, strndup and strtok: the heap copies and the tokens of tainted
 * text are tainted; tokens of a constant string are clean. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void via_strdup(const char *input) {
  char *data = strdup(input);
  if (data == NULL) return;
  system(data); /* EXPECT weir-taint-command-injection from=getenv */
  free(data);
}

static void via_strndup(const char *input) {
  char *data = strndup(input, 32);
  if (data == NULL) return;
  printf(data); /* EXPECT weir-taint-format-string from=getenv */
  free(data);
}

static void via_strtok(const char *input) {
  char buffer[128];
  snprintf(buffer, sizeof buffer, "%s", input);
  char *token = strtok(buffer, " ");
  if (token != NULL) system(token); /* EXPECT weir-taint-command-injection from=getenv */
}

static void good(void) {
  char buffer[] = "uptime -p";
  char *token = strtok(buffer, " ");
  if (token != NULL) system(token); /* EXPECT-NOT weir-taint */
  char *copy = strdup("date");
  if (copy == NULL) return;
  system(copy); /* EXPECT-NOT weir-taint */
  free(copy);
}

int main(void) {
  const char *input = getenv("INPUT");
  if (input == NULL) return 1;
  via_strdup(input);
  via_strndup(input);
  via_strtok(input);
  good();
  return 0;
}
