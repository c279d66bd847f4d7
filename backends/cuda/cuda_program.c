/* Programs on CUDA: modules loaded once per image, kernels looked up once per
 * program (prepare_program), and the launch of one step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_fft.h"

/* The loaded module of `image`, loading it on first use. The JIT log goes
 * into the message when the driver refuses the image (bad PTX, wrong GPU). */
static weir_status module_for(weir_cuda_instance *inst, const weir_program *program,
                              weir_cuda_module **out) {
  for (size_t i = 0; i < inst->module_count; ++i)
    if (inst->modules[i].image == program->cuda_image) {
      *out = &inst->modules[i];
      return WEIR_OK;
    }
  if (inst->module_count == inst->module_capacity) {
    size_t cap = inst->module_capacity ? inst->module_capacity * 2 : 4;
    weir_cuda_module *grown = realloc(inst->modules, cap * sizeof *grown);
    if (!grown)
      return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                       "cuda: growing the module table to %zu entries failed. Fix: free host "
                       "memory",
                       cap);
    inst->modules = grown;
    inst->module_capacity = cap;
  }
  char log[1024] = "";
  CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[2] = {log, (void *)(uintptr_t)sizeof log};
  CUmodule module = NULL;
  CUresult r = inst->d->pcuModuleLoadDataEx(&module, program->cuda_image, 2, opts, values);
  if (r != CUDA_SUCCESS) {
    log[sizeof log - 1] = '\0';
    return weir_cuda_fail(inst->d, r,
                          "cuModuleLoadDataEx(image of program '%s', %zu bytes) on device %u%s%s",
                          program->name, program->cuda_image_bytes, inst->ordinal,
                          log[0] ? "; JIT log: " : "", log);
  }
  weir_cuda_module *m = &inst->modules[inst->module_count++];
  m->image = program->cuda_image;
  m->module = module;
  m->users = 0;
  *out = m;
  return WEIR_OK;
}

/* Checks the kernel accepts the program's block size: each dimension
 * against the device's limit (z is only 64 on current GPUs, so a block that
 * fits in threads can still be refused at launch), then the total against
 * the kernel's own limit (registers can lower it below the device's). */
static weir_status check_block(weir_cuda_instance *inst, const weir_program *program,
                               CUfunction fn) {
  const uint32_t *wg = program->workgroup_size;
  for (int i = 0; i < 3; ++i)
    if (wg[i] > (uint32_t)inst->max_block[i])
      return weir_fail(WEIR_ERR_UNSUPPORTED,
                       "cuda: program '%s' has workgroup_size %ux%ux%u, but device %u allows at "
                       "most %d threads in %c per block (MAX_BLOCK_DIM_%c). Fix: reshape the "
                       "program's workgroup_size (and its kernel's indexing) to fit the "
                       "device's block limits %dx%dx%d",
                       program->name, wg[0], wg[1], wg[2], inst->ordinal, inst->max_block[i],
                       "xyz"[i], "XYZ"[i], inst->max_block[0], inst->max_block[1],
                       inst->max_block[2]);
  int max_threads = 0;
  WEIR_CUDA_TRY(inst->d,
                inst->d->pcuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn),
                "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK, kernel '%s')", program->cuda_entry);
  uint64_t threads = (uint64_t)program->workgroup_size[0] * program->workgroup_size[1] *
                     program->workgroup_size[2];
  if (threads > (uint64_t)max_threads)
    return weir_fail(WEIR_ERR_UNSUPPORTED,
                     "cuda: program '%s' has workgroup_size %ux%ux%u = %llu threads, but kernel "
                     "'%s' allows at most %d per block on device %u. Fix: lower the program's "
                     "workgroup_size (or the kernel's register use / __launch_bounds__)",
                     program->name, program->workgroup_size[0], program->workgroup_size[1],
                     program->workgroup_size[2], (unsigned long long)threads,
                     program->cuda_entry, max_threads, inst->ordinal);
  return WEIR_OK;
}

weir_status weir_cuda_prepare_program(void *self, const weir_program *program, void **out_state) {
  weir_cuda_instance *inst = self;
  WEIR_TRY(weir_cuda_enter(inst));
  weir_cuda_module *m = NULL;
  WEIR_TRY(module_for(inst, program, &m));
  CUfunction fn = NULL;
  WEIR_CUDA_TRY(inst->d, inst->d->pcuModuleGetFunction(&fn, m->module, program->cuda_entry),
                "cuModuleGetFunction('%s') for program '%s'", program->cuda_entry, program->name);
  WEIR_TRY(check_block(inst, program, fn));
  weir_cuda_program_state *st = calloc(1, sizeof *st);
  if (!st)
    return weir_fail(WEIR_ERR_OUT_OF_MEMORY,
                     "cuda: allocating the state of program '%s' failed. Fix: free host memory",
                     program->name);
  st->function = fn;
  st->image = program->cuda_image;
  for (int i = 0; i < 3; ++i) st->block[i] = program->workgroup_size[i];
  m->users++;
  *out_state = st;
  return WEIR_OK;
}

void weir_cuda_release_program(void *self, const weir_program *program, void *state) {
  (void)program;
  weir_cuda_instance *inst = self;
  weir_cuda_program_state *st = state;
  if (!st) return;
  /* Nothing to report to: a dead context only means there is less to free. */
  int entered = weir_cuda_enter(inst) == WEIR_OK;
  /* Cached graphs may hold this kernel, and a later state could reuse its
   * address: drop them all (a program release is rare). */
  weir_cuda_graph_cache_clear(&inst->graphs);
  for (size_t i = 0; i < inst->module_count; ++i) {
    weir_cuda_module *m = &inst->modules[i];
    if (m->image != st->image || --m->users > 0) continue;
    if (entered) {
      inst->d->pcuStreamSynchronize(inst->stream); /* no queued launch may use it */
      inst->d->pcuModuleUnload(m->module);
    }
    inst->modules[i] = inst->modules[--inst->module_count];
    break;
  }
  free(st);
}

void weir_cuda_args_fill(const weir_native_step *step, weir_cuda_args *out) {
  memset(out, 0, sizeof *out);
  for (uint32_t i = 0; i < step->binding_count && i < WEIR_MAX_BINDINGS; ++i) {
    const weir_cuda_buffer *b = step->bindings[i];
    out->binding[i] = b->ptr;
    out->binding_bytes[i] = step->binding_bytes[i];
  }
  uint32_t push = step->push_constant_bytes;
  if (push > sizeof out->push) push = sizeof out->push; /* the engine validated: never */
  if (push) memcpy(out->push, step->push_constants, push);
  out->binding_count = step->binding_count;
  out->push_constant_bytes = push;
  out->grid[0] = step->grid.x;
  out->grid[1] = step->grid.y;
  out->grid[2] = step->grid.z;
  for (int i = 0; i < 3; ++i) out->workgroup_size[i] = step->program->workgroup_size[i];
}

static weir_status check_grid(weir_cuda_instance *inst, const weir_native_step *step) {
  const uint32_t g[3] = {step->grid.x, step->grid.y, step->grid.z};
  for (int i = 0; i < 3; ++i)
    if (g[i] > (uint32_t)inst->max_grid[i])
      return weir_fail(WEIR_ERR_UNSUPPORTED,
                       "cuda: program '%s' dispatched with grid %ux%ux%u, but device %u allows at "
                       "most %d workgroups in %c. Fix: fold the grid into x (up to %d), or loop "
                       "inside the kernel",
                       step->program->name, g[0], g[1], g[2], inst->ordinal, inst->max_grid[i],
                       "xyz"[i], inst->max_grid[0]);
  return WEIR_OK;
}

weir_status weir_cuda_launch(weir_cuda_instance *inst, const weir_native_step *step) {
  if (step->fft) return weir_cuda_fft_exec(inst, step);
  const weir_cuda_program_state *st = step->program_state;
  if (!st)
    return weir_fail(WEIR_ERR_INTERNAL,
                     "cuda: step of program '%s' reached the backend without a prepared "
                     "kernel. Fix: this is a weir bug, please report it",
                     step->program->name);
  WEIR_TRY(check_grid(inst, step));
  weir_cuda_args args;
  weir_cuda_args_fill(step, &args);
  void *params[1] = {&args};
  WEIR_CUDA_TRY(inst->d,
                inst->d->pcuLaunchKernel(st->function, step->grid.x, step->grid.y, step->grid.z,
                                         st->block[0], st->block[1], st->block[2], 0, inst->stream,
                                         params, NULL),
                "cuLaunchKernel('%s', grid %ux%ux%u, block %ux%ux%u) on device %u",
                step->program->cuda_entry, step->grid.x, step->grid.y, step->grid.z, st->block[0],
                st->block[1], st->block[2], inst->ordinal);
  return WEIR_OK;
}
