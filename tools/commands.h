/* The `weir` subcommands. Each returns the process exit code:
 * 0 success, 1 failure, 2 bad input or usage. */
#ifndef WEIR_TOOLS_COMMANDS_H
#define WEIR_TOOLS_COMMANDS_H

int weir_cmd_info(int argc, char **argv);
int weir_cmd_demo(int argc, char **argv);
int weir_cmd_solve(int argc, char **argv);
int weir_cmd_gen(int argc, char **argv);
int weir_cmd_bench(int argc, char **argv);
int weir_cmd_bench_fft(int argc, char **argv); /* weir bench fft (cmd_bench_fft.c) */
int weir_cmd_conformance(int argc, char **argv);
int weir_cmd_analyze(int argc, char **argv);
int weir_cmd_ide(int argc, char **argv); /* cmd_ide.c */

#endif
