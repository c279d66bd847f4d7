/* The builder's tables, procedures and their names, and the close of the
 * proc section (every procedure declared, node ranges partition the nodes). */
#include <stdlib.h>
#include <string.h>

#include "engine/ifds/builder.h"

static const char *const elem_names[] = {"counts", "proc", "edge", "call", "callee", "seed",
                                         "flow"};

void ifds_builder_ref(const ifds_builder *b, ifds_elem kind, uint32_t tag, char *out, size_t cap) {
  if (b->lines)
    snprintf(out, cap, "on line %u", tag);
  else
    snprintf(out, cap, "%s %u", elem_names[kind], tag - 1);
}

weir_status ifds_builder_fits(const ifds_builder *b, uint64_t bytes, const char *what) {
  if (bytes <= (16u << 20)) return WEIR_OK;
  const char *source = NULL;
  uint64_t budget = ifds_memory_budget(&source);
  if (bytes <= budget) return WEIR_OK;
  return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                   "builder: %s for counts (%u procs, %u nodes) take %llu bytes, more than %s, "
                   "%llu bytes. Fix: check the counts and the procedure ranges; if they are "
                   "right, free memory or raise the limit.",
                   what, b->procs, b->nodes, (unsigned long long)bytes, source,
                   (unsigned long long)budget);
}

/* *a from `have` to `want` entries, the new ones 0 or WEIR_IFDS_NONE. On
 * failure *a is as it was (realloc keeps it), so the caller's count stays
 * right and the builder usable. */
static weir_status grow_array(uint32_t **a, size_t have, size_t want, int fill_none) {
  uint32_t *p = realloc(*a, (want ? want : 1) * sizeof *p);
  if (!p)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating %zu entries for the problem failed. "
                     "Fix: free memory or check the counts.",
                     want);
  memset(p + have, fill_none ? 0xff : 0, (want - have) * sizeof *p);
  *a = p;
  return WEIR_OK;
}

/* Amortised doubling towards `limit`: the next capacity that holds `need`. */
static size_t next_cap(size_t cap, size_t need, size_t limit) {
  size_t next = cap < 16 ? 16 : cap * 2;
  if (next < need) next = need;
  return next < limit ? next : limit;
}

/* Room for procedure IDs 0..id in the five per-procedure tables. */
static weir_status reserve_procs(ifds_builder *b, uint32_t id) {
  if (id < b->proc_cap) return WEIR_OK;
  size_t cap = next_cap(b->proc_cap, (size_t)id + 1, b->procs);
  WEIR_TRY(ifds_builder_fits(b, (cap - b->proc_cap) * 5 * sizeof(uint32_t), "procedure tables"));
  uint32_t **tables[] = {&b->proc_first, &b->proc_last, &b->proc_tag, &b->name_offset,
                         &b->name_length};
  for (size_t i = 0; i < sizeof tables / sizeof tables[0]; ++i)
    WEIR_TRY(grow_array(tables[i], b->proc_cap, cap, 0));
  b->proc_cap = (uint32_t)cap;
  return WEIR_OK;
}

/* Room for nodes 0..need-1 in node_proc. */
static weir_status reserve_nodes(ifds_builder *b, size_t need) {
  if (need <= b->node_cap) return WEIR_OK;
  size_t cap = next_cap(b->node_cap, need, b->nodes);
  WEIR_TRY(ifds_builder_fits(b, (cap - b->node_cap) * sizeof(uint32_t), "node tables"));
  WEIR_TRY(grow_array(&b->node_proc, b->node_cap, cap, 1));
  b->node_cap = (uint32_t)cap;
  return WEIR_OK;
}

static uint32_t proc_tag(const ifds_builder *b, uint32_t id) {
  return id < b->proc_cap ? b->proc_tag[id] : 0;
}

static uint32_t node_proc(const ifds_builder *b, uint32_t n) {
  return n < b->node_cap ? b->node_proc[n] : WEIR_IFDS_NONE;
}

weir_status ifds_builder_init(ifds_builder *b, uint32_t facts, uint32_t procs, uint32_t nodes,
                              int lines) {
  memset(b, 0, sizeof *b);
  ifds_flow_table_init(&b->flows);
  b->facts = facts, b->procs = procs, b->nodes = nodes, b->lines = lines;
  return WEIR_OK;
}

void ifds_builder_release(ifds_builder *b) {
  void *arrays[] = {b->proc_first, b->proc_last,  b->proc_tag,  b->name_offset, b->name_length,
                    b->names,      b->name_slots, b->node_proc, b->out_count,   b->node_call};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) free(arrays[i]);
  ifds_vec *vecs[] = {&b->edge_from,   &b->edge_to,          &b->edge_flow,
                      &b->edge_line,   &b->call_node,        &b->call_return,
                      &b->call_flow,   &b->call_line,        &b->callee_site,
                      &b->callee_proc, &b->callee_call_flow, &b->callee_return_flow,
                      &b->callee_line, &b->seed_node,        &b->seed_fact};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; ++i) ifds_vec_free(vecs[i]);
  ifds_flow_table_free(&b->flows);
  memset(b, 0, sizeof *b);
}

/* ---- proc lines ---------------------------------------------------------- */

static ifds_site proc_site(uint32_t id, uint32_t first, uint32_t last, int arg) {
  return (ifds_site){.kind = IFDS_ELEM_PROC, .arg = arg, .index = id, .v = {first, last}};
}

static weir_status duplicate_name(ifds_builder *b, const ifds_site *site, const char *name,
                                  size_t length, uint32_t other) {
  char found[64], expected[160], ref[48];
  ifds_quote(found, sizeof found, name, length);
  if (b->lines) {
    ifds_builder_ref(b, IFDS_ELEM_PROC, b->proc_tag[other], ref, sizeof ref);
    snprintf(expected, sizeof expected, "a name not used before (procedure %u %s has it)", other,
             ref);
  } else {
    snprintf(expected, sizeof expected, "a name not used before (procedure %u has it)", other);
  }
  return ifds_builder_fail(b, site, "duplicate procedure name", found, expected,
                           "give every procedure its own name");
}

static weir_status grow_name_slots(ifds_builder *b) {
  size_t cap = b->name_slot_cap ? b->name_slot_cap * 2 : 64;
  uint32_t *slots = calloc(cap, sizeof *slots);
  if (!slots)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "allocating the procedure-name table failed. Fix: free memory.");
  for (size_t i = 0; i < b->name_slot_cap; ++i) {
    uint32_t v = b->name_slots[i];
    if (!v) continue;
    size_t j = ifds_hash_bytes(b->names + b->name_offset[v - 1], b->name_length[v - 1]) & (cap - 1);
    while (slots[j]) j = (j + 1) & (cap - 1);
    slots[j] = v;
  }
  free(b->name_slots);
  b->name_slots = slots;
  b->name_slot_cap = cap;
  return WEIR_OK;
}

/* The slot for `name`, or the error when another procedure has it. */
static weir_status find_name_slot(ifds_builder *b, const ifds_site *site, const char *name,
                                  size_t length, size_t *slot) {
  size_t mask = b->name_slot_cap - 1, j = ifds_hash_bytes(name, length) & mask;
  for (; b->name_slots[j]; j = (j + 1) & mask) {
    uint32_t other = b->name_slots[j] - 1;
    if (b->name_length[other] == length &&
        memcmp(b->names + b->name_offset[other], name, length) == 0)
      return duplicate_name(b, site, name, length, other);
  }
  *slot = j;
  return WEIR_OK;
}

static weir_status store_name(ifds_builder *b, uint32_t id, const char *name, size_t length) {
  if (b->names_len + length > UINT32_MAX)
    return weir_fail(WEIR_ERR_OUT_OF_RANGE,
                     "procedure names longer than 4 GiB in all. Fix: shorten them.");
  if (b->names_len + length > b->names_cap) {
    size_t cap = b->names_cap ? b->names_cap * 2 : 4096;
    while (cap < b->names_len + length) cap *= 2;
    char *names = realloc(b->names, cap);
    if (!names)
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                       "allocating %zu bytes of procedure names failed. Fix: free memory.", cap);
    b->names = names;
    b->names_cap = cap;
  }
  memcpy(b->names + b->names_len, name, length);
  b->name_offset[id] = (uint32_t)b->names_len;
  b->name_length[id] = (uint32_t)length;
  b->names_len += length;
  return WEIR_OK;
}

weir_status ifds_builder_proc(ifds_builder *b, uint32_t id, uint32_t first, uint32_t last,
                              const char *name, size_t length, uint32_t tag) {
  if (proc_tag(b, id)) {
    char found[64], expected[160], ref[48];
    snprintf(found, sizeof found, b->lines ? "'%u'" : "%u", id);
    ifds_builder_ref(b, IFDS_ELEM_PROC, b->proc_tag[id], ref, sizeof ref);
    if (b->lines)
      snprintf(expected, sizeof expected,
               "one proc line per procedure (procedure %u is %s)", id, ref);
    else
      snprintf(expected, sizeof expected, "one proc per procedure (procedure %u is declared)", id);
    ifds_site site = proc_site(id, first, last, 1);
    return ifds_builder_fail(
        b, &site, ifds_builder_says(b, "duplicate proc line", "procedure declared twice"), found,
        expected,
        ifds_builder_says(b, "remove the second proc line or renumber it",
                          "call weir_ifds_builder_proc once per procedure ID; give this one "
                          "its own ID"));
  }
  if (first >= last) {
    char found[64];
    snprintf(found, sizeof found, "FIRST %u and LAST %u", first, last);
    ifds_site site = proc_site(id, first, last, 3);
    return ifds_builder_fail(b, &site, "procedure start node not before its exit node", found,
                             "FIRST < LAST",
                             "give the procedure at least two nodes: its start and its exit");
  }
  /* Built through the API, a range that overlaps an earlier one is refused
   * at once, so the caller can still declare the right one (no procedure
   * can be declared twice); the text loader reports it where the proc
   * section ends, at the later line, as it always did. */
  for (uint32_t n = first; !b->lines && n <= last; ++n)
    if (node_proc(b, n) != WEIR_IFDS_NONE) {
      uint32_t other = b->node_proc[n];
      char found[200];
      snprintf(found, sizeof found,
               "procedure %u with nodes %u..%u and procedure %u with nodes %u..%u", id, first,
               last, other, b->proc_first[other], b->proc_last[other]);
      ifds_site site = proc_site(id, first, last, 0);
      return ifds_builder_fail(b, &site, "overlapping procedure node ranges", found,
                               "disjoint ranges", "give each node to exactly one procedure");
    }
  /* tables first: a failure here leaves the builder as it was */
  WEIR_TRY(reserve_procs(b, id));
  if (!b->lines) WEIR_TRY(reserve_nodes(b, (size_t)last + 1));
  if ((b->procs_seen + 1) * 2 > b->name_slot_cap && grow_name_slots(b) != WEIR_OK)
    return b->broken = 1, WEIR_ERR_OUT_OF_MEMORY;
  size_t slot = 0;
  ifds_site site = proc_site(id, first, last, 2);
  WEIR_TRY(find_name_slot(b, &site, name, length, &slot));
  weir_status s = store_name(b, id, name, length);
  if (s != WEIR_OK) return b->broken = 1, s;
  b->name_slots[slot] = id + 1;
  b->proc_first[id] = first;
  b->proc_last[id] = last;
  b->proc_tag[id] = b->lines ? tag : b->procs_seen + 1;
  b->procs_seen++;
  for (uint32_t n = first; !b->lines && n <= last; ++n) b->node_proc[n] = id;
  return WEIR_OK;
}

/* ---- closing the proc section -------------------------------------------- */

static weir_status range_error(ifds_builder *b, uint32_t id, uint32_t from, uint32_t to) {
  char found[96], expected[64];
  snprintf(found, sizeof found, "nodes %u..%u in no procedure", from, to);
  snprintf(expected, sizeof expected, "procedures covering nodes 0..%u", b->nodes - 1);
  ifds_site site = proc_site(id, b->proc_first[id], b->proc_last[id], 0);
  site.tag = b->proc_tag[id];
  return ifds_builder_fail(b, &site, "gap between procedure node ranges", found, expected,
                           ifds_builder_says(b,
                                             "extend a procedure's FIRST..LAST or lower the "
                                             "node count",
                                             "extend a procedure's FIRST..LAST or create the "
                                             "builder with fewer nodes"));
}

static weir_status overlap_error(ifds_builder *b, uint32_t a, uint32_t c) {
  if (b->proc_tag[a] > b->proc_tag[c]) {
    uint32_t t = a;
    a = c;
    c = t;
  }
  char found[200], ref[48];
  if (b->lines)
    snprintf(ref, sizeof ref, " (line %u)", b->proc_tag[a]);
  else
    ref[0] = '\0';
  snprintf(found, sizeof found, "procedure %u with nodes %u..%u and procedure %u%s with nodes %u..%u",
           c, b->proc_first[c], b->proc_last[c], a, ref, b->proc_first[a], b->proc_last[a]);
  ifds_site site = proc_site(c, b->proc_first[c], b->proc_last[c], 0);
  site.tag = b->proc_tag[c];
  return ifds_builder_fail(b, &site, "overlapping procedure node ranges", found, "disjoint ranges",
                           "give each node to exactly one procedure");
}

/* A file is fixed by a line, a builder by a call. */
static weir_status missing_proc(ifds_builder *b) {
  uint32_t id = 0;
  while (proc_tag(b, id)) ++id;
  char found[96], expected[96], fix[160];
  ifds_site site = {.kind = IFDS_ELEM_COUNTS, .v = {b->facts, b->procs, b->nodes}};
  if (b->lines) {
    snprintf(found, sizeof found, "no proc line for procedure %u", id);
    snprintf(expected, sizeof expected, "one proc line for each procedure 0..%u", b->procs - 1);
    snprintf(fix, sizeof fix, "add `proc %u NAME FIRST LAST` or lower the procedure count", id);
    return ifds_builder_fail(b, &site, "missing proc line", found, expected, fix);
  }
  snprintf(found, sizeof found, "procedure %u not declared", id);
  snprintf(expected, sizeof expected, "every procedure 0..%u declared", b->procs - 1);
  snprintf(fix, sizeof fix,
           "call weir_ifds_builder_proc(b, %u, FIRST, LAST, NAME) before the first edge, call, "
           "callee or seed, or create the builder with fewer procedures",
           id);
  return ifds_builder_fail(b, &site, "missing procedure", found, expected, fix);
}

/* Sorted by FIRST, the ranges must follow each other without gaps. */
static weir_status check_partition(ifds_builder *b, const uint64_t *keys) {
  uint64_t next = 0; /* the first node not yet covered */
  for (uint32_t i = 0; i < b->procs; ++i) {
    uint32_t id = (uint32_t)keys[i], first = b->proc_first[id];
    if (first > next) return range_error(b, id, (uint32_t)next, first - 1);
    if (first < next) return overlap_error(b, (uint32_t)keys[i - 1], id);
    next = (uint64_t)b->proc_last[id] + 1;
  }
  if (next < b->nodes)
    return range_error(b, (uint32_t)keys[b->procs - 1], (uint32_t)next, b->nodes - 1);
  return WEIR_OK;
}

/* The ranges cover all N nodes: the node tables now take their full size. */
static weir_status node_tables(ifds_builder *b) {
  size_t n = b->nodes;
  if (!b->lines)
    WEIR_TRY(ifds_builder_fits(b, (uint64_t)(n - b->node_cap) * 4u + (n + 1) * 8u,
                               "node tables"));
  weir_status s = reserve_nodes(b, n);
  if (s == WEIR_OK) s = grow_array(&b->out_count, 0, n + 1, 0);
  if (s == WEIR_OK) s = grow_array(&b->node_call, 0, n, 1);
  if (s != WEIR_OK) b->broken = 1;
  return s;
}

weir_status ifds_builder_close_procs(ifds_builder *b) {
  if (b->body) return WEIR_OK;
  if (b->procs_seen < b->procs) return missing_proc(b);
  uint64_t *keys = malloc(b->procs * sizeof *keys);
  if (!keys)
    return b->broken = 1, weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                                    "allocating the procedure order failed. Fix: free memory or "
                                    "use a smaller problem.");
  for (uint32_t id = 0; id < b->procs; ++id) keys[id] = (uint64_t)b->proc_first[id] << 32 | id;
  weir_status s = ifds_sort_u64(keys, b->procs);
  if (s == WEIR_OK) s = check_partition(b, keys);
  free(keys);
  WEIR_TRY(s);
  WEIR_TRY(node_tables(b));
  for (uint32_t id = 0; id < b->procs; ++id)
    for (uint32_t n = b->proc_first[id]; n <= b->proc_last[id]; ++n) b->node_proc[n] = id;
  b->body = 1;
  return WEIR_OK;
}
