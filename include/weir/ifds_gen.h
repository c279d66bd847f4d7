/* weir — generated IFDS problems for tests and benchmarks.
 *
 * Every preset writes a valid problem (it always passes the loader), and the
 * same options give the same bytes on every machine: the generator has its
 * own seeded random numbers and no other input. */
#ifndef WEIR_IFDS_GEN_H
#define WEIR_IFDS_GEN_H

#include "weir/export.h"

#include <stdint.h>
#include <stdio.h>

#include "weir/ifds.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum weir_ifds_preset {
  WEIR_IFDS_PRESET_CHAIN,      /* deep call chain: procedure i calls i+1 */
  WEIR_IFDS_PRESET_FANOUT,     /* one procedure called from many sites */
  WEIR_IFDS_PRESET_RECURSIVE,  /* mutual recursion: i calls i+1 mod P, and itself */
  WEIR_IFDS_PRESET_WIDE_FACTS, /* many facts, few nodes, flows with many pairs */
  WEIR_IFDS_PRESET_LOOPS,      /* intraprocedural cycles, nested loops */
  WEIR_IFDS_PRESET_REALISTIC,  /* small and large procedures, ~10% calls, indirect calls,
                                  gen/kill flows, some unreachable procedures */
  WEIR_IFDS_PRESET_COUNT
} weir_ifds_preset;

/* Size knobs; 0 means the preset's default. */
typedef struct weir_ifds_gen_options {
  weir_ifds_preset preset;
  uint32_t procs;          /* procedures */
  uint32_t nodes_per_proc; /* average nodes per procedure (>= 2) */
  uint32_t facts;          /* facts, the zero fact included (>= 1) */
  uint32_t seeds;          /* seed lines; the first is always (main's start, 0) */
  uint64_t seed;           /* random seed (0 is a seed like any other) */
} weir_ifds_gen_options;

/* "chain", "fanout", "recursive", "wide-facts", "loops", "realistic". */
WEIR_API const char *weir_ifds_preset_name(weir_ifds_preset preset);
/* WEIR_ERR_INVALID_ARGUMENT naming the presets for an unknown name. */
WEIR_API weir_status weir_ifds_preset_parse(const char *name, weir_ifds_preset *out);
/* Fills the zero knobs of *options with the defaults of options->preset. */
WEIR_API void weir_ifds_gen_defaults(weir_ifds_gen_options *options);

/* Writes the problem in the text format: a comment line with the options,
 * then weir_ifds_write_problem's canonical text (ending with `end`).
 * WEIR_ERR_INVALID_ARGUMENT for sizes that do not fit (more than 2^32-1
 * nodes in all). */
WEIR_API weir_status weir_ifds_generate(const weir_ifds_gen_options *options, FILE *out);
/* The same problem in memory, built with weir_ifds_builder (the rules and
 * the result of loading the text that weir_ifds_generate writes). */
WEIR_API weir_status weir_ifds_generate_problem(const weir_ifds_gen_options *options,
                                       weir_ifds_problem **out);

#ifdef __cplusplus
}
#endif
#endif
