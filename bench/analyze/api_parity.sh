#!/bin/sh
# Parity of a built-in analysis before and after a change (issue 25: the
# built-ins rewritten on the public analysis API): runs OLD and NEW on every
# tests/llvm/programs/* at -O0 and -O2 (with the program's .cfg when it has
# one) and on the real programs given, and compares what each wrote:
#   - the findings on stdout and the SARIF file, byte for byte (`cmp`);
#   - the IFDS problem of --emit-ifds (nodes, facts, flows, legend), by hash;
#   - the summary line on stderr (functions, nodes, bypassed nodes, facts
#     before and after pruning, path edges, findings) with every time
#     ("0.123 s") taken out: the only field that is meant to differ.
# Prints one line per run (same / DIFFERENT with what) and exits 1 when
# anything differs, 0 when all are the same.
#
# usage: api_parity.sh OLD NEW ANALYSIS WORK [REAL.bc:SOURCE_ROOT ...]
#   OLD, NEW   commands that run weir-analyze, e.g. "/tmp/old/weir-analyze"
#              and "build/weir-analyze" (word-split: "env X=1 build/weir-analyze")
#   ANALYSIS   taint, uninit or uaf
#   WORK       a directory for the compiled programs and the outputs (kept)
# example (from the repository root, the old binary built from main):
#   sh bench/analyze/api_parity.sh /tmp/main-build/weir-analyze build/weir-analyze taint /tmp/parity \
#     /work/real/btmon-O2.bc:/work/real/src
set -u
old=$1 new=$2 analysis=$3 work=$4
shift 4
here=$(cd "$(dirname "$0")/../.." && pwd)
programs=$here/tests/llvm/programs
clang=${CLANG:-clang-14}
mkdir -p "$work/bc" "$work/out"
failed=0

# one program's modules at one level: the .bc paths on stdout
compile() { # NAME LEVEL
  name=$1 level=$2 list=""
  if [ -d "$programs/$name" ]; then files=$(ls "$programs/$name"/*.c); else files=$programs/$name.c; fi
  for src in $files; do
    stem=$(basename "$src" .c)
    bc=$work/bc/$name.$stem.O$level.bc
    [ "$bc" -nt "$src" ] || "$clang" -g -O"$level" -w -emit-llvm -c "$src" -o "$bc" || return 1
    list="$list $bc"
  done
  echo "$list"
}

# runs one command: TAG CMD MODULES... into $work/out/TAG.{stdout,summary,sarif,ifds}
run_one() { # TAG CMD CONFIG ROOT MODULES...
  out=$work/out/$1 cmd=$2 cfg=$3 src_root=$4
  shift 4
  if [ -n "$cfg" ]; then set -- --config "$cfg" "$@"; fi
  # shellcheck disable=SC2086
  $cmd --analysis "$analysis" --source-root "$src_root" --sarif "$out.sarif" --emit-ifds "$out.ifds" "$@" \
    >"$out.stdout" 2>"$out.stderr"
  echo "exit $?" >>"$out.stdout"
  grep '^weir analyze: .* path edges' "$out.stderr" | sed -e 's/[0-9][0-9]*\.[0-9][0-9]* s/_ s/g' >"$out.summary"
  sha256sum <"$out.ifds" | cut -d' ' -f1 >"$out.ifds.sha"
  rm -f "$out.ifds"
}

compare() { # TAG CONFIG ROOT MODULES...
  tag=$1 config=$2 root=$3
  shift 3
  run_one "$tag.old" "$old" "$config" "$root" "$@"
  run_one "$tag.new" "$new" "$config" "$root" "$@"
  what=""
  for part in stdout sarif ifds.sha summary; do
    cmp -s "$work/out/$tag.old.$part" "$work/out/$tag.new.$part" || what="$what $part"
  done
  edges=$(sed -n 's/.* \([0-9][0-9]*\) path edges.*/\1/p' "$work/out/$tag.new.summary")
  findings=$(grep -c ': warning: \|: error: \|: note: ' "$work/out/$tag.new.stdout")
  if [ -z "$what" ]; then
    echo "same       $tag ($findings findings, ${edges:-?} path edges)"
  else
    echo "DIFFERENT  $tag:$what (see $work/out/$tag.old.* and .new.*)"
    failed=1
  fi
}

for entry in "$programs"/*; do
  case $entry in *.c) ;; *) [ -d "$entry" ] || continue ;; esac
  name=$(basename "$entry" .c)
  config=""
  [ -f "$programs/$name.cfg" ] && config=$programs/$name.cfg
  for level in 0 2; do
    modules=$(compile "$name" "$level") || { echo "DIFFERENT  $name -O$level: does not compile"; failed=1; continue; }
    # shellcheck disable=SC2086
    compare "$name.O$level" "$config" "$programs" $modules
  done
done

for real in "$@"; do
  bc=${real%%:*} root=${real#*:}
  compare "$(basename "$bc" .bc)" "" "$root" "$bc"
done
exit $failed
