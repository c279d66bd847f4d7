/* Intrusive lists the way daemons write them (Open vSwitch's ovs_list,
 * the Linux kernel's list_head): the node is the first member of each
 * element, the list head is a member in the middle of its owner, and the
 * loop macros turn a node back into its element. At -O2 clang forgets the
 * element's type: the block is first cast to the node's type and
 * `conn->rpc` becomes `(struct list *)conn + 1`. Destroying the owner
 * frees every element and then the owner's own fields: nothing there is
 * used after it is freed. Using an element after its own free is. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct list {
  struct list *prev, *next;
};

#define CONTAINER_OF(p, type, member) ((type *)(void *)((char *)(p) - offsetof(type, member)))

struct rpc {
  int fd;
  char *peer;
};

struct conn {
  struct list node;
  struct rpc *rpc;
  char *request;
};

struct server {
  FILE *listener;
  struct list conns;
  char *path;
};

static void *xzalloc(size_t n) {
  void *p = calloc(1, n);
  if (!p) abort();
  return p;
}

static char *xstrdup(const char *s) {
  char *p = strdup(s);
  if (!p) abort();
  return p;
}

static void list_init(struct list *l) { l->prev = l->next = l; }

static void list_push_back(struct list *l, struct list *e) {
  e->prev = l->prev;
  e->next = l;
  l->prev->next = e;
  l->prev = e;
}

static void list_remove(struct list *e) {
  e->prev->next = e->next;
  e->next->prev = e->prev;
}

static struct server *server_create(const char *path) {
  struct server *s = xzalloc(sizeof *s);
  s->listener = fopen(path, "r");
  s->path = xstrdup(path);
  list_init(&s->conns);
  return s;
}

static void server_accept(struct server *s, int fd) {
  struct conn *c = xzalloc(sizeof *c);
  list_push_back(&s->conns, &c->node);
  c->rpc = xzalloc(sizeof *c->rpc);
  c->rpc->fd = fd;
  c->rpc->peer = xstrdup("peer");
}

static void kill_connection(struct conn *c) {
  list_remove(&c->node);
  free(c->rpc->peer);
  free(c->rpc);
  free(c->request);
  free(c);
}

static void server_run(struct server *s) {
  for (struct list *n = s->conns.next, *next; n != &s->conns; n = next) {
    next = n->next;
    struct conn *c = CONTAINER_OF(n, struct conn, node);
    if (c->rpc->fd < 0) kill_connection(c);
  }
}

static void server_destroy(struct server *s) {
  for (struct list *n = s->conns.next, *next; n != &s->conns; n = next) {
    next = n->next;
    kill_connection(CONTAINER_OF(n, struct conn, node));
  }
  free(s->path); /* EXPECT-NOT weir-double-free */
  if (s->listener) fclose(s->listener); /* EXPECT-NOT weir-use-after-free */
  free(s);
}

static void bad_last_request(struct server *s) {
  if (s->conns.next == &s->conns) return;
  struct conn *c = CONTAINER_OF(s->conns.next, struct conn, node);
  kill_connection(c);
  printf("%d\n", c->rpc->fd); /* EXPECT weir-use-after-free */
}

int main(int argc, char **argv) {
  struct server *s = server_create(argc > 1 ? argv[1] : "/dev/null");
  for (int i = 0; i < argc; ++i) server_accept(s, i - 1);
  server_run(s);
  if (argc > 3) bad_last_request(s);
  server_destroy(s);
  return 0;
}
