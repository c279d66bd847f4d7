/* A heap-allocated struct: a callee stores a tainted pointer in one field
 * and a constant in the other; the caller reads both through another
 * function. */
#include <stdio.h>
#include <stdlib.h>

struct job {
  const char *name;
  const char *command;
  int priority;
};

static struct job *job_new(void) {
  struct job *j = malloc(sizeof *j);
  if (j == NULL) exit(1);
  j->name = getenv("JOB_NAME");
  j->command = "make all";
  j->priority = 0;
  return j;
}

static void job_run(const struct job *j) {
  if (j->name != NULL) printf(j->name); /* EXPECT weir-taint-format-string from=getenv */
  system(j->command); /* EXPECT-NOT weir-taint */
}

int main(void) {
  struct job *j = job_new();
  job_run(j);
  free(j);
  return 0;
}
