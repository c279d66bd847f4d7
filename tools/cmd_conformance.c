/* `weir conformance --backend SPEC [--filter TEXT]`: the backend conformance
 * suite (tools/conformance) against any backend, in-tree or plugin. Prints a
 * line per case and a closing "N passed, N failed" line; exits 0 when every
 * case passed, 1 when one failed or the backend was refused (wrong plugin ABI),
 * 77 when the backend is not available here (CTest's skip code), 2 on bad
 * usage: an unknown backend, a plugin path with no file, a device index past
 * the backend's devices, a filter matching no case (a typo must never pass as
 * a skip or a success). */
#include <stdio.h>
#include <string.h>

#include "tools/commands.h"

#include "tools/conformance/conformance.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: weir conformance --backend SPEC [--filter TEXT]\n\n"
          "Runs the backend conformance suite against SPEC: cpu, vulkan[:N], cuda[:N],\n"
          "plugin:/path/libfoo.so[:N], or the id of a plugin on WEIR_BACKEND_PATH.\n"
          "--filter TEXT runs only the cases whose name contains TEXT.\n"
          "Exit: 0 all passed; 1 a case failed or the backend was refused; 2 bad usage (an\n"
          "unknown backend, a plugin path with no file, a device index past the backend's\n"
          "devices, a filter matching no case); 77 the backend is not available on this\n"
          "machine (skipped).\n");
}

int weir_cmd_conformance(int argc, char **argv) {
  const char *spec = NULL, *filter = NULL;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
      spec = argv[++i];
    } else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
      filter = argv[++i];
    } else {
      fprintf(stderr,
              "weir conformance: unexpected argument '%s'. Fix: see `weir conformance "
              "--help`.\n",
              argv[i]);
      return 2;
    }
  }
  if (!spec) {
    fprintf(stderr,
            "weir conformance: no backend given. Fix: add --backend SPEC (e.g. "
            "--backend cpu).\n");
    return 2;
  }
  /* The suite skips a backend that is not available here and fails one that
   * is refused (a plugin of the wrong ABI); it probes in a child process so
   * that no driver is initialised before it forks its test processes. */
  int rc = weir_conformance_run(spec, filter, stdout);
  fflush(stdout);
  return rc;
}
