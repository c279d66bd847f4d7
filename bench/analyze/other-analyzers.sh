#!/bin/sh
# Runs three other static analyzers on the C files of a real program of
# bench/analyze, with the flags the program was compiled with, and keeps the
# warnings of the classes weir covers (uninit, uaf, taint), so that
# COMPARISON-btmon.md and COMPARISON-ovsdb.md can set them against weir's
# findings.
#
# usage: other-analyzers.sh SRC_DIR FILES_LIST OUT_DIR [MAP_TXT]
#   SRC_DIR     the configured tree (config.h in it), e.g.
#               /work/real/src/bluez-source
#   FILES_LIST  the per-file .bc list of the program, one a line
#               (btmon-O0.files of real-program.sh, ovsdb-server-O0.files
#               of real-ovsdb.sh)
#   OUT_DIR     written: TOOL/*.txt (raw output per file), TOOL.times
#               (file, seconds, exit status), TOOL.wall (seconds for all),
#               TOOL-findings.txt (file:line:col: CLASS: message [checker],
#               paths relative to SRC_DIR), summary.txt (counts),
#               files.flags (SOURCE FLAGS... per file, as run)
#   MAP_TXT     optional (real-ovsdb.sh's OUT_DIR/ovsdb-ir-O0/map.txt):
#               lines `SOURCE BCPATH FLAGS...`, SOURCE relative to SRC_DIR.
#               Each FILES_LIST line is looked up as a BCPATH there and the
#               file is run with that line's own FLAGS.
#               Without it (btmon of real-program.sh) each
#               monitor_packet_c.bc names SRC_DIR/monitor/packet.c and every
#               file gets -DHAVE_CONFIG_H -I. -I./lib and glib's cflags;
#               a list with a map.txt beside its .bc files (or one folder
#               up) is refused, with the command that passes it.
#
# A tool that fails on every file (rc neither 0 nor 124: wrong flags) gets a
# line in summary.txt and on stderr with its first error.
#
# Tools: clang-14 --analyze (CLANG_TIMEOUT s a file, default 120), gcc-12
# -fanalyzer (GCC_TIMEOUT s a file, default 180), cppcheck --enable=warning
# --inconclusive (all files, one run per distinct flag set; only its -D, -U
# and -I words). A tool that is not installed is skipped with a line
# saying so. TOOLS (default "clang gcc cppcheck") picks which run.
# Set JOBS (default 1) to run that many files of one tool at once; the
# times are then wall times of the parallel run.
set -eu
me=other-analyzers.sh
usage="usage: $me SRC_DIR FILES_LIST OUT_DIR [MAP_TXT]"
[ $# -eq 3 ] || [ $# -eq 4 ] || { echo "$usage" >&2; exit 2; }
src=$1 list=$2 out=$3 map=${4-}
jobs=${JOBS:-1}
tools=${TOOLS:-clang gcc cppcheck}
clang_limit=${CLANG_TIMEOUT:-120} gcc_limit=${GCC_TIMEOUT:-180}
for v in "JOBS=$jobs" "CLANG_TIMEOUT=$clang_limit" "GCC_TIMEOUT=$gcc_limit"; do
  case ${v#*=} in
    ''|*[!0-9]*|0) echo "$me: $v is not a positive whole number. Fix: set ${v%%=*} to a whole number above 0 (files at once for JOBS, seconds a file for the timeouts), or unset it for the default" >&2; exit 2 ;;
  esac
done
for t in $tools; do
  case $t in clang|gcc|cppcheck) ;;
    *) echo "$me: TOOLS names '$t'. Fix: use only clang, gcc and cppcheck, e.g. TOOLS='clang cppcheck'" >&2; exit 2 ;;
  esac
done
want() { case " $tools " in *" $1 "*) return 0 ;; esac; return 1; }
if [ -n "$map" ]; then
  fix_tree="pass the tree real-ovsdb.sh configured (OUT_DIR/ovs-src/openvswitch)"
  fix_list="run real-ovsdb.sh first, it writes ovsdb-server-O0.files"
  maker=real-ovsdb.sh
else
  fix_tree="pass the configured tree real-program.sh unpacked (OUT_DIR/src/bluez-source)"
  fix_list="run real-program.sh first, it writes btmon-O0.files"
  maker=real-program.sh
fi
[ -f "$src/config.h" ] || { echo "$me: $src/config.h missing. Fix: $fix_tree" >&2; exit 1; }
[ -f "$list" ] || { echo "$me: no file list $list. Fix: $fix_list" >&2; exit 1; }
[ -s "$list" ] || { echo "$me: file list $list is empty. Fix: $fix_list" >&2; exit 1; }
if [ -n "$map" ]; then
  [ -f "$map" ] || { echo "$me: no map $map. Fix: pass the map.txt real-ovsdb.sh writes (OUT_DIR/ovsdb-ir-O0/map.txt), or leave the fourth argument out for btmon" >&2; exit 1; }
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
# files.flags: one line `SOURCE FLAGS...` per file of FILES_LIST.
if [ -n "$map" ]; then
  # Remember each BCPATH's SOURCE and FLAGS, then print the list's files.
  awk -v list="$list" '
    FILENAME != list { if (NF >= 2) { b = $2; s = $1; $1 = ""; $2 = ""; f = $0; sub(/^ +/, "", f); srcof[b] = s; flagsof[b] = f }; next }
    NF { if (!($1 in srcof)) { print "MISSING " $1; next }
         print srcof[$1] " " flagsof[$1] }' "$map" "$list" > "$out/files.flags"
  if grep -q '^MISSING ' "$out/files.flags"; then
    echo "$me: $(grep -c '^MISSING ' "$out/files.flags") file(s) of $list not in $map, e.g. $(sed -n 's/^MISSING //p' "$out/files.flags" | head -1). Fix: pass the map.txt of the same real-ovsdb.sh run as the list (same level's ovsdb-ir-*/map.txt)" >&2
    exit 1
  fi
else
  # real-ovsdb.sh's lists come with a map.txt (their names have '_' that
  # are not '/'): refuse to guess their sources and flags.
  first=$(sed -n '/./{p;q;}' "$list")
  for m in "$(dirname "$first")/map.txt" "$(dirname "$(dirname "$first")")/map.txt"; do
    [ -f "$m" ] && { echo "$me: $list comes with $m (per-file sources and flags). Fix: pass it as the fourth argument: $me $src $list $out $m" >&2; exit 2; }
  done
  glib=$(pkg-config --cflags glib-2.0 2>/dev/null || echo "-I/usr/include/glib-2.0 -I/usr/lib/x86_64-linux-gnu/glib-2.0/include")
  flags="-DHAVE_CONFIG_H -I. -I./lib $glib"
  # monitor_packet_c.bc -> monitor/packet.c (no BlueZ source name has '_').
  sed 's|.*/||; s|_c\.bc$|.c|; s|_|/|g' "$list" | sed "s|\$| $flags|" > "$out/files.flags"
fi
files=$(cut -d' ' -f1 "$out/files.flags")
for f in $files; do
  [ -f "$src/$f" ] || { echo "$me: $src/$f (from $list) missing. Fix: the list, the tree${map:+ and the map} must come from the same $maker run" >&2; exit 1; }
done
now() { date +%s.%N; }

# run_per_file TOOL TIMEOUT CMD...: CMD FLAGS FILE for each file, from
# SRC_DIR, FLAGS that file's words of files.flags.
run_per_file() {
  tool=$1 limit=$2; shift 2
  rm -rf "${out:?}/$tool"; mkdir -p "$out/$tool"
  t0=$(now)
  for f in $files; do echo "$f"; done | (cd "$src" && xargs -P "$jobs" -I{} sh -c '
      f=$1 tool=$2 limit=$3 out=$4; shift 4
      fl=$(awk -v f="$f" '"'"'$1 == f { $1 = ""; print; exit }'"'"' "$out/files.flags")
      log=$out/$tool/$(echo "$f" | tr / _).txt
      s=$(date +%s.%N); rc=0
      # shellcheck disable=SC2086 # $fl is a list of flags
      timeout "$limit" "$@" $fl "$f" > "$log" 2>&1 || rc=$?
      echo "$f $(echo "$(date +%s.%N) - $s" | bc) $rc" >> "$out/$tool.times"' _ {} "$tool" "$limit" "$out" "$@")
  echo "$(now) - $t0" | bc > "$out/$tool.wall"
  if ! awk '$3 == 0 || $3 == 124 { ok = 1 } END { exit !ok }' "$out/$tool.times"; then
    echo "$me: $tool failed on every file (first error: $(grep -h -m1 -E 'error' "$out/$tool"/*.txt | head -1 | cut -c1-200)). Fix: check the flags in $out/files.flags (pass MAP_TXT for a program built with per-file flags)" | tee -a "$out/summary.txt" >&2
  fi
}

: > "$out/summary.txt"
if ! want clang; then :
elif command -v clang-14 >/dev/null; then
  rm -f "$out/clang.times" "$out/clang-findings.txt"
  run_per_file clang "$clang_limit" clang-14 --analyze -Xclang -analyzer-output=text -o /dev/null
  # uninit: core.uninitialized.*, CallAndMessage's uninitialized arguments
  # and values, NullDereference's "(a) dereference of (an) undefined pointer
  # value" (a load through a pointer never written), any core checker's
  # "garbage value" (UndefinedBinaryOperatorResult's "The left operand of
  # '!=' is a garbage value", VLASize's garbage size); uaf: unix.Malloc's use
  # after free, double free.
  cat "$out"/clang/*.txt | grep -E ': warning: .*\[[a-zA-Z.]+\]$' | sed -E '
    /\[core\.uninitialized\.[A-Za-z]+\]$/ s/: warning: /: uninit: /
    /[Uu]ninitiali[sz]ed.*\[core\.CallAndMessage\]$/ s/: warning: /: uninit: /
    /[Dd]ereference of (an )?undefined pointer value.*\[core\.NullDereference\]$/ s/: warning: /: uninit: /
    /garbage value.*\[core\.[A-Za-z]+\]$/ s/: warning: /: uninit: /
    /(after it is freed|released memory|[Aa]ttempt to free released).*\[unix\.Malloc\]$/ s/: warning: /: uaf: /' |
    grep -E ': (uninit|uaf): ' | sort -u > "$out/clang-findings.txt" || true
else
  echo "$me: clang-14 not installed, clang's analyzer skipped" | tee -a "$out/summary.txt" >&2
fi

gcc=gcc-12
command -v "$gcc" >/dev/null || gcc=gcc
if ! want gcc; then :
elif command -v "$gcc" >/dev/null && "$gcc" -fanalyzer -x c -c -o /dev/null /dev/null 2>/dev/null; then
  rm -f "$out/gcc.times" "$out/gcc-findings.txt"
  run_per_file gcc "$gcc_limit" "$gcc" -fanalyzer -c -o /dev/null
  cat "$out"/gcc/*.txt | grep -E ': warning: .*\[-Wanalyzer-' | sed -E '
    /\[-Wanalyzer-use-of-uninitialized-value\]$/ s/: warning: /: uninit: /
    /\[-Wanalyzer-(use-after-free|double-free)\]$/ s/: warning: /: uaf: /
    /\[-Wanalyzer-tainted-[a-z-]+\]$/ s/: warning: /: taint: /' |
    grep -E ': (uninit|uaf|taint): ' | sort -u > "$out/gcc-findings.txt" || true
else
  echo "$me: gcc with -fanalyzer (gcc 10 or later) not installed, gcc -fanalyzer skipped" | tee -a "$out/summary.txt" >&2
fi

if ! want cppcheck; then :
elif command -v cppcheck >/dev/null; then
  rm -f "$out/cppcheck-findings.txt"
  : > "$out/cppcheck.log"; : > "$out/cppcheck.txt"
  t0=$(now)
  # One run per distinct flag set (one for btmon, one for ovsdb) over its
  # files (cppcheck shares its header cache); -j as JOBS. Only the -D, -U
  # and -I words are passed to cppcheck (it takes no -m word).
  awk '{ $1 = ""; sub(/^ /, ""); print }' "$out/files.flags" | sort -u > "$out/cppcheck.sets"
  while IFS= read -r set; do
    group=$(awk -v set="$set" '{ f = $1; $1 = ""; sub(/^ /, "") } $0 == set { print f }' "$out/files.flags")
    cflags=$(for w in $set; do case $w in -D*|-U*|-I*) printf '%s ' "$w" ;; esac; done)
    # shellcheck disable=SC2086 # $cflags and $group are lists
    (cd "$src" && cppcheck --enable=warning --inconclusive -j "$jobs" $cflags \
       --template='{file}:{line}:{column}: {severity}: {message} [{id}]' $group) \
       >> "$out/cppcheck.log" 2>> "$out/cppcheck.txt" || true
  done < "$out/cppcheck.sets"
  echo "$(now) - $t0" | bc > "$out/cppcheck.wall"
  sed -E '
    /\[(uninitvar|legacyUninitvar|uninitStructMember|uninitdata|uninitMemberVar)\]$/ s/: (error|warning): /: uninit: /
    /\[(deallocuse|doubleFree|deallocret)\]$/ s/: (error|warning): /: uaf: /' "$out/cppcheck.txt" |
    grep -E ': (uninit|uaf): ' | sort -u > "$out/cppcheck-findings.txt" || true
else
  echo "$me: cppcheck not installed, cppcheck skipped" | tee -a "$out/summary.txt" >&2
fi

for t in clang gcc cppcheck; do
  if ! want "$t" || [ ! -f "$out/$t-findings.txt" ]; then continue; fi
  for c in uninit uaf taint; do
    echo "$t $c $(grep -c ": $c: " "$out/$t-findings.txt" || true)"
  done
  echo "$t wall_s $(cat "$out/$t.wall")"
  [ -f "$out/$t.times" ] && echo "$t timeouts $(awk '$3 == 124' "$out/$t.times" | wc -l) failures $(awk '$3 != 0 && $3 != 124' "$out/$t.times" | wc -l)"
done | tee -a "$out/summary.txt"
