/* A small per-instance thread pool that runs one grid at a time: the caller
 * and the workers pull workgroup indices from a shared atomic counter until
 * the grid is done. */
#ifndef WEIR_BACKENDS_CPU_POOL_H
#define WEIR_BACKENDS_CPU_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "weir/backend.h"

typedef struct cpu_pool {
  pthread_t *threads;
  uint32_t worker_count; /* threads besides the caller */
  pthread_mutex_t mutex;
  pthread_cond_t wake, done;
  uint64_t generation;   /* bumped per grid; workers wait for a new one */
  uint32_t finished;     /* workers done with the current grid */
  int stopping;
  const weir_native_step *step; /* the current grid */
  uint64_t workgroups;
  _Atomic uint64_t next;
  pid_t owner; /* the process whose threads these are (a forked child has none) */
} cpu_pool;

/* threads: total threads including the caller (>= 1). */
weir_status cpu_pool_init(cpu_pool *pool, uint32_t threads);
void cpu_pool_destroy(cpu_pool *pool);
/* Runs every workgroup of `step` and returns when all have finished. */
void cpu_pool_run(cpu_pool *pool, const weir_native_step *step);

#endif
