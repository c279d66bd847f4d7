/* Runs the built-in scenarios on one backend: builds one case per scenario
 * (one per size for ranged-readback), interleaves their runs, and turns the
 * samples into records with ratios between scenarios of the same run. */
#include <stdlib.h>
#include <string.h>

#include "bench/dispatch/scenarios.h"

const char *const weir_bench_scenario_names[] = {
    "fence-per-dispatch", "sequence",        "repeated", "upload-many",
    "upload-single",      "ranged-readback", "copy",     NULL};

const char weir_bench_default_scenarios[] = "fence-per-dispatch,sequence,repeated";

void weir_bench_default_params(weir_bench_params *p) {
  memset(p, 0, sizeof *p);
  p->warmup = 1;
  p->runs = 0; /* a time budget: */
  p->min_time_s = 0.5;
  p->steps = 1000;
  p->group = 4;
  p->program = "noop";
  p->buffer_bytes = 64u << 10;
  p->upload_bytes = 64u << 10;
  p->upload_count = 64;
  p->readback_min = 4;
  p->readback_max = 64u << 20;
  p->copy_bytes = 16u << 20;
  p->device_time = 1;
}

/* Is `name` in the comma-separated `list` (NULL: everything)? */
static int selected(const char *list, const char *name) {
  if (!list) return 1;
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0) return 1;
    p += len + (end ? 1 : 0);
  }
  return 0;
}

weir_status weir_bench_check_scenarios(const char *list) {
  for (const char *p = list; p && *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    int known = 0;
    for (size_t i = 0; weir_bench_scenario_names[i]; ++i)
      known |= strlen(weir_bench_scenario_names[i]) == len &&
               strncmp(p, weir_bench_scenario_names[i], len) == 0;
    if (!known)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "unknown scenario '%.*s'. Fix: choose from fence-per-dispatch, "
                       "sequence, repeated, upload-many, upload-single, ranged-readback, copy.",
                       (int)len, p);
    p += len + (end ? 1 : 0);
  }
  return WEIR_OK;
}

weir_status weir_bench_check_params(const weir_bench_params *p) {
  if (p->runs == 0 && !(p->min_time_s > 0 && p->min_time_s <= 3600))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "min-time %g s with runs 0: a time budget needs 0 < seconds <= 3600. Fix: "
                     "give --min-time 0.5, or a run count with --runs N.",
                     p->min_time_s);
  if (p->steps == 0 || p->group == 0 || p->upload_count == 0 ||
      p->upload_bytes == 0 || p->buffer_bytes < 4 || p->readback_min == 0 ||
      p->readback_max < p->readback_min || p->copy_bytes == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "steps %llu, group %llu, upload %llu x %llu bytes, buffer "
                     "%llu bytes, read-back %llu..%llu bytes, copy %llu bytes: each must be "
                     ">= 1 (buffer >= 4, read-back min <= max). Fix: raise the zero knob.",
                     (unsigned long long)p->steps, (unsigned long long)p->group,
                     (unsigned long long)p->upload_count, (unsigned long long)p->upload_bytes,
                     (unsigned long long)p->buffer_bytes, (unsigned long long)p->readback_min,
                     (unsigned long long)p->readback_max, (unsigned long long)p->copy_bytes);
  const weir_program *prog = p->user_program ? p->user_program : weir_builtin_program(p->program);
  if (p->user_program && p->user_program->push_constant_bytes && !p->push_words)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "program '%s' (from a file) takes %u push-constant words and weir cannot "
                     "guess them. Fix: give --push v,v,... with %u values.",
                     prog->name, prog->push_constant_bytes / 4, prog->push_constant_bytes / 4);
  if (!prog)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "no built-in program named '%s'. Fix: use noop, fill_u32, copy_u32, "
                     "add_u32, counter_u32 or atomic_add_u32, or a program file (--program "
                     "FILE.spv|.weirprog|.ptx|.so[:ENTRY]).",
                     p->program ? p->program : "(null)");
  if (p->push_words && p->push_words * 4 != prog->push_constant_bytes)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "program '%s' takes %u push-constant words, --push gave %u. Fix: give "
                     "exactly %u comma-separated values.",
                     prog->name, prog->push_constant_bytes / 4, p->push_words,
                     prog->push_constant_bytes / 4);
  return WEIR_OK;
}

typedef struct case_list {
  bench_case *cases;
  size_t count;
} case_list;

static weir_status add_case(case_list *list, weir_bench_results *results, bench_kind kind,
                            const char *scenario, uint64_t items, uint64_t bytes,
                            const weir_bench_params *p, int with_device) {
  bench_case *c = &list->cases[list->count++];
  memset(c, 0, sizeof *c);
  c->kind = kind;
  c->items = items;
  c->bytes = bytes;
  weir_bench_record *r;
  WEIR_TRY(weir_bench_results_add(results, &r));
  c->record = results->count - 1;
  snprintf(r->scenario, sizeof r->scenario, "%s", scenario);
  /* A time budget picks the runs later: room for the most it may pick. */
  size_t capacity = p->runs ? p->runs : WEIR_BENCH_MAX_RUNS;
  c->wall = calloc(capacity, sizeof *c->wall);
  c->device = with_device ? calloc(capacity, sizeof *c->device) : NULL;
  c->step_ns = with_device ? calloc((size_t)items, sizeof *c->step_ns) : NULL;
  if (!c->wall || (with_device && (!c->device || !c->step_ns)))
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "host memory for %zu samples of %llu steps. Fix: lower --runs or "
                     "--steps.",
                     capacity, (unsigned long long)items);
  return WEIR_OK;
}

static weir_status build_cases(case_list *list, weir_bench_results *results, const char *sel,
                               const weir_bench_params *p, uint64_t repeat) {
  size_t sizes = 0;
  for (uint64_t n = p->readback_min; n <= p->readback_max && n; n *= 16) ++sizes;
  list->cases = calloc(8 + sizes, sizeof *list->cases);
  if (!list->cases)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "host memory for cases. Fix: free memory.");
  /* The three dispatch scenarios run the same work, so the device time (a
   * timed-dispatch run of the steps one by one) is measured once, with
   * `sequence`, or with `repeated` when sequence is not selected. */
  int dev = p->device_time;
  if (selected(sel, "fence-per-dispatch"))
    WEIR_TRY(add_case(list, results, BENCH_FENCE, "fence-per-dispatch", p->steps, 0, p, 0));
  if (selected(sel, "sequence"))
    WEIR_TRY(add_case(list, results, BENCH_SEQUENCE, "sequence", p->steps, 0, p, dev));
  if (selected(sel, "repeated"))
    WEIR_TRY(add_case(list, results, BENCH_REPEATED, "repeated", 1 + repeat * p->group, 0, p,
                      dev && !selected(sel, "sequence")));
  if (selected(sel, "upload-many"))
    WEIR_TRY(add_case(list, results, BENCH_UPLOAD_MANY, "upload-many", p->upload_count,
                      p->upload_bytes, p, 0));
  if (selected(sel, "upload-single"))
    WEIR_TRY(add_case(list, results, BENCH_UPLOAD_SINGLE, "upload-single", p->upload_count,
                      p->upload_bytes, p, 0));
  if (selected(sel, "ranged-readback"))
    for (uint64_t n = p->readback_min; n <= p->readback_max && n; n *= 16)
      WEIR_TRY(add_case(list, results, BENCH_READBACK, "ranged-readback", 1, n, p, 0));
  if (selected(sel, "copy"))
    WEIR_TRY(add_case(list, results, BENCH_COPY, "copy", 1, p->copy_bytes, p, 0));
  return WEIR_OK;
}

static int is_dispatch(bench_kind k) {
  return k == BENCH_FENCE || k == BENCH_SEQUENCE || k == BENCH_REPEATED;
}

static void fill_record(weir_bench_record *r, bench_case *c, const bench_state *s,
                        const weir_bench_params *p, const weir_device_info *info,
                        uint64_t start_ns) {
  snprintf(r->backend, sizeof r->backend, "%s", info->backend_id);
  snprintf(r->spec, sizeof r->spec, "%s", info->spec);
  snprintf(r->device, sizeof r->device, "%s", info->name);
  r->timestamps_are_device = info->timestamps_are_device;
  r->warmup = p->warmup;
  r->runs = c->runs;
  r->items = c->items;
  r->bytes = c->bytes;
  r->stats = c->stats;
  snprintf(r->driver, sizeof r->driver, "%s", info->driver);
  if (c->host_t2) {
    r->has_host = 1;
    r->host_start_ns = c->host_t0 - start_ns;
    r->host_submit_ns = c->host_t1 - c->host_t0;
    r->host_wait_ns = c->host_t2 - c->host_t1;
  }
  r->wall_samples = weir_bench_samples_copy(c->wall, c->runs); /* before the sort */
  r->wall_ns = weir_bench_summarise(c->wall, c->runs);
  if (is_dispatch(c->kind)) {
    snprintf(r->program, sizeof r->program, "%s", s->program->name);
    r->steps = c->kind == BENCH_REPEATED ? 1 : c->items;
    r->group = c->kind == BENCH_REPEATED ? p->group : 0;
    r->repeat = c->kind == BENCH_REPEATED ? s->repeat : 0;
    r->grid = p->grid;
    r->bytes = s->binding_count ? p->buffer_bytes : 0;
    r->count = s->binding_count;
    r->item = "dispatch";
  } else if (c->kind == BENCH_UPLOAD_MANY || c->kind == BENCH_UPLOAD_SINGLE) {
    r->count = c->items;
    r->item = "upload";
  } else {
    r->count = 1;
    r->item = c->kind == BENCH_COPY ? "copy" : "readback";
  }
  if (c->device) {
    r->has_device = 1;
    r->device_samples = weir_bench_samples_copy(c->device, c->runs);
    r->device_ns = weir_bench_summarise(c->device, c->runs);
    /* The trace keeps the latest timed run's steps; ownership moves to r. */
    r->trace_ns = c->step_ns;
    c->step_ns = NULL;
    r->trace_count = (size_t)c->items;
    r->trace_start_ns = c->trace_start_ns;
    r->trace_step_bytes = r->bytes;
    r->trace_names = calloc(r->trace_count, sizeof *r->trace_names);
    if (!r->trace_names) r->trace_count = 0;
    for (size_t i = 0; i < r->trace_count; ++i) r->trace_names[i] = s->program->name;
  }
}

/* One timed sample: the wall time of a run and, for a case with device
 * time, the sum of a timed-dispatch run's step times. `last`: the case's
 * final run (without device time the trace's host spans come from it). */
static weir_status sample(bench_state *s, bench_case *c, uint64_t start_ns, int last) {
  uint64_t wall = 0, device = 0;
  WEIR_TRY(weir_bench_case_run(s, c, &wall));
  if (!c->device && last) WEIR_TRY(weir_bench_case_wait(s, c));
  if (c->device) WEIR_TRY(weir_bench_case_timed(s, c, start_ns, &device));
  c->wall[c->runs] = wall;
  if (c->device) c->device[c->runs] = device;
  c->runs++;
  return WEIR_OK;
}

/* A case whose runs are done: its record, and its line as it completes. */
static void complete(bench_case *c, const bench_state *s, const weir_bench_params *p,
                     const weir_device_info *info, weir_bench_results *results) {
  weir_bench_record *r = &results->records[c->record];
  fill_record(r, c, s, p, info, results->start_ns);
  if (p->lines) {
    weir_bench_print_line(r, p->lines);
    fflush(p->lines);
  }
}

static weir_status case_failed(weir_status st, const bench_case *c, const bench_state *s,
                               const weir_bench_results *results) {
  return weir_fail_context(st, "bench %s on %s", results->records[c->record].scenario,
                           weir_backend_id(s->backend));
}

/* --runs N: rounds. In round r each case runs its warm-up runs and then its
 * timed run r. Interleaving makes clock drift hit every scenario alike;
 * warming each case right before its timed run means no scenario inherits a
 * cache the previous one evicted (a 64 MiB read-back before a 4 MiB upload,
 * say). Odd rounds run the cases in reverse order, so that of two neighbours
 * neither is always the one that follows a memory-heavy scenario. A case is
 * complete after its run in the last round. */
static weir_status run_rounds(bench_state *s, case_list *list, const weir_bench_params *p,
                              const weir_device_info *info, weir_bench_results *results) {
  for (uint32_t r = 0; r < p->runs; ++r)
    for (size_t k = 0; k < list->count; ++k) {
      bench_case *c = &list->cases[r % 2 ? list->count - 1 - k : k];
      uint64_t wall = 0;
      weir_status st = WEIR_OK;
      for (uint32_t w = 0; st == WEIR_OK && w < p->warmup; ++w)
        st = weir_bench_case_run(s, c, &wall);
      if (st == WEIR_OK) st = sample(s, c, results->start_ns, r + 1 == p->runs);
      if (st != WEIR_OK) return case_failed(st, c, s, results);
      if (r + 1 == p->runs) complete(c, s, p, info, results);
    }
  return WEIR_OK;
}

/* A time budget (runs 0): each case on its own, one after the other, so that
 * it completes (and prints its line) before the next starts. Its warm-up
 * runs, one timed run, then as many more as fill min_time_s at the first
 * one's cost (its timed-dispatch run included), within
 * WEIR_BENCH_MIN_RUNS..WEIR_BENCH_MAX_RUNS. */
static weir_status run_budget(bench_state *s, case_list *list, const weir_bench_params *p,
                              const weir_device_info *info, weir_bench_results *results) {
  uint64_t budget = (uint64_t)(p->min_time_s * 1e9);
  for (size_t k = 0; k < list->count; ++k) {
    bench_case *c = &list->cases[k];
    uint64_t wall = 0;
    weir_status st = WEIR_OK;
    for (uint32_t w = 0; st == WEIR_OK && w < p->warmup; ++w)
      st = weir_bench_case_run(s, c, &wall);
    uint64_t t0 = weir_bench_now_ns();
    if (st == WEIR_OK) st = sample(s, c, results->start_ns, 0);
    uint64_t cost = weir_bench_now_ns() - t0;
    uint64_t n = cost ? (budget + cost - 1) / cost : WEIR_BENCH_MAX_RUNS;
    if (n < WEIR_BENCH_MIN_RUNS) n = WEIR_BENCH_MIN_RUNS;
    if (n > WEIR_BENCH_MAX_RUNS) n = WEIR_BENCH_MAX_RUNS;
    while (st == WEIR_OK && c->runs < n) st = sample(s, c, results->start_ns, c->runs + 1 == n);
    if (st != WEIR_OK) return case_failed(st, c, s, results);
    complete(c, s, p, info, results);
  }
  return WEIR_OK;
}

static double per_item(const weir_bench_record *r) {
  return r->items ? (double)r->wall_ns.median / (double)r->items : 0.0;
}

/* Ratios only between records of this backend (indices [first, count)). */
static void add_ratios(weir_bench_results *results, size_t first) {
  static const char *const pairs[][2] = {{"fence-per-dispatch", "sequence"},
                                         {"repeated", "sequence"},
                                         {"upload-single", "upload-many"}};
  for (size_t i = first; i < results->count; ++i)
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; ++k) {
      weir_bench_record *r = &results->records[i];
      if (strcmp(r->scenario, pairs[k][0]) != 0) continue;
      for (size_t j = first; j < results->count; ++j) {
        const weir_bench_record *base = &results->records[j];
        if (strcmp(base->scenario, pairs[k][1]) != 0 || per_item(base) <= 0) continue;
        snprintf(r->ratio_to, sizeof r->ratio_to, "%s", base->scenario);
        r->ratio = per_item(r) / per_item(base);
      }
    }
}

static void free_cases(case_list *list) {
  for (size_t i = 0; i < list->count; ++i) {
    free(list->cases[i].wall);
    free(list->cases[i].device);
    free(list->cases[i].step_ns);
  }
  free(list->cases);
}

weir_status weir_bench_run_scenarios(const char *spec, const char *scenarios,
                                     const weir_bench_params *params, weir_bench_results *results,
                                     FILE *progress) {
  WEIR_TRY(weir_bench_check_params(params));
  WEIR_TRY(weir_bench_check_scenarios(scenarios));
  weir_open_options options = WEIR_OPEN_OPTIONS_INIT;
  weir_backend *backend = NULL;
  WEIR_TRY(weir_backend_open_ex(spec, &options, &backend));
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  weir_status st = weir_backend_device_info(backend, &info);
  size_t first = results->count;
  bench_state state = {0};
  case_list list = {0};
  int disp = selected(scenarios, "fence-per-dispatch") || selected(scenarios, "sequence") ||
             selected(scenarios, "repeated");
  int up = selected(scenarios, "upload-many") || selected(scenarios, "upload-single");
  if (st == WEIR_OK)
    st = weir_bench_state_init(&state, backend, params, disp, up,
                               selected(scenarios, "ranged-readback"), selected(scenarios, "copy"));
  if (st == WEIR_OK) st = build_cases(&list, results, scenarios, params, state.repeat);
  if (st == WEIR_OK && progress && params->runs)
    fprintf(progress, "bench: %s (%s): %zu scenario runs x %u (each after %u warm-up)\n", info.spec,
            info.name, list.count, params->runs, params->warmup);
  else if (st == WEIR_OK && progress)
    fprintf(progress, "bench: %s (%s): %zu scenario runs one after another, each %u warm-up then "
            "%g s of timed runs (%d to %d; --runs N for exactly N)\n", info.spec, info.name, list.count,
            params->warmup, params->min_time_s, WEIR_BENCH_MIN_RUNS, WEIR_BENCH_MAX_RUNS);
  if (st == WEIR_OK)
    st = params->runs ? run_rounds(&state, &list, params, &info, results)
                      : run_budget(&state, &list, params, &info, results);
  int verified = -1;
  if (st == WEIR_OK && disp && params->verify)
    st = weir_bench_verify_step(backend, &state.steps[0], params->buffer_bytes, results, progress,
                                &verified);
  if (st == WEIR_OK) {
    /* The records were filled as their cases completed. */
    for (size_t i = 0; i < list.count; ++i)
      if (is_dispatch(list.cases[i].kind)) results->records[list.cases[i].record].verified = verified;
    add_ratios(results, first);
  } else {
    /* No half-filled records: drop this backend's. */
    for (size_t i = first; i < results->count; ++i) weir_bench_record_release(&results->records[i]);
    results->count = first;
  }
  free_cases(&list);
  weir_bench_state_free(&state);
  weir_backend_close(backend);
  return st;
}

/* The reference of --verify on the cpu backend, without timing anything: the
 * program's host code defines the expected bytes. */
weir_status weir_bench_verify_reference(const weir_bench_params *params,
                                        weir_bench_results *results) {
  weir_backend *backend = NULL;
  WEIR_TRY(weir_backend_open("cpu", &backend));
  bench_state state = {0};
  int verified = -1;
  weir_status st = weir_bench_state_init(&state, backend, params, 1, 0, 0, 0);
  if (st == WEIR_OK)
    st = weir_bench_verify_step(backend, &state.steps[0], params->buffer_bytes, results, NULL,
                                &verified);
  weir_bench_state_free(&state);
  weir_backend_close(backend);
  if (st != WEIR_OK) return weir_fail_context(st, "bench --verify: reference run on cpu");
  return WEIR_OK;
}
