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
  uint targets, words, family, states, parity, loop_check, pad0, pad1;
} pc;

layout(std430, set = 0, binding = 0) readonly buffer Fns { uint fns[]; };
layout(std430, set = 0, binding = 1) readonly buffer Offset { uint offset_[]; };
layout(std430, set = 0, binding = 2) readonly buffer Rules { uint rules[]; };
layout(std430, set = 0, binding = 3) readonly buffer JfIn { uint jf_in[]; };
layout(std430, set = 0, binding = 4) buffer JfOut { uint jf_out[]; };
layout(std430, set = 0, binding = 5) readonly buffer ChgIn { uint chg_in[]; };
layout(std430, set = 0, binding = 6) buffer ChgOut { uint chg_out[]; };
layout(std430, set = 0, binding = 7) coherent buffer Ctrl { uint ctrl[]; };

const uint NIL = 0xFFFFFFFFu;
const uint C_ROUND = 0u, C_CHANGES = 1u, C_DONE = 2u, C_FULL = 3u, C_OVERFLOW = 4u, C_UPDATES = 5u;
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
LIN_LOAD(lin_fn, fns) LIN_LOAD(lin_jf, jf_in)
void lin_store(uint i, Lin f) {
  uint w = i * pc.words;
  uint64_t a = uint64_t(f.a), b = uint64_t(f.b);
  jf_out[w] = f.kind;
  jf_out[w + 1u] = 0u;
  jf_out[w + 2u] = uint(a);
  jf_out[w + 3u] = uint(a >> 32);
  jf_out[w + 4u] = uint(b);
  jf_out[w + 5u] = uint(b >> 32);
}
#endif
#ifdef IDE_TYPESTATE
TS_AFTER(ts_after_jf, jf_in) TS_BEFORE(ts_before_jf, jf_in) TS_BEFORE(ts_before_fn, fns)
#endif

bool ide_rule_changed(uint r) {
  uint s1 = rules[4u * r], s2 = rules[4u * r + 1u];
  return (s1 != NIL && chg_in[s1] != 0u) || (s2 != NIL && chg_in[s2] != 0u);
}

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

// 1 when t's function changed (ide_round_item's second half).
#ifdef IDE_LINEAR
uint ide_recompute(uint t, uint first, uint end) {
  Lin old = lin_jf(t), acc = old;
  for (uint r = first; r < end; ++r) acc = lin_join(acc, lin_eval_rule(r));
  lin_store(t, acc);
  return lin_equal(acc, old) ? 0u : 1u;
}
#endif
#ifdef IDE_TYPESTATE
uint ide_recompute(uint t, uint first, uint end) {
  uint w = t * pc.words;
  acc_gen = jf_in[w];
  for (uint s = 0u; s < pc.states; ++s) acc_to[s] = jf_in[w + 1u + s];
  for (uint r = first; r < end; ++r) { // ide_ts_join, canonical at the end
    ts_eval_rule(r);
    acc_gen |= h_gen;
    for (uint s = 0u; s < pc.states; ++s) acc_to[s] |= h_to[s];
  }
  uint changed = acc_gen != jf_in[w] ? 1u : 0u;
  jf_out[w] = acc_gen;
  for (uint s = 0u; s < pc.states; ++s) {
    uint row = acc_to[s] & ~acc_gen;
    if (row != jf_in[w + 1u + s]) changed = 1u;
    jf_out[w + 1u + s] = row;
  }
  return changed;
}
#endif

#if defined(IDE_LINEAR) || defined(IDE_TYPESTATE)
void ide_round_item(uint t) {
  uint first = offset_[t], end = offset_[t + 1u];
  bool redo = ctrl[C_FULL] != 0u;
  for (uint r = first; !redo && r < end; ++r) redo = ide_rule_changed(r);
  if (!redo) {
    if (chg_in[t] != 0u)
      for (uint w = 0u; w < pc.words; ++w) jf_out[t * pc.words + w] = jf_in[t * pc.words + w];
    chg_out[t] = 0u;
    return;
  }
  uint changed = ide_recompute(t, first, end);
  chg_out[t] = changed;
  if (changed != 0u) atomicAdd(ctrl[C_CHANGES], 1u);
}

#endif

bool ide_round_skipped() { return ide_stopped() || (ctrl[C_ROUND] & 1u) != pc.parity; }

void ide_advance() {
  if (ide_stopped()) return;
  ctrl[C_UPDATES] += ctrl[C_CHANGES];
  if (ctrl[C_CHANGES] == 0u) ctrl[C_DONE] = 1u;
  ctrl[C_ROUND] += 1u;
  ctrl[C_FULL] = 0u;
  ctrl[C_CHANGES] = 0u;
}
