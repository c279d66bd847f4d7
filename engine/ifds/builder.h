/* The problem builder's state and its internal entry points. Everything that
 * makes a problem valid is checked here, once, for both front ends: the
 * public weir_ifds_builder_* calls (builder.c) and the text loader (load*.c),
 * which tokenizes a file and feeds the same calls. A rule that one element
 * can break is checked when the element is added (the element is refused and
 * the builder is unchanged); the rest when the problem is built.
 *
 * A broken rule is reported through ifds_builder.report with an ifds_site
 * that says which element and which of its arguments: the loader turns that
 * into FILE:LINE:COL, the public builder into "builder: edge 12 (...)". */
#ifndef WEIR_ENGINE_IFDS_BUILDER_H
#define WEIR_ENGINE_IFDS_BUILDER_H

#include "engine/ifds/flows.h"
#include "engine/ifds/internal.h"
#include "weir/ifds.h"

typedef enum ifds_elem {
  IFDS_ELEM_COUNTS, /* the three counts (the loader: the `procs` line) */
  IFDS_ELEM_PROC,
  IFDS_ELEM_EDGE,
  IFDS_ELEM_CALL,
  IFDS_ELEM_CALLEE,
  IFDS_ELEM_SEED,
  IFDS_ELEM_FLOW
} ifds_elem;

/* Where a rule was broken. */
typedef struct ifds_site {
  ifds_elem kind;
  /* 0: the element being added now; else the tag of an element added
   * earlier (found when building): its line (loader) or index + 1 (builder). */
  uint32_t tag;
  int arg;       /* the element being added: argument (1-based, the token of a text
                    line) the message points at; 0: the start */
  size_t offset; /* bytes into that argument (a term of a flow token) */
  uint32_t index; /* builder: the element's index (procedures: the ID) */
  uint32_t v[3];  /* builder: the element's values, to describe it */
} ifds_site;

struct weir_ifds_builder;
typedef weir_status (*ifds_report_fn)(const struct weir_ifds_builder *b, const ifds_site *site,
                                      const char *what, const char *found, const char *expected,
                                      const char *fix);

typedef struct weir_ifds_builder {
  uint32_t facts, procs, nodes;
  /* Tags of elements are text lines (the loader); else element indices. */
  int lines;
  int body;   /* the proc section is closed: ranges checked, node_proc filled */
  int broken; /* a failure that left the state partial (memory, build): only free */
  int built;
  ifds_report_fn report;
  void *report_user;

  /* Procedures, by ID; proc_tag[id] == 0 while none has been declared
   * (an ID at or past proc_cap has none). The per-procedure tables hold
   * proc_cap entries and grow (doubling) as IDs arrive, so a builder
   * created for 1 << 29 procedures or nodes costs what its elements cost,
   * not the declared maximum (issue 23). */
  uint32_t *proc_first, *proc_last, *proc_tag;
  uint32_t proc_cap;
  uint32_t *name_offset, *name_length; /* into names */
  char *names;
  size_t names_len, names_cap;
  uint32_t *name_slots; /* hash set of proc IDs + 1, by name */
  size_t name_slot_cap;
  uint32_t procs_seen;

  /* Per node. node_proc holds node_cap entries (WEIR_IFDS_NONE past them)
   * while procedures arrive; closing the proc section, once the ranges are
   * known to cover all N nodes, brings it to N and allocates the others. */
  uint32_t *node_proc;
  uint32_t node_cap;
  uint32_t *out_count; /* [N + 1] edges leaving each node; NULL before the body */
  uint32_t *node_call; /* index into the call vectors, or WEIR_IFDS_NONE; ditto */

  /* Elements in the order added; *_line only when `lines`. */
  ifds_vec edge_from, edge_to, edge_flow, edge_line;
  ifds_vec call_node, call_return, call_flow, call_line;
  ifds_vec callee_site, callee_proc, callee_call_flow, callee_return_flow, callee_line;
  ifds_vec seed_node, seed_fact;
  ifds_flow_table flows;
} ifds_builder;

/* Sets up an empty builder (counts already valid: F >= 1, P >= 1, N >= 2);
 * the tables sized by the counts are allocated as elements arrive.
 * `lines`: tags are text lines. */
weir_status ifds_builder_init(ifds_builder *b, uint32_t facts, uint32_t procs, uint32_t nodes,
                              int lines);
void ifds_builder_release(ifds_builder *b);

/* The element calls. Indices are already checked against the counts (and
 * flows against the table); `tag` is the line in line mode, else ignored. */
weir_status ifds_builder_proc(ifds_builder *b, uint32_t id, uint32_t first, uint32_t last,
                              const char *name, size_t length, uint32_t tag);
weir_status ifds_builder_close_procs(ifds_builder *b);
weir_status ifds_builder_edge(ifds_builder *b, uint32_t from, uint32_t to, uint32_t flow,
                              uint32_t tag);
weir_status ifds_builder_call(ifds_builder *b, uint32_t site, uint32_t ret, uint32_t flow,
                              uint32_t tag);
weir_status ifds_builder_callee(ifds_builder *b, uint32_t site, uint32_t proc, uint32_t call_flow,
                                uint32_t return_flow, uint32_t tag);
weir_status ifds_builder_seed(ifds_builder *b, uint32_t node, uint32_t fact);
/* The checks that need every element, then the assembly into *p (build.c). */
weir_status ifds_builder_finish(ifds_builder *b, weir_ifds_problem *p);
/* Call sites and callees of the finished problem (build_calls.c). */
weir_status ifds_builder_calls(ifds_builder *b, weir_ifds_problem *p);

/* Bytes the process may still allocate (load_budget.c); *source names the
 * limit that set it, for messages. UINT64_MAX when nothing is known. */
uint64_t ifds_memory_budget(const char **source);
/* WEIR_ERR_OUT_OF_MEMORY naming `what`, the counts and the limit when
 * `bytes` more than 16 MiB exceed the budget; else WEIR_OK. Tables filled in
 * full are refused up front, not left to the OOM killer. */
weir_status ifds_builder_fits(const ifds_builder *b, uint64_t bytes, const char *what);

/* Reports a broken rule through b->report. */
static inline weir_status ifds_builder_fail(const ifds_builder *b, const ifds_site *site,
                                            const char *what, const char *found,
                                            const char *expected, const char *fix) {
  return b->report(b, site, what, found, expected, fix);
}

/* A message's wording for the front end in use: `text` when the loader
 * reports a line of a file, `api` (the call to make) when the caller built
 * through weir_ifds_builder_* (C or Python), who never wrote a line. */
static inline const char *ifds_builder_says(const ifds_builder *b, const char *text,
                                            const char *api) {
  return b->lines ? text : api;
}

/* The tag of element i of a kind whose lines are `lines` (see ifds_site). */
static inline uint32_t ifds_builder_tag(const ifds_builder *b, const ifds_vec *lines, size_t i) {
  return b->lines ? lines->data[i] : (uint32_t)i + 1;
}

/* How a message refers to an element added earlier: "on line 7" (loader)
 * or "edge 3" (builder), from its tag. */
void ifds_builder_ref(const ifds_builder *b, ifds_elem kind, uint32_t tag, char *out, size_t cap);

#endif
