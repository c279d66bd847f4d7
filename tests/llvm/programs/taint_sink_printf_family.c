/* Format-string sinks of the printf family: printf, fprintf, sprintf,
 * snprintf and dprintf with a tainted format. The same functions with a
 * constant format and the tainted text as an argument are clean. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char data[100];
  char out[200];
  if (fgets(data, sizeof data, stdin) == NULL) return 1;
  data[strcspn(data, "\n")] = '\0';

  printf(data); /* EXPECT weir-taint-format-string from=fgets */
  fprintf(stderr, data); /* EXPECT weir-taint-format-string from=fgets */
  sprintf(out, data); /* EXPECT weir-taint-format-string from=fgets */
  snprintf(out, sizeof out, data); /* EXPECT weir-taint-format-string from=fgets */
  dprintf(2, data); /* EXPECT weir-taint-format-string from=fgets */

  printf("%s\n", data); /* EXPECT-NOT weir-taint */
  fprintf(stderr, "%s\n", data); /* EXPECT-NOT weir-taint */
  dprintf(2, "%s\n", data); /* EXPECT-NOT weir-taint */
  return 0;
}
