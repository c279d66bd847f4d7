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
  return 0;
}
