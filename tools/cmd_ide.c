/* `weir ide PROBLEM [-o RESULT] [--strict]`: loads an IDE problem (docs/ide-format.md)
 * and solves it with the serial reference solver; prints the result file
 * (every node, fact and value) to RESULT or standard output and a summary
 * line to standard error. Exit 0, 1 (failure) or 2 (bad input or usage). */
#include <stdio.h>
#include <string.h>

#include "tools/commands.h"
#include "tools/output.h"
#include "weir/ide.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: weir ide PROBLEM [-o RESULT] [--strict]\n\n"
          "Solves an IDE problem file (`weir-ide 1`, docs/ide-format.md) with the serial\n"
          "reference solver and writes the result: `weir-ide-result 1`, the path-edge and\n"
          "hold counts, then one line `NODE FACT VALUE` per fact that holds.\n\n"
          "  -o RESULT   write the result there (default: standard output)\n"
          "  --strict    refuse a problem file without its `end` line (it may be\n"
          "              truncated); without --strict such a file loads with a warning\n"
          "\n"
          "Exit codes: 0 solved; 2 bad input (an invalid problem file, whose message is\n"
          "FILE:LINE:COL: error: ..., a missing file, a bad option); 1 other failure\n"
          "(out of memory, cannot write the result).\n");
}

static int fail(const char *message, int code) {
  fprintf(stderr, "weir ide: %s\n", message);
  return code;
}

int weir_cmd_ide(int argc, char **argv) {
  const char *problem_path = NULL, *result_path = NULL;
  weir_ifds_load_options options = {0};
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return usage(stdout), 0;
    if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) result_path = argv[++i];
    else if (strcmp(argv[i], "--strict") == 0) options.strict = 1;
    else if (argv[i][0] != '-' && !problem_path) problem_path = argv[i];
    else {
      fprintf(stderr, "weir ide: unexpected argument '%s'. Fix: see weir ide --help.\n", argv[i]);
      return 2;
    }
  }
  if (!problem_path) return fail("no problem file. Fix: weir ide PROBLEM.ide [-o RESULT].", 2);
  weir_ide_problem *p = NULL;
  weir_status s = weir_ide_load_file_ex(problem_path, &options, &p);
  if (s != WEIR_OK) { /* the loader's message as it is: FILE:LINE:COL: error: ... */
    fprintf(stderr, "%s\n", weir_last_error());
    return s == WEIR_ERR_PARSE || s == WEIR_ERR_IO ? 2 : 1;
  }
  for (uint32_t bit = 1; bit; bit <<= 1) /* the IFDS loader's warnings: no end line, no seeds */
    if (p->ifds->warnings & bit)
      fprintf(stderr, "%s: warning: %s.\n", problem_path, weir_ifds_warning_text(bit));
  weir_ide_result r;
  weir_ide_stats stats = WEIR_IDE_STATS_INIT;
  s = weir_ide_solve_reference(p, &r, &stats);
  /* Through a temporary file renamed into place (tools/output.h), as weir solve -o: a
   * failed write (a full disk, ulimit -f) leaves no partial result and an earlier file
   * at RESULT untouched; the message names the path, the system's reason and a Fix. */
  weir_cli_output *output = NULL;
  FILE *out = NULL;
  if (s == WEIR_OK)
    s = weir_cli_output_open(result_path ? result_path : "-", problem_path, &output, &out);
  if (s == WEIR_OK) {
    s = weir_ide_write_result(p, &r, out);
    if (s == WEIR_OK) {
      s = weir_cli_output_commit(output);
    } else {
      weir_cli_output_abort(output);
      weir_fail_context(s, "writing '%s'", result_path ? result_path : "standard output");
    }
  }
  fflush(stdout);
  if (s == WEIR_OK)
    fprintf(stderr, "solved %s: %u nodes, %u facts, %llu path edges, %llu holds, %llu jump "
            "function updates\n", problem_path, p->ifds->node_count, p->ifds->fact_count,
            (unsigned long long)r.path_edges, (unsigned long long)r.hold_count,
            (unsigned long long)stats.jump_updates);
  weir_ide_result_free(&r);
  weir_ide_problem_free(p);
  /* an output that is the problem file itself is a usage error, as in weir solve */
  return s == WEIR_OK ? 0 : fail(weir_last_error(), s == WEIR_ERR_INVALID_ARGUMENT ? 2 : 1);
}
