/* Memory propagators: memcpy and memmove carry taint from the source block
 * into the destination (also at an offset into a buffer); a block copied
 * from a constant stays clean. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void via_memcpy(const char *line, size_t len) {
  char data[128] = "ls ";
  memcpy(data + 3, line, len + 1);
  system(data); /* EXPECT weir-taint-command-injection from=fgets */
}

static void via_memmove(const char *line, size_t len) {
  char data[128];
  memmove(data, line, len + 1);
  printf(data); /* EXPECT weir-taint-format-string from=fgets */
}

static void good(void) {
  static const char fixed[] = "date";
  char data[128];
  memcpy(data, fixed, sizeof fixed);
  system(data); /* EXPECT-NOT weir-taint */
}

int main(void) {
  char line[100];
  if (fgets(line, sizeof line, stdin) == NULL) return 1;
  size_t len = strlen(line);
  via_memcpy(line, len);
  via_memmove(line, len);
  good();
  return 0;
}
