/* String propagators: strcpy, strncpy, strcat and strncat carry the taint
 * of their source string into the destination buffer. Each destination
 * that only receives constants stays clean. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void via_strcpy(const char *input) {
  char data[100];
  strcpy(data, input);
  system(data); /* EXPECT weir-taint-command-injection from=getenv */
}

static void via_strncpy(const char *input) {
  char data[100];
  strncpy(data, input, sizeof data - 1);
  data[sizeof data - 1] = '\0';
  printf(data); /* EXPECT weir-taint-format-string from=getenv */
}

static void via_strcat(const char *input) {
  char data[200] = "ls ";
  strcat(data, input);
  system(data); /* EXPECT weir-taint-command-injection from=getenv */
}

/* Juliet's CWE78 *_environment pattern: strncat(data + len, getenv(...)). */
static void via_strncat(void) {
  char dataBuffer[100] = "ls ";
  char *data = dataBuffer;
  size_t dataLen = strlen(data);
  char *environment = getenv("ADD");
  if (environment != NULL) strncat(data + dataLen, environment, 100 - dataLen - 1);
  FILE *p = popen(data, "r"); /* EXPECT weir-taint-command-injection from=getenv */
  if (p != NULL) pclose(p);
}

static void good(const char *input) {
  char data[200];
  strcpy(data, "ls ");
  strncat(data, "-l", 3);
  printf("%s: %zu\n", input, strlen(input));
  system(data); /* EXPECT-NOT weir-taint */
}

int main(void) {
  const char *input = getenv("INPUT");
  if (input == NULL || strlen(input) > 90) return 1;
  via_strcpy(input);
  via_strncpy(input);
  via_strcat(input);
  via_strncat();
  good(input);
  return 0;
}
