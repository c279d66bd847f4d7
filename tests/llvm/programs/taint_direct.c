/* A direct source -> sink flow: the environment reaches system(). */
#include <stdlib.h>

int main(void) {
  const char *command = getenv("COMMAND");
  return system(command); /* EXPECT weir-taint from=getenv */
}
