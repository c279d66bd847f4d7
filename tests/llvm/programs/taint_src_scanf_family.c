/* scanf-family sources: scanf and fscanf write their pointer arguments;
 * sscanf copies from an already tainted line. An integer read by scanf is
 * printed with a constant format: no finding. */
#include <stdio.h>
#include <stdlib.h>

static void from_scanf(void) {
  char data[100];
  if (scanf("%99s", data) != 1) return;
  system(data); /* EXPECT weir-taint-command-injection from=__isoc99_scanf */
}

static void from_fscanf(FILE *in) {
  char data[100];
  if (fscanf(in, "%99s", data) != 1) return;
  printf(data); /* EXPECT weir-taint-format-string from=__isoc99_fscanf */
}

/* sscanf both reads tainted text and writes its pointer arguments: no
 * `from` here, the nearest source may be named either way. */
static void from_sscanf(void) {
  char line[100];
  char data[100];
  if (fgets(line, sizeof line, stdin) == NULL) return;
  if (sscanf(line, "cmd=%99s", data) != 1) return;
  system(data); /* EXPECT weir-taint-command-injection */
}

static void good(void) {
  int count = 0;
  if (scanf("%d", &count) != 1) return;
  printf("%d\n", count); /* EXPECT-NOT weir-taint */
}

int main(void) {
  from_scanf();
  from_fscanf(stdin);
  from_sscanf();
  good();
  return 0;
}
