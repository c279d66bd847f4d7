#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Copies a file; every error path closes what it opened. */
__attribute__((noinline)) static int copy(const char *from, const char *to) {
  char buf[512];
  int in = open(from, O_RDONLY);
  if (in < 0) return -1;
  int out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out < 0) {
    close(in); /* EXPECT-NOT weir-typestate */
    return -1;
  }
  ssize_t n;
  while ((n = read(in, buf, sizeof buf)) > 0) /* EXPECT-NOT weir-typestate */
    if (write(out, buf, (size_t)n) != n) break; /* EXPECT-NOT weir-typestate */
  close(in);
  close(out); /* EXPECT-NOT weir-typestate */
  return n < 0 ? -1 : 0;
}

__attribute__((noinline)) static long size_after_close(const char *path) {
  struct stat st;
  int fd = open(path, O_RDONLY);
  if (fd == -1) return -1;
  close(fd);
  if (fstat(fd, &st) != 0) return -1; /* EXPECT weir-typestate-use-after-close */
  return (long)st.st_size;
}

__attribute__((noinline)) static int closes_twice(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return -1;
  char c;
  int got = (int)read(fd, &c, 1);
  close(fd);
  if (got != 1) close(fd); /* EXPECT weir-typestate-double-close */
  return got;
}

__attribute__((noinline)) static int forgets(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return -1;
  char c;
  if (read(fd, &c, 1) != 1) return -1;
  close(fd);
  return c;
} /* EXPECT weir-typestate-leak */

static int log_fd = -1;

__attribute__((noinline)) static void open_log(const char *path) {
  log_fd = open(path, O_WRONLY | O_APPEND); /* kept in a global: not a local leak */
}

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  open_log(argv[2]);
  if (log_fd >= 0) write(log_fd, "start\n", 6);
  int r = copy(argv[1], argv[2]) + (int)size_after_close(argv[1]) + closes_twice(argv[1]) + forgets(argv[1]);
  if (log_fd >= 0) close(log_fd);
  return r;
}
