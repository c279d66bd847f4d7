/* Which arguments a printf-style call reads through (uninit).
 *
 * The library table says `reads printf arg0+`: every pointer argument of
 * printf is read. For `%s` that is so; `%p` prints the pointer itself and
 * `%n` writes through it, so `printf("%p", (void *)buf)` of a buffer not yet
 * filled is no read of it. When the format is a constant string, its
 * conversions say which arguments `%s`/`%ls` read (and which `%n` writes:
 * they count as initialised); anything this parser does
 * not follow (positional `%1$s`, an unknown conversion, a format that is not
 * a constant) keeps the table's rule. */
#include <string.h>

#include "frontends/llvm/internal.h"

/* The constant C string a pointer value points to (a GEP of a global's
 * initializer, possibly through casts), or NULL. */
static const char *constant_string(LLVMValueRef v, size_t *length) {
  int64_t offset = 0;
  for (int depth = 0; depth < 4 && v; ++depth) {
    if (LLVMIsAGlobalVariable(v)) break;
    if (!LLVMIsAConstantExpr(v)) return NULL;
    LLVMOpcode op = LLVMGetConstOpcode(v);
    if (op == LLVMGetElementPtr) {
      int n = LLVMGetNumOperands(v);
      for (int k = 2; k < n; ++k) { /* [N x i8]* @s, 0, k: the k-th byte */
        LLVMValueRef index = LLVMGetOperand(v, (unsigned)k);
        if (!LLVMIsAConstantInt(index)) return NULL;
        offset += LLVMConstIntGetSExtValue(index);
      }
    } else if (op != LLVMBitCast) {
      return NULL;
    }
    v = LLVMGetOperand(v, 0);
  }
  if (!v || !LLVMIsAGlobalVariable(v) || !LLVMIsGlobalConstant(v)) return NULL;
  LLVMValueRef init = LLVMGetInitializer(v);
  if (!init || !LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init)) return NULL;
  size_t size = 0;
  const char *s = LLVMGetAsString(init, &size);
  if (offset < 0 || (size_t)offset >= size) return NULL;
  s += offset, size -= (size_t)offset;
  *length = strnlen(s, size);
  return s;
}

/* Sets `reads` and `writes` (bit k: argument k, k < 64) for the %s and %n
 * conversions of the format at argument `format`; 0 when the format cannot
 * be followed. */
static int format_scan(const char *f, size_t n, uint32_t format, uint64_t *reads, uint64_t *writes) {
  uint32_t arg = format + 1;
  for (size_t i = 0; i < n; ++i) {
    if (f[i] != '%') continue;
    if (++i < n && f[i] == '%') continue;
    while (i < n && strchr("-+ #0'I", f[i])) ++i;        /* flags */
    if (i < n && f[i] == '*') ++arg, ++i;                 /* width from an argument */
    while (i < n && f[i] >= '0' && f[i] <= '9') ++i;
    if (i < n && f[i] == '$') return 0;                   /* positional: not followed */
    if (i < n && f[i] == '.') {
      ++i;
      if (i < n && f[i] == '*') ++arg, ++i;               /* precision from an argument */
      while (i < n && f[i] >= '0' && f[i] <= '9') ++i;
    }
    while (i < n && strchr("hlLqjzt", f[i])) ++i; /* length */
    if (i >= n) return 0;
    char c = f[i];
    if (c == 'm') continue;                               /* glibc: strerror(errno), no argument */
    if (!strchr("diouxXeEfFgGaAcCsSpn", c)) return 0;
    if ((c == 's' || c == 'S') && arg < 64) *reads |= (uint64_t)1 << arg; /* %ls too */
    if (c == 'n' && arg < 64) *writes |= (uint64_t)1 << arg;
    ++arg;
  }
  return 1;
}

/* The format's reads and writes for `call`; 0 when it has no constant
 * format this parser follows. */
static int call_format(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t *format, uint64_t *reads, uint64_t *writes) {
  size_t length = 0;
  const char *name = weir_llvm_callee_name(call, &length);
  /* the v* variants take a va_list: their arguments are not in the call */
  if (!length || name[0] == 'v' || (length > 3 && strncmp(name, "__v", 3) == 0)) return 0;
  const weir_llvm_rule *rules[8];
  size_t n = weir_llvm_config_find(ctx->config, WEIR_LLVM_SINK, name, length, rules, 8);
  for (size_t r = 0; r < n; ++r) {
    if (rules[r]->to_arg != WEIR_LLVM_RULE_FORMAT_STRING || rules[r]->from_on) continue;
    *format = rules[r]->arg;
    if (*format >= LLVMGetNumArgOperands(call)) return 0;
    size_t size = 0;
    const char *f = constant_string(LLVMGetOperand(call, *format), &size);
    *reads = *writes = 0;
    return f && format_scan(f, size, *format, reads, writes);
  }
  return 0;
}

int weir_llvm_format_skips_read(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t arg) {
  uint32_t format = 0;
  uint64_t reads = 0, writes = 0;
  if (arg >= 64 || !call_format(ctx, call, &format, &reads, &writes) || arg <= format) return 0;
  return !(reads & ((uint64_t)1 << arg));
}

int weir_llvm_format_writes(weir_llvm_ctx *ctx, LLVMValueRef call, uint32_t arg) {
  uint32_t format = 0;
  uint64_t reads = 0, writes = 0;
  return arg < 64 && call_format(ctx, call, &format, &reads, &writes) && (writes & ((uint64_t)1 << arg));
}
