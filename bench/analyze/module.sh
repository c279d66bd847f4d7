#!/bin/sh
# Compiles weir's own C sources (the list CMake generated: libweir and the
# weir command) to LLVM IR and links them into one module.
# usage: module.sh CLANG14 LLVM_LINK14 SOURCES_TXT SOURCE_ROOT IR_DIR OUT.bc
set -eu
clang=$1 link=$2 list=$3 root=$4 ir=$5 out=$6
mkdir -p "$ir"
rm -f "$ir"/*.bc
field() { sed -n "s/^$1://p" "$list" | tr ';' '\n' | sed '/^$/d'; }
flags() { # -I and -D flags of a target (weir or cli)
  field "$1-includes" | grep -v '^/usr/include$' | while read -r d; do printf ' -I%s' "$d"; done
  field "$1-defines" | while read -r d; do printf ' -D%s' "$d"; done
}
compiled=0 skipped=0
compile() { # target source-list-field base-dir
  f=$(flags "$1")
  for src in $(field "$2"); do
    case $src in *.c) ;; *) continue ;; esac
    case $src in /*) ;; *) src=$3/$src ;; esac
    # Generated blobs (SPIR-V, fatbins) are data, not code worth analysing.
    case $src in *_blobs.c|*_fatbin.c) continue ;; esac
    name=$(echo "$src" | sed "s|^$root/||; s|[/.]|_|g")
    # shellcheck disable=SC2086
    if "$clang" -g -O0 -emit-llvm -c -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $f \
         "$src" -o "$ir/$name.bc" 2>"$ir/$name.err"; then
      compiled=$((compiled + 1))
    else
      skipped=$((skipped + 1))
      echo "module.sh: skipped $src (clang-14 failed: $(head -1 "$ir/$name.err"))" >&2
    fi
  done
}
compile weir weir-sources "$root"
compile cli cli-sources "$root/tools"
"$link" "$ir"/*.bc -o "$out"
lines=$(cat $(field weir-sources | grep '\.c$'; field cli-sources | grep '\.c$' | sed "s|^\([^/]\)|$root/tools/\1|") 2>/dev/null | wc -l)
echo "module.sh: $compiled files compiled ($skipped skipped, about $lines lines of C) -> $out"
