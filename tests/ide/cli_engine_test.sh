#!/bin/sh
# weir ide with the resident engine: byte-identical results to the reference
# (examples and generated problems of both families), --stats JSON, and the
# usage errors (exit 2). Usage: cli_engine_test.sh WEIR EXAMPLES_DIR WORK_DIR
set -e
weir=$1 examples=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
backends=cpu
if "$weir" info 2>/dev/null | grep -q '^vulkan.*available'; then backends="cpu vulkan"; fi
"$weir" gen realistic --procs 40 --seed 3 --ide linear -o "$work/lin.ide"
"$weir" gen recursive --procs 30 --seed 5 --ide typestate --states 6 -o "$work/ts.ide"
for f in "$examples/lcp.ide" "$examples/files.ide" "$work/lin.ide" "$work/ts.ide"; do
  "$weir" ide "$f" -o "$work/ref.txt" 2>/dev/null
  for b in $backends; do
    "$weir" ide "$f" --backend "$b" -o "$work/engine.txt" 2>"$work/err.txt"
    cmp "$work/ref.txt" "$work/engine.txt"
    grep -q "(engine on $b; [0-9]* rules" "$work/err.txt"
  done
  "$weir" ide "$f" --engine --backend cpu > "$work/engine2.txt" 2>/dev/null
  cmp "$work/ref.txt" "$work/engine2.txt"
done
"$weir" ide "$work/lin.ide" --solver engine --backend cpu --stats "$work/s.json" -o "$work/r.txt" 2>/dev/null
grep -q '"solver": "engine", "backend": "cpu"' "$work/s.json"
grep -q '"rules": [1-9]' "$work/s.json"
grep -q '"windows": [1-9]' "$work/s.json"
# usage errors: exit 2 with a Fix
for args in "--solver magic" "--solver reference --backend cpu" "--backend cpu,cpu:1"; do
  rc=0
  "$weir" ide "$examples/lcp.ide" $args >/dev/null 2>"$work/err.txt" || rc=$?
  test "$rc" -eq 2
  grep -q 'Fix:' "$work/err.txt"
done
echo ok
