/* A struct with one tainted field and one clean field (field
 * sensitivity): only the tainted field reaches a sink as a finding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct request {
  char user[64];
  char command[64];
  int flags;
};

static void fill(struct request *r) {
  if (fgets(r->user, sizeof r->user, stdin) == NULL) r->user[0] = '\0';
  strcpy(r->command, "uptime");
  r->flags = 0;
}

int main(void) {
  struct request req;
  fill(&req);
  system(req.command); /* EXPECT-NOT weir-taint */
  printf(req.user); /* EXPECT weir-taint-format-string from=fgets */
  return req.flags;
}
