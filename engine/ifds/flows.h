/* Parsing and interning of flow-function tokens (`id,-3,0>7`): identical
 * functions are stored once, however often the file repeats them. */
#ifndef WEIR_ENGINE_IFDS_FLOWS_H
#define WEIR_ENGINE_IFDS_FLOWS_H

#include "engine/ifds/internal.h"
#include "weir/ifds.h"

/* What is wrong with a flow token: the message parts of the loader's error. */
typedef struct ifds_flow_error {
  size_t offset; /* byte offset of the bad term within the token */
  const char *what;
  char found[80];
  char expected[80];
  const char *fix;
} ifds_flow_error;

typedef struct ifds_flow_table {
  /* The interned functions, as in weir_ifds_flows. */
  ifds_vec identity, kill_offset, kill_fact, pair_offset, pair_from, pair_to;
  /* Canonical intern table: flow index + 1 per slot (0 = empty). */
  uint32_t *slots;
  size_t slot_cap;
  /* Raw-token cache: the same bytes always give the same (valid) function,
   * so a repeated token costs one hash lookup instead of a parse. */
  struct ifds_raw_entry *raw;
  size_t raw_cap, raw_count;
  uint32_t id_index; /* index + 1 of `id` once seen */
  char *arena;
  size_t arena_len, arena_cap;
  /* Scratch for one function being parsed. */
  ifds_vec kills;
  uint64_t *pairs;
  size_t pair_len, pair_cap;
} ifds_flow_table;

void ifds_flow_table_init(ifds_flow_table *t);
void ifds_flow_table_free(ifds_flow_table *t);

/* Parses `token` (length n) over facts 0..fact_count-1 and returns its interned
 * index. WEIR_ERR_PARSE with *err filled for a malformed token (no message
 * recorded: the loader formats it with the position); other statuses record
 * their message. */
weir_status ifds_flow_parse(ifds_flow_table *t, const char *token, size_t n, uint32_t fact_count,
                            uint32_t *index, ifds_flow_error *err);

/* The same without the raw-token cache, for a caller with its own (the
 * loader's fast path): a token is parsed and interned every time. */
weir_status ifds_flow_parse_uncached(ifds_flow_table *t, const char *token, size_t n,
                                     uint32_t fact_count, uint32_t *index, ifds_flow_error *err);

/* The same from arrays (the public builder): `kills` are facts removed
 * from the identity (only with `identity`), `pairs` are pair_count
 * (from, to) pairs, flattened. err->offset is the index of the bad term,
 * kills first, then pairs. */
weir_status ifds_flow_from_arrays(ifds_flow_table *t, int identity, const uint32_t *kills,
                                  size_t kill_count, const uint32_t *pairs, size_t pair_count,
                                  uint32_t fact_count, uint32_t *index, ifds_flow_error *err);

/* Interns function f of another table (already canonical, so it is not
 * parsed or checked again) and returns its index here: the parallel loader
 * merges each chunk's table into the loader's in file order, which gives the
 * indices a serial load gives. */
weir_status ifds_flow_copy_in(ifds_flow_table *t, const ifds_flow_table *from, uint32_t f,
                              uint32_t *index);

/* Functions interned so far. */
static inline uint32_t ifds_flow_count(const ifds_flow_table *t) {
  return (uint32_t)t->identity.len;
}

/* Moves the interned functions into `out` (the table keeps nothing). */
weir_status ifds_flow_table_take(ifds_flow_table *t, weir_ifds_flows *out);

#endif
