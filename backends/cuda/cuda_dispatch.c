/* Dispatch on CUDA: single steps, sequences behind one synchronization,
 * repeated groups replayed from cached CUDA graphs, and timed sequences with
 * CUDA events. Everything is enqueued on the instance's one stream. */
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"

weir_status weir_cuda_dispatch(void *self, const weir_native_step *step) {
  weir_cuda_instance *inst = self;
  WEIR_TRY(weir_cuda_enter(inst));
  WEIR_TRY(weir_cuda_launch(inst, step));
  return weir_cuda_sync(inst, "a dispatch");
}

/* Grows staging for a sequence's reads BEFORE its launches, so growing
 * (cuMemFreeHost/cuMemAllocHost) never waits on the sequence itself. */
static weir_status reserve_reads(weir_cuda_instance *inst, const weir_native_range *reads,
                                 size_t count) {
  uint64_t total = 0;
  for (size_t i = 0; i < count; ++i) total += reads[i].bytes;
  return weir_cuda_staging_reserve(inst, total);
}

static weir_status launch_all(weir_cuda_instance *inst, const weir_native_step *steps,
                              size_t count) {
  for (size_t i = 0; i < count; ++i) WEIR_TRY(weir_cuda_launch(inst, &steps[i]));
  return WEIR_OK;
}

weir_status weir_cuda_dispatch_sequence(void *self, const weir_native_step *steps, size_t count,
                                        const weir_native_range *reads, size_t read_count) {
  weir_cuda_instance *inst = self;
  WEIR_TRY(weir_cuda_enter(inst));
  WEIR_TRY(reserve_reads(inst, reads, read_count));
  WEIR_TRY(launch_all(inst, steps, count));
  return weir_cuda_read_ranges(inst, reads, read_count, "a dispatch sequence");
}

/* ---- graphs for repeated groups ------------------------------------------- */

uint32_t weir_cuda_graph_unroll(size_t steps) {
  if (steps == 0 || steps >= WEIR_CUDA_GRAPH_MAX_NODES) return 1;
  size_t unroll = WEIR_CUDA_GRAPH_MAX_NODES / steps;
  return unroll > WEIR_CUDA_GRAPH_MAX_UNROLL ? WEIR_CUDA_GRAPH_MAX_UNROLL : (uint32_t)unroll;
}

/* One step's record in a graph key: everything its launch depends on. */
typedef struct key_record {
  uint64_t function;
  uint32_t grid[3];
  uint32_t block[3];
  weir_cuda_args args;
} key_record;

weir_status weir_cuda_graph_key(weir_cuda_graph_cache *cache, const weir_native_step *steps,
                                size_t count, uint32_t unroll, unsigned char **out_key,
                                size_t *out_bytes) {
  const uint64_t header[2] = {unroll, count};
  size_t bytes = sizeof header + count * sizeof(key_record);
  unsigned char *key = NULL;
  WEIR_TRY(weir_cuda_graph_cache_scratch(cache, bytes, &key));
  memcpy(key, header, sizeof header);
  for (size_t i = 0; i < count; ++i) {
    const weir_cuda_program_state *st = steps[i].program_state;
    key_record rec;
    memset(&rec, 0, sizeof rec); /* padding bytes take part in the comparison */
    /* an FFT step (no kernel) is keyed by its plan */
    rec.function = (uint64_t)(uintptr_t)(st ? (const void *)st->function : steps[i].fft);
    rec.grid[0] = steps[i].grid.x;
    rec.grid[1] = steps[i].grid.y;
    rec.grid[2] = steps[i].grid.z;
    for (int k = 0; k < 3; ++k) rec.block[k] = steps[i].program->workgroup_size[k];
    weir_cuda_args_fill(&steps[i], &rec.args);
    memcpy(key + sizeof header + i * sizeof rec, &rec, sizeof rec);
  }
  *out_key = key;
  *out_bytes = bytes;
  return WEIR_OK;
}

/* Captures `unroll` copies of the group on the stream into a graph and
 * instantiates it. Capture is always ended, so a failed launch leaves the
 * stream usable. */
static weir_status capture(weir_cuda_instance *inst, const weir_native_step *steps, size_t count,
                           uint32_t unroll, CUgraph *out_graph, CUgraphExec *out_exec) {
  const weir_cuda_driver *d = inst->d;
  WEIR_CUDA_TRY(d, d->pcuStreamBeginCapture(inst->stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                "cuStreamBeginCapture for a repeated group of %zu steps x %u", count, unroll);
  weir_status s = WEIR_OK;
  for (uint32_t u = 0; u < unroll && s == WEIR_OK; ++u) s = launch_all(inst, steps, count);
  CUgraph graph = NULL;
  CUresult r = d->pcuStreamEndCapture(inst->stream, &graph);
  if (s != WEIR_OK) {
    if (graph) d->pcuGraphDestroy(graph);
    return s;
  }
  if (r != CUDA_SUCCESS)
    return weir_cuda_fail(d, r, "cuStreamEndCapture for a repeated group of %zu steps x %u",
                          count, unroll);
  CUgraphExec exec = NULL;
  r = d->pcuGraphInstantiateWithFlags(&exec, graph, 0);
  if (r != CUDA_SUCCESS) {
    d->pcuGraphDestroy(graph);
    return weir_cuda_fail(d, r, "cuGraphInstantiateWithFlags for a repeated group of %zu steps x %u",
                          count, unroll);
  }
  *out_graph = graph;
  *out_exec = exec;
  return WEIR_OK;
}

/* The cached graph of this exact group, capturing it on a miss. */
static weir_status graph_for(weir_cuda_instance *inst, const weir_native_step *steps,
                             size_t count, uint32_t unroll, CUgraphExec *out) {
  unsigned char *key = NULL;
  size_t bytes = 0;
  WEIR_TRY(weir_cuda_graph_key(&inst->graphs, steps, count, unroll, &key, &bytes));
  weir_cuda_graph_entry *e = weir_cuda_graph_cache_find(&inst->graphs, key, bytes);
  if (!e) {
    CUgraph graph = NULL;
    CUgraphExec exec = NULL;
    WEIR_TRY(capture(inst, steps, count, unroll, &graph, &exec));
    WEIR_TRY(weir_cuda_graph_cache_insert(&inst->graphs, key, bytes, graph, exec, &e));
  }
  *out = (CUgraphExec)e->exec;
  return WEIR_OK;
}

weir_status weir_cuda_dispatch_repeated(void *self, const weir_native_step *prefix,
                                        size_t prefix_count, const weir_native_step *repeated,
                                        size_t repeated_count, uint64_t repeat_count,
                                        const weir_native_range *reads, size_t read_count) {
  weir_cuda_instance *inst = self;
  WEIR_TRY(weir_cuda_enter(inst));
  WEIR_TRY(reserve_reads(inst, reads, read_count));
  uint32_t unroll = weir_cuda_graph_unroll(repeated_count);
  uint64_t graph_launches = 0, direct = repeat_count;
  CUgraphExec exec = NULL;
  /* Fewer iterations than one graph holds are launched directly: capturing
   * would cost more than it saves, and would fill the cache. */
  if (repeated_count > 0 && repeat_count >= unroll) {
    WEIR_TRY(graph_for(inst, repeated, repeated_count, unroll, &exec));
    graph_launches = repeat_count / unroll;
    direct = repeat_count % unroll;
  }
  WEIR_TRY(launch_all(inst, prefix, prefix_count));
  for (uint64_t i = 0; i < graph_launches; ++i)
    WEIR_CUDA_TRY(inst->d, inst->d->pcuGraphLaunch(exec, inst->stream),
                  "cuGraphLaunch (iterations %llu..%llu of %llu, group of %zu steps x %u)",
                  (unsigned long long)(i * unroll), (unsigned long long)((i + 1) * unroll - 1),
                  (unsigned long long)repeat_count, repeated_count, unroll);
  for (uint64_t i = 0; i < direct; ++i) WEIR_TRY(launch_all(inst, repeated, repeated_count));
  return weir_cuda_read_ranges(inst, reads, read_count, "a repeated dispatch sequence");
}

/* ---- timed sequences ----------------------------------------------------- */

static weir_status ensure_events(weir_cuda_instance *inst, size_t count) {
  if (count <= inst->event_count) return WEIR_OK;
  CUevent *grown = realloc(inst->events, count * sizeof *grown);
  if (!grown)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "cuda: growing the event table to %zu events failed. Fix: free host memory "
                     "or time fewer steps at once",
                     count);
  inst->events = grown;
  while (inst->event_count < count) {
    WEIR_CUDA_TRY(inst->d, inst->d->pcuEventCreate(&inst->events[inst->event_count], CU_EVENT_DEFAULT),
                  "cuEventCreate (event %zu of %zu for a timed sequence)", inst->event_count,
                  count);
    inst->event_count++;
  }
  return WEIR_OK;
}

weir_status weir_cuda_dispatch_timed(void *self, const weir_native_step *steps, size_t count,
                                     uint64_t *step_ns) {
  weir_cuda_instance *inst = self;
  if (count == 0) return WEIR_OK;
  WEIR_TRY(weir_cuda_enter(inst));
  WEIR_TRY(ensure_events(inst, count + 1));
  const weir_cuda_driver *d = inst->d;
  for (size_t i = 0; i < count; ++i) {
    WEIR_CUDA_TRY(d, d->pcuEventRecord(inst->events[i], inst->stream), "cuEventRecord before step %zu", i);
    WEIR_TRY(weir_cuda_launch(inst, &steps[i]));
  }
  WEIR_CUDA_TRY(d, d->pcuEventRecord(inst->events[count], inst->stream), "cuEventRecord after step %zu",
                count - 1);
  WEIR_CUDA_TRY(d, d->pcuEventSynchronize(inst->events[count]),
                "cuEventSynchronize after a timed sequence of %zu steps on device %u", count,
                inst->ordinal);
  for (size_t i = 0; i < count; ++i) {
    float ms = 0.0f;
    WEIR_CUDA_TRY(d, d->pcuEventElapsedTime(&ms, inst->events[i], inst->events[i + 1]),
                  "cuEventElapsedTime for step %zu", i);
    step_ns[i] = ms > 0.0f ? (uint64_t)((double)ms * 1e6 + 0.5) : 0;
  }
  return WEIR_OK;
}
