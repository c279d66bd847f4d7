/* The generic built-in programs: their push-constant layouts (shared by the
 * host, GLSL and CUDA versions, which must agree field for field) and host
 * kernels. Every element-wise program uses workgroups of 64 invocations and
 * bounds-checks against both `count` and the bound buffer's size. */
#ifndef WEIR_PROGRAMS_GENERIC_H
#define WEIR_PROGRAMS_GENERIC_H

#include <stdint.h>

#include "weir/builtins.h" /* WEIR_GENERIC_WORKGROUP and the push-constant layouts (public) */
#include "weir/program.h"

/* counter_u32: b0[0] += 1 by one invocation, no push constants. */

void weir_host_noop(const weir_host_invocation *inv);
void weir_host_fill_u32(const weir_host_invocation *inv);
void weir_host_copy_u32(const weir_host_invocation *inv);
void weir_host_add_u32(const weir_host_invocation *inv);
void weir_host_counter_u32(const weir_host_invocation *inv);
void weir_host_atomic_add_u32(const weir_host_invocation *inv);

#endif
