/* Block sources: fread, read and pread fill buffers that reach sinks; a
 * buffer filled by memset and a constant stays clean. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void from_fread(FILE *in) {
  char data[128];
  size_t got = fread(data, 1, sizeof data - 1, in);
  data[got] = '\0';
  system(data); /* EXPECT weir-taint-command-injection from=fread */
}

static void from_read(int fd) {
  char data[128];
  ssize_t got = read(fd, data, sizeof data - 1);
  if (got < 0) return;
  data[got] = '\0';
  printf(data); /* EXPECT weir-taint-format-string from=read */
}

static void from_pread(int fd) {
  char data[128];
  ssize_t got = pread(fd, data, sizeof data - 1, 16);
  if (got < 0) return;
  data[got] = '\0';
  FILE *p = popen(data, "r"); /* EXPECT weir-taint-command-injection from=pread */
  if (p != NULL) pclose(p);
}

static void good(int fd) {
  char data[128];
  char header[16];
  if (read(fd, header, sizeof header) < 0) return;
  memset(data, 0, sizeof data);
  strcpy(data, "wc -c");
  system(data); /* EXPECT-NOT weir-taint */
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) return 1;
  from_fread(stdin);
  from_read(fd);
  from_pread(fd);
  good(fd);
  close(fd);
  return 0;
}
