/* The edge-function algebra of both IDE families: identity, ⊤, composition,
 * merge (join), application and equality. Pure functions of fixed-size
 * structs, no allocation and no globals, so that a kernel can include this
 * header and run the same per-item logic (define WEIR_IDE_FN first, e.g. as
 * `static inline __host__ __device__`).
 *
 * The lattices (docs/ide-format.md, "The families"):
 *  linear: values ⊤ > constants > ⊥ (flat); functions λx.⊤ > {λx.c, strict
 *    λx.a·x+b} > λx.⊥. Merging two different functions of the middle level
 *    gives λx.⊥: sound (below both pointwise) and of height 3, so every jump
 *    function changes at most twice. Composition is exact: the family is
 *    closed under it (a·(a'·x+b')+b = (a·a')·x + (a·b'+b), wrapping).
 *  typestate: functions f(S) = gen ∪ ⋃ to[s]; composition and union are
 *    exact; the lattice is the bits of the table (finite). */
#ifndef WEIR_ENGINE_IDE_FN_H
#define WEIR_ENGINE_IDE_FN_H

#include <stdint.h>

#include "weir/ide.h"

#ifndef WEIR_IDE_FN
#define WEIR_IDE_FN static inline
#endif

/* Two's complement wrapping without signed overflow (undefined in C). */
WEIR_IDE_FN int64_t ide_wrap(uint64_t x) {
  return x <= (uint64_t)INT64_MAX ? (int64_t)x : -(int64_t)(~x) - 1;
}
WEIR_IDE_FN int64_t ide_mul_add(int64_t a, int64_t x, int64_t b) {
  return ide_wrap((uint64_t)a * (uint64_t)x + (uint64_t)b);
}

/* ---- linear ---------------------------------------------------------------- */

WEIR_IDE_FN weir_ide_fn ide_lin(uint32_t kind, int64_t a, int64_t b) {
  weir_ide_fn f;
  f.family = WEIR_IDE_LINEAR;
  f.reserved = 0;
  for (int i = 0; i < WEIR_IDE_MAX_STATES; ++i) f.u.typestate.to[i] = 0; /* zero the union */
  f.u.typestate.gen = 0;
  f.u.linear.kind = kind;
  f.u.linear.reserved = 0;
  f.u.linear.a = a;
  f.u.linear.b = b;
  return f;
}

WEIR_IDE_FN weir_ide_value ide_value(uint32_t kind, uint32_t states, int64_t constant) {
  weir_ide_value v;
  v.kind = kind;
  v.states = states;
  v.constant = constant;
  return v;
}

WEIR_IDE_FN weir_ide_value ide_lin_apply(const weir_ide_linear_fn *f, weir_ide_value x) {
  switch (f->kind) {
    case WEIR_IDE_LIN_TOP: return ide_value(WEIR_IDE_VALUE_TOP, 0, 0);
    case WEIR_IDE_LIN_BOT: return ide_value(WEIR_IDE_VALUE_BOT, 0, 0);
    case WEIR_IDE_LIN_CONST: return ide_value(WEIR_IDE_VALUE_CONST, 0, f->b);
    default:
      if (x.kind != WEIR_IDE_VALUE_CONST) return x; /* strict: ⊤ and ⊥ stay */
      return ide_value(WEIR_IDE_VALUE_CONST, 0, ide_mul_add(f->a, x.constant, f->b));
  }
}

/* The constant function λx.v for a value: ⊤, ⊥ or a constant. */
WEIR_IDE_FN weir_ide_fn ide_lin_const_of(weir_ide_value v) {
  if (v.kind == WEIR_IDE_VALUE_CONST) return ide_lin(WEIR_IDE_LIN_CONST, 0, v.constant);
  return ide_lin(v.kind == WEIR_IDE_VALUE_TOP ? WEIR_IDE_LIN_TOP : WEIR_IDE_LIN_BOT, 0, 0);
}

/* g ∘ f. A constant-valued f (⊤, ⊥, λx.c) makes g ∘ f the constant g(f(·));
 * only affine ∘ affine needs arithmetic. */
WEIR_IDE_FN weir_ide_fn ide_lin_compose(const weir_ide_linear_fn *g, const weir_ide_linear_fn *f) {
  if (g->kind == WEIR_IDE_LIN_TOP || g->kind == WEIR_IDE_LIN_BOT || g->kind == WEIR_IDE_LIN_CONST)
    return ide_lin(g->kind, 0, g->b);
  if (f->kind != WEIR_IDE_LIN_AFFINE) {
    weir_ide_value fx = ide_lin_apply(f, ide_value(WEIR_IDE_VALUE_TOP, 0, 0));
    return ide_lin_const_of(ide_lin_apply(g, fx));
  }
  return ide_lin(WEIR_IDE_LIN_AFFINE, ide_wrap((uint64_t)g->a * (uint64_t)f->a),
                 ide_mul_add(g->a, f->b, g->b));
}

WEIR_IDE_FN int ide_lin_equal(const weir_ide_linear_fn *f, const weir_ide_linear_fn *g) {
  return f->kind == g->kind && f->a == g->a && f->b == g->b;
}

WEIR_IDE_FN weir_ide_fn ide_lin_join(const weir_ide_linear_fn *f, const weir_ide_linear_fn *g) {
  if (f->kind == WEIR_IDE_LIN_TOP) return ide_lin(g->kind, g->a, g->b);
  if (g->kind == WEIR_IDE_LIN_TOP || ide_lin_equal(f, g)) return ide_lin(f->kind, f->a, f->b);
  return ide_lin(WEIR_IDE_LIN_BOT, 0, 0);
}

WEIR_IDE_FN weir_ide_value ide_lin_value_join(weir_ide_value x, weir_ide_value y) {
  if (x.kind == WEIR_IDE_VALUE_TOP) return y;
  if (y.kind == WEIR_IDE_VALUE_TOP) return x;
  if (x.kind == WEIR_IDE_VALUE_CONST && y.kind == WEIR_IDE_VALUE_CONST && x.constant == y.constant)
    return x;
  return ide_value(WEIR_IDE_VALUE_BOT, 0, 0);
}

/* ---- typestate ----------------------------------------------------------- */

WEIR_IDE_FN weir_ide_fn ide_ts_empty(void) {
  weir_ide_fn f;
  f.family = WEIR_IDE_TYPESTATE;
  f.reserved = 0;
  f.u.typestate.gen = 0;
  for (int i = 0; i < WEIR_IDE_MAX_STATES; ++i) f.u.typestate.to[i] = 0;
  return f;
}

WEIR_IDE_FN weir_ide_fn ide_ts_identity(uint32_t states) {
  weir_ide_fn f = ide_ts_empty();
  for (uint32_t s = 0; s < states && s < WEIR_IDE_MAX_STATES; ++s) f.u.typestate.to[s] = 1u << s;
  return f;
}

/* The index of the lowest set bit of x != 0 (a kernel defines its own). */
#ifndef WEIR_IDE_LOW_BIT
#if defined(__GNUC__)
#define WEIR_IDE_LOW_BIT(x) ((uint32_t)__builtin_ctz(x))
#else
WEIR_IDE_FN uint32_t ide_low_bit(uint32_t x) {
  uint32_t i = 0;
  while (!(x >> i & 1u)) ++i;
  return i;
}
#define WEIR_IDE_LOW_BIT(x) ide_low_bit(x)
#endif
#endif

/* f(set): a loop over the set's states only (composition is 32 of these
 * and dominated the reference solver's time as a 32 x 32 loop). */
WEIR_IDE_FN uint32_t ide_ts_image(const weir_ide_typestate_fn *f, uint32_t set) {
  uint32_t out = f->gen;
  for (; set; set &= set - 1) out |= f->to[WEIR_IDE_LOW_BIT(set)];
  return out;
}

/* Rows lose the bits of gen: f and its canonical form are the same map. */
WEIR_IDE_FN void ide_ts_canonical(weir_ide_typestate_fn *f) {
  for (int s = 0; s < WEIR_IDE_MAX_STATES; ++s) f->to[s] &= ~f->gen;
}

/* (g ∘ f)(S) = g(gen_f ∪ ⋃ to_f[s]) = g(gen_f) ∪ ⋃ (g's rows of to_f[s]). */
WEIR_IDE_FN weir_ide_fn ide_ts_compose(const weir_ide_typestate_fn *g,
                                       const weir_ide_typestate_fn *f) {
  weir_ide_fn h = ide_ts_empty();
  h.u.typestate.gen = ide_ts_image(g, f->gen);
  for (int s = 0; s < WEIR_IDE_MAX_STATES; ++s) {
    uint32_t row = 0;
    for (uint32_t set = f->to[s]; set; set &= set - 1) row |= g->to[WEIR_IDE_LOW_BIT(set)];
    h.u.typestate.to[s] = row;
  }
  ide_ts_canonical(&h.u.typestate);
  return h;
}

WEIR_IDE_FN weir_ide_fn ide_ts_join(const weir_ide_typestate_fn *f,
                                    const weir_ide_typestate_fn *g) {
  weir_ide_fn h = ide_ts_empty();
  h.u.typestate.gen = f->gen | g->gen;
  for (int s = 0; s < WEIR_IDE_MAX_STATES; ++s) h.u.typestate.to[s] = f->to[s] | g->to[s];
  ide_ts_canonical(&h.u.typestate);
  return h;
}

WEIR_IDE_FN int ide_ts_equal(const weir_ide_typestate_fn *f, const weir_ide_typestate_fn *g) {
  if (f->gen != g->gen) return 0;
  for (int s = 0; s < WEIR_IDE_MAX_STATES; ++s)
    if (f->to[s] != g->to[s]) return 0;
  return 1;
}

/* ---- either family ---------------------------------------------------------- */

WEIR_IDE_FN weir_ide_fn ide_fn_top(uint32_t family) {
  return family == WEIR_IDE_LINEAR ? ide_lin(WEIR_IDE_LIN_TOP, 0, 0) : ide_ts_empty();
}
WEIR_IDE_FN weir_ide_fn ide_fn_identity(uint32_t family, uint32_t states) {
  return family == WEIR_IDE_LINEAR ? ide_lin(WEIR_IDE_LIN_AFFINE, 1, 0) : ide_ts_identity(states);
}
WEIR_IDE_FN weir_ide_fn ide_fn_compose(const weir_ide_fn *g, const weir_ide_fn *f) {
  return g->family == WEIR_IDE_LINEAR ? ide_lin_compose(&g->u.linear, &f->u.linear)
                                      : ide_ts_compose(&g->u.typestate, &f->u.typestate);
}
WEIR_IDE_FN weir_ide_fn ide_fn_join(const weir_ide_fn *f, const weir_ide_fn *g) {
  return f->family == WEIR_IDE_LINEAR ? ide_lin_join(&f->u.linear, &g->u.linear)
                                      : ide_ts_join(&f->u.typestate, &g->u.typestate);
}
WEIR_IDE_FN int ide_fn_equal(const weir_ide_fn *f, const weir_ide_fn *g) {
  if (f->family != g->family) return 0;
  return f->family == WEIR_IDE_LINEAR ? ide_lin_equal(&f->u.linear, &g->u.linear)
                                      : ide_ts_equal(&f->u.typestate, &g->u.typestate);
}
WEIR_IDE_FN weir_ide_value ide_fn_apply(const weir_ide_fn *f, weir_ide_value x) {
  if (f->family == WEIR_IDE_LINEAR) return ide_lin_apply(&f->u.linear, x);
  return ide_value(WEIR_IDE_VALUE_STATES, ide_ts_image(&f->u.typestate, x.states), 0);
}
/* The function λx.v: what a seed's path edge starts with. */
WEIR_IDE_FN weir_ide_fn ide_fn_const_of(uint32_t family, weir_ide_value v) {
  if (family == WEIR_IDE_LINEAR) return ide_lin_const_of(v);
  weir_ide_fn f = ide_ts_empty();
  f.u.typestate.gen = v.states;
  return f;
}
WEIR_IDE_FN weir_ide_value ide_value_top(uint32_t family) {
  return ide_value(family == WEIR_IDE_LINEAR ? WEIR_IDE_VALUE_TOP : WEIR_IDE_VALUE_STATES, 0, 0);
}
WEIR_IDE_FN weir_ide_value ide_value_join(uint32_t family, weir_ide_value x, weir_ide_value y) {
  if (family == WEIR_IDE_LINEAR) return ide_lin_value_join(x, y);
  return ide_value(WEIR_IDE_VALUE_STATES, x.states | y.states, 0);
}
WEIR_IDE_FN int ide_value_equal(weir_ide_value x, weir_ide_value y) {
  return x.kind == y.kind && x.states == y.states && x.constant == y.constant;
}

#endif
