/* The IDE engine's per-item logic (phase 1, one round of the jump-function
 * fixed point), written once: it compiles as C11 (programs/ide/host.c) and
 * as CUDA (programs/cuda/ide.cu), and applies the very edge-function algebra
 * the reference solver uses (engine/ide/fn.h). programs/glsl/ide_*.comp
 * follow the same functions, names and order.
 *
 * A round is Jacobi-style and delta-driven: every target t on the round's
 * worklist (every target in a full round: round 0, a redo) recomputes
 *   jf'(t) = jf(t) ⊔ ⊔_{rules r of t} eval(r)
 * from JF; a changed one is written to NEXT and appended to the changed
 * list. `ide_expand` then copies each changed slot into JF and appends the
 * targets with a rule reading it (the dependents CSR), once each (an epoch
 * mark), to the next round's worklist. So a round costs what changed times
 * its fan-out, not every target. No slot has two writers in a step; the
 * atomics are the list appends and the marks. The families' lattices have
 * finite height, so the rounds end; the greatest fixed point of these
 * monotone equations is the one the reference's worklist reaches, whatever
 * the order (chaotic iteration). */
#ifndef WEIR_PROGRAMS_IDE_KERNELS_H
#define WEIR_PROGRAMS_IDE_KERNELS_H

#include "programs/ide/ide_layout.h"

#ifdef __CUDACC__
#define IDE_KFN static __device__ __forceinline__
#define WEIR_IDE_FN static __device__ __forceinline__
#define WEIR_IDE_LOW_BIT(x) ((uint32_t)(__ffs((int)(x)) - 1))
IDE_KFN uint32_t ide_add32(uint32_t *p, uint32_t v) { return atomicAdd((unsigned *)p, v); }
IDE_KFN uint32_t ide_swap32(uint32_t *p, uint32_t v) { return atomicExch((unsigned *)p, v); }
#else
#include <stdatomic.h>
#define IDE_KFN static inline
IDE_KFN uint32_t ide_add32(uint32_t *p, uint32_t v) {
  return atomic_fetch_add_explicit((_Atomic uint32_t *)p, v, memory_order_relaxed);
}
IDE_KFN uint32_t ide_swap32(uint32_t *p, uint32_t v) {
  return atomic_exchange_explicit((_Atomic uint32_t *)p, v, memory_order_relaxed);
}
#endif

#include "engine/ide/fn.h"

typedef struct ide_ctx {
  const uint32_t *fns, *offset, *rules, *dep_offset, *deps;
  uint32_t *jf, *next, *mark, *work, *changed, *ctrl;
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

/* fns[f2] ∘ jf[src2] ∘ fns[f1] ∘ jf[src1], NIL sources left out. */
IDE_KFN weir_ide_fn ide_eval_rule(const ide_ctx *cx, uint32_t r) {
  const uint32_t *rule = cx->rules + (uint64_t)r * WEIR_IDE_RULE_WORDS;
  weir_ide_fn h = ide_load(cx, cx->fns, rule[2]);
  if (rule[0] != WEIR_IDE_NIL) {
    weir_ide_fn src = ide_load(cx, cx->jf, rule[0]);
    h = ide_fn_compose(&h, &src);
  }
  if (rule[1] != WEIR_IDE_NIL) {
    weir_ide_fn x = ide_load(cx, cx->jf, rule[1]);
    h = ide_fn_compose(&x, &h);
  }
  if (rule[3] != 0u) {
    weir_ide_fn g = ide_load(cx, cx->fns, rule[3]);
    h = ide_fn_compose(&g, &h);
  }
  return h;
}

/* The round's items: every target in a full round, else its worklist
 * (half ROUND & 1 of WORK). */
IDE_KFN uint32_t ide_round_items(const ide_ctx *cx) {
  if (cx->ctrl[WEIR_IDE_C_FULL] != 0u) return cx->pc.targets;
  return cx->ctrl[WEIR_IDE_C_WORK0 + (cx->ctrl[WEIR_IDE_C_ROUND] & 1u)];
}

IDE_KFN uint32_t ide_round_target(const ide_ctx *cx, uint32_t i) {
  if (cx->ctrl[WEIR_IDE_C_FULL] != 0u) return i;
  return cx->work[(uint64_t)(cx->ctrl[WEIR_IDE_C_ROUND] & 1u) * cx->pc.targets + i];
}

/* Target t in this round: recompute from JF; a change goes to NEXT and the
 * changed list (JF stays as it is: other targets of this round read it). */
IDE_KFN void ide_round_item(const ide_ctx *cx, uint32_t t) {
  uint32_t first = cx->offset[t], end = cx->offset[t + 1u];
  weir_ide_fn old = ide_load(cx, cx->jf, t), acc = old;
  for (uint32_t r = first; r < end; ++r) {
    weir_ide_fn c = ide_eval_rule(cx, r);
    acc = ide_fn_join(&acc, &c);
  }
  if (ide_fn_equal(&acc, &old)) return;
  ide_store(cx, cx->next, t, &acc);
  cx->changed[ide_add32(&cx->ctrl[WEIR_IDE_C_CHANGES], 1u)] = t;
}

/* Changed target i of this round, shared by `lanes` invocations (a
 * workgroup on a device, so that a source read by thousands of rules does
 * not fall to one invocation): the slot goes into JF, and each dependent
 * not yet marked in this epoch goes on the next worklist, once. */
IDE_KFN void ide_expand_item(const ide_ctx *cx, uint32_t i, uint32_t lane, uint32_t lanes) {
  uint32_t t = cx->changed[i], words = cx->pc.words, epoch = cx->ctrl[WEIR_IDE_C_EPOCH];
  uint32_t side = (cx->ctrl[WEIR_IDE_C_ROUND] & 1u) ^ 1u;
  for (uint32_t w = lane; w < words; w += lanes)
    cx->jf[(uint64_t)t * words + w] = cx->next[(uint64_t)t * words + w];
  for (uint32_t j = cx->dep_offset[t] + lane; j < cx->dep_offset[t + 1u]; j += lanes) {
    uint32_t u = cx->deps[j];
    if (ide_swap32(&cx->mark[u], epoch) == epoch) continue;
    uint32_t at = ide_add32(&cx->ctrl[WEIR_IDE_C_WORK0 + side], 1u);
    cx->work[(uint64_t)side * cx->pc.targets + at] = u;
  }
}

/* One invocation after every round: count it, retire its worklist and
 * changed list, and stop when the next worklist is empty (then JF holds
 * the fixed point). */
IDE_KFN void ide_advance(const ide_ctx *cx) {
  uint32_t *c = cx->ctrl, side = c[WEIR_IDE_C_ROUND] & 1u;
  if (ide_stopped(cx)) return;
  c[WEIR_IDE_C_UPDATES] += c[WEIR_IDE_C_CHANGES];
  c[WEIR_IDE_C_VISITS] += ide_round_items(cx);
  c[WEIR_IDE_C_WORK0 + side] = 0u;
  if (c[WEIR_IDE_C_WORK0 + (side ^ 1u)] == 0u) c[WEIR_IDE_C_DONE] = 1u;
  c[WEIR_IDE_C_ROUND] += 1u;
  c[WEIR_IDE_C_EPOCH] += 1u;
  c[WEIR_IDE_C_FULL] = 0u;
  c[WEIR_IDE_C_CHANGES] = 0u;
}

#endif
