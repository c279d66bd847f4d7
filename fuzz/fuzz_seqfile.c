/* libFuzzer target: `weir bench run` sequence files (bench/dispatch), parsed
 * from memory. Only the parser runs (the reference run executes what a file
 * asks for), with the buffers bounded to 64 MiB in all: a file may
 * legitimately ask for gigabytes, which the fuzzer would report as a leak of
 * memory it cannot tell from a bug. */
#include <stdint.h>
#include <stdlib.h>

#include "bench/dispatch/bench.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  weir_bench_seqfile *file = NULL;
  if (weir_bench_seqfile_parse("fuzz.seq", (const char *)data, size, 64u << 20, &file) == WEIR_OK)
    weir_bench_seqfile_free(file);
  return 0;
}
