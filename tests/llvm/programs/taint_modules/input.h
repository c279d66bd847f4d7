#ifndef INPUT_H
#define INPUT_H

int read_request(char *out, int size);
const char *default_request(void);
void run_request(const char *request);

#endif
