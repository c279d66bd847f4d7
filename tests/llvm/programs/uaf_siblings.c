/* Blocks of one allocation site are one abstract object; freeing one of
 * them must not make its siblings freed. The shapes of real code where
 * that went wrong (BlueZ's btmon): two strings from the same strdup freed
 * one after the other, a queue whose popped entry is freed while the
 * others stay, an array of buffers freed in a loop, a destroy callback
 * that the points-to sets let every container call. And the bugs among
 * those shapes, which must stay found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE char *copy(const char *s) { return strdup(s); }

static NOINLINE void names(const char *a, const char *b) {
  char *first = copy(a), *second = copy(b);
  if (!first || !second) return;
  free(first);
  printf("%s\n", second); /* EXPECT-NOT weir-use-after-free: second is another block of the same strdup */
  free(second);           /* EXPECT-NOT weir-double-free */
}

static NOINLINE void names_bad(const char *a) {
  char *first = copy(a);
  if (!first) return;
  free(first);
  printf("%s\n", first); /* EXPECT weir-use-after-free */
}

struct entry {
  void *data;
  struct entry *next;
};

struct queue {
  struct entry *head;
};

static NOINLINE void push(struct queue *q, void *data) {
  struct entry *e = malloc(sizeof *e);
  if (!e) exit(1);
  e->data = data;
  e->next = q->head;
  q->head = e;
}

static NOINLINE void *pop(struct queue *q) {
  struct entry *e = q->head;
  if (!e) return NULL;
  q->head = e->next;
  void *data = e->data;
  free(e);
  return data;
}

typedef void (*destroy_fn)(void *);

static NOINLINE void queue_destroy(struct queue *q, destroy_fn destroy) {
  void *data;
  while ((data = pop(q)) != NULL) destroy(data);
}

struct timing {
  long sent;
};

static NOINLINE void timing_free(void *p) { free(p); }

static NOINLINE void conns(void) {
  struct queue q = {NULL};
  for (int i = 0; i < 3; ++i) {
    struct timing *t = malloc(sizeof *t);
    if (!t) exit(1);
    t->sent = i;
    push(&q, t);
  }
  struct timing *last = pop(&q);
  if (last) {
    long sent = last->sent;
    free(last);
    printf("%ld\n", sent);
  }
  struct timing *next = pop(&q); /* EXPECT-NOT weir-use-after-free: the queue's other entries are alive */
  if (next) printf("%ld\n", next->sent); /* EXPECT-NOT weir-use-after-free */
  free(next);
  queue_destroy(&q, timing_free);
}

static NOINLINE void conns_bad(void) {
  struct queue q = {NULL};
  struct timing *t = malloc(sizeof *t);
  if (!t) exit(1);
  t->sent = 1;
  push(&q, t);
  struct timing *last = pop(&q);
  free(last);
  if (last) printf("%ld\n", last->sent); /* EXPECT weir-use-after-free */
}

static NOINLINE void buffers(int n) {
  char *bufs[4];
  for (int i = 0; i < 4; ++i) {
    bufs[i] = malloc(16);
    if (!bufs[i]) exit(1);
    snprintf(bufs[i], 16, "%d", n + i);
  }
  for (int i = 0; i < 4; ++i) free(bufs[i]); /* EXPECT-NOT weir-double-free: each element once */
}

int main(int argc, char **argv) {
  names(argv[0], argc > 1 ? argv[1] : "x");
  names_bad(argv[0]);
  conns();
  conns_bad();
  buffers(argc);
  return 0;
}
