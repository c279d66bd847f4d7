#!/usr/bin/env python3
"""FFT throughput: `weir bench fft` against numpy.fft, in the same run.

Runs `weir bench fft --json` (a plan made once, one weir_fft_execute per
timed run: one dispatch, no allocation), then times numpy.fft on the same
cases (numpy allocates its output each call, as it always does; numpy 1.x
computes float32 input in float64). GFLOP/s by the usual convention:
5 * N * log2(N) per complex transform, half for a real one. Median of --runs.

    python3 bench/fft/fft_bench.py --weir build/weir [--runs 7] [--backend cpu]
        [--sizes 64,256,...] [--json out.json]
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def median_s(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weir", default="build/weir", help="the weir command (default build/weir)")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--backend", action="append", help="repeatable (default: cpu)")
    ap.add_argument("--sizes", help="passed to weir bench fft")
    ap.add_argument("--json", help="write the joined records here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "weir.json")
        cmd = [args.weir, "bench", "fft", "--runs", str(args.runs), "--json", out]
        for b in args.backend or []:
            cmd += ["--backend", b]
        if args.sizes:
            cmd += ["--sizes", args.sizes]
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=sys.stderr)
        if r.returncode != 0:
            sys.exit(f"fft_bench: {' '.join(cmd)} exited {r.returncode}")
        with open(out) as f:
            rows = json.load(f)
    rng = np.random.default_rng(0)
    print(f"numpy {np.__version__}; {os.cpu_count()} cores; load average "
          f"{os.getloadavg()[0]:.1f}")
    print("| backend | kind | n | batch | dtype | weir GFLOP/s | numpy GFLOP/s | weir / numpy |")
    print("| --- | --- | ---: | ---: | --- | ---: | ---: | ---: |")
    for row in rows:
        n, batch, dtype = row["n"], row["batch"], row["dtype"]
        x = rng.uniform(-0.5, 0.5, (batch, n)).astype(dtype)
        if row["kind"] == "c2c":
            z = (x + 1j * rng.uniform(-0.5, 0.5, (batch, n))).astype(
                np.complex64 if dtype == "float32" else np.complex128)
            t = median_s(lambda: np.fft.fft(z), args.runs)
        else:
            t = median_s(lambda: np.fft.rfft(x), args.runs)
        flops = 5 * n * math.log2(max(n, 2)) * batch * (0.5 if row["kind"] == "r2c" else 1.0)
        row["numpy_gflops"] = flops / t / 1e9
        row["ratio"] = row["gflops"] / row["numpy_gflops"]
        print(f"| {row['backend']} | {row['kind']} | {n} | {batch} | {dtype} | "
              f"{row['gflops']:.2f} | {row['numpy_gflops']:.2f} | {row['ratio']:.2f}x |",
              flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
