#!/bin/sh
# Sanity check of `weir analyze const` against clang -O2 (docs/const.md,
# "Compared with clang -O2"): for each constant const reports in a program
# compiled at -O0, is a compare or switch left on that source line in the
# same program compiled by clang-14 -O2? None left: clang folded it too
# (agree). One left: clang kept a test that const proves constant (listed;
# check it by hand). Prints; never fails on a difference.
# usage: bench/analyze/const_vs_clang.sh BUILD_DIR FILE.c...
set -eu
build=$1; shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for src in "$@"; do
  name=$(basename "$src" .c)
  clang-14 -g -O0 -w -emit-llvm -c "$src" -o "$work/$name.O0.bc"
  clang-14 -g -O2 -w -S -emit-llvm "$src" -o "$work/$name.O2.ll"
  "$build/weir-analyze" const "$work/$name.O0.bc" --quiet --emit-values "$work/$name.json" > /dev/null
  python3 - "$work/$name.json" "$work/$name.O2.ll" "$name" <<'PY'
import json, re, sys
values = json.load(open(sys.argv[1]))["values"]
ir = open(sys.argv[2]).read()
lines = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(![0-9]+) = !DILocation\(line: ([0-9]+)", ir, re.M)}
kept = set()
for m in re.finditer(r"= (icmp [^\n]*|switch [^\n]*)!dbg (![0-9]+)", ir):
    kept.add(lines.get(m.group(2)))
agree = more = 0
for v in values:
    if v["use"] == "argument":
        continue
    if v["line"] in kept:
        more += 1
        print(f"  {sys.argv[3]}: {v['function']}:{v['line']} '{v['name']}' = {v['value']}: clang -O2 keeps a test on that line")
    else:
        agree += 1
print(f"{sys.argv[3]}: {agree} constant test(s) clang -O2 also folded, {more} it kept")
PY
done
