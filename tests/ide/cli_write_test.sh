#!/usr/bin/env bash
# weir ide -o RESULT writes through a temporary file (tools/output.h), as weir
# solve -o: under `ulimit -f 0` (every write to a regular file fails with
# EFBIG; weir ignores SIGXFSZ) it exits 1 naming the path and the system's
# reason with a Fix, leaves no partial or temporary file, and an earlier
# result at that path stays as it was. -o PROBLEM is refused with exit 2.
# usage: cli_write_test.sh WEIR PROBLEM WORK_DIR
set -uo pipefail
weir=$1 problem=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
limited() { bash -c 'ulimit -f 0; exec "$@"' _ "$@" 2>&1 >/dev/null | cat > err.txt; return "${PIPESTATUS[0]}"; }
"$weir" ide "$problem" -o old.txt 2>/dev/null || fail "weir ide -o old.txt"
cp old.txt old.orig
limited "$weir" ide "$problem" -o new.txt; rc=$?
[ "$rc" = 1 ] || fail "exit $rc under ulimit -f 0, expected 1: $(cat err.txt)"
[ ! -e new.txt ] || fail "a failed write left new.txt ($(wc -c < new.txt) bytes)"
grep -q "new.txt" err.txt || fail "the message lacks the path: $(cat err.txt)"
grep -q "File too large" err.txt || fail "the message lacks the reason: $(cat err.txt)"
grep -q "Fix:" err.txt || fail "the message lacks a Fix: $(cat err.txt)"
limited "$weir" ide "$problem" -o old.txt; rc=$?
[ "$rc" = 1 ] || fail "exit $rc over an old file, expected 1"
cmp -s old.orig old.txt || fail "old.txt changed after a failed write"
left=$(find . -name '.*.tmp-*' | head -3)
[ -z "$left" ] || fail "temporary files left behind: $left"
cp "$problem" p.ide
"$weir" ide p.ide -o ./p.ide >/dev/null 2>err.txt; rc=$?
[ "$rc" = 2 ] || fail "-o PROBLEM exited $rc, expected 2"
cmp -s "$problem" p.ide || fail "-o PROBLEM changed the problem"
echo ok
