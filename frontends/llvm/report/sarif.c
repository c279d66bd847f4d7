/* SARIF 2.1.0 output: one run; the tool `weir` with the rules of the
 * analysis (rules.c); one result per finding with its physical location
 * (relative to %SRCROOT%, the source root) and logical location (the
 * function), partial fingerprints, and when a source reaches it, the source
 * as a related location and the witness path as a code flow. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/report/report.h"

static void json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; ++p) {
    if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
    else if (*p == '\n') fputs("\\n", out);
    else if (*p == '\t') fputs("\\t", out);
    else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
    else fputc(*p, out);
  }
  fputc('"', out);
}

/* A path as URI text: characters outside the unreserved set and '/' are
 * percent-encoded. */
static void uri_path(FILE *out, const char *path) {
  for (const unsigned char *p = (const unsigned char *)path; *p; ++p) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        strchr("-._~/", *p))
      fputc(*p, out);
    else
      fprintf(out, "%%%02X", *p);
  }
}

typedef struct writer {
  FILE *out;
  const weir_llvm_problem *problem;
  const char *root; /* absolute, normalised */
} writer;

/* "uri" relative to %SRCROOT% inside the root, else an absolute file:// URI. */
static void artifact(writer *w, const char *file) {
  weir_llvm_text path = {0};
  int inside = weir_llvm_path_relative(w->root, file, &path);
  fputs("\"artifactLocation\": {\"uri\": \"", w->out);
  if (!inside) fputs("file://", w->out);
  uri_path(w->out, path.p && !path.failed ? path.p : file);
  fputc('"', w->out);
  if (inside) fputs(", \"uriBaseId\": \"%SRCROOT%\"", w->out);
  fputc('}', w->out);
  weir_llvm_text_free(&path);
}

/* One SARIF location object; `id` > 0 and `label` are for related and
 * code-flow locations. Without debug info the message names the instruction. */
static void write_location(writer *w, const weir_llvm_location *l, int id, const char *label) {
  FILE *out = w->out;
  fputc('{', out);
  if (id > 0) fprintf(out, "\"id\": %d, ", id);
  fputs("\"physicalLocation\": {", out);
  artifact(w, l->file);
  if (l->line) {
    fprintf(out, ", \"region\": {\"startLine\": %u", l->line);
    if (l->column) fprintf(out, ", \"startColumn\": %u", l->column);
    fputc('}', out);
  }
  fputs("}, \"logicalLocations\": [{\"name\": ", out);
  json_string(out, l->function);
  fputs(", \"kind\": \"function\"}]", out);
  if (label || !l->line) {
    char text[512];
    if (l->line) snprintf(text, sizeof text, "%s", label);
    else if (l->text || l->instruction)
      snprintf(text, sizeof text, "%s%sinstruction %u%s%s", label ? label : "", label ? ", " : "",
               l->instruction, l->text ? ": " : "", l->text ? l->text : "");
    else snprintf(text, sizeof text, "%s%sentry of '%s'", label ? label : "", label ? ", " : "", l->function);
    fputs(", \"message\": {\"text\": ", out);
    json_string(out, text);
    fputc('}', out);
  }
  fputc('}', out);
}

static void write_rule(FILE *out, weir_llvm_finding_rule rule) {
  const weir_llvm_rule_info *r = weir_llvm_rule_info_of(rule);
  fputs("\n        {\"id\": ", out);
  json_string(out, r->id);
  fputs(", \"name\": ", out);
  json_string(out, r->name);
  fputs(", \"shortDescription\": {\"text\": ", out);
  json_string(out, r->short_description);
  fputs("}, \"fullDescription\": {\"text\": ", out);
  json_string(out, r->full_description);
  fputs("}, \"help\": {\"text\": ", out);
  json_string(out, r->help_text);
  fputs(", \"markdown\": ", out);
  json_string(out, r->help_markdown);
  fprintf(out, "}, \"defaultConfiguration\": {\"level\": \"%s\"}", r->level);
  fprintf(out, ", \"properties\": {\"tags\": [\"security\", \"external/cwe/cwe-%s\"], "
               "\"security-severity\": \"%s\"}}",
          r->cwe, r->security_severity);
}

/* The rules of the analysis, then any other rule a finding names. */
static size_t rule_list(const weir_llvm_problem *problem, const weir_llvm_findings *findings,
                        weir_llvm_finding_rule list[WEIR_LLVM_RULE_COUNT]) {
  size_t n = weir_llvm_rules_of(problem->analysis, list);
  for (size_t k = 0; k < findings->count; ++k)
    for (int r = 0; r < WEIR_LLVM_RULE_COUNT; ++r) {
      if (strcmp(findings->items[k].rule, weir_llvm_rule_info_of((weir_llvm_finding_rule)r)->id) != 0) continue;
      int present = 0;
      for (size_t i = 0; i < n && !present; ++i) present = list[i] == (weir_llvm_finding_rule)r;
      if (!present && n < WEIR_LLVM_RULE_COUNT) list[n++] = (weir_llvm_finding_rule)r;
    }
  return n;
}

/* threadFlowLocation.kinds of a step (SARIF 3.38.8), NULL for none. */
static const char *step_kinds(weir_llvm_analysis analysis, weir_llvm_step_kind kind) {
  switch (kind) {
  case WEIR_LLVM_STEP_SOURCE:
    return analysis == WEIR_LLVM_TAINT ? "\"taint\"" : analysis == WEIR_LLVM_UAF ? "\"release\", \"memory\""
                                                                            : "\"acquire\", \"memory\"";
  case WEIR_LLVM_STEP_CALL: return "\"call\"";
  case WEIR_LLVM_STEP_RETURN: return "\"return\"";
  case WEIR_LLVM_STEP_SINK: return "\"danger\"";
  default: return NULL;
  }
}

static void write_code_flow(writer *w, const weir_llvm_finding *f) {
  FILE *out = w->out;
  fputs(", \"codeFlows\": [{\"threadFlows\": [{\"locations\": [", out);
  for (size_t k = 0; k < f->step_count; ++k) {
    const weir_llvm_step *s = &f->steps[k];
    fputs(k ? ",\n          {\"location\": " : "\n          {\"location\": ", out);
    write_location(w, &s->where, 0, s->message);
    fprintf(out, ", \"nestingLevel\": %u, \"executionOrder\": %zu", s->depth, k + 1);
    const char *kinds = step_kinds(w->problem->analysis, s->kind);
    if (kinds) fprintf(out, ", \"kinds\": [%s]", kinds);
    fputc('}', out);
  }
  fputs("]}]}]", out);
}

typedef struct print {
  char text[32]; /* 16 hex digits, ":N" */
  size_t index;
} print;

static int cmp_print(const void *a, const void *b) {
  const print *x = a, *y = b;
  int c = strcmp(x->text, y->text);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Fingerprint of each finding with ":N", N counting the findings with the
 * same hash up to it (findings are in source order), in finding order. */
static print *fingerprints(writer *w, const weir_llvm_findings *findings) {
  size_t n = findings->count;
  print *sorted = calloc(n ? n : 1, sizeof *sorted), *prints = calloc(n ? n : 1, sizeof *prints);
  if (!sorted || !prints) {
    free(sorted);
    free(prints);
    return NULL;
  }
  for (size_t k = 0; k < n; ++k) {
    const weir_llvm_finding *f = &findings->items[k];
    weir_llvm_text path = {0};
    weir_llvm_path_relative(w->root, f->where.file, &path);
    weir_llvm_fingerprint(f, path.p ? path.p : f->where.file, sorted[k].text);
    weir_llvm_text_free(&path);
    sorted[k].index = k;
  }
  qsort(sorted, n, sizeof *sorted, cmp_print);
  for (size_t k = 0, run = 0; k < n; ++k) {
    run = k && strcmp(sorted[k - 1].text, sorted[k].text) == 0 ? run + 1 : 1;
    prints[sorted[k].index] = sorted[k];
    snprintf(prints[sorted[k].index].text + 16, 16, ":%zu", run);
  }
  free(sorted);
  return prints;
}

static void write_result(writer *w, const weir_llvm_finding *f, uint32_t rule_index, const char *fingerprint) {
  FILE *out = w->out;
  const weir_llvm_rule_info *rule = NULL;
  for (int r = 0; r < WEIR_LLVM_RULE_COUNT && !rule; ++r)
    if (strcmp(weir_llvm_rule_info_of((weir_llvm_finding_rule)r)->id, f->rule) == 0)
      rule = weir_llvm_rule_info_of((weir_llvm_finding_rule)r);
  fputs("{\"ruleId\": ", out);
  json_string(out, f->rule);
  fprintf(out, ", \"ruleIndex\": %u, \"level\": \"%s\", \"message\": {\"text\": ", rule_index,
          rule ? rule->level : "warning");
  json_string(out, f->message);
  fputs("}, \"locations\": [", out);
  write_location(w, &f->where, 0, NULL);
  fputs("], \"partialFingerprints\": {\"weirFindingHash/v1\": ", out);
  json_string(out, fingerprint);
  fputc('}', out);
  if (f->has_source) {
    char label[160];
    snprintf(label, sizeof label, "source: %s", f->source_name);
    fputs(", \"relatedLocations\": [", out);
    write_location(w, &f->source, 1, label);
    fputc(']', out);
  }
  if (f->step_count) write_code_flow(w, f);
  fprintf(out, ", \"properties\": {\"ifdsNode\": %u, \"ifdsFact\": %u}}", f->node, f->fact);
}

weir_status weir_llvm_write_sarif_stream(const weir_llvm_problem *problem, const weir_llvm_findings *findings,
                                         FILE *out) {
  char *root = weir_llvm_report_root(findings);
  writer w = {out, problem, root};
  print *prints = root ? fingerprints(&w, findings) : NULL;
  if (!prints) {
    free(root);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory to write SARIF for %zu findings. Fix: free memory",
                     findings->count);
  }
  weir_llvm_finding_rule rules[WEIR_LLVM_RULE_COUNT];
  size_t rule_count = rule_list(problem, findings, rules);
  fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n", out);
  fputs("  \"runs\": [{\n    \"tool\": {\"driver\": {\"name\": \"weir\", \"version\": \"" WEIR_VERSION_STRING
        "\", \"semanticVersion\": \"" WEIR_VERSION_STRING "\", \"rules\": [",
        out);
  for (size_t r = 0; r < rule_count; ++r) {
    if (r) fputc(',', out);
    write_rule(out, rules[r]);
  }
  fputs("]}},\n    \"originalUriBaseIds\": {\"%SRCROOT%\": {\"uri\": \"file://", out);
  uri_path(out, root);
  fputs(strcmp(root, "/") ? "/\"}},\n    \"results\": [" : "\"}},\n    \"results\": [", out);
  for (size_t k = 0; k < findings->count; ++k) {
    const weir_llvm_finding *f = &findings->items[k];
    uint32_t index = 0;
    for (size_t r = 0; r < rule_count; ++r)
      if (strcmp(weir_llvm_rule_info_of(rules[r])->id, f->rule) == 0) index = (uint32_t)r;
    fputs(k ? ",\n      " : "\n      ", out);
    write_result(&w, f, index, prints[k].text);
  }
  fputs(findings->count ? "\n    ]\n  }]\n}\n" : "]\n  }]\n}\n", out);
  free(prints);
  free(root);
  return ferror(out) ? weir_fail(WEIR_ERR_IO, "analyze: writing SARIF failed. Fix: check the disk space") : WEIR_OK;
}

weir_status weir_llvm_write_sarif(const weir_llvm_problem *problem, const weir_llvm_findings *findings,
                                  const char *path) {
  FILE *out = fopen(path, "wb");
  if (!out) return weir_fail(WEIR_ERR_IO, "analyze: cannot create '%s'. Fix: check the --sarif path", path);
  weir_status s = weir_llvm_write_sarif_stream(problem, findings, out);
  if (fclose(out) != 0 && s == WEIR_OK)
    s = weir_fail(WEIR_ERR_IO, "analyze: closing '%s' failed. Fix: check the disk space", path);
  return s;
}
