#!/bin/sh
# End-to-end test of `weir analyze`: findings on stdout, SARIF 2.1.0 (checked
# with python's json module), --emit-ifds, exit codes for bad input.
# usage: cli_test.sh WEIR CLANG14 PYTHON3 TESTS_LLVM_DIR WORK_DIR
set -eu
weir=$1 clang=$2 python=$3 here=$4 work=$5
mkdir -p "$work"
fail() { echo "cli_test: FAIL: $*" >&2; exit 1; }

"$clang" -g -O0 -emit-llvm -c "$here/programs/taint_helper.c" -o "$work/helper.bc"
"$clang" -g -O0 -emit-llvm -S "$here/programs/uninit_pointer.c" -o "$work/pointer.ll"

"$weir" analyze taint "$work/helper.bc" --sarif "$work/helper.sarif" --emit-ifds "$work/helper.ifds" \
  > "$work/helper.out" || fail "weir analyze taint exited $?"
cat "$work/helper.out"
grep -q "taint_helper.c:16:10: warning: tainted data reaches argument 1 of 'system' (source: 'fgets' at .*taint_helper.c:14:8) \[weir-taint\]" \
  "$work/helper.out" || fail "taint finding line not as expected"
"$python" "$here/check_sarif.py" "$work/helper.sarif" weir-taint 1 related
head -1 "$work/helper.ifds" | grep -q "^weir-ifds 1" || fail "emitted problem lacks the magic line"
# Any solver reuses the emitted problem.
"$weir" solve "$work/helper.ifds" -o "$work/helper.result" --solver reference \
  || fail "weir solve refused the emitted problem"

# A textual .ll, the other analysis, the engine option.
"$weir" analyze uninit "$work/pointer.ll" --sarif "$work/pointer.sarif" > "$work/pointer.out" \
  || fail "weir analyze uninit exited $?"
cat "$work/pointer.out"
test "$(grep -c "\[weir-uninit\]" "$work/pointer.out")" = 2 || fail "expected 2 uninit findings"
"$python" "$here/check_sarif.py" "$work/pointer.sarif" weir-uninit 2
"$weir" analyze uninit "$work/pointer.ll" --solver engine --backend cpu > "$work/pointer.engine.out" \
  || fail "weir analyze --solver engine --backend cpu exited $?"
cmp "$work/pointer.out" "$work/pointer.engine.out" || fail "engine findings differ from the reference"

# Bad input: exit 2 with a Fix hint; unknown analysis; config for uninit.
set +e
"$weir" analyze taint "$here/check_sarif.py" 2> "$work/bad.err"; rc=$?
set -e
test $rc = 2 || fail "unreadable module exited $rc, expected 2"
grep -q "Fix:" "$work/bad.err" || fail "no Fix: hint for a bad module"
set +e
"$weir" analyze nullness "$work/helper.bc" 2>/dev/null; rc=$?
set -e
test $rc = 2 || fail "unknown analysis exited $rc, expected 2"
echo "cli_test: all passed"
