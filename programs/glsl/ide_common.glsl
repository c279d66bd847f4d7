// The IDE engine's per-item logic in GLSL: the same functions, names and
// order as programs/ide/ide_kernels.h and the algebra of engine/ide/fn.h
// (read them side by side), over the bindings, control words and push
// constants of programs/ide/ide_layout.h, which this file mirrors by hand.
// Differences: one program per family (IDE_LINEAR or IDE_TYPESTATE defined
// before the include: struct Lin, or private arrays for typestate, not the weir_ide_fn
// union; lavapipe ran the linear rounds 10x slower with the typestate code
// merely present), findLSB for the lowest set bit, and the loop-budget
// check of lavapipe (see ifds_common.glsl): a cut budget raises
// ctrl[OVERFLOW], every kernel stops, and the host redoes the round with
// more workgroups (engine_device.c), or refuses the solve with a message
// when each invocation already has one target: no contribution is lost.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(push_constant) uniform Push {  // weir_ide_push
  uint targets, words, family, states, loop_check, pad0, pad1, pad2;
} pc;

layout(std430, set = 0, binding = 0) readonly buffer Fns { uint fns[]; };
layout(std430, set = 0, binding = 1) readonly buffer Offset { uint offset_[]; };
layout(std430, set = 0, binding = 2) readonly buffer Rules { uint rules[]; };
layout(std430, set = 0, binding = 3) buffer Jf { uint jf[]; };
layout(std430, set = 0, binding = 4) buffer Next { uint next_[]; };
layout(std430, set = 0, binding = 5) readonly buffer DepOffset { uint dep_offset[]; };
layout(std430, set = 0, binding = 6) readonly buffer Deps { uint deps[]; };
layout(std430, set = 0, binding = 7) buffer Mark { uint mark[]; };
layout(std430, set = 0, binding = 8) buffer Work { uint work[]; };
layout(std430, set = 0, binding = 9) buffer Changed { uint changed[]; };
layout(std430, set = 0, binding = 10) coherent buffer Ctrl { uint ctrl[]; };

const uint NIL = 0xFFFFFFFFu;
const uint C_ROUND = 0u, C_CHANGES = 1u, C_DONE = 2u, C_FULL = 3u, C_OVERFLOW = 4u, C_UPDATES = 5u;
const uint C_EPOCH = 6u, C_WORK0 = 7u, C_VISITS = 9u;
const uint LINEAR = 1u;
const uint LIN_TOP = 0u, LIN_BOT = 1u, LIN_CONST = 2u, LIN_AFFINE = 3u;

bool ide_stopped() { return ctrl[C_DONE] != 0u || ctrl[C_OVERFLOW] != 0u; }

void ide_check_loops() {
  uint want = min(pc.loop_check, 2u), got = 0u;
  for (uint j = 0u; j < want; ++j) got++;
  if (got != want) atomicOr(ctrl[C_OVERFLOW], 1u);
}

#ifdef IDE_LINEAR
// ---- linear (ide_lin_* of fn.h) ---------------------------------------------
struct Lin { uint kind; int64_t a; int64_t b; };

Lin lin(uint kind, int64_t a, int64_t b) { Lin f; f.kind = kind; f.a = a; f.b = b; return f; }
int64_t w64(uint lo, uint hi) { return int64_t(uint64_t(lo) | (uint64_t(hi) << 32)); }

// ide_lin_compose: g ∘ f. Wrapping arithmetic: SPIR-V integer ops are modular.
Lin lin_compose(Lin g, Lin f) {
  if (g.kind != LIN_AFFINE) return lin(g.kind, 0l, g.b);
  if (f.kind == LIN_AFFINE) return lin(LIN_AFFINE, g.a * f.a, g.a * f.b + g.b);
  if (f.kind == LIN_CONST) return lin(LIN_CONST, 0l, g.a * f.b + g.b); // g(c), a constant
  return lin(f.kind, 0l, 0l); // strict: ⊤ and ⊥ stay
}
bool lin_equal(Lin f, Lin g) { return f.kind == g.kind && f.a == g.a && f.b == g.b; }
Lin lin_join(Lin f, Lin g) {
  if (f.kind == LIN_TOP) return g;
  if (g.kind == LIN_TOP || lin_equal(f, g)) return f;
  return lin(LIN_BOT, 0l, 0l);
}

#endif
#ifdef IDE_TYPESTATE
// ---- typestate (ide_ts_* of fn.h) -------------------------------------------
// Functions live in private arrays (h: the rule being composed, acc: the
// merge, tmp: a composition's output) and in the buffers, never in struct
// values: lavapipe ran rounds 25x slower copying 33-word structs around.
uint h_gen, acc_gen, tmp_gen;
uint h_to[32], acc_to[32], tmp_to[32];

// h = h ∘ B[i] (B's rows are sets of states, h maps each state):
// ide_ts_compose(g = h, f = B[i]); the output is canonical.
#define TS_AFTER(NAME, BUF)                                                \
  void NAME(uint i) {                                                      \
    uint w = i * pc.words;                                                 \
    tmp_gen = h_gen;                                                       \
    for (uint set = BUF[w]; set != 0u; set &= set - 1u) tmp_gen |= h_to[findLSB(set)]; \
    for (uint s = 0u; s < pc.states; ++s) {                                \
      uint row = 0u;                                                       \
      for (uint set = BUF[w + 1u + s]; set != 0u; set &= set - 1u) row |= h_to[findLSB(set)]; \
      tmp_to[s] = row & ~tmp_gen;                                          \
    }                                                                      \
    h_gen = tmp_gen;                                                       \
    for (uint s = 0u; s < pc.states; ++s) h_to[s] = tmp_to[s];             \
  }
// h = B[i] ∘ h: ide_ts_compose(g = B[i], f = h).
#define TS_BEFORE(NAME, BUF)                                               \
  void NAME(uint i) {                                                      \
    uint w = i * pc.words, gen = BUF[w];                                   \
    for (uint set = h_gen; set != 0u; set &= set - 1u) gen |= BUF[w + 1u + findLSB(set)]; \
    for (uint s = 0u; s < pc.states; ++s) {                                \
      uint row = 0u;                                                       \
      for (uint set = h_to[s]; set != 0u; set &= set - 1u) row |= BUF[w + 1u + findLSB(set)]; \
      h_to[s] = row & ~gen;                                                \
    }                                                                      \
    h_gen = gen;                                                           \
  }
#endif

// ---- slots: one loader per buffer (GLSL cannot pass a buffer) ----------------
#define LIN_LOAD(NAME, BUF)                                                          \
  Lin NAME(uint i) {                                                                 \
    uint w = i * pc.words;                                                           \
    return lin(BUF[w], w64(BUF[w + 2u], BUF[w + 3u]), w64(BUF[w + 4u], BUF[w + 5u])); \
  }
#ifdef IDE_LINEAR
LIN_LOAD(lin_fn, fns) LIN_LOAD(lin_jf, jf)
void lin_store(uint i, Lin f) {
  uint w = i * pc.words;
  uint64_t a = uint64_t(f.a), b = uint64_t(f.b);
  next_[w] = f.kind;
  next_[w + 1u] = 0u;
  next_[w + 2u] = uint(a);
  next_[w + 3u] = uint(a >> 32);
  next_[w + 4u] = uint(b);
  next_[w + 5u] = uint(b >> 32);
}
#endif
#ifdef IDE_TYPESTATE
TS_AFTER(ts_after_jf, jf) TS_BEFORE(ts_before_jf, jf) TS_BEFORE(ts_before_fn, fns)
#endif

// ide_eval_rule: fns[f2] ∘ jf[src2] ∘ fns[f1] ∘ jf[src1], NIL sources left out.
#ifdef IDE_LINEAR
Lin lin_eval_rule(uint r) {
  uint s1 = rules[4u * r], s2 = rules[4u * r + 1u], f2 = rules[4u * r + 3u];
  Lin h = lin_fn(rules[4u * r + 2u]);
  if (s1 != NIL) h = lin_compose(h, lin_jf(s1));
  if (s2 != NIL) h = lin_compose(lin_jf(s2), h);
  if (f2 != 0u) h = lin_compose(lin_fn(f2), h);
  return h;
}
#endif
#ifdef IDE_TYPESTATE
// h = fns[f1]: the rule's first function.
void ts_first(uint i) {
  uint w = i * pc.words;
  h_gen = fns[w];
  for (uint s = 0u; s < pc.states; ++s) h_to[s] = fns[w + 1u + s];
}
void ts_eval_rule(uint r) {
  uint s1 = rules[4u * r], s2 = rules[4u * r + 1u], f2 = rules[4u * r + 3u];
  ts_first(rules[4u * r + 2u]);
  if (s1 != NIL) ts_after_jf(s1);
  if (s2 != NIL) ts_before_jf(s2);
  if (f2 != 0u) ts_before_fn(f2);
}
#endif

// 1 when t's function changed, then written to NEXT (ide_round_item's body).
#ifdef IDE_LINEAR
uint ide_recompute(uint t, uint first, uint end) {
  Lin old = lin_jf(t), acc = old;
  for (uint r = first; r < end; ++r) acc = lin_join(acc, lin_eval_rule(r));
  if (lin_equal(acc, old)) return 0u;
  lin_store(t, acc);
  return 1u;
}
#endif
#ifdef IDE_TYPESTATE
uint ide_recompute(uint t, uint first, uint end) {
  uint w = t * pc.words;
  acc_gen = jf[w];
  for (uint s = 0u; s < pc.states; ++s) acc_to[s] = jf[w + 1u + s];
  for (uint r = first; r < end; ++r) { // ide_ts_join, canonical at the end
    ts_eval_rule(r);
    acc_gen |= h_gen;
    for (uint s = 0u; s < pc.states; ++s) acc_to[s] |= h_to[s];
  }
  // NEXT is written whether or not t changed: only changed slots are read
  uint changed = acc_gen != jf[w] ? 1u : 0u;
  next_[w] = acc_gen;
  for (uint s = 0u; s < pc.states; ++s) {
    uint row = acc_to[s] & ~acc_gen;
    if (row != jf[w + 1u + s]) changed = 1u;
    next_[w + 1u + s] = row;
  }
  return changed;
}
#endif

uint ide_round_items() {
  if (ctrl[C_FULL] != 0u) return pc.targets;
  return ctrl[C_WORK0 + (ctrl[C_ROUND] & 1u)];
}

uint ide_round_target(uint i) {
  if (ctrl[C_FULL] != 0u) return i;
  return work[(ctrl[C_ROUND] & 1u) * pc.targets + i];
}

#if defined(IDE_LINEAR) || defined(IDE_TYPESTATE)
void ide_round_item(uint t) {
  if (ide_recompute(t, offset_[t], offset_[t + 1u]) != 0u) changed[atomicAdd(ctrl[C_CHANGES], 1u)] = t;
}
#endif

void ide_expand_item(uint i, uint lane, uint lanes) {
  uint t = changed[i], epoch = ctrl[C_EPOCH], side = (ctrl[C_ROUND] & 1u) ^ 1u;
  for (uint w = lane; w < pc.words; w += lanes) jf[t * pc.words + w] = next_[t * pc.words + w];
  for (uint j = dep_offset[t] + lane; j < dep_offset[t + 1u]; j += lanes) {
    uint u = deps[j];
    if (atomicExchange(mark[u], epoch) == epoch) continue;
    work[side * pc.targets + atomicAdd(ctrl[C_WORK0 + side], 1u)] = u;
  }
}

void ide_advance() {
  uint side = ctrl[C_ROUND] & 1u;
  if (ide_stopped()) return;
  ctrl[C_UPDATES] += ctrl[C_CHANGES];
  ctrl[C_VISITS] += ide_round_items();
  ctrl[C_WORK0 + side] = 0u;
  if (ctrl[C_WORK0 + (side ^ 1u)] == 0u) ctrl[C_DONE] = 1u;
  ctrl[C_ROUND] += 1u;
  ctrl[C_EPOCH] += 1u;
  ctrl[C_FULL] = 0u;
  ctrl[C_CHANGES] = 0u;
}
