/* weir — the generic built-in programs and their push-constant layouts.
 *
 * Look a program up with weir_builtin_program(NAME) (weir/program.h) or
 * weir_backend_find_program, and pass the matching struct as its push
 * constants. Every element-wise program uses workgroups of
 * WEIR_GENERIC_WORKGROUP invocations (a grid of {0,0,0} covers the first
 * bound buffer) and bounds-checks against both `count` and the buffer's size.
 *
 *   noop            no bindings, no push constants
 *   fill_u32        b0[i] = value                  weir_fill_u32_push
 *   copy_u32        b0[i] = b1[i]                  weir_copy_u32_push
 *   add_u32         b0[i] += value                 weir_add_u32_push
 *   counter_u32     b0[0] += 1, one invocation     no push constants
 *   atomic_add_u32  atomic b0[0] += value, per invocation   weir_atomic_add_u32_push */
#ifndef WEIR_BUILTINS_H
#define WEIR_BUILTINS_H

#include <stdint.h>

#define WEIR_GENERIC_WORKGROUP 64u

typedef struct weir_fill_u32_push { uint32_t value, count; } weir_fill_u32_push;
typedef struct weir_copy_u32_push { uint32_t count; } weir_copy_u32_push;
typedef struct weir_add_u32_push { uint32_t value, count; } weir_add_u32_push;
typedef struct weir_atomic_add_u32_push { uint32_t value; } weir_atomic_add_u32_push;

#endif
