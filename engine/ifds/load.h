/* The loader's state between lines. The file is fed line by line (from a
 * chunked read or from memory); every rule that can be checked on a line is
 * checked there, the rest when the input ends (load_build.c). */
#ifndef WEIR_ENGINE_IFDS_LOAD_H
#define WEIR_ENGINE_IFDS_LOAD_H

#include "engine/ifds/flows.h"
#include "engine/ifds/internal.h"
#include "weir/ifds.h"

enum {
  IFDS_STAGE_MAGIC, /* expecting `weir-ifds 1` */
  IFDS_STAGE_FACTS, /* expecting `facts F` */
  IFDS_STAGE_PROCS, /* expecting `procs P` */
  IFDS_STAGE_NODES, /* expecting `nodes N` */
  IFDS_STAGE_PROC,  /* proc lines */
  IFDS_STAGE_BODY   /* edge, call, callee, seed lines */
};

#define IFDS_MAX_TOKENS 8

typedef struct ifds_token {
  const char *text;
  size_t length;
} ifds_token;

typedef struct ifds_loader {
  const char *name;       /* file name for messages */
  uint64_t input_bytes;   /* size of the whole input; 0 when not known (a pipe) */
  uint64_t line;          /* current line, 1-based */
  const char *line_start; /* its first byte */
  const char *line_end;   /* after its last token byte (for "missing ..." columns) */
  ifds_token tok[IFDS_MAX_TOKENS];
  size_t tok_count;
  int stage;

  uint32_t facts, procs, nodes;
  uint64_t procs_line; /* line of `procs`, where a missing proc line is reported */
  size_t procs_col;

  /* Procedures, by ID; proc_line[id] == 0 while no line has defined it. */
  uint32_t *proc_first, *proc_last, *proc_line;
  uint32_t *name_offset, *name_length; /* into names */
  char *names;
  size_t names_len, names_cap;
  uint32_t *name_slots; /* hash set of proc IDs + 1, by name */
  size_t name_slot_cap;
  uint32_t procs_seen;

  /* Per node (allocated at `nodes`). */
  uint32_t *node_proc;
  uint32_t *out_count; /* [N + 1] edges leaving each node */
  uint32_t *node_call; /* index into the call vectors, or WEIR_IFDS_NONE */

  ifds_vec edge_from, edge_to, edge_flow, edge_line;
  ifds_vec call_node, call_return, call_flow, call_line;
  ifds_vec callee_site, callee_proc, callee_call_flow, callee_return_flow, callee_line;
  ifds_vec seed_node, seed_fact;
  ifds_flow_table flows;
} ifds_loader;

/* Formats "NAME:LINE:COL: error: WHAT (found F, expected E). Fix: FIX." as a
 * WEIR_ERR_PARSE failure. */
weir_status ifds_load_fail(const ifds_loader *L, uint64_t line, size_t col, const char *what,
                           const char *found, const char *expected, const char *fix);
/* 'token' quoted and shortened for a message. */
void ifds_quote(char *out, size_t cap, const char *text, size_t length);
/* Column (1-based) of a pointer into the current line. */
static inline size_t ifds_col(const ifds_loader *L, const char *p) {
  return (size_t)(p - L->line_start) + 1;
}

/* Bytes the loader may still allocate (see load_budget.c); *source names the
 * limit that set it, for messages. UINT64_MAX when nothing is known. */
uint64_t ifds_memory_budget(const char **source);

/* One line's directive (tokens already split, at least one). */
weir_status ifds_load_directive(ifds_loader *L);
/* An edge, call, callee or seed line (load_body.c). */
weir_status ifds_load_body(ifds_loader *L, const ifds_token *t);
/* Token helpers of load_parse.c for load_body.c: token i as an index below
 * `limit`, as a flow function, no tokens past `count`, a misplaced directive. */
weir_status ifds_load_index(ifds_loader *L, size_t i, const char *label, uint32_t limit,
                            uint32_t *out);
weir_status ifds_load_flow(ifds_loader *L, size_t i, const char *label, uint32_t *out);
weir_status ifds_load_no_more(ifds_loader *L, size_t count);
weir_status ifds_load_misplaced(ifds_loader *L);
/* Closes the proc section: every procedure present, ranges partition the nodes. */
weir_status ifds_load_close_procs(ifds_loader *L);
/* Call sites and callees at the end of the input (load_calls.c). */
weir_status ifds_load_calls(ifds_loader *L, weir_ifds_problem *p);
/* End of input: the remaining checks, then the problem is assembled. */
weir_status ifds_load_finish(ifds_loader *L, weir_ifds_problem *p);

#endif
