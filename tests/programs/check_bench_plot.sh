#!/bin/sh
# bench/plot on a small `weir bench --json` run: both charts written, non-empty.
# Usage: check_bench_plot.sh WEIR PLOT OUTDIR. Exit 77 (skipped) without gnuplot.
set -eu
weir=$1 plot=$2 out=$3
command -v gnuplot >/dev/null 2>&1 || { echo "skipped: gnuplot not installed (Debian: gnuplot-nox)"; exit 77; }
rm -rf "$out"; mkdir -p "$out"
"$weir" bench --backend cpu --all-scenarios --steps 8 --runs 2 --readback-max 4K --copy-size 64K \
  --upload-count 2 --quiet --json "$out/r.json" >/dev/null
"$plot" "$out/r.json" "$out"
for f in dispatch.png readback.png; do
  [ -s "$out/$f" ] || { echo "FAIL: $out/$f missing or empty"; exit 1; }
done
echo "plots ok"
