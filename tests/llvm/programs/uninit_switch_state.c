/* A state variable set with the value it guards and tested by a switch
 * right after: `state = 1` only where `value` is set, `switch (state) {
 * case 1: use(value); default: .. }`. At -O0 the switch on mem2reg's phi
 * joined both paths (a false finding at the use); a switch with two places
 * to go is now a branch, which jump threading splits by the incoming
 * value. The same with a default that may read an unset variable is real.
 * -O0's cleanup switch after a scope with a VLA (`goto again`) is the
 * same shape. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE int pick(const char *s) {
  int state = 0, value;
  if (s[0] == 'v') {
    value = atoi(s + 1);
    state = 1;
  }
  switch (state) {
  case 1:
    return value;
  default:
    return -1;
  }
}

static NOINLINE int pick_bad(const char *s) {
  int state = 0, value;
  if (s[0] == 'w') {
    value = atoi(s + 1);
    state = 1;
  }
  switch (state) {
  case 1:
    return 0;
  default:
    return value; /* state 0 is the path that leaves value unset: the use is the caller's */
  }
}

static NOINLINE int retry(const char *s, int n) {
  int status;
again:
  {
    char buf[n + 1]; /* a VLA: -O0 restores the stack in a cleanup block that switches */
    strncpy(buf, s, (size_t)n);
    buf[n] = '\0';
    if (buf[0] == 'r' && n > 1) {
      n--;
      goto again;
    }
    status = (int)strlen(buf);
  }
  return status;
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int a = pick(argv[1]);
  if (a > 0) puts("a"); /* EXPECT-NOT weir-uninit: value is set wherever state is 1 */
  int b = pick_bad(argv[1]);
  if (b > 0) puts("b"); /* EXPECT-O0 weir-uninit: (-O2 folds the undef away) */
  int c = retry(argv[1], (int)strlen(argv[1]));
  if (c > 0) puts("c"); /* EXPECT-NOT weir-uninit: status is set before the scope is left */
  return 0;
}
