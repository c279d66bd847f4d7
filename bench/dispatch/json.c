/* A recursive-descent JSON reader, enough for weir's own reports: objects,
 * arrays, strings (escapes kept simple: \uXXXX becomes '?'), numbers,
 * literals. Depth is bounded so that a hostile file cannot exhaust the stack. */
#include "bench/dispatch/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bj_parser {
  const char *s;
  size_t at;
  char *err;
  size_t err_size;
} bj_parser;

static int fail(bj_parser *p, const char *what) {
  if (p->err[0] == 0) snprintf(p->err, p->err_size, "%s at byte %zu", what, p->at);
  return -1;
}

static void skip(bj_parser *p) {
  while (p->s[p->at] == ' ' || p->s[p->at] == '\n' || p->s[p->at] == '\r' || p->s[p->at] == '\t')
    ++p->at;
}

static int parse_value(bj_parser *p, bj_value *v, int depth);

static int parse_string(bj_parser *p, char **out) {
  size_t cap = 16, n = 0;
  char *buf = malloc(cap);
  if (!buf) return fail(p, "out of memory");
  ++p->at; /* opening quote */
  for (;;) {
    char c = p->s[p->at++];
    if (c == 0 || (unsigned char)c < 0x20) {
      free(buf);
      return fail(p, "unterminated string");
    }
    if (c == '"') break;
    if (c == '\\') {
      char e = p->s[p->at++];
      c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f'
          : e == 'u' ? '?' : e;
      if (e == 'u') {
        for (int k = 0; k < 4; ++k)
          if (!p->s[p->at++]) {
            free(buf);
            return fail(p, "bad \\u escape");
          }
      } else if (e == 0) {
        free(buf);
        return fail(p, "unterminated string");
      }
    }
    if (n + 2 > cap) {
      char *grown = realloc(buf, cap *= 2);
      if (!grown) {
        free(buf);
        return fail(p, "out of memory");
      }
      buf = grown;
    }
    buf[n++] = c;
  }
  buf[n] = 0;
  *out = buf;
  return 0;
}

static int append(bj_parser *p, bj_value *v, char *key) {
  if ((v->count & (v->count - 1)) == 0) { /* grow at powers of two */
    size_t cap = v->count ? v->count * 2 : 4;
    bj_value *items = realloc(v->items, cap * sizeof *items);
    if (items) v->items = items;
    char **keys = v->type == 'o' ? realloc(v->keys, cap * sizeof *keys) : NULL;
    if (keys) v->keys = keys;
    if (!items || (v->type == 'o' && !keys)) return fail(p, "out of memory");
  }
  memset(&v->items[v->count], 0, sizeof *v->items);
  v->items[v->count].type = 'z';
  if (v->type == 'o') v->keys[v->count] = key;
  ++v->count;
  return 0;
}

static int parse_container(bj_parser *p, bj_value *v, int depth) {
  char close = v->type == 'o' ? '}' : ']';
  ++p->at;
  skip(p);
  if (p->s[p->at] == close) return ++p->at, 0;
  for (;;) {
    char *key = NULL;
    skip(p);
    if (v->type == 'o') {
      if (p->s[p->at] != '"' || parse_string(p, &key)) return fail(p, "expected a key");
      skip(p);
      if (p->s[p->at++] != ':') return free(key), fail(p, "expected ':'");
    }
    if (append(p, v, key)) return free(key), -1;
    if (parse_value(p, &v->items[v->count - 1], depth + 1)) return -1;
    skip(p);
    char c = p->s[p->at++];
    if (c == close) return 0;
    if (c != ',') return fail(p, "expected ',' or the container's end");
  }
}

static int parse_value(bj_parser *p, bj_value *v, int depth) {
  if (depth > 64) return fail(p, "nested deeper than 64 levels");
  skip(p);
  char c = p->s[p->at];
  memset(v, 0, sizeof *v);
  if (c == '{' || c == '[') {
    v->type = c == '{' ? 'o' : 'a';
    return parse_container(p, v, depth);
  }
  if (c == '"') {
    v->type = 's';
    return parse_string(p, &v->string);
  }
  static const char *const words[] = {"true", "false", "null"};
  for (int k = 0; k < 3; ++k)
    if (strncmp(p->s + p->at, words[k], strlen(words[k])) == 0) {
      v->type = "tfz"[k];
      p->at += strlen(words[k]);
      return 0;
    }
  char *end = NULL;
  v->number = strtod(p->s + p->at, &end);
  if (end == p->s + p->at) return v->type = 'z', fail(p, "expected a value");
  v->type = 'n';
  p->at = (size_t)(end - p->s);
  return 0;
}

int bj_parse(const char *text, bj_value *out, char *err, size_t err_size) {
  bj_parser p = {text, 0, err, err_size};
  err[0] = 0;
  if (parse_value(&p, out, 0) == 0) {
    skip(&p);
    if (text[p.at] == 0) return 0;
    fail(&p, "text after the value");
  }
  bj_free(out);
  return -1;
}

void bj_free(bj_value *v) {
  for (size_t i = 0; i < v->count; ++i) {
    bj_free(&v->items[i]);
    if (v->type == 'o') free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->string);
  memset(v, 0, sizeof *v);
}

const bj_value *bj_get(const bj_value *o, const char *key) {
  for (size_t i = 0; o && o->type == 'o' && i < o->count; ++i)
    if (o->keys[i] && strcmp(o->keys[i], key) == 0) return &o->items[i];
  return NULL;
}

double bj_number(const bj_value *o, const char *key, double fallback) {
  const bj_value *v = bj_get(o, key);
  return v && v->type == 'n' ? v->number : fallback;
}

const char *bj_string(const bj_value *o, const char *key, const char *fallback) {
  const bj_value *v = bj_get(o, key);
  return v && v->type == 's' ? v->string : fallback;
}
