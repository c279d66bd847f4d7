/* Verifying a program across backends: the same step on the same initial
 * contents must leave the same bytes in every binding. The first backend to
 * run it is the reference (the CLI runs cpu first when the program has host
 * code), so a kernel that processes half a buffer on one backend shows up as
 * a mismatch with the word that differs. */
#include <stdlib.h>
#include <string.h>

#include "bench/dispatch/bench.h"

static weir_status upload_pattern(weir_backend *b, const weir_step *step, uint64_t bytes) {
  uint32_t *words = malloc((size_t)bytes);
  if (!words)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "verify: %llu bytes of host memory. Fix: lower "
                     "--buffer-size.", (unsigned long long)bytes);
  weir_status st = WEIR_OK;
  for (uint32_t k = 0; k < step->binding_count && st == WEIR_OK; ++k) {
    for (uint64_t i = 0; i < bytes / 4; ++i) words[i] = (uint32_t)i + 0x01000000u * k;
    st = weir_upload(b, step->bindings[k], words, bytes / 4 * 4);
  }
  free(words);
  return st;
}

/* 1 equal, 0 different (the first difference printed). */
static int compare(const weir_bench_verify *v, void *const *got, const char *spec, FILE *progress) {
  for (uint32_t k = 0; k < v->count; ++k) {
    const uint32_t *a = got[k], *want = v->reference[k];
    for (uint64_t i = 0; i < v->bytes / 4; ++i)
      if (a[i] != want[i]) {
        /* A mismatch is a result, not progress: printed even with --quiet. */
        fprintf(progress ? progress : stderr, "bench verify: %s: binding %u word %llu is 0x%08x, %s has 0x%08x\n",
                  spec, k, (unsigned long long)i, a[i], v->spec, want[i]);
        return 0;
      }
  }
  return 1;
}

weir_status weir_bench_verify_step(weir_backend *b, const weir_step *step, uint64_t bytes,
                                   weir_bench_results *results, FILE *progress, int *verified) {
  weir_bench_verify *v = &results->verify;
  void *got[WEIR_MAX_BINDINGS] = {0};
  weir_range ranges[WEIR_MAX_BINDINGS];
  weir_status st = upload_pattern(b, step, bytes);
  if (st == WEIR_OK) st = weir_dispatch(b, step->program, step->bindings, step->binding_count,
                                        step->grid, step->push_constants, step->push_constant_bytes);
  for (uint32_t k = 0; k < step->binding_count && st == WEIR_OK; ++k) {
    ranges[k] = (weir_range){step->bindings[k], 0, bytes / 4 * 4};
    got[k] = malloc((size_t)bytes);
    if (!got[k]) st = weir_fail(WEIR_ERR_OUT_OF_MEMORY, "verify: no host memory. Fix: lower --buffer-size.");
  }
  if (st == WEIR_OK)
    st = weir_download_ranges_into(b, ranges, step->binding_count, got, step->binding_count);
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  if (st == WEIR_OK) st = weir_backend_device_info(b, &info);
  if (st == WEIR_OK && !v->spec[0]) {
    memcpy(v->reference, got, sizeof got);
    memset(got, 0, sizeof got);
    v->count = step->binding_count;
    v->bytes = bytes / 4 * 4;
    snprintf(v->spec, sizeof v->spec, "%s", info.spec);
    *verified = -1;
  } else if (st == WEIR_OK) {
    *verified = compare(v, got, info.spec, progress);
  }
  for (uint32_t k = 0; k < WEIR_MAX_BINDINGS; ++k) free(got[k]);
  return st;
}
