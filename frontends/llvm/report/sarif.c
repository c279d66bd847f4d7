/* SARIF 2.1.0 output: one run; the tool `weir` with the rules of the
 * analysis (rules.c) and the CWE taxonomy they relate to; one result per
 * finding with its physical location (relative to %SRCROOT%, the source
 * root) and logical location (the function), partial fingerprints, the
 * confidence as `rank` and in `properties`, `baselineState` after
 * --baseline, in-source `suppressions`, and each source that reaches it as
 * a related location and a code flow of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/report/report.h"

/* The length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF), or 0 when it is not one. */
static size_t utf8_length(const unsigned char *p) {
  unsigned char c = p[0];
  size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
  if (n < 2) return n;
  for (size_t k = 1; k < n; ++k)
    if ((p[k] & 0xc0) != 0x80) return 0; /* also stops at the terminating NUL */
  unsigned cp = c & (0x7fu >> n);
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (p[k] & 0x3fu);
  static const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

/* A JSON string. SARIF is UTF-8 JSON, but what goes in is not always UTF-8:
 * a plugin's message, a source file named in Latin-1 (a debug-info path):
 * each byte that does not start a well-formed sequence becomes U+FFFD, so
 * that every reader can parse the file. */
static void json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
    size_t n = utf8_length(p);
    if (n == 0) fputs("\\ufffd", out), n = 1;
    else if (n > 1) fwrite(p, 1, n, out);
    else if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
    else if (*p == '\n') fputs("\\n", out);
    else if (*p == '\t') fputs("\\t", out);
    else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
    else fputc(*p, out);
    p += n;
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

typedef const weir_llvm_rule_info *rule_ref;

/* The index of rules[k]'s CWE in the taxonomy's taxa (write_taxonomy writes
 * each CWE once, in the order the rules first name it; rules without one,
 * a plugin's, are not in it). */
static size_t taxon_index(const rule_ref *rules, size_t k) {
  const char *cwe = rules[k]->cwe;
  size_t index = 0;
  for (size_t j = 0; j < k; ++j) {
    const char *other = rules[j]->cwe;
    if (!other[0]) continue;
    if (strcmp(other, cwe) == 0) return taxon_index(rules, j);
    int first = 1;
    for (size_t i = 0; i < j && first; ++i) first = strcmp(rules[i]->cwe, other) != 0;
    index += (size_t)first;
  }
  return index;
}

/* `help_uri`: weir's documentation has a section for the built-ins' rules
 * only; a plugin's rules have no page there (the API has no URI of its own
 * for them), so they get none. */
static void write_rule(FILE *out, const rule_ref *rules, size_t k, int help_uri) {
  const weir_llvm_rule_info *r = rules[k];
  fputs("\n        {\"id\": ", out);
  json_string(out, r->id);
  fputs(", \"name\": ", out);
  json_string(out, r->name);
  if (help_uri) fprintf(out, ", \"helpUri\": \"%s#%s\"", WEIR_SARIF_INFORMATION_URI, r->id);
  fputs(", \"shortDescription\": {\"text\": ", out);
  json_string(out, r->short_description);
  fputs("}, \"fullDescription\": {\"text\": ", out);
  json_string(out, r->full_description);
  fputs("}, \"help\": {\"text\": ", out);
  json_string(out, r->help_text);
  fputs(", \"markdown\": ", out);
  json_string(out, r->help_markdown);
  fprintf(out, "}, \"defaultConfiguration\": {\"level\": \"%s\"}", r->level);
  /* GitHub code scanning reads the CWE from the tag; SARIF readers from the
   * relationship into the run's CWE taxonomy (write_taxonomy, run.taxonomies[0]):
   * reportingDescriptorReference by id and index, toolComponentReference by
   * name and index (SARIF 2.1.0 3.52, 3.53, 3.54). */
  if (r->cwe[0])
    fprintf(out, ", \"relationships\": [{\"target\": {\"id\": \"%s\", \"index\": %zu, "
                 "\"toolComponent\": {\"name\": \"CWE\", \"index\": 0}}, \"kinds\": [\"superset\"]}]",
            r->cwe, taxon_index(rules, k));
  fputs(", \"properties\": {\"tags\": [\"security\"", out);
  if (r->cwe[0]) fprintf(out, ", \"external/cwe/cwe-%s\"", r->cwe);
  fprintf(out, "], \"precision\": \"medium\", \"problem.severity\": \"%s\", \"security-severity\": \"%s\"}}",
          strcmp(r->level, "error") == 0 ? "error" : strcmp(r->level, "note") == 0 ? "recommendation" : "warning",
          r->security_severity);
}

/* tool.extensions: the plugin that made the findings (SARIF 3.19.3: a
 * component that extends the driver), by its id and its own version. */
static void write_extension(FILE *out, const weir_llvm_problem *problem) {
  fputs(",\n      \"extensions\": [{\"name\": ", out);
  json_string(out, problem->plugin_id);
  if (problem->plugin_version[0]) {
    fputs(", \"version\": ", out);
    json_string(out, problem->plugin_version);
  }
  if (problem->plugin_description[0]) {
    fputs(", \"shortDescription\": {\"text\": ", out);
    json_string(out, problem->plugin_description);
    fputc('}', out);
  }
  fputs(", \"properties\": {\"weir/kind\": \"analysis plugin\"}}]", out);
}

/* run.taxonomies: the CWE entries the rules relate to (each once). */
static void write_taxonomy(FILE *out, const rule_ref *rules, size_t count) {
  fputs(",\n    \"taxonomies\": [{\"name\": \"CWE\", \"organization\": \"MITRE\", \"version\": \"4.13\", "
        "\"informationUri\": \"https://cwe.mitre.org/data/published/cwe_v4.13.pdf\", "
        "\"shortDescription\": {\"text\": \"The MITRE Common Weakness Enumeration\"}, \"taxa\": [", out);
  size_t written = 0;
  for (size_t k = 0; k < count; ++k) {
    const weir_llvm_rule_info *r = rules[k];
    int seen = !r->cwe[0];
    for (size_t j = 0; j < k && !seen; ++j) seen = strcmp(rules[j]->cwe, r->cwe) == 0;
    if (seen) continue;
    fprintf(out, "%s{\"id\": \"%s\", \"name\": \"%s\", \"shortDescription\": {\"text\": ", written++ ? ", " : "",
            r->cwe, r->cwe_name);
    json_string(out, r->cwe_title);
    fprintf(out, "}, \"helpUri\": \"https://cwe.mitre.org/data/definitions/%s.html\"}", r->cwe);
  }
  fputs("]}]", out);
}

/* The rules of the analysis, then any other rule a finding names. */
static size_t rule_list(const weir_llvm_problem *problem, const weir_llvm_findings *findings,
                        rule_ref list[WEIR_LLVM_RULES_MAX]) {
  size_t n = weir_llvm_problem_rules(problem, list, WEIR_LLVM_RULES_MAX);
  for (size_t k = 0; k < findings->count; ++k) {
    rule_ref r = weir_llvm_problem_rule_by_id(problem, findings->items[k].rule);
    int present = !r;
    for (size_t i = 0; i < n && !present; ++i) present = list[i] == r;
    if (!present && n < WEIR_LLVM_RULES_MAX) list[n++] = r;
  }
  return n;
}

/* threadFlowLocation.kinds of a step (SARIF 3.38.8), NULL for none. */
static const char *step_kinds(weir_llvm_analysis analysis, weir_llvm_step_kind kind) {
  switch (kind) {
  case WEIR_LLVM_STEP_SOURCE:
    return analysis == WEIR_LLVM_TAINT || analysis == WEIR_LLVM_PLUGIN ? "\"taint\"" : analysis == WEIR_LLVM_UAF ? "\"release\", \"memory\""
                                                                            : "\"acquire\", \"memory\"";
  case WEIR_LLVM_STEP_CALL: return "\"call\"";
  case WEIR_LLVM_STEP_RETURN: return "\"return\"";
  case WEIR_LLVM_STEP_SINK: return "\"danger\"";
  default: return NULL;
  }
}

static void write_thread_flow(writer *w, const weir_llvm_finding_source *source) {
  FILE *out = w->out;
  char label[160];
  snprintf(label, sizeof label, "from '%s'", source->name);
  fputs("{\"message\": {\"text\": ", out);
  json_string(out, label);
  fputs("}, \"threadFlows\": [{\"locations\": [", out);
  for (size_t k = 0; k < source->step_count; ++k) {
    const weir_llvm_step *s = &source->steps[k];
    fputs(k ? ",\n          {\"location\": " : "\n          {\"location\": ", out);
    write_location(w, &s->where, 0, s->message);
    fprintf(out, ", \"nestingLevel\": %u, \"executionOrder\": %zu", s->depth, k + 1);
    const char *kinds = step_kinds(w->problem->analysis, s->kind);
    if (kinds) fprintf(out, ", \"kinds\": [%s]", kinds);
    fputc('}', out);
  }
  fputs("]}]}", out);
}

/* One code flow per source (at most WEIR_LLVM_SARIF_FLOWS_MAX); returns how
 * many were left out. */
static size_t write_code_flows(writer *w, const weir_llvm_finding *f) {
  size_t written = 0, omitted = 0;
  for (size_t k = 0; k < f->source_count; ++k) {
    if (!f->sources[k].step_count) continue;
    if (written == WEIR_LLVM_SARIF_FLOWS_MAX) {
      ++omitted;
      continue;
    }
    fputs(written ? ",\n        " : ", \"codeFlows\": [", w->out);
    write_thread_flow(w, &f->sources[k]);
    ++written;
  }
  if (written) fputc(']', w->out);
  return omitted;
}

/* Appends s to the text, with '[', ']' and '\\' escaped when `link` (SARIF
 * 3.11.6: the text of an embedded link). */
static void text_add(weir_llvm_text *t, const char *s, int link) {
  for (; *s; ++s) {
    if (link && strchr("[]\\", *s)) weir_llvm_text_put(t, "\\", 1);
    weir_llvm_text_put(t, s, 1);
  }
}

/* The message as SARIF viewers expect it: one sentence ending in a period,
 * naming its sources as links to the related locations ("[fgets](1)"):
 * GitHub code scanning shows only the related locations a message links.
 * Returns nonzero when memory ran out (nothing written then). */
static int write_message(FILE *out, const weir_llvm_finding *f) {
  weir_llvm_text t = {0};
  const char *message = f->message ? f->message : "";
  size_t n = strlen(message);
  weir_llvm_text_put(&t, message, n && message[n - 1] == '.' ? n - 1 : n);
  for (size_t k = 0; k < f->source_count; ++k) {
    weir_llvm_text_printf(&t, "%s[", k ? ", " : f->source_count > 1 ? " (sources: " : " (source: ");
    text_add(&t, f->sources[k].name ? f->sources[k].name : "", 1);
    weir_llvm_text_printf(&t, "](%zu)", k + 1);
  }
  weir_llvm_text_printf(&t, "%s", f->source_count ? ")." : ".");
  int failed = t.failed || !t.p;
  if (!failed) {
    fputs("{\"text\": ", out);
    json_string(out, t.p);
    fputc('}', out);
  }
  weir_llvm_text_free(&t);
  return failed;
}

static void write_sources(writer *w, const weir_llvm_finding *f) {
  FILE *out = w->out;
  fputs(", \"relatedLocations\": [", out);
  for (size_t k = 0; k < f->source_count; ++k) {
    char label[160];
    snprintf(label, sizeof label, "source: %s", f->sources[k].name);
    if (k) fputs(", ", out);
    write_location(w, &f->sources[k].where, (int)k + 1, label);
  }
  for (size_t k = 0; k < f->other_use_count; ++k) {
    if (k || f->source_count) fputs(", ", out);
    write_location(w, &f->other_uses[k], (int)(f->source_count + k) + 1, "another use of the same value");
  }
  fputc(']', out);
}

/* Returns nonzero when memory ran out. */
static int write_result(writer *w, const weir_llvm_finding *f, uint32_t rule_index) {
  FILE *out = w->out;
  const weir_llvm_rule_info *rule = weir_llvm_problem_rule_by_id(w->problem, f->rule);
  fputs("{\"ruleId\": ", out);
  json_string(out, f->rule);
  fprintf(out, ", \"ruleIndex\": %u, \"level\": \"%s\", \"rank\": %u, \"message\": ", rule_index,
          rule ? rule->level : "warning", f->confidence);
  if (write_message(out, f)) return 1;
  fputs(", \"locations\": [", out);
  write_location(w, &f->where, 0, NULL);
  fputs("], \"partialFingerprints\": {\"" WEIR_LLVM_FINGERPRINT_KEY "\": ", out);
  json_string(out, f->fingerprint);
  fputc('}', out);
  if (f->baseline != WEIR_LLVM_BASELINE_NONE)
    fprintf(out, ", \"baselineState\": \"%s\"", f->baseline == WEIR_LLVM_BASELINE_NEW ? "new" : "unchanged");
  if (f->suppressed)
    fprintf(out, ", \"suppressions\": [{\"kind\": \"inSource\", \"justification\": \"a 'weir: ignore' "
                 "comment at line %u\"}]", f->suppressed_line);
  if (f->source_count || f->other_use_count) write_sources(w, f);
  size_t omitted = write_code_flows(w, f);
  fprintf(out, ", \"properties\": {\"confidence\": %u, \"confidenceLevel\": \"%s\", \"sources\": %zu, "
               "\"pointsToTargets\": %u, \"weakUpdate\": %s, \"ifdsNode\": %u, \"ifdsFact\": %u",
          f->confidence, weir_llvm_confidence_level(f->confidence), f->source_count, f->targets,
          f->weak ? "true" : "false", f->node, f->fact);
  if (omitted) fprintf(out, ", \"weir/codeFlowsOmitted\": %zu", omitted);
  fputs("}}", out);
  return 0;
}

weir_status weir_llvm_write_sarif_stream(const weir_llvm_problem *problem, const weir_llvm_findings *findings,
                                         FILE *out) {
  char *root = weir_llvm_report_root(findings);
  writer w = {out, problem, root};
  if (!root) {
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory to write SARIF for %zu findings. Fix: free memory",
                     findings->count);
  }
  rule_ref rules[WEIR_LLVM_RULES_MAX];
  size_t rule_count = rule_list(problem, findings, rules);
  fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n", out);
  fputs("  \"runs\": [{\n    \"tool\": {\"driver\": {\"name\": \"weir\", \"version\": \"" WEIR_VERSION_STRING
        "\", \"semanticVersion\": \"" WEIR_VERSION_STRING "\",\n      \"informationUri\": \"" WEIR_SARIF_INFORMATION_URI "\", \"rules\": [",
        out);
  for (size_t r = 0; r < rule_count; ++r) {
    if (r) fputc(',', out);
    write_rule(out, rules, r, problem->analysis != WEIR_LLVM_PLUGIN);
  }
  fputs("],\n      \"supportedTaxonomies\": [{\"name\": \"CWE\", \"index\": 0}]}", out);
  if (problem->analysis == WEIR_LLVM_PLUGIN) write_extension(out, problem);
  fputc('}', out);
  write_taxonomy(out, rules, rule_count);
  fputs(",\n    \"originalUriBaseIds\": {\"%SRCROOT%\": {\"uri\": \"file://", out);
  uri_path(out, root);
  fputs(strcmp(root, "/") ? "/\"}},\n    \"results\": [" : "\"}},\n    \"results\": [", out);
  for (size_t k = 0; k < findings->count; ++k) {
    const weir_llvm_finding *f = &findings->items[k];
    uint32_t index = 0;
    for (size_t r = 0; r < rule_count; ++r)
      if (strcmp(rules[r]->id, f->rule) == 0) index = (uint32_t)r;
    fputs(k ? ",\n      " : "\n      ", out);
    if (write_result(&w, f, index)) {
      free(root);
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze: no memory for the SARIF message of finding %zu. Fix: free "
                       "memory", k + 1);
    }
  }
  fputs(findings->count ? "\n    ]\n  }]\n}\n" : "]\n  }]\n}\n", out);
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
