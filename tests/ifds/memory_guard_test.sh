#!/bin/sh
# The reference solver's memory guard: a problem whose path-edge set outgrows
# what the process may still use stops with a message naming the path edges,
# the growth and the limit, and a Fix (exit 1), never a crash or the OOM
# killer. ulimit -v stands in for a machine with little memory free (the
# guard reads it like MemAvailable); the limits are swept upwards because the
# command's own address space differs between builds. Not under sanitizers
# (they reserve terabytes of address space).
# usage: memory_guard_test.sh WEIR WORK_DIR
set -u
weir=$1 work=$2
mkdir -p "$work"
"$weir" gen wide-facts --procs 400 --nodes-per-proc 50 --facts 4096 -o "$work/wide.ifds" || exit 1
for v in 160000 180000 200000 220000 240000 260000 280000 300000 340000 380000; do
  (ulimit -v $v && exec "$weir" solve "$work/wide.ifds" --solver reference -o "$work/wide.result") \
    >"$work/out" 2>"$work/err"
  rc=$?
  echo "ulimit -v $v: exit $rc: $(head -c 300 "$work/err")"
  if [ $rc -ne 0 ] && { [ $rc -ne 1 ] || ! grep -q 'Fix:' "$work/err"; }; then
    echo "FAIL: expected exit 0, or exit 1 with a Fix:"; cat "$work/err"; exit 1
  fi
  if grep -q "path-edge set holds [0-9]* path edges and must grow by" "$work/err"; then
    grep -q "ulimit -v" "$work/err" || { echo "FAIL: the message does not name the limit"; exit 1; }
    [ ! -e "$work/wide.result" ] || { echo "FAIL: a result file was left behind"; exit 1; }
    echo "ok: stopped by the guard"; exit 0
  fi
  [ $rc -eq 0 ] && break
done
echo "FAIL: no limit in the sweep stopped the solver at the path-edge set's growth"
exit 1
