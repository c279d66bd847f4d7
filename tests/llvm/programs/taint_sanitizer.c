/* A configured sanitizer (taint_sanitizer.cfg: `sanitizer shell_escape`):
 * the escaped copy is clean, the escaped-in-place buffer is clean, the
 * unescaped input still reaches the sink. shell_escape is declared only,
 * so clang cannot inline it away at -O2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Drops every character that a shell treats specially, in place, and
 * returns its argument (a library function: only its configuration is
 * known, as for taint_sanitized.c). */
extern char *shell_escape(char *text);

static void bad(void) {
  char data[100] = "";
  if (fgets(data, sizeof data, stdin) == NULL) return;
  system(data); /* EXPECT weir-taint-command-injection from=fgets */
}

static void good_in_place(void) {
  char data[100] = "";
  if (fgets(data, sizeof data, stdin) == NULL) return;
  shell_escape(data);
  system(data); /* EXPECT-NOT weir-taint */
}

static void good_result(void) {
  char *env = getenv("CMD");
  if (env == NULL) return;
  char *copy = strdup(env);
  if (copy == NULL) return;
  char *safe = shell_escape(copy);
  system(safe); /* EXPECT-NOT weir-taint */
  free(copy);
}

int main(void) {
  bad();
  good_in_place();
  good_result();
  return 0;
}
