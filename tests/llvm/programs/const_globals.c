/* const: globals the way Juliet and real C write them: a static never
 * stored to (prepare's fold already handles it), a global written only
 * with its own constant, a global flag changed on one path (not constant
 * after the merge). */
#include <stdio.h>
#include <stdlib.h>

static int staticFive = 5;
int g_seven = 7;
int g_changed = 0;
int g_counter;

__attribute__((noinline)) static void bump(void) { g_counter = g_counter + 1; }
__attribute__((noinline)) void set_seven(void) { g_seven = 7; }

int main(int argc, char **argv) {
  if (staticFive == 5) puts("five");         /* folded by prepare: no use left */
  set_seven();                               /* written only with 7, in a callee */
  if (g_seven == 7) puts("seven");           /* EXPECT-VALUE g_seven=7 */
  if (argc > 2) g_changed = 1;
  if (g_changed) puts("changed");            /* EXPECT-VARIES-O0 g_changed EXPECT-VALUE-O2 g_changed=0 (-O2 loads it only where argc <= 2) */
  g_counter = 3;
  bump();
  if (g_counter == 4) puts("four");          /* EXPECT-VALUE g_counter=4 */
  printf("%s\n", argv[0]);
  return 0;
}
