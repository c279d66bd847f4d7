#!/usr/bin/env bash
# A signal during the final write leaves no temporary file (tools/output.c):
# `weir solve -o r.txt --stats FIFO` creates r.txt's temporary file, then
# blocks opening the FIFO for its stats; SIGPIPE (`kill -PIPE`), SIGINT and
# SIGTERM sent there must end the process by that signal and remove the
# temporary, and r.txt of an earlier run stays as it was. Last, a reader that
# opens the FIFO and goes away at once (a real broken pipe) must leave no
# temporary either, whichever way the write ends.
# usage: signal_test.sh WEIR WORK_DIR
set -uo pipefail
weir=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
env --default-signal=PIPE true 2>/dev/null ||
  { echo "SKIP: env lacks --default-signal (coreutils >= 8.31). Fix: install a newer coreutils."; exit 77; }
"$weir" gen chain --procs 50 -o p.ifds || fail "weir gen failed"
"$weir" solve p.ifds --solver reference -o r.txt || fail "weir solve failed"
cp r.txt r.orig
# wait_for GLOB PID: until a file matching GLOB exists (10 s at most).
wait_for() {
  for _ in $(seq 1 200); do
    compgen -G "$1" >/dev/null && return 0
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}
for sig in PIPE INT TERM; do
  rm -f s.fifo && mkfifo s.fifo || fail "mkfifo failed"
  # default dispositions: a background job of a script starts with SIGINT ignored
  env --default-signal=PIPE,INT,TERM "$weir" solve p.ifds --solver reference -o r.txt \
    --stats s.fifo >out.txt 2>err.txt &
  pid=$!
  wait_for '.r.txt.tmp-*' "$pid" || { kill -KILL "$pid" 2>/dev/null; fail "SIG$sig: no temporary file appeared: $(cat err.txt)"; }
  kill -"$sig" "$pid"
  wait "$pid"
  rc=$?
  want=$((128 + $(kill -l "$sig")))
  [ "$rc" = "$want" ] || fail "SIG$sig: weir exited $rc, expected $want (killed by SIG$sig): $(cat err.txt)"
  left=$(compgen -G '.*.tmp-*')
  [ -z "$left" ] || fail "SIG$sig during the final write left a temporary file: $left"
  cmp -s r.orig r.txt || fail "SIG$sig: r.txt of the earlier run changed"
  echo "SIG$sig: exit $rc, no temporary file, r.txt untouched"
done
rm -f s.fifo && mkfifo s.fifo
env --default-signal=PIPE "$weir" solve p.ifds --solver reference -o r.txt --stats s.fifo \
  >out.txt 2>err.txt &
pid=$!
wait_for '.r.txt.tmp-*' "$pid" || fail "broken pipe: no temporary file appeared: $(cat err.txt)"
: <s.fifo # open the reading end and close it again
wait "$pid"
rc=$?
left=$(compgen -G '.*.tmp-*')
[ -z "$left" ] || fail "a broken pipe (exit $rc) left a temporary file: $left"
echo "broken pipe: exit $rc, no temporary file"
echo "PASS"
