/* Buffers filled by appends at a count and read back below it, as C
 * daemons write them (Open vSwitch's update_remote_row and its JSON update
 * parsers): a chain of `if`s each appending `keys[n] = ..; values[n++] =
 * ..`, and `struct update *u = &t->updates[t->n++]` in a loop over a list.
 * On the path where nothing is appended the count stays 0 and nothing is
 * read; weir takes such arrays as initialised (analyses/uninit/append.c). An
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

/* Words split into a fixed array inside a loop over strtok (weir's own
 * manifest reader): the counter is loop-carried, but the loop's own test
 * is the token, not the count; a helper reads the words below the count. */
static NOINLINE int key_value(const char *const *tok, int nt, const char **out) {
  if (nt < 2) return 0;
  if (strcmp(tok[0], "name") != 0) return 0; /* EXPECT-NOT weir-uninit */
  *out = tok[1];                              /* EXPECT-NOT weir-uninit */
  return 1;
}

static NOINLINE int split(char *text, const char **name) {
  int found = 0;
  for (char *lsave = NULL, *l = strtok_r(text, "\n", &lsave); l; l = strtok_r(NULL, "\n", &lsave)) {
    const char *tok[4];
    int nt = 0;
    for (char *save = NULL, *t = strtok_r(l, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
      if (nt == 4) return -1;
      tok[nt++] = t;
    }
    if (nt == 0) continue;
    found += key_value(tok, nt, name);
  }
  return found;
}

/* A count kept in a struct field, appended under a capacity check and
 * incremented in place (weir's own registry of backend reports). */
struct report {
  const char *id;
  int code;
};
struct sink {
  struct report *reports;
  size_t count, capacity;
};

static NOINLINE void sink_add(struct sink *s, const struct report *r) {
  if (s->count < s->capacity) s->reports[s->count] = *r;
  s->count++;
}

static NOINLINE int find_report(const char *id, int argc) {
  struct report buf[4];
  struct sink s = {buf, 0, 4};
  struct report a = {"cpu", 0}, b = {"vulkan", argc};
  sink_add(&s, &a);
  if (argc > 1) sink_add(&s, &b);
  for (size_t i = 0; i < s.count && i < 4; ++i)
    if (strcmp(buf[i].id, id) == 0) return buf[i].code; /* EXPECT-NOT weir-uninit */
  return -1;
}

/* A counted loop is no append: with len == 0 nothing is written and the
 * string is not even terminated (btmon's print_pin_code). */
static NOINLINE void print_code(const unsigned char *code, unsigned char len) {
  char str[len + 1];
  for (unsigned char i = 0; i < len; i++) str[i] = (char)code[i];
  printf("%s\n", str); /* EXPECT weir-uninit */
}

int main(int argc, char **argv) {
  struct item b = {argv[0], NULL}, a = {"-x", &b};
  update_status(argc > 1, argc > 2 ? argv[2] : NULL, argc - 3, argc > 3 ? argv[3] : NULL);
  char text[32] = "name weir\nsize 3";
  const char *name = NULL;
  print_code((const unsigned char *)argv[0], (unsigned char)(argc - 1));
  return apply(&a) + split(text, &name) + find_report(argv[0], argc);
}
