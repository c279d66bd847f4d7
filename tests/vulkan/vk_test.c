/* Helpers shared by the Vulkan suites. */
#include "tests/vulkan/vk_test.h"

#include <stdlib.h>

weir_backend *vt_open(const char *spec) {
  weir_backend *b = NULL;
  weir_status st = weir_backend_open(spec, &b);
  ck_assert_msg(st == WEIR_OK, "opening %s: %s", spec, weir_last_error());
  return b;
}

uint32_t vt_next(uint32_t *state) {
  uint32_t x = *state ? *state : 0x9e3779b9u;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

void vt_fill_random(void *dst, size_t bytes, uint32_t seed) {
  uint32_t s = seed * 2654435761u + 1u;
  unsigned char *p = dst;
  for (size_t i = 0; i < bytes; ++i) p[i] = (unsigned char)(vt_next(&s) >> 24);
}

void *vt_download(weir_backend *b, weir_buffer buf, uint64_t *bytes) {
  void *data = NULL;
  OK(weir_download(b, buf, &data, bytes));
  return data;
}

const weir_program *vt_program(weir_backend *b, const char *name) {
  const weir_program *p = weir_backend_find_program(b, name);
  ck_assert_msg(p != NULL, "program %s not found on %s", name, weir_backend_id(b));
  return p;
}
