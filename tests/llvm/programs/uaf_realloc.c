/* realloc may move the block: the old pointer must not be used after a
 * successful realloc. The good function only uses the new pointer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bad(void) {
  char *data = malloc(16);
  if (data == NULL) return;
  strcpy(data, "abc");
  char *grown = realloc(data, 4096);
  if (grown == NULL) {
    free(data); /* KNOWN-FP-O0 weir-double-free: path-insensitive (realloc failed: the old block is still live) */
    return;
  }
  puts(data); /* EXPECT weir-use-after-free */
  free(grown);
} /* KNOWN-FP-O2 weir-double-free: -O2 merges the frees (line 0); reported at the closing brace, path-insensitive as at -O0 */

static void good(void) {
  char *data = malloc(16);
  if (data == NULL) return;
  strcpy(data, "abc");
  char *grown = realloc(data, 4096);
  if (grown == NULL) {
    free(data); /* KNOWN-FP-O0 weir-double-free: path-insensitive (realloc failed: the old block is still live) */
    return;
  }
  data = grown;
  puts(data); /* EXPECT-NOT weir-use-after-free */
  free(data);
} /* KNOWN-FP-O2 weir-double-free: -O2 merges the frees (line 0); reported at the closing brace, path-insensitive as at -O0 */

int main(void) {
  good();
  bad();
  return 0;
}
