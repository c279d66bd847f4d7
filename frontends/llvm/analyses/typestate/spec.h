/* The typestate spec (docs/typestate.md): states, which calls create a
 * resource, which calls move it from one state to another, and which calls
 * are errors in which state. */
#ifndef WEIR_FRONTENDS_LLVM_TYPESTATE_SPEC_H
#define WEIR_FRONTENDS_LLVM_TYPESTATE_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "weir/status.h"

#define WEIR_TS_RET UINT32_MAX /* the call's result, not an argument */
#define WEIR_TS_MAX_RULES 16

/* LEAK: no function (fn is ""), `from` the state a resource must not be
 * left in when it becomes unreachable. TRY: a move that happens only on the
 * branch where the call returned 0 (pthread_mutex_trylock). */
enum { WEIR_TS_CREATE = 0, WEIR_TS_MOVE = 1, WEIR_TS_ERROR = 2, WEIR_TS_LEAK = 3, WEIR_TS_TRY = 4 };

typedef struct weir_ts_entry {
  uint8_t kind;     /* WEIR_TS_* */
  char fn[128];
  uint32_t arg;     /* argument index, or WEIR_TS_RET (create only) */
  uint32_t from, to; /* create: to; move, try: from -> to; error, leak: from */
  uint32_t rule;    /* error, leak: into rules */
  char message[160];
} weir_ts_entry;

typedef struct weir_ts_rule {
  char id[80];  /* "weir-typestate-double-close" */
  char cwe[16]; /* "675" */
} weir_ts_rule;

typedef struct weir_ts_spec {
  char name[65];   /* a name of at most 64 bytes (is_name) */
  uint32_t state_count;
  char states[32][65];
  int memory; /* resources are memory (create ... argN: a mutex), not values (fopen's result) */
  weir_ts_entry *entries;
  size_t count, cap;
  weir_ts_rule rules[WEIR_TS_MAX_RULES];
  uint32_t rule_count;
} weir_ts_spec;

/* Parses a spec file; errors "FILE:LINE: error: WHAT. Fix: ..." (WEIR_ERR_PARSE),
 * WEIR_ERR_IO, WEIR_ERR_OUT_OF_MEMORY. Free with weir_ts_spec_free. */
weir_status weir_ts_spec_load(const char *path, weir_ts_spec **out);
void weir_ts_spec_free(weir_ts_spec *spec);

#endif
