/* Buffers filled by appends at a count and read back below it, as C
 * daemons write them (Open vSwitch's update_remote_row and its JSON update
 * parsers): a chain of `if`s each appending `keys[n] = ..; values[n++] =
 * ..`, and `struct update *u = &t->updates[t->n++]` in a loop over a list.
 * On the path where nothing is appended the count stays 0 and nothing is
 * read; weir takes such arrays as initialised (analyses/append.c). An
 * array filled by an induction variable, and a field nothing writes, are
 * still checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE void write_column(const char *name, char **keys, char **values, size_t n) {
  for (size_t i = 0; i < n; i++) printf("%s %s=%s\n", name, keys[i], values[i]); /* EXPECT-NOT weir-uninit */
  for (size_t i = 0; i < n; i++) {
    free(keys[i]); /* EXPECT-NOT weir-uninit */
    free(values[i]); /* EXPECT-NOT weir-uninit */
  }
}

void update_status(int connected, const char *state, int sec, const char *error) {
  char *keys[4], *values[4];
  size_t n = 0;
  if (state) {
    keys[n] = strdup("state");
    values[n++] = strdup(state);
  }
  if (sec >= 0) {
    keys[n] = strdup("sec");
    values[n] = malloc(16);
    if (values[n]) snprintf(values[n], 16, "%d", sec);
    n++;
  }
  if (error) {
    keys[n] = strdup("last_error");
    values[n++] = strdup(error);
  }
  write_column(connected ? "up" : "down", keys, values, n);
}

struct item {
  const char *name;
  struct item *next;
};
struct update {
  const char *name;
  int type;
};
struct table_update {
  size_t n;
  struct update *updates;
};

static NOINLINE size_t count(const struct item *list) {
  size_t n = 0;
  for (; list; list = list->next) n++;
  return n;
}

static NOINLINE struct table_update *parse(const struct item *list) {
  struct table_update *t = malloc(sizeof *t);
  if (!t) return NULL;
  t->n = 0;
  t->updates = malloc((count(list) + 1) * sizeof *t->updates);
  if (!t->updates) return t;
  for (const struct item *i = list; i; i = i->next) {
    struct update *u = &t->updates[t->n++];
    *u = (struct update){.name = i->name, .type = i->name[0] == '-'};
  }
  return t;
}

int apply(const struct item *list) {
  struct table_update *t = parse(list);
  int deleted = 0;
  for (size_t k = 0; t && t->updates && k < t->n; k++)
    deleted += t->updates[k].type; /* EXPECT-NOT weir-uninit (appended below t->n) */
  int scores[8];
  for (int k = 0; k < 4; k++) scores[k] = k;
  deleted += scores[6]; /* EXPECT-O0 weir-uninit (filled by an induction variable up to 4 only; -O2 folds it) */
  if (t) free(t->updates);
  free(t);
  return deleted;
}

int main(int argc, char **argv) {
  struct item b = {argv[0], NULL}, a = {"-x", &b};
  update_status(argc > 1, argc > 2 ? argv[2] : NULL, argc - 3, argc > 3 ? argv[3] : NULL);
  return apply(&a);
}
