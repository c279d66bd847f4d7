#!/bin/sh
# The second real program of bench/analyze: btmon, the Bluetooth monitor of
# BlueZ 5.66, from Debian's bluez-source package. btmon parses untrusted
# input (HCI packets read with recv/read from the monitor socket, btsnoop and
# hcidump files, TTY and J-Link captures), reads PAGER from the environment
# and execs it, and prints everything with printf-like helpers, so taint,
# uninit and uaf all have something to look at.
#
# usage: real-program.sh CLANG14 LLVM_LINK14 OUT_DIR
#
# Installs bluez-source (the BlueZ tree as Debian built it, config.h
# included: no configure run is needed) and the headers btmon includes
# (libglib2.0-dev, libudev-dev) with apt-get when missing; unpacks the tree
# under OUT_DIR/src (never touches /usr/src); compiles btmon's own sources
# (monitor_btmon_SOURCES of Makefile.tools) and the two libraries it links
# (libbluetooth-internal, libshared-mainloop, lists from Makefile.am) with
# `clang-14 -g -emit-llvm -c` at -O0 and at -O2, and writes, per level L:
#   OUT_DIR/btmon-L.bc     btmon's files linked, then only the library
#                          definitions they need (llvm-link --only-needed)
#   OUT_DIR/btmon-L.files  the per-file .bc of the same program, one a line
#                          (btmon's files and each library file that defines
#                          something btmon-L.bc kept), for the multi-module
#                          mode `weir analyze taint $(cat btmon-L.files)`
set -eu
clang=$1 link=$2 out=$3
sh "$(dirname "$0")/install-packages.sh" real-program.sh bluez-source libglib2.0-dev libudev-dev
tarball=/usr/src/bluez.tar.bz2
[ -f "$tarball" ] || { echo "real-program.sh: $tarball missing although bluez-source is installed. Fix: apt-get install --reinstall bluez-source" >&2; exit 1; }
mkdir -p "$out"
src=$out/src/bluez-source
# Unpacked once per package version (the stamp holds the version).
version=$(dpkg-query -W -f='${Version}' bluez-source)
if [ "$(cat "$out/src/.unpacked" 2>/dev/null)" != "$version" ]; then
  rm -rf "$out/src"
  mkdir -p "$out/src"
  tar xjf "$tarball" -C "$out/src"
  echo "$version" > "$out/src/.unpacked"
fi
[ -f "$src/config.h" ] || { echo "real-program.sh: $src/config.h missing (bluez-source changed layout). Fix: configure the tree: (cd $src && ./configure --disable-systemd --disable-cups --disable-obex --disable-client)" >&2; exit 1; }

# The .c words of an automake variable (all its `=` and `+=` lines with their
# continuation lines), `$(...)` references dropped.
sources() { # FILE VAR
  awk -v var="$2" '
    $1 == var && ($2 == "=" || $2 == "+=") { on = 1; sub(/^[^=]*=/, "") }
    on { line = $0; cont = sub(/\\$/, "", line); print line; if (!cont) on = 0 }' "$1" |
    tr -s ' \t' '\n' | grep '\.c$' | grep -v '^\$' || true
}
own=$(sources "$src/Makefile.tools" monitor_btmon_SOURCES)
libs="$(sources "$src/Makefile.am" lib_sources) $(sources "$src/Makefile.am" extra_sources)
$(sources "$src/Makefile.am" shared_sources) $(sources "$src/Makefile.am" src_libshared_mainloop_la_SOURCES)"
[ -n "$own" ] || { echo "real-program.sh: no monitor_btmon_SOURCES in $src/Makefile.tools. Fix: check the bluez-source version (made for 5.66)" >&2; exit 1; }
libs=$(echo "$libs" | tr ' ' '\n' | sed '/^$/d' | sort -u)
glib=$(pkg-config --cflags glib-2.0)
nm=$(dirname "$link")/llvm-nm-14
[ -x "$nm" ] || nm=llvm-nm-14

compile_level() { # LEVEL (O0|O2)
  ir=$out/ir-$1
  rm -rf "$ir"
  mkdir -p "$ir/own" "$ir/lib"
  # The flags of the Debian build that matter for the IR: config.h, the
  # tree's include directories, glib (att.c, log.c, settings.c).
  # shellcheck disable=SC2016 # $0 and $1 belong to the inner shell
  for part in own libs; do
    if [ "$part" = own ]; then list=$own dir=own; else list=$libs dir=lib; fi
    for f in $list; do
      echo "$f $ir/$dir/$(echo "$f" | sed 's|[/.]|_|g').bc"
    done
  done | xargs -P 2 -n 2 sh -c '
    # shellcheck disable=SC2086
    if ! (cd "'"$src"'" && "'"$clang"'" -g -'"$1"' -emit-llvm -c -DHAVE_CONFIG_H -I. -I./lib '"$glib"' \
          -Wno-everything "$0" -o "$1") 2>"$1.err"; then
      echo "real-program.sh: clang-14 failed on $0: $(head -3 "$1.err")" >&2; exit 255
    fi'
  "$link" "$ir"/own/*.bc -o "$ir/btmon-own.bc"
  # The library files as one module first: `--only-needed` over several
  # modules takes from each only what was needed when that file was linked
  # (bt_uuid_to_le, bt_put_le16, bt_crypto_gatt_hash stayed undefined).
  "$link" "$ir"/lib/*.bc -o "$ir/libs.bc"
  "$link" "$ir/btmon-own.bc" --only-needed "$ir/libs.bc" -o "$out/btmon-$1.bc"
  # The per-file list: btmon's files, and each library file with a
  # definition that the --only-needed link kept.
  ls "$ir"/own/*.bc > "$out/btmon-$1.files"
  "$nm" --defined-only -j "$out/btmon-$1.bc" | sort -u > "$ir/kept.txt"
  for b in "$ir"/lib/*.bc; do
    if "$nm" --defined-only -j "$b" | grep -qxFf "$ir/kept.txt"; then echo "$b" >> "$out/btmon-$1.files"; fi
  done
  echo "real-program.sh: btmon -$1: $(echo "$own" | wc -w) own files + $(echo "$libs" | wc -w) library files -> $out/btmon-$1.bc; $(wc -l < "$out/btmon-$1.files") per-file modules in $out/btmon-$1.files" >&2
}
# Compiled once per package version and clang (the stamp says which).
for level in O0 O2; do
  stamp="$version $("$clang" --version | head -1) (library files linked as one module)"
  if [ -f "$out/btmon-$level.bc" ] && [ -f "$out/btmon-$level.files" ] &&
     [ "$(cat "$out/btmon-$level.stamp" 2>/dev/null)" = "$stamp" ]; then
    echo "real-program.sh: $out/btmon-$level.bc is up to date" >&2
    continue
  fi
  compile_level "$level"
  echo "$stamp" > "$out/btmon-$level.stamp"
done
# shellcheck disable=SC2086 # a list of file names
lines=$(cd "$src" && cat $own | wc -l)
echo "real-program.sh: btmon's own sources: $(echo "$own" | wc -w) files, $lines lines of C" >&2
