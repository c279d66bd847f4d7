#!/bin/sh
# The third real program of bench/analyze: ocamlrun, the bytecode
# interpreter of OCaml 4.13.1, from Debian's ocaml-source package. It is an
# interpreter of about 30 k lines of C (1,100 functions: the bytecode loop,
# a generational garbage collector, a heap of tagged blocks, I/O channels,
# marshalling of untrusted byte strings), the size and shape of Lua, which
# Debian does not ship as source. Nobody here wrote it.
#
# usage: real-ocamlrun.sh CLANG14 LLVM_LINK14 OUT_DIR
#
# Installs ocaml-source with apt-get when missing; unpacks the tree under
# OUT_DIR/ocaml-src (never touches /usr/src; real-program.sh owns OUT_DIR/src); runs OCaml's configure (bytecode
# only) and generates the runtime's headers; compiles the sources of
# ocamlrun (BYTECODE_C_SOURCES of runtime/Makefile, prims.c included) with
# `clang-14 -g -emit-llvm -c` at -O0 and at -O2 with the flags OCaml's
# build uses, and writes OUT_DIR/ocamlrun-L.bc (the files linked) per level.
set -eu
clang=$1 link=$2 out=$3
sh "$(dirname "$0")/install-packages.sh" real-ocamlrun.sh ocaml-source
version=$(dpkg-query -W -f='${Version}' ocaml-source)
upstream=${version%%-*}
tarball=/usr/src/ocaml-source-$upstream.tar
[ -f "$tarball" ] || { echo "real-ocamlrun.sh: $tarball missing although ocaml-source is installed. Fix: apt-get install --reinstall ocaml-source" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$out/ocaml-src/ocaml-$upstream
# Unpacked and configured once per package version (the stamp holds it).
if [ "$(cat "$out/ocaml-src/.unpacked" 2>/dev/null)" != "$version" ]; then
  rm -rf "$src"
  mkdir -p "$out/ocaml-src"
  tar xf "$tarball" -C "$out/ocaml-src" "ocaml-$upstream/ocaml_$upstream.orig.tar.gz"
  tar xzf "$out/ocaml-src/ocaml-$upstream/ocaml_$upstream.orig.tar.gz" -C "$out/ocaml-src"
  rm -f "$out/ocaml-src/ocaml-$upstream/ocaml_$upstream.orig.tar.gz"
  [ -d "$src/runtime" ] || { echo "real-ocamlrun.sh: $src/runtime missing after unpacking (ocaml-source changed layout)" >&2; exit 1; }
  (cd "$src" && CC=$clang ./configure --disable-native-compiler --disable-ocamldoc --disable-ocamltest \
    --disable-debugger >"$out/ocaml-src/configure.log" 2>&1) ||
    { echo "real-ocamlrun.sh: OCaml's configure failed; see $out/ocaml-src/configure.log" >&2; exit 1; }
  make -C "$src/runtime" prims.c caml/version.h caml/opnames.h caml/jumptbl.h build_config.h \
    >"$out/ocaml-src/make.log" 2>&1 ||
    { echo "real-ocamlrun.sh: generating the runtime's headers failed; see $out/ocaml-src/make.log" >&2; exit 1; }
  echo "$version" > "$out/ocaml-src/.unpacked"
fi

# BYTECODE_C_SOURCES of runtime/Makefile, expanded by make itself.
files=$(make -s -C "$src/runtime" --no-print-directory -f Makefile -f - print-sources <<'EOF'
print-sources:
	@echo $(BYTECODE_C_SOURCES)
EOF
)
[ -n "$files" ] || { echo "real-ocamlrun.sh: no BYTECODE_C_SOURCES in $src/runtime/Makefile" >&2; exit 1; }
case " $files " in *" prims.c "*) ;; *) files="$files prims.c" ;; esac

for level in O0 O2; do
  dir=$out/ocamlrun-$level.d
  mkdir -p "$dir"
  bcs=
  for f in $files; do
    b=$dir/$(basename "$f" .c).bc
    (cd "$src/runtime" && "$clang" -g -"$level" -emit-llvm -c -fno-strict-aliasing -fwrapv -pthread \
      -D_FILE_OFFSET_BITS=64 -DCAML_NAME_SPACE -DCAMLDLLIMPORT= -I. -Wno-everything -o "$b" "$f")
    bcs="$bcs $b"
  done
  # shellcheck disable=SC2086 # a list of files
  "$link" -o "$out/ocamlrun-$level.bc" $bcs
  echo "real-ocamlrun.sh: $out/ocamlrun-$level.bc ($(echo $files | wc -w) files, $(cd "$src/runtime" && cat $files | wc -l) lines)"
done
