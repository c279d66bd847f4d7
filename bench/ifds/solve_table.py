#!/usr/bin/env python3
"""Whole-process `weir solve` figures, reference solver and engine side by side.

For each problem and each solver/backend, runs `weir solve FILE --stats J`
REPEAT times (interleaved: ref, engine, ref, engine, ... so that the noise of
a shared machine hits both alike) and prints the medians:

  load MB/s, upload s, solve s, read-back s, whole-process wall s,
  peak process RSS per path edge, engine state per path edge
  (and the engine's graph / log / table / lists split),

plus the ratios engine/reference of solve and wall time. Writes every raw
sample and the medians as JSON with --json. Asserts nothing about timings;
exits 1 when a run fails or two results differ (they must be identical).

  bench/ifds/solve_table.py --weir build/weir --backends cpu,vulkan \\
      --gen realistic-2m="realistic --nodes 2000000" --file taint=weir-taint.ifds \\
      --repeat 3 --json out.json

--gen NAME="PRESET ARGS" writes the problem with `weir gen` first (into
--workdir); --file NAME=PATH uses an existing problem file.
"""
import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time


def run_solve(weir, path, solver, backend, workdir):
    out = os.path.join(workdir, "result")
    stats = os.path.join(workdir, "stats.json")
    cmd = [weir, "solve", path, "-o", out, "--stats", stats, "--solver", solver]
    if solver == "engine":
        cmd += ["--backend", backend]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    with open(stats) as f:
        st = json.load(f)
    with open(out, "rb") as f:
        digest = hash(f.read())
    st["seconds_wall"] = wall
    return st, digest


def measured(weir, path, solver, backend, workdir):
    """One run in a child Python process: RUSAGE_CHILDREN's peak RSS is the
    largest of all children so far, so each run needs a parent of its own."""
    code = (
        "import json,resource,sys;sys.path.insert(0,%r);import solve_table as t;"
        "st,d=t.run_solve(%r,%r,%r,%r,%r);"
        "st['peak_rss_bytes']=resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss*1024;"
        "st['digest']=d;print(json.dumps(st))"
    ) % (os.path.dirname(os.path.abspath(__file__)), weir, path, solver, backend, workdir)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONHASHSEED="0"))
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1])
    return json.loads(proc.stdout)


def med(samples, key):
    return statistics.median(s.get(key, 0) for s in samples)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weir", default="build/weir")
    ap.add_argument("--backends", default="cpu")
    ap.add_argument("--gen", action="append", default=[], metavar="NAME=ARGS")
    ap.add_argument("--file", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument("--workdir")
    a = ap.parse_args()
    if not a.gen and not a.file:
        ap.error("give at least one --gen NAME=ARGS or --file NAME=PATH")
    workdir = a.workdir or tempfile.mkdtemp(prefix="weir-solve-table-")
    problems = []
    for spec in a.gen:
        name, _, args = spec.partition("=")
        path = os.path.join(workdir, name + ".ifds")
        subprocess.run([a.weir, "gen", *shlex.split(args), "-o", path], check=True)
        problems.append((name, path, "weir gen " + args))
    for spec in a.file:
        name, _, path = spec.partition("=")
        problems.append((name, path, path))
    runs = [("reference", "host")] + [("engine", b) for b in a.backends.split(",") if b]
    report, failed = [], False
    print("| problem | solver | load MB/s | upload s | solve s | read-back s | wall s | "
          "RSS B/edge | state B/edge (graph/log/table/lists) | solve vs ref | wall vs ref |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, path, origin in problems:
        size = os.path.getsize(path)
        samples = {r: [] for r in runs}
        for _ in range(a.repeat):
            for r in runs:
                try:
                    samples[r].append(measured(a.weir, path, r[0], r[1], workdir))
                except RuntimeError as e:
                    print(f"{name} {r}: {e}", file=sys.stderr)
                    failed = True
        ref = samples[runs[0]]
        digests = {s["digest"] for r in runs for s in samples[r]}
        if len(digests) > 1:
            print(f"{name}: results differ between solvers or runs", file=sys.stderr)
            failed = True
        for r in runs:
            ss = samples[r]
            if not ss:
                continue
            edges = ss[0]["path_edges"] or 1
            row = {
                "problem": name, "origin": origin, "bytes": size, "solver": r[0],
                "backend": r[1], "path_edges": ss[0]["path_edges"],
                "load_mb_per_s": size / 1e6 / max(med(ss, "seconds_load"), 1e-9),
                "upload": med(ss, "seconds_upload"), "solve": med(ss, "seconds_solve"),
                "readback": med(ss, "seconds_readback"), "wall": med(ss, "seconds_wall"),
                "rss_per_edge": med(ss, "peak_rss_bytes") / edges,
                "state_per_edge": med(ss, "peak_resident_bytes") / edges,
                "split_per_edge": [med(ss, k) / edges for k in
                                   ("graph_bytes", "log_bytes", "table_bytes", "list_bytes")],
                "samples": ss,
            }
            if ref:
                row["solve_vs_ref"] = row["solve"] / max(med(ref, "seconds_solve"), 1e-9)
                row["wall_vs_ref"] = row["wall"] / max(med(ref, "seconds_wall"), 1e-9)
            report.append(row)
            split = "/".join(f"{x:.1f}" for x in row["split_per_edge"])
            state = f"{row['state_per_edge']:.1f} ({split})" if r[0] == "engine" else "-"
            print(f"| {name} ({row['path_edges'] / 1e6:.2f} M edges) | {r[0]} {r[1]} | "
                  f"{row['load_mb_per_s']:.0f} | {row['upload']:.3f} | {row['solve']:.3f} | "
                  f"{row['readback']:.3f} | {row['wall']:.3f} | {row['rss_per_edge']:.1f} | "
                  f"{state} | {row.get('solve_vs_ref', 1):.2f} | {row.get('wall_vs_ref', 1):.2f} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"weir": a.weir, "repeat": a.repeat, "rows": report}, f, indent=1)
    print(f"medians of {a.repeat}; command: {' '.join(shlex.quote(x) for x in sys.argv)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
