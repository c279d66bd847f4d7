/* A tiny session pool in its own module: session_close frees the session's
 * buffer; session_open allocates it. */
#include <stdio.h>
#include <stdlib.h>

#include "pool.h"

struct session *session_open(void) {
  struct session *s = malloc(sizeof *s);
  if (s == NULL) return NULL;
  s->buffer = malloc(256);
  if (s->buffer == NULL) {
    free(s);
    return NULL;
  }
  if (fgets(s->buffer, 256, stdin) == NULL) s->buffer[0] = '\0';
  return s;
}

void session_close(struct session *s) {
  free(s->buffer); /* EXPECT weir-double-free */
  free(s);
}
