# Finds LLVM 14 for the LLVM IR frontend. Included from frontends/llvm,
# tests/llvm and bench/analyze (which CMake visits before frontends/), so it
# only defines cache-free variables and is safe to include more than once:
#   WEIR_LLVM_FOUND       ON when the frontend is built (WEIR_ENABLE_LLVM and libLLVM-14)
#   WEIR_LLVM_REASON      why not, when it is not
#   WEIR_LLVM_INCLUDE_DIR WEIR_LLVM_LIBRARY
#   WEIR_CLANG14 WEIR_LLVM_LINK14   the tools tests and benchmarks need (may be NOTFOUND)
if(DEFINED WEIR_LLVM_DETECTED)
  return()
endif()
set(WEIR_LLVM_DETECTED ON)
set(WEIR_LLVM_FOUND OFF)
set(WEIR_LLVM_REASON "")
find_program(WEIR_CLANG14 NAMES clang-14)
find_program(WEIR_LLVM_LINK14 NAMES llvm-link-14)
if(NOT WEIR_ENABLE_LLVM)
  set(WEIR_LLVM_REASON "WEIR_ENABLE_LLVM is OFF")
  return()
endif()
find_program(WEIR_LLVM_CONFIG14 NAMES llvm-config-14)
if(NOT WEIR_LLVM_CONFIG14)
  set(WEIR_LLVM_REASON "llvm-config-14 not found (apt-get install llvm-14-dev)")
  return()
endif()
execute_process(COMMAND ${WEIR_LLVM_CONFIG14} --version OUTPUT_VARIABLE _weir_llvm_version
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _weir_llvm_version MATCHES "^14\\.")
  set(WEIR_LLVM_REASON "llvm-config-14 reports version ${_weir_llvm_version}, need 14.x")
  return()
endif()
execute_process(COMMAND ${WEIR_LLVM_CONFIG14} --includedir OUTPUT_VARIABLE WEIR_LLVM_INCLUDE_DIR
                OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND ${WEIR_LLVM_CONFIG14} --libdir OUTPUT_VARIABLE _weir_llvm_libdir
                OUTPUT_STRIP_TRAILING_WHITESPACE)
find_library(WEIR_LLVM_LIBRARY NAMES LLVM-14 PATHS ${_weir_llvm_libdir} NO_DEFAULT_PATH)
if(NOT WEIR_LLVM_LIBRARY OR NOT EXISTS ${WEIR_LLVM_INCLUDE_DIR}/llvm-c/Core.h)
  set(WEIR_LLVM_REASON "libLLVM-14 or llvm-c/Core.h not found under ${_weir_llvm_libdir} (apt-get install llvm-14-dev)")
  return()
endif()
set(WEIR_LLVM_FOUND ON)
