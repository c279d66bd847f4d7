/* Conditions written on one path and tested right after the paths join,
 * as real C (Open vSwitch) writes them at -O0; a path-insensitive analysis
 * joins the paths and reports the variable that only the path the test
 * lets through has set:
 * - a loop condition `i < n ? (x = v[i], 1) : 0` (OVS's SVEC_FOR_EACH);
 * - an error from a constructor that never returns NULL on the paths that
 *   skip the out-parameter (`if (bad) error = syntax_error(..); else error =
 *   parse(.., &out); if (error) return error; use(out);`);
 * - two variables set together (`op = NULL; if (a) { row = x; op = "a"; }
 *   ... if (op) use(row);`).
 * weir threads these branches (module/thread.c). The reads that really
 * come before a write are still reported. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

struct svec {
  char **names;
  size_t n;
};
#define SVEC_FOR_EACH(INDEX, NAME, SVEC) \
  for ((INDEX) = 0; (INDEX) < (SVEC)->n ? ((NAME) = (SVEC)->names[INDEX], 1) : 0; (INDEX)++)

static NOINLINE size_t total_length(const struct svec *lines) {
  size_t i, total = 0;
  char *line;
  SVEC_FOR_EACH (i, line, lines) {
    total += strlen(line); /* EXPECT-NOT weir-uninit (the condition set it) */
  }
  return total;
}

struct error {
  const char *tag;
  char *details;
};

static NOINLINE void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) abort();
  return p;
}

static NOINLINE struct error *syntax_error(const char *tag, const char *fmt, ...) {
  struct error *e = xmalloc(sizeof *e);
  va_list args;
  va_start(args, fmt);
  char buf[64];
  vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  e->tag = tag ? tag : "syntax error";
  e->details = strdup(buf);
  return e;
}

static NOINLINE struct error *parse_number(const char *s, long *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*end) return syntax_error(NULL, "not a number: %s", s);
  *out = v;
  return NULL;
}

static NOINLINE struct error *sum_numbers(char **words, int n, long *sum) {
  *sum = 0;
  for (int k = 0; k < n; ++k) {
    long value;
    struct error *error;
    if (words[k][0] == '_') error = syntax_error(NULL, "reserved: %s", words[k]);
    else if (!words[k][0]) error = syntax_error("empty", "word %d", k);
    else error = parse_number(words[k], &value);
    if (error) return error;
    *sum += value; /* EXPECT-NOT weir-uninit (every path without an error set it) */
  }
  return NULL;
}

static NOINLINE long log_change(const long *old, const long *new_) {
  const long *row;
  const char *op = NULL;
  if (!old && new_) {
    row = new_;
    op = "inserted";
  } else if (old && !new_) {
    row = old;
    op = "deleted";
  }
  if (op) return *row + (long)strlen(op); /* EXPECT-NOT weir-uninit (row is set wherever op is) */
  return 0;
}

static NOINLINE long first_or_unset(int n, const long *v) {
  long first;
  int found = 0;
  for (int k = 0; k < n; ++k)
    if (v[k] > 0) {
      first = v[k];
      found = 1;
      break;
    }
  if (n > 2 || found) printf("%ld\n", first); /* EXPECT-O0 weir-uninit (n > 2 does not mean found; -O2 folds the undefined value away) */
  return found;
}

int main(int argc, char **argv) {
  struct svec lines = {argv, (size_t)argc};
  long sum = 0, a = argc;
  struct error *e = sum_numbers(argv + 1, argc - 1, &sum);
  long r = (long)total_length(&lines) + sum + log_change(argc > 1 ? &a : NULL, argc > 2 ? &a : NULL);
  r += first_or_unset(argc, &a);
  if (e) free(e->details);
  free(e);
  return (int)r;
}
