#!/usr/bin/env bash
# Command-line regression cases of the bad-input review (issue #11).
# usage: cli_test.sh CASE WEIR SOURCE_DIR PLUGIN_ROOT WORK_DIR [SANITIZE]
# Each case fails (exit 1) with a line saying what went wrong.
set -uo pipefail
case_name=$1 weir=$2 src=$3 plugins=$4 work=$5 sanitize=${6:-OFF}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

fail() { echo "FAIL $case_name: $*"; exit 1; }
# expect RC CMD...: runs CMD (stdout to out.txt, stderr to err.txt), checks its exit code.
expect() {
  local want=$1; shift
  "$@" >out.txt 2>err.txt
  local rc=$?
  [ "$rc" = "$want" ] || fail "'$*' exited $rc, expected $want; stderr: $(head -c 600 err.txt)"
}
# limited RC CMD...: CMD under `ulimit -f 0` (every write to a regular file
# fails with EFBIG); its stderr goes through a pipe to err.txt, which the
# limit would otherwise truncate too.
limited() {
  local want=$1; shift
  bash -c 'ulimit -f 0; exec "$@"' _ "$@" 2>&1 >/dev/null | cat > err.txt
  local rc=${PIPESTATUS[0]}
  [ "$rc" = "$want" ] || fail "'$*' under ulimit -f 0 exited $rc, expected $want: $(head -c 600 err.txt)"
}
has() { grep -q -- "$2" "$1" || fail "$1 lacks '$2': $(head -c 600 "$1")"; }
no_temporaries() {
  local left
  left=$(find . -name '.*.tmp-*' | head -3)
  [ -z "$left" ] || fail "temporary files left behind: $left"
}

# The old file must survive a write that fails (ulimit -f 0: every write to a
# regular file fails with EFBIG; weir ignores SIGXFSZ), and the exit code is 1.
atomic_outputs() {
  expect 0 "$weir" gen chain --procs 4 -o p.ifds
  expect 0 "$weir" solve p.ifds --solver reference -o r.txt --stats s.json
  expect 0 "$weir" bench --backend cpu --scenario sequence --runs 1 --warmup 0 --steps 10 \
    --no-device-time --quiet --json b.json --trace t.json
  cp p.ifds p.orig; cp r.txt r.orig; cp s.json s.orig; cp b.json b.orig; cp t.json t.orig
  limited 1 "$weir" gen realistic --procs 50 -o p.ifds
  has err.txt "p.ifds"; has err.txt "File too large"
  limited 1 "$weir" solve p.ifds --solver reference -o r.txt
  has err.txt "r.txt"
  limited 1 "$weir" solve p.ifds --solver reference -o r2.txt --stats s.json
  [ ! -e r2.txt ] || fail "a failed solve left r2.txt"
  limited 1 "$weir" bench --backend cpu --scenario sequence --runs 1 --warmup 0 \
    --steps 10 --no-device-time --quiet --json b.json
  has err.txt "b.json"
  limited 1 "$weir" bench --backend cpu --scenario sequence --runs 1 --warmup 0 \
    --steps 10 --no-device-time --quiet --trace t.json
  has err.txt "t.json"
  cmp -s p.orig p.ifds || fail "p.ifds changed after a failed gen"
  cmp -s r.orig r.txt || fail "r.txt changed after a failed solve"
  cmp -s s.orig s.json || fail "s.json changed after a failed solve"
  cmp -s b.orig b.json || fail "b.json changed after a failed bench"
  cmp -s t.orig t.json || fail "t.json changed after a failed bench"
  no_temporaries
}

output_is_input() {
  expect 0 "$weir" gen chain --procs 4 -o p.ifds
  cp p.ifds p.orig
  expect 2 "$weir" solve p.ifds -o ./p.ifds
  has err.txt "is the input file"
  expect 2 "$weir" solve p.ifds --solver reference --stats p.ifds
  cmp -s p.orig p.ifds || fail "solve -o INPUT changed the input"
  ln -s p.ifds link.ifds
  expect 2 "$weir" solve link.ifds --solver reference -o p.ifds
  cmp -s p.orig p.ifds || fail "solve through a link changed the input"
  no_temporaries
}

output_dash() {
  expect 0 "$weir" gen chain --procs 2 -o -
  has out.txt "^weir-ifds 1"
  "$weir" gen chain --procs 2 -o p.ifds >/dev/null || fail "gen -o p.ifds"
  expect 0 "$weir" solve p.ifds --solver reference -o -
  has out.txt "^weir-ifds-result 1"
  expect 0 "$weir" gen chain --procs 2 -o /dev/null
  [ -c /dev/null ] || fail "/dev/null is no longer a device"
}

exit_codes() {
  expect 0 "$weir" gen chain --procs 2 -o p.ifds
  expect 2 "$weir" solve p.ifds --backend nosuch
  has err.txt "unknown backend 'nosuch'"
  expect 2 "$weir" solve missing.ifds
  expect 2 "$weir" solve p.ifds --solver nosuch
  expect 2 "$weir" conformance --backend nosuch
  expect 2 "$weir" conformance --backend plugin:/nonexistent/libnothing.so
  has out.txt "does not exist"
  # A directory or a library that is no weir plugin is a wrong path, never a skip (77).
  expect 2 "$weir" conformance --backend "plugin:$PWD"
  has out.txt "is a directory"
  if [ -f "$(dirname "$weir")/libweir.so" ]; then
    expect 2 "$weir" conformance --backend "plugin:$(cd "$(dirname "$weir")" && pwd)/libweir.so"
    has out.txt "does not export weir_plugin_register"
  fi
  expect 2 "$weir" conformance --backend cpu --filter no-case-has-this-name
  has out.txt "no case matches"
  expect 0 "$weir" bench run --help
  has out.txt "usage: weir bench"
  expect 2 "$weir" bench run
  expect 2 "$weir" bench --backend nosuch --runs 1
  expect 2 "$weir" bench run missing.seq --backend cpu
  expect 2 "$weir" gen nosuch
  expect 2 "$weir" demo --backend nosuch
  expect 2 "$weir" info extra
  expect 2 "$weir" frobnicate
  for c in info demo solve gen bench conformance; do expect 0 "$weir" $c --help; done
}

option_equals() {
  expect 0 "$weir" gen chain --procs=3 --seed=7 -o p.ifds
  "$weir" gen chain --procs 3 --seed 7 -o q.ifds >/dev/null 2>&1 || fail "gen spaced"
  cmp -s p.ifds q.ifds || fail "--procs=3 differs from --procs 3"
  expect 0 "$weir" solve p.ifds --solver=reference --backend=cpu -o r1.txt --stats=s.json
  expect 0 "$weir" solve p.ifds --solver reference -o r2.txt
  cmp -s r1.txt r2.txt || fail "--solver=reference differs from --solver reference"
  [ -s s.json ] || fail "--stats=s.json wrote nothing"
  expect 0 "$weir" conformance --backend=cpu --filter=bad_specs
  has out.txt "1 passed, 0 failed"
}

prefixes() {
  expect 2 "$weir" bench --backend cpu --runs 1 --scenario nosuch
  [ "$(grep -o 'bench:' err.txt | wc -l)" = 1 ] || fail "doubled prefix: $(cat err.txt)"
  expect 2 "$weir" bench --backend cpu --runs 1 --program nosuch
  [ "$(grep -o 'bench:' err.txt | wc -l)" = 1 ] || fail "doubled prefix: $(cat err.txt)"
}

# Counts are whole numbers (not sizes), and a device index past a backend's
# devices is a wrong spec (exit 2, naming the largest valid index), not a
# backend missing here (77, skip) (issue 23).
spec_errors() {
  for opt in --runs --warmup --steps --upload-count; do
    expect 2 "$weir" bench --backend cpu $opt abc --no-device-time --quiet
    has err.txt "$opt: needs a whole number, not 'abc'. Fix: "
    grep -q "not a size" err.txt && fail "$opt abc reported by the size parser: $(cat err.txt)"
  done
  expect 2 "$weir" bench --backend cpu --buffer-size abc
  has err.txt "is not a size"
  expect 2 "$weir" bench --backend cpu:99 --runs 1 --warmup 0 --steps 10 --no-device-time --quiet
  has err.txt "largest valid index is 7. Fix: use an index from 0 to 7"
  expect 2 "$weir" demo --backend cpu:99
  has err.txt "backend spec 'cpu:99'"
  expect 2 "$weir" conformance --backend cpu:99
  has out.txt "largest valid index is 7"
  expect 2 "$weir" solve "$src/examples/taint.ifds" --backend cpu:99
  has err.txt "largest valid index is 7"
  expect 0 "$weir" demo --backend cpu:7
}

loader_bounds() {
  # 44 bytes whose header claims 429 M procedures: refused before allocating.
  printf 'weir-ifds 1\nfacts 1\nprocs 429496729\nnodes 2\n' > procs.ifds
  expect 2 "$weir" solve procs.ifds --solver reference
  has err.txt "procs.ifds:3:7: error: procedure count larger than the input can hold"
  # Nodes need no lines: 4 G nodes under a 1 GB address-space limit is refused
  # with the figures (ASan reserves terabytes of address space: not there).
  printf 'weir-ifds 1\nfacts 1\nprocs 1\nnodes 4000000000\nproc 0 main 0 3999999999\n' > nodes.ifds
  if [ "$sanitize" != ON ]; then
    ( ulimit -v 1000000; expect 1 "$weir" solve nodes.ifds --solver reference ) || exit 1
    has err.txt "nodes.ifds:4:7: error: the header's counts (1 procedures, 4000000000 nodes) imply"
    has err.txt "ulimit -v"
  fi
}

no_progress() {
  expect 1 timeout 60 "$weir" solve "$src/examples/taint.ifds" --backend "plugin:$plugins/stall/libweir_stall.so"
  has err.txt "backend 'stall' made no progress"
  has err.txt "Fix:"
  # Across devices: the error names the member that stalled, not only the round.
  expect 1 timeout 60 "$weir" solve "$src/examples/taint.ifds" \
    --backend "cpu:0,plugin:$plugins/stall/libweir_stall.so"
  has err.txt "Stalled: member 1 (stall): not converged, 0 iterations"
  has err.txt "Fix: member 1's backend does not run the IFDS programs"
}

plugin_checks() {
  expect 2 "$weir" solve "$src/examples/taint.ifds" --backend "plugin:$plugins/bad_format/libweir_bad_format.so"
  has err.txt "program format 7 is not one weir knows"
  expect 2 "$weir" solve "$src/examples/taint.ifds" --backend "plugin:$plugins/long_id/libweir_long_id.so"
  has err.txt "is longer than 15 characters"
  expect 2 "$weir" solve "$src/examples/taint.ifds" --backend "plugin:$plugins/builtin_id/libweir_builtin_id.so"
  has err.txt "is the name of a built-in backend"
  # On WEIR_BACKEND_PATH: cpu stays the built-in, listed once, available.
  WEIR_BACKEND_PATH=$plugins/builtin_id expect 0 "$weir" info
  [ "$(grep -c '^cpu ' out.txt)" = 1 ] || fail "cpu listed more than once: $(cat out.txt)"
  has out.txt "^cpu      available"
  has out.txt "is the name of a built-in backend"
  # Two plugins with one id: the second is reported as a duplicate.
  WEIR_BACKEND_PATH=$plugins/dup expect 0 "$weir" info
  has out.txt "duplicate id 'dup'"
  [ "$(grep -c '^dup .*available (version' out.txt)" = 1 ] || fail "dup not available once: $(cat out.txt)"
  # Device strings without a terminator are cut at their fields' ends.
  WEIR_BACKEND_PATH=$plugins/unterminated expect 0 "$weir" info
  has out.txt "$(printf 'n%.0s' $(seq 127)) \[$(printf 'k%.0s' $(seq 23))\]"
  grep -q "$(printf 'n%.0s' $(seq 128))" out.txt && fail "a device name ran past its field"
  true
}

case "$case_name" in
  atomic-outputs) atomic_outputs ;;
  output-is-input) output_is_input ;;
  output-dash) output_dash ;;
  exit-codes) exit_codes ;;
  option-equals) option_equals ;;
  prefixes) prefixes ;;
  spec-errors) spec_errors ;;
  loader-bounds) loader_bounds ;;
  no-progress) no_progress ;;
  plugin-checks) plugin_checks ;;
  *) fail "unknown case" ;;
esac
echo "PASS $case_name"
