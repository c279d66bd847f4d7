/* The taint configuration: sources, sinks, sanitizers and transfers by callee
 * name. Format (README.md): one directive per line, `#` comments,
 *   source NAME ret|argN|argN+    sink NAME argN|argN+    sanitizer NAME
 *   transfer NAME FROM TO         reset
 * A NAME ending in `*` matches every callee that starts with the rest. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/internal.h"

static const char *const default_rules[] = {
    "source getenv ret", "source secure_getenv ret", "source fgets arg0", "source gets arg0",
    "source read arg1", "source recv arg1", "source recvfrom arg1", "source scanf arg1+",
    "source __isoc99_scanf arg1+", "source fscanf arg2+", "source __isoc99_fscanf arg2+",
    "sink system arg0", "sink popen arg0", "sink execve arg0", "sink execv arg0",
    "sink execvp arg0", "sink execl arg0", "sink execlp arg0", "sink printf arg0",
    "sink fprintf arg1", "sink sprintf arg1", "sink snprintf arg2", "sink syslog arg1",
    "transfer strcpy arg1 arg0", "transfer strncpy arg1 arg0", "transfer strcat arg1 arg0",
    "transfer strncat arg1 arg0", "transfer memcpy arg1 arg0", "transfer memmove arg1 arg0",
    "transfer llvm.memcpy* arg1 arg0", "transfer llvm.memmove* arg1 arg0",
    "transfer sprintf arg2+ arg0", "transfer snprintf arg3+ arg0",
    "transfer sscanf arg0 arg2+", "transfer __isoc99_sscanf arg0 arg2+",
};

static int parse_selector(const char *token, int allow_ret, uint32_t *arg, int *from_on) {
  *from_on = 0;
  if (allow_ret && strcmp(token, "ret") == 0) {
    *arg = WEIR_LLVM_ARG_RET;
    return 0;
  }
  if (strncmp(token, "arg", 3) != 0 || !isdigit((unsigned char)token[3])) return -1;
  char *end = NULL;
  unsigned long v = strtoul(token + 3, &end, 10);
  if (v > 255) return -1;
  if (*end == '+') *from_on = 1, ++end;
  if (*end) return -1;
  *arg = (uint32_t)v;
  return 0;
}

static weir_status add_rule(weir_llvm_config *config, const weir_llvm_rule *rule) {
  if (config->count == config->cap) {
    size_t cap = config->cap ? config->cap * 2 : 64;
    weir_llvm_rule *rules = realloc(config->rules, cap * sizeof *rules);
    if (!rules) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "taint config: no memory for %zu rules. Fix: free memory", cap);
    config->rules = rules;
    config->cap = cap;
  }
  config->rules[config->count++] = *rule;
  return WEIR_OK;
}

static weir_status bad(const char *name, unsigned line, const char *what, const char *found) {
  return weir_fail(WEIR_ERR_PARSE,
                   "%s:%u: error: %s (found '%s'). Fix: use `source NAME ret|argN|argN+`, `sink NAME "
                   "argN|argN+`, `sanitizer NAME`, `transfer NAME FROM TO` or `reset` (README of "
                   "frontends/llvm)",
                   name, line, what, found);
}

/* One directive already split into tokens. */
static weir_status parse_directive(weir_llvm_config *config, const char *name, unsigned line,
                                   char **tok, int count) {
  static const char *const kinds[] = {"source", "sink", "sanitizer", "transfer"};
  static const int arity[] = {3, 3, 2, 4};
  if (strcmp(tok[0], "reset") == 0 && count == 1) {
    config->count = 0;
    return WEIR_OK;
  }
  for (int k = 0; k < 4; ++k) {
    if (strcmp(tok[0], kinds[k]) != 0) continue;
    if (count != arity[k]) return bad(name, line, "wrong number of words for the directive", tok[0]);
    weir_llvm_rule rule = {.kind = (weir_llvm_rule_kind)k, .arg = WEIR_LLVM_ARG_RET};
    if (strlen(tok[1]) >= sizeof rule.name) return bad(name, line, "function name longer than 95 bytes", tok[1]);
    strcpy(rule.name, tok[1]);
    if (count >= 3 && parse_selector(tok[2], k == WEIR_LLVM_SOURCE, &rule.arg, &rule.from_on))
      return bad(name, line, "bad argument selector", tok[2]);
    if (count == 4) {
      int to_on = 0;
      if (parse_selector(tok[3], 0, &rule.to_arg, &to_on)) return bad(name, line, "bad argument selector", tok[3]);
      /* from_on on the destination is encoded as to_arg + 256. */
      if (to_on) rule.to_arg += 256;
    }
    return add_rule(config, &rule);
  }
  return bad(name, line, "unknown directive", tok[0]);
}

weir_status weir_llvm_config_parse(weir_llvm_config *config, const char *name, const char *text,
                                   size_t length) {
  size_t pos = 0;
  unsigned line = 0;
  while (pos < length) {
    ++line;
    size_t end = pos;
    while (end < length && text[end] != '\n') ++end;
    char buf[512];
    size_t n = end - pos;
    if (n >= sizeof buf) return bad(name, line, "line longer than 511 bytes", "...");
    memcpy(buf, text + pos, n);
    buf[n] = '\0';
    pos = end + 1;
    char *hash = strchr(buf, '#');
    if (hash) *hash = '\0';
    char *tok[8];
    int count = 0;
    for (char *save = NULL, *t = strtok_r(buf, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
      if (count == 8) return bad(name, line, "too many words", t);
      tok[count++] = t;
    }
    if (count) WEIR_TRY(parse_directive(config, name, line, tok, count));
  }
  return WEIR_OK;
}

weir_status weir_llvm_config_new(weir_llvm_config **out) {
  *out = NULL;
  weir_llvm_config *config = calloc(1, sizeof *config);
  if (!config) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "taint config: no memory. Fix: free memory");
  for (size_t k = 0; k < sizeof default_rules / sizeof default_rules[0]; ++k) {
    weir_status s = weir_llvm_config_parse(config, "<defaults>", default_rules[k], strlen(default_rules[k]));
    if (s != WEIR_OK) {
      weir_llvm_config_free(config);
      return s;
    }
  }
  *out = config;
  return WEIR_OK;
}

weir_status weir_llvm_config_load_file(weir_llvm_config *config, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return weir_fail(WEIR_ERR_IO, "taint config: cannot open '%s'. Fix: check the --config path", path);
  char *data = NULL;
  size_t length = 0, cap = 0;
  for (;;) {
    if (length == cap) {
      cap = cap ? cap * 2 : 4096;
      char *p = realloc(data, cap);
      if (!p) {
        free(data);
        fclose(f);
        return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "taint config: no memory reading '%s'. Fix: free memory", path);
      }
      data = p;
    }
    size_t got = fread(data + length, 1, cap - length, f);
    length += got;
    if (got == 0) break;
  }
  int error = ferror(f);
  fclose(f);
  weir_status s = error ? weir_fail(WEIR_ERR_IO, "taint config: read error on '%s'. Fix: check the file", path)
                        : weir_llvm_config_parse(config, path, data, length);
  free(data);
  return s;
}

void weir_llvm_config_free(weir_llvm_config *config) {
  if (!config) return;
  free(config->rules);
  free(config);
}

static int name_matches(const char *pattern, const char *name, size_t length) {
  size_t plen = strlen(pattern);
  if (plen && pattern[plen - 1] == '*') return length >= plen - 1 && strncmp(pattern, name, plen - 1) == 0;
  return plen == length && strncmp(pattern, name, length) == 0;
}

size_t weir_llvm_config_find(const weir_llvm_config *config, weir_llvm_rule_kind kind,
                             const char *name, size_t length, const weir_llvm_rule **found,
                             size_t capacity) {
  size_t count = 0;
  for (size_t k = 0; config && k < config->count && count < capacity; ++k)
    if (config->rules[k].kind == kind && name_matches(config->rules[k].name, name, length))
      found[count++] = &config->rules[k];
  return count;
}

/* Sources, sinks and sanitizers are modelled at the call even when defined. */
int weir_llvm_config_names(const weir_llvm_config *config, const char *name, size_t length) {
  for (size_t k = 0; config && k < config->count; ++k)
    if (config->rules[k].kind != WEIR_LLVM_TRANSFER && name_matches(config->rules[k].name, name, length))
      return 1;
  return 0;
}
