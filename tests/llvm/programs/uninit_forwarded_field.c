/* readelf's section headers: `f->headers = cmalloc(num, ..)`, then a loop
 * through `h = f->headers` fills every element. At -O0 each mention of
 * f->headers is a load of the field, and the field holds every block any
 * code ever stores there (here also the copy made for a second file), so
 * the stores through `h` were weak and the loop filled nothing: every read
 * of a header was reported. The load right after the store is the stored
 * block (prepare's store-to-load forwarding, as clang -O2 does). The
 * `spare` field no code writes stays a real finding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

struct header {
  unsigned name, type;
  unsigned long size;
  unsigned spare;
};

struct file {
  struct header *headers;
  unsigned count;
};

static NOINLINE int read_headers(struct file *f, const unsigned char *raw) {
  struct header *h;
  unsigned i;
  f->headers = malloc(f->count * sizeof *f->headers);
  if (f->headers == NULL) return 0;
  for (i = 0, h = f->headers; i < f->count; i++, h++) {
    h->name = raw[i];
    h->type = raw[i] >> 1;
    h->size = raw[i] * 4ul;
  }
  return 1;
}

static NOINLINE void copy_file(struct file *to, const struct file *from) {
  to->count = from->count;
  to->headers = malloc(from->count * sizeof *to->headers);
  if (to->headers) memcpy(to->headers, from->headers, from->count * sizeof *to->headers);
}

static NOINLINE unsigned long total(const struct file *f) {
  unsigned long sum = 0;
  for (unsigned i = 0; i < f->count; i++) sum += f->headers[i].size; /* EXPECT-NOT weir-uninit */
  return sum;
}

int main(int argc, char **argv) {
  struct file f = {NULL, (unsigned)argc}, g;
  if (!read_headers(&f, (const unsigned char *)argv[0])) return 1;
  copy_file(&g, &f);
  printf("%lu %lu\n", total(&f), total(&g));
  printf("%u\n", f.headers[0].spare); /* EXPECT weir-uninit: no code writes spare */
  free(g.headers);
  free(f.headers);
  return 0;
}
