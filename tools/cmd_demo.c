/* `weir demo`: a small dispatch sequence that shows the data flow of weir:
 * allocate -> upload -> a sequence and a repeated sequence on the device,
 * each behind one synchronization -> ranged read-back -> check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs/generic.h"
#include "tools/cli_util.h"
#include "tools/commands.h"
#include "weir/weir.h"

#define DEMO_ELEMENTS (1u << 20)
#define DEMO_REPEATS 1000u

static weir_status run_demo(weir_backend *b) {
  weir_buffer data = WEIR_NULL_BUFFER, counter = WEIR_NULL_BUFFER;
  uint32_t *host = calloc(DEMO_ELEMENTS, sizeof *host);
  weir_status st = host ? WEIR_OK
                        : weir_fail(WEIR_ERR_OUT_OF_MEMORY, "demo: no host memory. Fix: free memory.");
  if (st == WEIR_OK) st = weir_allocate(b, DEMO_ELEMENTS * 4ull, &data);
  if (st == WEIR_OK) st = weir_allocate(b, 4, &counter);
  for (uint32_t i = 0; host && i < DEMO_ELEMENTS; ++i) host[i] = i;
  uint32_t zero = 0;
  weir_upload_item ups[2] = {{data, 0, host, DEMO_ELEMENTS * 4ull}, {counter, 0, &zero, 4}};
  if (st == WEIR_OK) st = weir_upload_many(b, ups, 2);

  /* Sequence: data += 5, then data += 7 (step 2 sees step 1), read 2 ranges. */
  weir_add_u32_push add5 = {5, DEMO_ELEMENTS}, add7 = {7, DEMO_ELEMENTS};
  const weir_program *add = weir_builtin_program("add_u32");
  const weir_program *count = weir_builtin_program("counter_u32");
  weir_step steps[2] = {{add, &data, 1, {0, 0, 0}, &add5, sizeof add5},
                        {add, &data, 1, {0, 0, 0}, &add7, sizeof add7}};
  uint32_t head[4], tail[4], counted = 0;
  weir_range reads[2] = {{data, 0, sizeof head}, {data, (DEMO_ELEMENTS - 4) * 4ull, sizeof tail}};
  void *outs[2] = {head, tail};
  double t0 = weir_cli_now();
  if (st == WEIR_OK) st = weir_dispatch_sequence_read_ranges_into(b, steps, 2, reads, 2, outs, 2);
  double t1 = weir_cli_now();
  /* Repeated sequence: the counter program 1000 times, one synchronization. */
  weir_step tick = {count, &counter, 1, {0, 0, 0}, NULL, 0};
  weir_range counter_read = {counter, 0, 4};
  void *counter_out[1] = {&counted};
  if (st == WEIR_OK)
    st = weir_dispatch_repeated_sequence_read_ranges_into(b, NULL, 0, &tick, 1, DEMO_REPEATS,
                                                          &counter_read, 1, counter_out, 1);
  double t2 = weir_cli_now();
  if (st == WEIR_OK) {
    int ok = head[0] == 12 && head[3] == 15 && tail[3] == DEMO_ELEMENTS - 1 + 12 &&
             counted == DEMO_REPEATS;
    weir_backend_stats stats;
    weir_backend_get_stats(b, &stats);
    printf("sequence: 2 x add_u32 over %u elements, read 2 x 16 bytes: %.3f ms, data[0] = %u, "
           "data[last] = %u\n",
           DEMO_ELEMENTS, (t1 - t0) * 1e3, head[0], tail[3]);
    printf("repeated: counter_u32 x %u, read 4 bytes: %.3f ms, counter = %u\n", DEMO_REPEATS,
           (t2 - t1) * 1e3, counted);
    printf("host synchronizations: %llu, bytes uploaded: %llu, downloaded: %llu\n",
           (unsigned long long)stats.host_syncs, (unsigned long long)stats.bytes_uploaded,
           (unsigned long long)stats.bytes_downloaded);
    printf("%s\n", ok ? "demo: results check out" : "demo: WRONG RESULTS");
    if (!ok) st = weir_fail(WEIR_ERR_INTERNAL, "demo: results differ from the expected values. "
                                               "Fix: run `weir conformance` on this backend.");
  }
  if (counter.owner) weir_free(b, counter);
  if (data.owner) weir_free(b, data);
  free(host);
  return st;
}

int weir_cmd_demo(int argc, char **argv) {
  const char *spec = "auto";
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) spec = argv[++i];
    else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf("usage: weir demo [--backend SPEC]\n\nRuns a two-step sequence and a 1000-times "
             "repeated step, each behind one synchronization, and checks the read-backs.\n");
      return 0;
    } else {
      fprintf(stderr, "weir demo: unknown argument '%s'. Fix: see `weir demo --help`.\n", argv[i]);
      return 2;
    }
  }
  weir_backend *b = NULL;
  weir_status st = weir_backend_open(spec, &b);
  if (st != WEIR_OK) return weir_cli_report("demo", st);
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  weir_backend_device_info(b, &info);
  printf("backend: %s (%s)\n", info.spec, info.name);
  st = run_demo(b);
  weir_backend_close(b);
  return weir_cli_report("demo", st);
}
