/* The program-wide constants of Juliet's io.c, in their own module. */
#include "flags.h"

const int GLOBAL_CONST_TRUE = 1;
const int GLOBAL_CONST_FALSE = 0;
const int GLOBAL_CONST_FIVE = 5;
int globalTrue = 1;
int globalFalse = 0;

int globalReturnsTrue(void) { return 1; }
int globalReturnsFalse(void) { return 0; }
