#!/usr/bin/env bash
# The CUDA device check: on a machine with an NVIDIA GPU, build weir, then run
# the conformance suite on CUDA, the IFDS property test on CUDA against the
# reference solver, and the dispatch and IFDS benchmarks — within about
# 6 minutes on a 16-core machine. Documented in backends/cuda/README.md.
#
#   bench/gpu-check.sh [--build DIR] [--out DIR] [--spec cuda:N] [--quick] [--sanitize]
#
#   --build DIR  build directory (default /tmp/weir-gpu-check); an existing
#                configured build is only rebuilt incrementally
#   --out DIR    where logs and JSON go (default $OUT if set, else DIR/gpu-check)
#   --spec S     CUDA device to check (default cuda)
#   --quick      skip the 2M-node IFDS case (the slowest phase)
#   --sanitize   also run the conformance suite under compute-sanitizer
#                memcheck (kernel out-of-bounds, leaks; adds 1-2 minutes)
#
# Exit status: 0 when every phase passed; 1 otherwise (the summary names
# the failed phases). Benchmarks never fail on timings; they fail only when
# they cannot run.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
build=/tmp/weir-gpu-check
out=""
spec=cuda
quick=0
sanitize=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --spec) spec=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --sanitize) sanitize=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "gpu-check: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
out=${out:-${OUT:-$build/gpu-check}}
mkdir -p "$out"
jobs=$(nproc 2>/dev/null || echo 4)
start=$(date +%s)
summary=()
failed=0

# phase NAME LIMIT_SECONDS COMMAND...: runs with a time limit, logs to
# $out/NAME.log (and to the terminal), records status and duration.
phase() {
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  echo "=== $name (limit ${limit}s): $*"
  timeout --signal=KILL "$limit" "$@" 2>&1 | tee "$out/$name.log"
  local rc=${PIPESTATUS[0]}
  local dt=$(( $(date +%s) - t0 ))
  if [ "$rc" -eq 0 ]; then summary+=("PASS  $name  ${dt}s")
  else summary+=("FAIL  $name  ${dt}s  (exit $rc; log: $out/$name.log)"); failed=1; fi
  return "$rc"
}

finish() {
  echo
  echo "=== gpu-check summary ($(( $(date +%s) - start ))s total; logs and JSON in $out)"
  printf '%s\n' "${summary[@]}"
  exit "$failed"
}

echo "gpu-check: weir at $here, build $build, output $out, device $spec, $jobs jobs"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee "$out/nvidia-smi.log"

# 1. Build (Release-like, tests on). The CUDA backend needs nvcc here only
#    when the build directory is new or programs/cuda changed.
if [ ! -f "$build/CMakeCache.txt" ]; then
  nvcc_dir=""
  command -v nvcc >/dev/null 2>&1 || nvcc_dir=/usr/local/cuda
  phase configure 120 cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DWEIR_ENABLE_CUDA=ON ${nvcc_dir:+-DCUDAToolkit_ROOT=$nvcc_dir} || finish
fi
phase build 240 cmake --build "$build" -j "$jobs" || finish
weir="$build/weir"

# 2. The backend must be available: a GPU check that silently skipped CUDA
#    would prove nothing.
phase info 30 bash -c "'$weir' info | tee /dev/stderr | grep -A3 '^cuda ' | grep -q 'available (' \
  || { echo 'gpu-check: CUDA is not available here (see the reason above)'; exit 1; }" || finish

# 3. Conformance on CUDA (77 = skipped counts as a failure here), and the
#    CUDA unit tests (their probe test takes the GPU branch here).
# CK_FORK=no everywhere below: Check forks one process per test, and the
# conformance runner opens the backend once before forking; CUDA cannot be
# used in a child forked after cuInit.
export CK_FORK=no
phase conformance 60 "$build/tests/conformance/conformance_runner" "$spec"
phase cuda-tests 60 ctest --test-dir "$build" -L cuda -E mock --output-on-failure
if [ "$sanitize" = 1 ]; then
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  phase sanitizer 150 "$sanitizer" --tool memcheck --leak-check full --error-exitcode 3 \
    "$build/tests/conformance/conformance_runner" "$spec"
fi

# 4. The IFDS engine on CUDA against the reference solver (the property test
#    and the hand-written cases), on CUDA only.
phase ifds-property 120 env WEIR_TEST_BACKENDS="$spec" \
  "$build/tests/engine/weir_engine_property"
phase ifds-cases 60 env WEIR_TEST_BACKENDS="$spec" \
  "$build/tests/engine/weir_engine_cases"

# 5. Benchmarks (figures only). Dispatch: separate dispatches, a 10,000-step
#    sequence, a repeated group (graphs), uploads, ranged read-backs.
phase bench-dispatch 60 "$weir" bench --backend "$spec" --steps 10000 --json "$out/dispatch.json"
phase bench-dispatch-group1 30 "$weir" bench --backend "$spec" --scenario repeated --steps 10000 \
  --group 1 --json "$out/dispatch-group1.json"
cases=realistic-10k,realistic-200k,realistic-2m,chain,fanout,recursive,wide-facts,loops
[ "$quick" = 1 ] && cases=realistic-10k,realistic-200k,chain,fanout,recursive,wide-facts,loops
phase bench-ifds 180 "$build/bench/ifds/weir_bench_ifds" --backends "$spec" --cases "$cases" \
  --repeat 3 --json "$out/ifds.json"
finish
