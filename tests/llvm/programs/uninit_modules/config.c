/* The configuration module: load_limits writes both limits it is given;
 * load_name writes nothing on the error path, and its caller uses the name
 * without checking the result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

void load_limits(struct limits *out) {
  const char *env = getenv("LIMIT");
  out->soft = env != NULL ? atoi(env) : 64;
  out->hard = out->soft * 2;
}

int load_name(char *out, size_t size) {
  const char *env = getenv("NAME");
  if (env == NULL) return -1;
  snprintf(out, size, "%s", env);
  return 0;
}
