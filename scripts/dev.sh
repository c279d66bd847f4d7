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
# for packagers and users), with ccache as the compiler launcher when it is
# installed (CCACHE_BASEDIR: objects with the same flags in two build trees,
# such as VkFFT's, are compiled once), and with Ninja when it is installed
# (an existing build tree keeps the generator it was configured with).
# `test` prints each phase's seconds and a table of them at the end.
#   bash scripts/dev.sh fuzz [SECONDS]  build the libFuzzer targets (clang-14) and run
#                                 each for SECONDS (default 60) on fuzz/corpus/<target>
# Installing is idempotent: only packages that are missing are fetched (apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake pkg-config python3          # toolchain
  ninja-build ccache                                # faster builds (used when installed)
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

# ccache keys objects on paths relative to the checkout and ignores the build
# directory, so that a file compiled with the same flags in build/ and
# build-asan/ (VkFFT's object, backends/vulkan/CMakeLists.txt) is a hit the
# second time. Only the debug info's compilation directory may then name the
# other tree.
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi

configure() { # configure DIR [cmake args...]: -Werror always, ccache and Ninja when installed
  local dir=$1; shift
  # The Debian interpreter, whose numpy and pytest dev.sh installs (a python3
  # earlier on PATH, such as a pyenv shim, would lack them).
  local py=() launcher=() generator=()
  [ -x /usr/bin/python3 ] && py=(-DPython3_EXECUTABLE=/usr/bin/python3)
  command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
  # Ninja schedules the whole build at once (make walks target by target);
  # a tree configured before keeps its generator, which CMake cannot change.
  if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
  cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${py[@]}" "${launcher[@]}" "$@" \
    -DWEIR_WERROR=ON >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; return 1; }
  grep -E "^-- weir" "$dir.configure.log" || true
}

# phase NAME CMD...: runs CMD, prints its seconds and keeps them for the
# table at the end (phase_table), so that CI time is spent where it shows.
PHASES=()
# (No `|| ...` around CMD: that would turn off set -e inside it.)
phase() {
  local name=$1 start=$SECONDS; shift
  "$@"
  PHASES+=("$((SECONDS - start)) $name")
  echo "== phase $name: $((SECONDS - start)) s"
}
phase_table() {
  echo "phases (seconds):"
  local p
  for p in "${PHASES[@]}"; do echo "  $p"; done
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
  local cc
  for cc in gcc clang-14; do
    phase "release-$cc" release_build "$cc"
  done
}
release_build() { # release_build CC
  echo "== Release -Werror build with $1 in build-release-$1"
  CC=$1 configure "build-release-$1" -DCMAKE_BUILD_TYPE=Release -DWEIR_BUILD_TESTS=OFF \
    -DWEIR_BUILD_BENCH=OFF -DWEIR_BUILD_PYTHON=OFF -DWEIR_ENABLE_CUDA=OFF
  cmake --build "build-release-$1" -j"$JOBS" --target weir weir_cli
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
  phase build build build
  phase ctest run_ctest build
  # The whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer.
  # The CUDA programs are not rebuilt there: they cannot run on these machines
  # and the normal build already compiled and checked them.
  phase build-asan build build-asan -DWEIR_SANITIZE=ON -DWEIR_ENABLE_CUDA=OFF
  # Lavapipe is preloaded only where a test opens Vulkan (the tests' own
  # environment, backends/vulkan/CMakeLists.txt), never for the whole run: in
  # every process it cost python3 3 s and each clang or sh 70 ms at start-up
  # (llvm-cli took 75 s instead of 17). CK_FORK=no: Check runs each test
  # case in the suite's own process instead of a child forked per case; an
  # instrumented process forks in ~0.1 s (its shadow memory), which was half
  # of the ifds suite's 20 s. The normal run above keeps one child per case
  # (a crash or a hang there names its case; here one failing case may
  # disturb the cases after it in the same suite, and CTest's --timeout
  # bounds a hang).
  # fast_unwind_on_malloc=0: the tests that only open Vulkan to list or
  # probe the backends (core, the CLI's backend checks) unload lavapipe
  # before LeakSanitizer reports what the driver kept; with the frame-pointer
  # unwinder its stacks end in "<unknown module>" (Mesa 22.3.6-1+deb12u2),
  # the slow unwinder reaches the Vulkan loader, which tests/lsan.supp names.
  # The solves on lavapipe turn leak checking off in their own environment.
  phase ctest-asan run_ctest build-asan CK_FORK=no \
    ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 \
    LSAN_OPTIONS=suppressions="$PWD/tests/lsan.supp":fast_unwind_on_malloc=0
}

# --timeout: the limit of every entry that sets none of its own (with
# CK_FORK=no Check enforces no per-case timeouts, so a hang would otherwise
# stall the run without naming the test).
run_ctest() { # run_ctest DIR [VAR=VALUE...]: every test (in that environment), the log in DIR/ctest.log
  local dir=$1; shift
  (cd "$dir" && env "$@" ctest --output-on-failure --timeout 900 -j"$JOBS") 2>&1 | tee "$dir/ctest.log"
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
# tree), all at once: $1 seconds of wall time in all, the cores shared (three
# targets on two cores: 20 s of a core each; one after the other, two at a
# time, left a core idle for the last 30 s). A crash leaves its input in
# build-fuzz/fuzz-artifacts/ and fails.
build_fuzz() {
  CC=clang-14 build build-fuzz -DWEIR_FUZZ=ON -DWEIR_BUILD_TESTS=OFF \
    -DWEIR_ENABLE_CUDA=OFF -DWEIR_ENABLE_VULKAN=OFF
}

fuzz_one() { # fuzz_one TARGET SECONDS: its log in SCRATCH.log, 0 or 1 in SCRATCH.rc
  local target=$1 seconds=$2 name=${1##*/fuzz_} scratch=build-fuzz/fuzz-work/${1##*/}
  if ASAN_OPTIONS=detect_leaks=1 "$target" -max_total_time="$seconds" -rss_limit_mb=2048 \
      -timeout=10 -print_final_stats=1 -artifact_prefix=build-fuzz/fuzz-artifacts/ \
      "$scratch" "fuzz/corpus/$name" >"$scratch.log" 2>&1; then
    echo 0 >"$scratch.rc"
  else
    echo 1 >"$scratch.rc"
  fi
}

run_fuzz() {
  local seconds=${1:-60} failed=0 target targets=()
  mkdir -p build-fuzz/fuzz-artifacts
  for target in build-fuzz/fuzz/fuzz_*; do
    [ -x "$target" ] || continue
    local scratch=build-fuzz/fuzz-work/${target##*/}
    rm -rf "$scratch" "$scratch.rc" && mkdir -p "$scratch"
    echo "== fuzzing ${target##*/} for $seconds s (seeds: fuzz/corpus/${target##*/fuzz_})"
    fuzz_one "$target" "$seconds" &
    targets+=("$target")
  done
  wait
  for target in "${targets[@]}"; do
    local name=${target##*/fuzz_} scratch=build-fuzz/fuzz-work/${target##*/}
    if [ "$(cat "$scratch.rc" 2>/dev/null)" != 0 ]; then
      tail -40 "$scratch.log"
      echo "== ${target##*/} found a failing input (build-fuzz/fuzz-artifacts/). Fix the bug," \
           "then add the input to fuzz/corpus/$name/ and a regression test."
      failed=1
    else
      echo "== ${target##*/}: $(grep -E "^Done" "$scratch.log" || true)"
      grep -E "^stat::number_of_executed_units" "$scratch.log" || true
    fi
  done
  return $failed
}

case "${1:-}" in
  example) install_missing; run_example ;;
  test) install_missing; run_tests; run_release_werror; phase build-fuzz build_fuzz
        phase fuzz run_fuzz 30; slowest_tests; phase_table; summarize_tests ;;
  fuzz) install_missing; build_fuzz; run_fuzz "${2:-60}" ;;
  *) echo "usage: bash scripts/dev.sh example|test|fuzz [SECONDS]" >&2; exit 2 ;;
esac
