/* The constants, in their own module: only linking the two modules tells
 * the analysis what the guards return. */
#include "flags.h"

const int GLOBAL_TRUE = 1;
const int GLOBAL_FALSE = 0;
const int GLOBAL_FIVE = 5;
int globalFive = 5; /* never written: as constant as the const ones */

int globalTrue(void) { return GLOBAL_TRUE; }
int globalFalse(void) { return GLOBAL_FALSE; }
int globalReturnsFive(void) { return globalFive; }
