/* A struct owning a heap block: the block behind one field is freed and
 * then used through that field; the block behind the other field is still
 * alive and its use is clean. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct message {
  char *header;
  char *body;
};

int main(void) {
  struct message m;
  m.header = malloc(32);
  m.body = malloc(128);
  if (m.header == NULL || m.body == NULL) return 1;
  strcpy(m.header, "Subject");
  if (fgets(m.body, 128, stdin) == NULL) m.body[0] = '\0';
  free(m.body);
  puts(m.header); /* EXPECT-NOT weir-use-after-free */
  puts(m.body); /* EXPECT weir-use-after-free */
  free(m.header);
  return 0;
}
