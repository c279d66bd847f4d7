/* Atomic output files for the `weir` subcommands.
 *
 * A result, a SARIF log or a stats file is written to a temporary file in the
 * same directory and renamed into place only once every write, the flush and
 * the close succeeded: a full disk or a file-size limit never leaves a
 * truncated file that looks valid, and an earlier good file at that path stays
 * untouched. "-" names standard output. A path that exists and is not a
 * regular file (/dev/null, a FIFO, /dev/stdout) is written directly: there is
 * nothing to rename onto it. A symbolic link at PATH is replaced by the new
 * file; its target stays as it was. SIGINT, SIGTERM, SIGHUP and SIGPIPE
 * (where the caller left them at their default) remove every temporary file
 * before they end the process; they are blocked while a temporary is created
 * so none escapes (CTest hardening-cli-signals). */
#ifndef WEIR_TOOLS_OUTPUT_H
#define WEIR_TOOLS_OUTPUT_H

#include <stdio.h>

#include "weir/status.h"

typedef struct weir_cli_output weir_cli_output;

/* Opens PATH for writing through a temporary file in the same directory ("-": stdout).
 * `input` (may be NULL) is refused when it names the same file (device+inode). */
weir_status weir_cli_output_open(const char *path, const char *input, weir_cli_output **out,
                                 FILE **stream);
/* Checks every write, flushes, closes and renames into place; on failure removes the temporary
 * file, leaves an old file at PATH untouched and returns an error naming the path. */
weir_status weir_cli_output_commit(weir_cli_output *output);
/* Drops the temporary file (the old file stays). */
void weir_cli_output_abort(weir_cli_output *output);

#endif
