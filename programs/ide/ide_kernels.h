/* The IDE engine's per-item logic (phase 1, one round of the jump-function
 * fixed point), written once: it compiles as C11 (programs/ide/host.c) and
 * as CUDA (programs/cuda/ide.cu), and applies the very edge-function algebra
 * the reference solver uses (engine/ide/fn.h). programs/glsl/ide_*.comp
 * follow the same functions, names and order.
 *
 * A round is Jacobi-style: every target path edge t whose inputs changed in
 * the previous round (or every one, when ctrl[FULL] is set) recomputes
 *   jf'(t) = jf(t) ⊔ ⊔_{rules r of t} eval(r)
 * from the IN buffers and writes OUT; one invocation per target, so no two
 * invocations write the same slot and nothing needs an atomic but the
 * change counter. The families' lattices have finite height, so the rounds
 * end; the greatest fixed point of these monotone equations is the one the
 * reference's worklist reaches, whatever the order (chaotic iteration). */
#ifndef WEIR_PROGRAMS_IDE_KERNELS_H
#define WEIR_PROGRAMS_IDE_KERNELS_H

#include "programs/ide/ide_layout.h"

#ifdef __CUDACC__
#define IDE_KFN static __device__ __forceinline__
#define WEIR_IDE_FN static __device__ __forceinline__
#define WEIR_IDE_LOW_BIT(x) ((uint32_t)(__ffs((int)(x)) - 1))
IDE_KFN void ide_add32(uint32_t *p, uint32_t v) { atomicAdd((unsigned *)p, v); }
#else
#include <stdatomic.h>
#define IDE_KFN static inline
IDE_KFN void ide_add32(uint32_t *p, uint32_t v) {
  atomic_fetch_add_explicit((_Atomic uint32_t *)p, v, memory_order_relaxed);
}
#endif

#include "engine/ide/fn.h"

typedef struct ide_ctx {
  const uint32_t *fns, *offset, *rules, *jf_in, *chg_in;
  uint32_t *jf_out, *chg_out, *ctrl;
  weir_ide_push pc;
} ide_ctx;

/* Every kernel is a no-op once the fixed point is reached or a loop budget
 * was cut (GLSL only). */
IDE_KFN int ide_stopped(const ide_ctx *cx) {
  return cx->ctrl[WEIR_IDE_C_DONE] != 0u || cx->ctrl[WEIR_IDE_C_OVERFLOW] != 0u;
}

IDE_KFN int64_t ide_word64(const uint32_t *w) {
  return ide_wrap((uint64_t)w[0] | (uint64_t)w[1] << 32);
}

/* Slot i of a function array (W words each: see ide_layout.h). */
IDE_KFN weir_ide_fn ide_load(const ide_ctx *cx, const uint32_t *base, uint64_t i) {
  const uint32_t *w = base + i * cx->pc.words;
  if (cx->pc.family == WEIR_IDE_LINEAR) return ide_lin(w[0], ide_word64(w + 2), ide_word64(w + 4));
  weir_ide_fn f = ide_ts_empty();
  f.u.typestate.gen = w[0];
  for (uint32_t s = 0; s < cx->pc.states; ++s) f.u.typestate.to[s] = w[1 + s];
  return f;
}

IDE_KFN void ide_store(const ide_ctx *cx, uint32_t *base, uint64_t i, const weir_ide_fn *f) {
  uint32_t *w = base + i * cx->pc.words;
  if (cx->pc.family == WEIR_IDE_LINEAR) {
    uint64_t a = (uint64_t)f->u.linear.a, b = (uint64_t)f->u.linear.b;
    w[0] = f->u.linear.kind, w[1] = 0u;
    w[2] = (uint32_t)a, w[3] = (uint32_t)(a >> 32), w[4] = (uint32_t)b, w[5] = (uint32_t)(b >> 32);
    return;
  }
  w[0] = f->u.typestate.gen;
  for (uint32_t s = 0; s < cx->pc.states; ++s) w[1 + s] = f->u.typestate.to[s];
}

/* 1 when a source of rule r changed in the previous round. */
IDE_KFN int ide_rule_changed(const ide_ctx *cx, uint32_t r) {
  const uint32_t *rule = cx->rules + (uint64_t)r * WEIR_IDE_RULE_WORDS;
  return (rule[0] != WEIR_IDE_NIL && cx->chg_in[rule[0]]) ||
         (rule[1] != WEIR_IDE_NIL && cx->chg_in[rule[1]]);
}

/* fns[f2] ∘ jf[src2] ∘ fns[f1] ∘ jf[src1], NIL sources left out. */
IDE_KFN weir_ide_fn ide_eval_rule(const ide_ctx *cx, uint32_t r) {
  const uint32_t *rule = cx->rules + (uint64_t)r * WEIR_IDE_RULE_WORDS;
  weir_ide_fn h = ide_load(cx, cx->fns, rule[2]);
  if (rule[0] != WEIR_IDE_NIL) {
    weir_ide_fn src = ide_load(cx, cx->jf_in, rule[0]);
    h = ide_fn_compose(&h, &src);
  }
  if (rule[1] != WEIR_IDE_NIL) {
    weir_ide_fn x = ide_load(cx, cx->jf_in, rule[1]);
    h = ide_fn_compose(&x, &h);
  }
  if (rule[3] != 0u) {
    weir_ide_fn g = ide_load(cx, cx->fns, rule[3]);
    h = ide_fn_compose(&g, &h);
  }
  return h;
}

/* Target t in this round. Not recomputed: OUT must equal IN, and OUT holds
 * the value of two rounds ago, which differs only when t changed last round. */
IDE_KFN void ide_round_item(const ide_ctx *cx, uint32_t t) {
  uint32_t first = cx->offset[t], end = cx->offset[t + 1u], words = cx->pc.words;
  int redo = cx->ctrl[WEIR_IDE_C_FULL] != 0u;
  for (uint32_t r = first; !redo && r < end; ++r) redo = ide_rule_changed(cx, r);
  if (!redo) {
    if (cx->chg_in[t])
      for (uint32_t w = 0; w < words; ++w)
        cx->jf_out[(uint64_t)t * words + w] = cx->jf_in[(uint64_t)t * words + w];
    cx->chg_out[t] = 0u;
    return;
  }
  weir_ide_fn old = ide_load(cx, cx->jf_in, t), acc = old;
  for (uint32_t r = first; r < end; ++r) {
    weir_ide_fn c = ide_eval_rule(cx, r);
    acc = ide_fn_join(&acc, &c);
  }
  uint32_t changed = ide_fn_equal(&acc, &old) ? 0u : 1u;
  ide_store(cx, cx->jf_out, t, &acc);
  cx->chg_out[t] = changed;
  if (changed) ide_add32(&cx->ctrl[WEIR_IDE_C_CHANGES], 1u);
}

/* One invocation after every round: count it, and stop when it changed
 * nothing (then IN and OUT hold the same functions). */
IDE_KFN void ide_advance(const ide_ctx *cx) {
  uint32_t *c = cx->ctrl;
  if (ide_stopped(cx)) return;
  c[WEIR_IDE_C_UPDATES] += c[WEIR_IDE_C_CHANGES];
  if (c[WEIR_IDE_C_CHANGES] == 0u) c[WEIR_IDE_C_DONE] = 1u;
  c[WEIR_IDE_C_ROUND] += 1u;
  c[WEIR_IDE_C_FULL] = 0u;
  c[WEIR_IDE_C_CHANGES] = 0u;
}

/* The step of parity p runs only in rounds of that parity. */
IDE_KFN int ide_round_skipped(const ide_ctx *cx) {
  return ide_stopped(cx) || (cx->ctrl[WEIR_IDE_C_ROUND] & 1u) != cx->pc.parity;
}

#endif
