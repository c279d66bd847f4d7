/* Measuring in a child process: each (program, analysis) and each solver
 * runs in its own child so that ru_maxrss (from wait4) is the peak of that
 * work alone, a solver past the time limit can be stopped (alarm), and a
 * crash becomes a line in the table instead of the end of the benchmark. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/analyze/bench.h"

int bench_listed(const char *list, const char *name) {
  if (!list) return 1;
  size_t n = strlen(name);
  for (const char *p = list; (p = strstr(p, name)); p += n)
    if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ',')) return 1;
  return 0;
}

static void child_main(int fd, void (*fn)(void *, void *), void *arg, void *out, size_t size, unsigned timeout) {
  if (timeout) alarm(timeout);
  fn(arg, out);
  const char *p = out;
  for (size_t done = 0; done < size;) {
    ssize_t w = write(fd, p + done, size - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) _exit(3);
    done += (size_t)w;
  }
  _exit(0);
}

/* Reads exactly size bytes (the child writes them all, then exits). */
static size_t read_all(int fd, void *out, size_t size) {
  char *p = out;
  size_t done = 0;
  while (done < size) {
    ssize_t r = read(fd, p + done, size - done);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    done += (size_t)r;
  }
  return done;
}

int bench_in_child(void (*fn)(void *arg, void *out), void *arg, void *out, size_t size, unsigned timeout,
                   long *maxrss_kb, int *timed_out, char *note, size_t note_size) {
  *maxrss_kb = 0;
  *timed_out = 0;
  int fds[2];
  if (pipe(fds) != 0) {
    snprintf(note, note_size, "pipe() failed: %s", strerror(errno));
    return -1;
  }
  fflush(NULL); /* no buffered output twice */
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(note, note_size, "fork() failed: %s", strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    close(fds[0]);
    child_main(fds[1], fn, arg, out, size, timeout);
  }
  close(fds[1]);
  size_t got = read_all(fds[0], out, size);
  close(fds[0]);
  int status = 0;
  struct rusage usage;
  memset(&usage, 0, sizeof usage);
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  *maxrss_kb = usage.ru_maxrss;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && got == size) return 0;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    *timed_out = 1;
    snprintf(note, note_size, "stopped by its time limit (--solver-timeout / --frontend-timeout)");
  } else if (WIFSIGNALED(status)) {
    snprintf(note, note_size, "child died of signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
  } else {
    snprintf(note, note_size, "child exited with status %d after sending %zu of %zu bytes",
             WIFEXITED(status) ? WEXITSTATUS(status) : -1, got, size);
  }
  return -1;
}
