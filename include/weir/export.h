/* weir — WEIR_API, the mark of every function in weir's public ABI.
 *
 * libweir is compiled with -fvisibility=hidden: only declarations marked
 * WEIR_API are exported from libweir.so (every one of them is named weir_*;
 * tests/abi checks it); internal helpers and the bundled volk loader stay
 * inside the library. Every public header includes this one.
 *
 * Consumers define nothing, for the shared and the static library alike: on
 * ELF the attribute only says "default visibility", which is what a static
 * library's functions have anyway, and it lets an executable linked with
 * -rdynamic (the `weir` tool of a static build) serve its weir_* functions
 * to plugins. On Windows, WEIR_STATIC_DEFINE selects the static library. */
#ifndef WEIR_EXPORT_H
#define WEIR_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(WEIR_STATIC_DEFINE)
#define WEIR_API
#elif defined(WEIR_BUILDING_LIBRARY)
#define WEIR_API __declspec(dllexport)
#else
#define WEIR_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define WEIR_API __attribute__((visibility("default")))
#else
#define WEIR_API
#endif

#endif
