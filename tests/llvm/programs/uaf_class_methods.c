/* Classes of methods the way network daemons write them (Open vSwitch's
 * stream and pstream classes, Linux's file_operations): two tables of
 * function pointers found by name through one generic lookup, so the
 * points-to sets of both class pointers hold both kinds of table. A call
 * through `int (*connect)(struct stream *)` cannot reach
 * `void close(struct pstream *)`: calling a function through a pointer of
 * another type is undefined in C. So closing a passive stream (which frees
 * it) says nothing about an active stream that is connected afterwards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stream;
struct pstream;

struct stream_class {
  const char *name;
  int (*connect)(struct stream *);
  int (*send)(struct stream *, const void *, size_t);
};

struct pstream_class {
  const char *name;
  void (*close)(struct pstream *);
  int (*accept)(struct pstream *, struct stream **);
};

struct stream {
  const struct stream_class *class;
  int state;
  int error;
};

struct pstream {
  const struct pstream_class *class;
  char *path;
};

static int fd_connect(struct stream *s) { return s->state == 0 ? 0 : 11; }

static int fd_send(struct stream *s, const void *data, size_t n) {
  return fwrite(data, 1, n, stdout) == n ? 0 : s->error;
}

static void pfd_close(struct pstream *p) {
  free(p->path);
  free(p);
}

static int pfd_accept(struct pstream *p, struct stream **out) {
  (void)p;
  *out = NULL;
  return 11;
}

static const struct stream_class fd_class = {"fd", fd_connect, fd_send};
static const struct pstream_class pfd_class = {"pfd", pfd_close, pfd_accept};
static const void *const stream_classes[] = {&fd_class};
static const void *const pstream_classes[] = {&pfd_class};

/* Every table's first member is its name. */
static const void *lookup(const void *const *table, size_t n, const char *name) {
  for (size_t i = 0; i < n; ++i)
    if (strcmp(*(const char *const *)table[i], name) == 0) return table[i];
  return NULL;
}

static struct stream *stream_open(const char *name) {
  const struct stream_class *class = lookup(stream_classes, 1, name);
  if (!class) return NULL;
  struct stream *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->class = class;
  return s;
}

static struct pstream *pstream_open(const char *name, const char *path) {
  const struct pstream_class *class = lookup(pstream_classes, 1, name);
  if (!class) return NULL;
  struct pstream *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->class = class;
  p->path = strdup(path);
  return p;
}

static int stream_connect(struct stream *s) {
  int error = s->class->connect(s);
  if (error) {
    s->state = 2; /* EXPECT-NOT weir-use-after-free */
    s->error = error;
  }
  return s->error;
}

static int bad_accept_after_close(struct pstream *p) {
  struct stream *s;
  p->class->close(p);
  return p->class->accept(p, &s); /* EXPECT weir-use-after-free */
}

int main(int argc, char **argv) {
  struct pstream *p = pstream_open("pfd", argc > 1 ? argv[1] : "/tmp/x");
  struct stream *s = stream_open("fd");
  if (p) p->class->close(p);
  if (s) {
    stream_connect(s);
    s->class->send(s, "x", 1); /* EXPECT-NOT weir-use-after-free */
    free(s);
  }
  p = pstream_open("pfd", "/tmp/y");
  if (p && argc > 2) bad_accept_after_close(p);
  return 0;
}
