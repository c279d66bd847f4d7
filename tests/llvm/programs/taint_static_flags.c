/* Constant global flags (Juliet's *_05 / *_06 / *_08 patterns): staticTrue
 * and staticFalse are never written, STATIC_CONST_FIVE is const, and
 * staticReturnsTrue()/staticReturnsFalse() return constants. With the
 * constant branches folded, the dead source paths produce no finding. */
#include <stdio.h>
#include <stdlib.h>

static int staticTrue = 1;
static int staticFalse = 0;
static const int STATIC_CONST_FIVE = 5;

static int staticReturnsTrue(void) { return 1; }
static int staticReturnsFalse(void) { return 0; }

static void bad_static(void) {
  char *data = "ls";
  if (staticTrue) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT weir-taint-command-injection from=getenv */
}

static void good_static(void) {
  char *data = "ls";
  if (staticFalse) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT-NOT weir-taint */
}

static void bad_five(void) {
  char *data = "ls";
  if (STATIC_CONST_FIVE == 5) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT weir-taint-command-injection from=getenv */
}

static void good_five(void) {
  char *data = "ls";
  if (STATIC_CONST_FIVE != 5) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT-NOT weir-taint */
}

static void bad_returns(void) {
  char *data = "ls";
  if (staticReturnsTrue()) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT weir-taint-command-injection from=getenv */
}

static void good_returns(void) {
  char *data = "ls";
  if (staticReturnsFalse()) data = getenv("CMD");
  if (data != NULL) system(data); /* EXPECT-NOT weir-taint */
}

/* Both branches of a constant flag: the sink sits on the live one. */
static void good_sink_branch(void) {
  char *data = getenv("CMD");
  if (data == NULL) return;
  if (staticFalse) {
    system(data); /* EXPECT-NOT weir-taint */
  } else {
    printf("%s\n", data);
  }
}

int main(void) {
  bad_static();
  good_static();
  bad_five();
  good_five();
  bad_returns();
  good_returns();
  good_sink_branch();
  return 0;
}
