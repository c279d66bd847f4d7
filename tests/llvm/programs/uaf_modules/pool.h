#ifndef POOL_H
#define POOL_H

struct session {
  char *buffer;
};

struct session *session_open(void);
void session_close(struct session *s);

#endif
