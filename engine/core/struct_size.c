/* See struct_size.h. The size is read with memcpy: the structs differ, but
 * each starts with a size_t. */
#include "engine/core/struct_size.h"

#include <stdint.h>
#include <string.h>

static size_t given_size(const void *given) {
  size_t n;
  memcpy(&n, given, sizeof n);
  return n;
}

/* The bytes this call uses: 0 stands for the first layout. */
static weir_status check_size(const char *fn, const char *type, size_t n, size_t v1) {
  if (n == 0 || n >= v1) return WEIR_OK;
  return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                   "%s: %s.struct_size is %zu, smaller than the first published layout (%zu "
                   "bytes). Fix: initialise the struct with its WEIR_..._INIT macro or set "
                   "struct_size = sizeof(%s) (0 means the first layout).",
                   fn, type, n, v1, type);
}

weir_status weir_struct_in(const char *fn, const char *type, const void *given, size_t v1,
                           size_t full, void *local) {
  memset(local, 0, full);
  memcpy(local, &full, sizeof full);
  if (!given) return WEIR_OK;
  size_t n = given_size(given);
  WEIR_TRY(check_size(fn, type, n, v1));
  if (n == 0) n = v1;
  const unsigned char *bytes = given;
  for (size_t i = full; i < n; ++i)
    if (bytes[i])
      return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                       "%s: %s.struct_size is %zu, but this libweir knows its first %zu bytes "
                       "and byte %zu past them is not zero (a field of a newer weir is set). "
                       "Fix: build against the headers of the libweir you run, or upgrade "
                       "libweir.",
                       fn, type, n, full, i);
  size_t copy = n < full ? n : full;
  memcpy((unsigned char *)local + sizeof(size_t), bytes + sizeof(size_t), copy - sizeof(size_t));
  return WEIR_OK;
}

weir_status weir_struct_out_size(const char *fn, const char *type, const void *given, size_t v1,
                                 size_t full, size_t *bytes) {
  size_t n = given_size(given);
  WEIR_TRY(check_size(fn, type, n, v1));
  *bytes = n == 0 ? v1 : n;
  (void)full;
  return WEIR_OK;
}

void weir_struct_out_copy(void *given, const void *local, size_t bytes, size_t full) {
  size_t copy = bytes < full ? bytes : full;
  memcpy((unsigned char *)given + sizeof(size_t), (const unsigned char *)local + sizeof(size_t),
         copy - sizeof(size_t));
  if (bytes > full) memset((unsigned char *)given + full, 0, bytes - full);
}
