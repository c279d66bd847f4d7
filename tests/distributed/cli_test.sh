#!/usr/bin/env bash
# cli_test.sh WEIR SRC WORKDIR local LIST
# cli_test.sh WEIR SRC WORKDIR mpi MPIEXEC RANKS [SPEC]
# `weir solve --backend LIST` (one solve across the devices of the list), or
# `mpirun -n RANKS weir solve --mpi [--backend SPEC]`, on the problem set of
# problems.sh: every result must be byte-identical to the reference solver's
# (cmp), and --stats must say how many devices took part. A list with vulkan
# is skipped (exit 77) with `weir info`'s reason where Vulkan is unavailable.
set -u
weir=$1 src=$2 work=$3 mode=$4
shift 4
. "$(dirname "$0")/problems.sh"
if [ "$mode" = local ]; then
  list=$1 devices=$(echo "$1" | tr ',' '\n' | wc -l)
  if echo ",$list," | grep -q ',vulkan[,:]' && ! "$weir" info | grep -q '^vulkan *available'; then
    echo "skipped: vulkan is unavailable here: $("$weir" info | sed -n '/^vulkan/,/reason/p' | tr '\n' ' ')"
    exit 77
  fi
  run() { "$weir" solve "$1" --backend "$list" -o "$2" --stats "$2.json"; }
  what="--backend $list"
else
  mpiexec=$1 devices=$2 spec=${3:-cpu}
  run() {
    timeout 120 "$mpiexec" --allow-run-as-root --oversubscribe -n "$devices" \
      "$weir" solve "$1" --mpi --backend "$spec" -o "$2" --stats "$2.json"
  }
  what="mpirun -n $devices --mpi --backend $spec"
fi
rm -rf "$work"
make_problems "$weir" "$src" "$work/problems" || exit 1
fail=0 count=0
while read -r f; do
  out=$work/$(basename "$f").out
  log=$(run "$f" "$out" 2>&1 < /dev/null) # mpirun would read the list from stdin
  rc=$?
  count=$((count + 1))
  if [ $rc -ne 0 ]; then
    echo "$log"; echo "FAIL: $what on $f: exit $rc"; fail=1; continue
  fi
  if ! cmp "$out" "$f.ref"; then
    echo "FAIL: $what on $f: the result differs from the reference solver's"; fail=1; continue
  fi
  if ! grep -q "\"devices\": $devices," "$out.json"; then
    echo "FAIL: $what on $f: --stats does not say \"devices\": $devices: $(cat "$out.json")"; fail=1
  fi
  if ! echo "$log" | grep -q "^solved .*: .* path edges"; then
    echo "$log"; echo "FAIL: $what on $f: no summary line"; fail=1
  fi
done < "$work/problems/list"
want=$(wc -l < "$work/problems/list")
least=20
[ -n "${WEIR_TEST_QUICK:-}" ] && least=10 # problems.sh: the sanitizer build's smaller set
if [ "$count" -ne "$want" ] || [ "$count" -lt "$least" ]; then
  echo "FAIL: $what: solved $count of the $want problems"; fail=1
fi
[ $fail -eq 0 ] && echo "$what: $count problems, every result identical to the reference solver's"
exit $fail
