#!/bin/sh
# The fifth real program of bench/analyze: readelf of GNU binutils 2.40,
# from Debian's binutils-source package. A parser of untrusted input
# (ELF headers, DWARF, unwind tables, archives) of 36 k lines of its own
# (readelf.c, dwarf.c, elfcomm.c, unwind-ia64.c) plus the libiberty
# (demanglers) and libsframe code it calls: about 51 k lines in the
# functions linked. Nobody here wrote it; it was first analysed as a
# held-out check (RESULTS.md, round of 2026-12-08).
#
# usage: real-readelf.sh CLANG14 LLVM_LINK14 OUT_DIR
#
# Installs binutils-source with apt-get when missing; unpacks the tree under
# OUT_DIR/binutils (never touches /usr/src); configures it with clang-14
# (no NLS, no libctf, no zstd) and generates the headers readelf needs
# (bfd.h, bfdver.h, each directory's config.h); compiles readelf's own
# files (readelf_SOURCES of binutils/Makefile.am), every libiberty file and
# libsframe's with `clang-14 -g -emit-llvm -c` at -O0 and at -O2, and links
# readelf's files with only the library functions they need into
# OUT_DIR/readelf-L.bc per level. Analyse with
# `--source-root OUT_DIR/binutils/binutils-VERSION`.
set -eu
clang=$1 link=$2 out=$3
me=real-readelf.sh
sh "$(dirname "$0")/install-packages.sh" $me binutils-source
version=$(dpkg-query -W -f='${Version}' binutils-source)
upstream=${version%%-*}
tarball=/usr/src/binutils/binutils-$upstream.tar.xz
[ -f "$tarball" ] || { echo "$me: $tarball missing although binutils-source is installed. Fix: apt-get install --reinstall binutils-source" >&2; exit 1; }
command -v "$clang" >/dev/null 2>&1 || { echo "$me: '$clang' not found. Fix: apt-get install clang-14, or pass its path" >&2; exit 1; }
command -v "$link" >/dev/null 2>&1 || { echo "$me: '$link' not found. Fix: apt-get install llvm-14, or pass its path" >&2; exit 1; }
mkdir -p "$out/binutils"
out=$(cd "$out" && pwd)
src=$out/binutils/binutils-$upstream
obj=$out/binutils/obj
# Unpacked and configured once per package version (the stamp holds it).
if [ "$(cat "$out/binutils/.unpacked" 2>/dev/null)" != "$version" ]; then
  rm -rf "$src" "$obj"
  tar xf "$tarball" -C "$out/binutils"
  mkdir -p "$obj"
  (cd "$obj" && "$src/configure" CC="$clang" --disable-nls --disable-gprofng --disable-gdb --disable-werror \
    --without-zstd --disable-libctf >configure.log 2>&1 &&
    make configure-bfd configure-binutils configure-libiberty configure-libsframe >make.log 2>&1 &&
    make -C bfd bfd.h bfdver.h >>make.log 2>&1) ||
    { echo "$me: configuring binutils failed; see $obj/configure.log and $obj/make.log" >&2; exit 1; }
  echo "$version" > "$out/binutils/.unpacked"
fi

own="readelf version unwind-ia64 dwarf demanguse elfcomm" # readelf_SOURCES, ELFLIBS
liberty=$(make -s --no-print-directory -C "$obj/libiberty" -f Makefile -f - print-objs <<'MAKE' | tr ' ' '\n' | sed -n 's|^\./\(.*\)\.o$|\1|p'
print-objs:
	@echo $(REQUIRED_OFILES) $(EXTRA_OFILES) $(LIBOBJS)
MAKE
)
[ -n "$liberty" ] || { echo "$me: no objects listed by $obj/libiberty/Makefile" >&2; exit 1; }
for level in O0 O2; do
  dir=$out/readelf-$level.d
  rm -rf "$dir"
  mkdir -p "$dir/own" "$dir/lib"
  for f in $own; do
    (cd "$obj/binutils" && "$clang" -g -"$level" -emit-llvm -c -DHAVE_CONFIG_H -I. -I"$src/binutils" -I../bfd \
      -I"$src/bfd" -I"$src/include" -I"$src/zlib" -DLOCALEDIR='"/usr/share/locale"' -Wno-everything \
      -o "$dir/own/$f.bc" "$src/binutils/$f.c")
  done
  # libiberty: the objects its configured Makefile builds (REQUIRED_OFILES,
  # EXTRA_OFILES, LIBOBJS), linked only where readelf needs them
  for b in $liberty; do
    (cd "$obj/libiberty" && "$clang" -g -"$level" -emit-llvm -c -DHAVE_CONFIG_H -I. -I"$src/include" -Wno-everything \
      -o "$dir/lib/liberty-$b.bc" "$src/libiberty/$b.c")
  done
  for f in "$src"/libsframe/sframe*.c; do
    (cd "$obj/libsframe" && "$clang" -g -"$level" -emit-llvm -c -DHAVE_CONFIG_H -I. -I"$src/include" \
      -I"$src/libsframe" -I"$src/libctf" -Wno-everything -o "$dir/lib/$(basename "$f" .c).bc" "$f")
  done
  # shellcheck disable=SC2086 # lists of files
  "$link" -o "$dir/own.bc" "$dir"/own/*.bc && "$link" -o "$dir/lib.bc" "$dir"/lib/*.bc 2>/dev/null &&
    "$link" -o "$out/readelf-$level.bc" "$dir/own.bc" --only-needed "$dir/lib.bc" ||
    { echo "$me: linking readelf-$level.bc failed" >&2; exit 1; }
  echo "$me: $out/readelf-$level.bc"
done
