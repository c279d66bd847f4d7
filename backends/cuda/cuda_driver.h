/* The CUDA driver API, loaded at run time.
 *
 * weir never links libcuda or libcudart: the driver is dlopen()ed at first
 * use and every entry point is resolved through cuGetProcAddress_v2 (CUDA
 * 12.0+) at a fixed ABI version, so the pointer types below (the versioned
 * PFN_* typedefs of cudaTypedefs.h) always match what the driver hands back,
 * whatever newer driver is installed. The library and weir start on machines
 * without NVIDIA software; the backend then reports itself unavailable with
 * the dlopen or cuInit reason. */
#ifndef WEIR_BACKENDS_CUDA_DRIVER_H
#define WEIR_BACKENDS_CUDA_DRIVER_H

#include <cuda.h>
#include <cudaTypedefs.h>
#include <stddef.h>
#include <sys/types.h>

#include "weir/status.h"

/* The ABI version every entry point is requested at: the CUDA 12.0 ABI.
 * Each X(name, version) below names the newest PFN_<name>_v<version>
 * typedef at or before 12.0, which is the signature the driver returns. */
#define WEIR_CUDA_REQUESTED_ABI 12000
#define WEIR_CUDA_DEFAULT_LIBRARY "libcuda.so.1"

#define WEIR_CUDA_DRIVER_FUNCTIONS(X)                                                     \
  X(cuInit, 2000)                                                                         \
  X(cuDriverGetVersion, 2020)                                                             \
  X(cuDeviceGet, 2000)                                                                    \
  X(cuDeviceGetCount, 2000)                                                               \
  X(cuDeviceGetName, 2000)                                                                \
  X(cuDeviceGetAttribute, 2000)                                                           \
  X(cuDeviceTotalMem, 3020)                                                               \
  X(cuDevicePrimaryCtxRetain, 7000)                                                       \
  X(cuDevicePrimaryCtxRelease, 11000)                                                     \
  X(cuCtxSetCurrent, 4000)                                                                \
  X(cuStreamCreate, 2000)                                                                 \
  X(cuStreamDestroy, 4000)                                                                \
  X(cuStreamSynchronize, 2000)                                                            \
  X(cuMemAlloc, 3020)                                                                     \
  X(cuMemFree, 3020)                                                                      \
  X(cuMemAllocHost, 3020)                                                                 \
  X(cuMemFreeHost, 2000)                                                                  \
  X(cuMemGetInfo, 3020)                                                                   \
  X(cuMemcpyHtoDAsync, 3020)                                                              \
  X(cuMemcpyDtoHAsync, 3020)                                                              \
  X(cuMemcpyDtoDAsync, 3020)                                                              \
  X(cuModuleLoadDataEx, 2010)                                                             \
  X(cuModuleUnload, 2000)                                                                 \
  X(cuModuleGetFunction, 2000)                                                            \
  X(cuFuncGetAttribute, 2020)                                                             \
  X(cuLaunchKernel, 4000)                                                                 \
  X(cuEventCreate, 2000)                                                                  \
  X(cuEventDestroy, 4000)                                                                 \
  X(cuEventRecord, 2000)                                                                  \
  X(cuEventSynchronize, 2000)                                                             \
  X(cuEventElapsedTime, 2000)                                                             \
  X(cuStreamBeginCapture, 10010)                                                          \
  X(cuStreamEndCapture, 10000)                                                            \
  X(cuGraphInstantiateWithFlags, 11040)                                                   \
  X(cuGraphLaunch, 10000)                                                                 \
  X(cuGraphExecDestroy, 10000)                                                            \
  X(cuGraphDestroy, 10000)                                                                \
  X(cuGetErrorName, 6000)                                                                 \
  X(cuGetErrorString, 6000)

/* Fields are named p<function> (token pasting keeps cuda.h's renaming macros
 * such as `#define cuMemAlloc cuMemAlloc_v2` out of the way). */
#define WEIR_CUDA_FIELD(name, version) PFN_##name##_v##version p##name;
typedef struct weir_cuda_driver {
  WEIR_CUDA_DRIVER_FUNCTIONS(WEIR_CUDA_FIELD)
  int driver_version; /* cuDriverGetVersion: 13000 for 13.0 */
} weir_cuda_driver;
#undef WEIR_CUDA_FIELD

/* The process's driver, loaded and cuInit()ed once (thread-safe). This is
 * the one piece of process-wide state in the backend: it is written once and
 * then only read, like the dynamic loader's own tables. Returns NULL after
 * recording the reason (WEIR_ERR_UNAVAILABLE) with weir_fail. The library
 * is "libcuda.so.1", or $WEIR_CUDA_DRIVER when set (tests load a stub). */
const weir_cuda_driver *weir_cuda_driver_get(void);

/* WEIR_OK in the process that initialised CUDA (pid `initialised_in`);
 * WEIR_ERR_UNAVAILABLE with an explanation in a child forked after that,
 * where every driver call would fail or misbehave. */
weir_status weir_cuda_check_process(pid_t initialised_in);

/* Loads `library` into *out and runs cuInit(0). No process-wide state: used
 * by weir_cuda_driver_get and by tests. On failure returns
 * WEIR_ERR_UNAVAILABLE and writes the reason (with a Fix: hint) to
 * reason[reason_bytes]. The library handle is never closed (drivers do not
 * support unloading). */
weir_status weir_cuda_driver_load(const char *library, weir_cuda_driver *out, char *reason,
                                  size_t reason_bytes);

/* Records a failed driver call: "<what>: <CUDA_ERROR_NAME> (<code>): <driver's
 * text>. Fix: <hint for that error>" and returns the weir_status class of
 * `result` (OUT_OF_MEMORY, UNAVAILABLE, UNSUPPORTED or DEVICE). `d` may be
 * NULL (names then fall back to the code). */
weir_status weir_cuda_fail(const weir_cuda_driver *d, CUresult result, const char *fmt, ...)
    WEIR_PRINTF(3, 4);

/* The weir_status class and the Fix: hint used for a CUresult. */
weir_status weir_cuda_status_of(CUresult result);
const char *weir_cuda_fix_hint(CUresult result);

/* Calls a driver function through `d` and returns weir_cuda_fail's status
 * from the enclosing function when it fails. `what` is a printf format. */
#define WEIR_CUDA_TRY(d, call, ...)                                                       \
  do {                                                                                    \
    CUresult weir_cuda_r_ = (call);                                                       \
    if (weir_cuda_r_ != CUDA_SUCCESS) return weir_cuda_fail((d), weir_cuda_r_, __VA_ARGS__); \
  } while (0)

#endif
