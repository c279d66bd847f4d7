/* The `weir` command: a thin dispatcher over the subcommands in cmd_*.c. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli_util.h"
#include "tools/commands.h"
#include "weir/weir.h"

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
    {"info", weir_cmd_info, "list backends and devices, available or not and why"},
    {"demo", weir_cmd_demo, "run a small dispatch sequence on a backend"},
    {"solve", weir_cmd_solve, "solve an IFDS problem file (reference solver or engine)"},
    {"gen", weir_cmd_gen, "generate an IFDS problem (presets, seeded)"},
    {"ide", weir_cmd_ide, "solve an IDE problem file with the reference solver, print values"},
    {"bench", weir_cmd_bench, "benchmark dispatch scenarios or a sequence file"},
    {"conformance", weir_cmd_conformance, "run the backend conformance suite"},
    {"analyze", weir_cmd_analyze, "IFDS analyses (taint, uninit, uaf) of LLVM IR, SARIF output"},
};

static void usage(FILE *out) {
  fprintf(out, "weir %s — resident GPU dispatch and IFDS solving\n\nusage: weir COMMAND [ARGS]\n\n",
          WEIR_VERSION_STRING);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
    fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
  fprintf(out, "\n`weir COMMAND --help` describes each command.\n");
}

int main(int argc, char **argv) {
  /* Past the file-size limit (ulimit -f) a write must fail with EFBIG, which
   * the outputs report and clean up after (tools/output.h), rather than kill
   * the process and leave a temporary file behind. */
  signal(SIGXFSZ, SIG_IGN);
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("weir %s\n", WEIR_VERSION_STRING);
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i) {
    if (strcmp(argv[1], commands[i].name) != 0) continue;
    int n = 0;
    char **args = weir_cli_split_options(argc - 1, argv + 1, &n); /* --opt=value */
    if (!args) {
      fprintf(stderr, "weir: no memory for the arguments. Fix: free memory.\n");
      return 1;
    }
    int rc = commands[i].run(n, args);
    free(args);
    return rc;
  }
  fprintf(stderr, "weir: unknown command '%s'. Fix: run `weir --help` for the list.\n", argv[1]);
  return 2;
}
