/* --baseline OLD.sarif: the findings of an earlier run, by their
 * partialFingerprints (weirFindingHash/v2), so that only new ones are
 * reported. The file is parsed as JSON in full (a small recursive-descent
 * reader: no JSON library is a dependency of weir) and must be SARIF 2.1.0
 * written by weir; anything else is refused with what was found where. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/report/report.h"

#define DEPTH_MAX 64

typedef struct reader {
  const char *name, *p, *end, *start;
  const char *error; /* first error, static text */
  size_t error_at;
  /* What is collected on the way (path-dependent, see value()). */
  char version[16];
  int weir_tool, v1_prints;
  char **prints;
  size_t print_count, print_cap;
  int oom;
} reader;

static int fail_at(reader *r, const char *what) {
  if (!r->error) {
    r->error = what;
    r->error_at = (size_t)(r->p - r->start);
  }
  return 0;
}

static void skip_space(reader *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) ++r->p;
}

/* A JSON string; its text (escapes kept as they are: fingerprints, ids and
 * names weir writes have none) goes to out[0..size) when out is given. */
static int string(reader *r, char *out, size_t size, size_t *length) {
  if (r->p >= r->end || *r->p != '"') return fail_at(r, "expected a string");
  const char *s = ++r->p;
  while (r->p < r->end && *r->p != '"') {
    if ((unsigned char)*r->p < 0x20) return fail_at(r, "a control character inside a string");
    if (*r->p == '\\') {
      if (++r->p >= r->end || !strchr("\"\\/bfnrtu", *r->p)) return fail_at(r, "a bad escape in a string");
    }
    ++r->p;
  }
  if (r->p >= r->end) return fail_at(r, "a string that does not end");
  size_t n = (size_t)(r->p - s);
  if (length) *length = n;
  if (out) snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), s);
  ++r->p;
  return 1;
}

static int literal(reader *r) {
  static const char *const words[] = {"true", "false", "null"};
  for (size_t k = 0; k < 3; ++k) {
    size_t n = strlen(words[k]);
    if ((size_t)(r->end - r->p) >= n && strncmp(r->p, words[k], n) == 0) return r->p += n, 1;
  }
  const char *s = r->p;
  if (r->p < r->end && *r->p == '-') ++r->p;
  while (r->p < r->end && strchr("0123456789.eE+-", *r->p)) ++r->p;
  return r->p > s && (r->p[-1] >= '0' && r->p[-1] <= '9') ? 1 : fail_at(r, "expected a JSON value");
}

/* Where the value is, as the path of keys that matter: the reader collects
 * version, runs[].tool.driver.name and runs[].results[].partialFingerprints. */
typedef enum place {
  AT_OTHER, AT_TOP, AT_RUNS, AT_RUN, AT_TOOL, AT_DRIVER, AT_RESULTS, AT_RESULT, AT_PRINTS
} place;

static place child(place parent, const char *key) {
  switch (parent) {
  case AT_TOP: return strcmp(key, "runs") == 0 ? AT_RUNS : AT_OTHER;
  case AT_RUN: return strcmp(key, "tool") == 0 ? AT_TOOL : strcmp(key, "results") == 0 ? AT_RESULTS : AT_OTHER;
  case AT_TOOL: return strcmp(key, "driver") == 0 ? AT_DRIVER : AT_OTHER;
  case AT_RESULT: return strcmp(key, "partialFingerprints") == 0 ? AT_PRINTS : AT_OTHER;
  default: return AT_OTHER;
  }
}

static void keep_print(reader *r, const char *text) {
  if (r->print_count == r->print_cap) {
    size_t cap = r->print_cap ? r->print_cap * 2 : 64;
    char **grown = realloc(r->prints, cap * sizeof *grown);
    if (!grown) {
      r->oom = 1;
      return;
    }
    r->prints = grown;
    r->print_cap = cap;
  }
  char *copy = strdup(text);
  if (!copy) r->oom = 1;
  else r->prints[r->print_count++] = copy;
}

static int value(reader *r, place at, int depth);

/* A string member at a place that matters. */
static int member_string(reader *r, place at, const char *key) {
  char text[64];
  size_t n = 0;
  if (!string(r, text, sizeof text, &n)) return 0;
  if (at == AT_TOP && strcmp(key, "version") == 0) snprintf(r->version, sizeof r->version, "%.15s", text);
  if (at == AT_DRIVER && strcmp(key, "name") == 0) r->weir_tool = strcmp(text, "weir") == 0;
  if (at == AT_PRINTS && strcmp(key, WEIR_LLVM_FINGERPRINT_KEY) == 0 && n < sizeof text) keep_print(r, text);
  if (at == AT_PRINTS && strcmp(key, "weirFindingHash/v1") == 0) r->v1_prints++;
  return 1;
}

static int object(reader *r, place at, int depth) {
  ++r->p;
  skip_space(r);
  if (r->p < r->end && *r->p == '}') return ++r->p, 1;
  for (;;) {
    char key[64];
    skip_space(r);
    if (!string(r, key, sizeof key, NULL)) return 0;
    skip_space(r);
    if (r->p >= r->end || *r->p != ':') return fail_at(r, "expected ':' after a key");
    ++r->p;
    skip_space(r);
    if (r->p < r->end && *r->p == '"') {
      if (!member_string(r, at, key)) return 0;
    } else if (!value(r, child(at, key), depth + 1)) {
      return 0;
    }
    skip_space(r);
    if (r->p < r->end && *r->p == ',') {
      ++r->p;
      continue;
    }
    if (r->p < r->end && *r->p == '}') return ++r->p, 1;
    return fail_at(r, "expected ',' or '}' in an object");
  }
}

static int array(reader *r, place at, int depth) {
  place element = at == AT_RUNS ? AT_RUN : at == AT_RESULTS ? AT_RESULT : AT_OTHER;
  ++r->p;
  skip_space(r);
  if (r->p < r->end && *r->p == ']') return ++r->p, 1;
  for (;;) {
    skip_space(r);
    if (!value(r, element, depth + 1)) return 0;
    skip_space(r);
    if (r->p < r->end && *r->p == ',') {
      ++r->p;
      continue;
    }
    if (r->p < r->end && *r->p == ']') return ++r->p, 1;
    return fail_at(r, "expected ',' or ']' in an array");
  }
}

static int value(reader *r, place at, int depth) {
  if (depth > DEPTH_MAX) return fail_at(r, "nesting deeper than 64 levels");
  skip_space(r);
  if (r->p >= r->end) return fail_at(r, "the text ends where a value should be");
  if (*r->p == '{') return object(r, at, depth);
  if (*r->p == '[') return array(r, at, depth);
  if (*r->p == '"') return string(r, NULL, 0, NULL);
  return literal(r);
}

static void reader_free(reader *r) {
  for (size_t k = 0; k < r->print_count; ++k) free(r->prints[k]);
  free(r->prints);
}

static int cmp_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Marks each finding, counts the baseline's fingerprints that no finding has. */
static void mark(weir_llvm_findings *findings, reader *r) {
  qsort(r->prints, r->print_count, sizeof *r->prints, cmp_text);
  size_t distinct = 0;
  for (size_t k = 0; k < r->print_count; ++k)
    if (!distinct || strcmp(r->prints[distinct - 1], r->prints[k]) != 0) r->prints[distinct++] = r->prints[k];
    else free(r->prints[k]);
  r->print_count = distinct;
  size_t matched = 0;
  for (size_t k = 0; k < findings->count; ++k) {
    weir_llvm_finding *f = &findings->items[k];
    const char *key = f->fingerprint;
    int known = bsearch(&key, r->prints, r->print_count, sizeof *r->prints, cmp_text) != NULL;
    f->baseline = known ? WEIR_LLVM_BASELINE_UNCHANGED : WEIR_LLVM_BASELINE_NEW;
    matched += known;
  }
  findings->baseline_count = r->print_count;
  findings->baseline_absent = r->print_count - matched; /* fingerprints are unique per run ("HASH:N") */
}

weir_status weir_llvm_findings_baseline_text(weir_llvm_findings *findings, const char *name, const char *text,
                                             size_t length) {
  reader r = {0};
  r.name = name;
  r.p = r.start = text;
  r.end = text + length;
  int ok = value(&r, AT_TOP, 0);
  skip_space(&r);
  if (ok && r.p != r.end) ok = fail_at(&r, "more text after the JSON value");
  weir_status s = WEIR_OK;
  if (r.oom) {
    s = weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for the fingerprints of --baseline '%s'. Fix: free "
                  "memory", name);
  } else if (!ok) {
    s = weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: --baseline '%s' is not JSON: %s at byte %zu. Fix: give a "
                  "SARIF file that weir analyze --sarif wrote", name, r.error, r.error_at);
  } else if (strcmp(r.version, "2.1.0") != 0) {
    s = weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: --baseline '%s' is not SARIF 2.1.0 (version '%s'). Fix: "
                  "give a SARIF file that weir analyze --sarif wrote", name, r.version);
  } else if (!r.weir_tool) {
    s = weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: --baseline '%s' was not written by weir (its tool.driver."
                  "name is not \"weir\"): other tools' fingerprints do not match weir's. Fix: give a SARIF file "
                  "that weir analyze --sarif wrote", name);
  } else if (r.v1_prints && !r.print_count) {
    s = weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: --baseline '%s' holds %d fingerprints of an older weir "
                  "(weirFindingHash/v1), which this weir does not compute. Fix: write the baseline again with this "
                  "weir (weir analyze ... --sarif '%s') on the older sources", name, r.v1_prints, name);
  } else {
    mark(findings, &r);
  }
  reader_free(&r);
  return s;
}

weir_status weir_llvm_findings_baseline(weir_llvm_findings *findings, const char *path) {
  FILE *in = fopen(path, "rb");
  if (!in)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: cannot read --baseline '%s': %s. Fix: give the SARIF "
                     "file of an earlier weir analyze --sarif run", path, strerror(errno));
  char *text = NULL;
  size_t n = 0, cap = 0;
  int oom = 0;
  for (;;) {
    if (n + 65536 > cap) {
      char *grown = realloc(text, cap = cap ? cap * 2 : 1 << 20);
      if (!grown) {
        oom = 1;
        break;
      }
      text = grown;
    }
    size_t got = fread(text + n, 1, cap - n, in);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(in);
  fclose(in);
  weir_status s;
  if (oom) s = weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory to read --baseline '%s'. Fix: free memory", path);
  else if (bad) s = weir_fail(WEIR_ERR_IO, "analyze: reading --baseline '%s' failed. Fix: check the file", path);
  else s = weir_llvm_findings_baseline_text(findings, path, text ? text : "", n);
  free(text);
  return s;
}
