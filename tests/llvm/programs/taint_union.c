/* A union: the tainted pointer is written through one member and read
 * through the other (Juliet's CWE78 *_34 pattern). The good variant puts a
 * clean string in the union. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef union {
  char *unionFirst;
  char *unionSecond;
} unionType;

static void bad(void) {
  unionType myUnion;
  char dataBuffer[100] = "";
  char *data = dataBuffer;
  if (fgets(data, 100, stdin) == NULL) return;
  myUnion.unionFirst = data;
  char *command = myUnion.unionSecond;
  system(command); /* EXPECT weir-taint-command-injection from=fgets */
}

static void good(void) {
  unionType myUnion;
  char dataBuffer[100] = "";
  char *data = dataBuffer;
  strcpy(data, "ls -l");
  myUnion.unionFirst = data;
  char *command = myUnion.unionSecond;
  system(command); /* EXPECT-NOT weir-taint */
}

int main(void) {
  bad();
  good();
  return 0;
}
