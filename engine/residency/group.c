/* Groups: the members a collective runs over, on one transport, and the
 * per-group scratch (transfer and range lists) sized once at creation so that
 * a collective call allocates nothing for its bookkeeping. */
#include <stdlib.h>

#include "engine/residency/collective.h"

static weir_status layout_ok(const weir_group_layout *l) {
  uint64_t end = (uint64_t)l->first_local + l->local_count;
  if (l->size == 0 || l->local_count == 0 || end > l->size ||
      l->local_count > WEIR_GROUP_MAX_LOCAL)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_group_create: layout {size %u, first_local %u, local_count %u} is "
                     "not a group (needs size >= 1, 1 <= local_count <= %u, first_local + "
                     "local_count <= size). Fix: give the number of members, this process's "
                     "first rank and how many members it holds.",
                     l->size, l->first_local, l->local_count, (unsigned)WEIR_GROUP_MAX_LOCAL);
  return WEIR_OK;
}

static weir_status transport_ok(weir_transport *t, const weir_group_layout *l) {
  if (!t || !t->ops || !t->ops->copy_async || !t->ops->wait)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_group_create: transport is NULL or lacks copy_async/wait. Fix: "
                     "create one with weir_stream_transport_create (local) or "
                     "weir_mpi_transport_create.");
  if (l->local_count < l->size && (!t->ops->collectives || !t->ops->collectives->agree))
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "weir_group_create: a group of %u members with %u in this process spans "
                     "processes, but transport \"%s\" has no collectives->agree. Fix: use a "
                     "transport that reaches the other processes (weir_mpi_transport_create) "
                     "or put every member in this process (weir_group_create_local).",
                     l->size, l->local_count, weir_transport_name(t));
  return WEIR_OK;
}

/* Generic copies need size*size transfers (alltoallv), only in local groups;
 * validation needs two ranges per (local member, member) pair at most. */
static weir_status allocate_scratch(weir_group *g) {
  const weir_group_layout *l = &g->layout;
  g->transfer_capacity = l->local_count == l->size ? (size_t)l->size * l->size : 0;
  g->range_capacity = 2u * (size_t)l->local_count * l->size + 2u;
  g->backends = calloc(l->local_count, sizeof *g->backends);
  g->transfers = g->transfer_capacity ? calloc(g->transfer_capacity, sizeof *g->transfers) : NULL;
  g->ranges = calloc(g->range_capacity, sizeof *g->ranges);
  if (!g->backends || !g->ranges || (g->transfer_capacity && !g->transfers))
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_group_create: no host memory for the bookkeeping of a %u-member "
                     "group (%zu transfers, %zu ranges). Fix: free host memory.",
                     l->size, g->transfer_capacity, g->range_capacity);
  return WEIR_OK;
}

weir_status weir_group_create(weir_transport *transport, const weir_group_layout *layout,
                              weir_backend *const *local_backends, weir_group **out) {
  if (!out || !layout)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_group_create: layout or out is NULL. Fix: pass both.");
  *out = NULL;
  WEIR_TRY(layout_ok(layout));
  WEIR_TRY(transport_ok(transport, layout));
  weir_group *g = calloc(1, sizeof *g);
  if (!g)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "weir_group_create: no host memory for the group record. Fix: free host "
                     "memory.");
  g->transport = transport;
  g->layout = *layout;
  weir_status status = allocate_scratch(g);
  if (status != WEIR_OK) {
    weir_group_destroy(g);
    return status;
  }
  for (uint32_t i = 0; local_backends && i < layout->local_count; ++i) {
    g->backends[i] = local_backends[i];
    if (local_backends[i]) weir_backend_retain(local_backends[i]);
  }
  *out = g;
  return WEIR_OK;
}

weir_status weir_group_create_local(weir_transport *transport, weir_backend *const *backends,
                                    uint32_t count, weir_group **out) {
  if (!backends)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_group_create_local: backends is NULL. Fix: pass one open backend "
                     "per member (e.g. cpu:0 .. cpu:3).");
  for (uint32_t i = 0; i < count; ++i)
    if (!backends[i])
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "weir_group_create_local: backends[%u] of %u is NULL. Fix: open every "
                       "member's backend first.",
                       i, count);
  weir_group_layout layout = {.size = count, .first_local = 0, .local_count = count};
  return weir_group_create(transport, &layout, backends, out);
}

void weir_group_destroy(weir_group *group) {
  if (!group) return;
  for (uint32_t i = 0; group->backends && i < group->layout.local_count; ++i)
    weir_backend_close(group->backends[i]); /* drops the group's reference (NULL allowed) */
  free(group->backends);
  free(group->transfers);
  free(group->ranges);
  free(group);
}

uint32_t weir_group_size(const weir_group *group) { return group ? group->layout.size : 0; }

uint32_t weir_group_first_local(const weir_group *group) {
  return group ? group->layout.first_local : 0;
}

uint32_t weir_group_local_count(const weir_group *group) {
  return group ? group->layout.local_count : 0;
}

weir_transport *weir_group_transport(const weir_group *group) {
  return group ? group->transport : NULL;
}

weir_status weir_group_agree(weir_group *group, weir_status local) {
  if (!group)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "weir_group_agree: group is NULL. Fix: pass the group every process "
                     "created.");
  if (group->layout.local_count == group->layout.size) return local;
  return group->transport->ops->collectives->agree(group->transport, group, local, NULL);
}
