/* Constant flags defined in a second module (flags.c): with both modules
 * analysed together the branch on a constant is folded, and the dead
 * source path produces no finding (Juliet's *_09, *_10, *_11, *_14). */
#include <stdio.h>
#include <stdlib.h>

#include "flags.h"

static void bad_const_true(void) {
  char *data = "ls";
  if (GLOBAL_CONST_TRUE) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT weir-taint-command-injection from=getenv */
}

static void good_const_false(void) {
  char *data = "ls";
  if (GLOBAL_CONST_FALSE) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT-NOT weir-taint */
}

static void good_const_five(void) {
  char *data = "ls";
  if (GLOBAL_CONST_FIVE != 5) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT-NOT weir-taint */
}

static void bad_returns_true(void) {
  char *data = "ls";
  if (globalReturnsTrue()) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT weir-taint-command-injection from=getenv */
}

static void good_returns_false(void) {
  char *data = "ls";
  if (globalReturnsFalse()) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT-NOT weir-taint */
}

static void good_global_false(void) {
  char *data = "ls";
  if (globalFalse) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT-NOT weir-taint */
}

static void bad_global_true(void) {
  char *data = "ls";
  if (globalTrue) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT weir-taint-command-injection from=getenv */
}

int main(void) {
  bad_const_true();
  good_const_false();
  good_const_five();
  bad_returns_true();
  good_returns_false();
  good_global_false();
  bad_global_true();
  return 0;
}
