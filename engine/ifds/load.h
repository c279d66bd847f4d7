/* The text loader: a front end over the problem builder (builder.h). It
 * splits the input into lines and tokens, checks what is about text (numbers,
 * tokens, the header, the `end` trailer) and feeds every element to the
 * builder, which checks the rules; the builder's reports come back here and
 * become FILE:LINE:COL messages (load_parse.c). Body lines of the usual shape
 * take a fast path (load_fast.c); any line it does not handle, or where
 * anything fails, is done again by the general path, so that every message
 * comes from one place. */
#ifndef WEIR_ENGINE_IFDS_LOAD_H
#define WEIR_ENGINE_IFDS_LOAD_H

#include "engine/ifds/builder.h"

enum {
  IFDS_STAGE_MAGIC, /* expecting `weir-ifds 1` */
  IFDS_STAGE_FACTS, /* expecting `facts F` */
  IFDS_STAGE_PROCS, /* expecting `procs P` */
  IFDS_STAGE_NODES, /* expecting `nodes N` */
  IFDS_STAGE_PROC,  /* proc lines */
  IFDS_STAGE_BODY,  /* edge, call, callee, seed lines */
  IFDS_STAGE_END    /* after the `end` trailer: comments and blank lines only */
};

#define IFDS_MAX_TOKENS 8

typedef struct ifds_token {
  const char *text;
  size_t length;
} ifds_token;

/* The fast path's cache of flow tokens up to 16 bytes: the token's bytes,
 * zero-padded, are the key (tokens never contain a zero byte), so a lookup
 * is one probe and two compares, with no copy of the text to compare with. */
typedef struct ifds_token_slot {
  uint64_t a, b;
  uint32_t flow; /* index + 1; 0 = empty */
} ifds_token_slot;

/* The table holds every cached token, but with tens of thousands of them it
 * outgrows the L1 and L2 caches and each lookup waits for memory (perf: the
 * slot load was 40% of the lookups' time on the 2 M-node problem). A
 * direct-mapped front table of IFDS_TOKEN_HOT slots (96 KiB, in L2)
 * holds the token last looked up at each hash, so that the few hundred
 * tokens which make up most lines are found without touching the table. */
#define IFDS_TOKEN_HOT 4096u

typedef struct ifds_token_cache {
  ifds_token_slot *slots;
  size_t cap, count;
  ifds_token_slot *hot; /* [IFDS_TOKEN_HOT], allocated with the first slots */
  uint32_t id_flow;     /* index + 1 of `id` once seen */
} ifds_token_cache;

typedef struct ifds_loader {
  const char *name;       /* file name for messages */
  uint64_t input_bytes;   /* size of the whole input; 0 when not known (a pipe) */
  uint64_t line;          /* current line, 1-based */
  const char *line_start; /* its first byte */
  const char *line_end;   /* after its last token byte (for "missing ..." columns) */
  ifds_token tok[IFDS_MAX_TOKENS];
  size_t tok_count;
  int stage;
  int strict; /* no `end` trailer is an error */
  int fast;   /* in the fast path: a report is only a signal to redo the line */

  uint32_t facts, procs, nodes;
  uint64_t procs_line; /* line of `procs`, where a missing proc line is reported */
  size_t procs_col;

  ifds_builder b; /* initialized at the `nodes` line */
  ifds_token_cache tokens;
} ifds_loader;

/* Formats "NAME:LINE:COL: error: WHAT (found F, expected E). Fix: FIX." as a
 * WEIR_ERR_PARSE failure. */
weir_status ifds_load_fail(const ifds_loader *L, uint64_t line, size_t col, const char *what,
                           const char *found, const char *expected, const char *fix);
/* Column (1-based) of a pointer into the current line. */
static inline size_t ifds_col(const ifds_loader *L, const char *p) {
  return (size_t)(p - L->line_start) + 1;
}
static inline uint32_t ifds_line32(const ifds_loader *L) {
  return L->line > UINT32_MAX ? UINT32_MAX : (uint32_t)L->line;
}

/* One line's directive (tokens already split, at least one). */
weir_status ifds_load_directive(ifds_loader *L);
/* An edge, call, callee, seed or end line (load_body.c). */
weir_status ifds_load_body(ifds_loader *L, const ifds_token *t);
/* Token helpers of load_parse.c for load_body.c: token i as a number, as an
 * index below `limit`, as a flow function, no tokens past `count`, a
 * misplaced directive. */
weir_status ifds_load_number(ifds_loader *L, size_t i, const char *label, uint32_t *out);
weir_status ifds_load_index(ifds_loader *L, size_t i, const char *label, uint32_t limit,
                            uint32_t *out);
weir_status ifds_load_flow(ifds_loader *L, size_t i, const char *label, uint32_t *out);
weir_status ifds_load_no_more(ifds_loader *L, size_t count);
weir_status ifds_load_misplaced(ifds_loader *L);

/* The fast path for one body line at p (load_fast.c): *next is past its LF
 * when it was handled, NULL when the general path has to do it. */
weir_status ifds_load_fast_line(ifds_loader *L, const char *p, const char *end,
                                const char **next);

/* End of input: the remaining checks, then the problem is assembled. */
weir_status ifds_load_finish(ifds_loader *L, weir_ifds_problem *p);

#endif
