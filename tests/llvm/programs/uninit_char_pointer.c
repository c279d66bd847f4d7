/* An uninitialised pointer (Juliet's CWE457 *_char_pointer): printed as a
 * string without ever being set. The good function sets it first. */
#include <stdio.h>
#include <stdlib.h>

static void bad(void) {
  char *data;
  puts(data); /* EXPECT weir-uninit */
}

static void good(void) {
  char *data;
  data = "string";
  puts(data); /* EXPECT-NOT weir-uninit */
}

int main(void) {
  good();
  bad();
  return 0;
}
