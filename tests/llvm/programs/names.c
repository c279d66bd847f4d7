/* Findings name memory in C words from debug info (memory/names.c): the
 * access as written ("p->next->len", "p->inner.r[]", "ip[]"), the object it
 * may be ("len of the block from malloc in make_node at names.c:13"), and a
 * pointer passed to a call as passed ('free' releases 'n'). cli_test.sh
 * checks the messages at -O0 and -O2; line numbers are part of the test. */
#include <stdio.h>
#include <stdlib.h>

struct in { int q; char r[4]; };
struct node { struct node *next; int len; struct in inner; int arr[8]; };

struct node *make_node(void) {
  struct node *n = malloc(sizeof *n);
  n->next = NULL;
  return n;
}

int sum(struct node *p, int i) { return p->next->len + p->inner.r[2] + p->arr[i] + p[1].len; }

int main(int argc, char **argv) {
  (void)argv;
  struct node *n = make_node();
  struct node local;
  local.next = n;
  int *ip = malloc(4 * sizeof(int));
  printf("%d %d\n", sum(&local, argc), ip[argc]);
  free(n);
  printf("%d\n", n->len);
  free(n);
  return 0;
}
