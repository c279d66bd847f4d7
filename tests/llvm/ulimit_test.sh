#!/bin/sh
# `weir analyze` under memory limits: LLVM aborts on std::bad_alloc (exit
# 134), so weir must either run the analysis (0) or refuse with a clear
# message and a Fix (1), never abort.
# usage: ulimit_test.sh WEIR CLANG14 WORK_DIR
set -u
weir=$1 clang=$2 work=$3
mkdir -p "$work"
printf '#include <stdlib.h>\nint main(void) { return system(getenv("X")); }\n' >"$work/small.c"
"$clang" -g -O0 -emit-llvm -c "$work/small.c" -o "$work/small.bc" || exit 1
fail=0
# The limit of the issue (350 MB of address space): the analysis or a clear error.
(ulimit -v 350000 && exec "$weir" analyze taint "$work/small.bc") >"$work/v.out" 2>"$work/v.err"
rc=$?
echo "ulimit -v 350000: exit $rc"
if [ $rc -ne 0 ] && { [ $rc -ne 1 ] || ! grep -q 'Fix:' "$work/v.err"; }; then
  echo "FAIL: expected exit 0 or exit 1 with a Fix:, got $rc:"; cat "$work/v.err"; fail=1
fi
# A data limit far below what reading needs: refused before LLVM parses.
(ulimit -d 40000 && exec "$weir" analyze taint "$work/small.bc") >"$work/d.out" 2>"$work/d.err"
rc=$?
echo "ulimit -d 40000: exit $rc"
if [ $rc -ne 1 ] || ! grep -q 'ulimit -d' "$work/d.err" || ! grep -q 'Fix:' "$work/d.err"; then
  echo "FAIL: expected exit 1 naming ulimit -d with a Fix:, got $rc:"; cat "$work/d.err"; fail=1
else
  cat "$work/d.err"
fi
exit $fail
