#!/bin/sh
# weir gen --states: 1..32 with --ide typestate, else a usage error (exit 2)
# that says what to pass; --states without --ide typestate is an error, not
# silently ignored.
# usage: cli_gen_states_test.sh WEIR WORK_DIR
weir=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
refused() { # MESSAGE ARGS...: exit 2, MESSAGE on stderr, no output file
  want=$1; shift
  "$weir" gen chain --procs 2 "$@" -o out.ide 2>err.txt; rc=$?
  [ "$rc" = 2 ] || fail "'$*' exited $rc, expected 2"
  grep -qF -- "$want" err.txt || fail "'$*': stderr lacks '$want': $(cat err.txt)"
  grep -q "Fix: " err.txt || fail "'$*': no Fix: $(cat err.txt)"
  [ ! -e out.ide ] || fail "'$*' wrote out.ide"
}
for s in 0 33 -1 4294967296 x; do
  refused "--states must be 1..32 (found '$s')" --ide typestate --states "$s"
done
refused "--states is for typestate problems only (found --ide linear)" --ide linear --states 4
refused "--states is for typestate problems only (found no --ide)" --states 4
"$weir" gen chain --procs 2 --states 32 --ide typestate -o out.ide || fail "--states 32"
grep -qx "family typestate 32" out.ide || fail "--states 32 did not give 32 states"
"$weir" gen chain --procs 2 --ide typestate --states 1 -o out.ide || fail "--states 1"
grep -qx "family typestate 1" out.ide || fail "--states 1 did not give 1 state"
echo ok
