/* Loading NCCL at run time and turning its results into weir statuses. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/residency/nccl/nccl_api.h"

const char *weir_nccl_library_name(const char *requested) {
  if (requested && *requested) return requested;
  const char *env = getenv("WEIR_NCCL_LIBRARY");
  return env && *env ? env : "libnccl.so.2";
}

#define WEIR_NCCL_HOW_TO_GET                                                                \
  "Fix: install NCCL (the CUDA toolkit's NCCL, or the libnccl2 package from NVIDIA's "      \
  "CUDA repository) so that the dynamic loader finds libnccl.so.2 (ldconfig -p | grep "     \
  "nccl; or add its folder to LD_LIBRARY_PATH), or set WEIR_NCCL_LIBRARY to its path; "     \
  "or move the data with the stream transport (weir_stream_transport_create) or the MPI "   \
  "transport (weir_mpi_transport_create) instead."

/* dlsym into a function pointer without converting void * to a function
 * pointer type (which ISO C leaves undefined): copy the bits. */
static int resolve(void *handle, const char *name, void *slot, size_t slot_bytes) {
  void *symbol = dlsym(handle, name);
  if (!symbol) return 0;
  memcpy(slot, &symbol, slot_bytes < sizeof symbol ? slot_bytes : sizeof symbol);
  return 1;
}

weir_status weir_nccl_api_load(const char *library, weir_nccl_api *out) {
  memset(out, 0, sizeof *out);
  snprintf(out->library, sizeof out->library, "%s", library);
  dlerror();
  out->handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!out->handle) {
    const char *why = dlerror();
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "nccl: cannot load the NCCL library %s (dlopen: %s). " WEIR_NCCL_HOW_TO_GET,
                     library, why ? why : "no reason given");
  }
#define WEIR_NCCL_RESOLVE(name, params)                                                     \
  if (!resolve(out->handle, #name, &out->name, sizeof out->name))                           \
    return weir_fail(WEIR_ERR_UNAVAILABLE,                                                  \
                     "nccl: %s has no entry point " #name " (too old or not NCCL: NCCL 2.7 " \
                     "or newer is needed). " WEIR_NCCL_HOW_TO_GET,                          \
                     library);
  WEIR_NCCL_FUNCTIONS(WEIR_NCCL_RESOLVE)
#undef WEIR_NCCL_RESOLVE
  if (!resolve(out->handle, "ncclGetErrorString", &out->ncclGetErrorString,
               sizeof out->ncclGetErrorString))
    return weir_fail(WEIR_ERR_UNAVAILABLE,
                     "nccl: %s has no entry point ncclGetErrorString (not NCCL?). "
                     WEIR_NCCL_HOW_TO_GET,
                     library);
  (void)resolve(out->handle, "ncclGetLastError", &out->ncclGetLastError,
                sizeof out->ncclGetLastError);
  weir_nccl_result r = out->ncclGetVersion(&out->version);
  if (r != WEIR_NCCL_SUCCESS)
    return weir_nccl_fail(out, NULL, r, "ncclGetVersion of %s", library);
  return WEIR_OK;
}

static const char *result_name(weir_nccl_result result) {
  static const char *const names[] = {"ncclSuccess",         "ncclUnhandledCudaError",
                                      "ncclSystemError",     "ncclInternalError",
                                      "ncclInvalidArgument", "ncclInvalidUsage",
                                      "ncclRemoteError",     "ncclInProgress"};
  return result >= 0 && (size_t)result < sizeof names / sizeof names[0] ? names[result]
                                                                         : "ncclResult";
}

const char *weir_nccl_error_text(const weir_nccl_api *api, weir_nccl_result result) {
  const char *text = api && api->ncclGetErrorString ? api->ncclGetErrorString(result) : NULL;
  return text && *text ? text : "no description";
}

static const char *fix_hint(weir_nccl_result result) {
  switch (result) {
  case WEIR_NCCL_UNHANDLED_CUDA:
    return "a CUDA call inside NCCL failed: check the GPUs (nvidia-smi) and rerun with "
           "NCCL_DEBUG=WARN to see the CUDA error.";
  case WEIR_NCCL_SYSTEM_ERROR:
    return "a system call failed inside NCCL (shared memory, sockets, limits): rerun with "
           "NCCL_DEBUG=WARN to see which; in containers enlarge /dev/shm.";
  case WEIR_NCCL_INVALID_ARGUMENT:
  case WEIR_NCCL_INVALID_USAGE:
    return "rerun with NCCL_DEBUG=WARN to see the argument NCCL refused; weir checked the "
           "call before, so please report it with that output.";
  case WEIR_NCCL_REMOTE_ERROR:
    return "a peer failed or exited: check the other devices or processes.";
  default:
    return "rerun with NCCL_DEBUG=WARN for NCCL's detail; report it if it persists.";
  }
}

weir_status weir_nccl_fail(const weir_nccl_api *api, weir_nccl_comm comm,
                           weir_nccl_result result, const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  const char *detail = comm && api && api->ncclGetLastError ? api->ncclGetLastError(comm) : NULL;
  weir_status status = result == WEIR_NCCL_INVALID_ARGUMENT || result == WEIR_NCCL_INVALID_USAGE
                           ? WEIR_ERR_INVALID_ARGUMENT
                           : WEIR_ERR_DEVICE;
  return weir_fail(status, "nccl: %s: %s (%d): %s%s%s%s. Fix: %s", what, result_name(result),
                   result, weir_nccl_error_text(api, result), detail && *detail ? " [" : "",
                   detail && *detail ? detail : "", detail && *detail ? "]" : "",
                   fix_hint(result));
}
