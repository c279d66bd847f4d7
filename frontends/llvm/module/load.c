/* Reading and linking LLVM 14 modules (module.h). Everything LLVM reports
 * goes into a weir_status: parse errors come back as a message, link errors
 * through a diagnostic handler on the context (without one LLVM prints the
 * error and calls exit(1)), and fatal errors (report_fatal_error) through a
 * handler that prints a message with a Fix and leaves with _exit(1) instead
 * of aborting. Out-of-memory inside LLVM is a C++ std::bad_alloc that the C
 * API cannot catch (it ends in abort, exit 134), so before parsing the
 * address-space and data limits are compared with an estimate of what
 * parsing needs and a module that cannot fit is refused with the figures. */
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontends/llvm/module/module.h"

#define MB (1024.0 * 1024.0)

/* What reading needs beyond what the process already uses (the limits are
 * compared with the space left, so libLLVM's own mapping, ~170 MB of address
 * space, is not counted again). Measured on weir's own sources linked into
 * one module (bench-analyze, 595 functions): parsing the 2.0 MB bitcode grew
 * the peak address space by 22.6 MB (11x) and the data segment by 18.6 MB;
 * the 10.5 MB text form grew it by 50.6 MB (4.9x); a tiny module by nothing
 * measurable; preparing added under 2 MB. The factors take twice that, and
 * the base is headroom for what LLVM allocates while the analyses read the
 * module (printed names and instructions) and weir's own tables; weir's own
 * allocations fail cleanly, LLVM's abort, hence the margin. */
enum { BITCODE_FACTOR = 20, TEXT_FACTOR = 8 };
#define LLVM_BASE_BYTES (64ull * 1024 * 1024)

uint64_t weir_llvm_module_parse_estimate(uint64_t bytes, int bitcode) {
  return bytes * (bitcode ? BITCODE_FACTOR : TEXT_FACTOR);
}

/* report_fatal_error ends here: no weir_status can travel through LLVM's
 * C++ frames, so print and leave without running atexit handlers that might
 * touch LLVM's broken state. */
static void fatal_handler(const char *reason) {
  static const char head[] = "weir analyze: LLVM stopped with a fatal error: ";
  static const char tail[] =
      ". Fix: if memory ran out, raise the limit with ulimit -v or analyse fewer modules; "
      "otherwise check that the input was made by clang-14/llvm-link-14, and report it with the "
      "input if it was\n";
  /* write(2) only: the handler may run with the heap exhausted. */
  ssize_t ignored = write(2, head, sizeof head - 1);
  if (reason) ignored = write(2, reason, strlen(reason));
  ignored = write(2, tail, sizeof tail - 1);
  (void)ignored;
  _exit(1);
}

static void install_fatal_handler(void) {
  /* LLVM asserts (in debug builds) that no handler is installed yet. */
  LLVMResetFatalErrorHandler();
  LLVMInstallFatalErrorHandler(fatal_handler);
}

/* ---- memory limits -------------------------------------------------------- */

/* Field `field` (0: size, 5: data) of /proc/self/statm in bytes; 0 when unknown. */
static uint64_t statm_bytes(int field) {
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long v[7] = {0};
  int got = fscanf(f, "%llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]);
  fclose(f);
  if (got <= field) return 0;
  long page = sysconf(_SC_PAGESIZE);
  return v[field] * (uint64_t)(page > 0 ? page : 4096);
}

static weir_status check_limit(const char *what, int resource, const char *resource_name,
                               const char *ulimit_flag, int statm_field, uint64_t need) {
  struct rlimit rl;
  if (getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return WEIR_OK;
  uint64_t limit = (uint64_t)rl.rlim_cur;
  uint64_t used = statm_bytes(statm_field);
  uint64_t left = limit > used ? limit - used : 0;
  if (need <= left) return WEIR_OK;
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "analyze %s: reading needs about %.0f MB of memory but the %s limit is %.0f MB "
                   "with %.0f MB already in use (%.0f MB left). Fix: raise the limit with ulimit %s "
                   "(to at least %.0f kB), or analyse fewer modules",
                   what, (double)need / MB, resource_name, (double)limit / MB, (double)used / MB,
                   (double)left / MB, ulimit_flag, (double)(used + need) / 1024.0 + 1.0);
}

/* Refuses input that cannot be parsed within RLIMIT_AS / RLIMIT_DATA. */
static weir_status check_memory(const char *what, uint64_t parse_bytes) {
  uint64_t need = parse_bytes + LLVM_BASE_BYTES;
  WEIR_TRY(check_limit(what, RLIMIT_AS, "address-space", "-v", 0, need));
  return check_limit(what, RLIMIT_DATA, "data", "-d", 5, need);
}

static int looks_like_bitcode(const unsigned char *p, size_t n) {
  if (n < 4) return 0;
  return (p[0] == 'B' && p[1] == 'C' && p[2] == 0xC0 && p[3] == 0xDE) ||
         (p[0] == 0xDE && p[1] == 0xC0 && p[2] == 0x17 && p[3] == 0x0B); /* wrapper */
}

static int file_is_bitcode(const char *path) {
  unsigned char head[4] = {0};
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  return looks_like_bitcode(head, n);
}

/* ---- diagnostics ---------------------------------------------------------- */

/* The first error LLVM reported on the context while linking. */
typedef struct diag_capture {
  char message[768];
  int errors;
} diag_capture;

static void diag_handler(LLVMDiagnosticInfoRef info, void *opaque) {
  diag_capture *c = opaque;
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError) return; /* warnings: triple mismatch etc. */
  if (c->errors++ == 0) {
    char *text = LLVMGetDiagInfoDescription(info);
    snprintf(c->message, sizeof c->message, "%s", text ? text : "unknown error");
    LLVMDisposeMessage(text);
  }
}

/* ---- parsing ---------------------------------------------------------------- */

static weir_status parse_buffer(LLVMContextRef context, const char *name, LLVMMemoryBufferRef buffer,
                                LLVMModuleRef *out) {
  char *error = NULL;
  *out = NULL;
  /* LLVMParseIRInContext takes ownership of the buffer, also on failure. */
  if (LLVMParseIRInContext(context, buffer, out, &error)) {
    /* LLVM's message may end in a newline: keep ours on one line. */
    size_t length = error ? strlen(error) : 0;
    while (length && (error[length - 1] == '\n' || error[length - 1] == ' ')) error[--length] = '\0';
    weir_status s = weir_fail(WEIR_ERR_PARSE,
                              "analyze %s: not a readable LLVM 14 module: %s. Fix: give a .ll or .bc "
                              "made by clang-14 -g -O0 -emit-llvm (llvm-link-14 for several)",
                              name, error ? error : "unknown error");
    LLVMDisposeMessage(error);
    *out = NULL;
    return s;
  }
  return WEIR_OK;
}

static weir_status parse_file(LLVMContextRef context, const char *path, LLVMModuleRef *out) {
  LLVMMemoryBufferRef buffer = NULL;
  char *error = NULL;
  *out = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buffer, &error)) {
    weir_status s = weir_fail(WEIR_ERR_IO, "analyze: cannot read '%s': %s. Fix: check the path", path,
                              error ? error : "unknown error");
    LLVMDisposeMessage(error);
    return s;
  }
  return parse_buffer(context, path, buffer, out);
}

/* ---- linking ---------------------------------------------------------------- */

/* The symbol a link error names ("... named 'foo': symbol multiply defined!"). */
static int quoted_symbol(const char *message, char *out, size_t capacity) {
  const char *a = strchr(message, '\'');
  const char *b = a ? strchr(a + 1, '\'') : NULL;
  if (!b || (size_t)(b - a - 1) >= capacity) return 0;
  memcpy(out, a + 1, (size_t)(b - a - 1));
  out[b - a - 1] = '\0';
  return out[0] != '\0';
}

static int defines(LLVMModuleRef module, const char *symbol) {
  LLVMValueRef fn = LLVMGetNamedFunction(module, symbol);
  if (fn && LLVMCountBasicBlocks(fn) > 0) return 1;
  LLVMValueRef g = LLVMGetNamedGlobal(module, symbol);
  return g && !LLVMIsDeclaration(g);
}

/* Which of paths[0..before) defines `symbol`: earlier modules are already
 * merged, so on this (error) path they are read again in a scratch context. */
static const char *find_definer(const char *const *paths, size_t before, const char *symbol) {
  LLVMContextRef scratch = LLVMContextCreate();
  const char *found = NULL;
  for (size_t k = 0; scratch && k < before && !found; ++k) {
    LLVMMemoryBufferRef buffer = NULL;
    char *error = NULL;
    LLVMModuleRef m = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(paths[k], &buffer, &error)) {
      LLVMDisposeMessage(error);
      continue;
    }
    if (LLVMParseIRInContext(scratch, buffer, &m, &error)) {
      LLVMDisposeMessage(error);
      continue;
    }
    if (defines(m, symbol)) found = paths[k];
    LLVMDisposeModule(m);
  }
  if (scratch) LLVMContextDispose(scratch);
  return found;
}

static weir_status link_error(const char *const *paths, size_t index, const diag_capture *diag) {
  char symbol[256];
  const char *other = NULL;
  if (quoted_symbol(diag->message, symbol, sizeof symbol)) other = find_definer(paths, index, symbol);
  if (other)
    return weir_fail(WEIR_ERR_PARSE,
                     "analyze: linking '%s' failed: %s ('%s' is defined in both '%s' and '%s'). Fix: "
                     "give each symbol one definition (make one of them static, or leave one of the "
                     "files out)",
                     paths[index], diag->message, symbol, other, paths[index]);
  return weir_fail(WEIR_ERR_PARSE,
                   "analyze: linking '%s' into '%s'%s failed: %s. Fix: give modules of one program, "
                   "made by clang-14, that llvm-link-14 accepts together",
                   paths[index], paths[0], index > 1 ? " (and the files before it)" : "",
                   diag->errors ? diag->message : "unknown error");
}

/* Links paths[1..count) into `dest` one at a time, so at most one extra
 * module is in memory beside the growing result. */
static weir_status link_rest(LLVMContextRef context, const char *const *paths, size_t count,
                             LLVMModuleRef dest) {
  diag_capture diag;
  LLVMDiagnosticHandler old_handler = LLVMContextGetDiagnosticHandler(context);
  void *old_context = LLVMContextGetDiagnosticContext(context);
  LLVMContextSetDiagnosticHandler(context, diag_handler, &diag);
  weir_status s = WEIR_OK;
  for (size_t k = 1; k < count && s == WEIR_OK; ++k) {
    LLVMModuleRef src = NULL;
    s = parse_file(context, paths[k], &src);
    if (s != WEIR_OK) break;
    memset(&diag, 0, sizeof diag);
    /* LLVMLinkModules2 destroys src whatever happens. */
    if (LLVMLinkModules2(dest, src)) s = link_error(paths, k, &diag);
  }
  LLVMContextSetDiagnosticHandler(context, old_handler, old_context);
  return s;
}

/* "'a.bc'" or "'a.bc' (+2 more)" for messages. */
static void describe_files(const char *const *paths, size_t count, char *out, size_t capacity) {
  if (count > 1) snprintf(out, capacity, "'%s' (+%zu more)", paths[0], count - 1);
  else snprintf(out, capacity, "'%s'", paths[0]);
}

static weir_status check_files(const char *const *paths, size_t count) {
  uint64_t need = 0;
  for (size_t k = 0; k < count; ++k) {
    struct stat st;
    if (stat(paths[k], &st) != 0)
      return weir_fail(WEIR_ERR_IO, "analyze: cannot read '%s' (file %zu of %zu). Fix: check the path",
                       paths[k], k + 1, count);
    if (S_ISDIR(st.st_mode))
      return weir_fail(WEIR_ERR_IO, "analyze: '%s' is a directory. Fix: give .ll or .bc files", paths[k]);
    need += weir_llvm_module_parse_estimate((uint64_t)st.st_size, file_is_bitcode(paths[k]));
  }
  char what[600];
  describe_files(paths, count, what, sizeof what);
  return check_memory(what, need);
}

weir_status weir_llvm_module_read(LLVMContextRef context, const char *const *paths, size_t count,
                                  LLVMModuleRef *out) {
  if (out) *out = NULL;
  if (!context || !paths || !out || count == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "analyze: no module to read (context, paths or out NULL, or count 0). Fix: "
                     "give at least one .ll or .bc file");
  for (size_t k = 0; k < count; ++k)
    if (!paths[k])
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "analyze: path %zu of %zu is NULL. Fix: pass every path",
                       k + 1, count);
  install_fatal_handler();
  WEIR_TRY(check_files(paths, count));
  LLVMModuleRef dest = NULL;
  WEIR_TRY(parse_file(context, paths[0], &dest));
  weir_status s = link_rest(context, paths, count, dest);
  if (s != WEIR_OK) {
    LLVMDisposeModule(dest);
    return s;
  }
  *out = dest;
  return WEIR_OK;
}

weir_status weir_llvm_module_read_memory(LLVMContextRef context, const char *name, const char *data,
                                         size_t length, LLVMModuleRef *out) {
  if (out) *out = NULL;
  if (!context || !name || !data || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "analyze: context, name, data or out is NULL. Fix: pass all four");
  install_fatal_handler();
  char what[600];
  snprintf(what, sizeof what, "'%s'", name);
  WEIR_TRY(check_memory(
      what, weir_llvm_module_parse_estimate(length, looks_like_bitcode((const unsigned char *)data, length))));
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(data, length, name);
  if (!buffer)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "analyze '%s': no memory for %zu bytes. Fix: free memory",
                     name, length);
  return parse_buffer(context, name, buffer, out);
}
