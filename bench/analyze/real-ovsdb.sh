#!/bin/sh
# A real network daemon for bench/analyze: ovsdb-server of Open vSwitch
# 3.1.0, from Debian's openvswitch-source package. Nobody here wrote it.
# ovsdb-server listens on unix and TCP sockets (punix:, ptcp:), parses
# JSON-RPC from every client into its database (lib/json.c, lib/jsonrpc.c,
# ovsdb/jsonrpc-server.c, ovsdb/execution.c), replicates and joins a Raft
# cluster over the same sockets (ovsdb/raft*.c), writes its log files, reads
# its command line and environment (OVS_RUNDIR, OVS_DBDIR, ...) and runs
# unixctl commands sent to its control socket. Taint has reads from sockets
# and files to follow; uninit and uaf have hash maps, dynamic strings and
# reference-counted JSON trees written the way C daemons are.
#
# usage: real-ovsdb.sh CLANG14 LLVM_LINK14 OUT_DIR
#
# Installs openvswitch-source and the tools its configure needs (python3,
# make, a C toolchain's libtool comes with the tree) with apt-get when
# missing; unpacks /usr/src/openvswitch/openvswitch.tar.gz under
# OUT_DIR/ovs-src (never touches /usr/src); runs configure with
# CC=CLANG14 (no SSL, no libcap-ng, no AF_XDP, no DPDK: the options that pull
# in libraries a plain Debian machine lacks) and `make V=1 ovsdb/ovsdb-server`
# once (after its BUILT_SOURCES: odp-netlink.h, the IDL files), which also
# generates the other sources the build needs (.inc tables) and prints every
# compile command. Then, per level L (O0, O2), it
# recompiles each file those commands name (ovsdb/ovsdb-server.c, the
# libovsdb and libopenvswitch sources) with the same -D/-I/-m flags and
# `-g -L -emit-llvm`, and writes:
#   OUT_DIR/ovsdb-server-L.bc     ovsdb-server.c linked, then only the library
#                                 definitions it needs, transitively (the library
#                                 files linked into one module, then
#                                 llvm-link --only-needed)
#   OUT_DIR/ovsdb-server-L.files  the per-file .bc of the same program, one a
#                                 line (ovsdb-server.c's and each library file
#                                 that defines something the link kept)
# Run `weir analyze` with --source-root OUT_DIR/ovs-src/openvswitch: the
# debug info names files relative to the tree (lib/json.c).
set -eu
clang=$1 link=$2 out=$3
me=real-ovsdb.sh
sh "$(dirname "$0")/install-packages.sh" $me openvswitch-source python3 make
tarball=/usr/src/openvswitch/openvswitch.tar.gz
[ -f "$tarball" ] || { echo "$me: $tarball missing although openvswitch-source is installed. Fix: apt-get install --reinstall openvswitch-source" >&2; exit 1; }
clang=$(command -v "$clang") || { echo "$me: '$1' not found. Fix: apt-get install clang-14, or pass its path" >&2; exit 1; }
command -v "$link" >/dev/null 2>&1 || { echo "$me: '$link' not found. Fix: apt-get install llvm-14, or pass its path" >&2; exit 1; }
nm=$(dirname "$(command -v "$link")")/llvm-nm-14
[ -x "$nm" ] || nm=llvm-nm-14
mkdir -p "$out"
out=$(cd "$out" && pwd)
top=$out/ovs-src
src=$top/openvswitch
version=$(dpkg-query -W -f='${Version}' openvswitch-source)

# Unpacked, configured and built once per package version and clang (the
# stamp). The build runs only so that the generated sources exist and make
# prints its compile commands; its objects are not used.
stamp="$version $("$clang" --version | head -1)"
if [ "$(cat "$top/.built" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$top"
  mkdir -p "$top"
  tar xzf "$tarball" -C "$top"
  [ -x "$src/configure" ] || { echo "$me: $src/configure missing (openvswitch-source changed layout). Fix: check the package version (made for 3.1.0)" >&2; exit 1; }
  echo "$me: configuring Open vSwitch $version with $clang (log: $top/configure.log)" >&2
  if ! (cd "$src" && ./configure CC="$clang" --disable-ssl --disable-libcapng --disable-afxdp \
        --disable-usdt-probes --without-dpdk) >"$top/configure.log" 2>&1; then
    echo "$me: configure failed: $(tail -3 "$top/configure.log"). Fix: see $top/configure.log" >&2; exit 1
  fi
  jobs=$(nproc 2>/dev/null || echo 2)
  # automake makes BUILT_SOURCES (odp-netlink.h, the IDL files) before
  # `all` only; a single target needs them made first.
  # shellcheck disable=SC2016 # $(BUILT_SOURCES) is make's, not the shell's
  built=$(cd "$src" && printf 'weir-built-sources:\n\t@echo $(BUILT_SOURCES)\n' |
          make -s -f Makefile -f - weir-built-sources) ||
    { echo "$me: cannot read BUILT_SOURCES from $src/Makefile. Fix: see $top/configure.log" >&2; exit 1; }
  echo "$me: make -j$jobs V=1 ovsdb/ovsdb-server (log: $top/make.log)" >&2
  # shellcheck disable=SC2086 # a list of targets
  if ! (cd "$src" && make V=1 $built && make -j"$jobs" V=1 ovsdb/ovsdb-server) >"$top/make.log" 2>&1; then
    echo "$me: make ovsdb/ovsdb-server failed: $(tail -3 "$top/make.log"). Fix: see $top/make.log" >&2; exit 1
  fi
  echo "$stamp" > "$top/.built"
fi

# The compile commands of make.log, one "SOURCE FLAGS..." line each: a
# command is a line that runs CLANG14 with -c (libtool prints each of its
# compiles twice, with the same flags; sort -u keeps one; ovsdb-server.c is
# compiled without libtool); the source is the last word naming a .c file (automake writes it either plain
# or as `test -f 'F' || echo './'`F), the flags are its -D, -I and -m words
# (`-I ./lib` is two words). Nothing else of the native build matters to the
# IR: the warning flags do not, and -O2 -g are replaced by each level's.
units=$top/units.txt
awk -v cc="$clang" 'index($0, cc) && / -c / {
    srcf = ""; flags = ""
    for (i = 1; i <= NF; i++) {
      w = $i
      if (w == "-I" && i < NF) { flags = flags " -I" $(i + 1); i++; continue }
      if (w ~ /^-[DIm]/) { flags = flags " " w; continue }
      gsub(/[`'"'"']/, "", w); sub(/^\.\//, "", w)
      if (w ~ /\.c$/) srcf = w
    }
    if (srcf != "") print srcf flags
  }' "$top/make.log" | sort -u > "$units"
grep -q '^ovsdb/ovsdb-server\.c ' "$units" ||
  { echo "$me: make.log has no compile command for ovsdb/ovsdb-server.c. Fix: remove $top and rerun (the build log is incomplete)" >&2; exit 1; }

compile_level() { # LEVEL (O0|O2)
  ir=$out/ovsdb-ir-$1
  rm -rf "$ir"
  mkdir -p "$ir/own" "$ir/lib"
  while read -r f flags; do
    case $f in ovsdb/ovsdb-server.c) dir=own ;; *) dir=lib ;; esac
    echo "$f $ir/$dir/$(echo "$f" | sed 's|[/.]|_|g').bc $flags"
  done < "$units" > "$ir/map.txt"
  # shellcheck disable=SC2016 # $0, $1 and $b belong to the inner shell
  xargs -P 2 -L 1 sh -c '
    f=$0 b=$1; shift 1
    # shellcheck disable=SC2068 # the flags are words
    if ! (cd "'"$src"'" && "'"$clang"'" -g -'"$1"' -emit-llvm -c $@ -Wno-everything "$f" -o "$b") 2>"$b.err"; then
      echo "'"$me"': clang-14 -'"$1"' failed on $f: $(head -3 "$b.err"). Fix: see $b.err" >&2; exit 255
    fi' < "$ir/map.txt"
  "$link" "$ir"/own/*.bc -o "$ir/ovsdb-server-own.bc"
  # The library files as one module first: `--only-needed` with several
  # source modules takes from each only what the program needs at the time
  # that file is linked, so a definition in lib/ovsdb-error.c that a later
  # file (ovsdb/ovsdb.c) needs stayed undefined (2,248 instead of 3,771
  # definitions at -O0). From one module it takes the whole closure.
  "$link" "$ir"/lib/*.bc -o "$ir/libs.bc"
  "$link" "$ir/ovsdb-server-own.bc" --only-needed "$ir/libs.bc" -o "$out/ovsdb-server-$1.bc"
  ls "$ir"/own/*.bc > "$out/ovsdb-server-$1.files"
  # external names only: a static function's name says nothing of its file
  "$nm" --defined-only --extern-only -j "$out/ovsdb-server-$1.bc" 2>/dev/null | sort -u > "$ir/kept.txt"
  for b in "$ir"/lib/*.bc; do
    if "$nm" --defined-only --extern-only -j "$b" 2>/dev/null | grep -qxFf "$ir/kept.txt"; then echo "$b" >> "$out/ovsdb-server-$1.files"; fi
  done
  echo "$me: ovsdb-server -$1: $(wc -l < "$units") files compiled -> $out/ovsdb-server-$1.bc; $(wc -l < "$out/ovsdb-server-$1.files") of them define something it kept ($out/ovsdb-server-$1.files)" >&2
}
for level in O0 O2; do
  lstamp="$stamp $(cksum < "$units")"
  if [ -f "$out/ovsdb-server-$level.bc" ] && [ -f "$out/ovsdb-server-$level.files" ] && [ -f "$out/ovsdb-ir-$level/map.txt" ] &&
     [ "$(cat "$out/ovsdb-server-$level.stamp" 2>/dev/null)" = "$lstamp" ]; then
    echo "$me: $out/ovsdb-server-$level.bc is up to date" >&2
    continue
  fi
  compile_level "$level"
  echo "$lstamp" > "$out/ovsdb-server-$level.stamp"
done
# The lines of C of the files that define something ovsdb-server kept.
lines=$(awk 'NR == FNR { keep[$1] = 1; next } ($2 in keep) { print $1 }' \
          "$out/ovsdb-server-O0.files" "$out/ovsdb-ir-O0/map.txt" | (cd "$src" && xargs cat) | wc -l)
echo "$me: ovsdb-server: $(wc -l < "$out/ovsdb-server-O0.files") source files with definitions it uses, $lines lines of C" >&2
