#!/usr/bin/env bash
# cli_errors_test.sh WEIR SRC WORKDIR HAVE_MPI
# `weir solve --backend LIST` refusals: each exits 2 with a message that
# names the bad element and ends in a Fix, and writes no result file; a
# device listed twice is refused (cpu:0 twice, cpu and cpu:0; vulkan and
# vulkan:0 where Vulkan is available); --mpi without an MPI build says so.
set -u
weir=$1 src=$2 work=$3 have_mpi=$4
rm -rf "$work" && mkdir -p "$work"
p=$src/examples/taint.ifds
fail=0
# refused WANT_RC PATTERN ARGS...
refused() {
  local want=$1 pattern=$2
  shift 2
  local out rc
  out=$("$weir" solve "$p" -o "$work/out.result" "$@" 2>&1)
  rc=$?
  echo "weir solve $*: exit $rc: $out"
  if [ $rc -ne "$want" ]; then echo "FAIL: want exit $want"; fail=1; fi
  if ! echo "$out" | grep -q -- "$pattern"; then echo "FAIL: the message does not say '$pattern'"; fail=1; fi
  if ! echo "$out" | grep -q "Fix:"; then echo "FAIL: no Fix hint"; fail=1; fi
  if [ -e "$work/out.result" ]; then echo "FAIL: a result file was written"; fail=1; rm -f "$work/out.result"; fi
}
refused 2 "element 2 of 3 is empty" --backend cpu:0,,cpu:1
refused 2 "element 3 of 3 is empty" --backend cpu:0,cpu:1,
refused 2 "element 2 of 2 ('bogus')" --backend cpu:0,bogus
refused 2 "element 1 of 2 ('nope:3')" --backend nope:3,cpu
refused 2 "solver reference with the device list" --backend cpu:0,cpu:1 --solver reference
refused 2 "lists 65 devices" --backend "$(printf 'cpu,%.0s' $(seq 64))cpu"
if "$weir" info | grep -q '^vulkan *available'; then
  refused 2 "open the same device" --backend vulkan,cpu,vulkan:0
else
  echo "(vulkan unavailable here: the GPU-listed-twice check is not run)"
fi
refused 2 "open the same device" --backend cpu:0,cpu:1,cpu:0
refused 2 "open the same device" --backend cpu,cpu:0
refused 2 "given twice" --backend cpu:0 --backend cpu:1
refused 2 "are the same file" --backend cpu:0,cpu:1 --stats "$work/out.result"
# An output that cannot be created is refused before loading and solving.
out=$("$weir" solve "$p" --backend cpu:0,cpu:1 -o "$work/no-such-dir/r.result" --progress 2>&1)
rc=$?
echo "unwritable -o: exit $rc: $out"
if [ $rc -ne 1 ] || ! echo "$out" | grep -q "cannot create a file there.*Fix:"; then
  echo "FAIL: an unwritable -o is not refused with exit 1 and a Fix"; fail=1
fi
if echo "$out" | grep -q "loaded"; then echo "FAIL: it loaded the problem first"; fail=1; fi
# Distinct cpu instances are distinct devices: the reference solver's result.
"$weir" solve "$p" --solver reference -o "$work/ref.result" >/dev/null || fail=1
if "$weir" solve "$p" --backend cpu:1,cpu:0 -o "$work/two.result" >/dev/null; then
  cmp "$work/two.result" "$work/ref.result" || { echo "FAIL: cpu:1,cpu:0 differs"; fail=1; }
else
  echo "FAIL: cpu:1,cpu:0 was refused"; fail=1
fi
if [ "$have_mpi" = ON ]; then
  refused 2 "mpi with --solver reference" --mpi --solver reference
else
  refused 1 "built without MPI" --mpi
fi
[ $fail -eq 0 ] && echo "every refusal named its element with a Fix, exit codes as documented"
exit $fail
