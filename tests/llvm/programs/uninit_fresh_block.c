/* A logger made while the program may already log (OVS's syslog-direct.c):
 * `this = malloc(..); open_socket(.., &this->fd)` where open_socket may
 * log through the current logger before it sets *fdp. The current logger
 * cannot be `this` yet: nothing holds the fresh block but the call's own
 * argument, and open_socket reads nothing through it. An early logger is
 * installed as the current one before its socket is opened, so the log
 * inside open_socket does read its unset fd: real. */
#include <stdio.h>
#include <stdlib.h>

struct logger {
  void (*log)(struct logger *, const char *);
  int fd;
};

static struct logger *current;

static void logger_log(struct logger *this, const char *msg) {
  /* -O2 inlines open_socket and log_msg into make: the indirect call then
   * takes `current`, whose points-to set holds the fresh block */
  if (this->fd < 0) return; /* KNOWN-FP-O2 weir-uninit */
  dprintf(this->fd, "%s\n", msg); /* KNOWN-FP-O2 weir-uninit */
}

struct early {
  int fd;
};
static struct early *early_current;

static void early_log(const char *msg) {
  if (!early_current) return;
  if (early_current->fd < 0) return; /* EXPECT-O0 weir-uninit */
  dprintf(early_current->fd, "early: %s\n", msg); /* EXPECT-O2 weir-uninit: at -O0 the read above is the nearer one, this one is listed with it */
}

static void log_msg(const char *msg) {
  if (current) current->log(current, msg);
}

static int open_socket(const char *name, int *fdp) {
  if (!name[0]) {
    log_msg("empty socket name");
    *fdp = -1;
    return 1;
  }
  *fdp = 2;
  return 0;
}

struct logger *make(const char *name) {
  struct logger *this = malloc(sizeof *this);
  if (!this) exit(1);
  this->log = logger_log;
  open_socket(name, &this->fd);
  return this;
}

static int open_early(const char *name, int *fdp) {
  if (!name[0]) {
    early_log("empty socket name");
    *fdp = -1;
    return 1;
  }
  *fdp = 2;
  return 0;
}

struct early *make_early(const char *name) {
  struct early *this = malloc(sizeof *this);
  if (!this) exit(1);
  early_current = this;
  open_early(name, &this->fd);
  return this;
}

int main(int argc, char **argv) {
  current = make(argc > 1 ? argv[1] : "");
  log_msg("started");
  if (argc > 2) make_early(argv[2]);
  return 0;
}
