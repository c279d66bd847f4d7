/* Internal to bench/dispatch: a parsed sequence file (format: bench/README.md). */
#ifndef WEIR_BENCH_DISPATCH_SEQFILE_H
#define WEIR_BENCH_DISPATCH_SEQFILE_H

#include "bench/dispatch/bench.h"

#define SEQ_MAX_NAME 64
#define SEQ_MAX_BUFFERS 256
#define SEQ_MAX_READS 256
#define SEQ_MAX_PROGRAMS 16

typedef struct seq_buffer {
  char name[SEQ_MAX_NAME];
  uint64_t bytes;
  void *initial; /* host copy of the initial contents (bytes long) */
} seq_buffer;

typedef struct seq_step {
  const weir_program *declared;         /* the built-in or file program of that name */
  uint32_t bindings[WEIR_MAX_BINDINGS]; /* buffer indices */
  uint32_t binding_count;
  weir_grid grid;
  uint32_t push[WEIR_BENCH_MAX_PUSH_WORDS];
  uint32_t push_words;
  int line;
} seq_step;

typedef struct seq_read {
  uint32_t buffer;
  uint64_t offset, bytes;
} seq_read;

/* `rel` relative to the folder of file `base` (absolute paths unchanged). */
void weir_bench_resolve_path(const char *base, const char *rel, char *out, size_t n);

struct weir_bench_seqfile {
  char name[SEQ_MAX_NAME]; /* file name without directories */
  seq_buffer buffers[SEQ_MAX_BUFFERS];
  size_t buffer_count;
  seq_step *steps; /* [0, prefix_count) run once, [prefix_count, step_count) repeat */
  size_t step_count, step_cap, prefix_count;
  int has_repeat;
  uint64_t repeat;
  seq_read reads[SEQ_MAX_READS];
  size_t read_count;
  void *outputs[SEQ_MAX_READS];   /* read-backs of the latest run */
  void *reference[SEQ_MAX_READS]; /* read-backs of the cpu reference run */
  int has_reference;
  int want_reference; /* verification asked for; the reference may come from the first backend */
  char reference_spec[48];
  weir_program *programs[SEQ_MAX_PROGRAMS]; /* `program` lines, loaded from files (owned) */
  size_t program_count;
};

#endif
