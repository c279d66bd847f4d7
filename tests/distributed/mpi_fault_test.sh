#!/usr/bin/env bash
# mpi_fault_test.sh WEIR SRC WORKDIR MPIEXEC RANKS
# `mpirun -n RANKS weir solve --mpi` where one rank cannot take part:
#   1. rank 1 gets a bogus backend (--backend cpu,bogus,cpu,...: element r is
#      rank r's device);
#   2. rank RANKS-1's problem file does not exist (a wrapper picks the path
#      by OMPI_COMM_WORLD_RANK).
# Every rank must exit non-zero, with the same code (2: bad input), print the
# failing rank's reason, and the job must end within seconds (timeout 60
# proves there is no hang); no result file may appear. Each rank's exit code
# is recorded by a wrapper around it.
set -u
weir=$1 src=$2 work=$3 mpiexec=$4 ranks=$5
rm -rf "$work" && mkdir -p "$work"
problem=$src/examples/taint.ifds
cat > "$work/rank.sh" <<WRAP
#!/usr/bin/env bash
# rank.sh MISSING_RANK ARGS...: runs weir solve for this rank, records its exit code.
r=\${OMPI_COMM_WORLD_RANK:-\${PMI_RANK:-0}}
missing=\$1; shift
file=$problem
[ "\$r" = "\$missing" ] && file=$work/no-such-problem.ifds
"$weir" solve "\$file" "\$@"
rc=\$?
echo \$rc > "$work/rc.\$r"
exit \$rc
WRAP
chmod +x "$work/rank.sh"
fail=0

# expect NAME MISSING_RANK WANT_RANK PATTERN ARGS...
expect() {
  local name=$1 missing=$2 want=$3 pattern=$4
  shift 4
  rm -f "$work"/rc.* "$work/out.result"
  local start=$(date +%s)
  local out
  # orte_abort_on_non_zero_status 0 (Open MPI): mpirun lets every rank end
  # by itself instead of killing the rest once the first one exits non-zero,
  # so that each wrapper gets to record its rank's exit code.
  out=$(OMPI_MCA_orte_abort_on_non_zero_status=0 timeout 60 "$mpiexec" --allow-run-as-root \
        --oversubscribe -n "$ranks" "$work/rank.sh" "$missing" --mpi -o "$work/out.result" "$@" 2>&1)
  local rc=$? elapsed=$(( $(date +%s) - start ))
  echo "$out"
  # (mpirun's own exit code is 0 then: each rank's code is checked below.)
  if [ $rc -eq 124 ]; then echo "FAIL: $name: the job hung (killed after 60 s)"; fail=1; fi
  if [ $elapsed -gt 30 ]; then echo "FAIL: $name: the job took ${elapsed} s to fail (want seconds)"; fail=1; fi
  for ((r = 0; r < ranks; ++r)); do
    if ! echo "$out" | grep -q "^weir solve (rank $r of $ranks): rank $want of $ranks: .*$pattern"; then
      echo "FAIL: $name: rank $r did not report rank $want's reason ($pattern)"; fail=1
    fi
    local code=$(cat "$work/rc.$r" 2>/dev/null || echo none)
    if [ "$code" != 2 ]; then echo "FAIL: $name: rank $r exited with $code, want 2"; fail=1; fi
  done
  if [ -e "$work/out.result" ]; then echo "FAIL: $name: a result file was written"; fail=1; fi
  [ $fail -eq 0 ] && echo "mpi fault ($name): $ranks ranks stopped together in ${elapsed} s with rank $want's reason, exit 2 each"
}

list=cpu,bogus
for ((r = 2; r < ranks; ++r)); do list=$list,cpu; done
expect "bogus backend" none 1 "bogus" --backend "$list"
last=$((ranks - 1))
expect "missing file" $last $last "no-such-problem.ifds" --backend cpu

# 3. The last rank loads another (valid) problem: the ranks compare what they
# loaded before solving, and every rank stops with the same message.
sed -e "s|file=$work/no-such-problem.ifds|file=$src/examples/uninit.ifds|" "$work/rank.sh" \
  > "$work/rank-other.sh" && chmod +x "$work/rank-other.sh"
rm -f "$work"/rc.* "$work/out.result"
other=$(OMPI_MCA_orte_abort_on_non_zero_status=0 timeout 60 "$mpiexec" --allow-run-as-root \
        --oversubscribe -n "$ranks" "$work/rank-other.sh" $last --mpi --backend cpu \
        -o "$work/out.result" 2>&1)
echo "$other"
for ((r = 0; r < ranks; ++r)); do
  echo "$other" | grep -q "^weir solve (rank $r of $ranks): .*rank $last loaded another problem than rank 0" ||
    { echo "FAIL: other problem: rank $r did not report it"; fail=1; }
  code=$(cat "$work/rc.$r" 2>/dev/null || echo none)
  [ "$code" = 2 ] || { echo "FAIL: other problem: rank $r exited with $code, want 2"; fail=1; }
done
[ -e "$work/out.result" ] && { echo "FAIL: other problem: a result file was written"; fail=1; }

# The same job without a fault succeeds.
rm -f "$work"/rc.*
good=$(timeout 60 "$mpiexec" --allow-run-as-root --oversubscribe -n "$ranks" \
       "$work/rank.sh" none --mpi --backend cpu -o "$work/good.result" 2>&1) ||
  { echo "$good"; echo "FAIL: the run without a fault failed"; fail=1; }
"$weir" solve "$problem" --solver reference -o "$work/ref.result" >/dev/null &&
  cmp "$work/good.result" "$work/ref.result" || { echo "FAIL: the run without a fault differs"; fail=1; }
exit $fail
