/* Internal to bench/dispatch: a small JSON reader for `weir bench compare`
 * (the reports weir writes; any valid JSON up to 64 levels deep). */
#ifndef WEIR_BENCH_DISPATCH_JSON_H
#define WEIR_BENCH_DISPATCH_JSON_H

#include <stddef.h>

typedef struct bj_value {
  char type; /* 'o' object, 'a' array, 's' string, 'n' number, 't' true, 'f' false, 'z' null */
  double number;
  char *string;            /* 's' */
  struct bj_value *items;  /* 'o', 'a': count values */
  char **keys;             /* 'o': count keys */
  size_t count;
} bj_value;

/* Parses `text`; on error returns -1 with a message naming the byte offset in `err`. */
int bj_parse(const char *text, bj_value *out, char *err, size_t err_size);
void bj_free(bj_value *v);
/* Member `key` of an object, or NULL. */
const bj_value *bj_get(const bj_value *object, const char *key);
/* The member's number / string, or `fallback`. */
double bj_number(const bj_value *object, const char *key, double fallback);
const char *bj_string(const bj_value *object, const char *key, const char *fallback);

#endif
