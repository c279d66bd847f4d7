/* The goto-cleanup idiom gone wrong: an error path frees the buffer and
 * then jumps to the common cleanup, which frees it again. The good function
 * leaves all freeing to the cleanup label. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(void) {
  int rc = -1;
  char *buf = malloc(128);
  if (buf == NULL) return -1;
  if (fgets(buf, 128, stdin) == NULL) {
    free(buf);
    goto out;
  }
  rc = (int)strlen(buf);
out:
  free(buf); /* EXPECT weir-double-free */
  return rc;
}

static int good(void) {
  int rc = -1;
  char *buf = malloc(128);
  if (buf == NULL) return -1;
  if (fgets(buf, 128, stdin) == NULL) goto out;
  rc = (int)strlen(buf);
out:
  free(buf); /* EXPECT-NOT weir-double-free */
  return rc;
}

int main(void) {
  printf("%d\n", good());
  printf("%d\n", bad());
  return 0;
}
