/* Library functions that read the memory behind their pointer arguments:
 * strlen and puts of a buffer that was never written read uninitialised
 * memory; the same calls on a written buffer do not. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  char unset[32];
  char set[32];
  if (argc > 1) snprintf(set, sizeof set, "%s", argv[1]);
  else strcpy(set, "none");
  printf("%zu\n", strlen(set)); /* EXPECT-NOT weir-uninit */
  puts(set); /* EXPECT-NOT weir-uninit */
  printf("%zu\n", strlen(unset)); /* EXPECT weir-uninit */
  puts(unset); /* EXPECT-NOT weir-uninit: the same unset buffer, listed with the read above (one finding per bug) */
  return 0;
}
