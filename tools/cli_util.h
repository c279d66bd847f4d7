/* Small helpers shared by the subcommands. */
#ifndef WEIR_TOOLS_CLI_UTIL_H
#define WEIR_TOOLS_CLI_UTIL_H

#include <stdint.h>

#include "weir/status.h"

/* Prints "weir CMD: <last error>" to stderr and returns the exit code for the
 * status: 2 for bad input (parse, invalid argument, out of range), else 1. */
int weir_cli_report(const char *command, weir_status status);
/* Exit code for a status without printing. */
int weir_cli_exit_code(weir_status status);
/* Parses a size like "4096", "64K", "64KiB", "16M", "1G"; 0 on success. */
int weir_cli_parse_size(const char *text, uint64_t *out);
/* Parses an unsigned decimal; 0 on success. */
int weir_cli_parse_u64(const char *text, uint64_t *out);
/* Spells every "--name=value" argument as the two arguments "--name" "value",
 * so that each subcommand accepts both forms; arguments after "--" stay as
 * they are (a file may be named "--x=y"). Returns a new argv of *out_argc
 * entries (strings point into argv or one allocation; free with free()), or
 * NULL when out of memory. */
char **weir_cli_split_options(int argc, char **argv, int *out_argc);
/* Monotonic seconds. */
double weir_cli_now(void);
/* Runs the helper program `name` in place of this process with argv (whose
 * argv[0] it replaces; argv ends with NULL): the one next to this executable
 * (a build tree), else the one at `installed`, a path relative to this
 * executable's folder (an installation: ../libexec/weir/NAME). Returns only
 * when there is none to run, after printing why with a Fix, prefixed
 * `prefix` ("weir analyze") and naming the helper as `what` ("the LLVM IR
 * frontend"). */
void weir_cli_exec_helper(const char *prefix, const char *what, const char *name,
                          const char *installed, char **argv);

#endif
