/* Phase 1 of the IDE engine on the device: ONE upload of the rules, the
 * function table and zeroed state, then windows of rounds (each round two
 * parity steps, one of which runs, and one `advance`) behind one
 * synchronization each, reading back only the 64-byte control block; at
 * the fixed point one download of the jump functions. The host never
 * touches a jump function during the iteration. */
#include <stdlib.h>
#include <string.h>

#include "engine/ide/engine_device.h"
#include "programs/ide/ide_kernels.h"

enum { JF_A, JF_B, CHG_A, CHG_B, FNS, OFFSET, RULES, CTRL, BUFFERS };
static const char *const buffer_names[BUFFERS] = {
    "jump functions (A)", "jump functions (B)", "changed flags (A)", "changed flags (B)",
    "function table", "rule offsets", "rules", "control block"};

static weir_status find_programs(weir_backend *b, uint32_t family, const weir_program *prog[2]) {
  const char *const names[2] = {family == WEIR_IDE_LINEAR ? "ide_round_linear" : "ide_round_typestate",
                                "ide_advance"};
  weir_program_format format = weir_backend_format(b);
  for (int i = 0; i < 2; ++i) {
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
  bytes[JF_A] = bytes[JF_B] = 4u * E * W;
  bytes[CHG_A] = bytes[CHG_B] = 4u * E;
  bytes[FNS] = 4u * (uint64_t)r->fn_total * W;
  bytes[OFFSET] = 4u * (E + 1u);
  bytes[RULES] = 4u * WEIR_IDE_RULE_WORDS * r->count;
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

/* One upload: rules, functions, offsets, ⊤ (all zero) for buffer A, and
 * the control block asking for a full first round. */
static weir_status upload(ide_device *d, const ide_rules *r, const uint64_t bytes[BUFFERS]) {
  uint32_t *zeros = calloc(bytes[JF_A] / 4u, 4u);
  if (!zeros)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "IDE engine: no host memory for %llu bytes of "
                     "initial jump functions. Fix: free memory.", (unsigned long long)bytes[JF_A]);
  uint32_t ctrl[WEIR_IDE_CTRL_WORDS] = {0};
  ctrl[WEIR_IDE_C_FULL] = 1u;
  weir_upload_item items[5] = {{d->buf[FNS], 0, r->fn_words, 4u * r->fn_total * r->words_per_fn},
                               {d->buf[OFFSET], 0, r->offset, 4u * (r->targets + 1u)},
                               {d->buf[RULES], 0, r->words, 4u * WEIR_IDE_RULE_WORDS * r->count},
                               {d->buf[JF_A], 0, zeros, bytes[JF_A]},
                               {d->buf[CTRL], 0, ctrl, sizeof ctrl}};
  size_t n = 0;
  weir_upload_item use[5];
  for (int i = 0; i < 5; ++i)
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

/* A GLSL round cut short by lavapipe's loop budget wrote only OUT and did
 * not advance: the same round is redone from IN, recomputing every target,
 * with 4x the workgroups (fewer targets per invocation). */
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
  d->ctrl[WEIR_IDE_C_FULL] = 1u;
  d->redos++;
  weir_upload_item item = {d->buf[CTRL], 0, d->ctrl, sizeof d->ctrl};
  return weir_upload_many(d->backend, &item, 1);
}

/* Windows of k rounds (4, doubling to 1024) until a round changes nothing. */
static weir_status run(ide_device *d, const ide_rules *r, const weir_ide_problem *p) {
  weir_ide_push pc[2];
  memset(pc, 0, sizeof pc);
  for (uint32_t i = 0; i < 2; ++i) {
    pc[i].targets = (uint32_t)r->targets, pc[i].words = r->words_per_fn;
    pc[i].family = p->family, pc[i].states = p->state_count;
    pc[i].parity = i, pc[i].loop_check = 2u;
  }
  weir_buffer even[WEIR_IDE_BINDINGS] = {d->buf[FNS], d->buf[OFFSET], d->buf[RULES], d->buf[JF_A],
                                         d->buf[JF_B], d->buf[CHG_A], d->buf[CHG_B], d->buf[CTRL]};
  weir_buffer odd[WEIR_IDE_BINDINGS] = {d->buf[FNS], d->buf[OFFSET], d->buf[RULES], d->buf[JF_B],
                                        d->buf[JF_A], d->buf[CHG_B], d->buf[CHG_A], d->buf[CTRL]};
  weir_grid grid = {round_grid(d->backend, r->targets), 1, 1}, one = {1, 1, 1};
  weir_step steps[3] = {{d->prog[0], even, WEIR_IDE_BINDINGS, grid, &pc[0], sizeof pc[0]},
                        {d->prog[0], odd, WEIR_IDE_BINDINGS, grid, &pc[1], sizeof pc[1]},
                        {d->prog[1], even, WEIR_IDE_BINDINGS, one, &pc[0], sizeof pc[0]}};
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

/* At the fixed point both buffers hold the same functions: A is read. */
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
  weir_range range = {d->buf[JF_A], 0, 4u * words};
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
