/* execl-family sinks: every argument counts, so the tainted string as the
 * `-c` operand of execl("/bin/sh", "sh", "-c", data, NULL) is a finding,
 * as it is for execlp and execle. Each call runs in its own child. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static char *const cleanEnv[] = {"PATH=/bin:/usr/bin", NULL};

static void run_execl(const char *data) {
  if (fork() == 0) {
    execl("/bin/sh", "sh", "-c", data, (char *)NULL); /* EXPECT weir-taint-command-injection from=getenv */
    _exit(127);
  }
  wait(NULL);
}

static void run_execlp(const char *data) {
  if (fork() == 0) {
    execlp("sh", "sh", "-c", data, (char *)NULL); /* EXPECT weir-taint-command-injection from=getenv */
    _exit(127);
  }
  wait(NULL);
}

static void run_execle(const char *data) {
  if (fork() == 0) {
    execle("/bin/sh", "sh", "-c", data, (char *)NULL, cleanEnv); /* EXPECT weir-taint-command-injection from=getenv */
    _exit(127);
  }
  wait(NULL);
}

static void good(void) {
  if (fork() == 0) {
    execl("/bin/sh", "sh", "-c", "ls -l", (char *)NULL); /* EXPECT-NOT weir-taint */
    _exit(127);
  }
  wait(NULL);
}

int main(void) {
  const char *data = getenv("CMD");
  if (data == NULL) return 1;
  run_execl(data);
  run_execlp(data);
  run_execle(data);
  good();
  return 0;
}
