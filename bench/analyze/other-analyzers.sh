#!/bin/sh
# Runs three other static analyzers on the C files of a real program of
# bench/analyze, with the flags real-program.sh compiles them with, and
# keeps the warnings of the classes weir covers (uninit, uaf, taint), so
# that COMPARISON-btmon.md can set them against weir's findings.
#
# usage: other-analyzers.sh SRC_DIR FILES_LIST OUT_DIR
#   SRC_DIR     the configured tree (config.h in it), e.g.
#               /work/real/src/bluez-source
#   FILES_LIST  the per-file .bc list real-program.sh writes (btmon-O0.files);
#               each monitor_packet_c.bc names SRC_DIR/monitor/packet.c
#   OUT_DIR     written: TOOL/*.txt (raw output per file), TOOL.times
#               (file, seconds, exit status), TOOL.wall (seconds for all),
#               TOOL-findings.txt (file:line:col: CLASS: message [checker],
#               paths relative to SRC_DIR), summary.txt (counts)
#
# Tools: clang-14 --analyze (120 s a file), gcc-12 -fanalyzer (180 s a
# file), cppcheck --enable=warning --inconclusive (all files, one run).
# A tool that is not installed is skipped with a line saying so.
# Set JOBS (default 1) to run that many files of one tool at once; the
# times are then wall times of the parallel run.
set -eu
[ $# -eq 3 ] || { echo "usage: other-analyzers.sh SRC_DIR FILES_LIST OUT_DIR" >&2; exit 2; }
src=$1 list=$2 out=$3
jobs=${JOBS:-1}
[ -f "$src/config.h" ] || { echo "other-analyzers.sh: $src/config.h missing. Fix: pass the configured tree real-program.sh unpacked (OUT_DIR/src/bluez-source)" >&2; exit 1; }
[ -f "$list" ] || { echo "other-analyzers.sh: no file list $list. Fix: run real-program.sh first, it writes btmon-O0.files" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
# monitor_packet_c.bc -> monitor/packet.c (no BlueZ source name has '_').
files=$(sed 's|.*/||; s|_c\.bc$|.c|; s|_|/|g' "$list")
for f in $files; do
  [ -f "$src/$f" ] || { echo "other-analyzers.sh: $src/$f (from $list) missing. Fix: the list and the tree must come from the same real-program.sh run" >&2; exit 1; }
done
glib=$(pkg-config --cflags glib-2.0 2>/dev/null || echo "-I/usr/include/glib-2.0 -I/usr/lib/x86_64-linux-gnu/glib-2.0/include")
flags="-DHAVE_CONFIG_H -I. -I./lib $glib"
now() { date +%s.%N; }

# run_per_file TOOL TIMEOUT CMD...: CMD FILE for each file, from SRC_DIR.
run_per_file() {
  tool=$1 limit=$2; shift 2
  rm -rf "${out:?}/$tool"; mkdir -p "$out/$tool"
  t0=$(now)
  for f in $files; do echo "$f"; done | (cd "$src" && xargs -P "$jobs" -I{} sh -c '
      f=$1 tool=$2 limit=$3 out=$4; shift 4
      log=$out/$tool/$(echo "$f" | tr / _).txt
      s=$(date +%s.%N); rc=0
      timeout "$limit" "$@" "$f" > "$log" 2>&1 || rc=$?
      echo "$f $(echo "$(date +%s.%N) - $s" | bc) $rc" >> "$out/$tool.times"' _ {} "$tool" "$limit" "$out" "$@")
  echo "$(now) - $t0" | bc > "$out/$tool.wall"
}

: > "$out/summary.txt"
# shellcheck disable=SC2086 # $flags is a list of flags
if command -v clang-14 >/dev/null; then
  rm -f "$out/clang.times"
  run_per_file clang 120 clang-14 --analyze -Xclang -analyzer-output=text -o /dev/null $flags
  # uninit: core.uninitialized.*, CallAndMessage's uninitialized arguments
  # and values, NullDereference's "undefined pointer value" (a load through
  # a pointer never written); uaf: unix.Malloc's use after free, double free.
  cat "$out"/clang/*.txt | grep -E ': warning: .*\[[a-zA-Z.]+\]$' | sed -E '
    /\[core\.uninitialized\.[A-Za-z]+\]$/ s/: warning: /: uninit: /
    /[Uu]ninitiali[sz]ed.*\[core\.CallAndMessage\]$/ s/: warning: /: uninit: /
    /[Dd]ereference of undefined pointer value.*\[core\.NullDereference\]$/ s/: warning: /: uninit: /
    /(after it is freed|released memory|[Aa]ttempt to free released).*\[unix\.Malloc\]$/ s/: warning: /: uaf: /' |
    grep -E ': (uninit|uaf): ' | sort -u > "$out/clang-findings.txt" || true
else
  echo "other-analyzers.sh: clang-14 not installed, clang's analyzer skipped" | tee -a "$out/summary.txt" >&2
fi

gcc=gcc-12
command -v "$gcc" >/dev/null || gcc=gcc
if command -v "$gcc" >/dev/null && "$gcc" -fanalyzer -x c -c -o /dev/null /dev/null 2>/dev/null; then
  rm -f "$out/gcc.times"
  run_per_file gcc 180 "$gcc" -fanalyzer -c -o /dev/null $flags
  cat "$out"/gcc/*.txt | grep -E ': warning: .*\[-Wanalyzer-' | sed -E '
    /\[-Wanalyzer-use-of-uninitialized-value\]$/ s/: warning: /: uninit: /
    /\[-Wanalyzer-(use-after-free|double-free)\]$/ s/: warning: /: uaf: /
    /\[-Wanalyzer-tainted-[a-z-]+\]$/ s/: warning: /: taint: /' |
    grep -E ': (uninit|uaf|taint): ' | sort -u > "$out/gcc-findings.txt" || true
else
  echo "other-analyzers.sh: gcc with -fanalyzer (gcc 10 or later) not installed, gcc -fanalyzer skipped" | tee -a "$out/summary.txt" >&2
fi

if command -v cppcheck >/dev/null; then
  t0=$(now)
  # One run over all files (cppcheck shares its header cache); -j as JOBS.
  # shellcheck disable=SC2086
  (cd "$src" && cppcheck --enable=warning --inconclusive -j "$jobs" $flags \
     --template='{file}:{line}:{column}: {severity}: {message} [{id}]' $files) \
     > "$out/cppcheck.log" 2> "$out/cppcheck.txt" || true
  echo "$(now) - $t0" | bc > "$out/cppcheck.wall"
  sed -E '
    /\[(uninitvar|uninitStructMember|uninitdata|uninitMemberVar)\]$/ s/: (error|warning): /: uninit: /
    /\[(deallocuse|doubleFree|deallocret)\]$/ s/: (error|warning): /: uaf: /' "$out/cppcheck.txt" |
    grep -E ': (uninit|uaf): ' | sort -u > "$out/cppcheck-findings.txt" || true
else
  echo "other-analyzers.sh: cppcheck not installed, cppcheck skipped" | tee -a "$out/summary.txt" >&2
fi

for t in clang gcc cppcheck; do
  [ -f "$out/$t-findings.txt" ] || continue
  for c in uninit uaf taint; do
    echo "$t $c $(grep -c ": $c: " "$out/$t-findings.txt" || true)"
  done
  echo "$t wall_s $(cat "$out/$t.wall")"
  [ -f "$out/$t.times" ] && echo "$t timeouts $(awk '$3 == 124' "$out/$t.times" | wc -l) failures $(awk '$3 != 0 && $3 != 124' "$out/$t.times" | wc -l)"
done | tee -a "$out/summary.txt"
