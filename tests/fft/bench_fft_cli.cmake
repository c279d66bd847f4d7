# `weir bench fft` command-line behaviour (CTest cli-bench-fft-errors):
#   cmake -DWEIR=path/to/weir -DMOCK_CUDA=path/to/libweir_mock_cuda.so (optional)
#         -DOUT=scratch/dir -P bench_fft_cli.cmake
# A bad --backend spec, a too long --sizes value and an unwritable --json
# fail at once with exit 2 and a Fix; a case the backend's FFT cannot do is
# skipped alone (stderr names it and why, the table and JSON list it) and the
# other cases still run.
function(run_weir expect_rc)
  execute_process(COMMAND ${WEIR} bench fft ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${expect_rc}")
    message(FATAL_ERROR "weir bench fft ${ARGN}: exit ${rc} (expected ${expect_rc})\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
function(expect text pattern what)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: no match for '${pattern}' in:\n${text}")
  endif()
endfunction()

run_weir(2 --backend bogus --sizes 8 --runs 1)
expect("${err}" "--backend bogus: .*Fix:" "bogus backend")
expect("${out}" "^$" "bogus backend prints no table")

run_weir(2 --sizes 8,4294967297 --runs 1)
expect("${err}" "4294967297 is above the largest FFT length 4294967295 .*Fix: pass lengths 1 \\.\\. 4294967295" "too long")

# Lists: an unknown or empty element is refused, not dropped.
run_weir(2 --sizes 8 --runs 1 --kinds r2c,bogus)
expect("${err}" "--kinds r2c,bogus.*Fix:" "unknown kind in a list")
run_weir(2 --sizes 8,,16 --runs 1)
expect("${err}" "--sizes 8,,16.*Fix:" "empty size")
run_weir(2 --sizes 8 --runs 1 --dtypes float32float64)
expect("${err}" "--dtypes float32float64.*Fix:" "run-together dtypes")

file(MAKE_DIRECTORY ${OUT})
run_weir(2 --sizes 8 --runs 1 --json ${OUT}/no/such/dir/out.json)
expect("${err}" "cannot write --json .*Fix:" "unwritable json")
expect("${out}" "^$" "unwritable json: nothing ran")

if(MOCK_CUDA)
  # cuda opens (the mock driver) but its FFT library is missing: every cuda
  # case is skipped with the reason, the cpu cases after it still run.
  set(ENV{WEIR_CUDA_DRIVER} ${MOCK_CUDA})
  set(ENV{WEIR_CUFFT_LIBRARY} ${OUT}/no-such-libcufft.so)
  run_weir(0 --backend cuda --backend cpu --sizes 1,8 --batch 4 --runs 1 --kinds c2c
           --dtypes float32 --json ${OUT}/skip.json)
  expect("${out}" "\\| cuda \\| c2c \\| 1 \\| 4 \\| float32 \\| skipped" "cuda n=1 listed")
  expect("${out}" "\\| cuda \\| c2c \\| 8 \\| 4 \\| float32 \\| skipped" "cuda n=8 listed")
  expect("${out}" "\\| cpu \\| c2c \\| 8 \\| 4 \\| float32 \\| [0-9]" "cpu n=8 measured")
  expect("${err}" "skipping cuda c2c n=8 batch=4 float32: .*cuFFT" "reason on stderr")
  file(READ ${OUT}/skip.json json)
  expect("${json}" "\"backend\": \"cuda\", \"kind\": \"c2c\", \"n\": 8, .*\"skipped\": \"" "json skipped")
  expect("${json}" "\"backend\": \"cpu\", \"kind\": \"c2c\", \"n\": 8, .*\"median_ns\"" "json cpu")
endif()
