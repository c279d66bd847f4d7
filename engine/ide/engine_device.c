/* Phase 1 of the IDE engine on the device: ONE upload of the rules (by
 * target and by source), the function table and zeroed state, then windows
 * of rounds (each round `round`, `expand`, `advance`: recompute the
 * worklist, commit the changes and build the next worklist, count) behind
 * one synchronization each, reading back only the 64-byte control block; at
 * the fixed point one download of the jump functions. The host never
 * touches a jump function or a worklist during the iteration. */
#include <stdlib.h>
#include <string.h>

#include "engine/ide/engine_device.h"
#include "programs/ide/ide_kernels.h"

/* Buffers in binding order (programs/ide/ide_layout.h). */
enum { FNS, OFFSET, RULES, JF, NEXT, DEP_OFFSET, DEPS, MARK, WORK, CHANGED, CTRL, BUFFERS };
static const char *const buffer_names[BUFFERS] = {
    "function table", "rule offsets", "rules", "jump functions", "new jump functions",
    "dependent offsets", "dependents", "worklist marks", "worklists", "changed list",
    "control block"};

static weir_status find_programs(weir_backend *b, uint32_t family, const weir_program *prog[3]) {
  const char *const names[3] = {family == WEIR_IDE_LINEAR ? "ide_round_linear" : "ide_round_typestate",
                                "ide_expand", "ide_advance"};
  weir_program_format format = weir_backend_format(b);
  for (int i = 0; i < 3; ++i) {
    prog[i] = weir_builtin_program(names[i]);
    if (!prog[i] || !weir_program_has_format(prog[i], format))
      return weir_fail(WEIR_ERR_UNSUPPORTED, "IDE engine: backend '%s' runs %s programs, and this "
                       "build has no %s version of program '%s'. Fix: build with that format's "
                       "compiler (glslc for spirv, nvcc for cuda), pick another --backend, or use "
                       "the reference solver (weir ide without --backend).", weir_backend_id(b),
                       weir_program_format_name(format), weir_program_format_name(format), names[i]);
  }
  return WEIR_OK;
}

/* Sizes of every buffer; a buffer past the per-binding limit is refused
 * (the IDE engine does not shard its relations). */
static weir_status plan(weir_backend *b, const ide_rules *r, uint64_t bytes[BUFFERS]) {
  uint64_t E = r->targets, W = r->words_per_fn;
  bytes[JF] = bytes[NEXT] = 4u * E * W;
  bytes[FNS] = 4u * (uint64_t)r->fn_total * W;
  bytes[OFFSET] = bytes[DEP_OFFSET] = 4u * (E + 1u);
  bytes[RULES] = 4u * WEIR_IDE_RULE_WORDS * r->count;
  bytes[DEPS] = 4u * r->dep_count;
  bytes[MARK] = bytes[CHANGED] = 4u * E;
  bytes[WORK] = 8u * E;
  bytes[CTRL] = 4u * WEIR_IDE_CTRL_WORDS;
  for (int i = 0; i < BUFFERS; ++i)
    if (!bytes[i]) bytes[i] = 4; /* no empty buffers */
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  WEIR_TRY(weir_backend_device_info(b, &info));
  if (E * W >= UINT32_MAX)
    return weir_fail(WEIR_ERR_UNSUPPORTED, "IDE engine: %llu path edges x %llu words per jump "
                     "function pass the 2^32 words a kernel indexes. Fix: use the reference solver "
                     "(weir ide without --backend).", (unsigned long long)E, (unsigned long long)W);
  for (int i = 0; i < BUFFERS; ++i)
    if (info.max_binding_bytes && bytes[i] > info.max_binding_bytes)
      return weir_fail(WEIR_ERR_UNSUPPORTED, "IDE engine: the %s need %llu bytes and backend '%s' "
                       "binds at most %llu bytes per buffer; the IDE engine does not split its "
                       "relations into shards. Fix: use a backend without that limit (--backend "
                       "cpu or cuda), or the reference solver (weir ide without --backend).",
                       buffer_names[i], (unsigned long long)bytes[i], weir_backend_id(b),
                       (unsigned long long)info.max_binding_bytes);
  return WEIR_OK;
}

static weir_status allocate(ide_device *d, const uint64_t bytes[BUFFERS]) {
  for (int i = 0; i < BUFFERS; ++i) {
    weir_status st = weir_allocate(d->backend, bytes[i], &d->buf[i]);
    if (st != WEIR_OK)
      return weir_fail(st, "IDE engine: allocating the %s (%llu bytes) on '%s' failed after "
                       "%llu bytes: %s Fix: free device memory or use the reference solver (weir "
                       "ide without --backend).", buffer_names[i], (unsigned long long)bytes[i],
                       weir_backend_id(d->backend), (unsigned long long)d->bytes, weir_last_error());
    d->bytes += bytes[i];
  }
  return WEIR_OK;
}

/* One upload: rules (by target and by source), functions, ⊤ (all zero)
 * jump functions, zero marks, and the control block asking for a full
 * first round in epoch 1 (so that no zeroed mark counts as set). */
static weir_status upload(ide_device *d, const ide_rules *r, const uint64_t bytes[BUFFERS]) {
  uint64_t zero_bytes = bytes[JF] > bytes[MARK] ? bytes[JF] : bytes[MARK];
  uint32_t *zeros = calloc(zero_bytes / 4u, 4u);
  if (!zeros)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IDE engine: no host memory for %llu bytes of "
                     "initial jump functions. Fix: free memory.", (unsigned long long)zero_bytes);
  uint32_t ctrl[WEIR_IDE_CTRL_WORDS] = {0};
  ctrl[WEIR_IDE_C_FULL] = ctrl[WEIR_IDE_C_EPOCH] = 1u;
  uint64_t E = r->targets;
  weir_upload_item items[8] = {{d->buf[FNS], 0, r->fn_words, 4u * r->fn_total * r->words_per_fn},
                               {d->buf[OFFSET], 0, r->offset, 4u * (E + 1u)},
                               {d->buf[RULES], 0, r->words, 4u * WEIR_IDE_RULE_WORDS * r->count},
                               {d->buf[DEP_OFFSET], 0, r->dep_offset, 4u * (E + 1u)},
                               {d->buf[DEPS], 0, r->deps, 4u * r->dep_count},
                               {d->buf[JF], 0, zeros, 4u * E * r->words_per_fn},
                               {d->buf[MARK], 0, zeros, 4u * E},
                               {d->buf[CTRL], 0, ctrl, sizeof ctrl}};
  size_t n = 0;
  weir_upload_item use[8];
  for (int i = 0; i < 8; ++i)
    if (items[i].bytes) use[n++] = items[i];
  weir_status st = weir_upload_many(d->backend, use, n);
  free(zeros);
  return st;
}

/* Workgroups of a round. A GPU gets one target per invocation (up to
 * 65535 workgroups); a CPU device (the cpu backend, lavapipe) 64, each
 * invocation taking a grid-stride share, since every workgroup costs it a
 * task (lavapipe: 262 typestate rounds over 80,020 targets took 17.5 s with
 * 256 workgroups, 7.1 s with 64); more after a loop-budget overflow. */
static uint32_t round_grid(weir_backend *b, uint64_t targets) {
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  uint64_t want = (targets + WEIR_IDE_WORKGROUP - 1u) / WEIR_IDE_WORKGROUP, cap = 65535u;
  if (weir_backend_device_info(b, &info) == WEIR_OK && strcmp(info.kind, "cpu") == 0) cap = 64u;
  return (uint32_t)(want < 1u ? 1u : want < cap ? want : cap);
}

/* A GLSL step cut short by lavapipe's loop budget did not advance: the
 * round is redone as a full one, recomputing every target from JF, with 4x
 * the workgroups (fewer targets per invocation). That is sound wherever the
 * cut fell: JF's slots hold functions of this or the previous round (an
 * expand spreads a slot's words one per invocation, and a spent budget
 * still lets a loop's current iteration finish), every one at or above
 * the fixed point, and a full round re-derives whatever a
 * lost change or worklist entry would have. A new epoch forgets the marks. */
static weir_status redo(ide_device *d, weir_step steps[3], uint64_t targets) {
  uint32_t max = (uint32_t)((targets + WEIR_IDE_WORKGROUP - 1u) / WEIR_IDE_WORKGROUP);
  if (steps[0].grid.x >= max || steps[0].grid.x >= 65535u)
    return weir_fail(WEIR_ERR_UNSUPPORTED, "IDE engine: round %u spent the loop budget of "
                     "backend '%s' (lavapipe ends every loop of a shader run after 65535 "
                     "iterations) with one target per invocation, so a contribution would be "
                     "lost. Fix: use --backend cpu or cuda, or the reference solver (weir ide "
                     "without --backend).", d->ctrl[WEIR_IDE_C_ROUND], weir_backend_id(d->backend));
  uint32_t grid = steps[0].grid.x > 16383u ? 65535u : steps[0].grid.x * 4u;
  steps[0].grid.x = steps[1].grid.x = grid < max ? grid : max;
  d->ctrl[WEIR_IDE_C_OVERFLOW] = d->ctrl[WEIR_IDE_C_CHANGES] = 0u;
  d->ctrl[WEIR_IDE_C_WORK0] = d->ctrl[WEIR_IDE_C_WORK0 + 1] = 0u;
  d->ctrl[WEIR_IDE_C_FULL] = 1u;
  d->ctrl[WEIR_IDE_C_EPOCH] += 1u;
  d->redos++;
  weir_upload_item item = {d->buf[CTRL], 0, d->ctrl, sizeof d->ctrl};
  return weir_upload_many(d->backend, &item, 1);
}

/* Windows of k rounds (4, doubling to 1024) until a round leaves the next
 * worklist empty. Every step has the same bindings; a round's and an
 * expand's grid is fixed for the window (one worklist entry per invocation
 * on a GPU), the invocations past the list's length return at once. */
static weir_status run(ide_device *d, const ide_rules *r, const weir_ide_problem *p) {
  weir_ide_push pc;
  memset(&pc, 0, sizeof pc);
  pc.targets = (uint32_t)r->targets, pc.words = r->words_per_fn;
  pc.family = p->family, pc.states = p->state_count, pc.loop_check = 2u;
  weir_grid grid = {round_grid(d->backend, r->targets), 1, 1}, one = {1, 1, 1};
  weir_step steps[3] = {{d->prog[0], d->buf, WEIR_IDE_BINDINGS, grid, &pc, sizeof pc},
                        {d->prog[1], d->buf, WEIR_IDE_BINDINGS, grid, &pc, sizeof pc},
                        {d->prog[2], d->buf, WEIR_IDE_BINDINGS, one, &pc, sizeof pc}};
  weir_range read = {d->buf[CTRL], 0, sizeof d->ctrl};
  void *out[1] = {d->ctrl};
  for (uint64_t k = 4;; k = k < 1024 ? 2 * k : k) {
    WEIR_TRY(weir_dispatch_repeated_sequence_read_ranges_into(d->backend, NULL, 0, steps, 3, k,
                                                              &read, 1, out, 1));
    d->windows++;
    if (d->ctrl[WEIR_IDE_C_OVERFLOW]) WEIR_TRY(redo(d, steps, r->targets));
    else if (d->ctrl[WEIR_IDE_C_DONE]) return WEIR_OK;
  }
}

/* At the fixed point JF holds the jump functions. */
static weir_status download(ide_device *d, const ide_rules *r, ide_solver *s) {
  uint64_t words = r->targets * r->words_per_fn;
  uint32_t *w = malloc((words ? words : 1) * sizeof *w);
  s->jf = malloc((r->targets ? r->targets : 1) * sizeof *s->jf);
  if (!w || !s->jf) {
    free(w);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IDE engine: no host memory for %llu jump "
                     "functions. Fix: free memory.", (unsigned long long)r->targets);
  }
  s->jf_cap = r->targets;
  weir_range range = {d->buf[JF], 0, 4u * words};
  void *out[1] = {w};
  weir_status st = words ? weir_download_ranges_into(d->backend, &range, 1, out, 1) : WEIR_OK;
  ide_ctx cx;
  memset(&cx, 0, sizeof cx);
  cx.pc.words = r->words_per_fn, cx.pc.family = s->p->family, cx.pc.states = s->p->state_count;
  for (uint64_t i = 0; st == WEIR_OK && i < r->targets; ++i) s->jf[i] = ide_load(&cx, w, i);
  free(w);
  return st;
}

weir_status ide_device_solve(ide_device *d, const ide_rules *r, ide_solver *s) {
  uint64_t bytes[BUFFERS];
  WEIR_TRY(find_programs(d->backend, s->p->family, d->prog));
  WEIR_TRY(plan(d->backend, r, bytes));
  weir_status st = allocate(d, bytes);
  if (st == WEIR_OK) st = upload(d, r, bytes);
  if (st == WEIR_OK) st = run(d, r, s->p);
  if (st == WEIR_OK) st = download(d, r, s);
  for (int i = 0; i < BUFFERS; ++i)
    if (d->buf[i].owner) weir_free(d->backend, d->buf[i]);
  return st;
}
