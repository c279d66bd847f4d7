/* Network sources: recv appends to the buffer at data + len (Juliet's
 * CWE78 *_connect_socket pattern), recvfrom and recvmsg fill buffers; a
 * buffer that only holds the peer's address length stays clean. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

static void from_recv(int sock) {
  char dataBuffer[100] = "ls ";
  char *data = dataBuffer;
  size_t dataLen = strlen(data);
  ssize_t got = recv(sock, data + dataLen, sizeof dataBuffer - dataLen - 1, 0);
  if (got <= 0) return;
  data[dataLen + (size_t)got] = '\0';
  system(data); /* EXPECT weir-taint-command-injection from=recv */
}

static void from_recvfrom(int sock) {
  char data[100];
  struct sockaddr_storage peer;
  socklen_t peerLen = sizeof peer;
  ssize_t got = recvfrom(sock, data, sizeof data - 1, 0, (struct sockaddr *)&peer, &peerLen);
  if (got <= 0) return;
  data[got] = '\0';
  printf(data); /* EXPECT weir-taint-format-string from=recvfrom */
}

static void from_recvmsg(int sock) {
  char data[100];
  struct iovec iov = {.iov_base = data, .iov_len = sizeof data - 1};
  struct msghdr msg;
  memset(&msg, 0, sizeof msg);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  ssize_t got = recvmsg(sock, &msg, 0);
  if (got <= 0) return;
  data[got] = '\0';
  system(data); /* EXPECT weir-taint-command-injection from=recvmsg */
}

static void good(int sock) {
  char data[100];
  struct sockaddr_storage peer;
  socklen_t peerLen = sizeof peer;
  char scratch[8];
  if (recvfrom(sock, scratch, sizeof scratch, 0, (struct sockaddr *)&peer, &peerLen) < 0) return;
  snprintf(data, sizeof data, "echo %u", (unsigned)sizeof peer);
  system(data); /* EXPECT-NOT weir-taint */
}

int main(void) {
  int sock = socket(AF_INET, SOCK_STREAM, 0);
  if (sock < 0) return 1;
  from_recv(sock);
  from_recvfrom(sock);
  from_recvmsg(sock);
  good(sock);
  return 0;
}
