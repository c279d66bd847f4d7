/* weir-analyze: `weir analyze` with the LLVM frontend linked in. The weir
 * command runs this helper (cmd_analyze.c), so that only this program, not
 * every weir command, loads libLLVM. `weir-analyze ANALYSIS FILE...` takes
 * exactly the arguments of `weir analyze`. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "tools/cli_util.h"
#include "tools/commands.h"

int main(int argc, char **argv) {
  signal(SIGXFSZ, SIG_IGN); /* as weir.c: a write past ulimit -f fails with EFBIG */
  int n = 0;
  char **args = weir_cli_split_options(argc, argv, &n);
  if (!args) {
    fprintf(stderr, "weir analyze: no memory for the arguments. Fix: free memory.\n");
    return 1;
  }
  int rc = weir_cmd_analyze(n, args);
  free(args);
  return rc;
}
