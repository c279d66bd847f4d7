/* The taint configuration: sources, sinks, sanitizers and transfers by callee
 * name. Format (README.md): one directive per line, `#` comments,
 *   source NAME ret|argN|argN+    sink NAME argN|argN+    sanitizer NAME
 *   transfer NAME FROM TO         reset
 * A NAME ending in `*` matches every callee that starts with the rest. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/typestate/spec.h"
#include "frontends/llvm/internal.h"

/* The default library table. Grouped by what the analyses need: taint
 * sources, sinks (with the rule of their findings), propagators, and what
 * calls do to memory (the points-to model, uninit and uaf read these). */
static const char *const default_rules[] = {
    /* ---- taint sources ---- */
    "source getenv ret", "source secure_getenv ret", "source fgets arg0", "source gets arg0",
    "source fgetc ret", "source getc ret", "source _IO_getc ret", "source getchar ret",
    "source fgetwc ret", "source getwc ret", "source getwchar ret", "source fgetws arg0",
    "source fread arg0", "source fread_unlocked arg0", "source read arg1", "source pread arg1",
    "source pread64 arg1", "source recv arg1", "source recvfrom arg1", "source recvmsg arg1 deep",
    "source scanf arg1+", "source __isoc99_scanf arg1+", "source fscanf arg2+",
    "source __isoc99_fscanf arg2+", "source vscanf arg1 deep", "source vfscanf arg2 deep",
    "source getline arg0 deep", "source getdelim arg0 deep", "source readline ret",
    /* ---- sinks: command injection (every argument of exec*; execv*'s array elements) ---- */
    "sink system arg0 command", "sink popen arg0 command", "sink execl arg0+ command",
    "sink execlp arg0+ command", "sink execle arg0+ command", "sink execv arg0+ deep command",
    "sink execvp arg0+ deep command", "sink execve arg0+ deep command",
    "sink execvpe arg0+ deep command", "sink fexecve arg1+ deep command",
    /* ---- sinks: format strings (the whole printf family, v* and _chk included) ---- */
    "sink printf arg0 format", "sink vprintf arg0 format", "sink fprintf arg1 format",
    "sink vfprintf arg1 format", "sink dprintf arg1 format", "sink vdprintf arg1 format",
    "sink sprintf arg1 format", "sink vsprintf arg1 format", "sink snprintf arg2 format",
    "sink vsnprintf arg2 format", "sink asprintf arg1 format", "sink vasprintf arg1 format",
    "sink syslog arg1 format", "sink vsyslog arg1 format", "sink err arg1 format",
    "sink errx arg1 format", "sink verr arg1 format", "sink verrx arg1 format",
    "sink warn arg0 format", "sink warnx arg0 format", "sink vwarn arg0 format",
    "sink vwarnx arg0 format", "sink __printf_chk arg1 format", "sink __vprintf_chk arg1 format",
    "sink __fprintf_chk arg2 format", "sink __vfprintf_chk arg2 format",
    "sink __sprintf_chk arg3 format", "sink __vsprintf_chk arg3 format",
    "sink __snprintf_chk arg4 format", "sink __vsnprintf_chk arg4 format",
    "sink __syslog_chk arg2 format", "sink __dprintf_chk arg2 format",
    "sink wprintf arg0 format", "sink fwprintf arg1 format",
    /* ---- taint propagators: the memory behind FROM flows into the memory behind TO ---- */
    "transfer strcpy arg1 arg0", "transfer strncpy arg1 arg0", "transfer strcat arg1 arg0",
    "transfer strncat arg1 arg0", "transfer stpcpy arg1 arg0", "transfer stpncpy arg1 arg0",
    "transfer memcpy arg1 arg0", "transfer memmove arg1 arg0", "transfer mempcpy arg1 arg0",
    "transfer bcopy arg0 arg1", "transfer llvm.memcpy* arg1 arg0", "transfer llvm.memmove* arg1 arg0",
    "transfer __strcpy_chk arg1 arg0", "transfer __strncpy_chk arg1 arg0",
    "transfer __strcat_chk arg1 arg0", "transfer __strncat_chk arg1 arg0",
    "transfer __memcpy_chk arg1 arg0", "transfer __memmove_chk arg1 arg0",
    "transfer wcscpy arg1 arg0", "transfer wcsncpy arg1 arg0", "transfer wcscat arg1 arg0",
    "transfer wcsncat arg1 arg0",
    "transfer sprintf arg1+ arg0", "transfer snprintf arg2+ arg0", "transfer vsprintf arg1+ arg0",
    "transfer vsnprintf arg2+ arg0", "transfer __sprintf_chk arg3+ arg0",
    "transfer __snprintf_chk arg4+ arg0", "transfer asprintf arg1+ arg0",
    "transfer llvm.va_copy arg1 arg0", "transfer sscanf arg0 arg2+", "transfer __isoc99_sscanf arg0 arg2+",
    /* value taint (the result is computed from the string): also the default for any
     * unknown declaration, listed so that they count as known */
    "value atoi arg0", "value atol arg0", "value atoll arg0", "value atof arg0",
    "value strtol arg0", "value strtoul arg0", "value strtoll arg0", "value strtoull arg0",
    "value strtod arg0", "value strtof arg0", "value strtold arg0", "value strtoimax arg0",
    "value strtoumax arg0", "value __isoc23_strtol arg0", "value strlen arg0",
    /* ---- memory: allocation and release ---- */
    "alloc malloc uninit", "alloc valloc uninit", "alloc aligned_alloc uninit",
    "alloc memalign uninit", "alloc pvalloc uninit", "alloc alloca uninit",
    "alloc calloc zero", "alloc realloc realloc arg0", "alloc reallocarray realloc arg0",
    "alloc strdup copy arg0", "alloc strndup copy arg0", "alloc __strdup copy arg0",
    "alloc wcsdup copy arg0", "alloc xmalloc uninit", "alloc xcalloc zero",
    "alloc xrealloc realloc arg0", "alloc xstrdup copy arg0",
    "free free arg0", "free cfree arg0", "free realloc arg0", "free reallocarray arg0",
    "free xrealloc arg0",
    /* ---- memory: results that point into an argument ---- */
    "returns strcpy arg0", "returns strncpy arg0", "returns strcat arg0", "returns strncat arg0",
    "returns stpcpy arg0", "returns stpncpy arg0", "returns memcpy arg0", "returns memmove arg0",
    "returns mempcpy arg0", "returns memset arg0", "returns fgets arg0", "returns gets arg0",
    "returns strchr arg0", "returns strrchr arg0", "returns strstr arg0", "returns strpbrk arg0",
    "returns memchr arg0", "returns memrchr arg0", "returns rawmemchr arg0", "returns strtok arg0",
    "returns strtok_r arg0", "returns strchrnul arg0", "returns strcasestr arg0",
    "returns index arg0", "returns rindex arg0", "returns basename arg0",
    "returns __strcpy_chk arg0", "returns __strcat_chk arg0", "returns __memcpy_chk arg0",
    "returns __memmove_chk arg0", "returns __memset_chk arg0", "returns getcwd arg0",
    "returns realpath arg1",
    /* ---- memory: copies (pointers included) ---- */
    "copy memcpy arg1 arg0", "copy memmove arg1 arg0", "copy mempcpy arg1 arg0",
    "copy bcopy arg0 arg1", "copy llvm.memcpy* arg1 arg0", "copy llvm.memmove* arg1 arg0",
    "copy __memcpy_chk arg1 arg0", "copy __memmove_chk arg1 arg0",
    /* ---- memory: what calls write (initialise) and read ---- */
    "writes fgets arg0", "writes gets arg0", "writes fgetws arg0", "writes fread arg0",
    "writes fread_unlocked arg0", "writes read arg1", "writes pread arg1", "writes pread64 arg1",
    "writes recv arg1", "writes recvfrom arg1", "writes recvfrom arg4+", "writes recvmsg arg1",
    "writes scanf arg1+", "writes __isoc99_scanf arg1+", "writes fscanf arg2+",
    "writes __isoc99_fscanf arg2+", "writes sscanf arg2+", "writes __isoc99_sscanf arg2+",
    "writes getline arg0", "writes getline arg1", "writes getdelim arg0", "writes getdelim arg1",
    "writes memset arg0", "writes llvm.memset* arg0", "writes __memset_chk arg0", "writes bzero arg0",
    "writes explicit_bzero arg0", "writes strcpy arg0", "writes strncpy arg0", "writes stpcpy arg0",
    "writes stpncpy arg0", "writes strcat arg0", "writes strncat arg0", "writes memcpy arg0",
    "writes memmove arg0", "writes mempcpy arg0", "writes llvm.memcpy* arg0",
    "writes llvm.memmove* arg0", "writes bcopy arg1", "writes __strcpy_chk arg0",
    "writes __strncpy_chk arg0", "writes __strcat_chk arg0", "writes __strncat_chk arg0",
    "writes __memcpy_chk arg0", "writes __memmove_chk arg0", "writes sprintf arg0",
    "writes snprintf arg0", "writes vsprintf arg0", "writes vsnprintf arg0",
    "writes __sprintf_chk arg0", "writes __snprintf_chk arg0", "writes __vsprintf_chk arg0",
    "writes __vsnprintf_chk arg0", "writes asprintf arg0", "writes vasprintf arg0",
    "writes llvm.va_start arg0", "writes llvm.va_copy arg0", "writes time arg0",
    "writes gettimeofday arg0", "writes clock_gettime arg1", "writes stat arg1",
    "writes fstat arg1", "writes lstat arg1", "writes fstatat arg2", "writes pipe arg0",
    "writes pipe2 arg0", "writes socketpair arg3", "writes localtime_r arg1", "writes gmtime_r arg1",
    "writes strftime arg0", "writes getcwd arg0", "writes readlink arg1", "writes realpath arg1",
    "writes sigemptyset arg0", "writes sigfillset arg0", "writes sigaction arg2",
    "writes getsockopt arg3", "writes getsockopt arg4", "writes getpeername arg1",
    "writes getpeername arg2", "writes getsockname arg1", "writes getsockname arg2",
    "writes accept arg1", "writes accept arg2", "writes inet_pton arg2", "writes wait arg0",
    "writes waitpid arg1", "writes getrlimit arg1", "writes uname arg0", "writes getaddrinfo arg3",
    "writes select arg1+", "writes poll arg0", "writes ioctl arg2+", "writes pthread_create arg0",
    "writes pthread_mutex_init arg0", "writes strtol arg1", "writes strtoul arg1",
    "writes strtoll arg1", "writes strtoull arg1", "writes strtod arg1", "writes strtof arg1",
    "writes strtold arg1", "writes strtoimax arg1", "writes strtoumax arg1",
    "writes frexp arg1", "writes modf arg1", "writes posix_memalign arg0", "writes mbstowcs arg0",
    "writes wcstombs arg0", "writes strerror_r arg1", "writes getpwnam_r arg1+",
    "writes getpwuid_r arg1+", "writes fgetpos arg1", "writes sincos arg1+", "writes qsort arg0",
    "reads strlen arg0", "reads strnlen arg0", "reads strcmp arg0+", "reads strncmp arg0",
    "reads strncmp arg1", "reads strcasecmp arg0+", "reads strcpy arg1", "reads strncpy arg1",
    "reads strcat arg0+", "reads strncat arg0+", "reads strdup arg0", "reads strndup arg0",
    "reads strchr arg0", "reads strrchr arg0", "reads strstr arg0+", "reads memcmp arg0+",
    "reads memcpy arg1", "reads memmove arg1", "reads llvm.memcpy* arg1", "reads llvm.memmove* arg1",
    "reads puts arg0", "reads fputs arg0", "reads fwrite arg0", "reads write arg1",
    "reads send arg1", "reads sendto arg1", "reads atoi arg0", "reads atol arg0", "reads strtol arg0",
    "reads printf arg0+", "reads fprintf arg1+", "reads sprintf arg1+", "reads snprintf arg2+",
    "reads system arg0", "reads popen arg0", "reads fopen arg0+", "reads open arg0",
    "reads execl arg0+", "reads execlp arg0+", "reads execv arg0+", "reads execvp arg0+",
    "reads execve arg0+",
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

typedef struct named_index {
  const char *name;
  uint32_t index;
} named_index;

static int cmp_named(const void *a, const void *b) {
  const named_index *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The name index: exact names sorted (binary search), patterns apart. It is
 * rebuilt after every parse; lookups happen once per call site and
 * callee, tens of thousands of times on a real program. */
static weir_status reindex(weir_llvm_config *config) {
  free(config->sorted);
  config->sorted = malloc((config->count ? config->count : 1) * sizeof *config->sorted);
  if (!config->sorted) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "library table: no memory for the index. Fix: free memory");
  config->sorted_count = config->pattern_count = 0;
  for (size_t k = 0; k < config->count; ++k) {
    size_t len = strlen(config->rules[k].name);
    if (len && config->rules[k].name[len - 1] == '*') continue;
    config->sorted[config->sorted_count++] = (uint32_t)k;
  }
  size_t patterns = config->sorted_count;
  for (size_t k = 0; k < config->count; ++k) {
    size_t len = strlen(config->rules[k].name);
    if (len && config->rules[k].name[len - 1] == '*') config->sorted[patterns++] = (uint32_t)k;
  }
  config->pattern_count = patterns - config->sorted_count;
  named_index *tmp = malloc((config->sorted_count ? config->sorted_count : 1) * sizeof *tmp);
  if (!tmp) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "library table: no memory for the index. Fix: free memory");
  for (size_t k = 0; k < config->sorted_count; ++k)
    tmp[k] = (named_index){config->rules[config->sorted[k]].name, config->sorted[k]};
  qsort(tmp, config->sorted_count, sizeof *tmp, cmp_named);
  for (size_t k = 0; k < config->sorted_count; ++k) config->sorted[k] = tmp[k].index;
  free(tmp);
  return WEIR_OK;
}

static weir_status add_rule(weir_llvm_config *config, const weir_llvm_rule *rule) {
  if (config->count == config->cap) {
    size_t cap = config->cap ? config->cap * 2 : 256;
    weir_llvm_rule *rules = realloc(config->rules, cap * sizeof *rules);
    if (!rules) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "library table: no memory for %zu rules. Fix: free memory", cap);
    config->rules = rules;
    config->cap = cap;
  }
  config->rules[config->count++] = *rule;
  return WEIR_OK;
}

static weir_status bad(const char *name, unsigned line, const char *what, const char *found) {
  return weir_fail(WEIR_ERR_PARSE,
                   "%s:%u: error: %s (found '%s'). Fix: use one of `source NAME ret|argN|argN+ "
                   "[deep]`, `sink NAME argN|argN+ [deep] [command|format|taint]`, `sanitizer NAME`, "
                   "`transfer NAME FROM TO`, `alloc NAME uninit|zero|realloc argN|copy argN`, `free "
                   "NAME argN`, `returns NAME argN`, `copy NAME FROM TO`, `writes|reads|value NAME "
                   "argN|argN+` or `reset` (frontends/llvm/README.md, \"The library table\")",
                   name, line, what, found);
}

static const char *const kind_names[] = {"source", "sink",    "sanitizer", "transfer",
                                         "alloc",  "free",    "returns",   "copy",
                                         "writes", "reads",   "value"};

/* Optional trailing words of source and sink: `deep`, and a sink's rule. */
static int parse_flags(weir_llvm_rule *rule, char **tok, int count) {
  for (int k = 0; k < count; ++k) {
    if (strcmp(tok[k], "deep") == 0) rule->deep = 1;
    else if (rule->kind == WEIR_LLVM_SINK && strcmp(tok[k], "command") == 0)
      rule->to_arg = WEIR_LLVM_RULE_COMMAND_INJECTION;
    else if (rule->kind == WEIR_LLVM_SINK && strcmp(tok[k], "format") == 0)
      rule->to_arg = WEIR_LLVM_RULE_FORMAT_STRING;
    else if (rule->kind == WEIR_LLVM_SINK && strcmp(tok[k], "taint") == 0)
      rule->to_arg = WEIR_LLVM_RULE_TAINT;
    else return k;
  }
  return -1;
}

static weir_status parse_alloc(weir_llvm_rule *rule, const char *name, unsigned line, char **tok,
                               int count) {
  static const char *const kinds[] = {"uninit", "zero", "realloc", "copy"};
  for (int k = 0; k < 4; ++k) {
    if (strcmp(tok[2], kinds[k]) != 0) continue;
    rule->to_arg = (uint32_t)(k + 1);
    int wants_arg = k >= 2;
    if (count != 3 + wants_arg) return bad(name, line, "alloc takes uninit, zero, realloc argN or copy argN", tok[2]);
    if (wants_arg && (parse_selector(tok[3], 0, &rule->arg, &rule->from_on) || rule->from_on))
      return bad(name, line, "bad argument selector", tok[3]);
    return WEIR_OK;
  }
  return bad(name, line, "unknown allocation kind", tok[2]);
}

/* One directive already split into tokens. */
static weir_status parse_directive(weir_llvm_config *config, const char *name, unsigned line,
                                   char **tok, int count) {
  if (strcmp(tok[0], "reset") == 0 && count == 1) {
    config->count = 0;
    return WEIR_OK;
  }
  int kind = -1;
  for (int k = 0; k < (int)(sizeof kind_names / sizeof kind_names[0]); ++k)
    if (strcmp(tok[0], kind_names[k]) == 0) kind = k;
  if (kind < 0) return bad(name, line, "unknown directive", tok[0]);
  if (count < 2 || (kind != WEIR_LLVM_SANITIZER && count < 3))
    return bad(name, line, "missing words for the directive", tok[0]);
  weir_llvm_rule rule = {.kind = (weir_llvm_rule_kind)kind, .arg = WEIR_LLVM_ARG_RET,
                         .to_arg = kind == WEIR_LLVM_SINK ? WEIR_LLVM_RULE_TAINT : 0};
  if (strlen(tok[1]) >= sizeof rule.name) return bad(name, line, "function name longer than 95 bytes", tok[1]);
  strcpy(rule.name, tok[1]);
  switch (rule.kind) {
  case WEIR_LLVM_SANITIZER:
    if (count != 2) return bad(name, line, "sanitizer takes only a name", tok[2]);
    break;
  case WEIR_LLVM_ALLOC:
    WEIR_TRY(parse_alloc(&rule, name, line, tok, count));
    break;
  case WEIR_LLVM_TRANSFER:
  case WEIR_LLVM_COPY: {
    int to_on = 0;
    if (count != 4) return bad(name, line, "wrong number of words: NAME FROM TO", tok[0]);
    if (parse_selector(tok[2], 0, &rule.arg, &rule.from_on)) return bad(name, line, "bad argument selector", tok[2]);
    if (parse_selector(tok[3], 0, &rule.to_arg, &to_on)) return bad(name, line, "bad argument selector", tok[3]);
    if (to_on) rule.to_arg += 256; /* "and every later one" */
    break;
  }
  default: {
    int allow_ret = rule.kind == WEIR_LLVM_SOURCE;
    if (parse_selector(tok[2], allow_ret, &rule.arg, &rule.from_on)) return bad(name, line, "bad argument selector", tok[2]);
    int extra = count - 3, flags_ok = rule.kind == WEIR_LLVM_SOURCE || rule.kind == WEIR_LLVM_SINK;
    if (extra && !flags_ok) return bad(name, line, "unexpected word after the argument", tok[3]);
    int wrong = parse_flags(&rule, tok + 3, extra);
    if (wrong >= 0) return bad(name, line, "unknown word (deep, or a sink's command|format|taint)", tok[3 + wrong]);
    if ((rule.kind == WEIR_LLVM_FREE || rule.kind == WEIR_LLVM_RETURNS) && rule.from_on)
      return bad(name, line, "free and returns name one argument", tok[2]);
  }
  }
  return add_rule(config, &rule);
}

static weir_status parse_lines(weir_llvm_config *config, const char *name, const char *text,
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
    if (strlen(buf) != n)
      return weir_fail(WEIR_ERR_PARSE,
                       "%s:%u:%zu: error: a NUL byte inside the line. Fix: the library table is "
                       "text; remove the NUL byte (is it the file you meant?)",
                       name, line, strlen(buf) + 1);
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

weir_status weir_llvm_config_parse(weir_llvm_config *config, const char *name, const char *text,
                                   size_t length) {
  weir_status s = parse_lines(config, name, text, length);
  weir_status r = reindex(config);
  return s != WEIR_OK ? s : r;
}

weir_status weir_llvm_config_new(weir_llvm_config **out) {
  *out = NULL;
  weir_llvm_config *config = calloc(1, sizeof *config);
  if (!config) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "taint config: no memory. Fix: free memory");
  for (size_t k = 0; k < sizeof default_rules / sizeof default_rules[0]; ++k) {
    weir_status s = parse_lines(config, "<defaults>", default_rules[k], strlen(default_rules[k]));
    if (s != WEIR_OK) {
      weir_llvm_config_free(config);
      return s;
    }
  }
  weir_status s = reindex(config);
  if (s != WEIR_OK) {
    weir_llvm_config_free(config);
    return s;
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

void weir_llvm_config_keep_all_facts(weir_llvm_config *config, int on) {
  if (config) config->keep_all_facts = on != 0;
}

void weir_llvm_config_prune_with_const(weir_llvm_config *config, int on) {
  if (config) config->prune_with_const = on != 0;
}

void weir_llvm_config_free(weir_llvm_config *config) {
  if (!config) return;
  weir_ts_spec_free(config->owned_spec);
  free(config->rules);
  free(config->sorted);
  free(config);
}

static int name_matches(const char *pattern, const char *name, size_t length) {
  size_t plen = strlen(pattern);
  if (plen && pattern[plen - 1] == '*') return length >= plen - 1 && strncmp(pattern, name, plen - 1) == 0;
  return plen == length && strncmp(pattern, name, length) == 0;
}

/* strcmp of a rule name against (name, length). */
static int cmp_name(const char *rule, const char *name, size_t length) {
  int c = strncmp(rule, name, length);
  if (c) return c;
  return rule[length] ? 1 : 0;
}

/* Calls visit(rule) for every rule naming `name`; stops when it returns 0. */
static void each_rule(const weir_llvm_config *config, const char *name, size_t length,
                      int (*visit)(const weir_llvm_rule *, void *), void *data) {
  if (!config || !config->sorted) return;
  size_t lo = 0, hi = config->sorted_count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (cmp_name(config->rules[config->sorted[mid]].name, name, length) < 0) lo = mid + 1;
    else hi = mid;
  }
  for (size_t k = lo; k < config->sorted_count; ++k) {
    const weir_llvm_rule *rule = &config->rules[config->sorted[k]];
    if (cmp_name(rule->name, name, length) != 0 || !visit(rule, data)) break;
  }
  for (size_t k = 0; k < config->pattern_count; ++k) {
    const weir_llvm_rule *rule = &config->rules[config->sorted[config->sorted_count + k]];
    if (name_matches(rule->name, name, length) && !visit(rule, data)) return;
  }
}

typedef struct find_state {
  weir_llvm_rule_kind kind;
  const weir_llvm_rule **found;
  size_t count, capacity;
} find_state;

static int find_visit(const weir_llvm_rule *rule, void *data) {
  find_state *st = data;
  if (rule->kind == st->kind && st->count < st->capacity) st->found[st->count++] = rule;
  return st->count < st->capacity;
}

size_t weir_llvm_config_find(const weir_llvm_config *config, weir_llvm_rule_kind kind,
                             const char *name, size_t length, const weir_llvm_rule **found,
                             size_t capacity) {
  find_state st = {kind, found, 0, capacity};
  if (capacity) each_rule(config, name, length, find_visit, &st);
  return st.count;
}

static int names_visit(const weir_llvm_rule *rule, void *data) {
  int taint_model = rule->kind == WEIR_LLVM_SOURCE || rule->kind == WEIR_LLVM_SINK ||
                    rule->kind == WEIR_LLVM_SANITIZER;
  if (taint_model) *(int *)data = 1;
  return !taint_model;
}

/* Sources, sinks and sanitizers are modelled at the call even when defined. */
int weir_llvm_config_names(const weir_llvm_config *config, const char *name, size_t length) {
  int named = 0;
  each_rule(config, name, length, names_visit, &named);
  return named;
}

int weir_llvm_mask_has(uint64_t mask, uint32_t arg) {
  return (mask >> (arg < 63 ? arg : 63)) & 1u;
}

/* Bits for "argN" or "argN+" (N+ sets every bit from N, and bit 63). */
static uint64_t selector_mask(uint32_t arg, int from_on) {
  if (arg == WEIR_LLVM_ARG_RET) return 0;
  uint32_t bit = arg < 63 ? arg : 63;
  return from_on ? ~0ull << bit : 1ull << bit;
}

static int lookup_visit(const weir_llvm_rule *rule, void *data) {
  weir_llvm_libcall *c = data;
  c->known = 1;
  switch (rule->kind) {
  case WEIR_LLVM_ALLOC:
    c->alloc = (uint8_t)rule->to_arg;
    if (rule->arg != WEIR_LLVM_ARG_RET) c->alloc_from = rule->arg;
    break;
  case WEIR_LLVM_FREE: c->frees = rule->arg; break;
  case WEIR_LLVM_RETURNS: c->returns_arg = rule->arg; break;
  case WEIR_LLVM_COPY:
    c->copy_from = rule->arg;
    c->copy_to = rule->to_arg % 256;
    break;
  case WEIR_LLVM_WRITES: c->writes |= selector_mask(rule->arg, rule->from_on); break;
  case WEIR_LLVM_READS: c->reads |= selector_mask(rule->arg, rule->from_on); break;
  case WEIR_LLVM_SOURCE:
    /* a source fills the memory behind its pointer arguments */
    c->writes |= selector_mask(rule->arg, rule->from_on);
    break;
  case WEIR_LLVM_TRANSFER:
    c->writes |= selector_mask(rule->to_arg % 256, rule->to_arg >= 256);
    c->reads |= selector_mask(rule->arg, rule->from_on);
    break;
  default: break;
  }
  return 1;
}

void weir_llvm_library_lookup(const weir_llvm_config *config, const char *name, size_t length,
                              weir_llvm_libcall *out) {
  memset(out, 0, sizeof *out);
  out->alloc_from = out->frees = out->returns_arg = WEIR_LLVM_NONE;
  out->copy_from = out->copy_to = WEIR_LLVM_NONE;
  weir_llvm_config *defaults = NULL;
  if (!config) {
    /* The defaults are parsed once per call here: callers on a hot path
     * pass a configuration (weir_llvm_config_new). */
    if (weir_llvm_config_new(&defaults) != WEIR_OK) return;
    config = defaults;
  }
  each_rule(config, name, length, lookup_visit, out);
  weir_llvm_config_free(defaults);
}

void weir_llvm_config_typestate_spec(weir_llvm_config *config, const struct weir_ts_spec *spec) {
  if (config) config->typestate = spec;
}

weir_status weir_llvm_config_typestate_spec_file(weir_llvm_config *config, const char *path) {
  weir_ts_spec *spec = NULL;
  WEIR_TRY(weir_ts_spec_load(path, &spec));
  weir_ts_spec_free(config->owned_spec);
  config->owned_spec = spec;
  config->typestate = spec;
  return WEIR_OK;
}
