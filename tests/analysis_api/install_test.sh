#!/bin/sh
# The template analysis plugin built against an installed weir only: `cmake
# --install` of this build into WORK/prefix, then share/weir/analysis-template
# built with find_package(weir) and with its Makefile (pkg-config), each run
# by the installed `weir analyze --analysis plugin:...` on programs/*.c,
# whose markers must match at -O0 and -O2 (check_markers.py).
# usage: install_test.sh BUILD WORK CMAKE CC CLANG14 PYTHON3 HERE MAKE PKG_CONFIG
set -eu
build=$1 work=$2 cmake=$3 cc=$4 clang=$5 python=$6 here=$7 make=$8 pkgconfig=$9
prefix=$work/prefix
rm -rf "$work" && mkdir -p "$work"
fail() { echo "analysis install_test: FAIL: $*" >&2; exit 1; }
quiet() { log=$1; shift; "$@" > "$log" 2>&1 || { tail -30 "$log"; fail "'$*' failed (log: $log)"; }; }
unset CMAKE_PREFIX_PATH PKG_CONFIG_PATH LD_LIBRARY_PATH LD_PRELOAD WEIR_ANALYSIS_PATH

quiet "$work/install.log" "$cmake" --install "$build" --prefix "$prefix"
template=$prefix/share/weir/analysis-template
for f in include/weir/analysis.h libexec/weir/weir-analyze share/weir/analysis-template/secret_log.c \
         share/weir/analysis-template/CMakeLists.txt share/weir/analysis-template/Makefile; do
  [ -e "$prefix/$f" ] || fail "$prefix/$f was not installed. Fix: cmake/install.cmake."
done
grep -q '#include "' "$template/secret_log.c" && fail "the template includes a header that is not installed"

echo "== find_package(weir): cmake -S $template"
quiet "$work/cmake.log" "$cmake" -S "$template" -B "$work/cmake" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_BUILD_TYPE=Release
quiet "$work/cmake-build.log" "$cmake" --build "$work/cmake"
plugin=$work/cmake/analyses/libsecret-log.so
[ -f "$plugin" ] || fail "the CMake build made no $plugin"
"$python" "$here/check_markers.py" "$prefix/bin/weir" "$clang" "plugin:$plugin" "$work/markers-cmake" \
  "$here"/programs/*.c || fail "the template built with CMake: findings differ from the markers"

echo "== pkg-config: make -C a copy of $template"
libdir=$(dirname "$(ls "$prefix"/lib*/pkgconfig/weir.pc | head -1)")
cp -r "$template" "$work/make"
PKG_CONFIG_PATH="$libdir" quiet "$work/make.log" "$make" -C "$work/make" CC="$cc" PKG_CONFIG="$pkgconfig"
# The value given on make's command line reaches pkg-config too.
cp -r "$template" "$work/make-arg"
quiet "$work/make-arg.log" "$make" -C "$work/make-arg" CC="$cc" PKG_CONFIG="$pkgconfig" PKG_CONFIG_PATH="$libdir"
[ -f "$work/make-arg/libsecret-log.so" ] || fail "make PKG_CONFIG_PATH=... made no libsecret-log.so"
WEIR_ANALYSIS_PATH=$work/make "$python" "$here/check_markers.py" "$prefix/bin/weir" "$clang" secret-log \
  "$work/markers-make" "$here"/programs/*.c || fail "the template built with pkg-config: findings differ"
echo "analysis install_test: ok (prefix $prefix)"
