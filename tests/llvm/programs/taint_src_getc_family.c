/* Character sources: fgetc, getc and getchar fill command buffers one
 * character at a time. (glibc's inline getchar at -O2 calls getc, hence the
 * per-level source name of the getchar flow.) */
#include <stdio.h>
#include <stdlib.h>

static void from_fgetc(void) {
  char data[64];
  int i = 0, c;
  while (i < 63 && (c = fgetc(stdin)) != EOF && c != '\n') data[i++] = (char)c;
  data[i] = '\0';
  system(data); /* EXPECT weir-taint-command-injection from=fgetc */
}

static void from_getc(void) {
  char data[64];
  int i = 0, c;
  while (i < 63 && (c = getc(stdin)) != EOF && c != '\n') data[i++] = (char)c;
  data[i] = '\0';
  system(data); /* EXPECT weir-taint-command-injection from=getc */
}

static void from_getchar(void) {
  char data[64];
  int i = 0, c;
  while (i < 63 && (c = getchar()) != EOF && c != '\n') data[i++] = (char)c;
  data[i] = '\0';
  system(data); /* EXPECT-O0 weir-taint-command-injection from=getchar EXPECT-O2 weir-taint-command-injection from=getc */
}

static void good_counted(void) {
  char data[64];
  int count = 0;
  while (getchar() != EOF) count++;
  snprintf(data, sizeof data, "echo %d", count > 0);
  system(data); /* EXPECT-NOT weir-taint */
}

int main(void) {
  from_fgetc();
  from_getc();
  from_getchar();
  good_counted();
  return 0;
}
