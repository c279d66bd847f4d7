/* Source positions: of every node (for code flows, weir_llvm_note_node) and
 * of the checks and sources findings are later built from (weir_llvm_add_loc:
 * debug location from -g, else the function, the instruction index and the
 * printed instruction).
 *
 * Everything here is linear in the module: the instruction text, which stands
 * in for a missing line number, is cut out of ONE print of its function
 * (LLVMPrintValueToString of an instruction numbers the whole function, so
 * printing per check made modules without -g quadratic). */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "frontends/llvm/report/report.h"

#define WEIR_LLVM_TEXT_MAX 96

typedef struct node_pos {
  uint32_t file;        /* 1 + index into files; 0: no debug location */
  uint32_t proc;        /* WEIR_LLVM_NONE: never noted */
  uint32_t line, column;
  uint32_t instruction; /* 1-based in the function; 0 for the start and exit nodes */
} node_pos;

struct weir_llvm_positions {
  node_pos *nodes;
  uint32_t node_count;
  char **files;         /* absolute (when the debug info names the directory) */
  uint32_t file_count, file_cap;
  weir_llvm_map file_of;  /* DIFile -> 1 + index */
  char **proc_names;    /* [proc_count] */
  uint32_t proc_count;
  uint32_t current_proc, counter; /* note_node walks each function in instruction order */
  /* The print of one function, for instruction texts (see the top). */
  LLVMValueRef printed_fn;
  char *printed;
  weir_llvm_vec line_start; /* offset of the k-th instruction's line */
};
typedef struct weir_llvm_positions positions;

static int grow(void **array, size_t *cap, size_t count, size_t size) {
  if (count < *cap) return 1;
  size_t next = *cap ? *cap * 2 : 64;
  void *p = realloc(*array, next * size);
  if (!p) return 0;
  *array = p;
  *cap = next;
  return 1;
}

void weir_llvm_positions_free(positions *p) {
  if (!p) return;
  for (uint32_t k = 0; k < p->file_count; ++k) free(p->files[k]);
  for (uint32_t k = 0; k < p->proc_count; ++k) free(p->proc_names[k]);
  free(p->files);
  free(p->proc_names);
  free(p->nodes);
  weir_llvm_map_free(&p->file_of);
  if (p->printed) LLVMDisposeMessage(p->printed);
  weir_llvm_vec_free(&p->line_start);
  free(p);
}

/* The positions of the problem being built, made on first use. */
static positions *positions_of(weir_llvm_ctx *ctx) {
  weir_llvm_problem *out = ctx->out;
  if (out->positions) return out->positions;
  positions *p = calloc(1, sizeof *p);
  if (p) {
    p->node_count = ctx->node_count;
    p->proc_count = ctx->fn_count;
    p->nodes = malloc((p->node_count ? p->node_count : 1) * sizeof *p->nodes);
    p->proc_names = calloc(p->proc_count ? p->proc_count : 1, sizeof *p->proc_names);
    p->current_proc = WEIR_LLVM_NONE;
  }
  if (!p || !p->nodes || !p->proc_names) {
    weir_llvm_positions_free(p);
    out->failed = 1;
    return NULL;
  }
  for (uint32_t n = 0; n < p->node_count; ++n) p->nodes[n] = (node_pos){0, WEIR_LLVM_NONE, 0, 0, 0};
  out->positions = p;
  return p;
}

/* ---- files ---------------------------------------------------------------- */

/* The debug location of an instruction in the user's code: code inlined
 * from a header (glibc's inline vprintf at -O2) is reported where it was
 * inlined into, the outermost location of the inlinedAt chain. */
static int in_system_header(LLVMMetadataRef loc) {
  LLVMMetadataRef scope = LLVMDILocationGetScope(loc);
  LLVMMetadataRef file = scope ? LLVMDIScopeGetFile(scope) : NULL;
  if (!file) return 0;
  unsigned dl = 0, nl = 0;
  const char *dir = LLVMDIFileGetDirectory(file, &dl);
  const char *name = LLVMDIFileGetFilename(file, &nl);
  const char *path = name && nl && name[0] == '/' ? name : dir;
  unsigned length = path == name ? nl : dl;
  static const char *const roots[] = {"/usr/include/", "/usr/lib/", "/usr/local/include/"};
  for (size_t k = 0; path && k < sizeof roots / sizeof roots[0]; ++k)
    if (length >= strlen(roots[k]) && strncmp(path, roots[k], strlen(roots[k])) == 0) return 1;
  return 0;
}

/* The innermost location outside the system headers: code of the user's
 * own functions keeps its line even when inlined, while code inlined from
 * a header (glibc's inline vprintf at -O2) is reported where the user
 * called it. */
static LLVMMetadataRef user_location(LLVMValueRef inst) {
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst);
  for (int depth = 0; loc && depth < 64 && in_system_header(loc); ++depth) {
    LLVMMetadataRef outer = LLVMDILocationGetInlinedAt(loc);
    if (!outer) break;
    loc = outer;
  }
  return loc;
}

/* The DIFile of an instruction's debug location, or NULL. */
static LLVMMetadataRef debug_file(LLVMValueRef inst) {
  LLVMMetadataRef loc = user_location(inst);
  LLVMMetadataRef scope = loc ? LLVMDILocationGetScope(loc) : NULL;
  return scope ? LLVMDIScopeGetFile(scope) : NULL;
}

static unsigned debug_line(LLVMValueRef inst) {
  LLVMMetadataRef loc = user_location(inst);
  return loc ? LLVMDILocationGetLine(loc) : 0;
}

static unsigned debug_column(LLVMValueRef inst) {
  LLVMMetadataRef loc = user_location(inst);
  return loc ? LLVMDILocationGetColumn(loc) : 0;
}

/* "DIRECTORY/FILENAME" of a DIFile, normalised; a relative name without a
 * directory stays relative (to where clang ran). NULL when it has no name. */
static char *file_path(LLVMMetadataRef file) {
  unsigned dir_length = 0, name_length = 0;
  const char *dir = LLVMDIFileGetDirectory(file, &dir_length);
  const char *name = LLVMDIFileGetFilename(file, &name_length);
  if (!name || !name_length) return NULL;
  int failed = 0;
  char *d = weir_llvm_strndup(dir ? dir : "", dir ? dir_length : 0, &failed);
  char *n = weir_llvm_strndup(name, name_length, &failed);
  char *path = NULL;
  if (!failed) path = !dir_length && n[0] != '/' ? weir_llvm_strndup(n, name_length, &failed)
                                                  : weir_llvm_path_join(d, n);
  free(d);
  free(n);
  return path;
}

/* 1 + the index of the DIFile's path in the table, 0 when there is none. */
static uint32_t intern_file(weir_llvm_ctx *ctx, positions *p, LLVMMetadataRef file) {
  if (!file) return 0;
  uint32_t known = weir_llvm_map_get(&p->file_of, file);
  if (known != WEIR_LLVM_NONE) return known;
  char *path = file_path(file);
  if (!path) return 0;
  uint32_t id = 0;
  for (uint32_t k = 0; k < p->file_count && !id; ++k) /* linked modules repeat DIFiles */
    if (strcmp(p->files[k], path) == 0) id = k + 1;
  if (id) {
    free(path);
  } else {
    size_t cap = p->file_cap;
    if (!grow((void **)&p->files, &cap, p->file_count, sizeof *p->files)) {
      free(path);
      ctx->out->failed = 1;
      return 0;
    }
    p->file_cap = (uint32_t)cap;
    p->files[p->file_count++] = path;
    id = p->file_count;
  }
  weir_llvm_map_put(&p->file_of, file, id);
  if (p->file_of.failed) ctx->out->failed = 1;
  return id;
}

static LLVMMetadataRef inlined_at(LLVMValueRef i) {
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(i);
  return loc && LLVMGetMetadataKind(loc) == LLVMDILocationMetadataKind ? LLVMDILocationGetInlinedAt(loc) : NULL;
}

/* The nearest instruction of the block with a line (before it, else after
 * it), preferring one of the same inlined instance as `inst` (inlined at
 * the same place; for an instruction of the function's own or without a
 * location: not inlined), so that a neighbour inlined from a helper does
 * not name the helper's file; any line after that. */
static LLVMValueRef nearest_with_line(LLVMValueRef inst) {
  LLVMMetadataRef at = inlined_at(inst);
  for (int any = 0; any < 2; ++any) {
    for (LLVMValueRef i = LLVMGetPreviousInstruction(inst); i; i = LLVMGetPreviousInstruction(i))
      if (LLVMInstructionGetDebugLoc(i) && debug_line(i) && (any || inlined_at(i) == at)) return i;
    for (LLVMValueRef i = LLVMGetNextInstruction(inst); i; i = LLVMGetNextInstruction(i))
      if (LLVMInstructionGetDebugLoc(i) && debug_line(i) && (any || inlined_at(i) == at)) return i;
  }
  return inst;
}

/* The llvm.lifetime.start of an alloca (directly or through casts) that has
 * a line, or NULL. */
static LLVMValueRef lifetime_start(LLVMValueRef pointer) {
  for (LLVMUseRef u = LLVMGetFirstUse(pointer); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u), found = NULL;
    size_t length = 0;
    const char *callee = LLVMIsACallInst(user) ? weir_llvm_callee_name(user, &length) : "";
    if (LLVMIsABitCastInst(user)) found = lifetime_start(user);
    else if (length > 19 && strncmp(callee, "llvm.lifetime.start", 19) == 0 && debug_line(user)) found = user;
    if (found) return found;
  }
  return NULL;
}

/* The instruction whose debug location stands for `inst`: itself; with
 * line 0, or with no location at all in a function that has debug info
 * (-O2 drops the location of loads it merges or hoists), the nearest line
 * in its block; for an alloca without one (clang gives allocas none) its
 * llvm.dbg.declare, which sits at the variable's declaration. */
static LLVMValueRef located(LLVMValueRef inst) {
  if (LLVMInstructionGetDebugLoc(inst) && debug_line(inst) == 0) return nearest_with_line(inst);
  if (!LLVMInstructionGetDebugLoc(inst) && !LLVMIsAAllocaInst(inst) &&
      LLVMGetSubprogram(LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst))))
    return nearest_with_line(inst);
  if (LLVMInstructionGetDebugLoc(inst) || !LLVMIsAAllocaInst(inst)) return inst;
  LLVMValueRef wrapped = LLVMMetadataAsValue(LLVMGetTypeContext(LLVMTypeOf(inst)), LLVMValueAsMetadata(inst));
  for (LLVMUseRef u = LLVMGetFirstUse(wrapped); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    size_t length = 0;
    const char *callee = LLVMIsACallInst(user) ? weir_llvm_callee_name(user, &length) : "";
    if (length == 16 && strncmp(callee, "llvm.dbg.declare", 16) == 0 && LLVMInstructionGetDebugLoc(user))
      return user;
  }
  LLVMValueRef start = lifetime_start(inst); /* -O2: the declare is gone, the marker is on the declaration */
  return start ? start : inst;
}

/* ---- node positions --------------------------------------------------------- */

static void note_function(weir_llvm_ctx *ctx, positions *p, uint32_t proc) {
  LLVMValueRef f = ctx->fns[proc].fn;
  size_t length = 0;
  const char *name = LLVMGetValueName2(f, &length);
  if (!p->proc_names[proc]) p->proc_names[proc] = weir_llvm_strndup(name, length, &ctx->out->failed);
  /* The start node sits at the function's line. */
  LLVMMetadataRef sub = LLVMGetSubprogram(f);
  uint32_t file = sub ? intern_file(ctx, p, LLVMDIScopeGetFile(sub)) : 0;
  uint32_t first = ctx->fns[proc].first, last = ctx->fns[proc].last;
  if (first < p->node_count) p->nodes[first] = (node_pos){file, proc, file ? LLVMDISubprogramGetLine(sub) : 0, 0, 0};
  if (last < p->node_count) p->nodes[last] = (node_pos){0, proc, 0, 0, 0};
}

void weir_llvm_note_node(weir_llvm_ctx *ctx, uint32_t node, LLVMValueRef inst) {
  positions *p = positions_of(ctx);
  uint32_t vid = weir_llvm_vid(ctx, inst);
  if (!p || node >= p->node_count || vid == WEIR_LLVM_NONE) return;
  uint32_t proc = ctx->value_proc[vid];
  if (proc >= p->proc_count) return;
  LLVMValueRef f = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
  if (proc != p->current_proc || inst == LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f))) {
    p->current_proc = proc;
    p->counter = 0;
    note_function(ctx, p, proc);
  }
  LLVMValueRef at = located(inst);
  node_pos pos = {intern_file(ctx, p, debug_file(at)), proc, 0, 0, ++p->counter};
  if (pos.file) {
    pos.line = debug_line(at);
    pos.column = debug_column(at);
  }
  p->nodes[node] = pos;
  /* A call node's return site (the next node) is where the call returns. */
  if (ctx->callee_count[vid] && node + 1 < p->node_count) p->nodes[node + 1] = pos;
}

int weir_llvm_node_position(const weir_llvm_problem *problem, uint32_t node, weir_llvm_location *out) {
  const positions *p = problem->positions;
  memset(out, 0, sizeof *out);
  out->file = problem->name;
  out->function = "?";
  if (!p || node >= p->node_count || p->nodes[node].proc == WEIR_LLVM_NONE) return 0;
  const node_pos *pos = &p->nodes[node];
  if (pos->file) out->file = p->files[pos->file - 1];
  if (p->proc_names[pos->proc]) out->function = p->proc_names[pos->proc];
  out->line = pos->file ? pos->line : 0;
  out->column = pos->file ? pos->column : 0;
  out->instruction = pos->instruction;
  return 1;
}

/* ---- instruction texts ---------------------------------------------------- */

/* Prints `f` once and finds the line of each instruction: two spaces of
 * indentation (labels start in column 0; switch cases and the closing `]`
 * are deeper or start with `]`). 0 when the lines do not match the count. */
static int print_function(positions *p, LLVMValueRef f) {
  if (p->printed_fn == f) return p->printed != NULL;
  if (p->printed) LLVMDisposeMessage(p->printed);
  p->printed = LLVMPrintValueToString(f);
  p->printed_fn = f;
  p->line_start.n = 0;
  if (!p->printed) return 0;
  const char *s = p->printed;
  for (const char *line = s; *line;) {
    if (line[0] == ' ' && line[1] == ' ' && line[2] && line[2] != ' ' && line[2] != ']')
      weir_llvm_vec_push(&p->line_start, (uint32_t)(line - s));
    const char *end = strchr(line, '\n');
    if (!end) break;
    line = end + 1;
  }
  uint32_t count = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) ++count;
  if (p->line_start.failed || p->line_start.n != count) {
    LLVMDisposeMessage(p->printed);
    p->printed = NULL;
    return 0;
  }
  return 1;
}

/* The instruction trimmed to one line without its metadata, at most
 * WEIR_LLVM_TEXT_MAX bytes. */
static char *trimmed(const char *s, int *failed) {
  while (*s == ' ') ++s;
  size_t length = strcspn(s, "\n");
  /* Search the line only: `s` may be in the middle of a whole function. */
  for (size_t k = 0; k + 6 <= length; ++k)
    if (s[k] == ',' && memcmp(s + k, ", !dbg", 6) == 0) {
      length = k;
      break;
    }
  int cut = length > WEIR_LLVM_TEXT_MAX;
  char *copy = weir_llvm_strndup(s, cut ? WEIR_LLVM_TEXT_MAX : length, failed);
  if (copy && cut) memcpy(copy + WEIR_LLVM_TEXT_MAX - 3, "...", 3);
  return copy;
}

static char *instruction_text(weir_llvm_ctx *ctx, LLVMValueRef inst, uint32_t index) {
  positions *p = positions_of(ctx);
  LLVMValueRef f = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
  if (p && index > 0 && print_function(p, f) && index <= p->line_start.n)
    return trimmed(p->printed + p->line_start.v[index - 1], &ctx->out->failed);
  /* Only when the function print could not be matched: one print per call. */
  char *printed = LLVMPrintValueToString(inst);
  char *copy = trimmed(printed ? printed : "", &ctx->out->failed);
  LLVMDisposeMessage(printed);
  return copy;
}

/* The index from note_node's count when the node was noted, else from the
 * value numbering (instructions are numbered consecutively per function). */
static uint32_t instruction_index(weir_llvm_ctx *ctx, LLVMValueRef inst) {
  uint32_t vid = weir_llvm_vid(ctx, inst);
  if (vid == WEIR_LLVM_NONE) return 0;
  const positions *p = ctx->out->positions;
  uint32_t node = ctx->node_of ? ctx->node_of[vid] : WEIR_LLVM_NONE;
  if (p && node < p->node_count && p->nodes[node].instruction) return p->nodes[node].instruction;
  LLVMValueRef f = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
  uint32_t first = weir_llvm_vid(ctx, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f)));
  return first == WEIR_LLVM_NONE || vid < first ? 0 : vid - first + 1;
}

/* ---- locations of checks and sources --------------------------------------- */

uint32_t weir_llvm_add_loc(weir_llvm_ctx *ctx, LLVMValueRef inst) {
  weir_llvm_problem *out = ctx->out;
  if (!grow((void **)&out->locs, &out->loc_cap, out->loc_count, sizeof *out->locs)) {
    out->failed = 1;
    return 0;
  }
  weir_llvm_loc *loc = &out->locs[out->loc_count];
  memset(loc, 0, sizeof *loc);
  LLVMValueRef f = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
  size_t name_length = 0;
  const char *name = LLVMGetValueName2(f, &name_length);
  loc->function = weir_llvm_strndup(name, name_length, &out->failed);
  positions *p = positions_of(ctx);
  LLVMValueRef at = located(inst);
  uint32_t file = p ? intern_file(ctx, p, debug_file(at)) : 0;
  const char *path = file ? p->files[file - 1] : out->name;
  loc->file = weir_llvm_strndup(path, strlen(path), &out->failed);
  if (file) {
    loc->line = debug_line(at);
    loc->column = debug_column(at);
  }
  loc->instruction = instruction_index(ctx, inst);
  /* The printed instruction only stands in for a missing line number. */
  if (loc->line == 0) loc->text = instruction_text(ctx, inst, loc->instruction);
  return (uint32_t)out->loc_count++;
}

/* The variable's name (weir_llvm_alloca_variable: operand 1 of its
 * DILocalVariable), else the IR name, else "%vid". */
void weir_llvm_slot_name(const weir_llvm_ctx *ctx, LLVMValueRef alloca, weir_llvm_text *out) {
  LLVMValueRef var = weir_llvm_alloca_variable(alloca);
  if (var && LLVMGetMDNodeNumOperands(var) >= 2 && LLVMGetMDNodeNumOperands(var) <= 8) {
    LLVMValueRef ops[8] = {0};
    LLVMGetMDNodeOperands(var, ops);
    unsigned name_length = 0;
    const char *name = ops[1] ? LLVMGetMDString(ops[1], &name_length) : NULL;
    if (name && name_length) {
      weir_llvm_text_put(out, name, name_length);
      return;
    }
  }
  size_t length = 0;
  const char *name = LLVMGetValueName2(alloca, &length);
  if (length) weir_llvm_text_put(out, name, length);
  else if (weir_llvm_dynamic_alloca(alloca)) weir_llvm_text_put(out, "alloca", 6); /* alloca(n), a VLA */
  else weir_llvm_text_printf(out, "%%slot%u", weir_llvm_vid(ctx, alloca));
}

/* The rule of a check added without one: the analysis' generic rule. */
static weir_llvm_finding_rule default_rule(weir_llvm_analysis analysis) {
  if (analysis == WEIR_LLVM_UNINIT) return WEIR_LLVM_RULE_UNINIT;
  if (analysis == WEIR_LLVM_UAF) return WEIR_LLVM_RULE_USE_AFTER_FREE;
  return WEIR_LLVM_RULE_TAINT;
}

/* The distinct objects `pointer` may point to; *weak when any of them is a
 * summary (array, heap block, collapsed) that a store cannot overwrite. */
static uint32_t pointer_targets(const weir_llvm_ctx *ctx, LLVMValueRef pointer, uint8_t *weak) {
  if (!ctx->memory || !pointer || !weir_llvm_is_pointer(pointer)) return 0;
  const uint32_t *locs = NULL;
  size_t n = weir_llvm_memory_points_to(ctx->memory, pointer, &locs);
  uint32_t objects = 0, last = UINT32_MAX;
  for (size_t k = 0; k < n; ++k) { /* sorted: the locations of one object are contiguous */
    uint32_t object = weir_llvm_memory_location(ctx->memory, locs[k]).object;
    if (object != last) ++objects;
    last = object;
    if (!weir_llvm_strong_target(ctx, locs[k])) *weak = 1;
  }
  return objects;
}

/* What the confidence rank needs of a check (weir_llvm_check.targets):
 * the pointer a load or store goes through, or the pointer arguments of a
 * call (the most targets of any). Branches and switches use values. */
static void note_targets(const weir_llvm_ctx *ctx, LLVMValueRef inst, weir_llvm_check *check) {
  check->targets = 0;
  check->weak = 0;
  if (LLVMIsALoadInst(inst)) {
    check->targets = pointer_targets(ctx, LLVMGetOperand(inst, 0), &check->weak);
  } else if (LLVMIsAStoreInst(inst)) {
    check->targets = pointer_targets(ctx, LLVMGetOperand(inst, 1), &check->weak);
  } else if (LLVMIsACallInst(inst)) {
    for (unsigned k = 0; k < LLVMGetNumArgOperands(inst); ++k) {
      uint32_t t = pointer_targets(ctx, LLVMGetOperand(inst, k), &check->weak);
      if (t > check->targets) check->targets = t;
    }
  }
}

void weir_llvm_add_check(weir_llvm_ctx *ctx, uint32_t node, const uint32_t *facts, size_t count,
                         LLVMValueRef inst, const char *message) {
  weir_llvm_problem *out = ctx->out;
  if (count == 0) return;
  if (ctx->demand) { /* module/emit.c's first pass wants the facts only */
    for (size_t k = 0; k < count; ++k) weir_llvm_vec_push(ctx->demand, facts[k]);
    return;
  }
  if (!grow((void **)&out->checks, &out->check_cap, out->check_count, sizeof *out->checks)) {
    out->failed = 1;
    return;
  }
  weir_llvm_check *check = &out->checks[out->check_count];
  check->rule = default_rule(ctx->analysis);
  check->states = 0;
  check->per_source = 0;
  check->what = 0;
  check->const_use = 0; /* analyses/const sets these after the call */
  check->bits = 0;
  check->user = NULL;
  check->operand = 0;
  check->node = node;
  check->fact_first = (uint32_t)out->check_facts.n;
  check->fact_count = (uint32_t)count;
  for (size_t k = 0; k < count; ++k) weir_llvm_vec_push(&out->check_facts, facts[k]);
  check->loc = weir_llvm_add_loc(ctx, inst);
  check->message = weir_llvm_strndup(message, strlen(message), &out->failed);
  note_targets(ctx, inst, check);
  out->check_count++;
}

void weir_llvm_add_source(weir_llvm_ctx *ctx, uint32_t node, LLVMValueRef inst, const char *name,
                          size_t name_length) {
  weir_llvm_problem *out = ctx->out;
  if (ctx->demand) return;
  if (!grow((void **)&out->sources, &out->source_cap, out->source_count, sizeof *out->sources)) {
    out->failed = 1;
    return;
  }
  weir_llvm_source *source = &out->sources[out->source_count];
  source->node = node;
  source->loc = weir_llvm_add_loc(ctx, inst);
  source->name = weir_llvm_strndup(name, name_length, &out->failed);
  source->per_source = 0;
  out->source_count++;
}
