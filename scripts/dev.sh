#!/usr/bin/env bash
# weir's one entry point for a fresh Debian 12 machine (run as root):
#   bash scripts/dev.sh example   install what is missing, build, show the backends,
#                                 solve the bundled IFDS example and analyse the bundled C file
#   bash scripts/dev.sh test      install what is missing, build, run every test
#                                 (the normal build, then again under ASan+UBSan),
#                                 build libweir + weir in Release with gcc and with
#                                 clang-14, then run each fuzz target for 30 s on its
#                                 seed corpus
# Every build here configures with -DWEIR_WERROR=ON (the CMake default is OFF,
# for packagers and users), and with ccache as the compiler launcher when it
# is installed.
#   bash scripts/dev.sh fuzz [SECONDS]  build the libFuzzer targets (clang-14) and run
#                                 each for SECONDS (default 60) on fuzz/corpus/<target>
# Installing is idempotent: only packages that are missing are fetched (apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake pkg-config python3          # toolchain
  check                                             # tests (libcheck)
  libdlpack-dev                                     # DLPack interop
  libvulkan-dev libvulkan-volk-dev glslc spirv-tools # Vulkan backend + SPIR-V programs
  libvkfft-dev glslang-dev                          # the Vulkan backend's FFT (VkFFT, optional)
  mesa-vulkan-drivers vulkan-validationlayers       # lavapipe + validation in tests
  llvm-14-dev clang-14 llvm-14                      # the LLVM IR frontend (weir analyze)
  libclang-rt-14-dev                                # libFuzzer for clang-14 (fuzz/)
  gnuplot-nox                                       # bench/plot
  libopenmpi-dev openmpi-bin                        # MPI transport (weir_mpi) + its mpirun tests
  python3-dev python3-numpy python3-pytest          # import weir (python/) + its pytest suite
  python3-torch                                     # the DLPack round trips with PyTorch
)
JOBS=$(nproc 2>/dev/null || echo 2)

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
  else
    echo "== all packages present"
  fi
}

configure() { # configure DIR [cmake args...]: -Werror always, ccache when installed
  local dir=$1; shift
  # The Debian interpreter, whose numpy and pytest dev.sh installs (a python3
  # earlier on PATH, such as a pyenv shim, would lack them).
  local py=() launcher=()
  [ -x /usr/bin/python3 ] && py=(-DPython3_EXECUTABLE=/usr/bin/python3)
  command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${py[@]}" "${launcher[@]}" "$@" \
    -DWEIR_WERROR=ON >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; return 1; }
  grep -E "^-- weir" "$dir.configure.log" || true
}

build() { # build DIR [cmake args...]
  echo "== building in $*"
  configure "$@"
  cmake --build "$1" -j"$JOBS"
}

# Release (-O3, NDEBUG) under -Werror with gcc and with clang-14: their
# optimisers warn where RelWithDebInfo's -O2 does not (maybe-uninitialized,
# format-truncation, for-loop-analysis), and a packager builds Release. Only
# libweir and the weir command (no tests, benchmarks, Python or CUDA
# programs): the point is the warnings, and it keeps the step short.
run_release_werror() {
  local cc start=$SECONDS
  for cc in gcc clang-14; do
    echo "== Release -Werror build with $cc in build-release-$cc"
    CC=$cc configure "build-release-$cc" -DCMAKE_BUILD_TYPE=Release -DWEIR_BUILD_TESTS=OFF \
      -DWEIR_BUILD_BENCH=OFF -DWEIR_BUILD_PYTHON=OFF -DWEIR_ENABLE_CUDA=OFF
    cmake --build "build-release-$cc" -j"$JOBS" --target weir weir_cli
  done
  echo "== Release -Werror builds (gcc, clang-14): $((SECONDS - start)) s"
}

run_example() {
  build build
  ./build/weir info
  echo
  ./build/weir demo --backend cpu
  echo
  echo "== weir solve examples/taint.ifds (a taint flow through a helper; see the file)"
  ./build/weir solve examples/taint.ifds -o build/taint.result
  cat build/taint.result
  if [ -f examples/analyze/command-injection.c ] && ./build/weir analyze --help >/dev/null 2>&1; then
    echo
    clang-14 -g -O0 -S -emit-llvm -o build/command-injection.ll examples/analyze/command-injection.c
    ./build/weir analyze taint build/command-injection.ll --sarif build/command-injection.sarif || true
  fi
}

run_tests() {
  build build
  (cd build && ctest --output-on-failure -j"$JOBS") 2>&1 | tee build/ctest.log
  # The whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer.
  # The CUDA programs are not rebuilt there: they cannot run on these machines
  # and the normal build already compiled and checked them.
  build build-asan -DWEIR_SANITIZE=ON -DWEIR_ENABLE_CUDA=OFF
  # Any process that probes Vulkan loads lavapipe; the loader unloads it again,
  # and LeakSanitizer then cannot name (or suppress) what Mesa keeps in its
  # globals. Preloading the driver keeps it mapped, so its blocks stay reachable.
  local preload=""
  [ -f /usr/lib/x86_64-linux-gnu/libvulkan_lvp.so ] && preload=/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so
  (cd build-asan && LD_PRELOAD="$preload" \
     ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 \
     LSAN_OPTIONS=suppressions="$PWD/../tests/lsan.supp" \
     ctest --output-on-failure -j"$JOBS") 2>&1 | tee build-asan/ctest.log
}

# The ten slowest CTest entries of both runs (normal, sanitizer), slowest
# first, so that CI time is spent where it shows.
slowest_tests() {
  echo "slowest tests (seconds, run):"
  for log in build/ctest.log build-asan/ctest.log; do
    [ -f "$log" ] || continue
    sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) .* \([0-9.]*\) sec$/\2 \1/p' "$log" |
      sed "s|\$| (${log%%/*})|"
  done | sort -rn | head -10 | sed 's/^/  /' || true
}

# One closing line for both CTest runs (normal and sanitizer builds), after
# the fuzzers: "tests: N passed, 0 failed, S skipped".
summarize_tests() {
  local total=0 failed=0 skipped=0 log t f s
  for log in build/ctest.log build-asan/ctest.log; do
    t=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
    f=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -1)
    s=$(grep -c '(Skipped)' "$log" || true)
    total=$((total + ${t:-0})); failed=$((failed + ${f:-0})); skipped=$((skipped + s))
  done
  echo "tests: $((total - failed - skipped)) passed, $failed failed, $skipped skipped"
}

# libFuzzer targets (fuzz/): built with clang-14 in build-fuzz, each run for
# $1 seconds on a scratch copy of its seed corpus (new inputs never land in the
# tree). A crash leaves its input in build-fuzz/fuzz-artifacts/ and fails.
run_fuzz() {
  local seconds=${1:-60} failed=0
  CC=clang-14 build build-fuzz -DWEIR_FUZZ=ON -DWEIR_BUILD_TESTS=OFF \
    -DWEIR_ENABLE_CUDA=OFF -DWEIR_ENABLE_VULKAN=OFF
  mkdir -p build-fuzz/fuzz-artifacts
  for target in build-fuzz/fuzz/fuzz_*; do
    [ -x "$target" ] || continue
    local name=${target##*/fuzz_} scratch=build-fuzz/fuzz-work/${target##*/}
    rm -rf "$scratch" && mkdir -p "$scratch"
    echo "== fuzzing ${target##*/} for $seconds s (seeds: fuzz/corpus/$name)"
    if ! ASAN_OPTIONS=detect_leaks=1 "$target" -max_total_time="$seconds" -rss_limit_mb=2048 \
        -timeout=10 -print_final_stats=1 -artifact_prefix=build-fuzz/fuzz-artifacts/ \
        "$scratch" "fuzz/corpus/$name" >"$scratch.log" 2>&1; then
      tail -40 "$scratch.log"
      echo "== ${target##*/} found a failing input (build-fuzz/fuzz-artifacts/). Fix the bug," \
           "then add the input to fuzz/corpus/$name/ and a regression test."
      failed=1
    else
      grep -E "^stat::number_of_executed_units|^Done" "$scratch.log" || true
    fi
  done
  return $failed
}

case "${1:-}" in
  example) install_missing; run_example ;;
  test) install_missing; run_tests; run_release_werror; run_fuzz 30; slowest_tests; summarize_tests ;;
  fuzz) install_missing; run_fuzz "${2:-60}" ;;
  *) echo "usage: bash scripts/dev.sh example|test|fuzz [SECONDS]" >&2; exit 2 ;;
esac
