#include "backends/cpu/cpu_pool.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Below this many invocations a grid runs on the calling thread: waking the
 * workers costs more than the work (a noop dispatch stays ~100 ns). */
#define CPU_INLINE_INVOCATIONS 4096u

static void run_workgroup(const weir_native_step *step, uint64_t linear) {
  weir_grid g = step->grid;
  const weir_program *p = step->program;
  weir_host_invocation inv = {
      .workgroup_id = {(uint32_t)(linear % g.x), (uint32_t)((linear / g.x) % g.y),
                       (uint32_t)(linear / ((uint64_t)g.x * g.y))},
      .grid = {g.x, g.y, g.z},
      .workgroup_size = {p->workgroup_size[0], p->workgroup_size[1], p->workgroup_size[2]},
      .bindings = step->bindings,
      .binding_bytes = step->binding_bytes,
      .push_constants = step->push_constants,
      .push_constant_bytes = step->push_constant_bytes,
  };
  p->host(&inv);
}

/* Pulls workgroups in small batches until the grid is exhausted. */
static void drain(cpu_pool *pool) {
  const weir_native_step *step = pool->step;
  uint64_t total = pool->workgroups;
  uint64_t batch = total / (8u * (pool->worker_count + 1u)) + 1u;
  for (;;) {
    uint64_t begin = atomic_fetch_add_explicit(&pool->next, batch, memory_order_relaxed);
    if (begin >= total) return;
    uint64_t end = begin + batch < total ? begin + batch : total;
    for (uint64_t wg = begin; wg < end; ++wg) run_workgroup(step, wg);
  }
}

static void *worker_main(void *arg) {
  cpu_pool *pool = arg;
  uint64_t seen = 0;
  pthread_mutex_lock(&pool->mutex);
  for (;;) {
    while (pool->generation == seen && !pool->stopping) pthread_cond_wait(&pool->wake, &pool->mutex);
    if (pool->stopping) break;
    seen = pool->generation;
    pthread_mutex_unlock(&pool->mutex);
    drain(pool);
    pthread_mutex_lock(&pool->mutex);
    if (++pool->finished == pool->worker_count) pthread_cond_signal(&pool->done);
  }
  pthread_mutex_unlock(&pool->mutex);
  return NULL;
}

weir_status cpu_pool_init(cpu_pool *pool, uint32_t threads) {
  memset(pool, 0, sizeof *pool);
  pthread_mutex_init(&pool->mutex, NULL);
  pthread_cond_init(&pool->wake, NULL);
  pthread_cond_init(&pool->done, NULL);
  pool->owner = getpid();
  uint32_t workers = threads > 1 ? threads - 1 : 0;
  pool->threads = workers ? calloc(workers, sizeof *pool->threads) : NULL;
  if (workers && !pool->threads)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "cpu backend: no memory for %u worker threads. Fix: open with fewer "
                     "threads (weir_open_options.threads).",
                     workers);
  for (uint32_t i = 0; i < workers; ++i) {
    if (pthread_create(&pool->threads[i], NULL, worker_main, pool) != 0) {
      cpu_pool_destroy(pool);
      return weir_fail(WEIR_ERR_DEVICE,
                       "cpu backend: starting worker thread %u of %u failed. Fix: raise the "
                       "process thread limit or open with fewer threads.",
                       i + 1, workers);
    }
    pool->worker_count++;
  }
  return WEIR_OK;
}

void cpu_pool_destroy(cpu_pool *pool) {
  pthread_mutex_lock(&pool->mutex);
  pool->stopping = 1;
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->mutex);
  /* A forked child has no worker threads to join. */
  if (pool->owner == getpid())
    for (uint32_t i = 0; i < pool->worker_count; ++i) pthread_join(pool->threads[i], NULL);
  free(pool->threads);
  pthread_cond_destroy(&pool->done);
  pthread_cond_destroy(&pool->wake);
  pthread_mutex_destroy(&pool->mutex);
}

void cpu_pool_run(cpu_pool *pool, const weir_native_step *step) {
  weir_grid g = step->grid;
  const uint32_t *wg = step->program->workgroup_size;
  uint64_t workgroups = (uint64_t)g.x * g.y * g.z;
  uint64_t invocations = workgroups * wg[0] * wg[1] * wg[2];
  /* In a child forked after open, the workers do not exist: run inline. */
  if (pool->worker_count == 0 || workgroups < 2 || invocations < CPU_INLINE_INVOCATIONS ||
      pool->owner != getpid()) {
    for (uint64_t i = 0; i < workgroups; ++i) run_workgroup(step, i);
    return;
  }
  pthread_mutex_lock(&pool->mutex);
  pool->step = step;
  pool->workgroups = workgroups;
  atomic_store_explicit(&pool->next, 0, memory_order_relaxed);
  pool->finished = 0;
  pool->generation++;
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->mutex);
  drain(pool);
  /* The mutex hand-off also orders the workers' writes before the caller's
   * later reads (the step k -> step k+1 barrier). */
  pthread_mutex_lock(&pool->mutex);
  while (pool->finished < pool->worker_count) pthread_cond_wait(&pool->done, &pool->mutex);
  pthread_mutex_unlock(&pool->mutex);
}
