/* Atomic output files: see tools/output.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* fopencookie: a stream whose writes report their errno */
#endif
#include "tools/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct weir_cli_output {
  char *path;      /* where the file ends up */
  char *temporary; /* the file written now; NULL when writing directly */
  int fd;          /* -1 for standard output */
  int write_errno; /* errno of the first failed write; 0 if none */
  FILE *stream;
};

/* The cookie stream keeps the errno of the first failed write: stdio only keeps
 * a flag, and "write failed" without ENOSPC/EFBIG gives the reader no lead. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t size) {
  weir_cli_output *o = cookie;
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(o->fd, buf + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (!o->write_errno) o->write_errno = n < 0 ? errno : EIO;
      return (ssize_t)done; /* a short count marks the stream as failed */
    }
    done += (size_t)n;
  }
  return (ssize_t)done;
}

static int cookie_close(void *cookie) {
  weir_cli_output *o = cookie;
  int rc = close(o->fd);
  o->fd = -1;
  return rc;
}

static void untrack(const char *name);

static void output_free(weir_cli_output *o) {
  if (!o) return;
  untrack(o->temporary);
  free(o->path);
  free(o->temporary);
  free(o);
}

static char *copy_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

/* Temporary files being written now, removed by a fatal signal (Ctrl-C, kill,
 * a closed terminal, a reader of a pipe that went away, `kill -PIPE`) before
 * it ends the process: an interrupted run leaves neither a truncated output
 * nor a hidden temporary file. SIGPIPE keeps its usual effect (`weir gen -o -
 * | head` ends quietly); where the caller ignores it, a write to a closed pipe
 * fails with EPIPE and the error path removes the temporary instead. */
#define TRACKED_MAX 16
static char *volatile tracked[TRACKED_MAX];
static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

static void on_fatal_signal(int sig) {
  for (int i = 0; i < TRACKED_MAX; ++i) {
    char *name = tracked[i];
    if (name) unlink(name); /* async-signal-safe */
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

static void install_handlers(void) {
  static int installed;
  if (!installed) {
    installed = 1;
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; ++i) {
      struct sigaction old;
      /* A signal the caller ignores (nohup) or handles stays as it was. */
      if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(fatal_signals[i], &sa, NULL);
      }
    }
  }
}

/* The fatal signals, blocked (block != 0) or restored from *saved: no signal
 * lands between creating a temporary file and tracking it. */
static void fatal_signals_block(int block, sigset_t *saved) {
  if (!block) {
    sigprocmask(SIG_SETMASK, saved, NULL);
    return;
  }
  sigset_t set;
  sigemptyset(&set);
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; ++i)
    sigaddset(&set, fatal_signals[i]);
  sigprocmask(SIG_BLOCK, &set, saved);
}

static void track(char *name) {
  for (int i = 0; i < TRACKED_MAX; ++i)
    if (!tracked[i]) {
      tracked[i] = name;
      return;
    }
}

static void untrack(const char *name) {
  for (int i = 0; i < TRACKED_MAX; ++i)
    if (name && tracked[i] == name) tracked[i] = NULL;
}

/* Creates "DIR/.BASE.tmp-PID-N" with O_EXCL; the mode follows the umask, or
 * the old file's mode when one exists so that a private file stays private. */
static weir_status create_temporary(weir_cli_output *o, const struct stat *old) {
  size_t cap = strlen(o->path) + 64;
  char *name = malloc(cap);
  if (!name)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "no memory for a temporary name next to '%s'. Fix: "
                     "free memory.", o->path);
  const char *slash = strrchr(o->path, '/');
  int dir_len = slash ? (int)(slash - o->path + 1) : 0;
  const char *base = slash ? slash + 1 : o->path;
  int err = 0;
  install_handlers();
  sigset_t saved;
  for (int attempt = 0; attempt < 100; ++attempt) {
    snprintf(name, cap, "%.*s.%s.tmp-%ld-%d", dir_len, o->path, base, (long)getpid(), attempt);
    fatal_signals_block(1, &saved);
    o->fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (o->fd >= 0) {
      o->temporary = name; /* ours from now on: abort, failures and signals remove it */
      track(name);
      fatal_signals_block(0, &saved);
      if (old) (void)fchmod(o->fd, old->st_mode & 07777);
      return WEIR_OK;
    }
    err = errno;
    fatal_signals_block(0, &saved);
    if (err != EEXIST) break;
  }
  weir_status s = weir_fail(WEIR_ERR_IO, "cannot create the temporary file '%s' to write '%s': "
                            "%s. Fix: check that the directory exists and is writable.", name,
                            o->path, strerror(err));
  free(name);
  return s;
}

/* Refuses PATH when it is the input file itself (same device and inode). */
static weir_status check_not_input(const char *path, const struct stat *st, const char *input) {
  struct stat in;
  if (!input || strcmp(input, "-") == 0 || stat(input, &in) != 0) return WEIR_OK;
  if (in.st_dev != st->st_dev || in.st_ino != st->st_ino) return WEIR_OK;
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "the output '%s' is the input file '%s' (same device "
                   "and inode); writing it would destroy the input. Fix: choose another output "
                   "path.", path, input);
}

/* Decides how PATH is written: through a temporary file (absent or regular),
 * directly (a device or FIFO), or not at all (a directory, the input). */
static weir_status prepare(weir_cli_output *o, const char *input) {
  struct stat st;
  if (stat(o->path, &st) != 0) {
    if (errno != ENOENT)
      return weir_fail(WEIR_ERR_IO, "cannot inspect the output '%s': %s. Fix: check the path and "
                       "its permissions.", o->path, strerror(errno));
    return create_temporary(o, NULL);
  }
  WEIR_TRY(check_not_input(o->path, &st, input));
  if (S_ISDIR(st.st_mode))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "the output '%s' is a directory. Fix: name a "
                     "file in it.", o->path);
  if (S_ISREG(st.st_mode)) return create_temporary(o, &st);
  o->fd = open(o->path, O_WRONLY | O_CLOEXEC);
  if (o->fd < 0)
    return weir_fail(WEIR_ERR_IO, "cannot open the output '%s' for writing: %s. Fix: check its "
                     "permissions.", o->path, strerror(errno));
  return WEIR_OK;
}

weir_status weir_cli_output_open(const char *path, const char *input, weir_cli_output **out,
                                 FILE **stream) {
  if (!path || !out || !stream)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_cli_output_open: path, out and stream must "
                     "not be NULL. Fix: pass them.");
  *out = NULL;
  *stream = NULL;
  weir_cli_output *o = calloc(1, sizeof *o);
  if (!o || !(o->path = copy_string(path))) {
    output_free(o);
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY, "no memory to open the output '%s'. Fix: free "
                     "memory.", path);
  }
  o->fd = -1;
  /* A symbolic link to a file: write the file it names (the temporary file
   * is renamed onto the target, so the link stays a link and the target
   * gets the new contents). */
  struct stat link;
  char target[PATH_MAX];
  if (strcmp(path, "-") != 0 && lstat(path, &link) == 0 && S_ISLNK(link.st_mode) &&
      realpath(path, target)) {
    char *resolved = copy_string(target);
    if (resolved) {
      free(o->path);
      o->path = resolved;
    }
  }
  if (strcmp(path, "-") == 0) {
    o->stream = stdout;
  } else {
    weir_status s = prepare(o, input);
    if (s == WEIR_OK) {
      cookie_io_functions_t io = {.write = cookie_write, .close = cookie_close};
      o->stream = fopencookie(o, "w", io);
      if (!o->stream)
        s = weir_fail(WEIR_ERR_OUT_OF_MEMORY, "no memory for a stream to '%s'. Fix: free "
                      "memory.", path);
    }
    if (s != WEIR_OK) {
      weir_cli_output_abort(o);
      return s;
    }
  }
  *out = o;
  *stream = o->stream;
  return WEIR_OK;
}

/* Flushes and closes the stream; the errno of the first failure, 0 if none. */
static int finish_stream(weir_cli_output *o) {
  if (o->fd < 0) { /* standard output stays open for the rest of the command */
    int err = fflush(o->stream) != 0 ? errno : 0;
    return err ? err : ferror(o->stream) ? EIO : 0;
  }
  int err = fflush(o->stream) != 0 ? errno : 0;
  if (!err && ferror(o->stream)) err = EIO;
  if (!err && o->temporary && fsync(o->fd) != 0) err = errno;
  if (fclose(o->stream) != 0 && !err) err = errno;
  o->stream = NULL;
  return o->write_errno ? o->write_errno : err;
}

weir_status weir_cli_output_commit(weir_cli_output *o) {
  if (!o)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT, "weir_cli_output_commit: output is NULL. Fix: "
                     "commit what weir_cli_output_open returned.");
  int err = finish_stream(o);
  if (!err && o->temporary && rename(o->temporary, o->path) != 0) err = errno;
  if (err) {
    const char *name = strcmp(o->path, "-") == 0 ? "standard output" : o->path;
    weir_status s = weir_fail(WEIR_ERR_IO, "writing '%s' failed: %s; %s. Fix: free disk space or "
                              "raise the file-size limit (ulimit -f), or write elsewhere.", name,
                              strerror(err), o->temporary ? "an earlier file there is untouched"
                                                          : "the output may be incomplete");
    if (o->temporary) unlink(o->temporary);
    output_free(o);
    return s;
  }
  output_free(o);
  return WEIR_OK;
}

void weir_cli_output_abort(weir_cli_output *o) {
  if (!o) return;
  if (o->stream && o->stream != stdout) fclose(o->stream);
  else if (o->fd >= 0) close(o->fd);
  if (o->stream == stdout) fflush(stdout);
  if (o->temporary) unlink(o->temporary);
  output_free(o);
}
