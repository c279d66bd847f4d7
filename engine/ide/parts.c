/* Collecting an IDE problem's parts and placing them on the built IFDS
 * problem (see parts.h). */
#include <stdlib.h>
#include <string.h>

#include "engine/ide/fn.h"
#include "engine/ide/parts.h"

ide_flow_view ide_flow_view_of_table(const ifds_flow_table *t) {
  ide_flow_view v = {t->identity.data,    t->kill_offset.data, t->kill_fact.data,
                     t->pair_offset.data, t->pair_from.data,   t->pair_to.data};
  return v;
}

ide_flow_view ide_flow_view_of_flows(const weir_ifds_flows *f) {
  ide_flow_view v = {f->identity,    f->kill_offset, f->kill_fact,
                     f->pair_offset, f->pair_from,   f->pair_to};
  return v;
}

/* Both tables keep a function's kills sorted and its pairs sorted by (from,
 * to) (include/weir/ifds.h): binary searches, so that a token of many pairs
 * with a function on each costs O(log n) per pair, not O(n). */
static int has_kill(const ide_flow_view *v, uint32_t f, uint32_t d) {
  uint32_t lo = v->kill_offset[f], hi = v->kill_offset[f + 1];
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (v->kill_fact[mid] == d) return 1;
    if (v->kill_fact[mid] < d) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

int ide_flow_has_pair(const ide_flow_view *v, uint32_t f, uint32_t d1, uint32_t d2) {
  if (d1 == 0 && d2 == 0) return 1;
  if (d1 == d2 && v->identity[f] && !has_kill(v, f, d1)) return 1;
  uint32_t lo = v->pair_offset[f], hi = v->pair_offset[f + 1];
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    uint32_t from = v->pair_from[mid], to = v->pair_to[mid];
    if (from == d1 && to == d2) return 1;
    if (from < d1 || (from == d1 && to < d2)) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

static weir_status oom(const char *what) {
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "allocating %s of an IDE problem failed. Fix: free memory.",
                   what);
}

weir_status ide_parts_init(ide_parts *p, uint32_t family, uint32_t states) {
  memset(p, 0, sizeof *p);
  p->family = family;
  p->states = states;
  weir_ide_fn id = ide_fn_identity(family, states);
  uint32_t index;
  return ide_parts_fn(p, &id, &index); /* function 0 */
}

void ide_parts_release(ide_parts *p) {
  for (int i = 0; i < WEIR_IDE_MAX_STATES; ++i) free(p->state_name[i]);
  free(p->fns);
  free(p->fn_slots);
  ifds_vec *vecs[] = {&p->ann_site, &p->ann_a,  &p->ann_b,     &p->ann_d1,   &p->ann_d2,
                      &p->ann_fn,   &p->ann_tag, &p->seed_node, &p->seed_fact};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; ++i) ifds_vec_free(vecs[i]);
  free(p->seed_value);
  memset(p, 0, sizeof *p);
}

/* Hashes the meaningful fields (not the padding). */
static uint64_t fn_hash(const weir_ide_fn *f) {
  uint64_t h = f->family;
  if (f->family == WEIR_IDE_LINEAR) {
    h = ifds_mix64(h ^ f->u.linear.kind);
    h = ifds_mix64(h ^ (uint64_t)f->u.linear.a);
    return ifds_mix64(h ^ (uint64_t)f->u.linear.b);
  }
  h = ifds_mix64(h ^ f->u.typestate.gen);
  for (int s = 0; s < WEIR_IDE_MAX_STATES; ++s) h = ifds_mix64(h ^ f->u.typestate.to[s]);
  return h;
}

static weir_status grow_slots(ide_parts *p) {
  size_t cap = p->fn_slot_cap ? p->fn_slot_cap * 2 : 64;
  uint32_t *slots = calloc(cap, sizeof *slots);
  if (!slots) return oom("the function table");
  for (size_t i = 0; i < p->fn_count; ++i) {
    size_t j = fn_hash(&p->fns[i]) & (cap - 1);
    while (slots[j]) j = (j + 1) & (cap - 1);
    slots[j] = (uint32_t)i + 1;
  }
  free(p->fn_slots);
  p->fn_slots = slots;
  p->fn_slot_cap = cap;
  return WEIR_OK;
}

weir_status ide_parts_fn(ide_parts *p, const weir_ide_fn *fn, uint32_t *index) {
  if (2 * (p->fn_count + 1) > p->fn_slot_cap) WEIR_TRY(grow_slots(p));
  size_t j = fn_hash(fn) & (p->fn_slot_cap - 1);
  for (; p->fn_slots[j]; j = (j + 1) & (p->fn_slot_cap - 1))
    if (ide_fn_equal(&p->fns[p->fn_slots[j] - 1], fn)) return *index = p->fn_slots[j] - 1, WEIR_OK;
  if (p->fn_count == p->fn_cap) {
    size_t cap = p->fn_cap ? p->fn_cap * 2 : 16;
    weir_ide_fn *fns = realloc(p->fns, cap * sizeof *fns);
    if (!fns) return oom("the function table");
    p->fns = fns;
    p->fn_cap = cap;
  }
  p->fns[p->fn_count] = *fn;
  p->fn_slots[j] = (uint32_t)p->fn_count + 1;
  *index = (uint32_t)p->fn_count++;
  return WEIR_OK;
}

weir_status ide_parts_pair(ide_parts *p, uint32_t site, uint32_t a, uint32_t b, uint32_t d1,
                           uint32_t d2, uint32_t fn, uint32_t tag) {
  WEIR_TRY(ifds_vec_push(&p->ann_site, site));
  WEIR_TRY(ifds_vec_push(&p->ann_a, a));
  WEIR_TRY(ifds_vec_push(&p->ann_b, b));
  WEIR_TRY(ifds_vec_push(&p->ann_d1, d1));
  WEIR_TRY(ifds_vec_push(&p->ann_d2, d2));
  WEIR_TRY(ifds_vec_push(&p->ann_fn, fn));
  return ifds_vec_push(&p->ann_tag, tag);
}

weir_status ide_parts_seed(ide_parts *p, uint32_t node, uint32_t fact, weir_ide_value value) {
  if (p->seed_node.len == p->seed_cap) {
    size_t cap = p->seed_cap ? p->seed_cap * 2 : 16;
    weir_ide_value *v = realloc(p->seed_value, cap * sizeof *v);
    if (!v) return oom("the seed values");
    p->seed_value = v;
    p->seed_cap = cap;
  }
  p->seed_value[p->seed_node.len] = value;
  WEIR_TRY(ifds_vec_push(&p->seed_node, node));
  return ifds_vec_push(&p->seed_fact, fact);
}

int ide_state_name_ok(const char *name, size_t n) {
  if (n == 0 || n > IDE_STATE_NAME_MAX || (name[0] >= '0' && name[0] <= '9')) return 0;
  for (size_t i = 0; i < n; ++i) {
    char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return 0;
  }
  static const char *const reserved[] = {"id", "top", "bot"};
  for (size_t i = 0; i < 3; ++i)
    if (strlen(reserved[i]) == n && memcmp(reserved[i], name, n) == 0) return 0;
  return 1;
}
