/* Globals are zero-initialised (never uninitialised); a global pointer to a
 * malloc'd block allocated in one function and read in another reads the
 * block's uninitialised contents. A second block is filled first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gCount;
static char *gBuffer;
static char *gFilled;

static void setup(void) {
  gBuffer = malloc(64);
  gFilled = malloc(64);
  if (gBuffer == NULL || gFilled == NULL) exit(1);
  strcpy(gFilled, "ready");
}

static void show(void) {
  printf("%d\n", gCount); /* EXPECT-NOT weir-uninit */
  printf("%c\n", gFilled[0]); /* EXPECT-NOT weir-uninit */
  printf("%c\n", gBuffer[0]); /* EXPECT weir-uninit */
}

int main(void) {
  setup();
  show();
  free(gBuffer);
  free(gFilled);
  return 0;
}
