/* The struct_size mechanism of caller-allocated public structs (weir/weir.h,
 * "Structs the caller allocates"; docs/packaging.md): one place that checks
 * a caller's struct_size and copies only the bytes both sides know. */
#ifndef WEIR_ENGINE_CORE_STRUCT_SIZE_H
#define WEIR_ENGINE_CORE_STRUCT_SIZE_H

#include <stddef.h>

#include "weir/status.h"

/* An input struct (options). NULL given: *local is zeroed with struct_size =
 * full (the defaults). Otherwise the caller's bytes that this library knows
 * are copied into *local (the rest zero, struct_size = full). Refuses a
 * non-zero size below v1 and a larger size whose unknown bytes are not zero. */
weir_status weir_struct_in(const char *fn, const char *type, const void *given, size_t v1,
                           size_t full, void *local);

/* An output struct (info, stats): checks the caller's struct_size (as above)
 * and gives the bytes to fill, for weir_struct_out_copy. */
weir_status weir_struct_out_size(const char *fn, const char *type, const void *given, size_t v1,
                                 size_t full, size_t *bytes);
/* Copies *local's fields into *given up to `bytes` (from weir_struct_out_size),
 * keeping the caller's struct_size; bytes past `full` that the caller's newer
 * layout has are zeroed. */
void weir_struct_out_copy(void *given, const void *local, size_t bytes, size_t full);

#endif
