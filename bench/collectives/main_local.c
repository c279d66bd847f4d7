/* weir_bench_collectives: the collectives benchmark on a local group.
 *
 *   weir_bench_collectives [--members N] [--backend cpu] [--size BYTES]...
 *                          [--runs R] [--json FILE]
 *
 * Members are BACKEND:0 .. BACKEND:N-1 (default 4 x cpu) over the stream
 * transport; allreduce reduces on the host, allgather and alltoallv are
 * copies (device copies within a backend, staged between backends). */
#include "bench/collectives/bench.h"

int main(int argc, char **argv) {
  bench_options o = {.members = 4};
  int parsed = bench_parse(argc, argv, &o, 1);
  if (parsed != 0) {
    fprintf(parsed < 0 ? stdout : stderr, "usage: weir_bench_collectives [--members 1..8] "
            "[--backend cpu|vulkan] [--size BYTES]... [--runs R] [--json FILE]\n");
    return parsed < 0 ? 0 : 2;
  }
  uint32_t members = (uint32_t)o.members;
  const char *backend = o.backend;
  char label[64];
  snprintf(label, sizeof label, "local %u x %s", members, backend);
  o.label = label;
  weir_backend *b[8] = {0};
  weir_transport *t = NULL;
  weir_group *g = NULL;
  weir_status st = weir_stream_transport_create(NULL, &t);
  for (uint32_t m = 0; m < members && st == WEIR_OK; ++m) {
    char spec[64];
    snprintf(spec, sizeof spec, "%s:%u", backend, m);
    st = weir_backend_open(spec, &b[m]);
  }
  if (st == WEIR_OK) st = weir_group_create_local(t, b, members, &g);
  int code = st == WEIR_OK ? bench_run(g, b, &o, &(bench_sync){NULL, NULL}, 1) : 1;
  if (st != WEIR_OK) fprintf(stderr, "weir_bench_collectives: %s\n", weir_last_error());
  weir_group_destroy(g);
  weir_transport_destroy(t);
  for (uint32_t m = 0; m < members; ++m) weir_backend_close(b[m]);
  return code;
}
