/* execv-family sinks: the tainted string is an element of the argument
 * array (Juliet's CWE78 *_w32_execv pattern), which makes execv, execvp and
 * execve findings. An array of constants is clean. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void run_execv(char *data) {
  char *args[] = {"sh", "-c", data, NULL};
  if (fork() == 0) {
    execv("/bin/sh", args); /* EXPECT weir-taint-command-injection from=fgets */
    _exit(127);
  }
  wait(NULL);
}

static void run_execvp(char *data) {
  char *args[4];
  args[0] = "sh";
  args[1] = "-c";
  args[2] = data;
  args[3] = NULL;
  if (fork() == 0) {
    execvp("sh", args); /* EXPECT weir-taint-command-injection from=fgets */
    _exit(127);
  }
  wait(NULL);
}

static void run_execve(char *data) {
  char *args[] = {"sh", "-c", data, NULL};
  char *env[] = {"PATH=/bin", NULL};
  if (fork() == 0) {
    execve("/bin/sh", args, env); /* EXPECT weir-taint-command-injection from=fgets */
    _exit(127);
  }
  wait(NULL);
}

static void good(void) {
  char *args[] = {"sh", "-c", "ls -l", NULL};
  if (fork() == 0) {
    execv("/bin/sh", args); /* EXPECT-NOT weir-taint */
    _exit(127);
  }
  wait(NULL);
}

int main(void) {
  char data[100];
  if (fgets(data, sizeof data, stdin) == NULL) return 1;
  data[strcspn(data, "\n")] = '\0';
  run_execv(data);
  run_execvp(data);
  run_execve(data);
  good();
  return 0;
}
