#!/usr/bin/env bash
# The CUDA device check: on a machine with an NVIDIA GPU, build weir, then run
# the conformance suite on CUDA, the collectives suite through NCCL (when
# libnccl.so.2 loads), the IFDS property test on CUDA against the
# reference solver, and the dispatch and IFDS benchmarks — within a time
# budget (default 450 s). Documented in backends/cuda/README.md, which also
# says how to run it with the `run` tool on a machine without Check.
#
#   bench/gpu-check.sh [--build DIR] [--out DIR] [--spec cuda:N] [--quick] [--sanitize]
#
#   --build DIR  build directory (default /tmp/weir-gpu-check); an existing
#                configured build is re-configured and rebuilt incrementally
#   --out DIR    where the archive gpu-check.tgz goes (default $OUT if set,
#                else the build directory)
#   --spec S     CUDA device to check (default cuda)
#   --quick      skip the 2M-node IFDS case (the slowest phase)
#   --sanitize   also run the conformance suite under compute-sanitizer
#                memcheck (adds 1-2 minutes). Opt-in: compute-sanitizer
#                refuses the device on gVisor-based machines ("Device not
#                supported", then error 999), so there it fails by itself.
#
# Environment:
#   WEIR_GPU_CHECK_CMAKE_ARGS  extra arguments for the configure step, split
#                              on spaces (e.g. "-DWEIR_ENABLE_VULKAN=OFF
#                              -DPKG_CONFIG_EXECUTABLE=/tmp/deps/usr/bin/pkgconf")
#   WEIR_GPU_CHECK_BUDGET      seconds for the whole check (default 450): each
#                              phase's limit is clipped to what is left, and a
#                              phase is SKIPped when under 10 s are left, so the
#                              summary always prints
#
# Every log, the JSON and the summary are kept in BUILD/gpu-check/ and, after
# every phase, packed again into ONE archive OUT/gpu-check.tgz (written to a
# temporary name, then renamed): a run killed part-way still leaves every
# log written so far.
#
# Exit status: 0 when every phase passed; 1 otherwise (the summary names the
# failed and skipped phases); 2 for bad arguments. Benchmarks never fail on
# timings; they fail when they cannot run or a result differs from the
# reference.
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
budget=${WEIR_GPU_CHECK_BUDGET:-450}
case "$budget" in
  ''|*[!0-9]*) echo "gpu-check: WEIR_GPU_CHECK_BUDGET='$budget' is not a number of seconds" >&2
               exit 2 ;;
esac
read -r -a cmake_extra <<< "${WEIR_GPU_CHECK_CMAKE_ARGS:-}"
out=${out:-${OUT:-$build}}
logs=$build/gpu-check
rm -rf "$logs" # an earlier run's logs must not pass for this run's
mkdir -p "$logs" "$out" || exit 2
build=$(cd "$build" && pwd)
logs=$build/gpu-check
out=$(cd "$out" && pwd)
archive=$out/gpu-check.tgz
jobs=$(nproc 2>/dev/null || echo 4)
start=$(date +%s)
summary=()
failed=0

left() { echo $(( budget - ($(date +%s) - start) )); }

# The summary so far into the logs, then the logs into the archive (a temp
# name in the same folder, then mv: the archive is always whole).
pack() {
  { echo "gpu-check summary: $(( $(date +%s) - start ))s of a ${budget}s budget;" \
         "device $spec; weir at $here"
    printf '%s\n' "${summary[@]}"; } > "$logs/summary.txt"
  tar -czf "$out/.gpu-check.tgz.tmp" --exclude=.gpu-check.tgz.tmp --exclude=gpu-check.tgz \
      -C "$build" gpu-check 2>/dev/null && mv -f "$out/.gpu-check.tgz.tmp" "$archive"
}

# phase NAME LIMIT_SECONDS COMMAND...: runs with a time limit (clipped to the
# budget left), logs to $logs/NAME.log and the terminal, records the result,
# re-packs the archive. Returns the command's status (1 when skipped).
phase() {
  local name=$1 limit=$2; shift 2
  local remain
  remain=$(left)
  if [ "$remain" -lt 10 ]; then
    echo "=== $name: SKIPPED, ${remain}s of the ${budget}s budget left"
    summary+=("SKIP  $name  (budget: ${remain}s of ${budget}s left)")
    failed=1
    pack
    return 1
  fi
  [ "$limit" -gt "$remain" ] && limit=$remain
  echo "=== $name (limit ${limit}s, ${remain}s of the budget left): $*"
  local t0 rc dt
  t0=$(date +%s)
  timeout --kill-after=5 "$limit" "$@" 2>&1 | tee "$logs/$name.log"
  rc=${PIPESTATUS[0]}
  dt=$(( $(date +%s) - t0 ))
  if [ "$rc" -eq 0 ]; then summary+=("PASS  $name  ${dt}s")
  elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    summary+=("FAIL  $name  ${dt}s  (timed out at ${limit}s; log: gpu-check/$name.log)")
    failed=1
  else
    summary+=("FAIL  $name  ${dt}s  (exit $rc; log: gpu-check/$name.log)")
    failed=1
  fi
  pack
  return "$rc"
}

finish() {
  pack
  echo
  echo "=== gpu-check summary ($(( $(date +%s) - start ))s of a ${budget}s budget; logs, JSON" \
       "and this summary in $archive)"
  printf '%s\n' "${summary[@]}"
  exit "$failed"
}

# The pkg-config the configure step will use: PKG_CONFIG_EXECUTABLE from the
# extra arguments, else $PKG_CONFIG (CMake reads it too), else pkg-config.
pkg_config_program() {
  local a pc=${PKG_CONFIG:-}
  for a in ${cmake_extra[@]+"${cmake_extra[@]}"}; do
    case "$a" in -DPKG_CONFIG_EXECUTABLE=*|-DPKG_CONFIG_EXECUTABLE:*=*) pc=${a#*=} ;; esac
  done
  [ -n "$pc" ] || pc=$(command -v pkg-config || command -v pkgconf || true)
  echo "$pc"
}

# 0. The machine. libcuda.so.1 may live in a driver folder the loader does
#    not know (/usr/local/nvidia on container images): the backend dlopens it.
ldconfig_bin=$(command -v ldconfig || echo /sbin/ldconfig)
if ! "$ldconfig_bin" -p 2>/dev/null | grep -q 'libcuda\.so\.1 ' &&
   [ -e /usr/local/nvidia/lib64/libcuda.so.1 ]; then
  export LD_LIBRARY_PATH=/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  echo "gpu-check: libcuda.so.1 is not in the loader cache; using /usr/local/nvidia/lib64"
fi
echo "gpu-check: weir at $here, build $build, archive $archive, device $spec, $jobs jobs," \
     "budget ${budget}s"
{
  echo "date: $(date -u)"; uname -a
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
  echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  echo "cmake: $(cmake --version 2>&1 | head -1)"; echo "ninja: $(ninja --version 2>&1)"
  echo "cc: $(${CC:-cc} --version 2>&1 | head -1)"
  echo "nvcc: $("$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" --version 2>&1 | tail -1)"
  echo "WEIR_GPU_CHECK_CMAKE_ARGS=${WEIR_GPU_CHECK_CMAKE_ARGS:-}"
} 2>&1 | tee "$logs/machine.log"
pc=$(pkg_config_program)
if [ -z "$pc" ] || ! "$pc" --exists check 2>/dev/null; then
  echo "gpu-check: WARNING: pkg-config ('${pc:-none found}') cannot find Check (libcheck):" \
       "configure will fail, the tests need it. Fix: install Debian's 'check' and pkg-config," \
       "or carry them as packages (backends/cuda/README.md, 'The GPU check')" | tee -a "$logs/machine.log"
fi
pack

# 1. Build (RelWithDebInfo, tests on, warnings not fatal: another host
#    compiler). The CUDA backend needs nvcc only when the build directory is
#    new or programs/cuda changed.
gen=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi
nvcc_dir=""
command -v nvcc >/dev/null 2>&1 || nvcc_dir=/usr/local/cuda
phase configure 120 cmake -S "$here" -B "$build" ${gen[@]+"${gen[@]}"} \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEIR_WERROR=OFF -DWEIR_BUILD_TESTS=ON \
  -DWEIR_ENABLE_CUDA=ON ${nvcc_dir:+-DCUDAToolkit_ROOT=$nvcc_dir} \
  ${cmake_extra[@]+"${cmake_extra[@]}"} || finish
phase build 240 cmake --build "$build" -j "$jobs" || finish
weir="$build/weir"

# 2. The backend must be available: a GPU check that silently skipped CUDA
#    would prove nothing.
phase info 30 bash -c "'$weir' info | tee /dev/stderr | grep -A3 '^cuda ' | grep -q 'available (' \
  || { echo 'gpu-check: CUDA is not available here (see the reason above)'; exit 1; }" || finish

# 3. Conformance on CUDA (77 = skipped counts as a failure here), and the
#    CUDA unit tests (their probe test takes the GPU branch here). CK_FORK=no
#    for the suites below (the engine tests open the backend before Check
#    would fork): one process per suite. When the conformance suite fails
#    so, it runs again forked (one process per test, 30 s each) so every
#    test gets its own verdict and the first failure is attributed to it.
export CK_FORK=no
if ! phase conformance 90 "$build/tests/conformance/conformance_runner" "$spec"; then
  phase conformance-forked 150 env -u CK_FORK CK_DEFAULT_TIMEOUT=30 \
    "$build/tests/conformance/conformance_runner" "$spec"
fi
# (forked as in CI: each test's driver state is its own)
phase cuda-tests 60 env -u CK_FORK ctest --test-dir "$build" -L cuda -E mock --output-on-failure
# 3b. The NCCL transport (weir/nccl.h), only where libnccl.so.2 loads: the
#     collectives conformance suite through NCCL on this machine's GPUs
#     (layouts needing more GPUs than present are skipped inside). NCCL is
#     optional: without it (probe exit 77) the summary says n/a, no failure;
#     NCCL present but failing to set up is a FAIL.
nccl_runner="$build/tests/nccl/weir_nccl_conformance"
if [ ! -x "$nccl_runner" ]; then
  summary+=("n/a   nccl  (tests/nccl not built)")
elif nccl_probe=$(timeout 60 "$nccl_runner" --probe 2>&1); [ $? -eq 77 ]; then
  echo "=== nccl: not run: $nccl_probe"
  summary+=("n/a   nccl  ($(echo "$nccl_probe" | head -1 | cut -c1-160))")
  pack
else
  phase nccl 90 "$nccl_runner"
fi
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

# 4b. One IFDS solve across the GPU and a cpu instance (docs/distributed.md):
#     the outboxes cross between CUDA and the host (32-bit keys: the problem
#     fits them), by estimated work, then with every procedure spread (the
#     owner hashed from d1 in the kernels) and 64-bit keys; the results must
#     be the reference solver's, byte for byte.
dist_problem="$logs/dist.ifds"
phase ifds-across-devices 90 bash -c "'$weir' gen realistic --procs 2000 --seed 3 -o '$dist_problem' &&
  '$weir' solve '$dist_problem' --solver reference -o '$dist_problem.ref' &&
  '$weir' solve '$dist_problem' --backend '$spec,cpu:0' -o '$dist_problem.multi' &&
  '$weir' solve '$dist_problem' --backend 'cpu:0,$spec' -o '$dist_problem.multi2' &&
  WEIR_IFDS_OWNERSHIP=spread '$weir' solve '$dist_problem' --backend '$spec,cpu:0' -o '$dist_problem.spread' &&
  WEIR_IFDS_WIDE_KEYS=1 '$weir' solve '$dist_problem' --backend 'cpu:0,$spec' -o '$dist_problem.wide' &&
  cmp '$dist_problem.ref' '$dist_problem.multi' && cmp '$dist_problem.ref' '$dist_problem.multi2' &&
  cmp '$dist_problem.ref' '$dist_problem.spread' && cmp '$dist_problem.ref' '$dist_problem.wide'"

# 4b'. Atomics per path edge (issue 26): the engine reserves appends once per
#     warp group (programs/ifds/ifds_sink_cuda.h); the summary line of one
#     solve says how many atomics that took per path edge (on lavapipe, with
#     subgroups of 8: 0.39; one per append: 1.09), and its result must be
#     the reference's.
atomics_problem="$logs/atomics.ifds"
phase ifds-atomics 60 bash -c "'$weir' gen realistic --procs 10000 --nodes-per-proc 20 --seed 2 -o '$atomics_problem' &&
  '$weir' solve '$atomics_problem' --solver reference -o '$atomics_problem.ref' &&
  '$weir' solve '$atomics_problem' --backend '$spec' -o '$atomics_problem.gpu' --stats '$logs/atomics.json' &&
  cmp '$atomics_problem.ref' '$atomics_problem.gpu' &&
  grep -o '\"atomics_per_path_edge\": [0-9.]*' '$logs/atomics.json'"
[ -f "$logs/atomics.json" ] &&
  summary+=("      ifds-atomics: $(grep -o '"atomics_per_path_edge": [0-9.]*' "$logs/atomics.json")")

# 4c. FFT through cuFFT (loaded at run time) against a long-double DFT with
#     the per-precision bounds, the same cases as on cpu and lavapipe
#     (tests/fft). On the mock driver (a dry run of this script: WEIR_CUDA_DRIVER
#     set) cuFFT cannot compute anything: n/a, no failure.
if [ -n "${WEIR_CUDA_DRIVER:-}" ]; then
  summary+=("n/a   fft-cuda  (WEIR_CUDA_DRIVER is set: cuFFT does not run on a mock driver)")
else
  phase fft-cuda 120 "$build/tests/fft/weir_fft_tests" "$spec"
fi

# 5. Benchmarks (figures; they fail only when they cannot run or a result
#    differs). Dispatch: separate dispatches, a 10,000-step sequence, a
#    repeated group (graphs), uploads, ranged read-backs.
phase bench-dispatch 60 "$weir" bench --backend "$spec" --steps 10000 --all-scenarios \
  --json "$logs/dispatch.json"
phase bench-dispatch-group1 30 "$weir" bench --backend "$spec" --scenario repeated --steps 10000 \
  --group 1 --json "$logs/dispatch-group1.json"
# (cuda cases are skipped, with the reason, where cuFFT is missing; in a dry
# run on the mock driver cuFFT is kept out on purpose)
fft_env=()
[ -n "${WEIR_CUDA_DRIVER:-}" ] && fft_env=(WEIR_CUFFT_LIBRARY=/nonexistent/libcufft-in-a-dry-run.so)
phase bench-fft 60 env ${fft_env[@]+"${fft_env[@]}"} "$weir" bench fft --backend "$spec" \
  --backend cpu --sizes 1024,4096,65536,1000 --runs 5 --json "$logs/fft.json"
cases=realistic-10k,realistic-200k,realistic-2m,chain,fanout,recursive,wide-facts,loops
[ "$quick" = 1 ] && cases=realistic-10k,realistic-200k,chain,fanout,recursive,wide-facts,loops
phase bench-ifds 180 "$build/bench/ifds/weir_bench_ifds" --backends "$spec" --cases "$cases" \
  --repeat 3 --json "$logs/ifds.json"
finish
