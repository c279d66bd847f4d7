#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* A server's connections: descriptors from socket() and accept() kept in
 * heap blocks and closed by one destructor. */
struct conn {
  int fd;
  char buf[64];
};

static int notify_fd = -1;

__attribute__((noinline)) static void conn_destroy(struct conn *c) {
  close(c->fd); /* EXPECT-NOT weir-typestate */
  free(c);
}

__attribute__((noinline)) static struct conn *conn_new(int fd) {
  struct conn *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->fd = fd;
  return c;
}

__attribute__((noinline)) static int listen_on(const char *path) {
  struct sockaddr_un addr;
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  strncpy(addr.sun_path, path, sizeof addr.sun_path - 1);
  if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(fd, 8) < 0) {
    close(fd); /* EXPECT-NOT weir-typestate */
    return -1;
  }
  return fd;
}

/* Reads one request; the error path forgets the accepted descriptor. */
__attribute__((noinline)) static int serve_one(int listener) {
  int fd = accept(listener, NULL, NULL);
  if (fd < 0) return -1;
  char req[16];
  if (recv(fd, req, sizeof req, 0) <= 0) return -1;
  send(fd, "ok\n", 3, 0); /* EXPECT-NOT weir-typestate */
  close(fd);
  return 0;
} /* EXPECT weir-typestate-leak */

__attribute__((noinline)) static void notify_exit(void) {
  if (notify_fd > 0) {
    close(notify_fd); /* EXPECT-NOT weir-typestate */
    notify_fd = -1;
  }
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  int listener = listen_on(argv[1]);
  if (listener < 0) return 1;
  notify_fd = socket(AF_UNIX, SOCK_DGRAM, 0); /* closed by notify_exit when > 0 */
  struct conn *a = conn_new(listener), *b = conn_new(accept(listener, NULL, NULL));
  serve_one(listener);
  if (b) conn_destroy(b);
  if (a) conn_destroy(a);
  notify_exit();
  return 0;
} /* EXPECT-NOT weir-typestate */
