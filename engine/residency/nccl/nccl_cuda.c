/* What the NCCL transport needs from the CUDA backend: its device, its
 * stream and the device address of a buffer. Inside libweir, so it reads
 * the backend's instance directly (no export_pointer, which would
 * synchronize the stream first). Without CUDA support compiled in, every
 * entry refuses with the reason. */
#include <stdint.h>

#include "engine/core/internal.h"
#include "engine/residency/nccl/nccl_internal.h"

const char *weir_nccl_backend_spec(const weir_backend *backend) {
  return backend && backend->magic == WEIR_BACKEND_LIVE ? backend->info.spec : "(none)";
}

#ifdef WEIR_HAVE_CUDA_CODE

#include "backends/cuda/cuda_backend.h"

extern const weir_provider weir_provider_cuda;

static weir_cuda_instance *instance_of(weir_backend *backend) {
  return backend->provider == &weir_provider_cuda ? (weir_cuda_instance *)backend->self : NULL;
}

weir_status weir_nccl_cuda_member(weir_backend *backend, const char *what, uint32_t index,
                                  int *ordinal, weir_nccl_stream *stream) {
  WEIR_TRY(weir_check_backend(backend, what));
  weir_cuda_instance *inst = instance_of(backend);
  if (!inst)
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: member %u is backend \"%s\" (%s), not a CUDA backend; NCCL moves "
                     "only CUDA device memory. Fix: open every member as \"cuda:N\", or use "
                     "the stream transport (weir_stream_transport_create) for other backends.",
                     what, index, backend->info.spec, backend->info.backend_id);
  *ordinal = (int)inst->ordinal;
  *stream = (weir_nccl_stream)inst->stream;
  return WEIR_OK;
}

weir_status weir_nccl_cuda_pointer(weir_backend *backend, weir_buffer buffer, uint64_t offset,
                                   const char *what, void **out) {
  weir_slot *slot = NULL;
  WEIR_TRY(weir_resolve(backend, buffer, what, &slot));
  if (!instance_of(backend))
    return weir_fail(WEIR_ERR_INVALID_ARGUMENT,
                     "%s: the chunk lives on backend \"%s\" (%s), not on a CUDA backend. Fix: "
                     "put the chunk on the member's cuda backend.",
                     what, backend->info.spec, backend->info.backend_id);
  const weir_cuda_buffer *b = slot->native;
  *out = (void *)(uintptr_t)(b->ptr + offset);
  return WEIR_OK;
}

weir_status weir_nccl_cuda_enter(weir_backend *backend) {
  weir_cuda_instance *inst = instance_of(backend);
  return inst ? weir_cuda_enter(inst) : WEIR_OK;
}

#else

static weir_status not_compiled(const char *what) {
  return weir_fail(WEIR_ERR_UNAVAILABLE,
                   "%s: CUDA support is not compiled into this libweir, so there is no CUDA "
                   "backend for NCCL to work on. Fix: rebuild weir with the CUDA toolkit "
                   "(nvcc) installed, or use the stream transport (weir_stream_transport_create).",
                   what);
}

weir_status weir_nccl_cuda_member(weir_backend *backend, const char *what, uint32_t index,
                                  int *ordinal, weir_nccl_stream *stream) {
  (void)backend, (void)index, (void)ordinal, (void)stream;
  return not_compiled(what);
}

weir_status weir_nccl_cuda_pointer(weir_backend *backend, weir_buffer buffer, uint64_t offset,
                                   const char *what, void **out) {
  (void)backend, (void)buffer, (void)offset, (void)out;
  return not_compiled(what);
}

weir_status weir_nccl_cuda_enter(weir_backend *backend) {
  (void)backend;
  return WEIR_OK;
}

#endif
