#!/usr/bin/env bash
# weir.pc of a static libweir (docs/packaging.md): install the weir_dev
# component (libweir.a, headers, weir.pc) into a temporary prefix and link a
# tiny program with nothing but `pkg-config --static --cflags --libs weir`.
# With the Vulkan FFT built, libweir.a needs glslang, SPIRV-Tools and
# libstdc++ there (Libs.private); a missing one fails the link.
# Skips (77) with the reason where the build is shared or pkg-config is absent.
# usage: static_pc_test.sh BUILD_DIR WORK_DIR CMAKE CC PKG_CONFIG SHARED(ON/OFF)
set -u
build=$1 work=$2 cmake=$3 cc=$4 pkgconfig=$5 shared=$6
die() { echo "FAIL: $*" >&2; exit 1; }
case "$shared" in
  ON | on | 1 | TRUE | true)
    echo "SKIP: this build's libweir is shared, and weir.pc's Libs.private matters for libweir.a only." \
         "Fix: configure a build with -DBUILD_SHARED_LIBS=OFF to run this test."
    exit 77 ;;
esac
[ -n "$pkgconfig" ] && command -v "$pkgconfig" >/dev/null ||
  { echo "SKIP: pkg-config not found. Fix: apt-get install pkg-config."; exit 77; }
rm -rf "$work" && mkdir -p "$work" || die "cannot create $work"
"$cmake" --install "$build" --prefix "$work/prefix" --component weir_dev >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; die "cmake --install --component weir_dev failed"; }
pc=$(ls -d "$work"/prefix/lib*/pkgconfig 2>/dev/null | head -1)
[ -f "$pc/weir.pc" ] || die "no weir.pc installed under $work/prefix"
ls "$work"/prefix/lib*/libweir.a >/dev/null 2>&1 || die "no libweir.a installed under $work/prefix"
echo "weir.pc: $(grep '^Libs' "$pc/weir.pc" | tr '\n' ' ')"
cat >"$work/tiny.c" <<'C'
#include <stdio.h>
#include <weir/weir.h>
int main(void) {
  weir_backend *b = NULL;
  if (weir_backend_open("cpu", &b) != WEIR_OK) {
    fprintf(stderr, "%s\n", weir_last_error());
    return 1;
  }
  weir_device_info info = WEIR_DEVICE_INFO_INIT;
  int ok = weir_backend_device_info(b, &info) == WEIR_OK;
  printf("tiny: %s %s\n", weir_version(), ok ? info.spec : "?");
  weir_backend_close(b);
  return ok ? 0 : 1;
}
C
flags=$(PKG_CONFIG_PATH="$pc" "$pkgconfig" --static --cflags --libs weir) ||
  die "pkg-config --static --cflags --libs weir failed"
echo "pkg-config --static: $flags"
# shellcheck disable=SC2086 # the flags are words
"$cc" -o "$work/tiny" "$work/tiny.c" $flags >"$work/link.log" 2>&1 ||
  { head -30 "$work/link.log"; die "linking against libweir.a with pkg-config --static's flags failed (weir.pc's Libs.private lacks a library libweir.a needs)"; }
out=$("$work/tiny") || die "the program linked with libweir.a failed: $out"
echo "$out"
case "$out" in "tiny: "*" cpu"*) ;; *) die "unexpected output: $out" ;; esac
echo "PASS: a program links against the static libweir with pkg-config --static alone"
