/* Frees across modules: main frees the session's buffer itself and then
 * closes the session, and pool.c's session_close frees the buffer again.
 * The buffer is read before any free (no finding there). */
#include <stdio.h>
#include <stdlib.h>

#include "pool.h"

int main(void) {
  struct session *s = session_open();
  if (s == NULL) return 1;
  puts(s->buffer); /* EXPECT-NOT weir-use-after-free */
  free(s->buffer); /* EXPECT-NOT weir-use-after-free: session_open frees only on the path that returns NULL */
  session_close(s);
  return 0;
}
