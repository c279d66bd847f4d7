#!/usr/bin/env bash
# install_test.sh BUILD SOURCE WORK CMAKE CC PKG_CONFIG MAKE
# Installs BUILD into WORK/prefix and builds consumers against that prefix
# only; each runs the README's C example (extracted from README.md, so the
# two cannot drift apart). Prints one line per step; exits 1 on a failure.
set -euo pipefail
build=$1 src=$2 work=$3 cmake=$4 cc=$5 pkgconfig=${6:-} make=${7:-}
prefix=$work/prefix
jobs=$(nproc 2>/dev/null || echo 2)
rm -rf "$work" && mkdir -p "$work"
step() { echo "== $*"; }
die() { echo "FAIL: $*"; exit 1; }
run_logged() { # run_logged LOG CMD...: quiet unless it fails
  local log=$1; shift
  "$@" >"$log" 2>&1 || { tail -40 "$log"; die "'$*' failed (log: $log)"; }
}
# No package registry, no environment: the consumers see the prefix only.
common=(-DCMAKE_C_COMPILER="$cc" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
        -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release)
unset CMAKE_PREFIX_PATH PKG_CONFIG_PATH LD_LIBRARY_PATH LD_PRELOAD

step "cmake --install $build --prefix $prefix"
run_logged "$work/install.log" "$cmake" --install "$build" --prefix "$prefix"
lib=$(ls "$prefix"/lib*/libweir.so.0 2>/dev/null | head -1)
[ -n "$lib" ] || die "no libweir.so.0 under $prefix/lib*. Fix: install(TARGETS weir) in cmake/install.cmake."
libdir=$(dirname "$lib")
for f in include/weir/weir.h include/weir/export.h include/weir/version.h include/weir/backend.h bin/weir \
         share/weir/template/template.c share/weir/template/CMakeLists.txt; do
  [ -e "$prefix/$f" ] || die "$prefix/$f was not installed. Fix: cmake/install.cmake."
done
for f in cmake/weir/weirConfig.cmake cmake/weir/weirConfigVersion.cmake pkgconfig/weir.pc; do
  [ -e "$libdir/$f" ] || die "$libdir/$f was not installed. Fix: cmake/install.cmake."
done
[ -e "$prefix/include/weir/../../../programs/generic.h" ] && die "an internal header was installed"
# Which libweir EXE loads, as a canonical path ("" when none).
loaded_weir() { ldd "$1" | awk '$1 == "libweir.so.0" {print $3}' | xargs -r readlink -f; }
want=$(readlink -f "$libdir/libweir.so.0")
loads_installed() { # loads_installed NAME EXE
  [ "$(loaded_weir "$2")" = "$want" ] \
    || die "$1 does not load the installed $want: $(ldd "$2" | grep weir || echo 'no libweir')"
}

if ldd "$prefix/bin/weir" | grep -Eq 'libcheck|libsubunit|libLLVM'; then
  die "the installed weir links Check or LLVM: $(ldd "$prefix/bin/weir" | grep -E 'check|subunit|LLVM')"
fi
loads_installed "the installed weir" "$prefix/bin/weir"
"$prefix/bin/weir" --version | grep -qx "weir $(sed -n 's/^#define WEIR_VERSION_STRING "\(.*\)"/\1/p' "$src/include/weir/version.h")" \
  || die "installed weir --version: $("$prefix/bin/weir" --version)"

# The README's first ```c block is the example.
mkdir -p "$work/example"
awk '/^```c$/ {on=1; next} on && /^```$/ {exit} on {print}' "$src/README.md" >"$work/example/example.c"
grep -q 'int main' "$work/example/example.c" || die "README.md's first C block has no main(). Fix: keep the example a whole program."
if grep -E '#include *"' "$work/example/example.c" | grep -v '"weir/'; then
  die "README.md's example includes a non-public header. Fix: include <weir/...> only."
fi
check_run() { # check_run NAME EXE: runs the example, checks its line and where libweir came from
  local name=$1 exe=$2 out
  out=$("$exe" 2>&1) || die "$name: the example failed: $out"
  echo "$out" | grep -Eq '^counter: 1000 on ' || die "$name: unexpected output: $out"
  echo "   $name: $out"
}

step "consumer 1: CMake find_package(weir) against $prefix"
mkdir -p "$work/find-package"
cat >"$work/find-package/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(weir_consumer_find_package C)
find_package(weir 0.1 REQUIRED)
add_executable(example $work/example/example.c)
target_link_libraries(example PRIVATE weir::weir)
CMAKE
run_logged "$work/find-package.log" "$cmake" -S "$work/find-package" -B "$work/find-package/build" \
  "${common[@]}" -DCMAKE_PREFIX_PATH="$prefix"
run_logged "$work/find-package-build.log" "$cmake" --build "$work/find-package/build"
loads_installed "consumer 1" "$work/find-package/build/example"
check_run find_package "$work/find-package/build/example"

step "consumer 2: a Makefile with pkg-config against $prefix"
if [ -z "$pkgconfig" ] || [ -z "$make" ]; then
  die "pkg-config or make not found. Fix: apt-get install pkg-config make."
fi
mkdir -p "$work/pkg-config"
cat >"$work/pkg-config/Makefile" <<'MAKE'
CFLAGS += $(shell $(PKG_CONFIG) --cflags weir)
LDLIBS += $(shell $(PKG_CONFIG) --libs weir)
LDFLAGS += -Wl,-rpath,$(shell $(PKG_CONFIG) --variable=libdir weir)
example: example.c
MAKE
cp "$work/example/example.c" "$work/pkg-config/"
PKG_CONFIG_PATH="$libdir/pkgconfig" run_logged "$work/pkg-config.log" \
  "$make" -C "$work/pkg-config" CC="$cc" PKG_CONFIG="$pkgconfig"
loads_installed "consumer 2" "$work/pkg-config/example"
check_run pkg-config "$work/pkg-config/example"

# The MPI transport, where this build has it: weir::mpi (find_package(weir
# COMPONENTS mpi)) and weir-mpi.pc. Built and run without mpirun: before
# MPI_Init the transport must refuse with its reason.
if ls "$libdir"/libweir_mpi.so* >/dev/null 2>&1; then
  step "consumer 2b: weir::mpi (find_package COMPONENTS mpi) and weir-mpi.pc against $prefix"
  for f in cmake/weir/weirMpiTargets.cmake pkgconfig/weir-mpi.pc; do
    [ -e "$libdir/$f" ] || die "$libdir/$f was not installed. Fix: cmake/install.cmake (weir_mpi)."
  done
  [ -e "$prefix/include/weir/mpi/transport.h" ] || die "weir/mpi/transport.h was not installed"
  mkdir -p "$work/mpi"
  cat >"$work/mpi/mpi_example.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <weir/mpi/transport.h>
int main(void) {
  weir_transport *t = NULL; /* no MPI_Init: refused, with a Fix */
  weir_status st = weir_mpi_transport_create(MPI_COMM_WORLD, &t);
  printf("mpi transport: %s\n", weir_status_name(st));
  return st != WEIR_OK && strstr(weir_last_error(), "Fix:") ? 0 : 1;
}
C
  cat >"$work/mpi/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(weir_consumer_mpi C)
find_package(weir 0.1 REQUIRED COMPONENTS mpi)
add_executable(mpi_example mpi_example.c)
target_link_libraries(mpi_example PRIVATE weir::mpi)
CMAKE
  run_logged "$work/mpi.log" "$cmake" -S "$work/mpi" -B "$work/mpi/build" "${common[@]}" \
    -DCMAKE_PREFIX_PATH="$prefix"
  run_logged "$work/mpi-build.log" "$cmake" --build "$work/mpi/build"
  out=$("$work/mpi/build/mpi_example" 2>&1) || die "weir::mpi consumer: $out"
  echo "   find_package COMPONENTS mpi: $out"
  flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" "$pkgconfig" --cflags --libs weir-mpi) \
    || die "pkg-config weir-mpi failed"
  # shellcheck disable=SC2086
  "$cc" -o "$work/mpi/pc_example" "$work/mpi/mpi_example.c" $flags -Wl,-rpath,"$libdir" \
    >"$work/mpi-pc.log" 2>&1 || { cat "$work/mpi-pc.log"; die "building with pkg-config weir-mpi failed"; }
  out=$("$work/mpi/pc_example" 2>&1) || die "weir-mpi.pc consumer: $out"
  echo "   pkg-config weir-mpi: $out"
else
  [ -e "$libdir/cmake/weir/weirMpiTargets.cmake" ] && die "weirMpiTargets.cmake without libweir_mpi"
  echo "   (no libweir_mpi in this build: weir::mpi not checked)"
fi

step "consumer 3: add_subdirectory($src) as a static library (no CUDA, Vulkan, LLVM)"
mkdir -p "$work/subdir"
cat >"$work/subdir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(weir_consumer_subdir C)
add_subdirectory($src weir)
foreach(t weir_cli weir_conformance weir_core_tests)
  if(TARGET \${t})
    message(FATAL_ERROR "\${t} is built in a sub-project. Fix: default WEIR_BUILD_* to PROJECT_IS_TOP_LEVEL.")
  endif()
endforeach()
add_executable(example $work/example/example.c)
target_link_libraries(example PRIVATE weir::weir)
CMAKE
run_logged "$work/subdir.log" "$cmake" -S "$work/subdir" -B "$work/subdir/build" "${common[@]}" \
  -DBUILD_SHARED_LIBS=OFF -DWEIR_ENABLE_CUDA=OFF -DWEIR_ENABLE_VULKAN=OFF -DWEIR_ENABLE_LLVM=OFF
run_logged "$work/subdir-build.log" "$cmake" --build "$work/subdir/build" -j"$jobs"
ldd "$work/subdir/build/example" | grep -q libweir && die "consumer 3 should link libweir.a statically"
check_run add_subdirectory "$work/subdir/build/example"

step "consumer 4: find_package(weir) of the static library that consumer 3 installed"
run_logged "$work/static-install.log" "$cmake" --install "$work/subdir/build" --prefix "$work/prefix-static"
ls "$work"/prefix-static/lib*/libweir.a >/dev/null 2>&1 || die "consumer 3 installed no libweir.a"
run_logged "$work/static.log" "$cmake" -S "$work/find-package" -B "$work/static/build" "${common[@]}" \
  -DCMAKE_PREFIX_PATH="$work/prefix-static"
run_logged "$work/static-build.log" "$cmake" --build "$work/static/build"
check_run find_package-static "$work/static/build/example"

step "the plugin template built against $prefix, certified by the installed weir conformance"
run_logged "$work/template.log" "$cmake" -S "$prefix/share/weir/template" -B "$work/template" \
  "${common[@]}" -DCMAKE_PREFIX_PATH="$prefix"
run_logged "$work/template-build.log" "$cmake" --build "$work/template"
plugin=$work/template/plugins/libweir_template.so
out=$("$prefix/bin/weir" conformance --backend "plugin:$plugin" 2>&1) \
  || { echo "$out" | tail -20; die "weir conformance failed on the template plugin"; }
echo "   $(echo "$out" | tail -1)"
if [ -x "$prefix/libexec/weir/weir-analyze" ]; then
  # captured first: `| grep -q` closes the pipe at the first match, and a
  # help text longer than stdio's 4 KiB buffer then dies of SIGPIPE (pipefail)
  help=$("$prefix/bin/weir" analyze --help) \
    || die "the installed weir analyze --help exited $? (libexec/weir/weir-analyze)"
  grep -q '^usage: weir analyze' <<< "$help" \
    || die "the installed weir analyze does not run its helper (libexec/weir/weir-analyze)"
  echo "   weir analyze runs $prefix/libexec/weir/weir-analyze"
fi
echo "install: ok (prefix $prefix)"
