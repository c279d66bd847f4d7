/* const: integers in memory (a local whose address is taken, a struct
 * field) set to a constant and then tested; arithmetic by constants. */
#include <stdio.h>
#include <string.h>

struct config {
  int mode;
  int verbose;
  long limit;
};

static void fill(int *out, int n) { memset(out, 0, (size_t)n * sizeof *out); } /* EXPECT-VALUE-O0 =16 */
__attribute__((noinline)) int peek(const int *p) { return *p; } /* reads, never writes */

int main(int argc, char **argv) {
  struct config c;
  c.mode = 2;
  c.verbose = argc;
  c.limit = 100;
  int scaled = 7;
  scaled = scaled * 3 + 1;                   /* 22 */
  int seen = peek(&scaled);                  /* the address escapes: scaled stays in memory */
  if (c.mode == 2) puts("mode two");         /* EXPECT-VALUE-O0 c.mode=2 */
  if (c.verbose > 1) puts("verbose");        /* EXPECT-VARIES c.verbose */
  if (scaled == 22) puts("twenty-two");      /* EXPECT-VALUE-O0 scaled=22 */
  long twice = c.limit * 2 - 1;
  if (twice < 0) puts("negative");           /* EXPECT-VALUE-O0 twice=199 */
  int buf[4];
  buf[0] = 5;
  fill(buf, 4);                              /* memset through a declaration: buf is unknown after */
  if (buf[0] == 5) puts("five");             /* EXPECT-VARIES buf[] */
  printf("%d %d %s\n", c.mode, seen, argv[0]); /* EXPECT-VALUE-O0 c.mode=2 EXPECT-VALUE seen=22 */
  return 0;
}
