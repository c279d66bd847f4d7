/* The IDE engine's device layout (phase 1, the jump-function fixed point;
 * see engine/ide/README.md): bindings, control words, push constants and the
 * rule record. Shared by the host driver (engine/ide/engine*.c), the host
 * kernels, the CUDA kernels (this header compiles as CUDA) and mirrored by
 * hand in programs/glsl/ide_common.glsl, which must agree word for word.
 *
 * A function slot is W u32 words: linear (W = 6) the weir_ide_linear_fn
 * struct as it is in memory (kind, reserved, a lo/hi, b lo/hi); typestate
 * (W = 1 + states) gen, then the row of each state. The ⊤ function is all
 * zero words in both families. */
#ifndef WEIR_PROGRAMS_IDE_LAYOUT_H
#define WEIR_PROGRAMS_IDE_LAYOUT_H

#include <stdint.h>

#define WEIR_IDE_NIL 0xFFFFFFFFu
#define WEIR_IDE_WORKGROUP 64u
#define WEIR_IDE_LINEAR_WORDS 6u

/* A rule is four words {src1, src2, f1, f2}; its contribution to its
 * target path edge is  fns[f2] ∘ jf[src2] ∘ fns[f1] ∘ jf[src1], where a NIL
 * source is left out (src1 NIL: a constant rule, fns[f1] itself) and
 * f2 = 0 is the identity (function 0 of every problem). */
#define WEIR_IDE_RULE_WORDS 4u

/* Bindings of every IDE program, in order. Phase 1 is delta-driven (see
 * engine/ide/README.md): a round recomputes only the targets on its
 * worklist, reading JF and writing the changed ones to NEXT (and to the
 * changed list); `ide_expand` then copies each changed slot back into JF
 * and puts the targets that depend on it on the next round's worklist. */
enum {
  WEIR_IDE_B_FNS = 0,     /* u32[fn_count * W] the problem's functions, then the seeds' constants */
  WEIR_IDE_B_OFFSET = 1,  /* u32[E + 1] rules of target t: [offset[t], offset[t + 1]) */
  WEIR_IDE_B_RULES = 2,   /* u32[R * 4] */
  WEIR_IDE_B_JF = 3,      /* u32[E * W] the jump functions: read by a round, written by expand */
  WEIR_IDE_B_NEXT = 4,    /* u32[E * W] a round's new functions (only changed slots are meaningful) */
  WEIR_IDE_B_DEP_OFFSET = 5, /* u32[E + 1] dependents of source s: [dep_offset[s], dep_offset[s + 1]) */
  WEIR_IDE_B_DEPS = 6,    /* u32[D] targets with a rule reading s, each once per source */
  WEIR_IDE_B_MARK = 7,    /* u32[E] the epoch in which t was last put on a worklist (0: never) */
  WEIR_IDE_B_WORK = 8,    /* u32[2 * E] two worklists: round r reads half r & 1, fills the other */
  WEIR_IDE_B_CHANGED = 9, /* u32[E] targets changed in the current round (ctrl[CHANGES] of them) */
  WEIR_IDE_B_CTRL = 10,   /* u32[WEIR_IDE_CTRL_WORDS] */
  WEIR_IDE_BINDINGS
};

/* Control words. The host writes them once before the first window (and
 * after a loop-budget overflow) and reads them once per window. */
enum {
  WEIR_IDE_C_ROUND = 0,    /* rounds done; round r reads worklist half r & 1 */
  WEIR_IDE_C_CHANGES = 1,  /* jump functions changed in the current round: the changed list's length */
  WEIR_IDE_C_DONE = 2,     /* 1: a round left the next worklist empty; every kernel is a no-op */
  WEIR_IDE_C_FULL = 3,     /* 1: the next round recomputes every target (round 0, a redo) */
  WEIR_IDE_C_OVERFLOW = 4, /* 1: a GLSL loop budget was cut (lavapipe): kernels stop, host redoes */
  WEIR_IDE_C_UPDATES = 5,  /* jump functions changed over all rounds (low 32 bits) */
  WEIR_IDE_C_EPOCH = 6,    /* marks of this epoch mean "on the next worklist"; >= 1, bumped per round and redo */
  WEIR_IDE_C_WORK0 = 7,    /* length of worklist half 0 */
  WEIR_IDE_C_WORK1 = 8,    /* length of worklist half 1 */
  WEIR_IDE_C_VISITS = 9,   /* targets recomputed over all rounds (low 32 bits): the work done */
  WEIR_IDE_CTRL_WORDS = 16
};

typedef struct weir_ide_push {
  uint32_t targets; /* E: path edges */
  uint32_t words;   /* W: words per function slot */
  uint32_t family;  /* WEIR_IDE_LINEAR or WEIR_IDE_TYPESTATE */
  uint32_t states;  /* typestate: 1..32 */
  uint32_t loop_check; /* GLSL: 2 (the loop-budget check); else unused */
  uint32_t pad0, pad1, pad2;
} weir_ide_push;

#endif
