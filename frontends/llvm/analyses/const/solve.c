/* Solving a const problem: the IDE reference solver, then the value of
 * each recorded use read from the result, and the uses as JSON. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/llvm/analyses/const/const.h"

int64_t weir_llvm_const_normalize(int64_t value, uint32_t bits) {
  if (bits == 1) return value & 1;
  if (bits == 0 || bits >= 64) return value;
  uint64_t mask = ((uint64_t)1 << bits) - 1, low = (uint64_t)value & mask;
  uint64_t sign = (uint64_t)1 << (bits - 1);
  return (int64_t)((low ^ sign) - sign);
}

LLVMValueRef weir_llvm_const_strip_casts(LLVMValueRef v) {
  for (int depth = 0; depth < 8 && v && LLVMIsAInstruction(v); ++depth) {
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op != LLVMTrunc && op != LLVMZExt && op != LLVMSExt) break;
    v = LLVMGetOperand(v, 0);
  }
  return v;
}

int weir_llvm_const_through_casts(LLVMValueRef v, LLVMValueRef base, int64_t value, int64_t *out) {
  if (v == base) return *out = value, 1;
  if (!v || !LLVMIsAInstruction(v)) return 0;
  int64_t inner = 0;
  if (!weir_llvm_const_through_casts(LLVMGetOperand(v, 0), base, value, &inner)) return 0;
  uint32_t from = LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(v, 0)));
  uint32_t to = LLVMGetIntTypeWidth(LLVMTypeOf(v));
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (op == LLVMTrunc || op == LLVMSExt) *out = weir_llvm_const_normalize(inner, op == LLVMSExt && from == 1 ? 1 : to);
  else if (op == LLVMZExt) *out = from >= 64 ? inner : (int64_t)((uint64_t)inner & (((uint64_t)1 << from) - 1));
  else return 0;
  if (op == LLVMSExt && from == 1) *out = -*out; /* i1 true sign-extends to -1 */
  return 1;
}

/* The value of (node, fact) in the result (sorted by node, fact); NULL: it does not hold. */
static const weir_ide_value *value_at(const weir_ide_result *r, uint32_t node, uint32_t fact) {
  uint64_t lo = 0, hi = r->hold_count;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (r->hold_node[mid] < node || (r->hold_node[mid] == node && r->hold_fact[mid] < fact)) lo = mid + 1;
    else hi = mid;
  }
  if (lo < r->hold_count && r->hold_node[lo] == node && r->hold_fact[lo] == fact) return &r->value[lo];
  return NULL;
}

static const char *use_word(uint8_t kind) {
  return kind == WEIR_LLVM_CONST_USE_COMPARE  ? "compare"
         : kind == WEIR_LLVM_CONST_USE_SWITCH ? "switch"
         : kind == WEIR_LLVM_CONST_USE_BRANCH ? "branch"
                                              : "argument";
}

static void read_uses(const weir_llvm_problem *problem, const weir_ide_result *r, weir_llvm_const_values *out) {
  for (size_t c = 0; c < problem->check_count; ++c) {
    const weir_llvm_check *check = &problem->checks[c];
    const weir_llvm_loc *where = &problem->locs[check->loc];
    const weir_ide_value *v = value_at(r, check->node, problem->check_facts.v[check->fact_first]);
    weir_llvm_const_use *u = &out->uses[out->count++];
    u->kind = !v || v->kind == WEIR_IDE_VALUE_TOP ? WEIR_LLVM_CONST_UNREACHED
              : v->kind == WEIR_IDE_VALUE_CONST   ? WEIR_LLVM_CONST_VALUE
                                                  : WEIR_LLVM_CONST_VARIES;
    u->value = u->kind == WEIR_LLVM_CONST_VALUE ? weir_llvm_const_normalize(v->constant, check->bits) : 0;
    u->bits = check->bits;
    u->use = use_word(check->const_use);
    u->name = check->message ? check->message : "";
    u->function = where->function ? where->function : "";
    u->file = where->file ? where->file : "";
    u->line = where->line;
    u->column = where->column;
    out->constant += u->kind == WEIR_LLVM_CONST_VALUE;
    out->unreached += u->kind == WEIR_LLVM_CONST_UNREACHED;
  }
}

weir_status weir_llvm_const_solve(weir_llvm_problem *problem, weir_backend *backend, weir_llvm_const_values *out,
                                  weir_ifds_result *result) {
  if (out) memset(out, 0, sizeof *out);
  if (result) memset(result, 0, sizeof *result);
  if (!problem || !problem->ide || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "const: no IDE problem was built (problem %p, out %p). Fix: build "
                     "with WEIR_LLVM_CONST", (const void *)problem, (void *)out);
  weir_ide_result r;
  weir_ide_stats stats = WEIR_IDE_STATS_INIT;
  WEIR_TRY(backend ? weir_ide_solve_engine(backend, problem->ide, NULL, &r, &stats)
                   : weir_ide_solve_reference(problem->ide, &r, &stats));
  out->uses = calloc(problem->check_count ? problem->check_count : 1, sizeof *out->uses);
  if (!out->uses) {
    weir_ide_result_free(&r);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "const: no memory for %zu uses. Fix: free memory", problem->check_count);
  }
  read_uses(problem, &r, out);
  out->path_edges = r.path_edges;
  out->jump_updates = stats.jump_updates;
  out->facts = problem->ide->ifds->fact_count;
  out->local_memory = problem->const_local_memory;
  if (result) result->path_edges = r.path_edges; /* no holds: const has no findings */
  weir_ide_result_free(&r);
  return WEIR_OK;
}

void weir_llvm_const_values_free(weir_llvm_const_values *values) {
  if (!values) return;
  free(values->uses);
  memset(values, 0, sizeof *values);
}

/* ---- JSON --------------------------------------------------------------- */

static void json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
    if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
    else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
    else fputc(*p, out);
  }
  fputc('"', out);
}

/* `file` relative to the resolved `root` when it is inside it. */
static const char *relative(const char *file, const char *root) {
  size_t n = root ? strlen(root) : 0;
  if (n && strncmp(file, root, n) == 0 && file[n] == '/') return file + n + 1;
  return file;
}

weir_status weir_llvm_const_write_json(const weir_llvm_problem *problem, const weir_llvm_const_values *values,
                                       const char *root, FILE *out) {
  if (!problem || !values || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "const: nothing to write (problem, values or stream NULL). "
                     "Fix: solve with weir_llvm_const_solve first");
  char resolved[PATH_MAX] = "";
  if (root && !realpath(root, resolved)) snprintf(resolved, sizeof resolved, "%s", root);
  fprintf(out, "{\n  \"version\": 1,\n  \"analysis\": \"const\",\n  \"input\": ");
  json_string(out, problem->name);
  fprintf(out, ",\n  \"memory\": \"%s\",\n  \"facts\": %u,\n  \"path_edges\": %llu,\n  \"uses\": %zu,\n"
          "  \"constant\": %zu,\n  \"unreached\": %zu,\n  \"values\": [",
          values->local_memory ? "local" : "interprocedural", values->facts, (unsigned long long)values->path_edges,
          values->count, values->constant, values->unreached);
  int first = 1;
  for (size_t k = 0; k < values->count; ++k) {
    const weir_llvm_const_use *u = &values->uses[k];
    if (u->kind != WEIR_LLVM_CONST_VALUE) continue;
    fprintf(out, "%s\n    {\"function\": ", first ? "" : ",");
    json_string(out, u->function);
    fprintf(out, ", \"file\": ");
    json_string(out, relative(u->file, resolved));
    fprintf(out, ", \"line\": %u, \"column\": %u, \"name\": ", u->line, u->column);
    json_string(out, u->name);
    fprintf(out, ", \"use\": \"%s\", \"bits\": %u, \"value\": %lld}", u->use, u->bits, (long long)u->value);
    first = 0;
  }
  fprintf(out, "%s]\n}\n", first ? "" : "\n  ");
  if (ferror(out))
    return weir_fail(WEIR_ERR_IO, "const: writing the values failed. Fix: check the disk space and the path");
  return WEIR_OK;
}
