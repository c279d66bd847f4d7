/* Freeing a linked list: the bad loop reads n->next after free(n) (the
 * classic bug); the good loop saves the next pointer first. All nodes come
 * from one allocation site. */
#include <stdio.h>
#include <stdlib.h>

struct node {
  int value;
  struct node *next;
};

static struct node *build(int n) {
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *fresh = malloc(sizeof *fresh);
    if (fresh == NULL) break;
    fresh->value = i;
    fresh->next = head;
    head = fresh;
  }
  return head;
}

static void bad_free_all(struct node *head) {
  for (struct node *n = head; n != NULL; n = n->next) /* EXPECT weir-use-after-free */
    free(n); /* KNOWN-FP weir-double-free: all nodes are one allocation site */
}

static void good_free_all(struct node *head) {
  struct node *n = head;
  while (n != NULL) {
    struct node *next = n->next; /* EXPECT-NOT weir-use-after-free KNOWN-FP weir-use-after-free: one allocation site for all nodes */
    free(n); /* EXPECT-NOT weir-double-free KNOWN-FP weir-double-free: one allocation site for all nodes */
    n = next;
  }
}

int main(int argc, char **argv) {
  (void)argv;
  good_free_all(build(argc));
  bad_free_all(build(argc)); /* KNOWN-FP-O0 weir-use-after-free: one allocation site for all nodes */
  return 0;
}
