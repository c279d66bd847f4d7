/* Validation of one collective call, this process's part: the arrays it
 * needs, the root, dtype and op, every byte range inside its chunk and on its
 * member's backend, and no conflicting overlap inside one buffer (a byte
 * written twice, or written and read, would make the result depend on the
 * order the transport moves pieces in). Cross-process consistency is the
 * transport's agree step. */
#include <stdio.h>
#include <stdlib.h>

#include "engine/residency/checked.h"
#include "engine/residency/collective.h"

typedef struct checker {
  weir_group *g;
  const weir_collective *c;
  const char *op;
  size_t n; /* ranges collected */
} checker;

static weir_status places_given(checker *k, const weir_place *places, const char *what) {
  if (places) return WEIR_OK;
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                   "%s: %s is NULL. Fix: pass one weir_place per local member (%u).", k->op,
                   what, k->g->layout.local_count);
}

/* "cpu:7": the spec names the instance, where the id ("cpu") does not. */
static void describe(weir_backend *backend, char *out, size_t capacity) {
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  if (weir_backend_device_info(backend, &info) == WEIR_OK) snprintf(out, capacity, "%s", info.spec);
  else snprintf(out, capacity, "%s", weir_backend_id(backend));
}

static weir_status chunk_on_member(checker *k, weir_chunk *chunk, uint32_t i, const char *what) {
  uint32_t rank = k->g->layout.first_local + i;
  if (!chunk)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: member %u's %s chunk is NULL. Fix: give every local member a chunk.",
                     k->op, rank, what);
  weir_backend *want = k->g->backends[i], *have = weir_chunk_backend(chunk);
  if (!want || have == want) return WEIR_OK;
  char have_name[48], want_name[48];
  describe(have, have_name, sizeof have_name);
  describe(want, want_name, sizeof want_name);
  return weir_fail(WEIR_ERR_FOREIGN_RESOURCE,
                   "%s: member %u's %s chunk lives on %s, but member %u is %s. Fix: pass the "
                   "places in rank order, member i's on its own backend.",
                   k->op, rank, what, have_name, rank, want_name);
}

/* Records [place.offset + rel, +bytes) of local member i after the checks. */
static weir_status add_range(checker *k, weir_place place, uint64_t rel, uint64_t bytes,
                             uint32_t i, int write, const char *what) {
  WEIR_TRY(chunk_on_member(k, place.chunk, i, what));
  uint32_t rank = k->g->layout.first_local + i;
  uint64_t start = 0, end = 0, size = weir_chunk_bytes(place.chunk);
  if (weir_checked_add(place.offset, rel, &start) || weir_checked_add(start, bytes, &end) ||
      end > size)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "%s: member %u's %s range [%llu + %llu, +%llu bytes) is past the end of "
                     "its %llu-byte chunk. Fix: allocate chunks that hold the whole range on "
                     "every member (same sizes on all ranks), or pass a smaller size.",
                     k->op, rank, what, (unsigned long long)place.offset,
                     (unsigned long long)rel, (unsigned long long)bytes,
                     (unsigned long long)size);
  if (bytes == 0) return WEIR_OK;
  if (k->n >= k->g->range_capacity)
    return weir_fail(WEIR_ERR_INTERNAL, "%s: more than %zu ranges in one call. Fix: report "
                     "this bug.", k->op, k->g->range_capacity);
  k->g->ranges[k->n++] = (weir_coll_range){place.chunk, start, bytes, rank, write, what};
  return WEIR_OK;
}

static weir_status sizes_product(checker *k, uint64_t a, uint64_t b, uint64_t *out) {
  if (!weir_checked_mul(a, b, out)) return WEIR_OK;
  return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                   "%s: %llu x %llu bytes overflows 64 bits. Fix: pass a smaller size.", k->op,
                   (unsigned long long)a, (unsigned long long)b);
}

static weir_status root_ok(checker *k) {
  if (k->c->root < k->g->layout.size) return WEIR_OK;
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                   "%s: root %u is not a member of this %u-member group. Fix: pass a root "
                   "below weir_group_size (the same on every rank).",
                   k->op, k->c->root, k->g->layout.size);
}

/* Local index of the root, or local_count when another process holds it. */
static uint32_t root_local(const checker *k) {
  const weir_group_layout *l = &k->g->layout;
  uint32_t root = k->c->root;
  return root >= l->first_local && root - l->first_local < l->local_count
             ? root - l->first_local
             : l->local_count;
}

static weir_status check_broadcast(checker *k) {
  WEIR_TRY(root_ok(k));
  WEIR_TRY(places_given(k, k->c->recv, "recv"));
  for (uint32_t i = 0; i < k->g->layout.local_count; ++i)
    WEIR_TRY(add_range(k, k->c->recv[i], 0, k->c->bytes, i, i != root_local(k), "recv"));
  return WEIR_OK;
}

/* scatter: root's send is [off, +size*bytes); gather: root's recv is. */
static weir_status check_rooted(checker *k, int scatter) {
  WEIR_TRY(root_ok(k));
  uint64_t all = 0;
  WEIR_TRY(sizes_product(k, k->c->bytes, k->g->layout.size, &all));
  const weir_place *each = scatter ? k->c->recv : k->c->send;
  const weir_place *rooted = scatter ? k->c->send : k->c->recv;
  WEIR_TRY(places_given(k, each, scatter ? "recv" : "send"));
  for (uint32_t i = 0; i < k->g->layout.local_count; ++i)
    WEIR_TRY(add_range(k, each[i], 0, k->c->bytes, i, scatter, scatter ? "recv" : "send"));
  uint32_t r = root_local(k);
  if (r == k->g->layout.local_count) return WEIR_OK;
  WEIR_TRY(places_given(k, rooted, scatter ? "send" : "recv"));
  return add_range(k, rooted[r], 0, all, r, !scatter, scatter ? "send" : "recv");
}

int weir_coll_allgather_in_place(const weir_collective *call, uint32_t local_index,
                                 uint32_t rank) {
  weir_place s = call->send[local_index], r = call->recv[local_index];
  uint64_t at = 0;
  return s.chunk == r.chunk && !weir_checked_mul(call->bytes, rank, &at) &&
         !weir_checked_add(at, r.offset, &at) && s.offset == at;
}

static weir_status check_allgather(checker *k) {
  uint64_t all = 0;
  WEIR_TRY(sizes_product(k, k->c->bytes, k->g->layout.size, &all));
  WEIR_TRY(places_given(k, k->c->send, "send"));
  WEIR_TRY(places_given(k, k->c->recv, "recv"));
  for (uint32_t i = 0; i < k->g->layout.local_count; ++i) {
    WEIR_TRY(add_range(k, k->c->recv[i], 0, all, i, 1, "recv"));
    if (!weir_coll_allgather_in_place(k->c, i, k->g->layout.first_local + i))
      WEIR_TRY(add_range(k, k->c->send[i], 0, k->c->bytes, i, 0, "send"));
  }
  return WEIR_OK;
}

static weir_status check_alltoallv_counts(checker *k) {
  const weir_collective *c = k->c;
  if (!c->send_counts || !c->send_displs || !c->recv_counts || !c->recv_displs)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: send_counts, send_displs, recv_counts or recv_displs is NULL. Fix: "
                     "pass four local_count x size (%u x %u) arrays of byte counts and "
                     "offsets.",
                     k->op, k->g->layout.local_count, k->g->layout.size);
  const weir_group_layout *l = &k->g->layout;
  for (uint32_t i = 0; i < l->local_count; ++i)
    for (uint32_t j = 0; j < l->local_count; ++j) {
      uint64_t sent = c->send_counts[(size_t)i * l->size + l->first_local + j];
      uint64_t got = c->recv_counts[(size_t)j * l->size + l->first_local + i];
      if (sent != got)
        return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                         "%s: member %u sends %llu bytes to member %u, which expects %llu. "
                         "Fix: make send_counts[i][j] equal recv_counts[j][i].",
                         k->op, l->first_local + i, (unsigned long long)sent,
                         l->first_local + j, (unsigned long long)got);
    }
  return WEIR_OK;
}

static weir_status check_alltoallv(checker *k) {
  WEIR_TRY(places_given(k, k->c->send, "send"));
  WEIR_TRY(places_given(k, k->c->recv, "recv"));
  WEIR_TRY(check_alltoallv_counts(k));
  const weir_group_layout *l = &k->g->layout;
  for (uint32_t i = 0; i < l->local_count; ++i)
    for (uint32_t j = 0; j < l->size; ++j) {
      size_t at = (size_t)i * l->size + j;
      WEIR_TRY(add_range(k, k->c->send[i], k->c->send_displs[at], k->c->send_counts[at], i, 0,
                         "send"));
      WEIR_TRY(add_range(k, k->c->recv[i], k->c->recv_displs[at], k->c->recv_counts[at], i, 1,
                         "recv"));
    }
  return WEIR_OK;
}

static weir_status check_allreduce(checker *k) {
  const weir_collective *c = k->c;
  uint32_t esize = weir_dtype_bytes(c->dtype);
  if (esize == 0 || (unsigned)c->op > (unsigned)WEIR_REDUCE_MAX)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "%s: dtype %d (%s) with op %d (%s) is not supported. Fix: use "
                     "WEIR_DTYPE_U32/U64/F32/F64 with WEIR_REDUCE_SUM/MIN/MAX.",
                     k->op, (int)c->dtype, weir_dtype_name(c->dtype), (int)c->op,
                     weir_reduce_op_name(c->op));
  uint64_t bytes = 0;
  WEIR_TRY(sizes_product(k, c->count, esize, &bytes));
  WEIR_TRY(places_given(k, c->send, "send"));
  WEIR_TRY(places_given(k, c->recv, "recv"));
  for (uint32_t i = 0; i < k->g->layout.local_count; ++i) {
    WEIR_TRY(add_range(k, c->recv[i], 0, bytes, i, 1, "recv"));
    int in_place = c->send[i].chunk == c->recv[i].chunk && c->send[i].offset == c->recv[i].offset;
    if (!in_place) WEIR_TRY(add_range(k, c->send[i], 0, bytes, i, 0, "send"));
  }
  return WEIR_OK;
}

/* Sort key: the buffer (backend instance, slot, generation), then offset. */
static int range_order(const void *pa, const void *pb) {
  const weir_coll_range *a = pa, *b = pb;
  weir_buffer x = weir_chunk_buffer(a->chunk), y = weir_chunk_buffer(b->chunk);
  if (x.instance != y.instance) return x.instance < y.instance ? -1 : 1;
  if (x.slot != y.slot) return x.slot < y.slot ? -1 : 1;
  if (x.generation != y.generation) return x.generation < y.generation ? -1 : 1;
  return a->offset < b->offset ? -1 : a->offset > b->offset;
}

static int same_buffer(const weir_coll_range *a, const weir_coll_range *b) {
  return range_order(&(weir_coll_range){a->chunk, 0, 0, 0, 0, NULL},
                     &(weir_coll_range){b->chunk, 0, 0, 0, 0, NULL}) == 0;
}

static weir_status overlap_error(const checker *k, const weir_coll_range *a,
                                 const weir_coll_range *b) {
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                   "%s: member %u's %s range [%llu, +%llu) and member %u's %s range [%llu, "
                   "+%llu) overlap in one buffer of %s. Fix: use disjoint ranges (or the "
                   "documented in-place form: allreduce send == recv, allgather send == "
                   "recv + rank*bytes).",
                   k->op, a->member, a->what, (unsigned long long)a->offset,
                   (unsigned long long)a->bytes, b->member, b->what,
                   (unsigned long long)b->offset, (unsigned long long)b->bytes,
                   weir_backend_id(weir_chunk_backend(b->chunk)));
}

/* After sorting, a range conflicts with an earlier one of its buffer when it
 * starts before the furthest end of the earlier writes (or, for a write, of
 * the earlier reads). */
static weir_status check_overlaps(checker *k) {
  weir_coll_range *r = k->g->ranges;
  qsort(r, k->n, sizeof *r, range_order);
  const weir_coll_range *far_write = NULL, *far_read = NULL;
  for (size_t i = 0; i < k->n; ++i) {
    if (i > 0 && !same_buffer(&r[i - 1], &r[i])) far_write = far_read = NULL;
    if (far_write && r[i].offset < far_write->offset + far_write->bytes)
      return overlap_error(k, far_write, &r[i]);
    if (r[i].write && far_read && r[i].offset < far_read->offset + far_read->bytes)
      return overlap_error(k, far_read, &r[i]);
    const weir_coll_range **far = r[i].write ? &far_write : &far_read;
    if (!*far || r[i].offset + r[i].bytes > (*far)->offset + (*far)->bytes) *far = &r[i];
  }
  return WEIR_OK;
}

weir_status weir_coll_validate(weir_group *group, const weir_collective *call) {
  checker k = {group, call, weir_coll_op_name(call->kind), 0};
  weir_status status;
  switch (call->kind) {
  case WEIR_COLLECTIVE_BROADCAST: status = check_broadcast(&k); break;
  case WEIR_COLLECTIVE_SCATTER: status = check_rooted(&k, 1); break;
  case WEIR_COLLECTIVE_GATHER: status = check_rooted(&k, 0); break;
  case WEIR_COLLECTIVE_ALLGATHER: status = check_allgather(&k); break;
  case WEIR_COLLECTIVE_ALLTOALLV: status = check_alltoallv(&k); break;
  case WEIR_COLLECTIVE_ALLREDUCE: status = check_allreduce(&k); break;
  default:
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_group_collective: kind %d is not a collective. Fix: use a "
                     "WEIR_COLLECTIVE_* value.",
                     (int)call->kind);
  }
  if (status != WEIR_OK) return status;
  return check_overlaps(&k);
}
