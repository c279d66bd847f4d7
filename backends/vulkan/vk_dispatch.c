/* Dispatch: a single step, sequences and repeated sequences behind one
 * submit and one fence, and timed sequences with device timestamps. */
#include <stdlib.h>
#include <time.h>

#include "backends/vulkan/vk_internal.h"

/* Everything that could refuse a step is checked before recording starts, so
 * a refused call leaves no half-recorded work behind. */
static weir_status check_steps(weir_vk *vk, const weir_native_step *steps, size_t count) {
  const VkPhysicalDeviceLimits *l = &vk->props.limits;
  for (size_t s = 0; s < count; ++s) {
    const weir_native_step *st = &steps[s];
    if (st->fft) {
      WEIR_TRY(weir_vk_fft_note(vk, st, s));
      continue;
    }
    if (!st->program_state)
      return weir_fail(WEIR_ERR_INTERNAL, "vulkan: step %zu ('%s') has no prepared pipeline. Fix: "
                       "report this bug (the engine must call prepare_program).", s, st->program->name);
    const uint32_t g[3] = {st->grid.x, st->grid.y, st->grid.z};
    for (int i = 0; i < 3; ++i)
      if (g[i] > l->maxComputeWorkGroupCount[i])
        return weir_fail(WEIR_ERR_UNSUPPORTED,
                         "vulkan: step %zu ('%s') has grid %u x %u x %u, but %s allows at most %u x "
                         "%u x %u workgroups. Fix: spread the work over y and z, or split the step.",
                         s, st->program->name, g[0], g[1], g[2], vk->props.deviceName,
                         l->maxComputeWorkGroupCount[0], l->maxComputeWorkGroupCount[1],
                         l->maxComputeWorkGroupCount[2]);
    for (uint32_t b = 0; b < st->binding_count; ++b)
      if (st->binding_bytes[b] > l->maxStorageBufferRange)
        return weir_fail(WEIR_ERR_UNSUPPORTED,
                         "vulkan: step %zu ('%s') binds a %llu-byte buffer at binding %u, but %s "
                         "binds at most %u bytes per storage buffer. Fix: split the data into "
                         "smaller buffers.",
                         s, st->program->name, (unsigned long long)st->binding_bytes[b], b,
                         vk->props.deviceName, l->maxStorageBufferRange);
  }
  return WEIR_OK;
}

/* Drops a half-recorded command buffer after a failure inside recording (only
 * the secondary buffer's begin/end can fail there: out of memory); copies
 * recorded earlier are dropped with it, and the message says so. */
static weir_status abandon(weir_vk *vk, weir_status s) {
  if (vk->recording) vk->vk.vkResetCommandBuffer(vk->cmd, 0);
  vk->recording = 0;
  return weir_fail_context(s, "vulkan: recording abandoned, pending device copies dropped");
}

static weir_status record_steps(weir_vk *vk, VkCommandBuffer cmd, const weir_native_step *steps,
                                size_t count) {
  for (size_t i = 0; i < count; ++i) WEIR_TRY(weir_vk_record_step(vk, cmd, &steps[i]));
  return WEIR_OK;
}

static weir_status run_with_reads(weir_vk *vk, const weir_native_range *reads, size_t read_count) {
  weir_vk_ranges_record(vk, reads, read_count);
  WEIR_TRY(weir_vk_submit_wait(vk));
  weir_vk_ranges_finish(vk, reads, read_count);
  return WEIR_OK;
}

weir_status weir_vk_sequence(void *self, const weir_native_step *steps, size_t step_count,
                             const weir_native_range *reads, size_t read_count) {
  weir_vk *vk = self;
  weir_vk_fft_begin(vk);
  WEIR_TRY(check_steps(vk, steps, step_count));
  WEIR_TRY(weir_vk_ranges_prepare(vk, reads, read_count));
  WEIR_TRY(weir_vk_begin(vk));
  weir_status s = record_steps(vk, vk->cmd, steps, step_count);
  if (s != WEIR_OK) return abandon(vk, s);
  return run_with_reads(vk, reads, read_count);
}

weir_status weir_vk_dispatch(void *self, const weir_native_step *step) {
  return weir_vk_sequence(self, step, 1, NULL, 0);
}

/* The repeated group goes into the secondary command buffer once; the primary
 * executes it repeat_count times (SIMULTANEOUS_USE lets one buffer appear
 * many times), so the host work does not grow with the group's size. */
static weir_status record_group(weir_vk *vk, const weir_native_step *steps, size_t count) {
  VkCommandBufferInheritanceInfo inherit = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT,
                                    .pInheritanceInfo = &inherit};
  VkResult r = vk->vk.vkBeginCommandBuffer(vk->secondary, &begin);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkBeginCommandBuffer", "recording the repeated group");
  vk->bound[1] = VK_NULL_HANDLE;
  WEIR_TRY(record_steps(vk, vk->secondary, steps, count));
  r = vk->vk.vkEndCommandBuffer(vk->secondary);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkEndCommandBuffer", "recording the repeated group");
  return WEIR_OK;
}

static void execute_group(weir_vk *vk, uint64_t repeat_count) {
  enum { BATCH = 64 };
  VkCommandBuffer batch[BATCH];
  for (int i = 0; i < BATCH; ++i) batch[i] = vk->secondary;
  weir_vk_barrier_to(vk, vk->cmd, WEIR_VK_LAST_COMPUTE);
  for (uint64_t done = 0; done < repeat_count;) {
    uint32_t n = repeat_count - done < BATCH ? (uint32_t)(repeat_count - done) : BATCH;
    vk->vk.vkCmdExecuteCommands(vk->cmd, n, batch);
    done += n;
  }
  vk->bound[0] = VK_NULL_HANDLE; /* executing secondaries leaves the primary's bindings undefined */
}

weir_status weir_vk_repeated(void *self, const weir_native_step *prefix, size_t prefix_count,
                             const weir_native_step *repeated, size_t repeated_count,
                             uint64_t repeat_count, const weir_native_range *reads,
                             size_t read_count) {
  weir_vk *vk = self;
  weir_vk_fft_begin(vk);
  WEIR_TRY(check_steps(vk, prefix, prefix_count));
  WEIR_TRY(check_steps(vk, repeated, repeated_count));
  WEIR_TRY(weir_vk_ranges_prepare(vk, reads, read_count));
  WEIR_TRY(weir_vk_begin(vk));
  weir_status s = record_steps(vk, vk->cmd, prefix, prefix_count);
  if (s == WEIR_OK && repeat_count > 0 && repeated_count > 0) {
    if (repeat_count == 1) {
      s = record_steps(vk, vk->cmd, repeated, repeated_count);
    } else {
      s = record_group(vk, repeated, repeated_count);
      if (s == WEIR_OK) execute_group(vk, repeat_count);
    }
  }
  if (s != WEIR_OK) return abandon(vk, s);
  return run_with_reads(vk, reads, read_count);
}

static weir_status reserve_queries(weir_vk *vk, uint32_t count) {
  if (vk->query_cap >= count) return WEIR_OK;
  if (vk->queries) vk->vk.vkDestroyQueryPool(vk->device, vk->queries, NULL);
  vk->queries = VK_NULL_HANDLE;
  vk->query_cap = 0;
  uint32_t want = count < 64 ? 64 : count;
  VkQueryPoolCreateInfo info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                .queryCount = want};
  VkResult r = vk->vk.vkCreateQueryPool(vk->device, &info, NULL, &vk->queries);
  if (r != VK_SUCCESS) return weir_vk_fail(r, "vkCreateQueryPool", "timing a sequence");
  vk->query_cap = want;
  return WEIR_OK;
}

static uint64_t host_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Without device timestamps: each step alone, timed on the host. */
static weir_status timed_on_host(weir_vk *vk, const weir_native_step *steps, size_t count,
                                 uint64_t *step_ns) {
  for (size_t i = 0; i < count; ++i) {
    WEIR_TRY(weir_vk_flush(vk));
    uint64_t t0 = host_ns();
    WEIR_TRY(weir_vk_sequence(vk, &steps[i], 1, NULL, 0));
    step_ns[i] = host_ns() - t0;
  }
  return WEIR_OK;
}

weir_status weir_vk_timed(void *self, const weir_native_step *steps, size_t step_count,
                          uint64_t *step_ns) {
  weir_vk *vk = self;
  if (step_count == 0) return WEIR_OK;
  if (!vk->has_timestamps) return timed_on_host(vk, steps, step_count, step_ns);
  if (step_count > UINT32_MAX / 2)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE, "vulkan: %zu timed steps (at most %u). Fix: time fewer "
                     "steps per call.", step_count, UINT32_MAX / 2);
  uint32_t queries = (uint32_t)step_count * 2;
  weir_vk_fft_begin(vk);
  WEIR_TRY(check_steps(vk, steps, step_count));
  WEIR_TRY(weir_vk_flush(vk)); /* the pool may be replaced: nothing pending may use it */
  WEIR_TRY(reserve_queries(vk, queries));
  uint64_t *ticks = malloc(sizeof *ticks * queries);
  if (!ticks) return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "vulkan: no host memory for %u timestamps. Fix: time fewer steps per call.", queries);
  weir_status s = weir_vk_begin(vk);
  if (s == WEIR_OK) {
    vk->vk.vkCmdResetQueryPool(vk->cmd, vk->queries, 0, queries);
    for (size_t i = 0; i < step_count && s == WEIR_OK; ++i) {
      /* Bottom-of-pipe stamps: when everything before has finished. */
      vk->vk.vkCmdWriteTimestamp(vk->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, vk->queries, (uint32_t)(2 * i));
      s = weir_vk_record_step(vk, vk->cmd, &steps[i]);
      vk->vk.vkCmdWriteTimestamp(vk->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, vk->queries, (uint32_t)(2 * i + 1));
    }
    s = s == WEIR_OK ? weir_vk_submit_wait(vk) : abandon(vk, s);
  }
  if (s == WEIR_OK) {
    VkResult r = vk->vk.vkGetQueryPoolResults(vk->device, vk->queries, 0, queries, sizeof *ticks * queries, ticks,
                                              sizeof *ticks, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (r != VK_SUCCESS) s = weir_vk_fail(r, "vkGetQueryPoolResults", "reading step timestamps");
  }
  if (s == WEIR_OK) {
    uint64_t mask = vk->timestamp_bits >= 64 ? UINT64_MAX : ((uint64_t)1 << vk->timestamp_bits) - 1;
    for (size_t i = 0; i < step_count; ++i) {
      uint64_t delta = (ticks[2 * i + 1] - ticks[2 * i]) & mask;
      step_ns[i] = (uint64_t)((double)delta * (double)vk->props.limits.timestampPeriod + 0.5);
    }
  }
  free(ticks);
  return s;
}
