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

#include <stdatomic.h>

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

typedef struct ifds_token_cache {
  ifds_token_slot *slots;
  size_t cap, count;
  uint32_t id_flow; /* index + 1 of `id` once seen */
} ifds_token_cache;

struct ifds_loader;
/* An extension of the text format (the IDE loader, engine/ide/load.c):
 * NULL for plain IFDS files. With one, the magic is `weir-ide 1`, lines
 * between it and `facts` are the extension's header, the fast path is off,
 * and body lines hand their tokens past the IFDS ones to `body`. */
typedef struct ifds_load_ext {
  void *user;
  const char *magic; /* "weir-ide" */
  /* How messages name the format: its documentation ("docs/ide-format.md"),
   * the header directives in order ("weir-ide, family, state lines
   * (typestate), facts, procs and nodes") and every directive. */
  const char *doc, *header_order, *directives;
  /* A line between the magic and `facts` (token 0 is not `facts`). */
  weir_status (*header)(struct ifds_loader *L);
  /* The `facts` line is reached: the extension's header must be complete. */
  weir_status (*header_done)(struct ifds_loader *L);
  /* The tokens from `first` on of a body line whose IFDS part the builder
   * took: an edge (a -> b, flow f0), a call (site a, return b, flow f0), a
   * callee (site a, proc b, flows f0 and f1) or a seed (node a, fact b). */
  weir_status (*body)(struct ifds_loader *L, ifds_elem kind, size_t first, uint32_t a, uint32_t b,
                      uint32_t f0, uint32_t f1);
} ifds_load_ext;

typedef struct ifds_loader {
  const ifds_load_ext *ext; /* NULL: plain IFDS */
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
  int threads;      /* chunks of the body (1: serial); see ifds_load_threads */
  int threads_auto; /* chosen here, not by the caller: small bodies stay serial */
  int stop_at_body; /* load_lines returns after the first body line */
  int chunk;        /* a chunk's loader (load_chunk.c): body lines go to its arrays */

  uint32_t facts, procs, nodes;
  uint64_t procs_line; /* line of `procs`, where a missing proc line is reported */
  size_t procs_col;

  ifds_builder b; /* initialized at the `nodes` line */
  ifds_token_cache tokens;
} ifds_loader;

/* The chunks a load splits the body into, chosen inside the library (the
 * public weir_ifds_load_options has no field for it: a field added to that
 * caller-allocated struct, which has no struct_size, would break the ABI):
 * WEIR_IFDS_LOAD_THREADS from the environment when set and not empty, which
 * must be a number from 1 to IFDS_LOAD_MAX_THREADS (anything else is
 * WEIR_ERR_INVALID_ARGUMENT naming the variable and its value), else the
 * online CPUs (at most IFDS_LOAD_AUTO_THREADS; *automatic is then 1). Read
 * once per load call, by loader_init (load.c). */
#define IFDS_LOAD_MAX_THREADS 64
#define IFDS_LOAD_AUTO_THREADS 8
weir_status ifds_load_threads(int *threads, int *automatic);

/* Splits [start, lf) into tokens (L->tok); control bytes are errors. */
weir_status ifds_load_tokenize(ifds_loader *L, const char *start, const char *lf);

/* The chunks a body of `length` bytes is cut into: L->threads, or fewer
 * when chosen automatically (at least 4 MiB each); below 2, a serial load. */
int ifds_load_chunk_count(const ifds_loader *L, size_t length);

/* Part [begin, end) of an input at `base` (whole lines), and the serial
 * path that loads such a part into a loader (load.c). */
typedef struct ifds_range {
  const char *base;
  size_t begin, end;
  int drop_pages; /* a mapped file: drop the pages parsed */
  weir_status (*serial)(ifds_loader *L, const char *base, size_t begin, size_t end,
                        int drop_pages);
} ifds_range;

/* The body of a loader past its first body line (load_split.c): cut at line
 * boundaries into ifds_load_chunk_count chunks; the first is loaded by
 * body->serial on this thread while threads parse the others, which are
 * then merged into L in file order. *taken: the bytes (from base) that L
 * holds: body->end when merged; the end of the first chunk when a later one
 * met a line it could not take (the serial path goes on from there and
 * reports it); *spoilt when the chunks together break a rule between lines
 * (L holds part of a merge: the caller loads the input again serially).
 * An error of the first chunk is returned as the serial path words it. */
weir_status ifds_load_chunks(ifds_loader *L, const ifds_range *body, size_t *taken, int *spoilt);

/* One chunk of the body: whole lines [start, end), parsed by one thread into
 * its own loader (arrays, flow table, token cache; the proc section's tables
 * are the main loader's, read only). Lines count from 1 in the chunk; the
 * merge adds the chunk's first line. */
typedef struct ifds_chunk {
  ifds_loader L;
  const char *start, *end;
  int drop_pages;            /* a mapped file: drop the pages already parsed */
  const _Atomic int *stop;   /* set when another chunk failed: give up early */
  int failed;                /* a line this chunk could not take, or it gave up */
  int directives;            /* lines with a directive (not blank, not comment) */
  uint64_t end_line;         /* the `end` line (chunk line), 0 if none */
  uint32_t end_want[4];      /* its counts */
  size_t end_have[4];        /* the chunk's elements above it */
  /* Set by the merge for the copy: the chunk's flows' indices in the
   * loader's table, where its edges, calls, callees and seeds go in the
   * loader's arrays, and what its line numbers need added. */
  uint32_t *flow_map;
  size_t at[4];
  uint64_t shift;
} ifds_chunk;

/* Sets up chunk c over [start, end) for the loader `main` (in its body). */
void ifds_chunk_init(ifds_chunk *c, const ifds_loader *main, const char *start, const char *end);
/* Parses the chunk (a thread's work); c->failed tells how it went. */
void ifds_chunk_parse(ifds_chunk *c);
/* Frees what the chunk allocated (not the shared tables). */
void ifds_chunk_free(ifds_chunk *c);

/* A chunk's body elements (load_chunk.c): the rules that one line breaks
 * against the proc section (read-only, shared by the chunks), then its own
 * arrays. The rules between lines (a call node with edges, two calls of one
 * node) are checked when the chunks are merged. WEIR_ERR_PARSE: refused. */
weir_status ifds_chunk_edge(ifds_loader *L, uint32_t from, uint32_t to, uint32_t flow);
weir_status ifds_chunk_call(ifds_loader *L, uint32_t site, uint32_t ret, uint32_t flow);
weir_status ifds_chunk_callee(ifds_loader *L, uint32_t site, uint32_t proc, uint32_t call_flow,
                              uint32_t return_flow);
weir_status ifds_chunk_seed(ifds_loader *L, uint32_t node, uint32_t fact);

/* Formats "NAME:LINE:COL: error: WHAT (found F, expected E). Fix: FIX." as a
 * WEIR_ERR_PARSE failure. */
weir_status ifds_load_fail(const ifds_loader *L, uint64_t line, size_t col, const char *what,
                           const char *found, const char *expected, const char *fix);
/* The wording of messages for the kind of file loaded: plain IFDS
 * (`weir-ifds 1`, docs/ifds-format.md) or the extension's. */
static inline const char *ifds_load_magic(const ifds_loader *L) {
  return L->ext ? L->ext->magic : "weir-ifds";
}
static inline const char *ifds_load_doc(const ifds_loader *L) {
  return L->ext ? L->ext->doc : "docs/ifds-format.md";
}
static inline const char *ifds_load_header_order(const ifds_loader *L) {
  return L->ext ? L->ext->header_order : "weir-ifds, facts, procs and nodes";
}
static inline const char *ifds_load_directives(const ifds_loader *L) {
  return L->ext ? L->ext->directives : "weir-ifds, facts, procs, nodes, proc, edge, call, callee, seed";
}
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

/* The fast path for one proc or body line at p (load_fast.c): *next is
 * past its LF when it was handled, NULL when the general path has to do it. */
weir_status ifds_load_fast_line(ifds_loader *L, const char *p, const char *end,
                                const char **next);

/* End of input: the remaining checks, then the problem is assembled. */
weir_status ifds_load_finish(ifds_loader *L, weir_ifds_problem *p);

/* The public loads with an extension (ext may be NULL). */
weir_status ifds_load_memory_with(const char *name, const char *text, size_t length,
                                  const weir_ifds_load_options *options,
                                  const ifds_load_ext *ext, weir_ifds_problem **out);
weir_status ifds_load_file_with(const char *path, const weir_ifds_load_options *options,
                                const ifds_load_ext *ext, weir_ifds_problem **out);

#endif
