#!/usr/bin/env bash
# abi_test.sh LIBWEIR WEIR_TOOL INCLUDE_DIR ABI_VERSION [WEIR_ANALYZE]
# Checks the ABI promises of docs/packaging.md on a built libweir.so:
#  1. `nm -D --defined-only` lists weir_* names only (no internal helpers,
#     no volk entry points);
#  2. every function declared in include/weir/*.h is exported (WEIR_API);
#  3. the SONAME is libweir.so.ABI_VERSION;
#  4. the weir command links neither Check (libcheck, libsubunit) nor LLVM;
#  5. with WEIR_ANALYZE: every function include/weir/analysis.h declares
#     (WEIR_ANALYSIS_API: served to analysis plugins by weir-analyze, not
#     libweir) is exported by weir-analyze, and every function it exports is
#     a weir_* name.
set -u
lib=$1 tool=$2 include=$3 abi=$4 analyze=${5:-}
fail=0
bad() { echo "FAIL: $*"; fail=1; }

exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort -u)
[ -n "$exported" ] || bad "nm -D --defined-only $lib listed nothing. Fix: is binutils installed, is it a shared library?"
# Names the toolchain defines in every shared object (not ours), and ASan's
# per-module markers under -DWEIR_SANITIZE=ON.
stray=$(echo "$exported" | grep -v '^weir_' | grep -Ev '^(_init|_fini|_edata|_end|__bss_start|___?asan_globals_registered|__odr_asan_gen_.*|__start_asan_globals|__stop_asan_globals)$')
if [ -n "$stray" ]; then
  bad "libweir exports $(echo "$stray" | wc -l) name(s) without the weir_ prefix:"
  echo "$stray" | head -40 | sed 's/^/    /'
  echo "  Fix: internal functions need no mark (the library is built with -fvisibility=hidden);" \
       "remove WEIR_API or __attribute__((visibility(\"default\"))) from them, or make them static."
fi

declared=$(cat "$include"/*.h | sed -nE 's/^WEIR_API [^(]*[ *](weir_[a-z0-9_]+) *\(.*/\1/p' | sort -u)
unmarked=$(cat "$include"/*.h | grep -E '^[A-Za-z_][A-Za-z0-9_ ]*[ *]weir_[a-z0-9_]+\(' \
           | grep -vE '^(WEIR_API|WEIR_ANALYSIS_API|typedef|static|#)' || true)
if [ -n "$unmarked" ]; then
  bad "public declarations without WEIR_API (hidden in libweir.so, so consumers cannot link them):"
  echo "$unmarked" | sed 's/^/    /'
  echo "  Fix: write WEIR_API before each of them (weir/export.h)."
fi
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
if [ -n "$missing" ]; then
  bad "declared WEIR_API in $include but not exported by libweir:"
  echo "$missing" | sed 's/^/    /'
  echo "  Fix: define them in the library, or remove the declarations."
fi

soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libweir.so.$abi" ] || bad "SONAME is '$soname', expected libweir.so.$abi (WEIR_ABI_VERSION in weir/version.h). Fix: set_target_properties(weir SOVERSION \${WEIR_ABI_VERSION})."

deps=$(env -u LD_PRELOAD ldd "$tool" 2>&1) # what weir needs, not what a test preloads (lavapipe)
if echo "$deps" | grep -Eq 'libcheck|libsubunit|libLLVM'; then
  bad "the weir command links test or LLVM libraries:"
  echo "$deps" | grep -E 'libcheck|libsubunit|libLLVM' | sed 's/^/    /'
  echo "  Fix: link Check only into tests (tests/CMakeLists.txt) and LLVM only into weir-analyze (frontends/llvm)."
fi

if [ -n "$analyze" ]; then
  served=$(nm -D --defined-only "$analyze" | awk '$2 == "T" {print $3}' | sort -u)
  wanted=$(cat "$include"/*.h | sed -nE 's/^WEIR_ANALYSIS_API [^(]*[ *](weir_[a-z0-9_]+) *\(.*/\1/p' | sort -u)
  [ -n "$wanted" ] || bad "no WEIR_ANALYSIS_API declarations in $include. Fix: is weir/analysis.h there?"
  absent=$(comm -23 <(echo "$wanted") <(echo "$served"))
  if [ -n "$absent" ]; then
    bad "declared WEIR_ANALYSIS_API but not exported by $analyze:"
    echo "$absent" | sed 's/^/    /'
    echo "  Fix: define them in frontends/llvm/api and keep their prefix in api/exports.list."
  fi
  foreign=$(echo "$served" | grep -v '^weir_' || true)
  if [ -n "$foreign" ]; then
    bad "weir-analyze exports functions without the weir_ prefix:"
    echo "$foreign" | head -20 | sed 's/^/    /'
    echo "  Fix: narrow frontends/llvm/api/exports.list."
  fi
fi

if [ $fail = 0 ]; then
  echo "abi: $(echo "$exported" | grep -c '^weir_') weir_* functions exported, $(echo "$declared" | wc -l) declared, SONAME $soname; weir links no Check/LLVM${analyze:+; weir-analyze serves $(echo "$wanted" | wc -l) analysis API functions}"
fi
exit $fail
