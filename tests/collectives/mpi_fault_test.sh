#!/usr/bin/env bash
# mpi_fault_test.sh MPIEXEC RANKS PROGRAM
# Rank 1 fails to open its backend: every rank must exit non-zero, print the
# failing rank's reason, and the job must end within seconds (timeout proves
# there is no hang). A run without the fault must succeed.
set -u
mpiexec=$1 ranks=$2 program=$3
launch=("$mpiexec" --allow-run-as-root --oversubscribe -n "$ranks")
fail=0
start=$(date +%s)
out=$(WEIR_FAULT_RANK=1 timeout 30 "${launch[@]}" -x WEIR_FAULT_RANK "$program" 2>&1)
rc=$? elapsed=$(( $(date +%s) - start ))
echo "$out"
if [ $rc -eq 0 ]; then echo "FAIL: the job succeeded although rank 1 could not open its backend"; fail=1; fi
if [ $rc -eq 124 ]; then echo "FAIL: the job hung (killed after 30 s)"; fail=1; fi
if [ $elapsed -gt 20 ]; then echo "FAIL: the job took ${elapsed} s to fail (want seconds)"; fail=1; fi
for ((r = 0; r < ranks; ++r)); do
  if ! echo "$out" | grep -q "weir-mpi-fault: rank $r: opening the backends: rank 1 of $ranks: .*bogus"; then
    echo "FAIL: rank $r did not report rank 1's reason"; fail=1
  fi
done
good=$(timeout 30 "${launch[@]}" "$program" 2>&1) || { echo "$good"; echo "FAIL: the run without a fault failed"; fail=1; }
[ $fail -eq 0 ] && echo "mpi fault: $ranks ranks stopped together in ${elapsed} s with rank 1's reason (exit $rc)"
exit $fail
