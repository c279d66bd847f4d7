/* The typestate spec parser (docs/typestate.md). Line-oriented, like the
 * --config table: one directive per line, '#' starts a comment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/typestate/spec.h"

typedef struct parser {
  const char *path;
  unsigned line;
  weir_ts_spec *spec;
  int magic; /* the `weir-typestate 1` line was seen */
} parser;

static weir_status bad(const parser *p, const char *what, const char *fix) {
  return weir_fail(WEIR_ERR_PARSE, "%s:%u: error: %s. Fix: %s", p->path, p->line, what, fix);
}

static int is_name(const char *s) {
  if (!*s || (*s >= '0' && *s <= '9') || strlen(s) > 64) return 0;
  for (; *s; ++s)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_')) return 0;
  return 1;
}

static int is_name_dash(const char *s) {
  if (!*s || strlen(s) > 48) return 0;
  for (; *s; ++s)
    if (!((*s >= 'a' && *s <= 'z') || *s == '-')) return 0;
  return 1;
}

static uint32_t state_of(const weir_ts_spec *spec, const char *name) {
  for (uint32_t s = 0; s < spec->state_count; ++s)
    if (strcmp(spec->states[s], name) == 0) return s;
  return UINT32_MAX;
}

/* "argN" or "ret". */
static int parse_arg(const char *word, uint32_t *out) {
  if (strcmp(word, "ret") == 0) return *out = WEIR_TS_RET, 1;
  char *end = NULL;
  if (strncmp(word, "arg", 3) != 0 || word[3] < '0' || word[3] > '9') return 0;
  unsigned long k = strtoul(word + 3, &end, 10);
  if (*end || k > 62) return 0;
  *out = (uint32_t)k;
  return 1;
}

static weir_status states_line(parser *p, char *rest) {
  weir_ts_spec *spec = p->spec;
  if (spec->state_count) return bad(p, "a second `states` line", "list every state on one `states` line");
  for (char *w = strtok(rest, " \t"); w; w = strtok(NULL, " \t")) {
    if (!is_name(w)) return bad(p, "a state name that is not a name (letters, digits, '_')", "rename the state");
    if (state_of(spec, w) != UINT32_MAX) return bad(p, "a state named twice", "name each state once");
    if (spec->state_count == 32) return bad(p, "more than 32 states", "use at most 32 states");
    snprintf(spec->states[spec->state_count++], 65, "%s", w);
  }
  return spec->state_count ? WEIR_OK : bad(p, "`states` without a state", "write `states NAME...`");
}

static weir_status rule_of(parser *p, const char *name, const char *cwe, uint32_t *out) {
  weir_ts_spec *spec = p->spec;
  if (!is_name_dash(name)) return bad(p, "a rule name that is not lowercase letters and '-'", "write e.g. double-close");
  for (const char *c = cwe; *c; ++c)
    if (*c < '0' || *c > '9') return bad(p, "a CWE that is not a number", "write the CWE number, e.g. 675");
  char id[80];
  if (strlen(name) + sizeof "weir-typestate-" > sizeof id) return bad(p, "a rule name longer than 64 bytes", "shorten it");
  snprintf(id, sizeof id, "weir-typestate-%s", name);
  for (uint32_t r = 0; r < spec->rule_count; ++r)
    if (strcmp(spec->rules[r].id, id) == 0) return *out = r, WEIR_OK;
  if (spec->rule_count == WEIR_TS_MAX_RULES) return bad(p, "more than 16 error rules", "reuse rule names");
  snprintf(spec->rules[spec->rule_count].id, sizeof spec->rules[0].id, "%s", id);
  snprintf(spec->rules[spec->rule_count].cwe, sizeof spec->rules[0].cwe, "%.15s", cwe);
  *out = spec->rule_count++;
  return WEIR_OK;
}

static weir_status push(parser *p, const weir_ts_entry *e) {
  weir_ts_spec *spec = p->spec;
  if (spec->count == spec->cap) {
    size_t cap = spec->cap ? 2 * spec->cap : 32;
    weir_ts_entry *n = realloc(spec->entries, cap * sizeof *n);
    if (!n) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "%s: no memory for the spec. Fix: free memory", p->path);
    spec->entries = n, spec->cap = cap;
  }
  spec->entries[spec->count++] = *e;
  return WEIR_OK;
}

static weir_status state_word(parser *p, const char *w, uint32_t *out) {
  if (!w) return bad(p, "a state is missing", "see docs/typestate.md for the directive's words");
  *out = state_of(p->spec, w);
  return *out == UINT32_MAX ? bad(p, "an unknown state (not on the `states` line)", "declare it on `states` first")
                            : WEIR_OK;
}

/* RULE CWE MESSAGE... at the end of an error or leak line. */
static weir_status rule_words(parser *p, weir_ts_entry *e, const char *usage) {
  char *rule = strtok(NULL, " \t"), *cwe = strtok(NULL, " \t"), *message = strtok(NULL, "");
  if (!rule || !cwe || !message) return bad(p, "a rule, a CWE and a message are missing", usage);
  WEIR_TRY(rule_of(p, rule, cwe, &e->rule));
  while (*message == ' ' || *message == '\t') ++message;
  if (strlen(message) >= sizeof e->message) return bad(p, "a message longer than 159 bytes", "shorten it");
  snprintf(e->message, sizeof e->message, "%s", message);
  e->to = e->from; /* an error leaves the state as it was */
  return WEIR_OK;
}

/* leak STATE RULE CWE MESSAGE... */
static weir_status leak_line(parser *p, char *rest) {
  weir_ts_entry e;
  memset(&e, 0, sizeof e);
  e.kind = WEIR_TS_LEAK;
  e.arg = WEIR_TS_RET;
  if (!p->spec->state_count) return bad(p, "a directive before `states`", "put the `states` line first");
  WEIR_TRY(state_word(p, strtok(rest, " \t"), &e.from));
  WEIR_TRY(rule_words(p, &e, "write `leak STATE RULE CWE MESSAGE`"));
  return push(p, &e);
}

/* create FN ret|argN STATE | move|try FN argN FROM TO | error FN argN FROM RULE CWE MESSAGE... */
static weir_status entry_line(parser *p, int kind, char *rest) {
  weir_ts_entry e;
  memset(&e, 0, sizeof e);
  e.kind = (uint8_t)kind;
  char *fn = strtok(rest, " \t"), *arg = strtok(NULL, " \t");
  if (!p->spec->state_count) return bad(p, "a directive before `states`", "put the `states` line first");
  if (!fn || !arg) return bad(p, "a function and an argument are missing", "write e.g. `move fclose arg0 opened closed`");
  if (strlen(fn) >= sizeof e.fn) return bad(p, "a function name longer than 127 bytes", "shorten it");
  snprintf(e.fn, sizeof e.fn, "%s", fn);
  if (!parse_arg(arg, &e.arg) || (kind != WEIR_TS_CREATE && e.arg == WEIR_TS_RET))
    return bad(p, "a bad argument (expected argN with N < 63, or ret for create)", "write arg0, arg1, ... or ret");
  WEIR_TRY(state_word(p, strtok(NULL, " \t"), kind == WEIR_TS_CREATE ? &e.to : &e.from));
  if (kind == WEIR_TS_MOVE || kind == WEIR_TS_TRY) WEIR_TRY(state_word(p, strtok(NULL, " \t"), &e.to));
  if (kind == WEIR_TS_ERROR) WEIR_TRY(rule_words(p, &e, "write `error FN argN STATE RULE CWE MESSAGE`"));
  if (kind == WEIR_TS_CREATE) {
    int memory = e.arg != WEIR_TS_RET, first = 1;
    for (size_t k = 0; k < p->spec->count; ++k) first &= p->spec->entries[k].kind != WEIR_TS_CREATE;
    if (!first && memory != p->spec->memory)
      return bad(p, "creates of a value (ret) and of memory (argN) in one spec", "split the spec in two");
    p->spec->memory = memory;
  }
  if (kind != WEIR_TS_ERROR && strtok(NULL, " \t")) return bad(p, "extra words at the end", "remove them");
  return push(p, &e);
}

static weir_status line(parser *p, char *text) {
  char *hash = strchr(text, '#');
  if (hash) *hash = '\0';
  text[strcspn(text, "\r\n")] = '\0';
  char *word = strtok(text, " \t");
  if (!word) return WEIR_OK;
  if (!p->magic) {
    char *version = strtok(NULL, " \t");
    if (strcmp(word, "weir-typestate") != 0 || !version || strcmp(version, "1") != 0)
      return bad(p, "the first directive is not `weir-typestate 1`", "start the spec with `weir-typestate 1`");
    p->magic = 1;
    return WEIR_OK;
  }
  if (strcmp(word, "name") == 0) {
    char *n = strtok(NULL, " \t");
    if (!n || !is_name(n)) return bad(p, "`name` needs one name", "write e.g. `name file`");
    snprintf(p->spec->name, sizeof p->spec->name, "%s", n);
    return WEIR_OK;
  }
  if (strcmp(word, "states") == 0) return states_line(p, strtok(NULL, ""));
  if (strcmp(word, "create") == 0) return entry_line(p, WEIR_TS_CREATE, strtok(NULL, ""));
  if (strcmp(word, "move") == 0) return entry_line(p, WEIR_TS_MOVE, strtok(NULL, ""));
  if (strcmp(word, "try") == 0) return entry_line(p, WEIR_TS_TRY, strtok(NULL, ""));
  if (strcmp(word, "error") == 0) return entry_line(p, WEIR_TS_ERROR, strtok(NULL, ""));
  if (strcmp(word, "leak") == 0) return leak_line(p, strtok(NULL, ""));
  return bad(p, "an unknown directive", "use weir-typestate, name, states, create, move, try, error or leak");
}

static weir_status finish(parser *p) {
  int creates = 0;
  for (size_t k = 0; k < p->spec->count; ++k) creates += p->spec->entries[k].kind == WEIR_TS_CREATE;
  if (!p->magic) return bad(p, "an empty spec", "start the spec with `weir-typestate 1`");
  if (!p->spec->state_count) return bad(p, "no `states` line", "declare the states");
  if (!creates) return bad(p, "no `create` line: nothing is ever tracked", "add `create FN ret|argN STATE`");
  for (size_t k = 0; k < p->spec->count; ++k)
    if (p->spec->entries[k].kind == WEIR_TS_LEAK && p->spec->memory)
      return bad(p, "`leak` in a spec of memory resources (create FN argN)",
                 "remove the leak line: only values a call returns (create FN ret) can leak");
  return WEIR_OK;
}

weir_status weir_ts_spec_load(const char *path, weir_ts_spec **out) {
  *out = NULL;
  FILE *f = fopen(path, "r");
  if (!f) return weir_fail(WEIR_ERR_IO, "%s: cannot open the typestate spec. Fix: check the --spec path", path);
  weir_ts_spec *spec = calloc(1, sizeof *spec);
  if (!spec) {
    fclose(f);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "%s: no memory for the spec. Fix: free memory", path);
  }
  parser p = {path, 0, spec, 0};
  char text[1024];
  weir_status s = WEIR_OK;
  while (s == WEIR_OK && fgets(text, sizeof text, f)) {
    ++p.line;
    s = line(&p, text);
  }
  if (s == WEIR_OK && ferror(f)) s = weir_fail(WEIR_ERR_IO, "%s: read error. Fix: check the file", path);
  if (s == WEIR_OK) s = finish(&p);
  fclose(f);
  if (s != WEIR_OK) {
    weir_ts_spec_free(spec);
    return s;
  }
  *out = spec;
  return WEIR_OK;
}

void weir_ts_spec_free(weir_ts_spec *spec) {
  if (!spec) return;
  free(spec->entries);
  free(spec);
}
