/* Names in C words, from debug info, for the messages of findings:
 *
 * - a location (weir_llvm_memory_describe): the object's variable and the
 *   member path at the location's offset ("ar.nparams", "s.in.r[]"); a heap
 *   block by its allocator, the function that calls it and the place
 *   ("len of the block from malloc in make_frame at l2cap.c:2696"), its
 *   fields from the struct type the block is used as;
 * - the memory an access reads or writes (weir_llvm_memory_access_name):
 *   the pointer expression as the source wrote it ("p->next->len", "*p",
 *   "buf[]", "v.b"), rebuilt from the GEPs, loads and casts that compute the
 *   pointer and the variables (llvm.dbg.declare / llvm.dbg.value) they start
 *   from.
 *
 * Debug info is read through the LLVM-C metadata API: operand 3 of a
 * variable is its type; operand 3 of a derived type its base, operand 4 of a
 * composite type its elements (DIDerivedType, DICompositeType layouts of
 * LLVM 14). LLVM-C 14 has no tag query, so a derived type of size 0 is taken
 * for a typedef or qualifier (followed), one with a size for a pointer.
 * Where the debug info says nothing the memory model's offsets are printed
 * ("+52"): without -g every name is of that kind. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "frontends/llvm/memory/pta.h"
#include "frontends/llvm/util.h"

#define OPS_MAX 32
#define DEPTH_MAX 12

/* ---- debug-info nodes -------------------------------------------------------- */

static LLVMValueRef md_op(LLVMValueRef node, unsigned k) {
  if (!node || !LLVMIsAMDNode(node)) return NULL;
  unsigned n = LLVMGetMDNodeNumOperands(node);
  if (k >= n || n > OPS_MAX) return NULL;
  LLVMValueRef ops[OPS_MAX];
  LLVMGetMDNodeOperands(node, ops);
  return ops[k];
}

static LLVMMetadataKind md_kind(LLVMValueRef node) {
  return node && LLVMIsAMDNode(node) ? LLVMGetMetadataKind(LLVMValueAsMetadata(node)) : LLVMMDStringMetadataKind;
}

static int is_type(LLVMValueRef node) {
  LLVMMetadataKind k = md_kind(node);
  return k == LLVMDIBasicTypeMetadataKind || k == LLVMDIDerivedTypeMetadataKind ||
         k == LLVMDICompositeTypeMetadataKind || k == LLVMDISubroutineTypeMetadataKind;
}

static uint64_t type_bits(LLVMValueRef type) { return LLVMDITypeGetSizeInBits(LLVMValueAsMetadata(type)); }

static const char *type_name(LLVMValueRef type, size_t *length) {
  return LLVMDITypeGetName(LLVMValueAsMetadata(type), length);
}

/* Typedefs and qualifiers followed to the type they stand for. */
static LLVMValueRef strip(LLVMValueRef type) {
  for (int k = 0; k < DEPTH_MAX && md_kind(type) == LLVMDIDerivedTypeMetadataKind && type_bits(type) == 0; ++k) {
    LLVMValueRef base = md_op(type, 3);
    if (!is_type(base)) break;
    type = base;
  }
  return type;
}

/* The type a pointer type points to, or NULL. */
static LLVMValueRef pointee(LLVMValueRef type) {
  type = strip(type);
  if (md_kind(type) != LLVMDIDerivedTypeMetadataKind) return NULL;
  LLVMValueRef base = md_op(type, 3);
  return is_type(base) ? strip(base) : NULL;
}

/* A composite type's elements node, and whether it is an array (its
 * elements are subranges) rather than a struct or union. */
static LLVMValueRef elements(LLVMValueRef type, int *array) {
  *array = 0;
  if (md_kind(type) != LLVMDICompositeTypeMetadataKind) return NULL;
  LLVMValueRef list = md_op(type, 4);
  if (!list || !LLVMIsAMDNode(list) || LLVMGetMDNodeNumOperands(list) == 0) return NULL;
  LLVMValueRef first = md_op(list, 0);
  *array = md_kind(first) == LLVMDISubrangeMetadataKind;
  return list;
}

static int is_record(LLVMValueRef type) {
  int array;
  return elements(strip(type), &array) && !array;
}

/* Appends the member path of `type` at byte `offset` (".a.b", "[]" for an
 * array element) and returns the type reached: the innermost one, or the
 * first of `stop` bytes (the size of what a GEP or an access addresses;
 * 0: no limit). */
static LLVMValueRef member_path(LLVMValueRef type, uint64_t offset, uint64_t stop, weir_llvm_text *out) {
  for (int depth = 0; depth < DEPTH_MAX && type; ++depth) {
    type = strip(type);
    if (stop && offset == 0 && type_bits(type) == stop * 8) return type; /* as far as the access goes */
    int array;
    LLVMValueRef list = elements(type, &array);
    if (!list) return type;
    LLVMValueRef base = md_op(type, 3);
    if (array) {
      uint64_t bytes = is_type(base) ? type_bits(strip(base)) / 8 : 0;
      if (!bytes) return type;
      weir_llvm_text_put(out, "[]", 2); /* one cell per array in the memory model: no index */
      offset %= bytes;
      type = base;
      continue;
    }
    unsigned n = LLVMGetMDNodeNumOperands(list);
    if (n > 4096) return type;
    LLVMValueRef found = NULL;
    for (unsigned k = 0; k < n && !found; ++k) {
      LLVMValueRef member = md_op(list, k);
      if (md_kind(member) != LLVMDIDerivedTypeMetadataKind) continue;
      uint64_t at = LLVMDITypeGetOffsetInBits(LLVMValueAsMetadata(member)), bits = type_bits(member);
      /* a flexible array member (the last, of no size) holds every byte past its start */
      int flexible = bits == 0 && k + 1 == n;
      if (offset * 8 >= at && (flexible || offset * 8 < at + (bits ? bits : 1))) found = member;
    }
    if (!found) return type;
    size_t length = 0;
    const char *name = type_name(found, &length);
    if (length) weir_llvm_text_printf(out, ".%.*s", (int)length, name); /* anonymous members add nothing */
    offset -= LLVMDITypeGetOffsetInBits(LLVMValueAsMetadata(found)) / 8;
    type = md_op(found, 3);
    if (!is_type(type)) return NULL;
  }
  return type;
}

/* ---- variables ------------------------------------------------------------------ */

/* The DILocalVariable that llvm.dbg.declare (`storage`: the variable lives
 * in this alloca) or llvm.dbg.value (the variable holds this value) ties to
 * `value`. An alloca can be both: after mem2reg `p = &s` is a dbg.value of
 * p on s's alloca. */
static LLVMValueRef local_variable_reaching(LLVMValueRef value, int storage, uint64_t reach);

static LLVMValueRef local_variable(LLVMValueRef value, int storage) {
  return local_variable_reaching(value, storage, 0);
}

/* Whether pointer variable `var` points to more than `reach` bytes (any
 * variable when reach is 0). */
static int reaches(LLVMValueRef var, uint64_t reach) {
  LLVMValueRef target = reach ? pointee(md_op(var, 3)) : NULL;
  return !reach || (target && type_bits(target) / 8 > reach);
}

/* The same, preferring among several variables that hold one value (-O2:
 * `this` and `this_ = (struct syslog_direct *)this`) the first whose
 * pointee is larger than `reach` bytes (the offset an access goes to);
 * 0: the first. */
static LLVMValueRef local_variable_reaching(LLVMValueRef value, int storage, uint64_t reach) {
  LLVMValueRef wrapped = LLVMMetadataAsValue(LLVMGetTypeContext(LLVMTypeOf(value)), LLVMValueAsMetadata(value));
  LLVMValueRef first = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(wrapped); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsACallInst(user)) continue;
    LLVMValueRef callee = LLVMGetCalledValue(user);
    size_t length = 0;
    const char *name = callee ? LLVMGetValueName2(callee, &length) : "";
    if (storage ? (length == 16 && strncmp(name, "llvm.dbg.declare", 16) == 0)
                : (length == 14 && strncmp(name, "llvm.dbg.value", 14) == 0)) {
      LLVMValueRef var = LLVMGetOperand(user, 1);
      if (md_kind(var) != LLVMDILocalVariableMetadataKind) continue;
      if (reaches(var, reach)) return var;
      if (!first) first = var;
    }
  }
  return first;
}

/* The LLVM struct type clang made for a C record type of debug info:
 * `struct.NAME` (or `union.NAME`) with the same size; a typedef of an
 * anonymous record names it through the typedef. */
static LLVMTypeRef llvm_record(const weir_llvm_memory *m, LLVMContextRef context, LLVMValueRef type) {
  const char *names[DEPTH_MAX];
  size_t lengths[DEPTH_MAX];
  int count = 0;
  for (int k = 0; k < DEPTH_MAX && type; ++k) { /* the typedef chain, then the record */
    size_t length = 0;
    const char *name = type_name(type, &length);
    if (length && length < 200 && count < DEPTH_MAX) {
      names[count] = name;
      lengths[count++] = length;
    }
    if (md_kind(type) != LLVMDIDerivedTypeMetadataKind || type_bits(type) != 0) break;
    type = md_op(type, 3);
  }
  if (!is_record(type) || type_bits(type) == 0) return NULL;
  for (int k = count - 1; k >= 0; --k) {
    static const char *const prefixes[] = {"struct.", "union."};
    for (int p = 0; p < 2; ++p) {
      char full[216];
      snprintf(full, sizeof full, "%s%.*s", prefixes[p], (int)lengths[k], names[k]);
      LLVMTypeRef found = LLVMGetTypeByName2(context, full);
      if (found && LLVMTypeIsSized(found) && pta_type_size(m, found) * 8 == type_bits(type)) return found;
    }
  }
  return NULL;
}

/* The largest record type that a `T *` variable holding `value` (or a cast
 * of it) points to, by llvm.dbg.value: at -O2 a block is often first cast
 * to the type of its first member (`(struct ovs_list **)conn`), and only
 * the debug info still says it is a `struct unixctl_conn`. */
LLVMTypeRef pta_debug_layout(const weir_llvm_memory *m, LLVMValueRef value) {
  LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(value));
  LLVMTypeRef best = NULL;
  uint64_t best_size = 0;
  LLVMValueRef holders[8];
  unsigned n = 0;
  holders[n++] = value;
  for (LLVMUseRef u = LLVMGetFirstUse(value); u && n < 8; u = LLVMGetNextUse(u))
    if (LLVMIsABitCastInst(LLVMGetUser(u))) holders[n++] = LLVMGetUser(u);
  for (unsigned h = 0; h < n; ++h) {
    LLVMValueRef wrapped = LLVMMetadataAsValue(context, LLVMValueAsMetadata(holders[h]));
    for (LLVMUseRef u = LLVMGetFirstUse(wrapped); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      LLVMValueRef callee = LLVMIsACallInst(user) ? LLVMGetCalledValue(user) : NULL;
      size_t length = 0;
      const char *name = callee ? LLVMGetValueName2(callee, &length) : "";
      if (length != 14 || strncmp(name, "llvm.dbg.value", 14) != 0) continue;
      LLVMValueRef var = LLVMGetOperand(user, 1);
      if (md_kind(var) != LLVMDILocalVariableMetadataKind) continue;
      LLVMValueRef type = strip(md_op(var, 3));
      if (md_kind(type) != LLVMDIDerivedTypeMetadataKind || type_bits(type) == 0) continue; /* not a pointer */
      LLVMTypeRef record = llvm_record(m, context, md_op(type, 3));
      uint64_t size = record ? pta_type_size(m, record) : 0;
      if (size > best_size) {
        best = record;
        best_size = size;
      }
    }
  }
  return best;
}

/* The line of the llvm.lifetime.start of an alloca (directly or through
 * one cast): clang puts it on the declaration. 0 when there is none. */
static unsigned lifetime_line(LLVMValueRef alloca) {
  for (LLVMUseRef u = LLVMGetFirstUse(alloca); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsABitCastInst(user)) {
      unsigned line = lifetime_line(user);
      if (line) return line;
    }
    size_t length = 0;
    const char *name = LLVMIsACallInst(user) ? weir_llvm_callee_name(user, &length) : "";
    if (length > 19 && strncmp(name, "llvm.lifetime.start", 19) == 0) return LLVMGetDebugLocLine(user);
  }
  return 0;
}

/* -O2, a slot neither declared nor loaded whole (only its address is
 * used): the one local variable of the function's subprogram declared on
 * the line of the slot's lifetime start, with the slot's size. */
static LLVMValueRef variable_at_lifetime_start(LLVMValueRef alloca) {
  unsigned line = lifetime_line(alloca);
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(alloca));
  LLVMMetadataRef sp = fn ? LLVMGetSubprogram(fn) : NULL;
  if (!line || !sp) return NULL;
  LLVMValueRef retained = md_op(LLVMMetadataAsValue(LLVMGetTypeContext(LLVMTypeOf(alloca)), sp), 7);
  unsigned n = retained && LLVMIsAMDNode(retained) ? LLVMGetMDNodeNumOperands(retained) : 0;
  LLVMValueRef found = NULL;
  LLVMTypeRef slot = LLVMGetAllocatedType(alloca);
  LLVMTargetDataRef layout = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
  uint64_t bits = LLVMTypeIsSized(slot) ? 8 * LLVMABISizeOfType(layout, slot) : 0;
  for (unsigned k = 0; k < n; ++k) {
    LLVMValueRef var = md_op(retained, k);
    if (md_kind(var) != LLVMDILocalVariableMetadataKind || LLVMDIVariableGetLine(LLVMValueAsMetadata(var)) != line)
      continue;
    LLVMValueRef type = md_op(var, 3);
    if (!is_type(type) || type_bits(strip(type)) != bits) continue;
    if (found) return NULL; /* two on that line: say nothing rather than guess */
    found = var;
  }
  return found;
}

/* The variable an alloca holds: its llvm.dbg.declare, else (-O2, where
 * instcombine lowered the declare to dbg.values) the variable a load of the
 * whole slot is tied to (`%3 = load i32, i32* %1` then dbg.value(%3, "w")). */
LLVMValueRef weir_llvm_alloca_variable(LLVMValueRef alloca) {
  LLVMValueRef var = local_variable(alloca, 1);
  if (var || !LLVMIsAAllocaInst(alloca)) return var;
  LLVMTypeRef slot = LLVMGetAllocatedType(alloca);
  for (LLVMUseRef u = LLVMGetFirstUse(alloca); u && !var; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) && LLVMTypeOf(user) == slot) var = local_variable(user, 0);
  }
  return var ? var : variable_at_lifetime_start(alloca);
}

static LLVMValueRef global_variable(LLVMValueRef global) {
  size_t count = 0;
  LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(global, &count);
  LLVMValueRef var = NULL;
  unsigned dbg = LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(global)), "dbg", 3);
  for (size_t k = 0; k < count && !var; ++k) {
    if (LLVMValueMetadataEntriesGetKind(entries, (unsigned)k) != dbg) continue;
    LLVMValueRef expression = LLVMMetadataAsValue(LLVMGetTypeContext(LLVMTypeOf(global)),
                                                  LLVMValueMetadataEntriesGetMetadata(entries, (unsigned)k));
    LLVMValueRef candidate = md_op(expression, 0);
    if (md_kind(candidate) == LLVMDIGlobalVariableMetadataKind) var = candidate;
  }
  if (entries) LLVMDisposeValueMetadataEntries(entries);
  return var;
}

const char *pta_global_record_name(LLVMValueRef global, size_t *length) {
  *length = 0;
  LLVMValueRef var = global_variable(global);
  LLVMValueRef type = var ? strip(md_op(var, 3)) : NULL;
  if (!type || md_kind(type) != LLVMDICompositeTypeMetadataKind) return NULL;
  return type_name(type, length);
}

/* The source name and type of a variable node (operands 1 and 3). */
static int variable_name(LLVMValueRef var, weir_llvm_text *out, LLVMValueRef *type) {
  unsigned length = 0;
  LLVMValueRef name = md_op(var, 1);
  const char *s = name ? LLVMGetMDString(name, &length) : NULL;
  if (!s || !length) return 0;
  weir_llvm_text_put(out, s, length);
  *type = md_op(var, 3);
  if (!is_type(*type)) *type = NULL;
  return 1;
}

/* ---- heap blocks --------------------------------------------------------------- */

/* The struct a heap block is used as: the type of a variable that holds
 * the allocation's result (directly or through one cast). */
static LLVMValueRef block_type(LLVMValueRef site) {
  LLVMValueRef candidates[9] = {site};
  size_t n = 1;
  for (LLVMUseRef u = LLVMGetFirstUse(site); u && n < 9; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsABitCastInst(user)) candidates[n++] = user;
    else if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == site && LLVMIsAAllocaInst(LLVMGetOperand(user, 1)))
      candidates[n++] = LLVMGetOperand(user, 1); /* -O0: p = malloc(...) into the variable's slot */
  }
  for (size_t k = 0; k < n; ++k) {
    LLVMValueRef var = local_variable(candidates[k], LLVMIsAAllocaInst(candidates[k]) != NULL);
    LLVMValueRef target = var ? pointee(md_op(var, 3)) : NULL;
    if (target && is_record(target)) return target;
  }
  return NULL;
}

/* The function whose source holds a debug location: the subprogram of its
 * scope chain (for code inlined at -O2: the inlined function). */
static int scope_function(LLVMContextRef context, LLVMMetadataRef scope, weir_llvm_text *out) {
  LLVMValueRef node = scope ? LLVMMetadataAsValue(context, scope) : NULL;
  for (int k = 0; k < DEPTH_MAX && node; ++k) {
    LLVMMetadataKind kind = md_kind(node);
    if (kind == LLVMDISubprogramMetadataKind) {
      unsigned length = 0;
      LLVMValueRef name = md_op(node, 2);
      const char *s = name ? LLVMGetMDString(name, &length) : NULL;
      if (!s || !length) return 0;
      weir_llvm_text_put(out, s, length);
      return 1;
    }
    if (kind != LLVMDILexicalBlockMetadataKind && kind != LLVMDILexicalBlockFileMetadataKind) return 0;
    node = md_op(node, 1);
  }
  return 0;
}

static LLVMMetadataRef di_location(LLVMValueRef inst) {
  LLVMMetadataRef loc = inst && LLVMIsAInstruction(inst) ? LLVMInstructionGetDebugLoc(inst) : NULL;
  return loc && LLVMGetMetadataKind(loc) == LLVMDILocationMetadataKind ? loc : NULL;
}

/* A location with a line, inlined at `at` (NULL: the function's own), or
 * at any place when `any`. */
static LLVMMetadataRef line_in(LLVMValueRef inst, LLVMMetadataRef at, int any) {
  LLVMMetadataRef loc = di_location(inst);
  return loc && LLVMDILocationGetLine(loc) && (any || LLVMDILocationGetInlinedAt(loc) == at) ? loc : NULL;
}

/* The site's debug location; when it has none or line 0 (-O2 merges calls
 * and hoists them out of their lines), the nearest one in its block with a
 * line (before it, else after it), preferring the site's own inlined
 * instance (a neighbour inlined from a helper would name the helper's
 * file); else what it has. */
static LLVMMetadataRef site_location(LLVMValueRef site) {
  LLVMMetadataRef loc = di_location(site);
  if ((loc && LLVMDILocationGetLine(loc)) || !site || !LLVMIsAInstruction(site)) return loc;
  LLVMMetadataRef at = loc ? LLVMDILocationGetInlinedAt(loc) : NULL;
  for (int any = 0; any < 2; ++any) {
    for (LLVMValueRef i = LLVMGetPreviousInstruction(site); i; i = LLVMGetPreviousInstruction(i))
      if (line_in(i, at, any)) return line_in(i, at, any);
    for (LLVMValueRef i = LLVMGetNextInstruction(site); i; i = LLVMGetNextInstruction(i))
      if (line_in(i, at, any)) return line_in(i, at, any);
  }
  return loc;
}

/* " in FN at FILE:LINE" for an instruction, from its debug location (the
 * nearest one with a line: site_location), else " in FN" with the function
 * that holds it; never "FILE:0". */
static void place(LLVMValueRef site, LLVMValueRef function, weir_llvm_text *out) {
  LLVMMetadataRef loc = site_location(site);
  LLVMMetadataRef scope = loc ? LLVMDILocationGetScope(loc) : NULL;
  weir_llvm_text fn = {0};
  size_t length = 0;
  const char *name = function ? LLVMGetValueName2(function, &length) : "";
  if (!scope_function(LLVMGetTypeContext(LLVMTypeOf(site)), scope, &fn) && length) weir_llvm_text_put(&fn, name, length);
  if (fn.n) weir_llvm_text_printf(out, " in %s", fn.p);
  weir_llvm_text_free(&fn);
  if (!loc) return;
  unsigned line = LLVMDILocationGetLine(loc), file_length = 0;
  LLVMMetadataRef file = scope ? LLVMDIScopeGetFile(scope) : NULL;
  const char *file_name = file ? LLVMDIFileGetFilename(file, &file_length) : NULL;
  if (!line) return;
  if (file_name && file_length) {
    unsigned start = file_length;
    while (start > 0 && file_name[start - 1] != '/') --start; /* the file's base name */
    weir_llvm_text_printf(out, " at %.*s:%u", (int)(file_length - start), file_name + start, line);
  } else {
    weir_llvm_text_printf(out, " at line %u", line);
  }
}

static void heap_name(const weir_llvm_object *o, weir_llvm_text *out) {
  size_t length = 0;
  LLVMValueRef callee = LLVMIsACallInst(o->site) ? LLVMGetCalledValue(o->site) : NULL;
  const char *allocator = callee ? LLVMGetValueName2(callee, &length) : "";
  weir_llvm_text_put(out, "the block from ", 15);
  if (length) weir_llvm_text_put(out, allocator, length);
  else weir_llvm_text_put(out, "an indirect call", 16);
  place(o->site, o->function, out);
}

/* ---- locations ---------------------------------------------------------------- */

static LLVMValueRef object_type(const weir_llvm_object *o) {
  LLVMValueRef var = NULL;
  if (o->kind == WEIR_LLVM_OBJECT_STACK && o->site) var = weir_llvm_alloca_variable(o->site);
  else if (o->kind == WEIR_LLVM_OBJECT_GLOBAL && o->site) var = global_variable(o->site);
  if (var) return md_op(var, 3);
  if (o->kind == WEIR_LLVM_OBJECT_HEAP && o->site) return block_type(o->site);
  return NULL;
}

static void describe(const weir_llvm_memory *m, uint32_t location, int with_path, weir_llvm_text *out);

void weir_llvm_memory_describe(const weir_llvm_memory *m, uint32_t location, weir_llvm_text *out) {
  describe(m, location, 1, out);
}

void weir_llvm_memory_describe_object(const weir_llvm_memory *m, uint32_t location, weir_llvm_text *out) {
  describe(m, location, 0, out);
}

static void describe(const weir_llvm_memory *m, uint32_t location, int with_path, weir_llvm_text *out) {
  if (location >= m->loc_count) {
    weir_llvm_text_printf(out, "location %u (unknown)", location);
    return;
  }
  const weir_llvm_object *o = &m->objects[m->loc_object[location]].pub;
  uint64_t offset = with_path ? (uint64_t)m->loc_offset[location] : 0;
  LLVMValueRef type = o->collapsed ? NULL : object_type(o);
  weir_llvm_text path = {0};
  if (type && with_path) member_path(type, offset, 0, &path);
  if (path.n == 2 && path.p[0] == '[') path.n = 0; /* the array variable itself: "buf" */
  if (!path.n && offset) weir_llvm_text_printf(&path, ".+%llu", (unsigned long long)offset);
  int heap = (o->kind == WEIR_LLVM_OBJECT_HEAP || o->kind == WEIR_LLVM_OBJECT_EXTERNAL) && o->site &&
             LLVMIsAInstruction(o->site);
  if (heap && o->kind == WEIR_LLVM_OBJECT_HEAP) {
    if (path.n) weir_llvm_text_printf(out, "%s of ", path.p + (path.p[0] == '.'));
    heap_name(o, out);
  } else {
    weir_llvm_text_put(out, o->name, strlen(o->name));
    if (path.n) weir_llvm_text_put(out, path.p, path.n);
    if (heap) place(o->site, o->function, out);
  }
  if (path.failed) out->failed = 1;
  weir_llvm_text_free(&path);
}

/* ---- access expressions ---------------------------------------------------------- */

typedef struct expr {
  weir_llvm_text text;
  LLVMValueRef type; /* debug type of what the text names (NULL: unknown) */
} expr;

static int value_expr(const weir_llvm_memory *m, LLVMValueRef v, uint64_t reach, expr *e, int depth);

static LLVMValueRef strip_casts(LLVMValueRef v) {
  for (int k = 0; k < DEPTH_MAX && v; ++k) {
    if (LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v)) v = LLVMGetOperand(v, 0);
    else if (LLVMIsAConstantExpr(v) && (LLVMGetConstOpcode(v) == LLVMBitCast)) v = LLVMGetOperand(v, 0);
    else break;
  }
  return v;
}

/* Bytes of what a pointer addresses (its element type), 0 when unknown. */
static uint64_t addressed_bytes(const weir_llvm_memory *m, LLVMValueRef pointer) {
  LLVMTypeRef type = LLVMTypeOf(pointer);
  if (LLVMGetTypeKind(type) != LLVMPointerTypeKind) return 0;
  LLVMTypeRef element = LLVMGetElementType(type);
  return element && LLVMTypeIsSized(element) ? LLVMABISizeOfType(m->layout, element) : 0;
}

/* Whether a variable holds `v` or one of the casts between it and `base`:
 * `c = CONTAINER_OF(n, struct conn, node)` is pointer arithmetic that the
 * variable c names, not memory inside what n points to. */
static int held_by_variable(LLVMValueRef v, LLVMValueRef base) {
  for (int k = 0; k < DEPTH_MAX && v; ++k) {
    if (local_variable(v, 0)) return 1;
    if (v == base) return 0;
    v = LLVMGetOperand(v, 0);
  }
  return 0;
}

/* The memory `pointer` points to, as an lvalue: "v", "v.a", "p->a", "*p", "p[]". */
static int lvalue_expr(const weir_llvm_memory *m, LLVMValueRef pointer, expr *e, int depth) {
  if (depth > DEPTH_MAX) return 0;
  LLVMValueRef p = strip_casts(pointer);
  uint64_t stop = addressed_bytes(m, pointer);
  if (LLVMIsAAllocaInst(p) || LLVMIsAGlobalVariable(p)) {
    LLVMValueRef var = LLVMIsAAllocaInst(p) ? weir_llvm_alloca_variable(p) : global_variable(p);
    return var && variable_name(var, &e->text, &e->type);
  }
  int64_t offset = 0, delta = 0;
  LLVMValueRef base = p, base_value = p; /* base_value keeps its casts: a variable may hold the cast */
  if (LLVMIsAGetElementPtrInst(p)) {
    pta_gep_offsets(m, p, &offset, &delta);
    base_value = LLVMGetOperand(p, 0);
    base = strip_casts(base_value);
    if (offset < 0) return 0;
    LLVMValueRef first = LLVMGetOperand(p, 1);
    int moves = !(LLVMIsAConstantInt(first) && LLVMConstIntGetSExtValue(first) == 0);
    /* Into a variable, or further into memory a GEP already named
     * (p->in.r[i] is three GEPs at -O0). */
    if (LLVMIsAAllocaInst(base) || LLVMIsAGlobalVariable(base) ||
        (LLVMIsAGetElementPtrInst(base) && !held_by_variable(base_value, base))) {
      if (!lvalue_expr(m, base, e, depth + 1)) return 0;
      if (moves) weir_llvm_text_put(&e->text, "[]", 2);
      if (e->type) e->type = member_path(e->type, (uint64_t)offset, stop, &e->text);
      else if (offset) return 0;
      return !e->text.failed;
    }
  }
  /* Through a pointer value: p->a.b, *p, p[] (a first index that is not 0).
   * A constant step that stays inside what the variable points to is a
   * field: -O2 writes `this_->fd` as `(struct syslogger *)this_ + 1` and
   * `(char *)this_ + 16`. */
  expr value = {0};
  uint64_t reach = (uint64_t)offset + (delta > 0 ? (uint64_t)delta : 0);
  int ok = value_expr(m, base_value, reach, &value, depth + 1);
  LLVMValueRef target = ok && value.type ? pointee(value.type) : NULL;
  LLVMValueRef first = p != base ? LLVMGetOperand(p, 1) : NULL;
  int indexed = first && !(LLVMIsAConstantInt(first) && LLVMConstIntGetSExtValue(first) == 0);
  if (indexed && delta > 0 && target && is_record(target) && type_bits(target) / 8 > reach) {
    offset = (int64_t)reach;
    indexed = 0;
  }
  weir_llvm_text path = {0};
  if (ok && target) e->type = member_path(target, (uint64_t)offset, stop, &path);
  else if (ok && offset) ok = 0; /* an offset into memory of unknown type: the location's name says more */
  if (ok && indexed) weir_llvm_text_printf(&e->text, "%s[]%s", value.text.p, path.n ? path.p : "");
  else if (ok && path.n && path.p[0] == '.') weir_llvm_text_printf(&e->text, "%s->%s", value.text.p, path.p + 1);
  else if (ok && path.n) weir_llvm_text_printf(&e->text, "(*%s)%s", value.text.p, path.p);
  else if (ok) weir_llvm_text_printf(&e->text, "*%s", value.text.p);
  weir_llvm_text_free(&path);
  weir_llvm_text_free(&value.text);
  return ok && !e->text.failed;
}

/* A pointer value: a variable (llvm.dbg.value: parameters and promoted
 * locals), or what a load from a named lvalue gives. */
static int value_expr(const weir_llvm_memory *m, LLVMValueRef v, uint64_t reach, expr *e, int depth) {
  for (int k = 0; k < DEPTH_MAX && v; ++k) { /* the variable may hold the cast or what was cast */
    LLVMValueRef var = local_variable_reaching(v, 0, reach);
    /* -O2: the variable holds a cast of it (`this_ = (struct syslog_direct *)this`) */
    for (LLVMUseRef u = var && reaches(var, reach) ? NULL : LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef cast = LLVMIsABitCastInst(LLVMGetUser(u)) ? local_variable_reaching(LLVMGetUser(u), 0, reach) : NULL;
      if (cast && (!var || reaches(cast, reach))) var = cast;
      if (var && reaches(var, reach)) break;
    }
    if (var) return variable_name(var, &e->text, &e->type);
    if (LLVMIsALoadInst(v)) return lvalue_expr(m, LLVMGetOperand(v, 0), e, depth + 1);
    LLVMValueRef inner = strip_casts(v);
    if (inner == v) return 0;
    v = LLVMGetOperand(v, 0); /* one cast at a time */
  }
  return 0;
}

int weir_llvm_memory_value_name(const weir_llvm_memory *m, LLVMValueRef value, weir_llvm_text *out) {
  expr e = {0};
  int ok = value && value_expr(m, value, 0, &e, 0) && e.text.n && !e.text.failed;
  if (ok) weir_llvm_text_put(out, e.text.p, e.text.n);
  weir_llvm_text_free(&e.text);
  return ok;
}

int weir_llvm_memory_access_name(const weir_llvm_memory *m, LLVMValueRef pointer, int as_argument,
                                 weir_llvm_text *out) {
  expr e = {0};
  int ok = 0;
  if (pointer && as_argument) { /* strlen(s), free(line), memcpy(d, buf, n): the pointer as passed */
    ok = value_expr(m, pointer, 0, &e, 0) && e.text.n && !e.text.failed;
    if (!ok) {
      weir_llvm_text_free(&e.text);
      e = (expr){0};
      ok = lvalue_expr(m, pointer, &e, 0) && e.text.n > 2 && !e.text.failed;
      if (ok && memcmp(e.text.p + e.text.n - 2, "[]", 2) == 0) e.text.n -= 2; /* buf, not buf[] */
    }
  } else if (pointer) {
    ok = lvalue_expr(m, pointer, &e, 0) && e.text.n && !e.text.failed;
  }
  if (ok) weir_llvm_text_put(out, e.text.p, e.text.n);
  weir_llvm_text_free(&e.text);
  return ok;
}

int weir_llvm_dynamic_alloca(LLVMValueRef alloca) {
  LLVMValueRef count = LLVMGetOperand(alloca, 0);
  LLVMBasicBlockRef block = LLVMGetInstructionParent(alloca);
  if (!count || !LLVMIsAConstantInt(count) || LLVMConstIntGetZExtValue(count) != 1) return 1;
  return block && LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(block)) != block;
}

int weir_llvm_compiler_temporary(LLVMValueRef value) {
  LLVMBasicBlockRef block = LLVMIsAInstruction(value) ? LLVMGetInstructionParent(value) : NULL;
  if (!block || !LLVMGetSubprogram(LLVMGetBasicBlockParent(block))) return 0; /* no debug info: cannot tell */
  return local_variable(value, 0) == NULL;
}

int weir_llvm_value_variable(LLVMValueRef value, weir_llvm_text *name, unsigned *line) {
  LLVMValueRef var = LLVMIsAInstruction(value) ? local_variable(value, 0) : NULL;
  LLVMValueRef type = NULL;
  if (!var || !variable_name(var, name, &type)) return 0;
  if (line) *line = LLVMDIVariableGetLine(LLVMValueAsMetadata(var));
  return 1;
}
