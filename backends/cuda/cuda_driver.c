/* Loading the CUDA driver with dlopen and resolving its entry points. */
#include "backends/cuda/cuda_driver.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef CUresult (*get_proc_fn)(const char *symbol, void **pfn, int cuda_version,
                                cuuint64_t flags, CUdriverProcAddressQueryResult *status);

/* Resolves every function of WEIR_CUDA_DRIVER_FUNCTIONS through the driver's
 * own cuGetProcAddress_v2, at the ABI version the typedefs describe. */
static weir_status resolve_all(get_proc_fn get_proc, const char *library, weir_cuda_driver *out,
                               char *reason, size_t reason_bytes) {
#define WEIR_CUDA_RESOLVE(name, version)                                                 \
  {                                                                                       \
    void *fn = NULL;                                                                      \
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;          \
    CUresult r = get_proc(#name, &fn, WEIR_CUDA_REQUESTED_ABI, CU_GET_PROC_ADDRESS_DEFAULT, \
                          &found);                                                        \
    if (r != CUDA_SUCCESS || found != CU_GET_PROC_ADDRESS_SUCCESS || !fn) {               \
      snprintf(reason, reason_bytes,                                                      \
               "the CUDA driver %s has no entry point %s at ABI %d (cuGetProcAddress "   \
               "returned %d, symbol status %d). Fix: install an NVIDIA driver for CUDA "  \
               "12.0 or newer (R525+; CUDA 13 programs need R580+)",                      \
               library, #name, WEIR_CUDA_REQUESTED_ABI, (int)r, (int)found);              \
      return WEIR_ERR_UNAVAILABLE;                                                        \
    }                                                                                     \
    /* POSIX guarantees object and function pointers convert losslessly. */               \
    memcpy(&out->p##name, &fn, sizeof fn);                                                \
  }
  WEIR_CUDA_DRIVER_FUNCTIONS(WEIR_CUDA_RESOLVE)
#undef WEIR_CUDA_RESOLVE
  return WEIR_OK;
}

/* cuInit and the driver version; the driver's own error name and text on
 * failure ("no CUDA-capable device is detected", "driver/library mismatch"). */
static weir_status init_driver(weir_cuda_driver *d, const char *library, char *reason,
                               size_t reason_bytes) {
  CUresult r = d->pcuInit(0);
  if (r == CUDA_SUCCESS) r = d->pcuDriverGetVersion(&d->driver_version);
  if (r == CUDA_SUCCESS) return WEIR_OK;
  const char *name = NULL, *text = NULL;
  if (d->pcuGetErrorName(r, &name) != CUDA_SUCCESS || !name) name = "unknown CUresult";
  if (d->pcuGetErrorString(r, &text) != CUDA_SUCCESS || !text) text = "no description";
  snprintf(reason, reason_bytes, "cuInit(0) in %s failed: %s (%d): %s. Fix: %s", library, name,
           (int)r, text, weir_cuda_fix_hint(r));
  return WEIR_ERR_UNAVAILABLE;
}

weir_status weir_cuda_driver_load(const char *library, weir_cuda_driver *out, char *reason,
                                  size_t reason_bytes) {
  memset(out, 0, sizeof *out);
  if (reason_bytes) reason[0] = '\0';
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    snprintf(reason, reason_bytes,
             "dlopen(\"%s\") failed: %s. Fix: install the NVIDIA driver (it provides "
             "libcuda.so.1) on a machine with an NVIDIA GPU, or use another backend (cpu, vulkan)",
             library, why ? why : "unknown reason");
    return WEIR_ERR_UNAVAILABLE;
  }
  void *sym = dlsym(handle, "cuGetProcAddress_v2");
  if (!sym) {
    snprintf(reason, reason_bytes,
             "%s has no cuGetProcAddress_v2: the driver predates CUDA 12.0. Fix: install an "
             "NVIDIA driver for CUDA 12.0 or newer",
             library);
    return WEIR_ERR_UNAVAILABLE; /* the handle stays open: drivers do not unload cleanly */
  }
  get_proc_fn get_proc;
  memcpy(&get_proc, &sym, sizeof sym);
  weir_status s = resolve_all(get_proc, library, out, reason, reason_bytes);
  if (s == WEIR_OK) s = init_driver(out, library, reason, reason_bytes);
  return s;
}

/* ---- the process's driver ------------------------------------------------ */

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static weir_cuda_driver g_driver;
static weir_status g_status = WEIR_ERR_UNAVAILABLE;
static char g_reason[640];
static pid_t g_pid; /* the process that ran cuInit */

static void load_once(void) {
  const char *library = getenv("WEIR_CUDA_DRIVER");
  if (!library || !*library) library = WEIR_CUDA_DEFAULT_LIBRARY;
  g_pid = getpid();
  g_status = weir_cuda_driver_load(library, &g_driver, g_reason, sizeof g_reason);
}

weir_status weir_cuda_check_process(pid_t initialised_in) {
  pid_t now = getpid();
  if (now == initialised_in) return WEIR_OK;
  return weir_fail(WEIR_ERR_UNAVAILABLE,
                   "cuda: this process (pid %ld) was forked from pid %ld after CUDA was "
                   "initialised there, and the CUDA driver cannot be used in a forked child. "
                   "Fix: open CUDA backends only after fork() (test runners: open in the child, "
                   "or run Check with CK_FORK=no)",
                   (long)now, (long)initialised_in);
}

const weir_cuda_driver *weir_cuda_driver_get(void) {
  pthread_once(&g_once, load_once);
  if (g_status != WEIR_OK) {
    weir_fail(WEIR_ERR_UNAVAILABLE, "cuda: %s", g_reason);
    return NULL;
  }
  return weir_cuda_check_process(g_pid) == WEIR_OK ? &g_driver : NULL;
}
