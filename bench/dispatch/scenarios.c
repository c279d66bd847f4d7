/* The built-in scenarios: setting up their buffers and steps once per backend,
 * and one run of each. Runs allocate nothing, so the timings measure only the
 * calls under test. */
#include <stdlib.h>
#include <string.h>

#include "bench/dispatch/scenarios.h"

/* Push constants for a built-in program when the user gave none: the layouts
 * of programs/generic.h with value 1 and count = the bound buffer's words. */
static weir_status derive_push(bench_state *s) {
  const weir_bench_params *p = s->params;
  uint32_t want = s->program->push_constant_bytes / 4;
  uint32_t words = (uint32_t)(p->buffer_bytes / 4 > UINT32_MAX ? UINT32_MAX : p->buffer_bytes / 4);
  const char *name = s->program->name;
  s->push_bytes = want * 4;
  if (p->push_words) {
    if (p->push_words != want)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "program '%s' takes %u push-constant words, --push gave %u. "
                       "Fix: give exactly %u comma-separated values.",
                       name, want, p->push_words, want);
    memcpy(s->push, p->push, want * 4);
    return WEIR_OK;
  }
  memset(s->push, 0, sizeof s->push);
  if (strcmp(name, "fill_u32") == 0 || strcmp(name, "add_u32") == 0) {
    s->push[0] = 1;
    s->push[1] = words;
  } else if (strcmp(name, "copy_u32") == 0) {
    s->push[0] = words;
  } else if (strcmp(name, "atomic_add_u32") == 0) {
    s->push[0] = 1;
  }
  return WEIR_OK;
}

static weir_status alloc_zeroed(weir_backend *b, uint64_t bytes, weir_buffer *out) {
  WEIR_TRY(weir_allocate(b, bytes, out));
  void *zeros = calloc(1, (size_t)bytes);
  if (!zeros)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "%llu bytes of host memory for initial contents. Fix: lower the "
                     "sizes (--buffer-size, --readback-max, --copy-size).",
                     (unsigned long long)bytes);
  weir_status st = weir_upload(b, *out, zeros, bytes);
  free(zeros);
  return st;
}

static weir_status init_dispatch(bench_state *s) {
  const weir_bench_params *p = s->params;
  s->program = p->user_program ? p->user_program : weir_backend_find_program(s->backend, p->program);
  if (!s->program)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "no program named '%s' on backend %s. Fix: use a built-in program "
                     "(noop, fill_u32, copy_u32, add_u32, counter_u32, atomic_add_u32).",
                     p->program, weir_backend_id(s->backend));
  s->binding_count = s->program->binding_count;
  for (uint32_t i = 0; i < s->binding_count; ++i)
    WEIR_TRY(alloc_zeroed(s->backend, p->buffer_bytes, &s->bindings[i]));
  WEIR_TRY(derive_push(s));
  s->repeat = p->repeat ? p->repeat : (p->group ? p->steps / p->group : 0);
  uint64_t repeated = 1 + s->repeat * p->group;
  uint64_t n = p->steps > repeated ? p->steps : repeated;
  s->steps = calloc((size_t)n, sizeof *s->steps);
  if (!s->steps)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "%llu steps do not fit in host memory. Fix: lower --steps or "
                     "--repeat.",
                     (unsigned long long)n);
  s->step_count = (size_t)n;
  for (size_t i = 0; i < s->step_count; ++i)
    s->steps[i] =
        (weir_step){s->program, s->bindings, s->binding_count, p->grid, s->push, s->push_bytes};
  return WEIR_OK;
}

static weir_status init_upload(bench_state *s) {
  const weir_bench_params *p = s->params;
  size_t n = (size_t)p->upload_count;
  s->upload_buffers = calloc(n, sizeof *s->upload_buffers);
  s->upload_items = calloc(n, sizeof *s->upload_items);
  s->upload_data = calloc(1, (size_t)p->upload_bytes);
  if (!s->upload_buffers || !s->upload_items || !s->upload_data)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "host memory for %zu uploads of %llu bytes. Fix: lower "
                     "--upload-count or --upload-size.",
                     n, (unsigned long long)p->upload_bytes);
  for (size_t i = 0; i < n; ++i) {
    WEIR_TRY(weir_allocate(s->backend, p->upload_bytes, &s->upload_buffers[i]));
    s->upload_items[i] =
        (weir_upload_item){s->upload_buffers[i], 0, s->upload_data, p->upload_bytes};
  }
  return WEIR_OK;
}

weir_status weir_bench_state_init(bench_state *s, weir_backend *backend,
                                  const weir_bench_params *params, int need_dispatch,
                                  int need_upload, int need_readback, int need_copy) {
  memset(s, 0, sizeof *s);
  s->backend = backend;
  s->params = params;
  if (need_dispatch) WEIR_TRY(init_dispatch(s));
  if (need_upload) WEIR_TRY(init_upload(s));
  if (need_readback) {
    WEIR_TRY(alloc_zeroed(backend, params->readback_max, &s->readback_buffer));
    s->readback_host = malloc((size_t)params->readback_max);
    if (!s->readback_host)
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                       "%llu bytes of host memory for read-backs. Fix: lower "
                       "--readback-max.",
                       (unsigned long long)params->readback_max);
  }
  if (need_copy) {
    WEIR_TRY(alloc_zeroed(backend, params->copy_bytes, &s->copy_src));
    WEIR_TRY(weir_allocate(backend, params->copy_bytes, &s->copy_dst));
  }
  return WEIR_OK;
}

/* Buffers die with the backend instance; only host memory is freed here. */
void weir_bench_state_free(bench_state *s) {
  free(s->steps);
  free(s->upload_buffers);
  free(s->upload_items);
  free(s->upload_data);
  free(s->readback_host);
  memset(s, 0, sizeof *s);
}

static weir_status run_body(bench_state *s, const bench_case *c) {
  weir_backend *b = s->backend;
  const weir_bench_params *p = s->params;
  switch (c->kind) {
    case BENCH_FENCE:
      for (uint64_t i = 0; i < c->items; ++i)
        WEIR_TRY(weir_dispatch(b, s->program, s->bindings, s->binding_count, p->grid, s->push,
                               s->push_bytes));
      return WEIR_OK;
    case BENCH_SEQUENCE:
      return weir_dispatch_sequence_read_ranges_into(b, s->steps, (size_t)c->items, NULL, 0, NULL,
                                                     0);
    case BENCH_REPEATED:
      return weir_dispatch_repeated_sequence_read_ranges_into(
          b, s->steps, 1, s->steps + 1, (size_t)p->group, s->repeat, NULL, 0, NULL, 0);
    case BENCH_UPLOAD_MANY:
      return weir_upload_many(b, s->upload_items, (size_t)p->upload_count);
    case BENCH_UPLOAD_SINGLE:
      for (uint64_t i = 0; i < p->upload_count; ++i)
        WEIR_TRY(weir_upload(b, s->upload_buffers[i], s->upload_data, p->upload_bytes));
      return WEIR_OK;
    case BENCH_READBACK:
      return weir_download_range_into(b, s->readback_buffer, 0, c->bytes, s->readback_host);
    case BENCH_COPY:
      WEIR_TRY(weir_copy(b, s->copy_dst, 0, s->copy_src, 0, c->bytes));
      return weir_finish(b);
  }
  return weir_fail(WEIR_ERR_INTERNAL, "unknown scenario kind %d. Fix: report this bug.",
                   (int)c->kind);
}

weir_status weir_bench_case_run(bench_state *s, bench_case *c, uint64_t *wall_ns) {
  weir_backend_reset_stats(s->backend);
  uint64_t t0 = weir_bench_now_ns();
  weir_status st = run_body(s, c);
  uint64_t t1 = weir_bench_now_ns();
  weir_backend_get_stats(s->backend, &c->stats);
  *wall_ns = t1 - t0;
  c->host_t0 = t0;
  c->host_t1 = t1;
  c->host_t2 = 0;
  return st;
}

weir_status weir_bench_case_wait(bench_state *s, bench_case *c) {
  weir_status st = weir_finish(s->backend);
  c->host_t2 = weir_bench_now_ns();
  return st;
}

weir_status weir_bench_case_timed(bench_state *s, bench_case *c, uint64_t start_ns,
                                  uint64_t *device_ns) {
  /* Host spans around the call and the weir_finish after it (untimed for the
   * samples), for --trace next to the device spans. */
  c->host_t0 = weir_bench_now_ns();
  c->trace_start_ns = c->host_t0 - start_ns;
  WEIR_TRY(weir_dispatch_sequence_timed(s->backend, s->steps, (size_t)c->items, c->step_ns));
  c->host_t1 = weir_bench_now_ns();
  WEIR_TRY(weir_bench_case_wait(s, c));
  uint64_t sum = 0;
  for (uint64_t i = 0; i < c->items; ++i) sum += c->step_ns[i];
  *device_ns = sum;
  return WEIR_OK;
}
