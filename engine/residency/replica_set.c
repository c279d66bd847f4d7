/* Replica sets: one owning chunk per device of an explicit backend list, kept
 * bit-identical by broadcast. Broadcast starts every copy before waiting on
 * any, so copies on different devices overlap where the transport allows. */
#include <stdlib.h>
#include <string.h>

#include "weir/residency.h"

struct weir_replica_set {
  size_t count;
  uint64_t bytes;
  weir_chunk **chunks;
  weir_transfer *transfers; /* scratch for broadcast, allocated once */
};

/* Two instances of one device would make "one replica per device" a lie. */
static weir_status distinct_devices(weir_backend *const *backends, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (!backends[i])
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "weir_replica_set_create: backends[%zu] is NULL. Fix: open every "
                       "device with weir_backend_open.",
                       i);
    for (size_t j = 0; j < i; ++j) {
      weir_device_info a = WEIR_DEVICE_INFO_INIT, b = WEIR_DEVICE_INFO_INIT;
      int same = backends[i] == backends[j];
      if (!same && weir_backend_device_info(backends[i], &a) == WEIR_OK &&
          weir_backend_device_info(backends[j], &b) == WEIR_OK)
        same = strcmp(a.spec, b.spec) == 0 && strcmp(a.backend_id, b.backend_id) == 0;
      if (same)
        return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                         "weir_replica_set_create: backends[%zu] and backends[%zu] are the "
                         "same device (%s). Fix: list each device once.",
                         j, i, weir_backend_id(backends[i]));
    }
  }
  return WEIR_OK;
}

weir_status weir_replica_set_create(weir_backend *const *backends, size_t count, uint64_t bytes,
                                    weir_replica_set **out) {
  if (!out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_replica_set_create: out is NULL. Fix: pass a weir_replica_set **.");
  *out = NULL;
  if (!backends || count == 0)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_replica_set_create: %zu backends given. Fix: list at least one "
                     "opened backend.",
                     backends ? count : (size_t)0);
  WEIR_TRY(distinct_devices(backends, count));
  weir_replica_set *set = calloc(1, sizeof *set);
  if (set) {
    set->chunks = calloc(count, sizeof *set->chunks);
    set->transfers = calloc(count, sizeof *set->transfers);
  }
  if (!set || !set->chunks || !set->transfers) {
    (void)weir_replica_set_destroy(set);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_replica_set_create: no host memory for %zu replica records. Fix: "
                     "free host memory.",
                     count);
  }
  set->count = count;
  set->bytes = bytes;
  for (size_t i = 0; i < count; ++i) {
    weir_status status = weir_chunk_allocate(backends[i], bytes, &set->chunks[i]);
    if (status != WEIR_OK) {
      (void)weir_replica_set_destroy(set);
      return weir_fail_context(status, "weir_replica_set_create: replica %zu of %zu on %s", i,
                               count, weir_backend_id(backends[i]));
    }
  }
  *out = set;
  return WEIR_OK;
}

weir_status weir_replica_set_destroy(weir_replica_set *set) {
  if (!set) return WEIR_OK;
  weir_status first = WEIR_OK;
  for (size_t i = 0; set->chunks && i < set->count; ++i) {
    weir_status status = weir_chunk_release(set->chunks[i]);
    if (first == WEIR_OK) first = status;
  }
  free(set->chunks);
  free(set->transfers);
  free(set);
  return first;
}

size_t weir_replica_set_count(const weir_replica_set *set) { return set ? set->count : 0; }

uint64_t weir_replica_set_bytes(const weir_replica_set *set) { return set ? set->bytes : 0; }

weir_status weir_replica_set_chunk(const weir_replica_set *set, size_t index, weir_chunk **out) {
  if (!set || !out)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_replica_set_chunk: set or out is NULL. Fix: pass both.");
  if (index >= set->count)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "weir_replica_set_chunk: replica %zu requested of a %zu-replica set. Fix: "
                     "use an index below weir_replica_set_count.",
                     index, set->count);
  *out = set->chunks[index];
  return WEIR_OK;
}

weir_status weir_replica_set_broadcast(weir_replica_set *set, weir_transport *transport,
                                       weir_chunk *source) {
  if (!set || !source)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_replica_set_broadcast: set or source is NULL. Fix: pass both.");
  if (weir_chunk_bytes(source) != set->bytes)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_replica_set_broadcast: source holds %llu bytes, replicas %llu. Fix: "
                     "broadcast a chunk of the replicas' size.",
                     (unsigned long long)weir_chunk_bytes(source),
                     (unsigned long long)set->bytes);
  weir_status first = WEIR_OK;
  size_t started = 0;
  for (size_t i = 0; i < set->count && first == WEIR_OK; ++i) {
    if (set->chunks[i] == source) continue;
    first = weir_transport_copy_async(transport, set->chunks[i], 0, source, 0, set->bytes,
                                      &set->transfers[started]);
    if (first == WEIR_OK) ++started;
    else first = weir_fail_context(first, "weir_replica_set_broadcast: replica %zu", i);
  }
  /* Wait for everything started, even after a failure, so that no copy is
   * still in flight when the caller reacts to the error. */
  for (size_t k = 0; k < started; ++k) {
    weir_status status = weir_transport_wait(&set->transfers[k]);
    if (first == WEIR_OK) first = status;
  }
  return first;
}
