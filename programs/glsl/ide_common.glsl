// The IDE engine's per-item logic in GLSL: the same functions, names and
// order as programs/ide/ide_kernels.h and the algebra of engine/ide/fn.h
// (read them side by side), over the bindings, control words and push
// constants of programs/ide/ide_layout.h, which this file mirrors by hand.
// Differences: one family per branch (struct Lin, struct Ts instead of the
// weir_ide_fn union), findLSB for the lowest set bit, and the loop-budget
// check of lavapipe (see ifds_common.glsl): a cut budget raises
// ctrl[OVERFLOW], every kernel stops, and the host refuses the solve with a
// message (it does not silently lose a contribution).
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

// ---- typestate (ide_ts_* of fn.h) -------------------------------------------
struct Ts { uint gen; uint to[32]; };

Ts ts_empty() {
  Ts f;
  f.gen = 0u;
  for (uint s = 0u; s < 32u; ++s) f.to[s] = 0u;
  return f;
}
uint ts_image(Ts f, uint set) {
  uint out_ = f.gen;
  for (; set != 0u; set &= set - 1u) out_ |= f.to[findLSB(set)];
  return out_;
}
Ts ts_compose(Ts g, Ts f) {
  Ts h = ts_empty();
  h.gen = ts_image(g, f.gen);
  for (uint s = 0u; s < pc.states; ++s) {
    uint row = 0u;
    for (uint set = f.to[s]; set != 0u; set &= set - 1u) row |= g.to[findLSB(set)];
    h.to[s] = row & ~h.gen; // canonical
  }
  return h;
}
Ts ts_join(Ts f, Ts g) {
  Ts h = ts_empty();
  h.gen = f.gen | g.gen;
  for (uint s = 0u; s < pc.states; ++s) h.to[s] = (f.to[s] | g.to[s]) & ~h.gen;
  return h;
}
bool ts_equal(Ts f, Ts g) {
  if (f.gen != g.gen) return false;
  for (uint s = 0u; s < pc.states; ++s)
    if (f.to[s] != g.to[s]) return false;
  return true;
}

// ---- slots: one loader per buffer (GLSL cannot pass a buffer) ----------------
#define LIN_LOAD(NAME, BUF)                                                          \
  Lin NAME(uint i) {                                                                 \
    uint w = i * pc.words;                                                           \
    return lin(BUF[w], w64(BUF[w + 2u], BUF[w + 3u]), w64(BUF[w + 4u], BUF[w + 5u])); \
  }
#define TS_LOAD(NAME, BUF)                                       \
  Ts NAME(uint i) {                                              \
    uint w = i * pc.words;                                       \
    Ts f = ts_empty();                                           \
    f.gen = BUF[w];                                              \
    for (uint s = 0u; s < pc.states; ++s) f.to[s] = BUF[w + 1u + s]; \
    return f;                                                    \
  }
LIN_LOAD(lin_fn, fns) LIN_LOAD(lin_jf, jf_in)
TS_LOAD(ts_fn, fns) TS_LOAD(ts_jf, jf_in)

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
void ts_store(uint i, Ts f) {
  uint w = i * pc.words;
  jf_out[w] = f.gen;
  for (uint s = 0u; s < pc.states; ++s) jf_out[w + 1u + s] = f.to[s];
}

bool ide_rule_changed(uint r) {
  uint s1 = rules[4u * r], s2 = rules[4u * r + 1u];
  return (s1 != NIL && chg_in[s1] != 0u) || (s2 != NIL && chg_in[s2] != 0u);
}

// ide_eval_rule: fns[f2] ∘ jf[src2] ∘ fns[f1] ∘ jf[src1], NIL sources left out.
Lin lin_eval_rule(uint r) {
  uint s1 = rules[4u * r], s2 = rules[4u * r + 1u], f2 = rules[4u * r + 3u];
  Lin h = lin_fn(rules[4u * r + 2u]);
  if (s1 != NIL) h = lin_compose(h, lin_jf(s1));
  if (s2 != NIL) h = lin_compose(lin_jf(s2), h);
  if (f2 != 0u) h = lin_compose(lin_fn(f2), h);
  return h;
}
Ts ts_eval_rule(uint r) {
  uint s1 = rules[4u * r], s2 = rules[4u * r + 1u], f2 = rules[4u * r + 3u];
  Ts h = ts_fn(rules[4u * r + 2u]);
  if (s1 != NIL) h = ts_compose(h, ts_jf(s1));
  if (s2 != NIL) h = ts_compose(ts_jf(s2), h);
  if (f2 != 0u) h = ts_compose(ts_fn(f2), h);
  return h;
}

// 1 when t's function changed.
uint lin_recompute(uint t, uint first, uint end) {
  Lin old = lin_jf(t), acc = old;
  for (uint r = first; r < end; ++r) acc = lin_join(acc, lin_eval_rule(r));
  lin_store(t, acc);
  return lin_equal(acc, old) ? 0u : 1u;
}
uint ts_recompute(uint t, uint first, uint end) {
  Ts old = ts_jf(t), acc = old;
  for (uint r = first; r < end; ++r) acc = ts_join(acc, ts_eval_rule(r));
  ts_store(t, acc);
  return ts_equal(acc, old) ? 0u : 1u;
}

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
  uint changed = pc.family == LINEAR ? lin_recompute(t, first, end) : ts_recompute(t, first, end);
  chg_out[t] = changed;
  if (changed != 0u) atomicAdd(ctrl[C_CHANGES], 1u);
}

bool ide_round_skipped() { return ide_stopped() || (ctrl[C_ROUND] & 1u) != pc.parity; }

void ide_advance() {
  if (ide_stopped()) return;
  ctrl[C_UPDATES] += ctrl[C_CHANGES];
  if (ctrl[C_CHANGES] == 0u) ctrl[C_DONE] = 1u;
  ctrl[C_ROUND] += 1u;
  ctrl[C_FULL] = 0u;
  ctrl[C_CHANGES] = 0u;
}
