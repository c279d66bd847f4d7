/* The conformance runner: one child process per case (or none, see
 * runner.h), failures carried back as "file:line: message" through a pipe. */
#include "tools/conformance/runner.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/conformance/assert.h"

enum { MESSAGE_BYTES = 2048 };

/* The state of the running case: in a child, the pipe to write a failure
 * to; in this process, where to jump back to. */
static int g_fail_fd = -1;
static jmp_buf g_jump;
static int g_jump_armed;
static char g_message[MESSAGE_BYTES];

void conf_fail_at(const char *file, int line, const char *fmt, ...) {
  int used = snprintf(g_message, sizeof g_message, "%s:%d: ", file, line);
  if (used < 0) used = 0;
  if ((size_t)used < sizeof g_message) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_message + used, sizeof g_message - (size_t)used, fmt, ap);
    va_end(ap);
  }
  if (g_fail_fd >= 0) { /* a forked case: report and end the child */
    size_t n = strlen(g_message), off = 0;
    while (off < n) {
      ssize_t w = write(g_fail_fd, g_message + off, n - off);
      if (w <= 0) break;
      off += (size_t)w;
    }
    _exit(1);
  }
  if (g_jump_armed) longjmp(g_jump, 1);
  fprintf(stderr, "weir conformance: assertion outside a case: %s\n", g_message);
  abort();
}

static int fork_wanted(void) {
  const char *a = getenv("CK_FORK"), *b = getenv("WEIR_CONFORMANCE_FORK");
  return !((a && strcmp(a, "no") == 0) || (b && strcmp(b, "no") == 0));
}

/* Runs one case in a child; returns 1 when it passed, else 0 with the
 * reason in `why`. */
static int run_forked(const conf_case *c, void (*setup)(void), void (*teardown)(void),
                      unsigned timeout_s, char *why, size_t why_bytes) {
  int fds[2];
  if (pipe(fds) != 0) {
    snprintf(why, why_bytes, "could not create a pipe for the case. Fix: raise the open-file limit.");
    return 0;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    snprintf(why, why_bytes, "could not fork a process for the case. Fix: raise the process limit.");
    return 0;
  }
  if (pid == 0) {
    close(fds[0]);
    g_fail_fd = fds[1];
    if (timeout_s) alarm(timeout_s);
    setup();
    c->run();
    teardown();
    close(fds[1]);
    exit(0); /* exit, not _exit: leak checkers run in the child as under Check */
  }
  close(fds[1]);
  size_t used = 0;
  ssize_t r;
  while (used + 1 < why_bytes && (r = read(fds[0], why + used, why_bytes - 1 - used)) > 0)
    used += (size_t)r;
  why[used] = '\0';
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    snprintf(why, why_bytes, "lost the case's process");
    return 0;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && used == 0) return 1;
  if (used > 0) return 0;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    snprintf(why, why_bytes, "timed out after %u s. Fix: find the operation that hangs (run "
             "with --filter %s alone).", timeout_s, c->name);
  else if (WIFSIGNALED(status))
    snprintf(why, why_bytes, "the case's process died of signal %d (%s). Fix: run it alone "
             "(--filter %s) under a debugger.", WTERMSIG(status), strsignal(WTERMSIG(status)),
             c->name);
  else
    snprintf(why, why_bytes, "the case's process exited with %d without a message (a leak "
             "checker, or exit() in the backend). Fix: run it alone (--filter %s).",
             WEXITSTATUS(status), c->name);
  return 0;
}

/* In this process: a failed assertion jumps back here; teardown runs after
 * a failure too. */
static const conf_case *g_case;
static void (*g_setup)(void), (*g_teardown)(void);
static int run_here(void) {
  g_message[0] = '\0';
  g_jump_armed = 1;
  if (setjmp(g_jump) == 0) {
    g_setup();
    g_case->run();
    g_teardown();
    g_jump_armed = 0;
    return 1;
  }
  if (setjmp(g_jump) == 0) g_teardown(); /* a failing teardown must not loop */
  g_jump_armed = 0;
  return 0;
}

conf_totals conf_run_cases(const conf_case *cases, size_t count, const char *filter,
                           void (*setup)(void), void (*teardown)(void), unsigned timeout_s,
                           FILE *out) {
  conf_totals t = {0, 0, 0};
  int forking = fork_wanted();
  for (size_t i = 0; i < count; ++i) {
    if (filter && !strstr(cases[i].name, filter)) continue;
    char why[MESSAGE_BYTES];
    int ok;
    if (forking) {
      ok = run_forked(&cases[i], setup, teardown, timeout_s, why, sizeof why);
    } else {
      g_case = &cases[i];
      g_setup = setup;
      g_teardown = teardown;
      ok = run_here();
      snprintf(why, sizeof why, "%s", g_message);
    }
    t.ran++;
    if (ok) {
      fprintf(out, "PASS %s\n", cases[i].name);
      t.passed++;
    } else {
      fprintf(out, "FAIL %s: %s\n", cases[i].name, why);
      t.failed++;
    }
    fflush(out);
  }
  return t;
}
