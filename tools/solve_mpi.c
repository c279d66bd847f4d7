/* weir-solve-mpi: `weir solve --mpi`, the MPI runner (the one weir program
 * that links MPI; built only when MPI was found). `weir solve ... --mpi`
 * executes it with the same arguments, so under `mpirun -n N weir solve F
 * --mpi` every rank runs this: MPI_Init, every rank loads F and opens its own
 * device, they agree on both (weir_group_agree: a rank that failed stops
 * every rank with its message, nobody hangs), then one solve across the
 * ranks (weir_ifds_solve_engine_group over an MPI group). Rank 0 writes the
 * result, --stats and the summary; every rank exits with the same code. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>

#include "tools/cli_util.h"
#include "tools/solve.h"
#include "weir/ifds.h"
#include "weir/mpi/transport.h"

#define SPEC_BYTES 256

/* This rank's index among the ranks of its node: the launcher's variable
 * (OpenMPI, MPICH/Hydra, MVAPICH, Slurm), else the rank in the node's shared
 * memory communicator. Collective (every rank calls it). */
static int local_rank(int rank) {
  MPI_Comm node = MPI_COMM_NULL;
  int from_split = 0;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) ==
          MPI_SUCCESS &&
      node != MPI_COMM_NULL) {
    MPI_Comm_rank(node, &from_split);
    MPI_Comm_free(&node);
  }
  const char *names[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                         "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    const char *v = getenv(names[i]);
    uint64_t n;
    if (v && weir_cli_parse_u64(v, &n) == 0 && n < 1u << 20) return (int)n;
  }
  return from_split;
}

/* This rank's device spec: element `rank` of a list (one per rank), else the
 * one spec; `cuda` and `vulkan` without an index become the node-local
 * device local_rank % (devices of that backend here). */
static weir_status rank_spec(const weir_solve_args *a, int rank, int size, int lrank, char *out) {
  const char *spec = a->devices[0];
  if (a->device_count > 1) {
    if (a->device_count != (size_t)size)
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "--mpi --backend '%s' lists %zu devices for %d ranks (a list gives rank r "
                       "its element r). Fix: list one device per rank, or give one spec for every "
                       "rank (e.g. --backend cuda: each rank takes its node-local GPU).",
                       a->backend, a->device_count, size);
    spec = a->devices[rank];
  }
  snprintf(out, SPEC_BYTES, "%s", spec);
  if (strcmp(spec, "cuda") != 0 && strcmp(spec, "vulkan") != 0) return WEIR_OK;
  weir_backend_report reports[32];
  size_t count = 0;
  if (weir_backend_reports(reports, 32, &count) != WEIR_OK) return WEIR_OK; /* open tells */
  for (size_t i = 0; i < count && i < 32; ++i)
    if (strcmp(reports[i].id, spec) == 0 && reports[i].available && reports[i].device_count)
      snprintf(out, SPEC_BYTES, "%s:%u", spec, (unsigned)lrank % reports[i].device_count);
  return WEIR_OK;
}

/* Sets this thread's message to `saved` with `status` (agree sends the last
 * error of the thread, and later calls may have replaced it). */
static weir_status restore(weir_status status, const char *saved) {
  return status == WEIR_OK ? WEIR_OK : weir_fail(status, "%s", saved);
}

/* "mpi[cpu:0,cpu:1,...]": every rank's device, gathered on rank 0. */
static void gather_ids(const char *mine, int rank, int size, char *out, size_t cap) {
  char local[48] = {0};
  snprintf(local, sizeof local, "%s", mine);
  char *all = rank == 0 ? calloc((size_t)size, sizeof local) : NULL;
  MPI_Gather(local, (int)sizeof local, MPI_CHAR, all, (int)sizeof local, MPI_CHAR, 0,
             MPI_COMM_WORLD);
  if (rank != 0) return;
  if (!all) {
    snprintf(out, cap, "mpi[%d ranks]", size);
    return;
  }
  size_t used = (size_t)snprintf(out, cap, "mpi[");
  for (int r = 0; r < size && used + 8 < cap; ++r) {
    int w = snprintf(out + used, cap - used, "%s%s", r ? "," : "", all + (size_t)r * sizeof local);
    if (w < 0) break;
    used += (size_t)w;
  }
  if (used + 2 < cap) snprintf(out + used, cap - used, "]");
  free(all);
}

/* The rank the launcher gave this process, before MPI_Init (0: none). */
static int launcher_rank(void) {
  const char *names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    const char *v = getenv(names[i]);
    uint64_t n;
    if (v && weir_cli_parse_u64(v, &n) == 0) return n > 0;
  }
  return 0;
}

int weir_solve_mpi_main(int argc, char **argv) {
  /* Usage first, without MPI: the same on every rank, so every rank exits
   * with the same code and only the first prints. */
  for (int i = 1; i < argc; ++i)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      if (!launcher_rank()) weir_solve_usage(stdout);
      return 0;
    }
  static weir_solve_args a; /* 8 KiB of list text: not on the stack */
  if (weir_solve_parse(argc, argv, &a, launcher_rank()) != 0) return 2;
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1, code = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int lrank = local_rank(rank);

  /* Every rank: load, open; the statuses are agreed once the group exists. */
  static char load_error[4096], open_error[4096];
  double t0 = weir_cli_now();
  weir_ifds_problem *problem = NULL;
  weir_ifds_load_options load_options = {.strict = a.strict};
  weir_status loaded = weir_ifds_load_file_ex(a.problem, &load_options, &problem);
  snprintf(load_error, sizeof load_error, "%s", loaded == WEIR_OK ? "" : weir_last_error());
  double t1 = weir_cli_now();
  char spec[SPEC_BYTES] = "";
  weir_backend *backend = NULL;
  weir_status opened = rank_spec(&a, rank, size, lrank, spec);
  if (opened == WEIR_OK) {
    opened = weir_backend_open(spec, &backend);
    if (opened != WEIR_OK && strcmp(spec, a.devices[a.device_count > 1 ? (size_t)rank : 0]) != 0)
      opened = weir_fail_context(opened, "--backend '%s' (local rank %d: device '%s')", a.backend,
                                 lrank, spec);
    else if (opened != WEIR_OK)
      opened = weir_fail_context(opened, "--backend '%s'", spec);
  }
  snprintf(open_error, sizeof open_error, "%s", opened == WEIR_OK ? "" : weir_last_error());

  weir_transport *transport = NULL;
  weir_group *group = NULL;
  if (weir_mpi_transport_create(MPI_COMM_WORLD, &transport) != WEIR_OK ||
      weir_mpi_group_create(transport, backend, &group) != WEIR_OK) {
    /* MPI itself is broken here: nothing to agree over; mpirun ends the job. */
    fprintf(stderr, "weir solve (rank %d of %d): setting up MPI: %s\n", rank, size,
            weir_last_error());
    code = 1;
    goto done;
  }
  weir_status s = weir_group_agree(group, restore(loaded, load_error));
  if (s != WEIR_OK) { /* the first failing rank's loader message, on every rank */
    fprintf(stderr, "weir solve (rank %d of %d): %s\n", rank, size, weir_last_error());
    code = weir_solve_load_exit_code(s);
    goto done;
  }
  if (rank == 0) weir_solve_print_warnings(a.problem, problem);
  s = weir_group_agree(group, restore(opened, open_error));
  if (s == WEIR_OK) /* rank 0 writes the outputs: it checks that it can before solving */
    s = weir_group_agree(group, rank == 0 ? weir_solve_probe_outputs(&a) : WEIR_OK);
  if (s != WEIR_OK) {
    fprintf(stderr, "weir solve (rank %d of %d): %s\n", rank, size, weir_last_error());
    code = weir_solve_exit_code(s);
    goto done;
  }
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  const char *device = weir_backend_device_info(backend, &info) == WEIR_OK ? info.spec : spec;
  char backend_id[1024] = "";
  gather_ids(device, rank, size, backend_id, sizeof backend_id);
  if (rank == 0 && a.progress)
    fprintf(stderr, "weir solve: loaded %s: %.1f MB in %.3f s, %u nodes, %u facts; %d ranks on "
            "%s\n", a.problem, (double)problem->source_bytes / 1e6, t1 - t0, problem->node_count,
            problem->fact_count, size, backend_id);

  /* The solve: the result is complete on rank 0 (member 0). */
  double t2 = weir_cli_now();
  weir_solve_progress pr = {t2, t2, 0, a.progress};
  weir_ifds_engine_options options = WEIR_IFDS_ENGINE_OPTIONS_INIT;
  if (rank == 0 && a.progress) {
    options.progress = weir_solve_on_progress;
    options.progress_user = &pr;
    options.phase = weir_solve_on_phase;
  }
  weir_ifds_result result = {0};
  weir_ifds_stats stats = WEIR_IFDS_STATS_INIT;
  weir_backend *local[1] = {backend};
  s = weir_ifds_solve_engine_group(group, local, problem, &options, &result, &stats);
  double t3 = weir_cli_now();
  if (s == WEIR_OK) { /* agreed: the same branch on every rank */
    if (rank == 0) s = weir_solve_write_outputs(&a, &result, &stats, backend_id, t1 - t0);
    if (s == WEIR_OK && rank == 0)
      weir_solve_print_summary(a.result ? stdout : stderr, &a, problem, &result, &stats,
                               backend_id, t1 - t0, t3 - t2);
    s = weir_group_agree(group, s); /* rank 0's writing */
  }
  weir_ifds_result_free(&result);
  if (s != WEIR_OK) {
    fprintf(stderr, "weir solve (rank %d of %d): %s\n", rank, size, weir_last_error());
    code = weir_solve_exit_code(s);
  }

done:
  fflush(NULL);
  weir_group_destroy(group);
  weir_transport_destroy(transport);
  weir_backend_close(backend);
  weir_ifds_problem_free(problem);
  MPI_Finalize();
  return code;
}

int main(int argc, char **argv) {
  signal(SIGXFSZ, SIG_IGN); /* as weir.c: a write past ulimit -f fails with EFBIG */
  int n = 0;
  char **args = weir_cli_split_options(argc, argv, &n);
  if (!args) {
    fprintf(stderr, "weir solve: no memory for the arguments. Fix: free memory.\n");
    return 1;
  }
  int rc = weir_solve_mpi_main(n, args);
  free(args);
  return rc;
}
