/* weir — the version of the headers and of the library.
 *
 * WEIR_VERSION_* describe the headers you compiled against; weir_version()
 * and weir_abi_version() the library loaded at run time. WEIR_ABI_VERSION is
 * the SOVERSION of libweir (libweir.so.0): it changes when a release breaks
 * binary compatibility (docs/packaging.md says what does), so a program
 * checks `weir_abi_version() == WEIR_ABI_VERSION` once at start-up. The
 * backend plugin interface has its own number (WEIR_BACKEND_ABI_VERSION in
 * weir/backend.h). The build (CMakeLists.txt) reads these lines: keep them
 * in sync with project(VERSION). */
#ifndef WEIR_VERSION_H
#define WEIR_VERSION_H

#include "weir/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WEIR_VERSION_MAJOR 0
#define WEIR_VERSION_MINOR 1
#define WEIR_VERSION_PATCH 0
#define WEIR_VERSION_STRING "0.1.0"
#define WEIR_ABI_VERSION 0

/* The library's version, e.g. "0.1.0" (WEIR_VERSION_STRING when it was built). */
WEIR_API const char *weir_version(void);
/* The library's ABI version: the number in its SONAME (libweir.so.N). */
WEIR_API int weir_abi_version(void);

#ifdef __cplusplus
}
#endif
#endif
