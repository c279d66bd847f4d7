/* Functions that clean up what they built when they fail, the way parsers
 * and constructors are written in C (Open vSwitch's *_from_json, GLib's
 * GError functions): on failure they free the fields they filled and
 * return an error (a non-null error object, or -1); on success they free
 * nothing. A caller that returns when the call failed uses the fields
 * safely and frees them once at the end. A caller that does not look at
 * the result uses freed fields on the failure path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct error {
  int code;
};

struct header {
  char *name;
  char *address;
  int joining;
};

static struct error *make_error(int code) {
  struct error *e = malloc(sizeof *e);
  if (!e) abort();
  e->code = code;
  return e;
}

static void header_uninit(struct header *h) {
  free(h->name);    /* EXPECT-NOT weir-double-free */
  free(h->address); /* EXPECT-NOT weir-double-free */
}

static struct error *parse_header(struct header *h, const char *text) {
  memset(h, 0, sizeof *h);
  h->name = strdup(text);
  h->address = strdup(text + 1);
  struct error *error = NULL;
  if (!h->name || !h->address || text[0] == '#') error = make_error(22);
  if (error) header_uninit(h);
  return error;
}

static int read_header(const char *text) {
  struct header h;
  struct error *error = parse_header(&h, text);
  if (error) {
    free(error);
    return -1;
  }
  printf("%s %s\n", h.name, h.address); /* EXPECT-NOT weir-use-after-free */
  header_uninit(&h);                    /* EXPECT-NOT weir-double-free */
  return 0;
}

struct config {
  char *path;
  int lines;
};

/* -1 and everything freed, or 0 */
static int load_config(struct config *c, FILE *f) {
  char line[256];
  c->lines = 0;
  c->path = strdup("config");
  if (!c->path) return -1;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '!') {
      free(c->path);
      c->path = NULL;
      return -1;
    }
    c->lines++;
  }
  return 0;
}

static void use_config(FILE *f) {
  struct config c;
  if (load_config(&c, f) != 0) return;
  printf("%s: %d\n", c.path, c.lines); /* EXPECT-NOT weir-use-after-free */
  free(c.path);                        /* EXPECT-NOT weir-double-free */
}

/* A set emptied and made again on a parser's failure (`sset_destroy(a);
 * sset_init(a);`) leaves no freed pointer behind, so the void helper that
 * may call it frees nothing of the header, and parse_server still frees
 * the header's fields only when it fails. */
struct set {
  char **items;
  size_t n;
};

static void set_init(struct set *s) {
  s->items = NULL;
  s->n = 0;
}

static void set_destroy(struct set *s) {
  for (size_t i = 0; i < s->n; ++i) free(s->items[i]);
  free(s->items);
}

static int parse_list(struct set *s, const char *text) {
  set_init(s);
  s->items = malloc(sizeof *s->items);
  if (!s->items) return -1;
  s->items[0] = strdup(text);
  s->n = s->items[0] ? 1 : 0;
  if (text[0] == '!') {
    set_destroy(s);
    set_init(s);
    return -1;
  }
  return 0;
}

struct server {
  char *name;
  struct set addresses;
};

static void parse_fields(struct server *h, const char *text, int *failed) {
  h->name = strdup(text);
  if (parse_list(&h->addresses, text) != 0) *failed = 1;
}

static void server_uninit(struct server *h) {
  free(h->name); /* EXPECT-NOT weir-double-free */
  set_destroy(&h->addresses);
}

static struct error *parse_server(struct server *h, const char *text) {
  int failed = 0;
  parse_fields(h, text, &failed);
  struct error *error = failed || !h->name ? make_error(22) : NULL;
  if (error) server_uninit(h);
  return error;
}

static void use_server(const char *text) {
  struct server h;
  struct error *error = parse_server(&h, text);
  if (error) {
    free(error);
    return;
  }
  printf("%s\n", h.name); /* EXPECT-NOT weir-use-after-free */
  server_uninit(&h);
}

static void bad_ignores_error(const char *text) {
  struct header h;
  struct error *error = parse_header(&h, text);
  printf("%s\n", h.name); /* EXPECT weir-use-after-free */
  free(error);
}

int main(int argc, char **argv) {
  read_header(argc > 1 ? argv[1] : "#x");
  use_config(stdin);
  if (argc > 2) bad_ignores_error(argv[2]);
  use_server(argc > 3 ? argv[3] : "!");
  return 0;
}
