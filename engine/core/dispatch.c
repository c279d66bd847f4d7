/* Dispatch: step validation and resolution into native steps, the program
 * cache, and the engine defaults for sequences on backends that only
 * implement single dispatches. */
#include <stdlib.h>
#include <string.h>

#include "engine/core/internal.h"

/* Has the caller changed a program struct since it was prepared? */
static int same_program(const weir_program *a, const weir_program *b) {
  return a->name == b->name && a->binding_count == b->binding_count &&
         a->push_constant_bytes == b->push_constant_bytes &&
         memcmp(a->workgroup_size, b->workgroup_size, sizeof a->workgroup_size) == 0 &&
         a->default_grid_binding == b->default_grid_binding &&
         a->default_grid_elem_bytes == b->default_grid_elem_bytes && a->host == b->host &&
         a->spirv == b->spirv && a->spirv_bytes == b->spirv_bytes &&
         a->cuda_image == b->cuda_image && a->cuda_image_bytes == b->cuda_image_bytes &&
         a->cuda_entry == b->cuda_entry;
}

/* Finds or prepares the backend state of `program`. The cache is keyed by
 * address, and an entry is only trusted while the struct still holds what was
 * validated and prepared (a stack-built program reused in a loop, or a struct
 * edited between dispatches, is prepared again). The backend sees the
 * engine's own copy, which lives as long as the entry, whatever happens to
 * the caller's struct. */
static weir_status program_state(weir_backend *b, const weir_program *program,
                                 const weir_program_entry **out) {
  for (size_t i = 0; i < b->program_count; ++i) {
    weir_program_entry *e = b->programs[i];
    if (e->program != program) continue;
    if (same_program(&e->copy, program)) {
      *out = e;
      return WEIR_OK;
    }
    if (b->ops->release_program) b->ops->release_program(b->self, &e->copy, e->state);
    free(e);
    b->programs[i] = b->programs[--b->program_count];
    break;
  }
  WEIR_TRY(weir_program_validate(program));
  weir_program_format format = b->provider->format;
  if (!weir_program_has_format(program, format))
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "program '%s' has no code in format '%s', which backend '%s' runs. Fix: "
                     "build the program's %s version (see programs/), or run it on a backend "
                     "whose format it has.",
                     program->name, weir_program_format_name(format), b->provider->id,
                     weir_program_format_name(format));
  WEIR_TRY(weir_grow((void **)&b->programs, &b->program_cap, b->program_count + 1,
                     sizeof *b->programs));
  weir_program_entry *e = malloc(sizeof *e);
  if (!e)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "preparing program '%s': no host memory. Fix: free memory.", program->name);
  *e = (weir_program_entry){program, *program, NULL};
  if (b->ops->prepare_program) {
    weir_status st = b->ops->prepare_program(b->self, &e->copy, &e->state);
    if (st != WEIR_OK) {
      free(e);
      return st;
    }
  }
  b->programs[b->program_count++] = e;
  *out = e;
  return WEIR_OK;
}

static weir_status resolve_grid(const weir_step *step, const weir_program *p,
                                const uint64_t *binding_bytes, size_t index, weir_grid *out) {
  weir_grid g = step->grid;
  if (g.x == 0 && g.y == 0 && g.z == 0) {
    g = (weir_grid){1, 1, 1};
    if (p->default_grid_binding != WEIR_NO_BINDING) {
      uint64_t elems = binding_bytes[p->default_grid_binding] / p->default_grid_elem_bytes;
      uint64_t groups = (elems + p->workgroup_size[0] - 1) / p->workgroup_size[0];
      if (groups > UINT32_MAX)
        return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                         "step %zu (program '%s'): the default grid would need %llu workgroups "
                         "(more than 2^32-1). Fix: pass an explicit grid and loop in the "
                         "kernel.",
                         index, p->name, (unsigned long long)groups);
      g.x = groups ? (uint32_t)groups : 1;
    }
  } else if (g.x == 0 || g.y == 0 || g.z == 0) {
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "step %zu (program '%s'): grid {%u, %u, %u} has a zero dimension. Fix: give "
                     "every dimension >= 1, or {0, 0, 0} for the program's default grid.",
                     index, p->name, g.x, g.y, g.z);
  }
  uint64_t workgroups = (uint64_t)g.x * g.y, invocations;
  if (__builtin_mul_overflow(workgroups, (uint64_t)g.z, &workgroups) ||
      __builtin_mul_overflow(workgroups,
                             (uint64_t)p->workgroup_size[0] * p->workgroup_size[1] *
                                 p->workgroup_size[2],
                             &invocations))
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "step %zu (program '%s'): grid {%u, %u, %u} of {%u, %u, %u} workgroups has "
                     "more than 2^64-1 invocations. Fix: use a smaller grid and loop in the "
                     "kernel.",
                     index, p->name, g.x, g.y, g.z, p->workgroup_size[0], p->workgroup_size[1],
                     p->workgroup_size[2]);
  *out = g;
  return WEIR_OK;
}

/* The marker program of backend FFT steps: no code in any format, never
 * prepared; binding 0 stands for the plan. */
const weir_program weir_backend_fft_program = {
    .name = "weir_fft",
    .binding_count = 3,
    .workgroup_size = {1, 1, 1},
    .default_grid_binding = WEIR_NO_BINDING,
};

weir_status weir_backend_fft_attach(weir_backend *b, weir_buffer token, void *native) {
  weir_slot *s;
  WEIR_TRY(weir_resolve(b, token, "weir_fft_plan", &s));
  s->fft = native;
  return WEIR_OK;
}

/* A backend FFT step: {plan token, input, output} -> native {input, output}. */
static weir_status resolve_fft_step(weir_backend *b, const weir_step *step, size_t index,
                                    void **bindings, uint64_t *binding_bytes,
                                    weir_native_step *out) {
  if (step->binding_count != 3 || !step->bindings || step->push_constant_bytes)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "step %zu: an FFT step binds 3 buffers (plan, input, output) and no push "
                     "constants, but %u bindings and %u push-constant bytes were given. Fix: "
                     "fill the step with weir_fft_step.",
                     index, step->binding_count, step->push_constant_bytes);
  weir_slot *slots[3];
  for (uint32_t i = 0; i < 3; ++i)
    WEIR_TRY(weir_resolve_item(b, step->bindings[i], "dispatch", "binding", i, &slots[i]));
  if (!slots[0]->fft)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "step %zu: binding 0 of an FFT step (slot %u) is not a plan of backend '%s'. "
                     "Fix: fill the step with weir_fft_step from a live plan.",
                     index, step->bindings[0].slot, b->provider->id);
  for (uint32_t i = 0; i < 2; ++i) {
    bindings[i] = slots[i + 1]->native;
    binding_bytes[i] = slots[i + 1]->bytes;
  }
  *out = (weir_native_step){&weir_backend_fft_program, NULL, bindings, binding_bytes, 2,
                            {1, 1, 1}, NULL, 0, slots[0]->fft};
  return WEIR_OK;
}

static weir_status resolve_step(weir_backend *b, const weir_step *step, size_t index,
                                void **bindings, uint64_t *binding_bytes,
                                weir_native_step *out) {
  if (step->program == &weir_backend_fft_program)
    return resolve_fft_step(b, step, index, bindings, binding_bytes, out);
  if (!step->program)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "step %zu: program is NULL. Fix: pass a program (weir_builtin_program or "
                     "weir_backend_find_program).",
                     index);
  const weir_program_entry *entry = NULL;
  WEIR_TRY(program_state(b, step->program, &entry));
  const weir_program *p = &entry->copy;
  if (step->binding_count != p->binding_count || (step->binding_count && !step->bindings))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "step %zu: program '%s' binds %u buffers, but %u were given. Fix: pass "
                     "exactly the program's bindings, in binding order.",
                     index, p->name, p->binding_count, step->binding_count);
  if (step->push_constant_bytes != p->push_constant_bytes ||
      (step->push_constant_bytes && !step->push_constants))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "step %zu: program '%s' takes %u push-constant bytes, but %u were given%s. "
                     "Fix: pass the program's push-constant struct (its exact size).",
                     index, p->name, p->push_constant_bytes, step->push_constant_bytes,
                     step->push_constant_bytes && !step->push_constants ? " (pointer NULL)" : "");
  for (uint32_t i = 0; i < step->binding_count; ++i) {
    weir_slot *s;
    WEIR_TRY(weir_resolve_item(b, step->bindings[i], "dispatch", "binding", i, &s));
    bindings[i] = s->native;
    binding_bytes[i] = s->bytes;
    uint64_t limit = b->info.max_binding_bytes;
    if (limit && s->bytes > limit)
      return weir_fail(WEIR_ERR_UNSUPPORTED,
                       "step %zu ('%s'): binding %u is a %llu-byte buffer, but device '%s' binds "
                       "at most %llu bytes per buffer%s. Fix: split the data over several "
                       "smaller buffers%s.",
                       index, p->name, i, (unsigned long long)s->bytes, b->info.spec,
                       (unsigned long long)limit,
                       b->options.max_binding_bytes == limit ? " (max_binding_bytes or "
                                                               "WEIR_MAX_BINDING_BYTES)" : "",
                       b->options.max_binding_bytes == limit ? ", or raise the forced limit" : "");
  }
  weir_grid grid;
  WEIR_TRY(resolve_grid(step, p, binding_bytes, index, &grid));
  *out = (weir_native_step){p, entry->state, bindings, binding_bytes, step->binding_count, grid,
                            step->push_constants, step->push_constant_bytes, NULL};
  return WEIR_OK;
}

/* Resolves two step lists (prefix then repeated) into the scratch space. */
static weir_status resolve_steps(weir_backend *b, const weir_step *a, size_t na,
                                 const weir_step *c, size_t nc, weir_native_step **out) {
  if ((na && !a) || (nc && !c))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "dispatch: a step list is NULL with a non-zero count. Fix: pass the steps.");
  size_t total_bindings = 0;
  for (size_t i = 0; i < na + nc; ++i) {
    const weir_step *step = i < na ? &a[i] : &c[i - na];
    if (step->binding_count > WEIR_MAX_BINDINGS)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "step %zu: %u bindings given (at most %u). Fix: pass the program's "
                       "bindings only.",
                       i, step->binding_count, WEIR_MAX_BINDINGS);
    total_bindings += step->binding_count;
  }
  weir_scratch *sc = &b->scratch;
  WEIR_TRY(weir_grow((void **)&sc->steps, &sc->steps_cap, na + nc, sizeof *sc->steps));
  size_t cap = sc->bindings_cap;
  WEIR_TRY(weir_grow((void **)&sc->bindings, &cap, total_bindings, sizeof *sc->bindings));
  WEIR_TRY(weir_grow((void **)&sc->binding_bytes, &sc->bindings_cap, total_bindings,
                     sizeof *sc->binding_bytes));
  size_t used = 0;
  for (size_t i = 0; i < na + nc; ++i) {
    const weir_step *step = i < na ? &a[i] : &c[i - na];
    WEIR_TRY(resolve_step(b, step, i, sc->bindings + used, sc->binding_bytes + used,
                          &sc->steps[i]));
    used += step->binding_count;
  }
  *out = sc->steps;
  return WEIR_OK;
}

static weir_status check_reads(const weir_range *reads, size_t read_count, void *const *outputs,
                               size_t output_count, const char *what) {
  if (read_count != output_count)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: %zu read ranges but %zu outputs (expected one output per range). Fix: "
                     "pass exactly one output pointer per range.",
                     what, read_count, output_count);
  if (read_count && (!reads || !outputs))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: reads or outputs is NULL with %zu ranges. Fix: pass both.", what,
                     read_count);
  return WEIR_OK;
}

weir_status weir_dispatch(weir_backend *b, const weir_program *program,
                          const weir_buffer *bindings, uint32_t binding_count, weir_grid grid,
                          const void *push_constants, uint32_t push_constant_bytes) {
  if (!b) return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_dispatch: backend is NULL. Fix: pass one.");
  weir_step step = {program, bindings, binding_count, grid, push_constants, push_constant_bytes};
  weir_native_step *native;
  WEIR_TRY(resolve_steps(b, &step, 1, NULL, 0, &native));
  WEIR_TRY(b->ops->dispatch(b->self, native));
  b->stats.dispatches++;
  b->stats.host_syncs++;
  return WEIR_OK;
}

/* Engine default: dispatch each step in order, then read the ranges. */
static weir_status default_run(weir_backend *b, const weir_native_step *prefix, size_t np,
                               const weir_native_step *repeated, size_t nr, uint64_t count,
                               const weir_native_range *reads, size_t nreads) {
  for (size_t i = 0; i < np; ++i) WEIR_TRY(b->ops->dispatch(b->self, &prefix[i]));
  for (uint64_t k = 0; k < count; ++k)
    for (size_t i = 0; i < nr; ++i) WEIR_TRY(b->ops->dispatch(b->self, &repeated[i]));
  if (nreads) WEIR_TRY(b->ops->download_ranges_into(b->self, reads, nreads));
  return WEIR_OK;
}

/* What the engine default really costs: each dispatch is complete when it
 * returns (one fence, backend.h), and the read-back is one more. */
static uint64_t default_syncs(size_t prefix, size_t repeated, uint64_t repeats, size_t reads) {
  return prefix + repeated * repeats + (reads ? 1 : 0);
}

static void count_downloads(weir_backend *b, const weir_native_range *reads, size_t n) {
  for (size_t i = 0; i < n; ++i) b->stats.bytes_downloaded += reads[i].bytes;
}

weir_status weir_dispatch_sequence_read_ranges_into(weir_backend *b, const weir_step *steps,
                                                    size_t step_count, const weir_range *reads,
                                                    size_t read_count, void *const *outputs,
                                                    size_t output_count) {
  static const char what[] = "weir_dispatch_sequence_read_ranges_into";
  if (!b) return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s: backend is NULL. Fix: pass one.", what);
  WEIR_TRY(check_reads(reads, read_count, outputs, output_count, what));
  weir_native_step *native;
  weir_native_range *ranges = NULL;
  WEIR_TRY(resolve_steps(b, steps, step_count, NULL, 0, &native));
  WEIR_TRY(weir_scratch_ranges(b, reads, read_count, outputs, what, &ranges));
  if (b->ops->dispatch_sequence_read_ranges_into)
    WEIR_TRY(b->ops->dispatch_sequence_read_ranges_into(b->self, native, step_count, ranges,
                                                        read_count));
  else
    WEIR_TRY(default_run(b, native, step_count, NULL, 0, 0, ranges, read_count));
  b->stats.dispatches += step_count;
  b->stats.host_syncs += b->ops->dispatch_sequence_read_ranges_into
                             ? 1
                             : default_syncs(step_count, 0, 0, read_count);
  count_downloads(b, ranges, read_count);
  return WEIR_OK;
}

weir_status weir_dispatch_repeated_sequence_read_ranges_into(
    weir_backend *b, const weir_step *prefix, size_t prefix_count, const weir_step *repeated,
    size_t repeated_count, uint64_t repeat_count, const weir_range *reads, size_t read_count,
    void *const *outputs, size_t output_count) {
  static const char what[] = "weir_dispatch_repeated_sequence_read_ranges_into";
  if (!b) return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "%s: backend is NULL. Fix: pass one.", what);
  WEIR_TRY(check_reads(reads, read_count, outputs, output_count, what));
  weir_native_step *native;
  weir_native_range *ranges = NULL;
  WEIR_TRY(resolve_steps(b, prefix, prefix_count, repeated, repeated_count, &native));
  WEIR_TRY(weir_scratch_ranges(b, reads, read_count, outputs, what, &ranges));
  const weir_native_step *group = native + prefix_count;
  if (b->ops->dispatch_repeated_sequence_read_ranges_into)
    WEIR_TRY(b->ops->dispatch_repeated_sequence_read_ranges_into(
        b->self, native, prefix_count, group, repeated_count, repeat_count, ranges, read_count));
  else
    WEIR_TRY(default_run(b, native, prefix_count, group, repeated_count, repeat_count, ranges,
                         read_count));
  b->stats.dispatches += prefix_count + repeated_count * repeat_count;
  b->stats.host_syncs += b->ops->dispatch_repeated_sequence_read_ranges_into
                             ? 1
                             : default_syncs(prefix_count, repeated_count, repeat_count,
                                             read_count);
  count_downloads(b, ranges, read_count);
  return WEIR_OK;
}

weir_status weir_dispatch_sequence_timed(weir_backend *b, const weir_step *steps,
                                         size_t step_count, uint64_t *step_ns) {
  if (!b || (step_count && !step_ns))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_dispatch_sequence_timed: backend or step_ns is NULL. Fix: pass an "
                     "array of step_count uint64_t.");
  weir_native_step *native;
  WEIR_TRY(resolve_steps(b, steps, step_count, NULL, 0, &native));
  if (b->ops->dispatch_sequence_timed) {
    WEIR_TRY(b->ops->dispatch_sequence_timed(b->self, native, step_count, step_ns));
    b->stats.host_syncs++;
  } else {
    /* Host-clock default: each step alone, so each is a synchronization. */
    for (size_t i = 0; i < step_count; ++i) {
      uint64_t t0 = weir_now_ns();
      WEIR_TRY(b->ops->dispatch(b->self, &native[i]));
      step_ns[i] = weir_now_ns() - t0;
    }
    b->stats.host_syncs += step_count;
  }
  b->stats.dispatches += step_count;
  return WEIR_OK;
}
