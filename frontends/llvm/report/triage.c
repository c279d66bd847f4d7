/* Triage of merged findings, as the tools people use offer it: a minimum
 * confidence, in-source suppressions (`weir: ignore[RULE]` comments on the
 * finding's line or the line above), the count of what is reported after
 * them and --baseline (baseline.c), and a summary by rule and by file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/report/report.h"

/* ---- confidence ------------------------------------------------------------ */

weir_status weir_llvm_confidence_parse(const char *text, uint32_t *out) {
  if (!text) text = "";
  if (strcmp(text, "high") == 0) return *out = WEIR_LLVM_CONFIDENCE_HIGH, WEIR_OK;
  if (strcmp(text, "medium") == 0) return *out = WEIR_LLVM_CONFIDENCE_MEDIUM, WEIR_OK;
  if (strcmp(text, "low") == 0) return *out = 0, WEIR_OK;
  char *end = NULL;
  errno = 0;
  unsigned long v = text[0] >= '0' && text[0] <= '9' ? strtoul(text, &end, 10) : 101;
  if (errno || v > 100 || !end || *end)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: --min-confidence '%s' is neither a level nor a number "
                     "0..100. Fix: give high (>= %u), medium (>= %u), low (every finding) or a number such as 50",
                     text, WEIR_LLVM_CONFIDENCE_HIGH, WEIR_LLVM_CONFIDENCE_MEDIUM);
  *out = (uint32_t)v;
  return WEIR_OK;
}

/* Frees what a finding owns (its sources' code flows). */
static void drop(weir_llvm_finding *f) {
  for (size_t j = 0; j < f->source_count; ++j) free(f->sources[j].steps);
  if (!f->source_count) free(f->steps);
  free(f->sources);
}

void weir_llvm_findings_min_confidence(weir_llvm_findings *findings, uint32_t minimum) {
  size_t kept = 0;
  for (size_t k = 0; k < findings->count; ++k) {
    weir_llvm_finding *f = &findings->items[k];
    if (f->confidence < minimum) {
      drop(f);
      findings->below_confidence++;
      continue;
    }
    findings->items[kept++] = *f;
  }
  findings->count = kept;
}

/* ---- suppressions ---------------------------------------------------------- */

/* "uninit" (or a plugin's id: the finding's analysis) names the analysis'
 * rules; "weir-uninit" and "use-after-free" name one rule. */
static int names_rule(const char *word, size_t n, const char *rule, const char *analysis) {
  static const struct { const char *analysis, *prefix; } analyses[] = {
      {"taint", "weir-taint"}, {"uninit", "weir-uninit"}, {"uaf", "weir-use-after-free"}, {"uaf", "weir-double-free"}};
  if (strlen(rule) == n && strncmp(rule, word, n) == 0) return 1;
  if (analysis && strlen(analysis) == n && strncmp(analysis, word, n) == 0) return 1;
  if (strncmp(rule, "weir-", 5) == 0 && strlen(rule + 5) == n && strncmp(rule + 5, word, n) == 0) return 1;
  for (size_t k = 0; k < sizeof analyses / sizeof analyses[0]; ++k)
    if (strlen(analyses[k].analysis) == n && strncmp(analyses[k].analysis, word, n) == 0 &&
        strncmp(rule, analyses[k].prefix, strlen(analyses[k].prefix)) == 0)
      return 1;
  return 0;
}

/* Whether `line` holds a `weir: ignore` comment that covers `rule`: plain
 * (every rule) or with a list `[a, b]`. Only inside a comment. */
static int line_suppresses(const char *line, size_t length, const char *rule, const char *analysis) {
  const char *end = line + length;
  for (const char *p = line; p + 2 <= end; ++p) {
    if (!(p[0] == '/' && (p[1] == '/' || p[1] == '*'))) continue;
    const char *q = p + 2;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '*')) ++q;
    if (end - q < 12 || strncmp(q, "weir: ignore", 12) != 0) continue;
    q += 12;
    if (q == end || *q != '[') return 1;
    for (++q; q < end && *q != ']';) {
      while (q < end && (*q == ' ' || *q == ',')) ++q;
      const char *w = q;
      while (q < end && *q != ',' && *q != ']' && *q != ' ') ++q;
      if (q > w && names_rule(w, (size_t)(q - w), rule, analysis)) return 1;
    }
    return 0;
  }
  return 0;
}

/* A source file held in memory, split into lines. */
typedef struct source_file {
  const char *name;   /* the finding's file (debug info) */
  char *text;         /* NULL: unreadable */
  size_t size;
  size_t *starts;     /* offset of each line */
  size_t line_count;
} source_file;

static char *read_all(const char *path, size_t *size) {
  FILE *in = fopen(path, "rb");
  if (!in) return NULL;
  char *text = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n + 4096 + 1 > cap) {
      cap = cap ? cap * 2 : 65536;
      char *grown = realloc(text, cap);
      if (!grown) break;
      text = grown;
    }
    size_t got = fread(text + n, 1, cap - n - 1, in);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(in) || !text;
  fclose(in);
  if (bad) {
    free(text);
    return NULL;
  }
  text[n] = 0;
  *size = n;
  return text;
}

/* Reads `file` at its debug-info path, else below the source root. */
static void load_source(source_file *s, const char *file, const char *root) {
  memset(s, 0, sizeof *s);
  s->name = file;
  s->text = read_all(file, &s->size);
  if (!s->text && root && file[0] != '/') {
    char *joined = weir_llvm_path_join(root, file);
    if (joined) s->text = read_all(joined, &s->size);
    free(joined);
  }
  if (!s->text) return;
  size_t lines = 1;
  for (size_t k = 0; k < s->size; ++k) lines += s->text[k] == '\n';
  s->starts = malloc(lines * sizeof *s->starts);
  if (!s->starts) {
    free(s->text);
    s->text = NULL;
    return;
  }
  s->starts[s->line_count++] = 0;
  for (size_t k = 0; k < s->size; ++k)
    if (s->text[k] == '\n') s->starts[s->line_count++] = k + 1;
}

/* Line `line` (1-based) of the file covers the rule. */
static int suppressed_at(const source_file *s, unsigned line, const char *rule, const char *analysis) {
  if (!s->text || line == 0 || line > s->line_count) return 0;
  size_t start = s->starts[line - 1];
  size_t end = line < s->line_count ? s->starts[line] : s->size;
  return line_suppresses(s->text + start, end - start, rule, analysis);
}

weir_status weir_llvm_findings_suppress(weir_llvm_findings *findings) {
  source_file current = {0};
  int loaded = 0;
  for (size_t k = 0; k < findings->count; ++k) {
    weir_llvm_finding *f = &findings->items[k];
    if (!f->where.line || !f->where.file) continue; /* no debug info: no line to hold a comment */
    if (!loaded || strcmp(current.name, f->where.file) != 0) {
      free(current.text);
      free(current.starts);
      load_source(&current, f->where.file, findings->source_root);
      loaded = 1;
    }
    for (unsigned line = f->where.line; line + 1 >= f->where.line && line > 0 && !f->suppressed; --line)
      if (suppressed_at(&current, line, f->rule, findings->analysis)) {
        f->suppressed = 1;
        f->suppressed_line = line;
      }
  }
  free(current.text);
  free(current.starts);
  return WEIR_OK;
}

size_t weir_llvm_findings_reported(const weir_llvm_findings *findings) {
  size_t n = 0;
  for (size_t k = 0; k < findings->count; ++k)
    n += !findings->items[k].suppressed && findings->items[k].baseline != WEIR_LLVM_BASELINE_UNCHANGED;
  return n;
}

/* ---- summary --------------------------------------------------------------- */

typedef struct tally {
  const char *key; /* rule id, or the file as printed */
  size_t count;
  size_t high;
} tally;

static void count(tally *t, size_t *n, const char *key, int high) {
  for (size_t k = 0; k < *n; ++k)
    if (strcmp(t[k].key, key) == 0) {
      t[k].count++;
      t[k].high += high;
      return;
    }
  t[*n] = (tally){key, 1, (size_t)high};
  ++*n;
}

static int cmp_tally(const void *a, const void *b) {
  const tally *x = a, *y = b;
  if (x->count != y->count) return x->count < y->count ? 1 : -1;
  return strcmp(x->key, y->key);
}

static void print_tallies(FILE *out, const char *title, tally *t, size_t n, size_t limit) {
  qsort(t, n, sizeof *t, cmp_tally);
  fprintf(out, "  by %s:", title);
  for (size_t k = 0; k < n && k < limit; ++k)
    fprintf(out, "%s %s %zu (%zu high)", k ? "," : "", t[k].key, t[k].count, t[k].high);
  if (n > limit) fprintf(out, ", and %zu more %ss", n - limit, title);
  fputc('\n', out);
}

/* The files as printed (relative to the root); an array of n strings. */
static char **relative_files(const weir_llvm_findings *findings) {
  char *root = weir_llvm_report_root(findings);
  char **files = calloc(findings->count ? findings->count : 1, sizeof *files);
  for (size_t k = 0; root && files && k < findings->count; ++k) {
    weir_llvm_text path = {0};
    const char *file = findings->items[k].where.file ? findings->items[k].where.file : "?";
    weir_llvm_path_relative(root, file, &path);
    files[k] = strdup(path.p && !path.failed ? path.p : file);
    weir_llvm_text_free(&path);
  }
  free(root);
  return files;
}

void weir_llvm_findings_summary(const weir_llvm_findings *findings, FILE *out) {
  size_t reported = weir_llvm_findings_reported(findings), suppressed = 0, unchanged = 0;
  for (size_t k = 0; k < findings->count; ++k) {
    suppressed += findings->items[k].suppressed;
    unchanged += !findings->items[k].suppressed && findings->items[k].baseline == WEIR_LLVM_BASELINE_UNCHANGED;
  }
  fprintf(out, "weir analyze: %zu finding%s reported", reported, reported == 1 ? "" : "s");
  if (suppressed) fprintf(out, ", %zu suppressed by 'weir: ignore' comments", suppressed);
  if (findings->baseline_count)
    fprintf(out, ", %zu unchanged since the baseline (%zu of its %zu no longer found)", unchanged,
            findings->baseline_absent, findings->baseline_count);
  if (findings->below_confidence) fprintf(out, ", %zu below --min-confidence", findings->below_confidence);
  fputc('\n', out);
  tally *rules = calloc(reported ? reported : 1, sizeof *rules), *files = calloc(reported ? reported : 1, sizeof *files);
  char **names = relative_files(findings);
  if (reported && rules && files && names) {
    size_t nr = 0, nf = 0;
    for (size_t k = 0; k < findings->count; ++k) {
      const weir_llvm_finding *f = &findings->items[k];
      if (f->suppressed || f->baseline == WEIR_LLVM_BASELINE_UNCHANGED) continue;
      int high = f->confidence >= WEIR_LLVM_CONFIDENCE_HIGH;
      count(rules, &nr, f->rule, high);
      count(files, &nf, names[k] ? names[k] : "?", high);
    }
    print_tallies(out, "rule", rules, nr, WEIR_LLVM_RULE_COUNT);
    print_tallies(out, "file", files, nf, 10);
  }
  for (size_t k = 0; names && k < findings->count; ++k) free(names[k]);
  free(names);
  free(rules);
  free(files);
}
