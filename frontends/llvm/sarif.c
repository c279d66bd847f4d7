/* SARIF 2.1.0 output: one run, the tool `weir` with the analysis' rule, one
 * result per finding with its physical (debug info) and logical (function)
 * location; taint results carry the source call as a related location. */
#include <stdio.h>
#include <string.h>

#include "frontends/llvm/internal.h"

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

/* A file path as a URI: absolute paths become file:// URIs; characters
 * outside the unreserved set and '/' are percent-encoded. */
static void json_uri(FILE *out, const char *path) {
  fputc('"', out);
  if (path[0] == '/') fputs("file://", out);
  for (const unsigned char *p = (const unsigned char *)path; *p; ++p) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        strchr("-._~/", *p))
      fputc(*p, out);
    else
      fprintf(out, "%%%02X", *p);
  }
  fputc('"', out);
}

/* One SARIF location object; `id` > 0 and `label` are for related locations.
 * Without debug info the message names the instruction. */
static void write_location(FILE *out, const weir_llvm_location *l, int id, const char *label) {
  fputc('{', out);
  if (id > 0) fprintf(out, "\"id\": %d, ", id);
  fputs("\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", out);
  json_uri(out, l->file);
  if (l->file[0] != '/') fputs(", \"uriBaseId\": \"%SRCROOT%\"", out);
  fputc('}', out);
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
    else snprintf(text, sizeof text, "%s%sinstruction %u: %s", label ? label : "", label ? ", " : "",
                  l->instruction, l->text ? l->text : "?");
    fputs(", \"message\": {\"text\": ", out);
    json_string(out, text);
    fputc('}', out);
  }
  fputc('}', out);
}

static void write_rule(FILE *out, weir_llvm_analysis analysis) {
  int taint = analysis == WEIR_LLVM_TAINT;
  fputs("{\"id\": ", out);
  json_string(out, weir_llvm_rule_id(analysis));
  fprintf(out, ", \"name\": \"%s\"", taint ? "TaintedDataReachesSink" : "UninitializedStackRead");
  fprintf(out, ", \"shortDescription\": {\"text\": \"%s\"}",
          taint ? "Data from an untrusted source reaches a sensitive call"
                : "A stack variable may be read before it is initialized");
  fprintf(out, ", \"fullDescription\": {\"text\": \"%s\"}",
          taint ? "IFDS taint analysis: values returned or written by configured sources (getenv, "
                  "fgets, read, recv, scanf, ...) flow through assignments, arithmetic, stack "
                  "slots, arguments and return values to an argument of a configured sink "
                  "(system, popen, execve, the printf format, ...) without passing a sanitizer."
                : "IFDS possibly-uninitialized analysis: a stack slot is uninitialized from its "
                  "allocation until a store; a load on some path before any store is reported.");
  fputs(", \"defaultConfiguration\": {\"level\": \"warning\"}}", out);
}

weir_status weir_llvm_write_sarif_stream(const weir_llvm_problem *problem, const weir_llvm_findings *findings,
                                         FILE *out) {
  fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n", out);
  fputs("  \"runs\": [{\n    \"tool\": {\"driver\": {\"name\": \"weir\", \"version\": \"" WEIR_VERSION_STRING
        "\", \"semanticVersion\": \"" WEIR_VERSION_STRING "\", \"rules\": [",
        out);
  write_rule(out, problem->analysis);
  fputs("]}},\n    \"results\": [", out);
  for (size_t k = 0; k < findings->count; ++k) {
    const weir_llvm_finding *f = &findings->items[k];
    fputs(k ? ",\n      {" : "\n      {", out);
    fputs("\"ruleId\": ", out);
    json_string(out, weir_llvm_rule_id(problem->analysis));
    fputs(", \"ruleIndex\": 0, \"level\": \"warning\", \"message\": {\"text\": ", out);
    json_string(out, f->message);
    fputs("}, \"locations\": [", out);
    write_location(out, &f->where, 0, NULL);
    fputc(']', out);
    if (f->has_source) {
      char label[160];
      snprintf(label, sizeof label, "source: %s", f->source_name);
      fputs(", \"relatedLocations\": [", out);
      write_location(out, &f->source, 1, label);
      fputc(']', out);
    }
    fprintf(out, ", \"properties\": {\"ifdsNode\": %u, \"ifdsFact\": %u}}", f->node, f->fact);
  }
  fputs(findings->count ? "\n    ]\n  }]\n}\n" : "]\n  }]\n}\n", out);
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
