#ifndef CONFIG_H
#define CONFIG_H

#include <stddef.h>

struct limits {
  int soft;
  int hard;
};

void load_limits(struct limits *out);
int load_name(char *out, size_t size);

#endif
